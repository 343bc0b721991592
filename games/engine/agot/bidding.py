"""Secret simultaneous bids (influence tracks R82-R93, wildlings R102-R106) and tie-breaks by the Iron
Throne holder (R86, R89, R94, R108).

A bid being made lives in state["secret"][house]["bid"] (views hide it and, while the `bid` decision
is open, every other house's available power); at the reveal all bids move to state["bids"] and the
power bid goes to the Power Pool (R87, R106). A house with no available power has one legal bid (0):
it is not asked (SCENARIOS.md "Decisions").
"""
from __future__ import annotations

from typing import Any

from games.engine.agot import board as B
from games.engine.agot import names as NM
from games.engine.agot.data import DOMINANCE, TRACKS
from games.engine.base import EngineError
from games.engine.narration import gettext

State = dict[str, Any]
Event = dict[str, Any]
Task = dict[str, Any]


def open_bid(state: State, task: Task, houses: list[str], events: list[Event]) -> bool:
    """Start a bid among `houses`. Returns True when nobody has to be asked (all bids are revealed)."""
    state["bids"] = {}
    for h in state["seats"]:
        state["secret"][h].pop("bid", None)
    task["bidders"] = list(houses)
    ask = [h for h in houses if state["power"][h] > 0]
    for h in houses:
        if state["power"][h] <= 0:
            state["secret"][h]["bid"] = 0
            events.append({"type": "bid_placed", "house": h, "forced": True})
    events.append({"type": "bidding", "for": task.get("track", "wildlings"), "houses": list(houses)})
    if not ask:
        reveal(state, task, events)
        return True
    state["decision"] = {"kind": "bid", "seats": ask, "for": task.get("track", "wildlings")}
    return False


def place_bid(state: State, task: Task, house: str, value: Any, events: list[Event]) -> bool:
    """One house's secret bid (R84, R102). Returns True once every bid is in and revealed."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise EngineError("bad_action", gettext("bid takes a number of power tokens"))
    if not 0 <= value <= state["power"][house]:
        raise EngineError("illegal_action", gettext("%(house)s may bid 0 to %(power)s power") % {
            "house": NM.house(house), "power": state["power"][house]}, rules=("R84", "R92"))
    state["secret"][house]["bid"] = value
    state["decision"]["seats"].remove(house)
    events.append({"type": "bid_placed", "house": house})
    events.append({"type": "bid_detail", "house": house, "bid": value, "only": [house]})
    if state["decision"]["seats"]:
        return False
    reveal(state, task, events)
    return True


def reveal(state: State, task: Task, events: list[Event]) -> None:
    """R84.3, R103: all bids at once; the power bid goes to the Power Pool whatever the result (R87, R106)."""
    bids = {h: state["secret"][h].pop("bid") for h in task["bidders"]}
    state["bids"] = bids
    for h, n in bids.items():
        B.discard_power(state, h, n)
    state["decision"] = None
    events.append({"type": "bids_revealed", "for": task.get("track", "wildlings"), "bids": dict(bids)})


def groups(bids: dict[str, int], order: list[str]) -> list[list[str]]:
    """Houses grouped by bid, highest first; inside a group in `order` (the D9/D11 default order)."""
    out: list[list[str]] = []
    for value in sorted(set(bids.values()), reverse=True):
        out.append([h for h in order if h in bids and bids[h] == value])
    return out


# ------------------------------------------------------------------ influence tracks (R82-R93)


def start_track_result(state: State, task: Task, events: list[Event]) -> bool:
    """After a track's bids: positions by bid (R85), ties broken by the Iron Throne holder (R86). The
    track is replaced only once resolved, so for the Iron Throne track the old holder breaks ties and
    for the others the new one (R89). D9 default: the order on that track before the Clash."""
    track = task["track"]
    task["groups"] = groups(state["bids"], state["tracks"][track])
    task["result"] = []
    return next_group(state, task, events)


def next_group(state: State, task: Task, events: list[Event]) -> bool:
    while task["groups"]:
        g = task["groups"][0]
        if len(g) > 1:
            state["decision"] = {"kind": "break_tie", "seats": [B.holder(state, "iron_throne")], "tied": list(g),
                                 "bid": state["bids"][g[0]], "for": task["track"]}
            return False
        task["result"] += task["groups"].pop(0)
    set_track(state, task["track"], task["result"], events)
    return True


def check_tie_order(state: State, value: Any) -> list[str]:
    tied = state["decision"]["tied"]
    if not isinstance(value, list) or not all(isinstance(h, str) for h in value):
        raise EngineError("bad_action", gettext("break_tie takes a list of houses, best first"))
    if sorted(value) != sorted(tied):
        raise EngineError("illegal_action", gettext("order exactly the tied houses: %(houses)s") % {"houses": NM.houses(tied)}, rules=("R86",))
    return list(value)


def break_track_tie(state: State, task: Task, value: Any, events: list[Event]) -> bool:
    order = check_tie_order(state, value)
    events.append({"type": "tie_broken", "for": task["track"], "order": order,
                   "by": state["decision"]["seats"][0]})
    state["decision"] = None
    task["groups"].pop(0)
    task["result"] += order
    return next_group(state, task, events)


def set_track(state: State, track: str, order: list[str], events: list[Event]) -> None:
    """Place the influence tokens; position 1 takes the dominance token in its current state (R88, R287)."""
    before = state["tracks"][track][0]
    state["tracks"][track] = list(order)
    events.append({"type": "track", "track": track, "order": list(order)})
    if order[0] != before:
        events.append({"type": "dominance", "token": DOMINANCE[track], "house": order[0], "from": before})


def move_on_track(state: State, track: str, house: str, position: int, events: list[Event]) -> None:
    """R286-R288: move a house to a position (0 = first); the others shift to fill in."""
    order = [h for h in state["tracks"][track] if h != house]
    position = max(0, min(position, len(order)))
    order.insert(position, house)
    if order != state["tracks"][track]:
        set_track(state, track, order, events)


def default_tie_order(state: State) -> list[str]:
    """D9 (tracks): as on that track before the Clash; D11 (wildlings): turn order, so the highest
    bidder is the earliest and the lowest bidder the latest in turn order."""
    d = state["decision"]
    track = d["for"] if d["for"] in TRACKS else "iron_throne"
    return [h for h in state["tracks"][track] if h in d["tied"]]
