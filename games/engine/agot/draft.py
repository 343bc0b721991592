"""The drafts before round 1 (issue 34, docs/rules-decisions.md "AGoT variants"), as Swords and
Ravens' "draft house cards" and "draft Influence tracks":

- `draft_house_cards`: the hands start empty and the 42 house cards of the six houses form a pool;
  each house drafts seven, one a turn, so that its hand keeps the printed strengths (one card of
  strength 0, two of 1, two of 2, one of 3, one of 4): a card of a strength the house already holds
  enough of is not offered. The cards left in the pool (with fewer than six houses) are out of the
  game.
- `draft_tracks`: the three Influence tracks start empty; a turn may take the next free position on
  a track the house is not on yet (R22, R23: positions are taken from the top). The dominance tokens
  go to the houses on top when the draft ends (R24).

With both, each turn is either a card or a track position (the house's choice) until the house
holds seven cards and is on every track. The order: the houses are shuffled once (the seed decides),
then turns go by the rows of Swords and Ravens' draft table for the number of houses, each row
giving every house one turn in another order, the rows repeating; a house with nothing left to
draft is passed over. Decision `draft` for one seat; action {"draft": {"card": id}} or
{"draft": {"track": name}}. Everything drafted is public (house cards and tracks are, R21-R24).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import rng
from games.engine.agot import names as NM
from games.engine.agot.data import TRACKS, house_cards
from games.engine.base import EngineError
from games.engine.narration import gettext

State = dict[str, Any]
Event = dict[str, Any]
Action = dict[str, Any]

HAND = 7
# Every house's printed hand: strength -> number of cards (Swords and Ravens'
# houseCardCombatStrengthAllocations); the draft keeps each hand to it.
STRENGTHS: dict[int, int] = {0: 1, 1: 2, 2: 2, 3: 1, 4: 1}
# Swords and Ravens' draftOrders: for n houses, n rows of indices into the shuffled houses.
ORDERS: dict[int, list[list[int]]] = {
    3: [[0, 1, 2], [1, 2, 0], [2, 0, 1]],
    4: [[0, 1, 2, 3], [2, 3, 1, 0], [1, 0, 3, 2], [3, 2, 0, 1]],
    5: [[0, 1, 2, 3, 4], [2, 4, 3, 1, 0], [1, 0, 4, 2, 3], [4, 3, 1, 0, 2], [3, 2, 0, 4, 1]],
    6: [[0, 1, 2, 3, 4, 5], [3, 5, 4, 2, 1, 0], [2, 0, 1, 4, 5, 3], [4, 3, 5, 1, 0, 2], [1, 2, 0, 5, 3, 4],
        [5, 4, 3, 0, 2, 1]],
}


def enabled(state: State) -> bool:
    opts = state.get("options") or {}
    return bool(opts.get("draft_house_cards") or opts.get("draft_tracks"))


def _pool_order(card: str) -> tuple[int, str, str]:
    c = house_cards()[card]
    return (-c["strength"], c["house"], card)


def start(state: State, events: list[Event]) -> None:
    """Before round 1: empty what is drafted, shuffle the order and ask the first house."""
    opts = state["options"]
    order = list(state["seats"])
    rng.shuffle(state, order)
    d: dict[str, Any] = {"order": order, "turn": 0, "cards": bool(opts.get("draft_house_cards")),
                         "tracks": bool(opts.get("draft_tracks")), "pool": []}
    if d["cards"]:
        d["pool"] = sorted(house_cards(), key=_pool_order)
        state["hands"] = {h: [] for h in state["seats"]}
    if d["tracks"]:
        state["tracks"] = {t: [] for t in TRACKS}
    state["phase"] = "draft"
    state["step"] = "draft"
    state["draft"] = d
    events.append({"type": "draft_started", "order": list(order), "cards": d["cards"], "tracks": d["tracks"]})
    _next(state, events, first=True)


def offered_cards(state: State, house: str) -> list[str]:
    """The pool's cards `house` may take: those of a strength its hand does not hold enough of."""
    d = state["draft"]
    if not d["cards"] or len(state["hands"][house]) >= HAND:
        return []
    held = Counter(house_cards()[c]["strength"] for c in state["hands"][house])
    return [c for c in d["pool"] if held[house_cards()[c]["strength"]] < STRENGTHS[house_cards()[c]["strength"]]]


def open_tracks(state: State, house: str) -> list[str]:
    if not state["draft"]["tracks"]:
        return []
    return [t for t in TRACKS if house not in state["tracks"][t]]


def _needs(state: State, house: str) -> bool:
    d = state["draft"]
    return (d["cards"] and len(state["hands"][house]) < HAND) or bool(open_tracks(state, house))


def turn_house(state: State, turn: int) -> str:
    d = state["draft"]
    n = len(d["order"])
    rows = ORDERS[n]
    return d["order"][rows[(turn // n) % n][turn % n]]


def _next(state: State, events: list[Event], first: bool = False) -> None:
    d = state["draft"]
    if not any(_needs(state, h) for h in state["seats"]):
        _finish(state, events)
        return
    turn = d["turn"] if first else d["turn"] + 1
    while not _needs(state, turn_house(state, turn)):
        turn += 1
    d["turn"] = turn
    house = turn_house(state, turn)
    state["decision"] = {"kind": "draft", "seats": [house], "cards": offered_cards(state, house),
                         "tracks": open_tracks(state, house)}


def _finish(state: State, events: list[Event]) -> None:
    from games.engine.agot import rounds

    d = state.pop("draft")
    events.append({"type": "draft_over", "hands": {h: list(state["hands"][h]) for h in state["seats"]},
                   "tracks": {t: list(state["tracks"][t]) for t in TRACKS}})
    if d["cards"] and d["pool"]:
        events.append({"type": "draft_unused", "cards": list(d["pool"])})
    state["decision"] = None
    state["phase"] = "planning"
    state["step"] = "assign"
    rounds.begin_round(state, events)


def apply(state: State, seat: str, value: Any, events: list[Event]) -> None:
    """A house's draft turn: {"card": id} or {"track": name}."""
    if not isinstance(value, dict) or len(value) != 1 or next(iter(value)) not in ("card", "track"):
        raise EngineError("bad_action", gettext("a draft turn is {\"card\": a house card} or {\"track\": a track}"))
    ((what, choice),) = value.items()
    if what == "card":
        if choice not in offered_cards(state, seat):
            raise EngineError("illegal_action", gettext("%(card)s cannot be drafted now: choose one of the cards "
                                                        "offered") % {"card": NM.card(choice)})
        state["draft"]["pool"].remove(choice)
        state["hands"][seat].append(choice)
        events.append({"type": "draft_card", "house": seat, "card": choice})
    else:
        if choice not in open_tracks(state, seat):
            raise EngineError("illegal_action", gettext("%(track)s cannot be drafted now: choose a track you are "
                                                        "not on yet") % {"track": NM.named(choice)})
        state["tracks"][choice].append(seat)
        events.append({"type": "draft_track", "house": seat, "track": choice,
                       "position": len(state["tracks"][choice])})
    _next(state, events)


def legal_actions(state: State, seat: str) -> list[Action]:
    d = state.get("decision") or {}
    if d.get("kind") != "draft" or seat not in d.get("seats", ()):
        return []
    return ([{"draft": {"card": c}} for c in offered_cards(state, seat)]
            + [{"draft": {"track": t}} for t in open_tracks(state, seat)])


def default_action(state: State, seat: str) -> Action:
    """A timed-out turn: the strongest card offered (the pool's first), else the first open track."""
    return legal_actions(state, seat)[0]
