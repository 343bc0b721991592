"""The smart bot's Westeros-phase choices (docs/agot-bot.md): bids with intent and musters where
threatened. While a bid is open the other houses' available power is hidden (R290): bids use only
the seat's own power, the public tracks, the threat and the board."""
from __future__ import annotations

from typing import Any

from games.engine.agot import mustering
from games.engine.agot import smart_eval as E
from games.engine.agot.data import board, stars
from games.engine.base import EngineError

State = dict[str, Any]


def bid(state: State, seat: str) -> int:
    """Influence tracks (R82-R93): bid for a track only when its position is worth it, keeping power
    for the tracks still to come (the Clash of Kings bids Iron Throne, Fiefdoms, King's Court in
    turn):
    - Iron Throne: when in the lower half (turn order and every tie, R86);
    - Fiefdoms: when the seat has armies next to enemies (the combat tie-break and the blade, R216);
    - King's Court: when its position gives fewer than two special orders (R117).
    Wildlings (R102-R108): nothing while the threat is low; once it is 8 or more, enough for a fair
    share of the threat (threat / houses, +1), more at 10-12 when it would lose most (many units or
    cards at stake), never more than it has."""
    power = int(state["power"][seat])
    if power <= 0:
        return 0
    track = (state.get("decision") or {}).get("for")
    n = len(state["seats"])
    if track == "wildlings":
        threat = int(state["wildlings"])
        if threat < 6:
            return 0
        share = -(-threat // n) + 1
        if threat >= 10:
            share += 1 + sum(len(v.get(seat, [])) for v in state["units"].values()) // 6
        elif threat < 8:
            share = 1
        return min(power, share)
    order = state["tracks"].get(track) if track else None
    if not order:
        return power // 4
    pos = order.index(seat)
    remaining = {"iron_throne": 3, "fiefdoms": 2, "kings_court": 1}.get(track, 1)
    budget = power // remaining if remaining > 1 else power
    if track == "iron_throne":
        want = pos >= n // 2
    elif track == "fiefdoms":
        want = pos >= n // 2 or _at_war(state, seat)
    else:
        table = stars(n)
        want = (table[pos] if pos < len(table) else 0) < 2
    if not want:
        return min(power, 1) if pos == 0 else 0
    return max(1, min(budget, power * 2 // 3))


def _at_war(state: State, seat: str) -> bool:
    return any(E.threat_to(state, seat, a) > 0 for a, by in state["units"].items() if by.get(seat)
               and board().type[a] == "land")


def muster(state: State, seat: str, d: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    """Spend the mustering points (R68-R81) where enemies threaten first (then the area id): a Knight
    first, then Footmen, an upgrade, a Ship; every item is kept only while the whole muster stays
    legal (supply, unit limits, points). A single-area muster uses the most threatened area."""
    allowed = list(d.get("areas") or [])
    areas = sorted(allowed, key=lambda a: (-E.threat_to(state, seat, a), a))
    if d.get("single"):
        areas = areas[:1]
    value: dict[str, list[dict[str, str]]] = {}
    rank = {"knight": 0, "footman": 1, "upgrade": 2, "ship": 3, "siege_engine": 4}
    for area in areas:
        items = mustering.single_items(state, seat, area)
        items = sorted(items, key=lambda di: (rank[di[1].get("recruit", "upgrade")], di[0]))
        for dest, item in items + items[:2]:
            trial = {k: list(v) for k, v in value.items()}
            trial.setdefault(dest, []).append(item)
            try:
                mustering.check_muster(state, seat, trial, allowed)
            except EngineError:
                continue
            value = trial
    return value



def consolidate(state: State, seat: str) -> dict[str, Any]:
    """A special Consolidate Power order in a castle area (R182): muster there (as `muster`, the
    most threatened area first) when anything can be mustered, else gain power (lowest area id,
    as D28)."""
    from games.engine.agot import action

    areas = action.orders_of(state, seat, "consolidate")
    musters = sorted((a for a in areas if action.can_cp_muster(state, seat, a)),
                     key=lambda a: (-E.threat_to(state, seat, a), a))
    for area in musters:
        value = muster(state, seat, {"areas": [area], "single": True})
        items: list[dict[str, str]] = []
        for dest, its in sorted(value.items()):
            for it in its:
                it = {k: v for k, v in it.items() if k != "from"}
                if it.get("recruit") == "ship":
                    it["to"] = dest
                items.append(it)
        if items:
            return {"from": area, "muster": items}
    return {"from": areas[0]}


def break_tie(state: State, seat: str) -> list[str]:
    """The Iron Throne holder breaks a tie (R86, R108; A28: it may put itself anywhere): itself
    first (the better track position, the Night's Watch reward, never the lowest wildling bidder),
    the leader on the Victory track last, the others as the D9/D11 default."""
    from games.engine.agot import bidding

    order = bidding.default_tie_order(state)
    lead = E.leader(state, exclude=seat)
    if lead in order and len(order) > 1:
        order = [h for h in order if h != lead] + [lead]
    if seat in order:
        order = [seat] + [h for h in order if h != seat]
    return order
