"""Round flow (B17-B49), bidding turns (B20-B27), the bid (B29-B32), the work after the bid (N2),
claims and placement (B33-B35, B61-B65), cleanup and seasons (B43-B49), scoring (B50-B56),
and the draft (B75-B77).

Everything after a decision is a queue of small tasks (state["queue"]); `run` executes them until
one needs a decision (state["decision"]) or the queue is empty. Card abilities are the effect ops
of the card set, executed by effects.py.
"""
from __future__ import annotations

from typing import Any

from games.engine.base import EngineError
from games.engine.btwixt import data, effects
from games.engine.btwixt import table as T
from games.engine.narration import gettext

State = dict[str, Any]
Event = dict[str, Any]


# ------------------------------------------------------------------ the task loop


def run(state: State, events: list[Event]) -> None:
    while state["decision"] is None and state["queue"] and state["step"] != "game_over":
        task = state["queue"].pop(0)
        TASKS[task["t"]](state, task, events)


def push_front(state: State, *tasks: dict[str, Any]) -> None:
    state["queue"][0:0] = list(tasks)


# ------------------------------------------------------------------ rounds and seasons


def begin_round(state: State, events: list[Event]) -> None:
    """Step 1 (B18, B19): the first player reveals the ally; then turns from the first player (B20)."""
    state["step"] = "bidding"
    state["piles"] = {s: [] for s in state["seats"]}
    state["knelt"] = []
    state["extra_allies"] = []
    state["ally_tokens"] = []
    state["claiming"] = None
    ally = effects.reveal_next(state, round_start=True)
    state["current_ally"] = ally
    state["round_ally"] = ally
    events.append({"type": "reveal", "ally": ally, "season": state["season"], "round": state["round"]})
    start_turns(state, state["first_player"], events)


def start_turns(state: State, seat: str, events: list[Event]) -> None:
    """The turn goes to `seat` or, if it has knelt, the next seat clockwise that has not."""
    for s in T.clockwise_from(state, seat):
        if s not in state["knelt"]:
            give_turn(state, s, events)
            return
    resolve_bid(state, events)


def next_turn(state: State, after: str, events: list[Event]) -> None:
    """B25: turns go on clockwise until every leader has knelt."""
    for s in T.clockwise_from(state, after, include=False) + [after]:
        if s not in state["knelt"]:
            give_turn(state, s, events)
            return
    resolve_bid(state, events)


def give_turn(state: State, seat: str, events: list[Event]) -> None:
    """N12: a leader with no legal card kneels without being asked (B26)."""
    if not effects.playable_cards(state, seat):
        kneel(state, seat, events, forced=True)
        next_turn(state, seat, events)
        return
    state["turn"] = seat
    if not effects.may_kneel(state, seat):
        plays = effects.play_actions(state, seat)
        if len(plays) == 1:  # Robert Baratheon with one playable card: a forced play
            effects.play(state, seat, plays[0], events)
            return
    state["decision"] = {"kind": "turn", "seats": [seat]}


def kneel(state: State, seat: str, events: list[Event], forced: bool = False) -> None:
    """B24: kneeling is for the rest of the round."""
    if seat not in state["knelt"]:
        state["knelt"].append(seat)
        events.append({"type": "kneel", "seat": seat, "forced": forced})


def resolve_bid(state: State, events: list[Event]) -> None:
    """B29-B32 and the order after the bid (N2)."""
    state["turn"] = None
    winner = bid_winner(state)
    state["bid_winner"] = winner
    state["step"] = "victory"
    events.append({"type": "bid_won", "seat": winner, "totals": {s: T.total(state, s) for s in state["seats"]}})
    queue: list[dict[str, Any]] = []
    if T.abilities_on(state):
        for s in T.clockwise_from(state, state["first_player"]):
            for c in state["piles"][s]:
                if data.card(c).steps("on_victory"):
                    queue.append({"t": "victory_card", "seat": s, "card": c})
    queue.append({"t": "claim", "source": "current"})
    queue.append({"t": "claim_extras"})
    extra = sum(int(s.get("count", 1)) for s in T.current_ops(state, "extra_power"))
    queue.extend({"t": "token", "seat": winner} for _ in range(1 + extra))  # B35
    for s in T.current_ops(state, "draw"):
        queue.append({"t": "draw_losers", "count": int(s.get("count", 1))})
    queue.append({"t": "cleanup"})
    state["queue"] = queue + state["queue"]


def bid_winner(state: State) -> str:
    """B30, B31: the highest total; ties to the tied leader nearest the first player (a tie at 0
    included); Walder Frey (tie_break farthest) reverses it."""
    order = T.clockwise_from(state, state["first_player"])
    totals = {s: T.total(state, s) for s in order}
    best = max(totals.values())
    tied = [s for s in order if totals[s] == best]
    if T.current_ops(state, "tie_break"):
        return tied[-1]
    return tied[0]


def task_cleanup(state: State, task: dict[str, Any], events: list[Event]) -> None:
    """B43, B44: bid piles to the discard pile (leader cards removed, B70); leaders stand up."""
    for s in T.clockwise_from(state, state["first_player"]):
        for c in state["piles"][s]:
            T.to_discard(state, c)
        state["piles"][s] = []
    T.return_tokens(state, state["ally_tokens"])
    state["ally_tokens"] = []
    state["knelt"] = []
    state["current_ally"] = None
    state["round_ally"] = None
    state["extra_allies"] = []
    end_round(state, events)


def end_round(state: State, events: list[Event]) -> None:
    """B45-B49: the first player passes clockwise; the round token moves; the season changes."""
    state["first_player"] = T.neighbours(state, state["first_player"])[0]
    if state["round"] < data.rounds_per_season(len(state["seats"])):
        state["round"] += 1
        begin_round(state, events)
        return
    if state["season"] == "winter":
        end_game(state, events)
        return
    old = state["season"]
    state["season"] = data.SEASONS[data.SEASONS.index(old) + 1]
    state["round"] = 1
    new_season(state, old, events)


def new_season(state: State, old: str | None, events: list[Event]) -> None:
    """B48: hands discarded, discard shuffled into the deck, events added (advanced, B72-B74),
    new hands dealt (10, or 9 + 1 leader card, B69), or drafted (B75-B77)."""
    opts = state["options"]
    if old is not None:
        for s in state["seats"]:
            for c in T.hand(state, s):
                T.to_discard(state, c)
            T.hand(state, s).clear()
        state["decks"]["influence"].extend(state["discard"])
        state["discard"] = []
        if opts["advanced"] and not opts["succession"]:
            add_events(state, data.events_added(len(state["seats"])).get(old, 0))
        T.shuffle_deck(state, "influence")
        events.append({"type": "season", "season": state["season"]})
    deal_hands(state, list(state["seats"]), events)


def add_events(state: State, count: int) -> None:
    """B72, B73: random events from the set-aside pile into the influence deck."""
    for _ in range(count):
        if not state["decks"]["events"]:
            break
        if T.pinned(state, "events") == 0:
            T.shuffle_deck(state, "events")
        state["decks"]["influence"].append(T.take_top(state, "events"))


def deal_hands(state: State, seats: list[str], events: list[Event]) -> None:
    """A deal gives one leader all its cards before the next, from the first player clockwise."""
    opts = state["options"]
    count = 9 if opts["advanced"] else 10
    order = [s for s in T.clockwise_from(state, state["first_player"]) if s in seats]
    if opts["draft"]:
        start_draft(state, order, count, events)
        return
    for s in order:
        T.draw_to_hand(state, s, count)
        if opts["advanced"] and not opts["succession"]:
            T.draw_leader_card(state, s)
    begin_season_rounds(state, events)


def begin_season_rounds(state: State, events: list[Event]) -> None:
    """B78: with Allies in Sight, players + 1 allies face up in a row at the start of a season."""
    if state["options"]["allies_in_sight"]:
        for _ in range(len(state["seats"]) + 1 - len(state["row"])):
            a = T.take_top(state, "allies")
            if a is None:
                break
            state["row"].append(a)
    begin_round(state, events)


# ------------------------------------------------------------------ draft (B75-B77)


def draft_direction(state: State) -> int:
    """B76, A13: left (clockwise) in a game's first season, then alternating."""
    first = data.start_season(len(state["seats"]), state["options"]["short"])
    return 1 if (data.SEASONS.index(state["season"]) - data.SEASONS.index(first)) % 2 == 0 else -1


def start_draft(state: State, order: list[str], count: int, events: list[Event]) -> None:
    state["step"] = "draft"
    for s in order:
        sec = T.secret(state, s)
        sec["packet"] = []
        for _ in range(count):
            c = T.draw_influence(state)
            if c is not None:
                sec["packet"].append(c)
        sec["kept"] = []
    state["draft"] = {"direction": draft_direction(state), "seats": order}
    ask_keep(state, events)


def ask_keep(state: State, events: list[Event]) -> None:
    """Every seat keeps one card of its packet at once; a packet of one card id (copies) is kept
    without asking."""
    seats = state["draft"]["seats"]
    asked: list[str] = []
    for s in seats:
        packet = T.secret(state, s)["packet"]
        if packet and len(set(packet)) == 1:  # identical cards: one choice, kept without asking
            T.secret(state, s)["kept"].append(packet.pop())
        elif packet:
            asked.append(s)
    if asked:
        state["decision"] = {"kind": "keep", "seats": asked}
        return
    if any(T.secret(state, s)["packet"] for s in seats):
        pass_packets(state, events)
        return
    finish_draft(state, events)


def keep(state: State, seat: str, card_id: Any, events: list[Event]) -> None:
    packet = T.secret(state, seat)["packet"]
    if not isinstance(card_id, str):
        raise EngineError("bad_action", gettext("keep takes a card id"))
    if card_id not in packet:
        raise EngineError("illegal_action", gettext("keep: %(card)s is not in your packet") % {"card": card_id})
    packet.remove(card_id)
    T.secret(state, seat)["kept"].append(card_id)
    state["decision"]["seats"].remove(seat)
    if not state["decision"]["seats"]:
        state["decision"] = None
        pass_packets(state, events)


def pass_packets(state: State, events: list[Event]) -> None:
    """B75: the rest of each packet goes to the next leader (left = clockwise, or right)."""
    seats = sorted(state["draft"]["seats"], key=state["seats"].index)  # the drafting seats, clockwise
    step = state["draft"]["direction"]
    packets = {s: T.secret(state, s)["packet"] for s in seats}
    for i, s in enumerate(seats):
        T.secret(state, seats[(i + step) % len(seats)])["packet"] = packets[s]
    events.append({"type": "draft_pass"})
    ask_keep(state, events)


def finish_draft(state: State, events: list[Event]) -> None:
    """The kept cards are the hand; advanced: then the leader card (A11)."""
    for s in state["draft"]["seats"]:
        sec = T.secret(state, s)
        sec["hand"].extend(sec["kept"])
        sec["kept"] = []
        sec["packet"] = []
        if state["options"]["advanced"] and not state["options"]["succession"]:
            T.draw_leader_card(state, s)
    state["draft"] = None
    begin_season_rounds(state, events)


# ------------------------------------------------------------------ after the bid


def task_victory_card(state: State, task: dict[str, Any], events: list[Event]) -> None:
    """N2: on-victory abilities, "you" = the leader the card is in front of now (B57)."""
    seat, card_id = task["seat"], task["card"]
    if card_id not in state["piles"][seat]:
        return
    steps = [s for s in data.card(card_id).steps("on_victory") if s.get("op") != "placement"]
    if steps:
        push_front(state, {"t": "steps", "seat": seat, "steps": steps, "ctx": {"card": card_id, "timing": "on_victory"}})


def task_claim_extras(state: State, task: dict[str, Any], events: list[Event]) -> None:
    """N2: extra allies after the current ally, in the order revealed."""
    if state["extra_allies"]:
        ally = state["extra_allies"].pop(0)
        push_front(state, {"t": "claim", "source": "extra", "ally": ally}, {"t": "claim_extras"})


def task_claim(state: State, task: dict[str, Any], events: list[Event]) -> None:
    """B33: the winner (or the claimer of an ability) places the ally in one of its councils."""
    seat = task.get("seat") or state["bid_winner"]
    tokens: list[int] = []
    if task["source"] == "current":
        ally = state["current_ally"]
        if ally is None:
            return  # killed, or the ally deck is empty (N9)
        tokens = list(state["ally_tokens"])
        state["ally_tokens"] = []
    else:
        ally = task["ally"]
    state["claiming"] = ally
    state["step"] = "claim"  # B17 step 3
    options = placement_options(state, seat, ally, task)
    pend = {"ally": ally, "seat": seat, "tokens": tokens, "source": task["source"]}
    if len(options) == 1:
        place_ally(state, pend, options[0], events)
        return
    state["placing"] = pend
    state["decision"] = {"kind": "claim", "seats": [seat], "ally": ally, "options": options}


def placement_options(state: State, seat: str, ally: str, task: dict[str, Any]) -> list[str]:
    """B61-B65 and the card set's priority: an ally's own `place` op; Ser Loras's council; The
    Pack Survives; Pulling the Strings (current ally only, B63); else either council."""
    own = T.councils_of(state, seat)
    place = [s for s in data.card(ally).steps("when_claimed") if s.get("op") == "place"]
    if place:
        return place_rule(state, seat, ally, str(place[0].get("rule")))
    if task.get("council"):
        return [task["council"]]
    on = T.abilities_on(state)
    if on and any(_placement_rule(c) == "fewer_allies" for p in state["piles"].values() for c in p):
        counts = {c: len(state["councils"][c]["allies"]) for c in own}
        low = min(counts.values())
        return [c for c in own if counts[c] == low]
    if on and task["source"] == "current":
        pulls = {n: sum(1 for c in state["piles"][n] if _placement_rule(c) == "pull") for n in T.neighbours(state, seat)}
        nxt, prev = T.neighbours(state, seat)
        if nxt != prev and pulls[nxt] != pulls[prev]:
            toward = nxt if pulls[nxt] > pulls[prev] else prev
            return [T.council_sharing(state, seat, toward)]
    return own


def _placement_rule(card_id: str) -> str | None:
    for s in data.card(card_id).steps("on_victory"):
        if s.get("op") == "placement":
            return str(s.get("rule"))
    return None


def place_rule(state: State, seat: str, ally: str, rule: str) -> list[str]:
    own = T.councils_of(state, seat)
    if rule == "fewest_allies":
        allc = T.all_councils(state)
        counts = {c: len(state["councils"][c]["allies"]) for c in allc}
        low = min(counts.values())
        return [c for c in allc if counts[c] == low]
    if rule == "highest_ally":
        best = {c: max([data.value(a) for a in state["councils"][c]["allies"]] or [-1]) for c in own}
        top = max(best.values())
        holders = [c for c in own if best[c] == top]
        return own if top < 0 or len(holders) == 2 else holders
    return own


def place_ally(state: State, pend: dict[str, Any], council: str, events: list[Event]) -> None:
    ally, seat = pend["ally"], pend["seat"]
    if pend["source"] == "current":
        state["current_ally"] = None  # null once claimed
    state["councils"][council]["allies"].append(ally)
    state["councils"][council]["tokens"].extend(pend["tokens"])
    state["claiming"] = None
    state["placing"] = None
    events.append({"type": "claim", "seat": seat, "ally": ally, "council": council})
    steps = [s for s in data.card(ally).steps("when_claimed") if s.get("op") != "place"]
    if steps:  # B34: the claimer must resolve it if possible
        push_front(state, {"t": "steps", "seat": seat, "steps": steps,
                           "ctx": {"ally": ally, "council": council, "timing": "when_claimed"}})


def claim(state: State, seat: str, council: Any, events: list[Event]) -> None:
    d = state["decision"]
    if not isinstance(council, str):
        raise EngineError("bad_action", gettext("claim takes a council name"))
    if council not in d["options"]:
        raise EngineError("illegal_action", gettext("claim: %(ally)s may go to %(options)s, not %(council)s") % {
            "ally": state["placing"]["ally"], "options": ", ".join(d["options"]), "council": council})
    state["decision"] = None
    place_ally(state, state["placing"], council, events)


def task_token(state: State, task: dict[str, Any], events: list[Event]) -> None:
    """B35, B39: a token taken without looking goes into one of the gainer's councils (always asked)."""
    if state["step"] == "victory" and task["seat"] == state["bid_winner"] and not task.get("ability"):
        state["step"] = "claim"
    value = T.take_token(state)
    if value is None:
        return
    state["limbo_token"] = value
    seat = task["seat"]
    state["decision"] = {"kind": "token", "seats": [seat], "options": T.councils_of(state, seat)}


def token(state: State, seat: str, council: Any, events: list[Event]) -> None:
    d = state["decision"]
    if not isinstance(council, str):
        raise EngineError("bad_action", gettext("token takes a council name"))
    if council not in d["options"]:
        raise EngineError("illegal_action", gettext("token: %(council)s is not one of your councils (%(options)s)") % {
            "council": council, "options": ", ".join(d["options"])})
    state["councils"][council]["tokens"].append(state["limbo_token"])
    state["limbo_token"] = None
    state["decision"] = None
    events.append({"type": "token", "seat": seat, "council": council})


def task_draw_losers(state: State, task: dict[str, Any], events: list[Event]) -> None:
    effects.draw_losers(state, int(task["count"]), events)


def task_next_turn(state: State, task: dict[str, Any], events: list[Event]) -> None:
    next_turn(state, task["after"], events)


# ------------------------------------------------------------------ scoring (B50-B56)


def council_power(state: State, name: str) -> int:
    """B51: allies' power + tokens + end-of-game bonuses of the allies in it."""
    c = state["councils"][name]
    power = sum(data.value(a) for a in c["allies"]) + sum(c["tokens"])
    for a in c["allies"]:
        for s in data.card(a).steps("end_game"):
            power += score_bonus(c, a, s)
    return power


def score_bonus(council: dict[str, Any], ally: str, step: dict[str, Any]) -> int:
    amount = int(step.get("amount", 0))
    if "if_allies_at_most" in step:
        return amount if len(council["allies"]) <= int(step["if_allies_at_most"]) else 0
    if step.get("per") == "ally":
        others = [a for a in council["allies"] if a != ally and data.card(a).house == step.get("house")]
        return amount * len(others)
    if step.get("per") == "token":
        bonus = amount * len(council["tokens"])
        return min(bonus, int(step["max"])) if "max" in step else bonus
    return 0


def scores(state: State) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for s in state["seats"]:
        a, b = (council_power(state, c) for c in T.councils_of(state, s))
        allies = sum(len(state["councils"][c]["allies"]) for c in T.councils_of(state, s))
        out[s] = {"lesser": min(a, b), "other": max(a, b), "allies": allies}
    return out


def end_game(state: State, events: list[Event]) -> None:
    """B49-B56: tokens revealed; the lesser council decides, then the other, then allies; else shared."""
    sc = scores(state)

    def key(s: str) -> tuple[int, int, int]:
        return (sc[s]["lesser"], sc[s]["other"], sc[s]["allies"])

    ranking = sorted(state["seats"], key=lambda s: (-key(s)[0], -key(s)[1], -key(s)[2], state["seats"].index(s)))
    state["score"] = sc
    state["ranking"] = ranking
    state["winners"] = [s for s in ranking if key(s) == key(ranking[0])]
    state["step"] = "game_over"
    state["decision"] = None
    state["queue"] = []
    events.append({"type": "game_over", "winners": state["winners"], "score": sc})


TASKS = {
    "cleanup": task_cleanup,
    "victory_card": task_victory_card,
    "claim": task_claim,
    "claim_extras": task_claim_extras,
    "token": task_token,
    "draw_losers": task_draw_losers,
    "next_turn": task_next_turn,
    "steps": lambda st, t, ev: effects.task_steps(st, t, ev),
    "enter": lambda st, t, ev: effects.task_enter(st, t, ev),
}
