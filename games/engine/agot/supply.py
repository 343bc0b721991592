"""Supply limits (R63-R67, R161, R238d): armies are 2+ units of one house in one area (ports included).

`fits(state, house, delta)` answers "would the house's armies fit its supply level if the unit
counts per area changed by `delta`?" without touching the state. combat.py uses it for retreats.
"""
from __future__ import annotations

from typing import Any

from games.engine.agot import names as NM
from games.engine.agot.data import supply_table
from games.engine.narration import gettext

State = dict[str, Any]


def army_sizes(state: State, house: str, delta: dict[str, int] | None = None) -> list[int]:
    """Sizes of the house's armies (2+ units in an area), largest first, after `delta` {area: +-n}."""
    counts: dict[str, int] = {}
    for area, by_house in state["units"].items():
        n = len(by_house.get(house, ()))
        if n:
            counts[area] = n
    if delta:
        for area, d in delta.items():
            counts[area] = counts.get(area, 0) + d
    return sorted((n for n in counts.values() if n >= 2), reverse=True)


def allowed(level: int) -> tuple[int, ...]:
    return supply_table()[max(0, min(6, level))]


def sizes_fit(sizes: list[int], level: int) -> bool:
    """R65: no more armies than slots and the i-th largest army within the i-th largest slot."""
    slots = allowed(level)
    if len(sizes) > len(slots):
        return False
    return all(a <= c for a, c in zip(sizes, slots, strict=False))


def fits(state: State, house: str, delta: dict[str, int] | None = None) -> bool:
    return sizes_fit(army_sizes(state, house, delta), state["supply"][house])


def max_army(state: State, house: str) -> int:
    return allowed(state["supply"][house])[0]


# ------------------------------------------------------------------ reconciling armies (R63, D3, A22)
#
# A reduction is legal when the armies fit afterwards and no unit named could be spared: putting any one
# of them back leaves the armies illegal (docs/rules-decisions.md, Issue 4, "reduce"). Legality is
# monotone in the units removed, so these are exactly the inclusion-minimal reductions. They are
# enumerated as target sizes per army (an army never needs to go below 1 unit).

DESTROY_PRIORITY = ("footman", "ship", "siege_engine", "knight")  # D3, D12, D24


def _army_counts(state: State, house: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for area, by_house in state["units"].items():
        n = len(by_house.get(house, ()))
        if n >= 2:
            out[area] = n
    return out


def _fits_targets(armies: dict[str, int], target: dict[str, int], level: int) -> bool:
    sizes = sorted((t for t in (target.get(a, n) for a, n in armies.items()) if t >= 2), reverse=True)
    return sizes_fit(sizes, level)


def minimal_targets(state: State, house: str) -> list[dict[str, int]]:
    """Every inclusion-minimal legal reduction as {area: units kept} for the areas reduced (R63, A22)."""
    armies = _army_counts(state, house)
    level = state["supply"][house]
    if sizes_fit(sorted(armies.values(), reverse=True), level):
        return []
    areas = sorted(armies)
    out: list[dict[str, int]] = []

    def rec(i: int, target: dict[str, int]) -> None:
        if i == len(areas):
            if not _fits_targets(armies, target, level):
                return
            for a, t in target.items():
                bigger = dict(target)
                bigger[a] = t + 1
                if _fits_targets(armies, bigger, level):
                    return
            out.append({a: t for a, t in target.items()})
            return
        a = areas[i]
        for t in range(armies[a], 0, -1):
            if t < armies[a]:
                target[a] = t
            rec(i + 1, target)
            target.pop(a, None)

    rec(0, {})
    return out


def _removal(units: list[str], k: int) -> list[str]:
    """The k units D3 removes first from an area: footmen, ships, siege engines, knights."""
    ranked = sorted(units, key=lambda u: (DESTROY_PRIORITY.index(u.removeprefix("routed_")), u))
    return ranked[:k]


def default_reduction(state: State, house: str) -> dict[str, list[str]]:
    """D3: the fewest units; then the most footmen, ships, siege engines; then the lowest area ids."""
    best: tuple[Any, ...] | None = None
    pick: dict[str, list[str]] = {}
    for target in minimal_targets(state, house):
        removal = {a: _removal(state["units"][a][house], len(state["units"][a][house]) - t)
                   for a, t in sorted(target.items())}
        flat = [u.removeprefix("routed_") for us in removal.values() for u in us]
        key = (len(flat), *(-flat.count(k) for k in DESTROY_PRIORITY[:3]), sorted(removal))
        if best is None or key < best:
            best, pick = key, removal
    return pick


def _distinct_subsets(units: list[str], k: int) -> int:
    counts = sorted({u: units.count(u) for u in units}.values())
    ways = [1] + [0] * k
    for c in counts:
        new = [0] * (k + 1)
        for have in range(k + 1):
            if ways[have]:
                for take in range(min(c, k - have) + 1):
                    new[have + take] += ways[have]
        ways = new
    return ways[k]


def reduction_choices(state: State, house: str) -> int:
    """How many distinct legal reductions there are (identical units count once), capped at 2."""
    total = 0
    for target in minimal_targets(state, house):
        n = 1
        for a, t in target.items():
            units = state["units"][a][house]
            n *= _distinct_subsets(units, len(units) - t)
        total += n
        if total >= 2:
            return 2
    return total


def check_reduction(state: State, house: str, value: Any) -> dict[str, list[str]]:
    """Validate a `reduce` act {area: [units]} (R63, A22); returns it without empty entries."""
    from collections import Counter

    from games.engine.base import EngineError

    if not isinstance(value, dict) or not all(isinstance(v, list) for v in value.values()):
        raise EngineError("bad_action", gettext("reduce takes {area: [units]}"))
    clean: dict[str, list[str]] = {}
    for area, units in value.items():
        if not all(isinstance(u, str) for u in units):
            raise EngineError("bad_action", gettext("reduce takes {area: [units]}"))
        if not units:
            continue
        have = Counter(state["units"].get(area, {}).get(house, [])) if isinstance(area, str) else Counter()
        if Counter(units) - have:
            raise EngineError("illegal_action", gettext("%(house)s has no such units in %(area)s: %(units)s") % {
                "house": NM.house(house), "area": NM.area(area), "units": NM.units(units)})
        clean[area] = list(units)
    delta = {a: -len(us) for a, us in clean.items()}
    if not fits(state, house, delta):
        raise EngineError("illegal_action", gettext("%(house)s's armies would still exceed supply %(level)s") % {
            "house": NM.house(house), "level": state["supply"][house]}, rules=("R63",))
    for a in clean:
        back = dict(delta)
        back[a] += 1
        if fits(state, house, back):
            raise EngineError("illegal_action", gettext(
                "more units than needed destroyed in %(area)s: stop as soon as the armies fit") % {"area": NM.area(a)}, rules=("A22",))
    return clean


def all_reductions(state: State, house: str, cap: int = 300) -> list[dict[str, list[str]]] | None:
    """Every distinct legal reduction (identical units once), or None when there are more than `cap`."""
    from itertools import combinations, product

    out: list[dict[str, list[str]]] = []
    for target in minimal_targets(state, house):
        per_area = []
        for a, t in sorted(target.items()):
            units = sorted(state["units"][a][house])
            per_area.append([(a, list(c)) for c in sorted(set(combinations(units, len(units) - t)))])
        for combo in product(*per_area):
            out.append(dict(combo))
            if len(out) > cap:
                return None
    return out


def random_reduction(state: State, house: str, rnd: Any) -> dict[str, list[str]]:
    targets = minimal_targets(state, house)
    target = rnd.choice(targets)
    out: dict[str, list[str]] = {}
    for a, t in sorted(target.items()):
        units = list(state["units"][a][house])
        rnd.shuffle(units)
        out[a] = units[: len(units) - t]
    return out
