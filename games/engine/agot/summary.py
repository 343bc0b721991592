"""The referee summary (SCENARIOS.md), per-seat and spectator views, and event filtering.

Everything secret lives under state["secret"], state["decks"] or state["rng"] (docs/engine-agot-state.md),
so views are built by dropping or masking those, never by hunting for secrets elsewhere.
"""
from __future__ import annotations

from typing import Any

from games.engine.agot import board as B
from games.engine.agot import fog
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
    if fog.enabled(state) and seat != REFEREE:
        fog.fog_view(state, out, seat)
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
    if state.get("draft"):
        out["draft"] = _copy(state["draft"])  # issue 34: the draft before round 1 is public (R21-R24)
    if "homes" in state:
        out["homes"] = dict(state["homes"])  # random start positions (issue 34): public, like the shields
    if fog.enabled(state) and not referee:
        fog.fog_summary(state, out, viewer)
    return out


def event_view(event: Event, seat: str | None) -> Event | None:
    """Events with an `only` list are private to those seats (a spectator never sees them). Under the
    fog of war (fog.py) an event with a `seen` list reaches only those seats, without the list."""
    if seat == REFEREE:
        return event
    seen = event.get("seen")
    if seen is not None:
        if seat is None or seat not in seen:
            return None
        event = {k: v for k, v in event.items() if k not in ("seen", "cut")}
    only = event.get("only")
    if only is None:
        return event
    if seat is None or seat not in only:
        return None
    return event


# --------------------------------------------------------------------------- expect paths

_AREA_KEYS = ("units", "control", "power_tokens", "garrisons", "neutral_forces", "orders")
_HOUSE_KEYS = ("power", "supply", "victory", "pool", "bids", "hands", "discards", "pending")
_NAMED_KEYS = {
    "tracks": ("iron_throne", "fiefdoms", "kings_court"),
    "holder": ("iron_throne", "valyrian_steel_blade", "messenger_raven"),
    "used": ("valyrian_steel_blade", "messenger_raven"),
    "decks": ("westeros_1", "westeros_2", "westeros_3", "wildlings", "tides"),
    "revealed": ("westeros",),
    "combat": ("attacker", "defender", "area", "neutral", "initial_strength", "strength", "cards", "tides",
               "winner", "casualties"),
}
_LEAF_KEYS = ("round", "phase", "step", "peeked", "restrictions", "wildlings", "winner", "ranking")


def summary_path_error(path: str) -> str | None:
    """Why an expect path cannot name anything in the agot referee summary (scenario runner hook):
    an unknown key, area, house, track or deck. None when the path is readable."""
    from games.engine.agot.data import HOUSES

    parts = path.split(".")
    head, rest = parts[0], parts[1:]
    if head in _LEAF_KEYS or (head in ("pending", "combat", "revealed") and not rest):
        return None if (not rest or head in ("ranking", "restrictions")) else f"{head} has no sub-path"
    if head == "draft":
        return None if len(rest) <= 1 and (not rest or rest[0] in ("order", "pool", "turn", "cards", "tracks")) \
            else f"unknown draft key {'.'.join(rest)!r}"
    if head == "homes" and len(rest) == 1:
        return None if rest[0] in board().areas else f"unknown area {rest[0]!r}"
    if head in _AREA_KEYS:
        if not rest:
            return None
        if rest[0] not in board().areas:
            return f"unknown area {rest[0]!r}"
        if len(rest) > 1 and rest[1] not in HOUSES:
            return f"unknown house {rest[1]!r}"
        return None if len(rest) <= 2 else f"{path}: too deep"
    if head in _HOUSE_KEYS:
        if rest and rest[0] not in HOUSES:
            return f"unknown house {rest[0]!r}"
        return None
    if head in _NAMED_KEYS:
        if rest and rest[0] not in _NAMED_KEYS[head]:
            return f"unknown {head} key {rest[0]!r}"
        if head == "combat" and len(rest) > 1 and rest[1] not in HOUSES:
            return f"unknown house {rest[1]!r}"
        return None
    return f"unknown summary key {head!r}"
