"""Wildling attacks (R100-R110) and the nine wildling cards (rules inventory 3.7, wildling_cards.yaml).

An attack is a task of the Westeros queue (westeros.py): secret bids (bidding.py), the result
(R103-R104), the threat (R105), the card drawn from the top (R107), the highest bidder's reward or the
lowest bidder's and everyone else's penalties as further tasks (lowest bidder first, then the others
in turn order, A31), and the card to the bottom of the deck. Choices are `choose` decisions whose
context (public) says what is chosen; defaults are D12. Readings taken where the cards are silent:
docs/rules-decisions.md, "Issue 4".
"""
from __future__ import annotations

import random
from typing import Any

from games.engine.agot import bidding, mustering
from games.engine.agot import board as B
from games.engine.agot import names as NM
from games.engine.agot import supply as S
from games.engine.agot.data import TRACKS, house_cards, unit_limits
from games.engine.base import EngineError
from games.engine.narration import gettext

State = dict[str, Any]
Event = dict[str, Any]
Task = dict[str, Any]
PRIORITY = S.DESTROY_PRIORITY  # D12: footmen, ships, siege engines, knights


def _w() -> Any:
    from games.engine.agot import westeros

    return westeros


# ------------------------------------------------------------------ the attack


def _t_attack(state: State, task: Task, events: list[Event]) -> bool:
    """R101-R103: strength = the threat now (a second attack in the phase uses the threat it has then,
    R45); Preemptive Raid's new attack has strength 6 without its highest bidder."""
    state["step"] = "wildlings"
    task.setdefault("strength", state["wildlings"])
    exclude = task.get("exclude", [])
    houses = [h for h in B.turn_order(state) if h not in exclude]
    events.append({"type": "wildling_attack", "strength": task["strength"], "houses": houses})
    if not bidding.open_bid(state, task, houses, events):
        return False
    return after_bids(state, task, events)


def after_bids(state: State, task: Task, events: list[Event]) -> bool:
    """R104-R107: result, threat, card; then who is the highest/lowest bidder (Iron Throne ties, R108)."""
    bids = {h: state["bids"][h] for h in task["bidders"]}
    total = sum(bids.values())
    nw = total >= task["strength"]
    state["wildlings"] = 0 if nw else max(0, state["wildlings"] - 4)  # R105
    card = _draw(state)
    task.update(nw=nw, card=card, bids=bids)
    events.append({"type": "wildling_result", "nights_watch": nw, "total": total, "strength": task["strength"],
                   "threat": state["wildlings"], "card": card})
    target = max(bids.values()) if nw else min(bids.values())
    tied = [h for h in B.turn_order(state) if h in bids and bids[h] == target]
    if len(tied) == 1 or card == "silence_at_the_wall":
        return _resolve(state, task, tied[0], events)
    state["decision"] = {"kind": "break_tie", "seats": [B.holder(state, "iron_throne")], "tied": tied,
                         "bid": target, "for": "highest" if nw else "lowest"}
    return False


def break_tie(state: State, task: Task, value: Any, events: list[Event]) -> bool:
    """R108; SCENARIOS.md: first = the highest bidder, last = the lowest bidder."""
    order = bidding.check_tie_order(state, value)
    events.append({"type": "tie_broken", "for": state["decision"]["for"], "order": order,
                   "by": state["decision"]["seats"][0]})
    state["decision"] = None
    return _resolve(state, task, order[0] if task["nw"] else order[-1], events)


def _draw(state: State) -> str:
    deck = state["decks"]["wildlings"]
    card = deck.pop(0)
    pins = state["decks"]["_pinned"]
    if pins.get("wildlings"):
        pins["wildlings"] -= 1
    return card


def _resolve(state: State, task: Task, bidder: str, events: list[Event]) -> bool:
    card, nw = task["card"], task["nw"]
    others = [h for h in B.turn_order(state) if h in task["bidders"] and h != bidder]
    events.append({"type": "wildling_card", "card": card, "nights_watch": nw,
                   ("highest" if nw else "lowest"): bidder})
    tasks = effect_tasks(card, nw, bidder, others, task["bids"], list(B.turn_order(state)))
    bottom = {"t": "w_bottom", "card": card}
    if card == "preemptive_raid" and nw:
        tasks = [bottom] + tasks
    else:
        tasks = tasks + [bottom]
    _w().push(state, tasks)
    return True


def effect_tasks(card: str, nw: bool, bidder: str, others: list[str], bids: dict[str, int],
                 order: list[str]) -> list[Task]:
    """The card's effects as tasks, lowest bidder first, then everyone else in turn order (A31)."""
    if card == "silence_at_the_wall":
        return []
    if card == "rattleshirts_raiders":
        if nw:
            return [{"t": "w_supply", "house": bidder, "delta": 1}]
        ts = [{"t": "w_supply", "house": bidder, "delta": -2}] + [{"t": "w_supply", "house": h, "delta": -1}
                                                                   for h in others]
        return ts + [{"t": "reduce", "house": h} for h in order if h == bidder or h in others]
    if card == "skinchanger_scout":
        if nw:
            return [{"t": "w_power", "house": bidder, "refund": bids[bidder]}]
        return [{"t": "w_power", "house": bidder, "lose": None}] + [{"t": "w_power", "house": h, "lose": 2}
                                                                     for h in others]
    if card == "massing_on_the_milkwater":
        if nw:
            return [{"t": "w_hand", "house": bidder, "mode": "take_all"}]
        return [{"t": "w_hand", "house": bidder, "mode": "discard_highest"}] + [
            {"t": "w_hand", "house": h, "mode": "discard_one"} for h in others]
    if card == "mammoth_riders":
        if nw:
            return [{"t": "w_hand", "house": bidder, "mode": "take_one"}]
        return [{"t": "w_units", "house": bidder, "count": 3, "mode": "destroy"}] + [
            {"t": "w_units", "house": h, "count": 2, "mode": "destroy"} for h in others]
    if card == "the_horde_descends":
        if nw:
            return [{"t": "muster", "house": bidder, "single": True, "source": "the_horde_descends"}]
        return [{"t": "w_horde", "house": bidder}] + [{"t": "w_units", "house": h, "count": 1, "mode": "destroy"}
                                                       for h in others]
    if card == "crow_killers":
        if nw:
            return [{"t": "w_units", "house": bidder, "count": 2, "mode": "to_knight", "may": True}]
        return [{"t": "w_all_knights", "house": bidder}] + [
            {"t": "w_units", "house": h, "count": 2, "mode": "to_footman"} for h in others]
    if card == "a_king_beyond_the_wall":
        if nw:
            return [{"t": "w_track", "house": bidder, "mode": "top"}]
        return [{"t": "w_track", "house": bidder, "mode": "bottom_all"}] + [
            {"t": "w_track", "house": h, "mode": "bottom_one"} for h in others]
    if card == "preemptive_raid":
        if nw:
            return [{"t": "attack", "strength": 6, "exclude": [bidder]}]
        return [{"t": "w_preempt", "house": bidder}]
    raise KeyError(card)


def _t_bottom(state: State, task: Task, events: list[Event]) -> bool:
    """R107.4: the card goes face down to the bottom of the wildling deck."""
    state["decks"]["wildlings"].append(task["card"])
    return True


# ------------------------------------------------------------------ simple effects


def _t_supply(state: State, task: Task, events: list[Event]) -> bool:
    """Rattleshirt's Raiders (R109): the supply token moves, 0 to 6 (R67)."""
    h = task["house"]
    state["supply"][h] = max(0, min(6, state["supply"][h] + task["delta"]))
    events.append({"type": "supply", "supply": {h: state["supply"][h]}, "card": "rattleshirts_raiders"})
    return True


def _t_power(state: State, task: Task, events: list[Event]) -> bool:
    """Skinchanger Scout: the bid comes back (from the pool), or all / 2 available power is discarded."""
    h = task["house"]
    if "refund" in task:
        n = B.gain_power(state, h, task["refund"])
        events.append({"type": "power_gained", "house": h, "gained": n, "card": "skinchanger_scout"})
    else:
        lose = state["power"][h] if task["lose"] is None else task["lose"]
        n = B.discard_power(state, h, lose)
        events.append({"type": "power_lost", "house": h, "lost": n, "card": "skinchanger_scout"})
    return True


def _strength(card: str) -> int:
    return int(house_cards()[card]["strength"])


def _t_hand(state: State, task: Task, events: list[Event]) -> bool:
    """Massing on the Milkwater and Mammoth Riders' reward (house cards; hands are public, R225)."""
    h, mode = task["house"], task["mode"]
    hand, disc = state["hands"][h], state["discards"][h]
    if mode == "take_all":
        events.append({"type": "cards_returned", "house": h, "cards": list(disc)})
        hand.extend(disc)
        disc.clear()
        return True
    if mode == "discard_highest":
        if len(hand) <= 1:
            return True
        top = max(_strength(c) for c in hand)
        gone = sorted(c for c in hand if _strength(c) == top)
        _discard(state, h, gone, events)
        return True
    if mode == "discard_one":
        if len(hand) <= 1:
            return True
        state["decision"] = {"kind": "choose", "seats": [h], "effect": "discard_card", "options": sorted(hand)}
        return False
    # take_one: "may" take one card of the discard pile back
    if not disc:
        return True
    state["decision"] = {"kind": "choose", "seats": [h], "effect": "take_card", "options": sorted(disc) + [False]}
    return False


def _discard(state: State, h: str, cards: list[str], events: list[Event]) -> None:
    hand, disc = state["hands"][h], state["discards"][h]
    for c in cards:
        hand.remove(c)
    if not hand:
        # As after a house plays its last card (R224): the earlier discards come back.
        state["hands"][h] = list(disc)
        state["discards"][h] = list(cards)
    else:
        disc.extend(cards)
    events.append({"type": "cards_discarded", "house": h, "cards": list(cards)})


# ------------------------------------------------------------------ units


def _candidates(state: State, h: str, mode: str, areas: list[str] | None = None) -> dict[str, list[str]]:
    want = {"destroy": None, "destroy_knight": "knight", "to_footman": "knight", "to_knight": "footman"}[mode]
    out: dict[str, list[str]] = {}
    for area in sorted(state["units"]):
        if areas is not None and area not in areas:
            continue
        us = [u for u in B.house_units(state, area, h) if want is None or B.base_unit(u) == want]
        if us:
            out[area] = list(us)
    return out


def _unit_count(state: State, task: Task, cand: dict[str, list[str]]) -> int:
    n = min(task["count"], sum(len(v) for v in cand.values()))
    if task["mode"] == "to_knight":
        n = min(n, unit_limits()["knight"] - B.unit_counts(state, task["house"])["knight"])
    return n


def _selections(cand: dict[str, list[str]], n: int, single: bool, limit: int = 2) -> int:
    """How many distinct selections of n units there are (capped at `limit`)."""
    groups = [(a, u, us.count(u)) for a, us in cand.items() for u in sorted(set(us))]
    total = 0
    if single:
        for us in cand.values():
            if len(us) >= n:
                total += S._distinct_subsets(us, n)
        return min(total, limit)
    ways = [1] + [0] * n
    for _, _, c in groups:
        new = [0] * (n + 1)
        for have in range(n + 1):
            if ways[have]:
                for take in range(min(c, n - have) + 1):
                    new[have + take] += ways[have]
        ways = new
    return min(ways[n], limit)


def _t_units(state: State, task: Task, events: list[Event]) -> bool:
    """Units chosen anywhere (Mammoth Riders, The Horde Descends, Crow Killers): forced when there is
    one distinct selection; a "may" reward is always asked while it can do something."""
    h = task["house"]
    cand = _candidates(state, h, task["mode"], task.get("areas"))
    n = _unit_count(state, task, cand)
    if n <= 0:
        return True
    single = bool(task.get("single"))
    if not task.get("may") and _selections(cand, n, single) <= 1:
        _do_units(state, task, _default_units(state, task), events, forced=True)
        return True
    state["decision"] = {"kind": "choose", "seats": [h], "effect": "units", "mode": task["mode"], "count": n,
                         "may": bool(task.get("may")), "single": single, "areas": sorted(cand)}
    return False


def _default_units(state: State, task: Task) -> dict[str, list[str]]:
    """D12: destroy footmen, ships, siege engines, knights in that order, lowest area id first; knights
    replaced (Crow Killers) by area id. A one-area choice takes the lowest area with enough units."""
    h = task["house"]
    cand = _candidates(state, h, task["mode"], task.get("areas"))
    n = _unit_count(state, task, cand)
    if task.get("single"):
        area = next(a for a, us in cand.items() if len(us) >= n)
        cand = {area: cand[area]}
    flat = [(PRIORITY.index(B.base_unit(u)), a, u) for a, us in cand.items() for u in us]
    flat.sort()
    out: dict[str, list[str]] = {}
    for _, a, u in flat[:n]:
        out.setdefault(a, []).append(u)
    return out


def _check_units(state: State, task: Task, d: dict[str, Any], value: Any) -> dict[str, list[str]]:
    from collections import Counter

    h = task["house"]
    if value is False and d["may"]:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, list) and all(isinstance(u, str) for u in v)
                                              for v in value.values()):
        raise EngineError("bad_action", gettext("choose takes {area: [units]} here"))
    clean = {a: list(us) for a, us in value.items() if us}
    cand = _candidates(state, h, task["mode"], task.get("areas"))
    for a, us in clean.items():
        if Counter(us) - Counter(cand.get(a, [])):
            raise EngineError("illegal_action", gettext("%(house)s has no such units to choose in %(area)s: %(units)s") % {
                "house": NM.house(h), "area": NM.area(a), "units": NM.units(us)})
    n = sum(len(us) for us in clean.values())
    if (d["may"] and n > d["count"]) or (not d["may"] and n != d["count"]):
        raise EngineError("illegal_action", (gettext("choose up to %(count)s unit(s)") if d["may"] else gettext("choose %(count)s unit(s)"))
                          % {"count": d["count"]})
    if d["single"] and len(clean) > 1:
        raise EngineError("illegal_action", gettext("the units must all stand in one area"))
    return clean


def _do_units(state: State, task: Task, units: dict[str, list[str]], events: list[Event], forced: bool = False) -> None:
    h, mode = task["house"], task["mode"]
    if mode.startswith("destroy"):
        _w().destroy(state, h, units, events, task.get("why", "wildlings"), forced=forced)
        _w().victory_stop(state, events)
        return
    new = "footman" if mode == "to_footman" else "knight"
    free = unit_limits()[new] - B.unit_counts(state, h)[new]
    lost: dict[str, list[str]] = {}
    swapped: dict[str, list[str]] = {}
    for a in sorted(units):
        for u in units[a]:
            B.remove_units(state, a, h, [u])
            if free > 0:
                B.add_units(state, a, h, [new])
                swapped.setdefault(a, []).append(new)
                free -= 1
            else:
                lost.setdefault(a, []).append(u)  # Crow Killers: a knight not replaced is destroyed
    events.append({"type": "units_replaced", "house": h, "units": swapped, "destroyed": lost,
                   **({"forced": True} if forced else {})})
    if lost:
        _w().victory_stop(state, events)


def _t_all_knights(state: State, task: Task, events: list[Event]) -> bool:
    """Crow Killers, lowest bidder: every knight becomes a footman while footmen are left; the owner
    chooses which knights are destroyed when footmen run short."""
    h = task["house"]
    knights = _candidates(state, h, "to_footman")
    k = sum(len(v) for v in knights.values())
    free = unit_limits()["footman"] - B.unit_counts(state, h)["footman"]
    tasks: list[Task] = []
    if k > free:
        tasks.append({"t": "w_units", "house": h, "count": k - free, "mode": "destroy_knight", "why": "crow_killers"})
    tasks.append({"t": "w_swap_all", "house": h})
    _w().push(state, tasks)
    return True


def _t_swap_all(state: State, task: Task, events: list[Event]) -> bool:
    h = task["house"]
    knights = _candidates(state, h, "to_footman")
    if knights:
        _do_units(state, {"house": h, "mode": "to_footman"}, knights, events, forced=True)
    return True


def _t_horde(state: State, task: Task, events: list[Event]) -> bool:
    """The Horde Descends, lowest bidder: 2 units in one castle/stronghold area it controls holding at
    least 2 of its units; if there is none, 2 units anywhere (decision in docs/rules-decisions.md)."""
    h = task["house"]
    castles = [a for a in mustering.muster_areas(state, h) if len(B.house_units(state, a, h)) >= 2]
    if castles:
        sub = {"t": "w_units", "house": h, "count": 2, "mode": "destroy", "areas": castles, "single": True}
    else:
        sub = {"t": "w_units", "house": h, "count": 2, "mode": "destroy"}
    _w().push(state, [sub])
    return True


# ------------------------------------------------------------------ tracks (R286-R288)


def _t_track(state: State, task: Task, events: list[Event]) -> bool:
    """A King Beyond the Wall: to the top of a chosen track (reward), to the bottom of all three (lowest
    bidder), or of Fiefdoms or King's Court, chosen (everyone else)."""
    h, mode = task["house"], task["mode"]
    if mode == "bottom_all":
        for t in TRACKS:
            bidding.move_on_track(state, t, h, len(state["tracks"][t]) - 1, events)
        return True
    options = list(TRACKS) if mode == "top" else ["fiefdoms", "kings_court"]
    useful = [t for t in options if state["tracks"][t].index(h) != (0 if mode == "top" else len(state["tracks"][t]) - 1)]
    if not useful:
        return True
    state["decision"] = {"kind": "choose", "seats": [h], "effect": "track_" + mode, "options": options}
    return False


def _t_preempt(state: State, task: Task, events: list[Event]) -> bool:
    """Preemptive Raid, lowest bidder: destroy 2 of its units, or drop 2 places on the (a) track where
    it stands highest."""
    h = task["house"]
    best = min(state["tracks"][t].index(h) for t in TRACKS)
    tracks = [t for t in TRACKS if state["tracks"][t].index(h) == best]
    units = sum(len(B.house_units(state, a, h)) for a in state["units"])
    if not units and len(tracks) == 1:
        _drop(state, h, tracks[0], events)
        return True
    state["decision"] = {"kind": "choose", "seats": [h], "effect": "preemptive", "options": tracks,
                         "mode": "destroy", "count": min(2, units), "may": False, "single": False,
                         "areas": sorted(a for a in state["units"] if B.house_units(state, a, h))}
    return False


def _drop(state: State, h: str, track: str, events: list[Event]) -> None:
    pos = state["tracks"][track].index(h)
    bidding.move_on_track(state, track, h, pos + 2, events)


# ------------------------------------------------------------------ choose answers, defaults


def choose(state: State, task: Task, seat: str, value: Any, events: list[Event]) -> bool:
    d = state["decision"]
    effect = d["effect"]
    if effect == "units":
        units = _check_units(state, task, d, value)
        state["decision"] = None
        if units:
            _do_units(state, task, units, events)
        else:
            events.append({"type": "reward_declined", "house": seat})
        return True
    if effect == "preemptive":
        if isinstance(value, str):
            if value not in d["options"]:
                raise EngineError("illegal_action", gettext("drop on a track where %(house)s stands highest: %(options)s") % {
                    "house": NM.house(seat), "options": NM.options(d["options"])})
            state["decision"] = None
            _drop(state, seat, value, events)
            return True
        if not d["count"]:
            raise EngineError("illegal_action", gettext("%(house)s has no units: drop on a track %(options)s") % {
                "house": NM.house(seat), "options": NM.options(d["options"])})
        units = _check_units(state, {"house": seat, "mode": "destroy"}, d, value)
        state["decision"] = None
        _do_units(state, {"house": seat, "mode": "destroy"}, units, events)
        return True
    if not any(value is o or (isinstance(value, str) and value == o) for o in d["options"]):
        raise EngineError("illegal_action", gettext("choose one of %(options)s") % {"options": NM.options(d["options"])})
    state["decision"] = None
    if effect == "discard_card":
        _discard(state, seat, [value], events)
    elif effect == "take_card":
        if value is False:
            events.append({"type": "reward_declined", "house": seat})
        else:
            state["discards"][seat].remove(value)
            state["hands"][seat].append(value)
            events.append({"type": "cards_returned", "house": seat, "cards": [value]})
    elif effect == "track_top":
        bidding.move_on_track(state, value, seat, 0, events)
    elif effect == "track_bottom_one":
        bidding.move_on_track(state, value, seat, len(state["tracks"][value]) - 1, events)
    return True


def default_choice(state: State, seat: str) -> Any:
    """D12: decline "may" rewards; forced losses destroy footmen, ships, siege engines, knights; a track
    choice takes the track where the house stands lowest (Preemptive Raid: the track drop, King's
    Court first); a card to discard: the lowest strength, then the lowest id."""
    d = state["decision"]
    task = state["westeros"]["current"]
    effect = d["effect"]
    if effect == "units":
        return False if d["may"] else _default_units(state, task)
    if effect == "preemptive":
        return sorted(d["options"], key=lambda t: -TRACKS.index(t))[0]
    if effect == "take_card":
        return False
    if effect == "discard_card":
        return sorted(d["options"], key=lambda c: (_strength(c), c))[0]
    # track_top / track_bottom_one: the track where the house stands lowest (latest track on a tie)
    return max(d["options"], key=lambda t: (state["tracks"][t].index(seat), TRACKS.index(t)))


def _unit_selections(cand: dict[str, list[str]], n: int, cap: int) -> list[dict[str, list[str]]] | None:
    """Every distinct selection of n units from `cand` (identical units once), None beyond `cap`."""
    groups = [(a, u, cand[a].count(u)) for a in sorted(cand) for u in sorted(set(cand[a]))]
    out: list[dict[str, list[str]]] = []

    def rec(i: int, left: int, pick: dict[str, list[str]]) -> bool:
        if left == 0:
            out.append({a: list(us) for a, us in pick.items()})
            return len(out) <= cap
        if i == len(groups):
            return True
        a, u, c = groups[i]
        for take in range(min(c, left), -1, -1):
            if take:
                pick.setdefault(a, []).extend([u] * take)
            ok = rec(i + 1, left - take, pick)
            if take:
                del pick[a][-take:]
                if not pick[a]:
                    del pick[a]
            if not ok:
                return False
        return True

    return out if rec(0, n, {}) else None


def legal_choices(state: State, seat: str, cap: int = 300) -> list[dict[str, Any]] | None:
    d = state["decision"]
    if d["effect"] not in ("units", "preemptive"):
        return [{"choose": o} for o in d["options"]]
    out: list[dict[str, Any]] = [{"choose": t} for t in d["options"]] if d["effect"] == "preemptive" else []
    cand = _candidates(state, seat, d.get("mode", "destroy"), d["areas"])
    sizes = range(1, d["count"] + 1) if d["may"] else [d["count"]] if d["count"] else []
    if d["may"]:
        out.append({"choose": False})
    for n in sizes:
        if d["single"]:
            sels: list[dict[str, list[str]]] | None = []
            for a in sorted(cand):
                part = _unit_selections({a: cand[a]}, n, cap) if len(cand[a]) >= n else []
                if part is None or sels is None:
                    return None
                sels += part
        else:
            sels = _unit_selections(cand, n, cap)
        if sels is None or len(out) + len(sels) > cap:
            return None
        out += [{"choose": sel} for sel in sels]
    return out


def random_choice(state: State, seat: str, rnd: random.Random) -> Any:
    d = state["decision"]
    if d["effect"] == "preemptive" and (not d["count"] or rnd.random() < 0.5):
        return rnd.choice(d["options"])
    if d["effect"] in ("units", "preemptive"):
        if d["may"] and rnd.random() < 0.3:
            return False
        mode = d.get("mode", "destroy")
        cand = _candidates(state, seat, mode, d["areas"])
        if d["single"]:
            a = rnd.choice([a for a, us in cand.items() if len(us) >= d["count"]])
            cand = {a: cand[a]}
        flat = [(a, u) for a, us in cand.items() for u in us]
        rnd.shuffle(flat)
        n = rnd.randint(0, d["count"]) if d["may"] else d["count"]
        out: dict[str, list[str]] = {}
        for a, u in flat[:n]:
            out.setdefault(a, []).append(u)
        return out
    return rnd.choice(d["options"])


TASKS: dict[str, Any] = {
    "attack": _t_attack, "w_bottom": _t_bottom, "w_supply": _t_supply, "w_power": _t_power, "w_hand": _t_hand,
    "w_units": _t_units, "w_all_knights": _t_all_knights, "w_swap_all": _t_swap_all, "w_horde": _t_horde,
    "w_track": _t_track, "w_preempt": _t_preempt,
}
__all__ = ["TASKS", "after_bids", "break_tie", "choose", "default_choice", "legal_choices", "random_choice"]
