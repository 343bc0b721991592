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
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine.agot import action, planning
from games.engine.agot import board as B
from games.engine.agot.data import token_special
from games.engine.base import EngineError

State = dict[str, Any]
Action = dict[str, Any]

NORMAL_PRIORITY = ("defense+1", "defense+1", "support+0", "support+0", "consolidate", "consolidate",
                   "raid", "raid", "march+0", "march-1")
SPECIAL_PRIORITY = ("defense+2*", "support+1*", "consolidate*", "raid*", "march+1*")


def default_orders(state: State, house: str) -> dict[str, str]:
    """D13."""
    left = Counter(NORMAL_PRIORITY)
    specials_left = B.stars_of(state, house)
    spec_left = list(SPECIAL_PRIORITY)
    out: dict[str, str] = {}
    for area in planning.areas_needing_orders(state, house):
        land = B.area_type(area) == "land"
        pick = None
        for t in NORMAL_PRIORITY:
            if left[t] <= 0 or planning.restricted(state, t) or (t == "consolidate" and not land):
                continue
            pick = t
            break
        if pick is None and specials_left > 0:
            for t in spec_left:
                if planning.restricted(state, t) or (t == "consolidate*" and not land):
                    continue
                pick = t
                break
        if pick is None:
            continue  # R119: short; later (higher id) areas stay empty too unless a token fits
        out[area] = pick
        if token_special(pick):
            specials_left -= 1
            spec_left.remove(pick)
        else:
            left[pick] -= 1
    # A sea/port area may have been skipped only because consolidate was the sole token left; that
    # token must then still be placed somewhere on land (R119 places all usable tokens) - fill gaps.
    need = min(len(planning.areas_needing_orders(state, house)), planning.usable_count(state, house))
    if len(out) < need:
        for area in planning.areas_needing_orders(state, house):
            if area in out:
                continue
            for t in list(NORMAL_PRIORITY) + list(SPECIAL_PRIORITY):
                trial = dict(out, **{area: t})
                try:
                    planning.check_orders(state, house, trial) if len(trial) >= need else _partial_ok(state, house, trial)
                except EngineError:
                    continue
                out = trial
                break
            if len(out) >= need:
                break
    return out


def _partial_ok(state: State, house: str, placed: dict[str, str]) -> None:
    counts = Counter(placed.values())
    from games.engine.agot.data import ORDER_TOKENS

    for t, n in counts.items():
        if n > ORDER_TOKENS[t] or planning.restricted(state, t):
            raise EngineError("illegal_action", "")
    if sum(n for t, n in counts.items() if token_special(t)) > B.stars_of(state, house):
        raise EngineError("illegal_action", "")


def default_action(state: State, seat: str) -> Action:
    d = state.get("decision")
    if not d or seat not in d["seats"]:
        raise EngineError("not_your_turn", f"{seat} has no pending decision")
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
    combat = action._combat_module()
    if combat is not None and hasattr(combat, "default_action"):
        return combat.default_action(state, seat)
    raise EngineError("illegal_action", f"no default for {kind} yet")


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
    combat = action._combat_module()
    if combat is not None and hasattr(combat, "legal_actions"):
        return combat.legal_actions(state, seat)
    return None
