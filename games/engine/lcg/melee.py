"""Melee: three to six players with the Core Set's six titles (rules/lcg.md L3-L4, L45, L62, L83,
§2.9 L203-L210; issue 31). The joust never reaches this module's effects: every hook returns at
once when the game has two seats.

State: `state["melee"]` (only in a game of three seats or more):
- `titles` {seat: title id}: the titles held this round, revealed together at the end of step 1.4
  (L203) and returned to the pool at step 7.4 (L83, L209);
- `selecting`, `offer`, `removed`, `picked`: title selection in progress (L203): the titles still
  face down on offer, those removed at random, and each seat's secret pick. Hidden: a seat's view
  shows only its own pick and, while it chooses, what is offered to it (summary.view, `public`);
- `regent_used`: Crown Regent's redirect used this round (L208);
- `rivals` {seat: [opponents]}: the rivals bonuses gained this round (L207, one per rival opponent);
- `against` {seat: [[type, opponent]]}: the challenges initiated this phase, against the opponent
  they were initiated against (a redirect does not change it, L208);
- `redirect`: a challenge's initiation waiting for the redirect question (the event to emit after);
- `whispers`: an intrigue claim waiting for Master of Whispers' choice of opponents;
- `out`: the seats eliminated, in order (for the ranking).

The titles are not cards in `inplay` (they have no uid and are never in a player's zones): a held
title is "in play under its holder's control" (L45, L46) only through this record and the hooks
below (docs/rules-decisions.md, "Melee").
"""
from __future__ import annotations

from typing import Any

from games.engine import rng
from games.engine.base import EngineError
from games.engine.lcg import abilities as A
from games.engine.lcg import data
from games.engine.lcg import table as T
from games.engine.narration import gettext

State = dict[str, Any]
Event = dict[str, Any]

TITLES = ("crown_regent", "hand_of_the_king", "master_of_coin", "master_of_laws", "master_of_ships",
          "master_of_whispers")
MAX_SEATS = 6


def empty() -> dict[str, Any]:
    return {"titles": {}, "selecting": False, "offer": [], "removed": [], "picked": {}, "regent_used": False,
            "rivals": {}, "against": {}, "redirect": None, "whispers": None, "out": []}


def is_melee(state: State) -> bool:
    return "melee" in state


def title(tid: str) -> dict[str, Any]:
    return data.cards()[tid]


def title_of(state: State, seat: str) -> str | None:
    if "melee" not in state:
        return None
    return state["melee"]["titles"].get(seat)


def holder(state: State, tid: str) -> str | None:
    if "melee" not in state:
        return None
    return next((s for s, t in state["melee"]["titles"].items() if t == tid), None)


def supports(state: State, seat: str, other: str) -> bool:
    """L206: the seat's title supports the title `other` holds."""
    mine, theirs = title_of(state, seat), title_of(state, other)
    return bool(mine and theirs and theirs in title(mine)["supports"])


def rivals(state: State, seat: str, other: str) -> bool:
    """L207: the seat's title names the title `other` holds as its rival."""
    mine, theirs = title_of(state, seat), title_of(state, other)
    return bool(mine and theirs and theirs in title(mine)["rivals"])


# ------------------------------------------------------------------ 1.4 title selection (L203, L204)


def pool_removed(players: int) -> int:
    """L203: remove 1 of the 6 at random; with 3 players 2; with 6 (or more) none."""
    if players <= 3:
        return 2
    if players >= MAX_SEATS:
        return 0
    return 1


def titles_select(state: State, events: list[Event]) -> None:
    """Step 1.4: the pool shuffled face down, some removed at random; the first player picks one in
    secret, passes the rest on in player order...; the picks are revealed and enter play together."""
    from games.engine.lcg import flow

    flow.set_step(state, "plot", "1.4", events)
    m = state["melee"]
    order = T.player_order(state)
    if not m["selecting"]:
        pool = list(TITLES)
        rng.shuffle(state, pool)
        k = pool_removed(len(order))
        m.update(selecting=True, removed=sorted(pool[:k]), offer=sorted(pool[k:]), picked={})
        events.append({"type": "titles_selection", "offered": len(m["offer"]), "removed": k})
    for s in order:
        if s in m["picked"]:
            continue
        if not m["offer"]:  # L204 (more than 6 players only): no title this round
            m["picked"][s] = None
            continue
        if len(m["offer"]) == 1:  # the last title left: no choice to make
            take_title(state, s, m["offer"][0], events)
            continue
        flow.ask(state, "title", [s], options=list(m["offer"]))
        return
    m["titles"] = {s: t for s, t in m["picked"].items() if t}
    m.update(selecting=False, offer=[], removed=[], picked={})
    events.append({"type": "titles_revealed", "titles": {s: m["titles"].get(s) for s in order}})
    flow.open_window(state, "plot", "plot_end")


def take_title(state: State, seat: str, tid: str, events: list[Event]) -> None:
    m = state["melee"]
    m["offer"].remove(tid)
    m["picked"][seat] = tid
    events.append({"type": "title_chosen", "seat": seat})


def answer_title(state: State, seat: str, value: Any, events: list[Event]) -> None:
    d = state["decision"]
    if not isinstance(value, str) or value not in d["options"]:
        raise EngineError("illegal_action", gettext("choose one of the titles offered to you (L203)"))
    state["decision"] = None
    take_title(state, seat, value, events)
    from games.engine.lcg import flow

    flow.goto(state, "melee_titles")


def return_titles(state: State, events: list[Event]) -> None:
    """Step 7.4 (L83, L209): every title leaves play at once and returns to the pool; the round's
    once-per-round records start afresh."""
    if "melee" not in state:
        return
    from games.engine.lcg import flow

    flow.set_step(state, "taxation", "7.4", events)
    m = state["melee"]
    if m["titles"]:
        events.append({"type": "titles_returned", "titles": dict(m["titles"])})
    m.update(titles={}, regent_used=False, rivals={}, against={})


# ------------------------------------------------------------------ the titles' abilities


def plot_modifier(state: State, seat: str, key: str) -> int:
    """Master of Coin (+2 income), Master of Laws (+1 reserve): the title's plot modifiers."""
    t = title_of(state, seat)
    if not t:
        return 0
    return int((title(t).get("plot_modifiers") or {}).get(key, 0))


def extra_draw(state: State, seat: str) -> int:
    """Master of Laws: 1 more card in the draw phase."""
    return 1 if title_of(state, seat) == "master_of_laws" else 0


def str_bonus(state: State, seat: str, ctype: str, side: list[str]) -> int:
    """L205: Hand of the King (power), Master of Ships (military), Master of Whispers (intrigue):
    +1 STR to the holder's total in a challenge of that type in which it controls a participating
    character."""
    t = title_of(state, seat)
    if not t or not side:
        return 0
    b = title(t).get("str_bonus") or {}
    return int(b.get("amount", 0)) if b.get("applies_to") == ctype else 0


def dominance_bonus(state: State, totals: dict[str, int]) -> None:
    """L205: Crown Regent, +2 STR for dominance."""
    for s in list(totals):
        t = title_of(state, s)
        b = (title(t).get("str_bonus") or {}) if t else {}
        if b.get("applies_to") == "dominance":
            totals[s] += int(b["amount"])


def claim_bonus(state: State) -> int:
    """Master of Ships: in a military challenge in which the holder attacks a player holding a
    rival title, its claim is raised by 1."""
    ch = state["challenge"]
    if ch["type"] == "military" and title_of(state, ch["attacker"]) == "master_of_ships" \
            and rivals(state, ch["attacker"], ch["defender"]):
        return 1
    return 0


def rivals_bonus(state: State, events: list[Event]) -> None:
    """L207, step 4.2.3: the winner of a challenge against a player holding a rival title gains 1
    power for its faction, at most once per rival opponent per round."""
    if "melee" not in state:
        return
    ch = state["challenge"]
    w, loser = ch["winner"], ch["loser"]
    if w is None or not rivals(state, w, loser):
        return
    got = state["melee"]["rivals"].setdefault(w, [])
    if loser in got:
        return
    got.append(loser)
    state["players"][w]["faction_power"] += 1
    events.append({"type": "power", "seat": w, "card": "faction", "amount": 1, "reason": "rivals",
                   "against": loser})


# ------------------------------------------------------------------ challenges: opponents and limits


def blocked(state: State, seat: str, opponent: str) -> str | None:
    """Why `seat` may not initiate a challenge against `opponent` (L206), or None."""
    if supports(state, seat, opponent):
        return gettext("%(seat)s holds a title yours supports: no challenge against it (L206)") % {"seat": opponent}
    return None


def allowance(state: State, seat: str, ctype: str, opponent: str | None = None) -> str | None:
    """Why `seat` may not initiate a `ctype` challenge now (against `opponent`, or against any
    opponent when None): L72 and the constants (abilities.challenge_allowance), then in a melee the
    supports (L206) and Hand of the King's extra power challenge against another opponent."""
    why = A.challenge_allowance(state, seat, ctype)
    if "melee" not in state:
        return why
    opps = [opponent] if opponent is not None else T.others(state, seat)
    opps = [o for o in opps if not blocked(state, seat, o)]
    if not opps:
        return (blocked(state, seat, opponent) if opponent is not None
                else gettext("every opponent holds a title yours supports (L206)"))
    if why is None:
        return None
    p = state["players"][seat]
    # only the per-type limit (L72) is lifted, never another limit (Sneak Attack's one challenge)
    if ctype == "power" and title_of(state, seat) == "hand_of_the_king" and "power" in p["challenges"] \
            and why.endswith("(L72)"):
        i = p["challenges"].index("power")
        del p["challenges"][i]
        try:
            again = A.challenge_allowance(state, seat, ctype)
        finally:
            p["challenges"].insert(i, "power")
        if again is None:
            before = [o for t, o in state["melee"]["against"].get(seat, []) if t == "power"]
            if [o for o in opps if o not in before]:
                return None
            return gettext("Hand of the King: the extra power challenge must be against another opponent")
    return why


def legal_opponents(state: State, seat: str, ctype: str) -> list[str]:
    return [o for o in T.others(state, seat) if allowance(state, seat, ctype, o) is None]


def record_challenge(state: State, seat: str, ctype: str, opponent: str) -> None:
    if "melee" in state:
        state["melee"]["against"].setdefault(seat, []).append([ctype, opponent])


def phase_over(state: State) -> None:
    if "melee" in state:
        state["melee"]["against"] = {}


# ------------------------------------------------------------------ the redirect (Crown Regent, L208)


def redirect_targets(state: State) -> list[str]:
    ch = state["challenge"]
    return [o for o in T.others(state, ch["attacker"]) if o != ch["defender"]]


def offer_redirect(state: State, ev: Event) -> bool:
    """After a challenge is initiated and before reactions to its initiation (L208): the holder of
    an unused Crown Regent is asked whether to redirect it. True when it is asked (the initiation's
    event is then emitted after the answer)."""
    if "melee" not in state:
        return False
    m = state["melee"]
    regent = holder(state, "crown_regent")
    if regent is None or m["regent_used"] or not redirect_targets(state):
        return False
    m["redirect"] = ev
    state["decision"] = {"kind": "redirect", "seats": [regent]}
    return True


def answer_redirect(state: State, seat: str, value: Any, events: list[Event]) -> None:
    m = state["melee"]
    d = state["decision"]
    if d["kind"] == "redirect":
        if not isinstance(value, bool):
            raise EngineError("bad_action", gettext("redirect takes true or false"))
        if not value:
            state["decision"] = None
            _emit_initiated(state, events)
            return
        m["regent_used"] = True
        events.append({"type": "redirect", "seat": seat})
        ch = state["challenge"]
        state["decision"] = {"kind": "redirect_to", "seats": [ch["attacker"]], "options": redirect_targets(state)}
        return
    # redirect_to: the attacking player names the new opponent and, if it likes, new stealth targets
    if isinstance(value, str):
        value = {"opponent": value}
    if not isinstance(value, dict) or set(value) - {"opponent", "stealth"}:
        raise EngineError("bad_action", gettext("redirect_to takes {opponent, stealth?}"))
    new = value.get("opponent")
    if new not in d["options"]:
        raise EngineError("illegal_action", gettext("choose another opponent of the attacker (L208)"))
    ch = state["challenge"]
    raw = value.get("stealth") or {}
    if not isinstance(raw, dict):
        raise EngineError("bad_action", gettext("stealth takes {attacker: target}"))
    stealth: dict[str, str] = {}
    for a_name, t_name in raw.items():
        a = T.find_in_play(state, a_name, [seat], "character")
        if a not in ch["attackers"] or not T.has_keyword(state, a, "stealth"):
            raise EngineError("illegal_action", gettext("%(card)s is not an attacker with stealth (L199)") % {
                "card": a_name})
        t = T.find_in_play(state, t_name, [new], "character")
        if T.has_keyword(state, t, "stealth"):
            raise EngineError("illegal_action", gettext("%(card)s has stealth and cannot be bypassed (L199)") % {
                "card": A.shown_name(t_name)})
        stealth[a] = t
    old = ch["defender"]
    ch["defender"] = new
    ch["stealth"] = stealth  # L208: the old targets are no longer bypassed, the new ones are
    ch.setdefault("names", {}).update({u: T.cid(state, u) for u in stealth.values()})
    m["redirect"]["defender"] = new
    events.append({"type": "redirected", "seat": seat, "from": old, "to": new,
                   "stealth": {T.cid(state, a): T.cid(state, b) for a, b in stealth.items()}})
    state["decision"] = None
    _emit_initiated(state, events)


def _emit_initiated(state: State, events: list[Event]) -> None:
    m = state["melee"]
    ev, m["redirect"] = m["redirect"], None
    A.emit(state, ev, events)


# ------------------------------------------------------------------ Master of Whispers' claim


def whispers_ask(state: State, claim: int) -> bool:
    """Master of Whispers: the intrigue claim may be applied against any number of opponents. The
    defending player suffers it (the framework's claim, L185); the holder is asked which other
    opponents suffer it too (docs/rules-decisions.md)."""
    ch = state["challenge"]
    att = ch["attacker"]
    if title_of(state, att) != "master_of_whispers":
        return False
    extra = [o for o in T.others(state, att) if o != ch["defender"]]
    if not extra:
        return False
    state["melee"]["whispers"] = claim
    state["decision"] = {"kind": "claim_opponents", "seats": [att], "options": extra}
    return True


def answer_whispers(state: State, seat: str, value: Any, events: list[Event]) -> None:
    from games.engine.lcg import flow

    d = state["decision"]
    if not isinstance(value, list) or any(v not in d["options"] for v in value) or len(set(value)) != len(value):
        raise EngineError("illegal_action", gettext("choose other opponents of yours, each at most once"))
    claim = state["melee"]["whispers"]
    state["melee"]["whispers"] = None
    state["decision"] = None
    ch = state["challenge"]
    for s in [ch["defender"], *[o for o in T.others(state, seat) if o in value]]:
        flow.intrigue_claim(state, s, claim, events)


# ------------------------------------------------------------------ elimination (L231) and the end


def safe_to_eliminate(state: State) -> bool:
    """A melee elimination waits until nothing is under way (no decision, window, ability or live
    challenge, no title selection): the seat's cards then leave the game at once."""
    ch = state.get("challenge")
    return (state["decision"] is None and state["window"] is None and not A.busy(state)
            and not (ch and ch.get("live")) and not state["melee"]["selecting"])


def eliminate(state: State, seat: str, reason: str, events: list[Event]) -> None:
    """L231: the seat is out and the game goes on for the others. Its cards in play leave play to
    their owners' discard piles, its title returns to the pool; the first player passes on."""
    m = state["melee"]
    state["eliminated"].append(seat)
    m["out"].append(seat)
    events.append({"type": "eliminated", "seat": seat, "reason": reason})
    p = state["players"][seat]
    if p["play"]:
        T.leave_play(state, list(p["play"]), "discard", events, "eliminated")
    m["titles"].pop(seat, None)
    if state["first_player"] == seat:
        state["first_player"] = T.next_seat(state, seat)


def ranking(state: State) -> list[str]:
    """The winner, then the seats still in the game at the end by power, then the eliminated ones,
    the last eliminated first."""
    m = state["melee"]
    out = [s for s in m["out"] if s != state["winner"]]
    rest = [s for s in state["seats"] if s != state["winner"] and s not in out]
    rest.sort(key=lambda s: -T.power_total(state, s))
    return [state["winner"], *rest, *reversed(out)]


def placements(state: State) -> dict[str, int]:
    """Each seat's place for the ratings (docs/ratings.md, "The card game's melee"): the winner first alone;
    the seats still in the game at the end share a place when their power is equal; the eliminated ones
    after them, the last eliminated first, each alone."""
    order = ranking(state)
    out_seats = set(state["melee"]["out"]) - {state["winner"]}
    places: dict[str, int] = {}
    for i, s in enumerate(order):
        before = order[i - 1] if i else None
        tied = (i > 1 and before is not None and s not in out_seats and before not in out_seats
                and T.power_total(state, s) == T.power_total(state, before))
        places[s] = places[before] if tied and before is not None else i + 1
    return places


def public(state: State, seat: str | None) -> dict[str, Any]:
    """What a seat (or a spectator, None) may see of the melee record: the titles held (revealed),
    and during selection only its own pick and, while choosing, the titles offered to it."""
    m = state["melee"]
    out = {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
           for k, v in m.items() if k not in ("offer", "removed", "picked", "redirect", "whispers")}
    out["against"] = {s: [list(x) for x in v] for s, v in m["against"].items()}
    out["rivals"] = {s: list(v) for s, v in m["rivals"].items()}
    out["picked"] = {s: (t if s == seat else "hidden") for s, t in m["picked"].items()}
    d = state["decision"]
    out["offer"] = list(m["offer"]) if d and d["kind"] == "title" and seat in d["seats"] else None
    return out


def scenario_titles(state: State, titles: Any) -> None:
    """A scenario's `setup.titles` {seat: title id}: the titles held at the start."""
    from games.engine.base import ScenarioSetupError

    if titles is None:
        return
    if "melee" not in state:
        raise ScenarioSetupError("setup.titles: titles are used in melee only (L4)")
    if not isinstance(titles, dict) or set(titles) - set(state["seats"]) \
            or any(t not in TITLES for t in titles.values()) or len(set(titles.values())) != len(titles):
        raise ScenarioSetupError(f"setup.titles: {{seat: title}}, different titles among {', '.join(TITLES)}")
    state["melee"]["titles"] = dict(titles)
