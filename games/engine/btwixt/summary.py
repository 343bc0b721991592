"""The referee summary (SCENARIOS.md "btwixt"), views and events, with the hidden information of
H1-H8 and N11: hands and set-aside leader cards are the owner's; power-token values and council
power are hidden from everyone, the owner included, until the game is over (B40); every deck's
order, the generator, other seats' draft packets and peeked allies are hidden."""
from __future__ import annotations

import copy
from typing import Any

from games.engine.base import HIDDEN, REFEREE
from games.engine.btwixt import flow
from games.engine.btwixt import table as T

State = dict[str, Any]

TOP_KEYS = frozenset({
    "season", "round", "first_player", "step", "current_ally", "claiming", "extra_allies", "ally_tokens",
    "ally_token_count", "hands", "hand_size", "piles", "totals", "knelt", "bid_winner", "councils", "supply",
    "deck_size", "decks", "discard", "dead", "removed", "leader_cards", "peeked", "row", "pending", "score",
    "winners", "turn", "options", "seats", "packets", "ranking",
})


def pending(state: State) -> dict[str, str]:
    d = state.get("decision")
    if not d or state["step"] == "game_over":
        return {}
    return {s: d["kind"] for s in d["seats"]}


def summary(state: State, viewer: str | None = REFEREE) -> dict[str, Any]:
    over = state["step"] == "game_over"
    seats = state["seats"]
    councils: dict[str, Any] = {}
    for name, c in state["councils"].items():
        councils[name] = {"allies": list(c["allies"]), "tokens": list(c["tokens"]),
                          "token_count": len(c["tokens"]), "power": flow.council_power(state, name)}
    step = state["step"]
    row = list(state["row"])
    if state["options"]["allies_in_sight"] and state["current_ally"] and step != "game_over":
        row = [state["current_ally"], *row]  # the leftmost of the row is the current ally (B78)
    out: dict[str, Any] = {
        "season": state["season"], "round": state["round"], "first_player": state["first_player"], "step": step,
        "seats": list(seats), "options": dict(state["options"]),
        "current_ally": state["current_ally"], "claiming": state["claiming"],
        "extra_allies": list(state["extra_allies"]), "ally_tokens": list(state["ally_tokens"]),
        "ally_token_count": len(state["ally_tokens"]),
        "hands": {s: list(T.hand(state, s)) for s in seats},
        "hand_size": {s: len(T.hand(state, s)) for s in seats},
        "piles": {s: list(state["piles"][s]) for s in seats},
        "totals": {s: T.total(state, s) for s in seats},
        "knelt": list(state["knelt"]), "turn": state["turn"], "bid_winner": state["bid_winner"],
        "councils": councils, "supply": len(state["decks"]["tokens"]),
        "deck_size": {"influence": len(state["decks"]["influence"]), "allies": len(state["decks"]["allies"]),
                      "events": len(state["decks"]["events"])},
        "decks": {"allies": list(state["decks"]["allies"]), "influence": list(state["decks"]["influence"]),
                  "events": list(state["decks"]["events"])},
        "discard": list(state["discard"]), "dead": list(state["dead"]), "removed": list(state["removed"]),
        "leader_cards": {s: list(T.leader_cards(state, s)) for s in seats},
        "peeked": _peeked(state), "row": row, "pending": pending(state),
        "packets": {s: list(T.secret(state, s)["packet"]) for s in seats} if state.get("draft") else {},
        "score": copy.deepcopy(state["score"]) if over else {},
        "winners": list(state["winners"]) if over else [],
        "ranking": list(state["ranking"]) if over else [],
    }
    if viewer == REFEREE:
        return out
    return mask(out, viewer, over)


def _peeked(state: State) -> list[str]:
    d = state.get("decision") or {}
    if d.get("kind") != "choose":
        return []
    return list(T.secret(state, d["seats"][0])["peeked"])


def mask(out: dict[str, Any], viewer: str | None, over: bool) -> dict[str, Any]:
    for s in out["seats"]:
        if s != viewer:
            out["hands"][s] = HIDDEN
            out["leader_cards"][s] = HIDDEN
            if s in out["packets"]:
                out["packets"][s] = HIDDEN
    out["decks"] = {k: HIDDEN for k in out["decks"]}
    if not over:
        for c in out["councils"].values():
            c["tokens"] = HIDDEN
            c["power"] = HIDDEN
        out["ally_tokens"] = HIDDEN
    d_seat = next(iter(out["pending"]), None) if out["pending"] else None
    if out["peeked"] and (viewer is None or viewer != d_seat):
        out["peeked"] = HIDDEN
    return out


def summary_path_error(path: str) -> str | None:
    head = path.split(".", 1)[0]
    if head not in TOP_KEYS:
        return f"unknown summary key {head!r}"
    return None


# ------------------------------------------------------------------ views and events


def view(state: State, seat: str | None) -> State:
    """The state as `seat` may see it: no generator, decks as sizes, only its own secret, token
    values hidden until the end."""
    over = state["step"] == "game_over"
    v = copy.deepcopy(state)
    v.pop("rng", None)
    v["decks"] = {k: len(d) for k, d in state["decks"].items() if k != "_pinned"}
    v["secret"] = {seat: v["secret"][seat]} if seat in v["secret"] else {}
    if not over:
        for c in v["councils"].values():
            c["tokens"] = [HIDDEN] * len(c["tokens"])
        v["ally_tokens"] = [HIDDEN] * len(v["ally_tokens"])
        v["limbo_token"] = HIDDEN if state.get("limbo_token") is not None else None
        if v.get("placing"):
            v["placing"]["tokens"] = [HIDDEN] * len(v["placing"]["tokens"])
    v["hand_size"] = {s: len(T.hand(state, s)) for s in state["seats"]}
    return v


def event_view(event: dict[str, Any], seat: str | None) -> dict[str, Any] | None:
    e = {k: v for k, v in event.items() if k != "private"}
    private = event.get("private") or {}
    if seat in private:
        e["cards"] = private[seat]
    return e
