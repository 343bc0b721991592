"""The referee summary (SCENARIOS.md "minis"), per-seat views and events.

Hidden (rules/minis.md §5): a seat's Tactics hand (its count is public), every deck's order and
contents, the scripted dice and the random generator's state. Everything on the table, the
Tactics Board, conditions, VP and discard piles are public (M112)."""
from __future__ import annotations

import copy
from typing import Any

from games.engine.base import HIDDEN, REFEREE
from games.engine.minis import cards, data, flow
from games.engine.minis import table as T

State = dict[str, Any]

TOP_KEYS = frozenset({
    "round", "phase", "turn", "first_player", "pending", "active_unit", "units", "destroyed", "vp", "army_points",
    "activations_left", "ncus", "board", "control", "quadrants", "quadrant_points", "hands", "hand_size", "decks",
    "deck_size", "discards", "last_attack", "last_charge", "last_retreat", "last_test", "dice_left", "winner",
    "result", "seats", "mode", "threshold", "table", "terrain", "game_size", "multiplayer", "teams", "corners",
    "eliminated", "once_used", "attached",
})
UNIT_KEYS = frozenset({"at", "facing", "pose", "seat", "card", "attachment", "wounds", "ranks", "figures",
                       "conditions", "activated", "order_used", "orders_used", "engaged", "destroyed", "quadrant", "influence"})


def pending(state: State) -> dict[str, str]:
    d = state.get("decision")
    if not d or state["over"]:
        return {}
    return {s: d["kind"] for s in d["seats"]}


def _r(x: float) -> float | int:
    """Two decimals; a whole number reads as an int, so that [24, 10] in a scenario matches."""
    v = round(float(x), 2) + 0.0
    return int(v) if v == int(v) else v


def unit_summary(state: State, name: str) -> dict[str, Any]:
    u = state["units"][name]
    alive = u["on_table"] and not u["destroyed"]
    at = [_r(u["at"][0]), _r(u["at"][1])] if u["at"] is not None else None
    facing = _r(float(u["facing"]) % 360)
    facing = 0 if facing == 360 else facing
    return {
        "at": at, "facing": facing, "pose": {"at": at, "facing": facing}, "seat": u["seat"], "card": u["card"],
        "attachment": u["attachment"], "wounds": u["wounds"],
        "ranks": T.ranks_left(state, name) if u["wounds"] else 0,
        "figures": T.figures_left(state, name) if u["wounds"] else 0,
        "conditions": list(u["conditions"]), "activated": u["activated"], "order_used": u["order_used"],
        "orders_used": list(u.get("orders_used", [])),
        "engaged": T.engaged_with(state, name) if alive else [], "destroyed": u["destroyed"],
        "quadrant": T.quadrant(state, name) if alive else None, "influence": u.get("influence"),
    }


def summary(state: State, viewer: str | None = REFEREE) -> dict[str, Any]:
    seats = state["seats"]
    P = state["players"]
    la = copy.deepcopy(state["last_attack"])
    if la:
        la.pop("keywords", None)
    out: dict[str, Any] = {
        "seats": list(seats), "round": state["round"], "phase": state["phase"], "turn": state["turn"],
        "first_player": state["first_player"], "pending": pending(state), "active_unit": state["active_unit"],
        "mode": state["mode"], "game_size": state["game_size"], "threshold": state["threshold"],
        "table": list(state["table"]), "terrain": copy.deepcopy(state["terrain"]),
        "units": {n: unit_summary(state, n) for n in state["units"]},
        "destroyed": {s: list(P[s]["destroyed"]) for s in seats},
        "vp": dict(state["vp"]),
        "army_points": {s: T.army_points(state, s) for s in seats},
        "activations_left": {s: len(flow.activations_left(state, s)) for s in seats},
        "ncus": {i: ncu_summary(state, i) for i in state["ncus"]},
        "board": dict(state["board"]),
        "control": {z: (state["ncus"][nid]["seat"] if nid else None) for z, nid in state["board"].items()},
        "quadrants": flow.quadrant_control(state) if state["mode"] == "here_we_stand" else {},
        "quadrant_points": flow.quadrant_points(state) if state["mode"] == "here_we_stand" else {},
        "hands": {s: list(P[s]["hand"]) for s in seats},
        "hand_size": {s: len(P[s]["hand"]) for s in seats},
        "decks": {s: list(P[s]["deck"]) for s in seats},
        "deck_size": {s: len(P[s]["deck"]) for s in seats},
        "discards": {s: list(P[s]["discards"]) for s in seats},
        "last_attack": la, "last_charge": copy.deepcopy(state["last_charge"]),
        "last_retreat": copy.deepcopy(state["last_retreat"]), "last_test": copy.deepcopy(state["last_test"]),
        "dice_left": len(state["dice"]) if state["dice"] is not None else None,
        "winner": state["winner"], "result": state["result"],
        "once_used": {s: list(state.get("once_used", {}).get(s, [])) for s in seats},
        # cards lying attached to a unit (A Lannister Pays His Debts, The North Remembers, from revision 5 Bribery)
        "attached": [dict(a) for a in state.get("attached", [])],
    }
    m = T.multi(state)
    if m:
        # M130, M131: public; `vp` holds the teams' VP in a team game
        out.update(multiplayer=m["kind"], teams=dict(m.get("teams") or {}), corners=dict(m.get("corners") or {}),
                   eliminated=list(m["eliminated"]))
    if viewer != REFEREE:
        for s in seats:
            if s != viewer:
                out["hands"][s] = HIDDEN
            out["decks"][s] = HIDDEN
        out["dice_left"] = HIDDEN
    return out


def ncu_summary(state: State, nid: str) -> dict[str, Any]:
    """An NCU: its seat, zone or quadrant, Activation token; `order_tokens` left on a card that has some
    (Cersei Lannister, Queen Regent: Playing The Game)."""
    n = state["ncus"][nid]
    out = {"seat": n["seat"], "zone": n["zone"], "quadrant": n["quadrant"], "activated": n["activated"]}
    if data.card(T.ncu_card(nid)).get("order_tokens"):
        out["order_tokens"] = cards.order_tokens_left(state, nid)
    return out


def summary_path_error(path: str) -> str | None:
    parts = path.split(".")
    if parts[0] not in TOP_KEYS:
        return f"unknown summary key {parts[0]!r}"
    if parts[0] == "units" and len(parts) >= 3 and parts[2] not in UNIT_KEYS:
        return f"unknown unit key {parts[2]!r}"
    if parts[0] in ("board", "control") and len(parts) >= 2 and parts[1] not in data.ZONES:
        return f"unknown zone {parts[1]!r}"
    return None


def view(state: State, seat: str | None) -> State:
    """The state as `seat` may see it (None: a spectator)."""
    v = copy.deepcopy(state)
    v.pop("rng", None)
    v["dice"] = HIDDEN if state["dice"] is not None else None
    for s in state["seats"]:
        p = v["players"][s]
        p["hand_size"] = len(p["hand"])
        p["deck_size"] = len(p["deck"])
        p["deck"] = HIDDEN
        if s != seat:
            p["hand"] = HIDDEN
    return v


def event_view(event: dict[str, Any], seat: str | None) -> dict[str, Any] | None:
    if event.get("type") == "draw" and event.get("seat") != seat:
        e = dict(event)
        e["cards"] = HIDDEN
        return e
    return event
