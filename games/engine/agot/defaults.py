"""Timeout defaults (rules inventory section 4) and enumerable legal actions for the decisions this
package owns; combat kinds are delegated to combat.py. Every default is legal and deterministic:

| decision | default | rule |
|---|---|---|
| place_orders | D13: areas in id order, each gets the first legal unused token of: defense+1, defense+1, support+0, support+0, consolidate (land only, both tokens), raid, raid, march+0, march-1; then special tokens (defense+2*, support+1*, consolidate* on land, raid*, march+1*) within the King's Court stars; restrictions respected; when short (R119), the highest area ids stay empty | R112-R119 |
| raven | D14: skip | R125-R128 |
| raven_peek | D14: keep | R126 |
| raid | D15: the raid with the lowest area id, no effect (target null) | R140 |
| march | D16/D17: the march with the lowest area id moves nothing (no power token) | R146 |
| replace_ships | D27: the maximum | R258 |
| consolidate | D28: the lowest area id, power gain | R179 |

The Westeros-phase kinds (muster, bid, break_tie, choose, reduce: D3-D12) are defaulted by
westeros.py `default_action` (table in docs/agot-defaults.md).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine.agot import action, planning
from games.engine.agot import board as B
from games.engine.agot import names as NM
from games.engine.agot.data import token_special
from games.engine.base import EngineError
from games.engine.narration import gettext

State = dict[str, Any]
Action = dict[str, Any]

NORMAL_PRIORITY = ("defense+1", "defense+1", "support+0", "support+0", "consolidate", "consolidate",
                   "raid", "raid", "march+0", "march-1")
SPECIAL_PRIORITY = ("defense+2*", "support+1*", "consolidate*", "raid*", "march+1*")


COMBAT_KINDS = frozenset({"support", "accept_support", "house_card", "blade", "blade_redraw", "casualties", "retreat"})


def owner_module(kind: str) -> Any:
    """The module owning a decision kind this file does not handle: combat.py for combat kinds,
    westeros.py for the Westeros-phase kinds."""
    if kind in COMBAT_KINDS:
        return action._combat_module()
    if kind == "draft":
        from games.engine.agot import draft

        return draft
    try:
        from games.engine.agot import westeros
    except ImportError:
        return None
    return westeros


def default_orders(state: State, house: str) -> dict[str, str]:
    """D13. Two passes over the areas in id order: the first keeps Consolidate Power tokens for land
    areas; the second lets any area take any token left, so a house short of tokens (R119) still
    places every usable one."""
    left = Counter(t for t in NORMAL_PRIORITY if not planning.restricted(state, t))
    specials = [t for t in SPECIAL_PRIORITY if not planning.restricted(state, t)]
    stars = B.stars_of(state, house)
    out: dict[str, str] = {}
    areas = planning.areas_needing_orders(state, house)
    for strict in (True, False):
        for area in areas:
            if area in out:
                continue
            land = B.area_type(area) == "land"
            pick = next((t for t in NORMAL_PRIORITY if left[t] > 0 and (land or not strict or t != "consolidate")),
                        None)
            if pick is None and stars > 0:
                pick = next((t for t in specials if land or not strict or t != "consolidate*"), None)
            if pick is None:
                continue
            out[area] = pick
            if token_special(pick):
                stars -= 1
                specials.remove(pick)
            else:
                left[pick] -= 1
    return out


def default_action(state: State, seat: str) -> Action:
    d = state.get("decision")
    if not d or seat not in d["seats"]:
        raise EngineError("not_your_turn", gettext("%(seat)s has no pending decision") % {"seat": NM.house(seat)})
    kind = d["kind"]
    if kind == "place_orders":
        return {"place_orders": default_orders(state, seat)}
    if kind == "raven":
        return {"raven": "skip"}
    if kind == "raven_peek":
        return {"raven_peek": "keep"}
    if kind == "raid":
        return {"raid": {"from": action.orders_of(state, seat, "raid")[0], "target": None}}
    if kind == "march":
        return {"march": {"from": action.orders_of(state, seat, "march")[0], "moves": {}}}
    if kind == "replace_ships":
        return {"replace_ships": d["max"]}
    if kind == "consolidate":
        return {"consolidate": {"from": action.orders_of(state, seat, "consolidate")[0]}}
    module = owner_module(kind)
    if module is None or not hasattr(module, "default_action"):
        raise EngineError("illegal_action", f"no default for {kind} yet")
    return module.default_action(state, seat)


def legal_actions(state: State, seat: str) -> list[Action] | None:
    d = state.get("decision")
    if not d or seat not in d["seats"] or state["phase"] == "over":
        return []
    kind = d["kind"]
    if kind == "raven":
        out: list[Action] = [{"raven": "skip"}]
        if state["decks"].get("wildlings"):
            out.append({"raven": "peek"})
        for area, o in sorted(state["orders"].items()):
            if o["house"] != seat:
                continue
            for t in sorted(planning.token_pool(state, seat)):
                try:
                    planning.check_replacement(state, seat, area, t)
                except EngineError:
                    continue
                out.append({"raven": {"replace": {"area": area, "order": t}}})
        return out
    if kind == "raven_peek":
        return [{"raven_peek": "keep"}, {"raven_peek": "bottom"}]
    if kind == "raid":
        out = []
        for area in action.orders_of(state, seat, "raid"):
            out.append({"raid": {"from": area, "target": None}})
            out.extend({"raid": {"from": area, "target": t}} for t in action.raid_targets(state, area))
        return out
    if kind == "replace_ships":
        return [{"replace_ships": k} for k in range(d["max"] + 1)]
    if kind == "consolidate":
        return [{"consolidate": {"from": a}} for a in action.orders_of(state, seat, "consolidate")]
    if kind in ("place_orders", "march"):
        return None
    module = owner_module(kind)
    if module is not None and hasattr(module, "legal_actions"):
        return module.legal_actions(state, seat)
    return None
