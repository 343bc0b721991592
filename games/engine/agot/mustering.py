"""Mustering (R68-R81, R248-R249): points, costs, upgrades, ships, unit and supply limits.

A muster act names, per area where units go, what is recruited or upgraded there (SCENARIOS.md):
`{winterfell: [{recruit: footman}, {upgrade: footman, to: knight}], port_of_winterfell: [{recruit: ship}]}`.
A ship names its paying castle with `from` when more than one could pay. Used by the Mustering card
(and A Throne of Blades), The Horde Descends (one area) and the special Consolidate Power order (R182,
its own area only).
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engine.agot import board as B
from games.engine.agot import names as NM
from games.engine.agot import supply
from games.engine.agot.data import board, unit_limits
from games.engine.base import EngineError
from games.engine.narration import gettext, ngettext

State = dict[str, Any]
Event = dict[str, Any]
COST = {"footman": 1, "knight": 2, "siege_engine": 2, "ship": 1}  # R69
UPGRADES = ("knight", "siege_engine")  # R71: 1 point each


class Plan:
    """A validated muster: units added per area, footmen upgraded per area, points spent per castle."""

    def __init__(self) -> None:
        self.add: dict[str, list[str]] = {}
        self.upgrade: dict[str, list[str]] = {}
        self.spent: Counter[str] = Counter()

    def empty(self) -> bool:
        return not self.add and not self.upgrade


def points(area: str) -> int:
    """R68: a stronghold gives 2 mustering points, a castle 1."""
    return 2 if board().structure[area] == "stronghold" else 1


def muster_areas(state: State, house: str) -> list[str]:
    """Castle and stronghold areas the house controls (R48, R79, R80: a power token is enough)."""
    return [a for a in board().castle_areas if B.controller(state, a) == house]


def _bad() -> EngineError:
    return EngineError("bad_action", gettext("muster takes {area: [{recruit: unit} | {recruit: ship, from: area} | "
                                             "{upgrade: footman, to: knight|siege_engine}]}"))


def _ship_payer(state: State, house: str, dest: str, given: Any, allowed: list[str]) -> str:
    b = board()
    if b.type[dest] == "port":
        payer = b.port_land[dest]
        if payer not in allowed or (given is not None and given != payer):
            raise EngineError("illegal_action", gettext("a ship in %(area)s is paid by %(payer)s, which cannot muster now") % {
                "area": NM.area(dest), "payer": NM.area(payer)}, rules=("R75",))
        if any(h != house for h in state["units"].get(dest, {})):
            raise EngineError("illegal_action", gettext("enemy ships stand in %(area)s") % {"area": NM.area(dest)})
        return payer
    if B.enemy_ships_in(state, dest, house):
        raise EngineError("illegal_action", gettext("ships cannot be mustered into a sea holding enemy ships: %(area)s") % {"area": NM.area(dest)}, rules=("R75",))
    payers = [a for a in allowed if dest in b.adj_set[a]]
    if given is not None:
        if given not in payers:
            raise EngineError("illegal_action", gettext("%(payer)s cannot muster a ship into %(area)s") % {"payer": NM.area(given), "area": NM.area(dest)}, rules=("R75",))
        return str(given)
    if not payers:
        raise EngineError("illegal_action", gettext("no mustering area of %(house)s is next to %(area)s") % {"house": NM.house(house), "area": NM.area(dest)}, rules=("R75",))
    if len(payers) > 1:
        raise EngineError("illegal_action", gettext("name the paying castle with from: %(areas)s") % {"areas": NM.areas(payers)})
    return payers[0]


def _item(state: State, house: str, dest: str, item: Any, allowed: list[str], plan: Plan) -> None:
    b = board()
    if not isinstance(item, dict) or not all(isinstance(v, str) for v in item.values()):
        raise _bad()  # every field of an item names a unit or an area
    keys = set(item)
    if keys in ({"recruit"}, {"recruit", "from"}):
        unit = item["recruit"]
        if unit not in COST:
            raise _bad()
        if unit == "ship":
            if b.type[dest] == "land":
                raise EngineError("illegal_action", gettext("ships go into a port or an adjacent sea, not %(area)s") % {"area": NM.area(dest)}, rules=("R75",))
            payer = _ship_payer(state, house, dest, item.get("from"), allowed)
        else:
            if b.type[dest] != "land":
                raise EngineError("illegal_action", gettext("%(units)s are never mustered into seas or ports") % {"units": NM.unit_plural(unit)}, rules=("R77",))
            if dest not in allowed or item.get("from", dest) != dest:
                raise EngineError("illegal_action", gettext("%(house)s cannot muster in %(area)s now") % {"house": NM.house(house), "area": NM.area(dest)}, rules=("R68", "R70", "R79"))
            payer = dest
        plan.add.setdefault(dest, []).append(unit)
        plan.spent[payer] += COST[unit]
    elif keys == {"upgrade", "to"}:
        if item["upgrade"] != "footman" or item["to"] not in UPGRADES:
            raise EngineError("illegal_action", gettext("only a footman is upgraded, to a knight or a siege engine"), rules=("R71",))
        if dest not in allowed:
            raise EngineError("illegal_action", gettext("%(house)s cannot muster in %(area)s now") % {"house": NM.house(house), "area": NM.area(dest)}, rules=("R68",))
        plan.upgrade.setdefault(dest, []).append(item["to"])
        plan.spent[dest] += 1
    else:
        raise _bad()


def check_muster(state: State, house: str, value: Any, allowed: list[str]) -> Plan:
    """Validate a muster act against R68-R81 for the mustering areas `allowed`."""
    if not isinstance(value, dict):
        raise _bad()
    b = board()
    plan = Plan()
    for dest, items in value.items():
        if not isinstance(dest, str) or dest not in b.areas or not isinstance(items, list):
            raise _bad()
        for item in items:
            _item(state, house, dest, item, allowed, plan)
    for payer, n in plan.spent.items():
        if n > points(payer):
            raise EngineError("illegal_action", gettext("%(payer)s has %(points)s mustering point(s), not %(count)s") % {
                "payer": NM.area(payer), "points": points(payer), "count": n}, rules=("R68", "R73"))
    for area, ups in plan.upgrade.items():
        # A17: only footmen already there before this mustering are upgraded.
        have = sum(1 for u in B.house_units(state, area, house) if u == "footman")
        if len(ups) > have:
            raise EngineError("illegal_action", ngettext("%(house)s has %(count)s footman in %(area)s to upgrade",
                                                         "%(house)s has %(count)s footmen in %(area)s to upgrade", have)
                              % {"house": NM.house(house), "count": have, "area": NM.area(area)}, rules=("R71", "A17"))
    counts = B.unit_counts(state, house)
    for units in plan.add.values():
        for u in units:
            counts[u] += 1
    for ups in plan.upgrade.values():
        for u in ups:
            counts[u] += 1
            counts["footman"] -= 1
    for unit, limit in unit_limits().items():
        if counts[unit] > limit:
            raise EngineError("illegal_action", gettext("%(house)s has no %(units)s left to muster") % {"house": NM.house(house), "units": NM.unit_plural(unit)}, rules=("R9", "R70"))
    for port, units in plan.add.items():
        if b.type[port] == "port":
            inside = len(B.house_units(state, port, house))
            if inside + len(units) > 3:
                raise EngineError("illegal_action", gettext("a port holds at most 3 ships: %(area)s") % {"area": NM.area(port)}, rules=("R248",))
    delta = {a: len(us) for a, us in plan.add.items()}
    if delta and not supply.fits(state, house, delta):
        raise EngineError("illegal_action", gettext("the new units would exceed %(house)s's supply limit") % {"house": NM.house(house)}, rules=("R72",))
    return plan


def apply_plan(state: State, house: str, plan: Plan, events: list[Event], source: str) -> None:
    for area, ups in plan.upgrade.items():
        B.remove_units(state, area, house, ["footman"] * len(ups))
        B.add_units(state, area, house, ups)
    for area, units in plan.add.items():
        B.add_units(state, area, house, units)
    events.append({"type": "muster", "house": house, "source": source,
                   "recruited": {a: list(us) for a, us in sorted(plan.add.items())},
                   "upgraded": {a: list(us) for a, us in sorted(plan.upgrade.items())}})


def single_items(state: State, house: str, area: str) -> list[tuple[str, dict[str, str]]]:
    """Every one-item muster an area could pay for, as (destination, item), unchecked."""
    b = board()
    out: list[tuple[str, dict[str, str]]] = [(area, {"recruit": u}) for u in ("footman", "knight", "siege_engine")
                                             if COST[u] <= points(area)]
    out += [(area, {"upgrade": "footman", "to": u}) for u in UPGRADES]
    port = b.port_of_land.get(area)
    if port:
        out.append((port, {"recruit": "ship", "from": area}))
    out += [(s, {"recruit": "ship", "from": area}) for s in b.seas_next_to[area]]
    return out


def _legal(state: State, house: str, value: dict[str, Any], allowed: list[str]) -> bool:
    try:
        check_muster(state, house, value, allowed)
    except EngineError:
        return False
    return True


def can_muster(state: State, house: str, allowed: list[str]) -> bool:
    """Is there any non-empty legal muster (else the decision is forced: nothing)?"""
    return any(_legal(state, house, {dest: [item]}, allowed)
               for area in allowed for dest, item in single_items(state, house, area))


def random_muster(state: State, house: str, allowed: list[str], rnd: random.Random) -> dict[str, list[dict[str, str]]]:
    """A random legal muster for the bot: areas in random order, items added while they stay legal."""
    value: dict[str, list[dict[str, str]]] = {}
    areas = list(allowed)
    rnd.shuffle(areas)
    for area in areas:
        if rnd.random() < 0.25:
            continue
        items = single_items(state, house, area)
        for _ in range(3):
            dest, item = rnd.choice(items)
            trial = {k: list(v) for k, v in value.items()}
            trial.setdefault(dest, []).append(item)
            if _legal(state, house, trial, allowed):
                value = trial
    return value


def cp_to_muster(area: str, items: Any) -> dict[str, list[dict[str, Any]]]:
    """A special Consolidate Power's `muster: [...]` list (ships say `to`) as a muster act (R182)."""
    if not isinstance(items, list):
        raise EngineError("bad_action", gettext("consolidate muster takes a list of items"))
    value: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        if not isinstance(item, dict):
            raise _bad()
        item = dict(item)
        dest = item.pop("to", None) if item.get("recruit") == "ship" else area
        if not isinstance(dest, str):
            raise EngineError("bad_action", gettext("a ship names where it goes with to (an area)"))
        if item.get("recruit") == "ship":
            item["from"] = area
        value.setdefault(dest, []).append(item)
    return value
