"""The Westeros phase (R42-R62): reveal, wildling threat, and the cards I, II, III in order.

The phase runs a queue of tasks in state["westeros"]["queue"] (plain dicts with a type `t`). A task
either completes at once or sets state["decision"] and waits in state["westeros"]["current"]; the
answer finishes it and the queue goes on. Subtasks are pushed to the front, so effects happen in the
order the rules give (a wildling attack at 12 before card I, a card's effects before the next card).
When the queue is empty the Planning phase begins. The queue holds no secret (views show it).

Owned decision kinds: muster, bid, break_tie, choose, reduce (docs/engine-agot-state.md).
"""
from __future__ import annotations

import random
from typing import Any

from games.engine import rng
from games.engine.agot import bidding, mustering, planning, rounds, supply, wildlings
from games.engine.agot import board as B
from games.engine.agot import names as NM
from games.engine.agot.data import WESTEROS_DECKS, board, westeros_cards
from games.engine.base import EngineError, ScenarioSetupError
from games.engine.narration import gettext

State = dict[str, Any]
Event = dict[str, Any]
Task = dict[str, Any]
Action = dict[str, Any]

THREAT_MAX = 12
# Westeros options are answered with the id of the card they stand for (SCENARIOS.md).
OPTIONS = {
    "a_throne_of_blades": ("iron_throne", ("supply", "mustering", "last_days_of_summer")),
    "dark_wings_dark_words": ("messenger_raven", ("clash_of_kings", "game_of_thrones", "last_days_of_summer")),
    "put_to_the_sword": ("valyrian_steel_blade", ("rains_of_autumn", "storm_of_swords", "last_days_of_summer")),
}
RESTRICTION = {"rains_of_autumn": "march+1*", "storm_of_swords": "defense", "sea_of_storms": "raid",
               "feast_for_crows": "consolidate", "web_of_lies": "support"}
DEFAULT_OPTION = "last_days_of_summer"  # D5, D6, D7: nothing happens / no restriction


def new_record() -> dict[str, Any]:
    return {"queue": [], "current": None, "discards": {d: [] for d in WESTEROS_DECKS}}


def _ws(state: State) -> dict[str, Any]:
    if not state.get("westeros"):
        state["westeros"] = new_record()
    return state["westeros"]


# ------------------------------------------------------------------ decks (R17, R51, A20)


def draw(state: State, deck: str) -> str:
    """The top card; an empty deck first takes back its discards, shuffled (A20). Cards a scenario
    pinned stay on top through any shuffle (SCENARIOS.md "Randomness")."""
    cards = state["decks"][deck]
    pins = state["decks"]["_pinned"]
    if not cards:
        cards.extend(_ws(state)["discards"][deck])
        _ws(state)["discards"][deck] = []
        rng.shuffle(state, cards)
    card = cards.pop(0)
    if pins.get(deck):
        pins[deck] -= 1
    return card


def shuffle_in(state: State, deck: str, card: str) -> None:
    """Winter is Coming (R51): the card goes back into its deck, which is shuffled (not the discards, A20)."""
    cards = state["decks"][deck]
    cards.append(card)
    rng.shuffle(state, cards, start=state["decks"]["_pinned"].get(deck, 0))


def has_icon(card: str) -> bool:
    return bool(westeros_cards()[card].get("wildling_icon"))


def advance_threat(state: State, events: list[Event]) -> bool:
    """R43: one icon moves the threat one space (+2). True when it reaches 12: an attack at once (R44)."""
    state["wildlings"] = min(THREAT_MAX, state["wildlings"] + 2)
    events.append({"type": "wildling_threat", "threat": state["wildlings"]})
    return state["wildlings"] >= THREAT_MAX


# ------------------------------------------------------------------ the phase


def start_westeros(state: State, events: list[Event]) -> None:
    """R42: (the round marker was advanced at Clean-up) reveal I, II, III; advance the wildling track,
    an attack at 12 resolving at once with the extra icons ignored (R44); then resolve the cards."""
    if state["round"] < 2:
        raise ScenarioSetupError("start: westeros needs round 2-10 (no Westeros phase in round 1, R35)")
    ws = _ws(state)
    state["phase"] = "westeros"
    state["step"] = "reveal"
    state["decision"] = None
    cards = [draw(state, d) for d in WESTEROS_DECKS]
    state["revealed"]["westeros"] = list(cards)
    events.append({"type": "westeros_revealed", "round": state["round"], "cards": list(cards)})
    state["step"] = "wildlings"
    queue: list[Task] = []
    for card in cards:
        if has_icon(card) and advance_threat(state, events):
            queue.append({"t": "attack"})
            break
    for i, (deck, card) in enumerate(zip(WESTEROS_DECKS, cards, strict=True)):
        queue.append({"t": "card", "deck": deck, "index": i, "card": card})  # R42.4: I, II, III
    ws["queue"] = queue
    ws["current"] = None
    run(state, events)


def run(state: State, events: list[Event]) -> None:
    ws = _ws(state)
    while state["phase"] == "westeros" and state["decision"] is None:
        if not ws["queue"]:
            _finish(state, events)
            return
        task = ws["queue"].pop(0)
        if not TASKS[task["t"]](state, task, events):
            if state["phase"] == "westeros" and state["decision"] is not None:
                ws["current"] = task
            return


def push(state: State, tasks: list[Task]) -> None:
    _ws(state)["queue"][0:0] = tasks


def _finish(state: State, events: list[Event]) -> None:
    ws = _ws(state)
    ws["queue"], ws["current"] = [], None
    events.append({"type": "westeros_done", "restrictions": list(state["restrictions"])})
    planning.start_planning(state, events)


def victory_stop(state: State, events: list[Event]) -> bool:
    """A26: control may change when units are destroyed outside a march: instant win check (R37b)."""
    return rounds.victory_check(state, events)


# ------------------------------------------------------------------ tasks


def _t_card(state: State, task: Task, events: list[Event]) -> bool:
    state["step"] = "resolve"
    card, deck = task["card"], task["deck"]
    events.append({"type": "westeros_card", "deck": deck, "card": card})
    if card == "winter_is_coming":
        # R51, R52, A21: shuffle the card back, draw again, its icon counts (an attack at 12 at once).
        shuffle_in(state, deck, card)
        new = draw(state, deck)
        state["revealed"]["westeros"][task["index"]] = new
        events.append({"type": "winter_is_coming", "deck": deck, "card": new})
        tasks: list[Task] = []
        if has_icon(new) and advance_threat(state, events):
            tasks.append({"t": "attack"})
        tasks.append({"t": "card", "deck": deck, "index": task["index"], "card": new})
        push(state, tasks)
        return True
    _ws(state)["discards"][deck].append(card)
    return _effect(state, card, events)


def _effect(state: State, card: str, events: list[Event]) -> bool:
    if card in OPTIONS:
        token, options = OPTIONS[card]
        state["decision"] = {"kind": "choose", "seats": [B.holder(state, token)], "card": card,
                             "options": list(options)}
        return False
    if card == "supply":
        push(state, [{"t": "supply"}])
    elif card == "mustering":
        push(state, [{"t": "muster_all"}])
    elif card == "game_of_thrones":
        income(state, events)
    elif card == "clash_of_kings":
        push(state, [{"t": "track", "track": t} for t in ("iron_throne", "fiefdoms", "kings_court")])  # R83
    elif card == "wildlings_attack":
        push(state, [{"t": "attack"}])
    elif card in RESTRICTION:
        if RESTRICTION[card] not in state["restrictions"]:
            state["restrictions"].append(RESTRICTION[card])
        events.append({"type": "restriction", "card": card, "restrictions": list(state["restrictions"])})
    return True


def _t_supply(state: State, task: Task, events: list[Event]) -> bool:
    """R47: in turn order each house's supply = barrels it controls (max 6), then armies are reconciled."""
    order = list(B.turn_order(state))
    for h in order:
        state["supply"][h] = B.supply_icons(state, h)
    events.append({"type": "supply", "supply": dict(state["supply"])})
    push(state, [{"t": "reduce", "house": h} for h in order])
    return True


def _t_reduce(state: State, task: Task, events: list[Event]) -> bool:
    """R63: a house over its supply destroys units; forced when only one reduction is possible."""
    h = task["house"]
    if supply.fits(state, h):
        return True
    if supply.reduction_choices(state, h) <= 1:
        destroy(state, h, supply.default_reduction(state, h), events, "supply", forced=True)
        victory_stop(state, events)
        return True
    state["decision"] = {"kind": "reduce", "seats": [h], "supply": state["supply"][h]}
    return False


def _t_muster_all(state: State, task: Task, events: list[Event]) -> bool:
    """R48, R74: in turn order, each house musters everywhere before the next starts."""
    push(state, [{"t": "muster", "house": h} for h in B.turn_order(state)])
    return True


def _t_muster(state: State, task: Task, events: list[Event]) -> bool:
    h = task["house"]
    areas = mustering.muster_areas(state, h)
    if not mustering.can_muster(state, h, areas):
        events.append({"type": "muster", "house": h, "source": task.get("source", "mustering"), "recruited": {},
                       "upgraded": {}, "forced": True})
        return True
    state["decision"] = {"kind": "muster", "seats": [h], "areas": areas, "single": bool(task.get("single")),
                         "source": task.get("source", "mustering")}
    return False


def _t_track(state: State, task: Task, events: list[Event]) -> bool:
    state["step"] = "resolve"
    if not bidding.open_bid(state, task, list(B.turn_order(state)), events):
        return False
    return bidding.start_track_result(state, task, events)


def income(state: State, events: list[Event]) -> None:
    """R53, A8: 1 power per crown in controlled areas, plus 1 per friendly port holding a friendly ship
    whose sea holds no enemy ship. Power tokens on the board are no crowns (R168)."""
    b = board()
    gains: dict[str, int] = {}
    for h in B.turn_order(state):
        n = sum(b.power[a] for a in b.land if b.power[a] and B.controller(state, a) == h)
        n += sum(1 for p in b.ports if B.house_units(state, p, h) and B.port_owner(state, p) == h
                 and not B.enemy_ships_in(state, b.port_sea[p], h))
        gains[h] = B.gain_power(state, h, n)
    events.append({"type": "power_income", "gained": gains})


TASKS: dict[str, Any] = {
    "card": _t_card, "supply": _t_supply, "reduce": _t_reduce, "muster_all": _t_muster_all, "muster": _t_muster,
    "track": _t_track, **wildlings.TASKS,
}


# ------------------------------------------------------------------ units


def destroy(state: State, house: str, units: dict[str, list[str]], events: list[Event], why: str,
            forced: bool = False) -> None:
    for area, us in sorted(units.items()):
        B.remove_units(state, area, house, us)
    ev: Event = {"type": "units_destroyed", "house": house, "units": {a: list(u) for a, u in units.items()},
                 "why": why}
    if forced:
        ev["forced"] = True
    events.append(ev)


# ------------------------------------------------------------------ answers


def apply(state: State, seat: str, act: Action, events: list[Event]) -> None:
    ((kind, value),) = act.items()
    ws = _ws(state)
    task = ws["current"]
    if task is None:
        raise EngineError("not_your_turn", gettext("%(seat)s has no pending %(kind)s decision") % {"seat": NM.house(seat), "kind": kind})
    done = _answer(state, task, seat, kind, value, events)
    if done:
        ws["current"] = None
        state["decision"] = None
        run(state, events)


def _answer(state: State, task: Task, seat: str, kind: str, value: Any, events: list[Event]) -> bool:
    t = task["t"]
    if kind == "bid":
        if not bidding.place_bid(state, task, seat, value, events):
            return False
        if t == "track":
            return bidding.start_track_result(state, task, events)
        return wildlings.after_bids(state, task, events)
    if kind == "break_tie":
        if t == "track":
            return bidding.break_track_tie(state, task, value, events)
        return wildlings.break_tie(state, task, value, events)
    if kind == "reduce":
        units = supply.check_reduction(state, seat, value)
        destroy(state, seat, units, events, "supply")
        victory_stop(state, events)
        return True
    if kind == "muster":
        d = state["decision"]
        plan = mustering.check_muster(state, seat, value, d["areas"])
        if d["single"] and len(set(plan.spent)) > 1:
            raise EngineError("illegal_action", gettext("muster in one castle or stronghold area only (The Horde Descends)"))
        mustering.apply_plan(state, seat, plan, events, d["source"])
        return True
    if kind == "choose":
        if t == "card":
            return _choose_option(state, task, value, events)
        return wildlings.choose(state, task, seat, value, events)
    raise EngineError("not_your_turn", gettext("%(seat)s has no pending %(kind)s decision") % {"seat": NM.house(seat), "kind": kind})


def _choose_option(state: State, task: Task, value: Any, events: list[Event]) -> bool:
    d = state["decision"]
    if not isinstance(value, str) or value not in d["options"]:
        raise EngineError("illegal_action", gettext("%(card)s offers %(options)s") % {
            "card": NM.card(d["card"]), "options": NM.options(d["options"])}, rules=("R49", "R55", "R62"))
    events.append({"type": "westeros_option", "card": d["card"], "house": d["seats"][0], "option": value})
    state["decision"] = None
    _effect(state, value, events)
    return True


# ------------------------------------------------------------------ defaults, legal and random actions


def default_action(state: State, seat: str) -> Action:
    """D3-D12 (docs/agot-defaults.md)."""
    d = state["decision"]
    kind = d["kind"]
    if kind == "bid":
        return {"bid": 0}  # D8, D10
    if kind == "break_tie":
        return {"break_tie": bidding.default_tie_order(state)}  # D9, D11
    if kind == "muster":
        return {"muster": {}}  # D4
    if kind == "reduce":
        return {"reduce": supply.default_reduction(state, seat)}  # D3
    if "card" in d and d["card"] in OPTIONS:
        return {"choose": DEFAULT_OPTION}  # D5-D7
    return {"choose": wildlings.default_choice(state, seat)}  # D12


def legal_actions(state: State, seat: str) -> list[Action] | None:
    d = state["decision"]
    kind = d["kind"]
    if kind == "bid":
        return [{"bid": n} for n in range(state["power"][seat] + 1)]
    if kind == "break_tie":
        from itertools import islice, permutations

        return [{"break_tie": list(p)} for p in islice(permutations(d["tied"]), 720)]
    if kind == "choose":
        if "card" in d and d["card"] in OPTIONS:
            return [{"choose": o} for o in d["options"]]
        return wildlings.legal_choices(state, seat)
    if kind == "reduce":
        reductions = supply.all_reductions(state, seat)
        return None if reductions is None else [{"reduce": r} for r in reductions]
    return None  # muster: too many to list; random_action builds one


def random_action(state: State, seat: str, rnd: random.Random) -> Action:
    d = state["decision"]
    kind = d["kind"]
    if kind == "bid":
        p = state["power"][seat]
        return {"bid": rnd.choice([0, 0, rnd.randint(0, p), rnd.randint(0, min(p, 3))])}
    if kind == "muster":
        areas = d["areas"]
        if d["single"]:
            areas = [rnd.choice(areas)]
        return {"muster": mustering.random_muster(state, seat, areas, rnd)}
    if kind == "reduce":
        return {"reduce": supply.random_reduction(state, seat, rnd)}
    if kind == "break_tie":
        order = list(d["tied"])
        rnd.shuffle(order)
        return {"break_tie": order}
    if kind == "choose" and not ("card" in d and d["card"] in OPTIONS):
        return {"choose": wildlings.random_choice(state, seat, rnd)}
    legal = legal_actions(state, seat) or [default_action(state, seat)]
    return rnd.choice(legal)
