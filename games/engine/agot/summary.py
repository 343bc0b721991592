"""The referee summary (SCENARIOS.md), per-seat and spectator views, and event filtering.

Everything secret lives under state["secret"], state["decks"] or state["rng"] (docs/engine-agot-state.md),
so views are built by dropping or masking those, never by hunting for secrets elsewhere.
"""
from __future__ import annotations

from typing import Any

from games.engine.agot import board as B
from games.engine.agot.data import board
from games.engine.base import HIDDEN, REFEREE

State = dict[str, Any]
Event = dict[str, Any]


def _copy(x: Any) -> Any:
    import marshal

    return marshal.loads(marshal.dumps(x))


def _bid_open(state: State) -> bool:
    d = state.get("decision")
    return bool(d) and d.get("kind") == "bid"


def view(state: State, seat: str | None) -> State:
    """What `seat` (None: a spectator) may see: no rng, only its own secrets, deck sizes only, and the
    other houses' available power hidden while a bid is open (R290)."""
    out: State = {k: v for k, v in state.items() if k not in ("rng", "secret", "decks")}
    out = _copy(out)
    is_seat = seat is not None and seat in state["seats"]
    out["secret"] = {seat: _copy(state["secret"].get(seat, {}))} if is_seat else {}
    out["decks"] = {name: len(cards) for name, cards in state["decks"].items() if name != "_pinned"}
    if _bid_open(state):
        out["power"] = {h: (n if h == seat else HIDDEN) for h, n in out["power"].items()}
    return out


def summary(state: State, viewer: str | None = REFEREE) -> dict[str, Any]:
    referee = viewer == REFEREE
    b = board()
    seats = state["seats"]
    control: dict[str, str | None] = {}
    for a in b.ids:
        c = B.controller(state, a)
        if c is not None:
            control[a] = c
    orders: dict[str, dict[str, str]] = {a: {o["house"]: o["token"]} for a, o in state["orders"].items()}
    for h in seats:
        for a, token in state["secret"][h].get("orders", {}).items():
            orders[a] = {h: token if (referee or viewer == h) else HIDDEN}
    peeked = None
    bids: dict[str, Any] = dict(state.get("bids") or {})
    for h in seats:
        sec = state["secret"][h]
        if "peeked" in sec:
            peeked = sec["peeked"] if (referee or viewer == h) else HIDDEN
        if "bid" in sec:
            bids[h] = sec["bid"] if (referee or viewer == h) else HIDDEN
    power = dict(state["power"])
    if _bid_open(state) and not referee:
        power = {h: (n if h == viewer else HIDDEN) for h, n in power.items()}
    decks = {name: (list(cards) if referee else HIDDEN) for name, cards in state["decks"].items() if name != "_pinned"}
    combat = state.get("combat")
    if combat:
        combat = {k: _copy(v) for k, v in combat.items() if not k.startswith("_")}
    d = state.get("decision")
    pending = {} if (not d or state["phase"] == "over") else {s: d["kind"] for s in d["seats"]}
    out = {
        "round": state["round"],
        "phase": state["phase"],
        "step": state["step"],
        "units": _copy(state["units"]),
        "control": control,
        "power": power,
        "power_tokens": dict(state["power_tokens"]),
        "supply": dict(state["supply"]),
        "victory": dict(state["victory"]),
        "tracks": _copy(state["tracks"]),
        "holder": {t: B.holder(state, t) for t in ("iron_throne", "valyrian_steel_blade", "messenger_raven")},
        "used": dict(state["used"]),
        "bids": bids,
        "peeked": peeked,
        "pool": {h: (B.pool(state, h) if power[h] != HIDDEN else HIDDEN) for h in seats},
        "garrisons": dict(state["garrisons"]),
        "neutral_forces": dict(state["neutral_forces"]),
        "restrictions": list(state["restrictions"]),
        "wildlings": state["wildlings"],
        "decks": decks,
        "revealed": _copy(state["revealed"]),
        "orders": orders,
        "hands": _copy(state["hands"]),
        "discards": _copy(state["discards"]),
        "pending": pending,
        "combat": combat,
        "winner": state["winner"],
        "ranking": list(state["ranking"]) if state["ranking"] else None,
    }
    return out


def event_view(event: Event, seat: str | None) -> Event | None:
    """Events with an `only` list are private to those seats (a spectator never sees them)."""
    only = event.get("only")
    if only is None or seat == REFEREE:
        return event
    if seat is None or seat not in only:
        return None
    return event
