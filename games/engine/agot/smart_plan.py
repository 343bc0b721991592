"""The smart bot's Planning phase (docs/agot-bot.md): which order goes on which area.

Roles, decided in this order:
1. **attack**: a land army marches into an enemy-held or neutral area when its estimated strength
   (units + the March bonus + every Support it can place next to the target) beats the defender's
   (units, garrison, a likely Defense +1 and every Support the defender could place), both sides
   playing their strongest house card (smart_eval.planned_margin). The best targets first
   (castles, enemy homes, crowns, barrels); at most the three March tokens (R116).
2. **support**: the seat's other areas next to one of its targets.
3. **defend**: a home or castle/stronghold area that an enemy army next to it threatens.
4. **expand**: a land army walks into a free land area (no units, garrison or neutral force, not
   its own), keeping one unit in a threatened home or castle.
5. otherwise **raid** an adjacent enemy, or **gather** power (Consolidate Power); ships support.
Tokens respect the counts (R116), the King's Court stars (R117) and the Westeros restrictions
(R57-R62); the engine checks the result and an impossible plan falls back to the D13 default.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine.agot import action, planning
from games.engine.agot import board as B
from games.engine.agot import smart_eval as E
from games.engine.agot.data import LAND_UNITS, ORDER_TOKENS, board, token_bonus, token_special
from games.engine.base import EngineError

State = dict[str, Any]

ROLE_TOKENS: dict[str, tuple[str, ...]] = {
    "attack": ("march+1*", "march+0", "march-1"),
    "support": ("support+1*", "support+0", "defense+1", "consolidate"),
    "defend": ("defense+2*", "defense+1", "support+0", "consolidate"),
    "expand": ("march-1", "march+0", "march+1*", "consolidate"),
    "raid": ("raid*", "raid", "support+0", "consolidate", "defense+1"),
    "gather": ("consolidate*", "consolidate", "raid", "support+0", "defense+1"),
    "sea": ("support+0", "raid", "raid*", "support+1*", "defense+1", "march-1"),
}
ROLE_ORDER = ("attack", "defend", "support", "expand", "raid", "sea", "gather")
MARCH_TOKENS = ("march+1*", "march+0", "march-1")


def movable_land(state: State, seat: str, area: str) -> list[str]:
    return sorted(u for u in B.house_units(state, area, seat) if not B.is_routed(u) and B.base_unit(u) in LAND_UNITS)


def land_targets(state: State, seat: str, area: str) -> list[str]:
    """Land areas the area's land units may reach: adjacent or by ship transport (R259)."""
    reach = set(board().land_next_to.get(area, ())) | action.transport_reach(state, seat, area)
    return sorted(t for t in reach if state["neutral_forces"].get(t) != "impassable")


def is_free(state: State, seat: str, target: str) -> bool:
    """Takeable without a fight and not already ours."""
    if B.units_in(state, target) or state["neutral_forces"].get(target) is not None:
        return False
    if state["garrisons"].get(target) and B.home_of(state, target) != seat:
        return False
    return B.controller(state, target) != seat


def is_contested(state: State, seat: str, target: str) -> bool:
    return action.is_combat_area(state, seat, target)


def keep_home(state: State, seat: str, area: str) -> bool:
    """A home or castle/stronghold area next to an enemy army keeps one unit (the weakest)."""
    return (B.home_area(state, seat) == area or B.has_castle(area)) and E.threat_to(state, seat, area, False) > 0


def sea_targets(state: State, seat: str, area: str) -> list[str]:
    """Sea areas next to a sea area holding the seat's ships (ships never use transport, R163)."""
    if board().type[area] != "sea":
        return []
    return [t for t in board().adjacent[area] if board().type[t] == "sea"]


def keeps_castle_without_unit(state: State, seat: str, area: str) -> bool:
    """Control of the area survives its units leaving: a home shield (A33) or a power token there,
    or available power to leave one (R154)."""
    return (B.home_area(state, seat) == area or state["power_tokens"].get(area) == seat
            or state["power"][seat] >= 1)


def attackers_from(state: State, seat: str, area: str) -> list[str]:
    """The units a March from `area` sends: its land units (ships from a sea area), keeping the
    weakest in a threatened home or castle, and in a castle whose control would be lost."""
    if board().type[area] == "sea":
        return sorted(u for u in B.house_units(state, area, seat) if not B.is_routed(u))
    units = movable_land(state, seat, area)
    keep = keep_home(state, seat, area) or (B.has_castle(area) and not keeps_castle_without_unit(state, seat, area))
    if keep and len(units) == len(B.house_units(state, area, seat)) and units:
        units = sorted(units, key=lambda u: (E.units_strength([u], attacking=True, castle=False), u))[1:]
    return units


def frontier(state: State, seat: str, area: str) -> int:
    """The best enemy-held or neutral land area next to `area` (its smart_eval.area_value), 0 if none."""
    return max((E.area_value(state, seat, t) for t in board().land_next_to.get(area, ())
                if state["neutral_forces"].get(t) != "impassable" and is_contested(state, seat, t)), default=0)


def regroup_target(state: State, seat: str, area: str) -> str | None:
    """An adjacent area of the seat's own (by land) closer to a worthwhile enemy: its frontier value
    is higher than here. Armies gather there to attack together next round."""
    here = frontier(state, seat, area)
    best: tuple[int, str] | None = None
    for t in board().land_next_to.get(area, ()):
        if B.controller(state, t) != seat or is_contested(state, seat, t):
            continue
        gain = frontier(state, seat, t) - here
        if gain > 0 and (best is None or (-gain, t) < best):
            best = (-gain, t)
    return best[1] if best else None


def plan_orders(state: State, seat: str) -> dict[str, str]:
    b = board()
    areas = planning.areas_needing_orders(state, seat)
    roles: dict[str, str] = {}
    left = Counter({t: n for t, n in ORDER_TOKENS.items() if not planning.restricted(state, t)})
    stars = B.stars_of(state, seat)
    march_tokens = [t for t in MARCH_TOKENS if left[t] > 0 and (not token_special(t) or stars > 0)]

    # 1. attacks, best first
    candidates = []
    for area in areas:
        units = attackers_from(state, seat, area)
        if not units:
            continue
        for target in land_targets(state, seat, area) if b.type[area] == "land" else sea_targets(state, seat, area):
            if is_contested(state, seat, target):
                value = E.area_value(state, seat, target)
                lead = E.leader(state, exclude=seat)
                if E.defender_of(state, seat, target) == lead:
                    value += 1  # weaken the leader
                candidates.append((-value, area, target))
    candidates.sort()
    targets: dict[str, str] = {}
    for _neg, area, target in candidates:
        if area in roles or target in targets.values() or not march_tokens:
            continue
        units = attackers_from(state, seat, area)
        castle = B.has_castle(target)
        supporters = {a for a in b.adjacent[target] if a in areas and a not in roles and a != area
                      and E.can_support(a, target)}
        support = E.potential_support(state, seat, target, attacking=True,
                                      exclude=set(areas) - supporters)
        token = march_tokens[0]
        attack = E.units_strength(units, attacking=True, castle=castle) + token_bonus(token) + support
        if E.planned_margin(state, seat, target, attack) > 0:
            roles[area] = "attack"
            targets[area] = target
            march_tokens.pop(0)
            if token_special(token):
                stars -= 1
            for a in supporters:
                roles[a] = "support"

    # 2.-5. the other areas
    for area in areas:
        if area in roles:
            continue
        if b.type[area] != "land":
            roles[area] = "sea"
            continue
        home_or_castle = b.home.get(seat) == area or B.has_castle(area)
        threat = E.threat_to(state, seat, area)
        mine = E.units_strength(B.house_units(state, area, seat), attacking=False, castle=B.has_castle(area))
        if home_or_castle and threat > 0 and threat >= mine:
            roles[area] = "defend"
        elif attackers_from(state, seat, area) and (any(is_free(state, seat, t) for t in land_targets(state, seat, area))
                                                    or regroup_target(state, seat, area)):
            roles[area] = "expand"
        elif threat > 0:
            roles[area] = "raid" if any(_enemy_next_to(state, seat, area)) else "support"
        else:
            roles[area] = "gather"
    return _tokens(state, seat, areas, roles, left, B.stars_of(state, seat))


def _enemy_next_to(state: State, seat: str, area: str) -> list[str]:
    return [a for a in board().land_next_to.get(area, ()) if any(h != seat for h in B.units_in(state, a))]


def _tokens(state: State, seat: str, areas: list[str], roles: dict[str, str], left: Counter[str], stars: int) -> dict[str, str]:
    b = board()
    out: dict[str, str] = {}
    order = sorted(areas, key=lambda a: (ROLE_ORDER.index(roles[a]), a))
    for area in order:
        land = b.type[area] == "land"
        for token in ROLE_TOKENS[roles[area]] + tuple(ORDER_TOKENS):
            if left[token] <= 0 or (token.startswith("consolidate") and not land):
                continue
            if token_special(token) and stars <= 0:
                continue
            if roles[area] not in ("attack", "expand") and token.startswith("march") and b.type[area] == "land":
                continue  # a stray March would only waste the army; keep marching for real plans
            out[area] = token
            left[token] -= 1
            stars -= 1 if token_special(token) else 0
            break
    try:
        planning.check_orders(state, seat, out)
    except EngineError:
        # short of tokens (R119): let any area take any token left
        for area in order:
            if area in out:
                continue
            for token in ORDER_TOKENS:
                if left[token] > 0 and not (token.startswith("consolidate") and b.type[area] != "land") \
                        and not (token_special(token) and stars <= 0):
                    out[area] = token
                    left[token] -= 1
                    stars -= 1 if token_special(token) else 0
                    break
        try:
            planning.check_orders(state, seat, out)
        except EngineError:
            from games.engine.agot import defaults

            return defaults.default_orders(state, seat)
    return out
