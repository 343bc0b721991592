"""The framework: the setup steps and the seven phases of Appendix I (L5-L15, L56-L84), their
action windows, the challenge sub-flow (L169-L188) and the end of the game (L229-L233).

`state["next"]` names the framework step to run next; `run` plays steps until a seat must decide
(`state["decision"]`) or the game is over. An action window is `state["window"]`: it asks the seats
in player order, the first player first (L90), and closes after every seat has passed in a row.
With the option `every_window` off (scenarios, SCENARIOS.md decision 5) a seat with no legal option
passes by itself; with it on (live games) a seat is asked when some card it might hold, or a card it
controls, could be used there, judged from public information only (abilities.asked, prompts.py), so
whether a seat is asked never shows what it holds (rules/lcg.md §5.2).
"""
from __future__ import annotations

from typing import Any

from games.engine import rng
from games.engine.base import EngineError
from games.engine.lcg import abilities as A
from games.engine.lcg import melee
from games.engine.lcg import table as T

State = dict[str, Any]
Event = dict[str, Any]

CHALLENGE_TYPES = ("military", "intrigue", "power")
RESOLUTION_KEYWORDS = ("insight", "intimidate", "pillage", "renown")  # canonical order (timeout default)
CHALLENGE_WINDOWS = ("before_challenge", "after_attackers", "after_defenders")
SETUP_LIMIT = 8  # L12: total printed cost of setup cards


# ------------------------------------------------------------------ the loop


def run(state: State, events: list[Event]) -> None:
    guard = 0
    while not state["over"] and state["decision"] is None:
        guard += 1
        if guard > 10000:
            raise RuntimeError("the framework does not stop")
        if check_end(state, events):
            return
        if A.busy(state):
            A.step(state, events)
            continue
        if state["window"] is not None:
            _window_step(state, events)
            continue
        step = state["next"]
        STEPS[step](state, events)
    check_end(state, events)


def goto(state: State, step: str) -> None:
    state["next"] = step


def ask(state: State, kind: str, seats: list[str], **extra: Any) -> None:
    state["decision"] = {"kind": kind, "seats": list(seats), **extra}


def set_step(state: State, phase: str, step: str, events: list[Event]) -> None:
    if phase != state["phase"]:
        events.append({"type": "phase", "phase": phase, "round": state["round"]})
    state["phase"] = phase
    state["step"] = step


# ------------------------------------------------------------------ windows


def open_window(state: State, name: str, then: str) -> None:
    state["window"] = {"name": name, "then": then, "turn": state["first_player"], "passes": 0}


def window_options(state: State, seat: str) -> bool:
    """Whether the seat has a legal action in the open window (marshal, ambush, an action
    ability or event)."""
    from games.engine.lcg import actions

    return bool(actions.window_actions(state, seat, first_only=True))


def _window_step(state: State, events: list[Event]) -> None:
    w = state["window"]
    seat = w["turn"]
    if A.asked(state, seat, "action", None):
        ask(state, "action", [seat])
        return
    window_pass(state, seat)


def window_pass(state: State, seat: str) -> None:
    w = state["window"]
    w["passes"] += 1
    if w["passes"] >= len(T.alive(state)):
        state["window"] = None
        goto(state, w["then"])
    else:
        w["turn"] = T.next_seat(state, seat)


def window_acted(state: State, seat: str) -> None:
    """A seat took an action: the others get their opportunity again (L90)."""
    w = state["window"]
    w["passes"] = 0
    w["turn"] = T.next_seat(state, seat)


# ------------------------------------------------------------------ end of the game


def check_end(state: State, events: list[Event]) -> bool:
    """L229-L233: 15 power wins at once; a seat whose draw deck is empty is eliminated."""
    if state["over"]:
        return True
    if state["decision"] and state["decision"]["kind"] == "winner":
        return True
    eliminated, players, inplay = state["eliminated"], state["players"], state["inplay"]
    alive = [s for s in state["seats"] if s not in eliminated]
    decked = [s for s in alive if not players[s]["deck"]]
    winners = []
    for s in alive:  # T.power_total, inlined (asked at every step of the loop)
        if s in decked:
            continue
        p = players[s]
        total = p["faction_power"]
        for u in p["play"]:
            total += inplay[u]["power"]
        if total >= 15:
            winners.append(s)
    if winners:
        if len(winners) == 1:
            finish(state, winners[0], "power", events)
        else:
            _ask_winner(state, winners, "power")
        return True
    if decked:
        rest = [s for s in alive if s not in decked]
        if len(rest) >= 2 and melee.is_melee(state):  # L231: the game goes on for the others
            if not melee.safe_to_eliminate(state):
                return False
            for s in decked:
                melee.eliminate(state, s, "decked", events)
            return False
        if len(rest) == 1:
            for s in decked:
                state["eliminated"].append(s)
                events.append({"type": "eliminated", "seat": s, "reason": "decked"})
            finish(state, rest[0], "decked", events)
        else:
            _ask_winner(state, decked, "decked")
        return True
    return False


def _ask_winner(state: State, seats: list[str], reason: str) -> None:
    """L230, L233: the first player decides."""
    ask(state, "winner", [state["first_player"]], options=list(seats), reason=reason)


def finish(state: State, winner: str, reason: str, events: list[Event]) -> None:
    state["winner"] = winner
    for s in state["seats"]:
        if s != winner and s not in state["eliminated"]:
            state["eliminated"].append(s)
    state["over"] = True
    state["decision"] = None
    state["window"] = None
    events.append({"type": "game_over", "winner": winner, "reason": reason})


# ------------------------------------------------------------------ setup (L11-L15)


def setup_mulligan(state: State, events: list[Event]) -> None:
    set_step(state, "setup", "mulligan", events)
    for s in T.player_order(state):
        if state["players"][s]["mulligan"] is None:
            ask(state, "mulligan", [s])
            return
    goto(state, "setup_choose")


def mulligan(state: State, seat: str, take: bool, events: list[Event]) -> None:
    """L11: shuffle the 7 back and draw 7 new ones, which must be kept."""
    p = state["players"][seat]
    p["mulligan"] = take
    events.append({"type": "mulligan", "seat": seat, "mulligan": take})
    if take:
        p["deck"].extend(p["hand"])
        p["hand"] = []
        rng.shuffle(state, p["deck"], p["pinned"])
        T.draw(state, seat, 7, events)
    goto(state, "setup_mulligan")


def setup_choose(state: State, events: list[Event]) -> None:
    """L12: both seats choose their setup cards at once, face down (rules/lcg.md §5.1)."""
    from games.engine.lcg import actions

    set_step(state, "setup", "setup", events)
    seats = []
    for s in T.player_order(state):
        p = state["players"][s]
        if p["setup_cards"] is None:
            # with every_window on, asked even without a choice: the hand stays secret (§5.2)
            if state["options"]["every_window"] or actions.setup_has_choice(state, s):
                seats.append(s)
            else:
                p["setup_cards"] = []
    if seats:
        ask(state, "setup", seats)
        return
    goto(state, "setup_reveal")


def setup_reveal(state: State, events: list[Event]) -> None:
    """L13, L14: revealed together; attachments and duplicates then placed in player order. Setup
    cards are not marshaled and do not enter play (no Limited count for the round)."""
    placed: dict[str, list[str]] = {}
    for s in T.player_order(state):
        p = state["players"][s]
        entries = p["setup_cards"] or []
        names: list[str] = []
        by_index: dict[int, str] = {}
        for i, e in enumerate(entries):
            if e["host"] is None and not e["duplicate"]:
                p["hand"].remove(e["uid"])
                T.enter_play(state, s, e["uid"])
                by_index[i] = e["uid"]
                names.append(T.cid(state, e["uid"]))
        for e in entries:
            if e["duplicate"]:
                p["hand"].remove(e["uid"])
                original = next(u for u in p["play"] if T.cid(state, u) == T.cid(state, e["uid"]))
                T.add_duplicate(state, original, e["uid"])
                names.append(T.cid(state, e["uid"]))
            elif e["host"] is not None:
                p["hand"].remove(e["uid"])
                T.enter_play(state, s, e["uid"], host=by_index[e["host"]])
                names.append(T.cid(state, e["uid"]))
        placed[s] = names
        p["setup_cards"] = []
    events.append({"type": "setup_revealed", "cards": placed})
    state["setup_done"] = True
    goto(state, "setup_draw")


def setup_draw(state: State, events: list[Event]) -> None:
    """L15: draw back up to 7."""
    for s in T.player_order(state):
        p = state["players"][s]
        if len(p["hand"]) < 7:
            T.draw(state, s, 7 - len(p["hand"]), events)
    goto(state, "plot_begin")


# ------------------------------------------------------------------ 1 plot


def plot_begin(state: State, events: list[Event]) -> None:
    events.append({"type": "round", "round": state["round"]})  # before the plot phase's own event (the log)
    set_step(state, "plot", "1.1", events)
    state["active"] = None
    goto(state, "plot_choose")


def plot_choose(state: State, events: list[Event]) -> None:
    """L57: each seat chooses a plot in secret; a seat with one plot left takes it by itself."""
    set_step(state, "plot", "1.2", events)
    seats = []
    for s in T.player_order(state):
        p = state["players"][s]
        if not p["plots"] and p["used_plots"]:
            p["plots"], p["used_plots"] = p["used_plots"], []  # L61 (a setup may leave it empty)
        if p["chosen_plot"] is not None:
            continue
        distinct = {T.cid(state, u) for u in p["plots"]}
        if len(distinct) >= 2:
            seats.append(s)
        elif p["plots"]:
            p["chosen_plot"] = p["plots"].pop(0)
            events.append({"type": "plot_chosen", "seat": s})
    if seats:
        ask(state, "plot", seats)
        return
    goto(state, "plot_reveal")


def choose_plot(state: State, seat: str, uid: str, events: list[Event]) -> None:
    state["players"][seat]["plots"].remove(uid)
    state["players"][seat]["chosen_plot"] = uid
    events.append({"type": "plot_chosen", "seat": seat})
    d = state["decision"]
    d["seats"].remove(seat)
    if not d["seats"]:
        state["decision"] = None
        goto(state, "plot_reveal")


def plot_reveal(state: State, events: list[Event]) -> None:
    """L58, L40, L150-L152: reveal together, compare initiative, the winner picks the first player."""
    set_step(state, "plot", "1.3", events)
    revealed = {}
    for s in state["seats"]:
        p = state["players"][s]
        u = p["chosen_plot"]
        if u is None:
            continue  # no plot left to reveal (a setup without plots): the revealed one stays
        if p["plot"] is not None:
            p["used_plots"].insert(0, p["plot"])
        p["plot"] = u
        p["chosen_plot"] = None
        revealed[s] = T.cid(state, u)
    A.plot_revealed(state, list(revealed))
    events.append({"type": "plots_revealed", "plots": revealed})
    values = {s: T.plot_value(state, s, "initiative") or 0 for s in T.alive(state)}
    best = max(values.values())
    tied = [s for s in values if values[s] == best]
    if len(tied) > 1:
        low = min(T.power_total(state, s) for s in tied)
        tied = [s for s in tied if T.power_total(state, s) == low]
    winner = tied[0] if len(tied) == 1 else tied[rng.randbelow(state, len(tied))]
    state["initiative_winner"] = winner
    events.append({"type": "initiative", "winner": winner, "initiative": values})
    ask(state, "first_player", [winner])


def choose_first_player(state: State, seat: str, chosen: str, events: list[Event]) -> None:
    state["first_player"] = chosen
    events.append({"type": "first_player", "seat": chosen, "by": seat})
    state["decision"] = None
    goto(state, "plot_after_reveal")


def plot_after_reveal(state: State, events: list[Event]) -> None:
    """L58 III (when-revealed abilities, first player's first), L61 (an empty plot deck takes the
    used pile back), then the action window (L63)."""
    A.when_revealed(state, events)
    for s in state["seats"]:
        p = state["players"][s]
        if not p["plots"] and p["used_plots"]:
            p["plots"], p["used_plots"] = p["used_plots"], []
            events.append({"type": "plots_recycled", "seat": s})
    if melee.is_melee(state):  # L62: 1.4, the titles; then the window
        goto(state, "melee_titles")
        return
    open_window(state, "plot", "plot_end")


def plot_end(state: State, events: list[Event]) -> None:
    set_step(state, "plot", "1.5", events)
    A.phase_ended(state, "plot", events)
    goto(state, "draw_begin")


# ------------------------------------------------------------------ 2 draw


def draw_begin(state: State, events: list[Event]) -> None:
    set_step(state, "draw", "2.1", events)
    goto(state, "draw_cards")


def draw_cards(state: State, events: list[Event]) -> None:
    """L64: every seat draws 2 at once; a seat left without a draw deck is eliminated (L231)."""
    set_step(state, "draw", "2.2", events)
    for s in T.player_order(state):
        T.draw(state, s, 2 + melee.extra_draw(state, s), events)
    open_window(state, "draw", "draw_end")


def draw_end(state: State, events: list[Event]) -> None:
    set_step(state, "draw", "2.3", events)
    A.phase_ended(state, "draw", events)
    goto(state, "marshal_begin")


# ------------------------------------------------------------------ 3 marshaling


def marshal_begin(state: State, events: list[Event]) -> None:
    set_step(state, "marshaling", "3.1", events)
    state["marshaled"] = []
    goto(state, "marshal_active")


def marshal_active(state: State, events: list[Event]) -> None:
    """L66-L68, L70: the next seat becomes active and collects its income, then the special
    marshaling window."""
    set_step(state, "marshaling", "3.2", events)
    order = T.player_order(state)
    seat = next(s for s in order if s not in state["marshaled"])
    state["marshaled"].append(seat)
    state["active"] = seat
    income = T.plot_value(state, seat, "income") or 0
    state["players"][seat]["gold"] += income
    events.append({"type": "income", "seat": seat, "gold": income})
    open_window(state, "marshaling", "marshal_next")


def marshal_next(state: State, events: list[Event]) -> None:
    """L69: 3.3."""
    set_step(state, "marshaling", "3.3", events)
    if any(s not in state["marshaled"] for s in T.player_order(state)):
        goto(state, "marshal_active")
    else:
        goto(state, "marshal_end")


def marshal_end(state: State, events: list[Event]) -> None:
    set_step(state, "marshaling", "3.4", events)
    state["active"] = None
    state["marshaled"] = []
    A.phase_ended(state, "marshaling", events)
    goto(state, "challenges_begin")


# ------------------------------------------------------------------ 4 challenges


def challenges_begin(state: State, events: list[Event]) -> None:
    """L71: 4.1; the first player is active first."""
    set_step(state, "challenges", "4.1", events)
    state["marshaled"] = [state["first_player"]]
    state["active"] = state["first_player"]
    A.phase_began(state, "challenges", events)
    open_window(state, "before_challenge", "challenge_offer")


def can_challenge(state: State, seat: str) -> list[str]:
    """L72, L169: the types the seat may still initiate with a standing character with the icon."""
    out = []
    for ctype in CHALLENGE_TYPES:
        if melee.allowance(state, seat, ctype):
            continue
        if any(not state["inplay"][u]["kneeling"] and T.has_icon(state, u, ctype)
               for u in T.in_play(state, seat, "character")):
            out.append(ctype)
    return out


def challenge_offer(state: State, events: list[Event]) -> None:
    """4.2: the active seat may initiate a challenge; one that cannot goes to 4.3 (L73)."""
    set_step(state, "challenges", "4.2", events)
    if state["active"] not in state["eliminated"] and can_challenge(state, state["active"]):
        ask(state, "challenge", [state["active"]])
        return
    goto(state, "challenge_next_player")


def challenge_next_player(state: State, events: list[Event]) -> None:
    """L76: 4.3."""
    set_step(state, "challenges", "4.3", events)
    order = T.player_order(state)
    rest = [s for s in order if s not in state["marshaled"]]
    if rest:
        state["marshaled"].append(rest[0])
        state["active"] = rest[0]
        open_window(state, "before_challenge", "challenge_offer")
    else:
        goto(state, "challenges_end")


def challenges_end(state: State, events: list[Event]) -> None:
    set_step(state, "challenges", "4.4", events)
    state["active"] = None
    state["marshaled"] = []
    for s in state["seats"]:
        state["players"][s]["challenges"] = []
        state["players"][s]["won"] = []
    melee.phase_over(state)
    A.phase_ended(state, "challenges", events)
    goto(state, "dominance_begin")


def initiate_challenge(state: State, seat: str, ctype: str, attackers: list[str], stealth: dict[str, str],
                       defender: str, events: list[Event]) -> None:
    """L169: type, opponent, attackers knelt at once, stealth targets; then the window (L74)."""
    for u in attackers:
        rec = state["inplay"][u]
        if not A.no_kneel(state, u, "attacking", ctype):
            rec["kneeling"] = True
        rec["participating"] = "attacking"
    state["players"][seat]["challenges"].append(ctype)
    melee.record_challenge(state, seat, ctype, defender)
    state["challenge"] = {
        "type": ctype, "attacker": seat, "defender": defender, "attackers": list(attackers), "defenders": [],
        "stealth": dict(stealth), "strength": {}, "winner": None, "loser": None, "unopposed": False,
        "claim": None, "live": True, "margin": 0, "keywords": [],
        # the public record of who took part (a card may later go to a hidden zone; the summary
        # names it as it was declared)
        "names": {u: T.cid(state, u) for u in [*attackers, *stealth.values()]},
    }
    events.append({"type": "challenge", "seat": seat, "challenge": ctype, "defender": defender,
                   "attackers": [T.cid(state, u) for u in attackers],
                   "stealth": {T.cid(state, a): T.cid(state, b) for a, b in stealth.items()}})
    state["decision"] = None
    open_window(state, "after_attackers", "challenge_defenders")
    ev = {"t": "challenge_initiated", "type": ctype, "attacker": seat, "defender": defender}
    if not melee.offer_redirect(state, ev):  # L208: Crown Regent, before reactions to the initiation
        A.emit(state, ev, events)


def eligible_defenders(state: State) -> list[str]:
    """L172: standing, with the icon, not bypassed by stealth."""
    ch = state["challenge"]
    bypassed = set(ch["stealth"].values())
    return [u for u in T.in_play(state, ch["defender"], "character")
            if not state["inplay"][u]["kneeling"] and T.has_icon(state, u, ch["type"]) and u not in bypassed]


def challenge_defenders(state: State, events: list[Event]) -> None:
    set_step(state, "challenges", "4.2.1", events)
    ch = state["challenge"]
    if eligible_defenders(state):
        ask(state, "defenders", [ch["defender"]])
        return
    declare_defenders(state, ch["defender"], [], events)


def declare_defenders(state: State, seat: str, defenders: list[str], events: list[Event]) -> None:
    ch = state["challenge"]
    for u in defenders:
        rec = state["inplay"][u]
        if not A.no_kneel(state, u, "defending", ch["type"]):
            rec["kneeling"] = True
        rec["participating"] = "defending"
    # a character that joined as a defender before 4.2.1 (Ours Is the Fury) stays in the record
    ch["defenders"] = [u for u in ch["defenders"] if u not in defenders
                       and state["inplay"].get(u, {}).get("participating") == "defending"] + list(defenders)
    ch.setdefault("names", {}).update({u: T.cid(state, u) for u in defenders})
    events.append({"type": "defenders", "seat": seat, "defenders": [T.cid(state, u) for u in defenders]})
    state["decision"] = None
    open_window(state, "after_defenders", "challenge_strength")


def _side(state: State, seat: str, role: str) -> list[str]:
    return [u for u in T.in_play(state, seat, "character") if state["inplay"][u]["participating"] == role]


def challenge_strength(state: State, events: list[Event]) -> None:
    """L176-L180: totals, the winner (ties to an attacker with a character), unopposed."""
    set_step(state, "challenges", "4.2.2", events)
    ch = state["challenge"]
    att, dfn = ch["attacker"], ch["defender"]
    a_side, d_side = _side(state, att, "attacking"), _side(state, dfn, "defending")
    a_total = sum(T.strength(state, u) for u in a_side if A.contributes(state, u))
    d_total = sum(T.strength(state, u) for u in d_side if A.contributes(state, u))
    a_total += melee.str_bonus(state, att, ch["type"], a_side)  # L205: the titles' STR bonuses
    d_total += melee.str_bonus(state, dfn, ch["type"], d_side)
    ch["strength"] = {att: a_total, dfn: d_total}
    winner = None
    if a_side and a_total >= 1 and a_total >= d_total:
        winner = att
    elif d_side and d_total >= 1 and d_total > a_total:
        winner = dfn
    if winner is not None:
        ch["winner"] = winner
        ch["loser"] = dfn if winner == att else att
        ch["margin"] = abs(a_total - d_total)
        ch["unopposed"] = winner == att and d_total == 0
        state["players"][winner]["won"].append(ch["type"])
    events.append({"type": "challenge_result", "challenge": ch["type"], "strength": dict(ch["strength"]),
                   "winner": winner, "unopposed": ch["unopposed"]})
    goto(state, "challenge_bonus")
    if winner is not None:  # L181: reactions to winning fire after 4.2.2
        A.emit(state, {"t": "challenge_won", "type": ch["type"], "winner": winner, "loser": ch["loser"],
                       "margin": ch["margin"], "unopposed": ch["unopposed"]}, events)


def challenge_bonus(state: State, events: list[Event]) -> None:
    """L182: the unopposed bonus, +1 power for the attacker's faction."""
    set_step(state, "challenges", "4.2.3", events)
    ch = state["challenge"]
    if ch["unopposed"]:
        state["players"][ch["attacker"]]["faction_power"] += 1
        events.append({"type": "power", "seat": ch["attacker"], "card": "faction", "amount": 1,
                       "reason": "unopposed"})
    melee.rivals_bonus(state, events)  # L182, L207
    goto(state, "challenge_claim")


def challenge_claim(state: State, events: list[Event]) -> None:
    """L183-L186: claim only when the attacker won."""
    set_step(state, "challenges", "4.2.4", events)
    ch = state["challenge"]
    goto(state, "challenge_keywords")
    if ch["winner"] is None or ch["winner"] != ch["attacker"]:
        return
    att, dfn = ch["attacker"], ch["defender"]
    claim = (T.plot_value(state, att, "claim") or 0) + melee.claim_bonus(state)  # Master of Ships
    ch["claim"] = claim
    events.append({"type": "claim", "seat": att, "challenge": ch["type"], "claim": claim})
    if claim <= 0:
        return
    p = state["players"][dfn]
    if ch["type"] == "military":
        chars = T.in_play(state, dfn, "character")
        if len(chars) > claim:
            ask(state, "kill", [dfn], count=claim)
            return
        if chars:
            A.request_leave(state, chars, "dead", "claim", events)
    elif ch["type"] == "intrigue":
        if melee.is_melee(state) and melee.whispers_ask(state, claim):  # Master of Whispers
            return
        intrigue_claim(state, dfn, claim, events)
    else:
        n = min(claim, p["faction_power"])
        p["faction_power"] -= n
        state["players"][att]["faction_power"] += n
        events.append({"type": "power_moved", "from": dfn, "to": att, "amount": n})


def intrigue_claim(state: State, dfn: str, claim: int, events: list[Event]) -> None:
    """L185: that many cards discarded from the hand at random."""
    p = state["players"][dfn]
    n = min(claim, len(p["hand"]))
    for _ in range(n):
        u = p["hand"].pop(rng.randbelow(state, len(p["hand"])))
        p["discard"].insert(0, u)
        events.append({"type": "discard", "seat": dfn, "card": T.cid(state, u), "reason": "claim"})


def claim_kill(state: State, seat: str, uids: list[str], events: list[Event]) -> None:
    state["decision"] = None
    A.request_leave(state, uids, "dead", "claim", events)


def keyword_options(state: State, kw: str) -> list[str]:
    """The winner's characters that could use a challenge-resolution keyword now (L194-L198);
    for intimidate, the losing seat's characters it could kneel (L195)."""
    ch = state["challenge"]
    w, loser = ch["winner"], ch["loser"]
    if w is None:
        return []
    users = [u for u in T.in_play(state, w, "character")
             if state["inplay"][u]["participating"] and T.has_keyword(state, u, kw)]
    if not users:
        return []
    if kw == "pillage" and not state["players"][loser]["deck"]:
        return []
    if kw == "intimidate":
        if w != ch["attacker"]:
            return []
        return [u for u in T.in_play(state, loser, "character")
                if not state["inplay"][u]["kneeling"] and T.strength(state, u) <= ch["margin"]]
    return users


def challenge_keywords(state: State, events: list[Event]) -> None:
    """L187: the first player orders the keyword types; each type resolves at once."""
    set_step(state, "challenges", "4.2.5", events)
    ch = state["challenge"]
    if not ch.get("keywords_ordered"):
        ch["keywords_ordered"] = True
        types = [k for k in RESOLUTION_KEYWORDS if keyword_options(state, k)]
        ch["keywords"] = types
        if len(types) >= 2:
            ask(state, "order", [state["first_player"]], options=list(types))
            return
    while ch["keywords"]:
        kw = ch["keywords"][0]
        if keyword_options(state, kw):
            ask(state, kw, [ch["winner"]])
            return
        ch["keywords"].pop(0)
    goto(state, "challenge_end")


def resolve_keyword(state: State, seat: str, kw: str, uids: list[str], events: list[Event]) -> None:
    ch = state["challenge"]
    ch["keywords"].pop(0)
    state["decision"] = None
    if kw == "renown":
        for u in uids:
            state["inplay"][u]["power"] += 1
            events.append({"type": "power", "seat": seat, "card": T.cid(state, u), "amount": 1, "reason": "renown"})
    elif kw == "insight":
        T.draw(state, seat, len(uids), events)
    elif kw == "pillage":
        p = state["players"][ch["loser"]]
        for by in uids:
            if p["deck"]:
                u = p["deck"].pop(0)
                p["pinned"] = max(0, p["pinned"] - 1)
                p["discard"].insert(0, u)
                events.append({"type": "discard", "seat": ch["loser"], "card": T.cid(state, u), "reason": "pillage"})
                A.emit(state, {"t": "pillaged", "uid": by, "card": u, "loser": ch["loser"]}, events)
    elif kw == "intimidate":
        for u in uids:
            state["inplay"][u]["kneeling"] = True
            events.append({"type": "kneel", "seat": ch["loser"], "card": T.cid(state, u), "reason": "intimidate"})


def challenge_end(state: State, events: list[Event]) -> None:
    """L188: everyone stops participating; back to the window before 4.2."""
    set_step(state, "challenges", "4.2.6", events)
    for rec in state["inplay"].values():
        rec["participating"] = None
    state["challenge"]["live"] = False
    A.expire(state, "challenge")
    open_window(state, "before_challenge", "challenge_offer")


# ------------------------------------------------------------------ 5 dominance, 6 standing


def dominance_begin(state: State, events: list[Event]) -> None:
    set_step(state, "dominance", "5.1", events)
    goto(state, "dominance_count")


def dominance_count(state: State, events: list[Event]) -> None:
    """L77, L79: standing STR plus gold, plus what a constant ability adds to a player's total
    (`rule: dominance_str`, The Iron Throne); a tie for the highest gives nobody power."""
    set_step(state, "dominance", "5.2", events)
    bonus = dict.fromkeys(T.alive(state), 0)
    for _src, s, a in A.constants(state):
        if a.get("rule") == "dominance_str" and s in bonus:
            bonus[s] += a["amount"]
    melee.dominance_bonus(state, bonus)  # Crown Regent (L205)
    totals = {}
    for s in bonus:
        totals[s] = bonus[s] + state["players"][s]["gold"] + sum(
            T.strength(state, u) for u in T.in_play(state, s, "character") if not state["inplay"][u]["kneeling"])
    best = max(totals.values())
    top = [s for s in totals if totals[s] == best]
    winner = top[0] if len(top) == 1 else None
    state["dominance"] = {"total": totals, "winner": winner}
    if winner is not None:
        state["players"][winner]["faction_power"] += 1
    events.append({"type": "dominance", "total": dict(totals), "winner": winner})
    open_window(state, "dominance", "dominance_end")
    if winner is not None:
        A.emit(state, {"t": "dominance_won", "winner": winner}, events)


def dominance_end(state: State, events: list[Event]) -> None:
    set_step(state, "dominance", "5.3", events)
    A.phase_ended(state, "dominance", events)
    goto(state, "standing_begin")


def standing_begin(state: State, events: list[Event]) -> None:
    set_step(state, "standing", "6.1", events)
    goto(state, "standing_stand")


def standing_stand(state: State, events: list[Event]) -> None:
    """L80: every kneeling card stands at once (faction cards too)."""
    set_step(state, "standing", "6.2", events)
    stood = [u for u, rec in state["inplay"].items() if rec["kneeling"]]
    for rec in state["inplay"].values():
        rec["kneeling"] = False
    for s in state["seats"]:
        state["players"][s]["faction_kneeling"] = False
    events.append({"type": "stand"})
    open_window(state, "standing", "standing_end")
    if stood:
        A.emit(state, {"t": "stood", "uids": stood}, events)


def standing_end(state: State, events: list[Event]) -> None:
    set_step(state, "standing", "6.3", events)
    A.phase_ended(state, "standing", events)
    goto(state, "taxation_begin")


# ------------------------------------------------------------------ 7 taxation


def taxation_begin(state: State, events: list[Event]) -> None:
    set_step(state, "taxation", "7.1", events)
    goto(state, "taxation_return")


def taxation_return(state: State, events: list[Event]) -> None:
    """L81: unspent gold goes back to the treasury."""
    set_step(state, "taxation", "7.2", events)
    for s in state["seats"]:
        state["players"][s]["gold"] = 0
    state["reserve_checked"] = []
    goto(state, "taxation_reserve")


def taxation_reserve(state: State, events: list[Event]) -> None:
    """L82: in player order, a hand above reserve is cut down to it (chosen by its owner)."""
    set_step(state, "taxation", "7.3", events)
    for s in T.player_order(state):
        if s in state["reserve_checked"]:
            continue
        state["reserve_checked"].append(s)
        p = state["players"][s]
        excess = len(p["hand"]) - (T.plot_value(state, s, "reserve") or 0)
        if excess <= 0:
            continue
        if len({T.cid(state, u) for u in p["hand"]}) == 1 and not state["options"]["every_window"]:
            discard_from_hand(state, s, p["hand"][:excess], "reserve", events)
            continue
        ask(state, "discard", [s], count=excess)
        return
    state["reserve_checked"] = []
    melee.return_titles(state, events)  # L83: 7.4 (melee only)
    open_window(state, "taxation", "taxation_end")


def discard_from_hand(state: State, seat: str, uids: list[str], reason: str, events: list[Event]) -> None:
    p = state["players"][seat]
    for u in uids:
        p["hand"].remove(u)
        p["discard"].insert(0, u)
    events.append({"type": "discard", "seat": seat, "cards": [T.cid(state, u) for u in uids], "reason": reason})


def taxation_end(state: State, events: list[Event]) -> None:
    """L84: 7.5, the round ends."""
    set_step(state, "taxation", "7.5", events)
    A.phase_ended(state, "taxation", events)
    A.expire(state, "round")
    for s in state["seats"]:
        state["players"][s]["limited"] = 0
    state["round"] += 1
    goto(state, "plot_begin")


STEPS = {f.__name__: f for f in (
    setup_mulligan, setup_choose, setup_reveal, setup_draw, plot_begin, plot_choose, plot_reveal,
    plot_after_reveal, plot_end, draw_begin, draw_cards, draw_end, marshal_begin, marshal_active, marshal_next,
    marshal_end, challenges_begin, challenge_offer, challenge_next_player, challenges_end, challenge_defenders,
    challenge_strength, challenge_bonus, challenge_claim, challenge_keywords, challenge_end, dominance_begin,
    dominance_count, dominance_end, standing_begin, standing_stand, standing_end, taxation_begin,
    taxation_return, taxation_reserve, taxation_end,
)}
STEPS["melee_titles"] = melee.titles_select


def refuse(reason: str) -> None:
    raise EngineError("illegal_action", reason)
