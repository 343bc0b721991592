"""The ability model (rules/lcg.md §2.5-2.6): the modifier layer, triggered abilities in event
windows, costs, targets, "then" chains, saves, cancels, limits, lasting and delayed effects.

The cards' abilities are data in `cards.ABILITIES`; this module reads them.

- **Modifier layer (L153-L158).** `strength`, `icons`, `keywords` and the plot values are computed
  from the printed value, then every active constant ability (`constants`) and every lasting effect
  (`state["lasting"]`). A card that leaves play stops giving its constants at once; lasting effects
  on it end (L213). Milk of the Poppy blanks its host (L158).
- **Work stack.** `state["stack"]` holds frames the framework runs before its next step (LIFO, so a
  nested sequence finishes first, L107); `state["queue"]` collects the frames one step or one
  resolution emits, which then go on the stack in emission order. Frames: `window` (an interrupt
  or reaction window, L91-L98), `leave` (cards that would leave play: an interrupt window for saves,
  then the move, then the reaction window), `resolve` (an initiated ability: the cancel window, L101,
  then its effect) and `choose` (a choice made while an ability resolves).
- **Windows.** The first player is asked first (L95), then in player order; a window closes after
  every seat has passed in a row. `asked` says whether a seat is asked. With `every_window` (live
  games) a seat is asked when some card it might hold, or a card it controls, could legally be used
  there, judged from public information only (prompts.py: faction, agenda, cards seen, what is in
  play, gold, limits used, and the deck list minus its public copies when the game's lists are
  open, option `open_decklists`); its real hand is never read for that, so whether it is asked
  tells nothing, and a seat holding a playable card is always asked. A seat asked with nothing
  usable can only pass. Without `every_window` (scenarios) only a seat with a legal option is
  asked. A window opens when some seat would be asked in it.
"""
from __future__ import annotations

from typing import Any

from games.engine import fields as F
from games.engine import rng
from games.engine.base import EngineError
from games.engine.lcg import table as T
from games.engine.lcg.cards import ABILITIES
from games.engine.narration import gettext

State = dict[str, Any]
Event = dict[str, Any]
Ctx = dict[str, Any]

TRIGGERED = ("action", "reaction", "interrupt")

# Conditions and selectors of the cards beyond the learn-to-play decks, registered by their modules
# (games/engine/lcg/cards_*.py): `MORE_CONDS[name](state, ctx, arg) -> bool` for "name:arg",
# `MORE_SELECTORS[name](state, ctx) -> list of uids`; their ops go in OPS and scripts in SCRIPTS.
MORE_CONDS: dict[str, Any] = {}
MORE_SELECTORS: dict[str, Any] = {}
FORCED = ("forced_reaction", "forced_interrupt")
PERIODS = ("challenge", "phase", "round")


def refuse(reason: str) -> None:
    raise EngineError("illegal_action", reason)


# ================================================================== state


def init(state: State) -> None:
    """The ability keys of a new state."""
    state.setdefault("stack", [])
    state.setdefault("queue", [])
    state.setdefault("lasting", [])
    state.setdefault("delayed", [])
    state.setdefault("reductions", [])
    state.setdefault("limits", {p: {} for p in PERIODS})
    state.setdefault("frames", 0)
    for s in state["seats"]:
        state["players"][s].setdefault("removed", [])


def specs(state: State, uid: str) -> list[dict[str, Any]]:
    return ABILITIES.get(T.cid(state, uid), ())


def blanked(state: State, uid: str) -> bool:
    """L158: Milk of the Poppy on the card."""
    uids, inplay, players = state["uids"], state["inplay"], state["players"]
    for s in state["seats"]:
        for a in players[s]["play"]:
            if uids[a][0] == "milk_of_the_poppy" and inplay[a]["on"] == uid:
                return True
    return False


def live_specs(state: State, uid: str) -> list[dict[str, Any]]:
    if uid not in state["inplay"]:
        return ABILITIES.get(state["uids"][uid][0], ())  # specs
    k = kept(state)  # whether it is blanked is kept with the cards in play (kept_blanked)
    key = ("live", uid)
    out = k.get(key)
    if out is None:
        if T.card(state, uid)["type"] == "character" and blanked(state, uid):
            out = ()
        else:
            out = specs(state, uid)
        k[key] = out
    return out


# ================================================================== modifier layer


_CONSTANT_SPECS: dict[str, tuple[Any, list[dict[str, Any]]]] = {}


def _constant_specs(cid: str) -> list[dict[str, Any]]:
    """The constant abilities of card `cid` (kept per card while its entry in ABILITIES is the same
    list: most cards have none, and `constants` runs many times an action)."""
    sp = ABILITIES.get(cid)
    kept = _CONSTANT_SPECS.get(cid)
    if kept is None or kept[0] is not sp:
        kept = (sp, [a for a in sp or () if a["kind"] == "constant"])
        _CONSTANT_SPECS[cid] = kept
    return kept[1]


# Values derived from the cards in play, kept for the last state asked about: the state (held, so
# that no other state can take its id), what they depend on (`_constants_key`) and the values
# (`constants`'s answer, and `blanked`'s per card: kept_blanked). The framework asks many times an
# action and the cards in play seldom change meanwhile. `carry_constants` hands them to the copy
# `apply` makes.
_CONSTANTS: list[Any] = [None, None, None]


def _constants_key(state: State) -> tuple[Any, ...]:
    """What `constants` reads that can change: the cards each seat controls (in order), the revealed
    plots, and `entered`, which counts every entry into play (an attachment's host is set only
    then). Whether a card is blanked follows: Milk of the Poppy's host and Fortified Position (a
    plot). A card's id and printed type never change."""
    ps = state["players"]
    seats = state["seats"]
    if len(seats) == 2:
        p, q = ps[seats[0]], ps[seats[1]]
        return state["entered"], list(p["play"]), p["plot"], list(q["play"]), q["plot"]
    return (state["entered"], *((tuple(ps[s]["play"]), ps[s]["plot"]) for s in seats))


def carry_constants(old: State, new: State) -> None:
    """`new` is a copy of `old` (LcgRuleset.apply): the kept answer holds for it as long as its key does."""
    if _CONSTANTS[0] is old:
        _CONSTANTS[0] = new


def kept(state: State) -> dict[Any, Any]:
    """The values kept for `state` while `_constants_key` holds (emptied when it changes)."""
    if _CONSTANTS[0] is state:
        key = _CONSTANTS[1]
        ps, seats = state["players"], state["seats"]
        if len(seats) == 2:  # `_constants_key` compared without building it (it is asked many times an action)
            p, q = ps[seats[0]], ps[seats[1]]
            if (key[0] == state["entered"] and key[2] == p["plot"] and key[4] == q["plot"]
                    and key[1] == p["play"] and key[3] == q["play"]):
                return _CONSTANTS[2]
        elif key == _constants_key(state):
            return _CONSTANTS[2]
    _CONSTANTS[:] = [state, _constants_key(state), {}]
    return _CONSTANTS[2]


def kept_blanked(fn):
    """`blanked` (with the cards' modules' hooks, `fn`) kept per card: Milk of the Poppy's host and
    Fortified Position are all it reads (installed by __init__.py once every hook is in)."""
    def blanked_kept(state: State, uid: str) -> bool:
        k = kept(state)
        b = k.get(uid)
        if b is None:
            b = k[uid] = fn(state, uid)
        return b
    blanked_kept.orig = fn
    return blanked_kept


def constants(state: State) -> list[tuple[str, str, dict[str, Any]]]:
    """(source uid, controller, ability) for every constant ability in force: cards in play that are
    not blanked, and the revealed plots. (A read-only list: it is kept while its key holds.)"""
    memo = state.get("_memo")  # prompts.public_view: the state does not change meanwhile
    if memo is not None and "constants" in memo:
        return memo["constants"]
    k = kept(state)
    out = k.get("constants")
    if out is not None:
        if memo is not None:
            memo["constants"] = out
        return out
    out = []
    for s in state["seats"]:
        p = state["players"][s]
        for u in p["play"]:
            cs = _constant_specs(T.cid(state, u))
            if not cs:
                continue
            if T.card(state, u)["type"] == "character" and blanked(state, u):
                continue
            for a in cs:
                out.append((u, s, a))
        if p["plot"] is not None:
            for a in ABILITIES.get(T.cid(state, p["plot"]), ()):
                if a["kind"] == "constant":
                    out.append((p["plot"], s, a))
    if memo is not None:
        memo["constants"] = out
    k["constants"] = out
    return out


def _applies(state: State, src: str, seat: str, a: dict[str, Any], uid: str) -> bool:
    to = a.get("to")
    if to == "self":
        ok = uid == src
    elif to == "host":
        rec = state["inplay"].get(src)
        ok = rec is not None and rec["on"] == uid
    elif isinstance(to, str):
        ok = T.cid(state, uid) == to and T.controller(state, uid) == seat
    else:
        return False
    return ok and conds_hold(state, {"src": src, "seat": seat, "ev": None}, a.get("if", ()))


def _counter(state: State, src: str, seat: str, name: str) -> int:
    if name == "gold":
        return state["players"][seat]["gold"]
    if name == "warships":
        return sum(1 for u in T.in_play(state, seat, "location") if "Warship" in T.card(state, u)["traits"])
    if name == "reach_locations":
        return sum(1 for u in T.in_play(state, seat, "location") if "The Reach" in T.card(state, u)["traits"])
    if name == "other_direwolves":
        return sum(1 for u in state["players"][seat]["play"]
                   if u != src and "Direwolf" in T.card(state, u)["traits"])
    raise KeyError(name)


def modified(state: State, uid: str) -> tuple[int, set[str], set[str]]:
    """(STR modifier, gained icons, gained keywords) of a card in play from constants and lasting
    effects."""
    delta, icons, kws = 0, set(), set()
    for src, seat, a in constants(state):
        if "mod" not in a or not _applies(state, src, seat, a, uid):
            continue
        m = a["mod"]
        delta += m.get("strength", 0)
        if "strength_per" in m:
            delta += _counter(state, src, seat, m["strength_per"])
        icons.update(m.get("icons", ()))
        kws.update(m.get("keywords", ()))
    for e in state.get("lasting", ()):
        if e.get("target") == uid:
            delta += e.get("strength", 0)
    return delta, icons, kws


def strength(state: State, uid: str) -> int:
    """L153-L156: printed STR plus every modifier, never below 0."""
    base = int(T.card(state, uid).get("strength") or 0)
    if uid not in state["inplay"]:
        return max(0, base)
    return max(0, base + modified(state, uid)[0])


def has_icon(state: State, uid: str, icon: str) -> bool:
    if icon in T.card(state, uid)["icons"]:
        return True
    return uid in state["inplay"] and icon in modified(state, uid)[1]


def has_keyword(state: State, uid: str, kw: str) -> bool:
    """Printed keywords (blanked by Milk of the Poppy, L158) and gained ones (L160)."""
    if T.card(state, uid)["keywords"].get(kw):
        if uid not in state["inplay"] or not blanked(state, uid):
            return True
    return uid in state["inplay"] and kw in modified(state, uid)[2]


def rule_sources(state: State, rule: str) -> list[tuple[str, str]]:
    """(source, controller) of every constant `rule` in force (its conditions holding)."""
    k = kept(state)
    by_rule = k.get("rules")
    if by_rule is None:  # constants by rule, in their order (kept with them)
        by_rule = {}
        for src, s, a in constants(state):
            r = a.get("rule")
            if r is not None:
                by_rule.setdefault(r, []).append((src, s, a))
        k["rules"] = by_rule
    found = by_rule.get(rule)
    if not found:
        return []
    return [(src, s) for src, s, a in found
            if conds_hold(state, {"src": src, "seat": s, "ev": None}, a.get("if", ()))]


def rule_for(state: State, rule: str, seat: str) -> bool:
    return any(s == seat for _, s in rule_sources(state, rule))


def plot_value(state: State, seat: str, key: str) -> int | None:
    """A revealed plot's value after modifiers (L67, L157, L183): printed value (Naval Superiority
    counts a Kingdom or Edict plot's gold as 0), the +N of the cards the seat controls (not
    blanked), Alannys's -1 reserve, and claim modifiers during a challenge."""
    pu = state["players"][seat]["plot"]
    if pu is None:
        return None
    c = T.card(state, pu)
    value = int(c["plot"][key])
    if key == "income" and set(c["traits"]) & {"Kingdom", "Edict"} and rule_sources(state, "naval_superiority"):
        value = 0
    if key != "claim":
        for u in state["players"][seat]["play"]:
            mods = T.card(state, u)["plot_modifiers"]
            if mods and not (T.card(state, u)["type"] == "character" and blanked(state, u)):
                value += int(mods.get(key, 0))
    if key != "claim" and "melee" in state:  # Master of Coin, Master of Laws (melee.py)
        from games.engine.lcg import melee

        value += melee.plot_modifier(state, seat, key)
    if key == "reserve":
        for _, s in rule_sources(state, "alannys"):
            if s != seat and state["first_player"] == s:
                value -= 1
    if key == "claim":
        ch = state.get("challenge")
        if ch and ch["live"] and ch["attacker"] == seat:
            if ch["type"] == "intrigue":
                for src, s in rule_sources(state, "cersei"):
                    if s == seat and state["inplay"][src]["participating"] == "attacking":
                        value += 1
            for e in state["lasting"]:
                if e.get("seat") == seat and "claim" in e:
                    value += e["claim"]
            for e in state["lasting"]:
                if e.get("seat") == ch["defender"] and e.get("calm") == ch["type"]:
                    value -= 1
    return max(0, value)


def contributes(state: State, uid: str) -> bool:
    """L176: a participating character's STR counts, unless an effect says it contributes none
    (The Kraken's Grasp; Balon Greyjoy's constant for defenders with less STR than his)."""
    if any(e.get("target") == uid and e.get("no_str") for e in state["lasting"]):
        return False
    rec = state["inplay"][uid]
    if rec["participating"] == "defending":
        for src, _s in rule_sources(state, "balon"):
            if state["inplay"][src]["participating"] == "attacking" and strength(state, uid) < strength(state, src):
                return False
    return True


# ---------------------------------------------------------------- framework rules the constants change


def no_kneel(state: State, uid: str, role: str, ctype: str) -> bool:
    """Jaime and Vanguard (attacking in military), Left and Right (defending)."""
    rule = "no_kneel_military_attack" if role == "attacking" else "no_kneel_defend"
    if role == "attacking" and ctype != "military":
        return False
    return any(src == uid for src, _ in rule_sources(state, rule))


def challenge_allowance(state: State, seat: str, ctype: str) -> str | None:
    """Why `seat` may not initiate a `ctype` challenge now (L72 and the constants that change it)."""
    p = state["players"][seat]
    if rule_sources(state, "intrigue_first") and ctype in ("military", "power") and "intrigue" not in p["won"]:
        return "A Game of Thrones: win an intrigue challenge first"
    if rule_for(state, "one_challenge", seat) and p["challenges"]:
        return "Sneak Attack: at most 1 challenge this phase"
    allowed = 1 + sum(1 for e in state["lasting"] if e.get("seat") == seat and e.get("extra_challenge") == ctype)
    if ctype == "intrigue":
        allowed += len([1 for _, s in rule_sources(state, "extra_intrigue") if s == seat])
    if p["challenges"].count(ctype) >= allowed:
        return f"you already initiated a {ctype} challenge this phase (L72)"
    return None


def max_defenders(state: State) -> int | None:
    ch = state["challenge"]
    attacking = participants(state, "attacking") if put_right(state) else ch["attackers"]
    for src, _ in rule_sources(state, "one_defender"):
        if attacking == [src]:  # "while The Knight of Flowers is the only attacking character"
            return 1
    return None


def limited_allowance(state: State, seat: str) -> int:
    return 1 + (1 if rule_for(state, "extra_limited", seat) else 0)


def enters_kneeling(state: State, uid: str) -> bool:
    return any(a.get("rule") == "enters_kneeling" for a in specs(state, uid))


def ambush_value(state: State, seat: str, uid: str) -> int | None:
    """Printed ambush, or The Wolfswood's ambush (printed cost) for a Direwolf card in hand."""
    c = T.card(state, uid)
    x = c["keywords"].get("ambush")
    if x is None and "Direwolf" in c["traits"] and rule_for(state, "direwolf_ambush", seat):
        cost = c.get("cost")
        x = cost if isinstance(cost, int) else None
    return x


def marshal_cost(state: State, seat: str, uid: str, *, consume: bool = False) -> int:
    """The printed cost after the reductions (Steward, Kingsroad...) the seat holds (L128 step 4)."""
    c = T.card(state, uid)
    cost = c["cost"] if isinstance(c.get("cost"), int) else 0
    used = []
    for r in state["reductions"]:
        if r["seat"] != seat:
            continue
        if r["faction"] and c["faction"] != r["faction"]:
            continue
        if r["type"] and c["type"] != r["type"]:
            continue
        cost -= r["amount"]
        used.append(r)
    if consume:
        for r in used:
            state["reductions"].remove(r)
    return max(0, cost)


def event_cost(state: State, seat: str, uid: str, x: int = 0) -> int:
    cost = T.card(state, uid).get("cost")
    cost = x if cost == "X" else int(cost or 0)
    if rule_for(state, "event_discount", seat) and not state["limits"]["round"].get(f"events:{seat}"):
        cost -= 1
    return max(0, cost)


# ================================================================== conditions


def _ev_uids(ev: Event | None) -> list[str]:
    if not ev:
        return []
    if "uids" in ev:
        return ev["uids"]
    return [ev["uid"]] if ev.get("uid") else []


def _host(state: State, src: str) -> str | None:
    rec = state["inplay"].get(src)
    return rec["on"] if rec else None


def _controls(state: State, seat: str, pred) -> bool:
    return any(pred(u) for u in state["players"][seat]["play"])


def _ch_type(state: State, ev: Event | None) -> str | None:
    if ev and ev.get("type") in ("military", "intrigue", "power"):
        return ev["type"]
    ch = state.get("challenge")
    return ch["type"] if ch and ch["live"] else None


def cond(state: State, ctx: Ctx, name: str) -> bool:
    src, seat, ev = ctx.get("src"), ctx["seat"], ctx.get("ev")
    key, _, arg = name.partition(":")
    ins = state["inplay"]
    ch = state.get("challenge")
    if key == "ev_self":
        return src in _ev_uids(ev)
    if key == "ev_ambush":
        return ev.get("how") == "ambush"
    if key == "you_won":
        return ev.get("winner") == seat
    if key == "you_lost":
        return ev.get("loser") == seat
    if key == "you_defend":
        return ch is not None and ch["live"] and ch["defender"] == seat
    if key == "you_attack":
        return ch is not None and ch["live"] and ch["attacker"] == seat
    if key == "unopposed":
        return bool(ev.get("unopposed"))
    if key == "margin":
        return ev.get("margin", 0) >= int(arg)
    if key == "ev_type":
        return _ch_type(state, ev) in arg.split("|")
    if key == "challenge_type":
        return ch is not None and ch["live"] and ch["type"] == arg
    if key == "challenge_live":
        return ch is not None and ch["live"]
    if key == "phase":
        return (ev.get("phase") if ev and "phase" in ev else state["phase"]) == arg
    if key == "self_attacking":
        return src in ins and ins[src]["participating"] == "attacking"
    if key == "self_participating":
        return src in ins and ins[src]["participating"] is not None
    if key == "self_kneeling":
        return src in ins and ins[src]["kneeling"]
    if key == "self_in_military":
        return src in ins and ins[src]["participating"] is not None and ch is not None and ch["type"] == "military"
    if key == "self_has_duplicate":
        return src in ins and bool(ins[src]["duplicates"])
    if key == "self_ambushed_this_phase":
        return src in ins and ins[src].get("ambushed") == [state["round"], state["phase"]]
    if key == "host_is":
        h = _host(state, src)
        return h is not None and T.cid(state, h) == arg
    if key == "host_kneeling":
        h = _host(state, src)
        return h is not None and ins[h]["kneeling"]
    if key == "host_participating":
        h = _host(state, src)
        return h is not None and ins[h]["participating"] is not None
    if key == "host_attacking":
        h = _host(state, src)
        return h is not None and ins[h]["participating"] == "attacking"
    if key == "controls":
        return _controls(state, seat, lambda u: T.cid(state, u) == arg)
    if key == "war_plot":
        return any(state["players"][s]["plot"] and "War" in T.card(state, state["players"][s]["plot"])["traits"]
                   for s in state["seats"])
    if key == "first_player":
        return state["first_player"] == seat
    if key == "more_cards_in_hand":
        return bool(opponents_where(state, seat, lambda o: _fewer_cards(state, seat, o)))
    if key == "own_deck":
        return bool(state["players"][seat]["deck"])
    if key == "opponent_has_deck":
        return bool(opponents_where(state, seat, lambda o: bool(state["players"][o]["deck"])))
    if key == "loser_has_hand":
        return bool(ev and ev.get("loser") and state["players"][ev["loser"]]["hand"])
    if key == "ev_lord_or_lady":
        return any({"Lord", "Lady"} & set(T.card(state, c["uid"])["traits"]) for c in ev.get("cards", ()))
    if key == "ev_own_stark":
        return any(c["controller"] == seat and T.card(state, c["uid"])["faction"] == "stark"
                   and T.card(state, c["uid"])["type"] == "character" for c in ev.get("cards", ()))
    if key == "ev_host_savable":
        h = _host(state, src)
        return ev.get("savable") and ev.get("dest") in ("dead", "discard") and h in _open_uids(state, ev)
    if key == "ev_greyjoy_killed":
        # Risen from the Sea: "a [greyjoy] character", any player's under revision 3 (L136)
        return ev.get("savable") and ev.get("dest") == "dead" and any(
            T.card(state, u)["faction"] == "greyjoy" and (put_right(state) or T.controller(state, u) == seat)
            for u in _open_uids(state, ev))
    if key == "ev_opponent_event":
        return ev.get("event") and ev["seat"] != seat
    if key == "ev_opponent_card_ability":
        # Treachery: "a triggered ability on a character, a location or an attachment", any player's
        # under revision 3 (its text does not say an opponent's)
        return not ev.get("event") and (ev["seat"] != seat or put_right(state)) \
            and ev.get("ctype") in ("character", "location", "attachment")
    if key == "controls_unique_lannister":
        return _controls(state, seat, lambda u: T.card(state, u)["unique"] and T.card(state, u)["faction"] == "lannister"
                         and T.card(state, u)["type"] == "character")
    if key == "controls_lannister_lord_or_lady":
        return _controls(state, seat, lambda u: T.card(state, u)["faction"] == "lannister"
                         and T.card(state, u)["type"] == "character"
                         and bool({"Lord", "Lady"} & set(T.card(state, u)["traits"])))
    if key == "faction_standing":
        return not state["players"][seat]["faction_kneeling"]
    if key in MORE_CONDS:
        return MORE_CONDS[key](state, ctx, arg)
    raise KeyError(name)


def conds_hold(state: State, ctx: Ctx, names) -> bool:
    return all(cond(state, ctx, n) for n in names)


def _open_uids(state: State, ev: Event) -> list[str]:
    """The cards of a `would_leave` event still leaving (not saved yet); for one card's own trigger
    (`triggers`), that card if it still is."""
    fr = _frame(state, ev.get("leave"))
    one = ev.get("one")
    return [u for u in (fr["uids"] if fr else ()) if u in state["inplay"] and (one is None or u == one)]


# events whose cards are each a triggering condition of their own (revision 3)
SPLIT_EVENTS = frozenset({"killed", "sacrificed", "would_leave"})


def triggers(state: State, ev: Event | None) -> list[Event | None]:
    """L92, L93 (revision 3): when several cards leave play or are killed at the same time, the
    window that follows is shared, and each card is a triggering condition of its own, so an
    ability answering "a character is killed" may answer each (once per card, within its limits).
    One event per card (`one`: its uid); any other event is its own single trigger."""
    if not ev or ev["t"] not in SPLIT_EVENTS or len(ev.get("uids") or ()) < 2 or not put_right(state):
        return [ev]
    out = []
    for u in ev["uids"]:
        sub = dict(ev, uids=[u], one=u)
        if "cards" in ev:
            sub["cards"] = [c for c in ev["cards"] if c["uid"] == u]
        out.append(sub)
    return out


# ================================================================== targets


def _chars(state: State, seats=None) -> list[str]:
    return [u for s in (seats or state["seats"]) for u in T.in_play(state, s, "character")]


def _printed(state: State, uid: str, key: str) -> int:
    v = T.card(state, uid).get(key)
    return v if isinstance(v, int) else 0


def candidates(state: State, ctx: Ctx, name: str) -> list[str]:
    """The legal targets of selector `name` now (L136-L141)."""
    seat, ev = ctx["seat"], ctx.get("ev") or {}
    ins = state["inplay"]
    loser = ev.get("loser")
    p = state["players"][seat]
    if name == "loser_attachment":
        return T.in_play(state, loser, "attachment") if loser else []
    if name == "loser_location_or_attachment":
        return (T.in_play(state, loser, "location") + T.in_play(state, loser, "attachment")) if loser else []
    if name == "loser_character":
        return T.in_play(state, loser, "character") if loser else []
    if name == "loser_character_no_intrigue":
        return [u for u in T.in_play(state, loser, "character") if not has_icon(state, u, "intrigue")] if loser else []
    if name == "own_dead_ironborn":
        return [u for u in p["dead"] if T.card(state, u)["type"] == "character"
                and "Ironborn" in T.card(state, u)["traits"] and _can_put(state, seat, u, from_dead=True)]
    if name == "loser_discard_location":
        return [u for u in state["players"][loser]["discard"] if T.card(state, u)["type"] == "location"
                and _can_put(state, seat, u)] if loser else []
    if name == "shipwright_location":
        most = 3 if state["first_player"] == seat else 2
        return [u for s in state["seats"] for u in T.in_play(state, s, "location")
                if not ins[u]["kneeling"] and _printed(state, u, "cost") <= most]
    if name == "grey_wind_victim":
        most = 2 if _controls(state, seat, lambda u: T.cid(state, u) == "robb_stark") else 1
        return [u for u in _chars(state) if strength(state, u) <= most]
    if name == "summer_return":
        return [u for u in p["discard"] + p["dead"] if T.card(state, u)["type"] == "character"
                and T.card(state, u)["faction"] == "stark" and _printed(state, u, "strength") <= 2]
    if name == "any_character":
        return _chars(state)
    if name == "hand_tyrell_6":
        return [u for u in p["hand"] for c in (T.card(state, u),) if c["type"] == "character" and c["faction"] == "tyrell"
                and _printed(state, u, "cost") <= 6 and _can_put(state, seat, u)]
    if name == "hand_lannister_character":
        return [u for u in p["hand"] for c in (T.card(state, u),) if c["type"] == "character"
                and c["faction"] == "lannister" and _can_put(state, seat, u)]
    if name == "participating_greyjoy":
        return [u for u in _chars(state) if ins[u]["participating"] and T.card(state, u)["faction"] == "greyjoy"]
    if name == "participating_own_stark":
        # For the North: "a participating [stark] character", any player's under revision 3 (L136)
        return [u for u in _chars(state, None if put_right(state) else [seat])
                if ins[u]["participating"] and T.card(state, u)["faction"] == "stark"]
    if name == "attacking_character":
        return [u for u in _chars(state) if ins[u]["participating"] == "attacking"]
    if name == "defending_character":
        return [u for u in _chars(state) if ins[u]["participating"] == "defending"]
    if name == "defending_str5":
        return [u for u in _chars(state) if ins[u]["participating"] == "defending" and strength(state, u) <= 5]
    if name == "ev_greyjoy_victim":
        return [u for u in _open_uids(state, ev) if T.card(state, u)["faction"] == "greyjoy"
                and (put_right(state) or T.controller(state, u) == seat) and T.card(state, u)["type"] == "character"]
    if name == "opponent_character_cost_x":
        # "controlled by an opponent": any opponent's in a melee (docs/rules-decisions.md, "Melee: 'an opponent'")
        chars = _chars(state, T.others(state, seat))
        return chars if "x" not in ctx else [u for u in chars if _printed(state, u, "cost") <= ctx["x"]]
    if name == "own_tyrell":
        # Growing Strong: "pick up to 3 [tyrell] characters", any player's under revision 3 (L136)
        return [u for u in _chars(state, None if put_right(state) else [seat]) if T.card(state, u)["faction"] == "tyrell"]
    if name == "any_attachment":
        return [u for s in state["seats"] for u in T.in_play(state, s, "attachment")]
    if name == "own_discard":
        return list(p["discard"])
    if name == "reinforcement":
        return [u for u in p["hand"] + p["discard"] if T.card(state, u)["type"] == "character"
                and _printed(state, u, "cost") <= 5 and _can_put(state, seat, u)]
    if name == "own_standing_direwolf":
        return [u for u in _chars(state, [seat]) if not ins[u]["kneeling"] and "Direwolf" in T.card(state, u)["traits"]]
    if name == "own_characters":
        return _chars(state, [seat])
    if name in MORE_SELECTORS:
        return MORE_SELECTORS[name](state, ctx)
    raise KeyError(name)


def _can_put(state: State, seat: str, uid: str, from_dead: bool = False) -> bool:
    """L222: the card could enter play legally under `seat`'s control (not as an attachment
    needing a host). The very copy taken from the dead pile ignores its own presence there (L219)."""
    c = T.card(state, uid)
    if c["type"] not in ("character", "location"):
        return False
    from games.engine.lcg import actions

    if c["unique"]:
        p = state["players"][seat]
        dead = [u for u in p["dead"] if T.cid(state, u) == c["id"] and u != uid]
        if dead:
            return False
        if any(T.cid(state, u) == c["id"] and T.owner(state, u) != seat for u in p["play"]):
            return False
        return True
    why, _ = actions.entry_problem(state, seat, uid, None, marshal=False)
    return why is None


# ================================================================== events and windows


def new_id(state: State) -> int:
    state["frames"] += 1
    return state["frames"]


def _frame(state: State, fid: int | None) -> dict[str, Any] | None:
    for f in state["stack"]:
        if f.get("id") == fid:
            return f
    return None


# The engine's rules revision a game was started under (option `revision`, setup.py): a game keeps
# the windows and card ids of its revision, so that its action log replays to the same states.
# 1: games started before issue 30, whose live windows asked both seats whenever a card of either
# deck answered the event; 2: the windows of prompts.py; 3: the rules put right (issue 30,
# docs/rules-decisions.md "The card game (issue 30): the rules put right"): saves refused by
# unsavable leaves while the other "when ... leaves play / is killed" interrupts still answer them,
# a character removed from a challenge leaves its record, each card leaving at once is its own
# trigger, forced abilities can be cancelled, "pick up to N [faction] characters" reads any
# player's, L124 for effects without a target and for targets, "until the end of the phase"
# before "when the phase ends".
REVISION = 3


def revision(state: State) -> int:
    return state["options"].get("revision", REVISION)


def put_right(state: State) -> bool:
    """The rules of revision 3 (a game started under revision 1 or 2 keeps the earlier readings, so
    its action log replays)."""
    return revision(state) >= 3


def _listen_revision_1(state: State) -> set[str]:
    """Revision 1: the event types (with their timing) that some card of the game's two decks answers."""
    key = state.get("_listen")
    if key is None:
        out = set()
        for cid in {v[0] for v in state["uids"].values()}:
            for a in ABILITIES.get(cid, ()):
                if a["kind"] in ("reaction", "interrupt"):
                    for on in (a["on"] if isinstance(a["on"], list) else [a["on"]]):
                        out.add(a["kind"] + ":" + on)
        if any(state["uids"]):
            out.add("interrupt:would_leave")  # the duplicates' save (L220)
        key = sorted(out)
        state["_listen"] = key
    return set(key)


_LISTEN: dict[str, Any] = {"n": -1, "set": frozenset()}


def _listen(state: State) -> frozenset[str]:
    """Event types (with their timing) that some card of the card data answers, and the
    duplicates' save (L220): a quick filter before `asked`. It reads no deck, since a closed deck
    list is hidden information."""
    if _LISTEN["n"] != len(ABILITIES):
        out = {"interrupt:would_leave"}
        for sp in list(ABILITIES.values()):
            for a in sp:
                if a["kind"] in ("reaction", "interrupt"):
                    for on in (a["on"] if isinstance(a["on"], list) else [a["on"]]):
                        out.add(a["kind"] + ":" + on)
        _LISTEN.update(n=len(ABILITIES), set=frozenset(out))
    return _LISTEN["set"]


def emit(state: State, ev: Event, events: list[Event], timing: str = "reaction") -> None:
    """A triggering condition occurred (L91): delayed effects (L108), forced abilities in first
    player order (L99-L100), then the window."""
    ev = dict(ev)
    _delayed_on(state, ev, events)
    kind = "forced_" + timing
    items = []
    want, uids = (kind, ev["t"]), state["uids"]
    for seat in T.player_order(state):
        for u in list(state["players"][seat]["play"]) + ([state["players"][seat]["plot"]]
                                                          if state["players"][seat]["plot"] else []):
            if u not in state["inplay"] and u != state["players"][seat]["plot"]:
                continue
            if want not in answers(uids[u][0]):
                continue  # none of its abilities is of this kind and answers this event
            for i, a in enumerate(live_specs(state, u)):
                if a["kind"] == kind and _on(a, ev):
                    for sub in triggers(state, ev):
                        # revision 3: a forced ability is a triggered ability, so it may be cancelled (L91, L101)
                        ctx = {"src": u, "cid": T.cid(state, u), "i": i, "seat": seat, "ev": sub, "targets": [],
                               "no_cancel": not put_right(state), "forced": True}
                        if conds_hold(state, ctx, a.get("if", ())):
                            items.append((ctx, a["effect"]))
    queue_ordered(state, items)
    open_window(state, timing, ev)


def canonical(state: State, items: list[tuple[Ctx, list]]) -> list[tuple[Ctx, list]]:
    """rules/lcg.md §5.3: the first player's own abilities first, then player order, then card code."""
    order = T.player_order(state)
    return sorted(items, key=lambda it: (order.index(it[0]["seat"]), str(T.card(state, it[0]["src"]).get("code", "")),
                                         it[0]["cid"]))


def queue_ordered(state: State, items: list[tuple[Ctx, list]]) -> None:
    """L100, L111: forced or when-revealed abilities that resolve at once are ordered by the first
    player (decision `order`, by card id), each resolving completely before the next (L98). One
    ability, or copies of one card only, need no order: they resolve in the canonical order."""
    # stage 0 opens the cancel window first (forced abilities, revision 3); when-revealed ones skip it
    frames = [{"f": "resolve", "id": new_id(state), "ctx": ctx, "ops": ops, "stage": 1 if ctx.get("no_cancel") else 0,
               "cancelled": False} for ctx, ops in canonical(state, items)]
    if len({f["ctx"]["cid"] for f in frames}) >= 2:
        state["queue"].append({"f": "order", "id": new_id(state), "frames": frames})
    else:
        state["queue"].extend(frames)


def order_answer(state: State, value: list[str]) -> None:
    """The first player's order (card ids; copies of one id keep the canonical order among them)."""
    fr = state["stack"].pop()
    rest = list(fr["frames"])
    ordered = []
    for cid in value:
        f = next(f for f in rest if f["ctx"]["cid"] == cid)
        rest.remove(f)
        ordered.append(f)
    state["stack"].extend(reversed(ordered))
    state["decision"] = None


_PROMPTS: list[Any] = []


def _prompts() -> Any:
    """games.engine.lcg.prompts (imported once, on the first judgement: it imports this module)."""
    from games.engine.lcg import prompts

    _PROMPTS.append(prompts)
    return prompts


def asked(state: State, seat: str, timing: str, ev: Event | None) -> bool:
    """Whether the seat is asked in a window now. With `every_window` (live games): when some card
    it might hold, or a card it controls, could legally be used there, judged from public
    information only (prompts.py; its real hand is never read, so being asked tells nothing).
    Without it (scenarios): when it has a legal option. An eliminated seat (melee) is never asked."""
    if seat in state["eliminated"]:
        return False
    if state["options"]["every_window"]:
        if revision(state) < 2:
            return True  # revision 1: every seat, in every window that opened
        prompts = _PROMPTS[0] if _PROMPTS else _prompts()
        return prompts.might_act(state, seat, timing, ev)
    if timing == "action":
        from games.engine.lcg import flow

        return flow.window_options(state, seat)
    return bool(options(state, seat, timing, ev, first_only=True))


def open_window(state: State, timing: str, ev: Event) -> None:
    """An interrupt or reaction window (L91-L98) opens when some seat could be asked in it: with
    `every_window`, when some card of the card data answers the event (its seats are then judged
    one by one as the window reaches them, `step`, and one nobody is asked in closes at once);
    without it, when some seat has a legal option."""
    if state["options"]["every_window"]:
        listening = _listen(state) if revision(state) >= 2 else _listen_revision_1(state)
        if f"{timing}:{ev['t']}" not in listening:
            return
    elif not any(asked(state, s, timing, ev) for s in state["seats"]):
        return
    state["queue"].append({"f": "window", "id": new_id(state), "timing": timing, "ev": ev,
                           "turn": state["first_player"], "passes": 0})


def busy(state: State) -> bool:
    return bool(state.get("stack") or state.get("queue"))


def step(state: State, events: list[Event]) -> None:
    """Run the top frame one step (called by flow.run while `busy`)."""
    if state["queue"]:
        state["stack"].extend(reversed(state["queue"]))
        state["queue"] = []
        return
    fr = state["stack"][-1]
    f = fr["f"]
    if f == "window":
        seat = fr["turn"]
        if asked(state, seat, fr["timing"], fr["ev"]):
            state["decision"] = {"kind": fr["timing"], "seats": [seat]}
            return
        window_pass(state, seat)
    elif f == "leave":
        _leave_step(state, fr, events)
    elif f == "resolve":
        _resolve_step(state, fr, events)
    elif f == "choose":
        _ask_choice(state, fr, events)
    elif f == "order":
        state["decision"] = {"kind": "order", "seats": [state["first_player"]],
                             "options": [g["ctx"]["cid"] for g in fr["frames"]], "abilities": True}
    else:
        raise RuntimeError(f"unknown frame {f}")


def top_window(state: State) -> dict[str, Any] | None:
    if state["stack"] and state["stack"][-1]["f"] == "window":
        return state["stack"][-1]
    return None


def window_pass(state: State, seat: str) -> None:
    fr = state["stack"][-1]
    fr["passes"] += 1
    if fr["passes"] >= len(T.alive(state)):
        state["stack"].pop()
    else:
        fr["turn"] = T.next_seat(state, seat)


def window_acted(state: State, seat: str) -> None:
    fr = state["stack"][-1]
    fr["passes"] = 0
    fr["turn"] = T.next_seat(state, seat)


# ================================================================== leaving play


def request_leave(state: State, uids: list[str], dest: str, reason: str, events: list[Event], *,
                  savable: bool = True) -> None:
    """Cards would leave play (killed: dest dead; discarded: discard): the save interrupts first
    (L91, L218, L220), then the move and the reaction window."""
    uids = [u for u in uids if u in state["inplay"]]
    if not uids:
        return
    state["queue"].append({"f": "leave", "id": new_id(state), "uids": list(uids), "dest": dest, "reason": reason,
                           "savable": savable, "stage": 0})


def _leave_step(state: State, fr: dict[str, Any], events: list[Event]) -> None:
    fr["uids"] = [u for u in fr["uids"] if u in state["inplay"]]
    if fr["stage"] == 0:
        fr["stage"] = 1
        # revision 3 (L91, L218): an unsavable leave still opens the interrupt window; only saves are
        # refused (`save`, the duplicates' save, the cards' `savable` conditions), so "when ... is
        # killed / leaves play" interrupts that do not save (Davos, Shireen, Viserys) answer it
        if fr["uids"] and (fr["savable"] or put_right(state)):
            ev = {"t": "would_leave", "leave": fr["id"], "uids": list(fr["uids"]), "dest": fr["dest"],
                  "reason": fr["reason"], "savable": bool(fr["savable"])}
            open_window(state, "interrupt", ev)
        return
    state["stack"].remove(fr)
    leave_now(state, fr["uids"], fr["dest"], fr["reason"], events)


def leave_now(state: State, uids: list[str], dest: str, reason: str, events: list[Event]) -> None:
    """The move itself (L213), then the reaction window (killed / left_play)."""
    uids = [u for u in uids if u in state["inplay"]]
    if not uids:
        return
    cards = [{"uid": u, "controller": T.controller(state, u)} for u in uids]
    T.leave_play(state, uids, dest, events, reason)
    if dest == "dead":
        emit(state, {"t": "killed", "uids": list(uids), "cards": cards}, events)
    elif reason == "sacrifice":
        emit(state, {"t": "sacrificed", "uids": list(uids), "cards": cards}, events)


def on_leave(state: State, uids: list[str]) -> None:
    """L213, L162: lasting effects on the cards end; their limits start afresh."""
    gone = set(uids)
    state["lasting"] = [e for e in state["lasting"] if e.get("target") not in gone]
    state["delayed"] = [e for e in state["delayed"] if e.get("uid") not in gone or e.get("keep")]
    for per in PERIODS:
        lim = state["limits"][per]
        for k in [k for k in lim if k.split(":")[0] in gone]:
            del lim[k]


def save(state: State, uid: str, events: list[Event]) -> bool:
    """L218: the card stays in play; the would-leave event no longer includes it. A leave that
    cannot be saved (Wildfire Assault, Marched to the Wall...) is not."""
    for fr in state["stack"]:
        if fr["f"] == "leave" and uid in fr["uids"] and fr["savable"]:
            fr["uids"].remove(uid)
            events.append({"type": "saved", "seat": T.controller(state, uid), "card": T.cid(state, uid)})
            return True
    return False


# ================================================================== options and initiation


def _catelyn_blocks(state: State, seat: str) -> bool:
    for src, s in rule_sources(state, "catelyn"):
        if s != seat and state["inplay"][src]["participating"]:
            return True
    return False


def _window_ok(state: State, a: dict[str, Any], timing: str, ev: Event | None) -> bool:
    if timing == "action":
        if a["kind"] != "action":
            return False
        ph = a.get("phase")
        return ph is None or ph == state["phase"]
    return a["kind"] == timing and ev is not None and _on(a, ev)


def _on(a: dict[str, Any], ev: Event) -> bool:
    on = a.get("on")
    return ev["t"] in on if isinstance(on, list) else ev["t"] == on


def _limit_key(ctx: Ctx, a: dict[str, Any]) -> tuple[str, str, int] | None:
    if "limit" in a:
        return a["limit"][0], f"{ctx['src']}:{ctx['i']}", a["limit"][1]
    if "max" in a:
        return a["max"][0], f"max:{ctx['seat']}:{ctx['cid']}:{ctx['i']}", a["max"][1]
    return None


def _under_limit(state: State, ctx: Ctx, a: dict[str, Any]) -> bool:
    lk = _limit_key(ctx, a)
    return lk is None or state["limits"][lk[0]].get(lk[1], 0) < lk[2]


def _costs_ok(state: State, ctx: Ctx, a: dict[str, Any]) -> bool:
    src, seat = ctx["src"], ctx["seat"]
    for c in a.get("cost", ()):
        if c == "kneel_self":
            if state["inplay"][src]["kneeling"]:
                return False
        elif c == "kneel_faction":
            if state["players"][seat]["faction_kneeling"]:
                return False
        elif c.startswith("gold:"):
            n = ctx.get("x", 0) if c == "gold:X" else int(c[5:])
            if state["players"][seat]["gold"] < n:
                return False
        elif c.startswith("kneel:"):
            if not candidates(state, ctx, c[6:]):
                return False
    if ctx.get("event"):
        if state["players"][seat]["gold"] < event_cost(state, seat, src, ctx.get("x", 0)):
            return False
    return True


def _name(state: State, uid: str, seat: str) -> Any:
    """How an act names a card: in play by copy name (with the seat when not the actor's), else
    {card, zone}."""
    c = T.controller(state, uid)
    if c is not None:
        n = T.copy_names(state, c)[uid]
        return n if c == seat else {"card": n, "seat": c}
    o = T.owner(state, uid)
    p = state["players"][o]
    for z in ("hand", "discard", "dead", "deck"):
        if uid in p[z]:
            out = {"card": T.cid(state, uid), "zone": z}
            if o != seat:
                out["seat"] = o
            return out
    return T.cid(state, uid)


def _sources(state: State, seat: str, timing: str) -> list[tuple[str, bool]]:
    """(uid, is an event in hand) of every card whose abilities the seat might use."""
    p = state["players"][seat]
    uids = state["uids"]
    out = [(u, False) for u in p["play"] if ABILITIES.get(uids[u][0])]
    seen = set()
    last = None
    for u in p["hand"]:
        if u == last:
            continue  # the same card again (a public view's blank cards): the same answer
        last = u
        c = T.card(state, u)
        if c["type"] == "event" and c["id"] not in seen and ABILITIES.get(c["id"]):
            seen.add(c["id"])
            out.append((u, True))
    # the duplicates' save (L220)
    return out


_ANSWERS: dict[str, tuple[Any, int, frozenset[tuple[str, str | None]]]] = {}


def answers(cid: str) -> frozenset[tuple[str, str | None]]:
    """(kind, event type) of each ability of card `cid` ("action", None for an action): a card
    gives nothing in a window, and triggers no forced ability, whose kind and event are not among
    them. Kept per card while its entry in ABILITIES is the same list (a test may replace it)."""
    sp = ABILITIES.get(cid)
    got = _ANSWERS.get(cid)
    if got is None or got[0] is not sp or got[1] != len(sp or ()):
        keys: set[tuple[str, str | None]] = set()
        for a in sp or ():
            if a["kind"] == "action":
                keys.add(("action", None))
            else:
                on = a.get("on")
                keys.update((a["kind"], o) for o in (on if isinstance(on, list) else [on]))
        got = _ANSWERS[cid] = (sp, len(sp or ()), frozenset(keys))
    return got[2]


def options(state: State, seat: str, timing: str, ev: Event | None, first_only: bool = False) -> list[dict[str, Any]]:
    """The seat's legal `trigger` / `play` acts in a window of `timing` (action, interrupt, reaction)."""
    out: list[dict[str, Any]] = []
    if _catelyn_blocks(state, seat):
        return out
    if timing == "interrupt" and ev and ev["t"] == "would_leave" and ev.get("savable"):
        for u in _open_uids(state, ev):
            if T.controller(state, u) == seat and state["inplay"][u]["duplicates"]:
                out.append({"trigger": {"card": _name(state, u, seat), "duplicate": True}})
                if first_only:
                    return out
    subs = triggers(state, ev)
    want, uids = (timing, None if timing == "action" or ev is None else ev["t"]), state["uids"]
    for u, is_event in _sources(state, seat, timing):
        if want not in answers(uids[u][0]):
            continue  # none of its abilities answers this window (`_window_ok`)
        sp = live_specs(state, u)
        trig = [a for a in sp if a["kind"] in TRIGGERED]
        for i, a in enumerate(sp):
            if a["kind"] not in TRIGGERED or not _window_ok(state, a, timing, ev):
                continue
            for sub in subs:
                ctx = {"src": u, "cid": T.cid(state, u), "i": i, "seat": seat, "ev": sub, "targets": [],
                       "event": is_event}
                for act in _initiations(state, ctx, a, is_event, len(trig) > 1, trig.index(a) + 1):
                    if len(subs) > 1 and act in out:
                        continue  # the same act answering another card's trigger
                    out.append(act)
                    if first_only:
                        return out
    return out


def _use_key(ctx: Ctx) -> str:
    """What a window remembers of a use: the copy's ability, and the card it answered when each
    card of the event is its own trigger (`triggers`)."""
    one = (ctx.get("ev") or {}).get("one")
    key = f"{ctx['src']}:{ctx['i']}"
    return key if one is None else f"{key}:{one}"


def _same_trigger(w_ev: Event, ev: Event | None) -> bool:
    if ev is w_ev:
        return True
    return bool(ev and ev.get("one") is not None and ev["t"] == w_ev["t"] and ev.get("leave") == w_ev.get("leave")
                and ev["one"] in (w_ev.get("uids") or ()))


def _used_here(state: State, ctx: Ctx) -> bool:
    """L93-L94: each copy of an interrupt or reaction once per triggering condition."""
    w = top_window(state)
    return bool(w and _same_trigger(w["ev"], ctx.get("ev")) and _use_key(ctx) in w.get("used", ()))


def _pick_trigger(state: State, seat: str, ctx: Ctx, a: dict[str, Any], subs: list[Event], names: Any) -> Event:
    """The card's trigger an act answers when each card of the event is its own (`triggers`): the
    first, in the event's order, that the ability may still answer with the targets named."""
    for sub in subs:
        c = dict(ctx, ev=sub)
        if _used_here(state, c) or not conds_hold(state, c, a.get("if", ())) or not could_change(state, c, a):
            continue
        if a.get("target") and isinstance(names, list) and names:
            try:
                us = [resolve_name(state, seat, n) for n in names]
            except EngineError:
                return sub
            if not all(u in candidates(state, c, a["target"]) for u in us):
                continue
        return sub
    return subs[0]


def could_change(state: State, ctx: Ctx, a: dict[str, Any]) -> bool:
    """L124 for the cost reducers ("reduce the cost of the next card you marshal this phase"): a
    reduction lasts until the end of the phase and only marshaling uses it, so a seat that can no
    longer marshal this phase (it was active already, or it is not the marshaling phase) cannot
    initiate an effect made only of reductions (docs/rules-decisions.md)."""
    if a["effect"] and all(op[0] == "reduce" for op in a["effect"]) and revision(state) >= 2:
        seat = ctx["seat"]
        return state["phase"] == "marshaling" and (state["active"] == seat or seat not in state["marshaled"])
    return True


def _kneeling(state: State, uid: str | None) -> bool | None:
    rec = state["inplay"].get(uid) if uid else None
    return None if rec is None else rec["kneeling"]


# L124 (revision 3): whether an effect's first op could change the game state now (a "then" chain,
# L145, stops at a first op that fails). `targets` are the chosen targets (none yet: the target ops
# say yes, each candidate target is then checked on its own). Ops not listed always could.
def _could_first_op(state: State, ctx: Ctx, op: list[Any]) -> bool:
    name, targets, ins = op[0], ctx.get("targets") or [], state["inplay"]
    if name == "stand_self":
        return bool(_kneeling(state, ctx["src"]))
    if name == "stand_host":
        return bool(_kneeling(state, _host(state, ctx["src"])))
    if name == "stand_all_yours":
        return any(ins[u]["kneeling"] for u in T.in_play(state, ctx["seat"], "character"))
    if name == "draw":
        return bool(state["players"][ctx["seat"]]["deck"])
    if name == "random_discard_loser":
        loser = (ctx.get("ev") or {}).get("loser")
        return bool(loser and state["players"][loser]["hand"])
    if not targets:
        return True
    if name == "stand_target":
        return any(_kneeling(state, u) for u in targets)
    if name == "kneel_target":
        return any(_kneeling(state, u) is False for u in targets)
    if name == "remove_target_from_challenge":
        return any(u in ins and ins[u]["participating"] for u in targets)
    return True


def effect_could_change(state: State, ctx: Ctx, a: dict[str, Any]) -> bool:
    """L124, L136 (revision 3): an ability may be initiated only if its effect could change the
    game state, effects without a target included; with its targets chosen, only if the effect
    could change them (Highgarden's "stands and is then removed" needs a kneeling attacker)."""
    if not put_right(state) or not a.get("effect"):
        return True
    return _could_first_op(state, ctx, a["effect"][0])


def _initiations(state: State, ctx: Ctx, a: dict[str, Any], is_event: bool, several: bool, number: int):
    if _used_here(state, ctx) or not _under_limit(state, ctx, a) or not conds_hold(state, ctx, a.get("if", ())):
        return
    if not could_change(state, ctx, a) or not effect_could_change(state, ctx, a):
        return
    if is_event and "X" == T.card(state, ctx["src"]).get("cost") and ctx.get("ev") and ctx["ev"].get("cid"):
        ctx["x"] = _printed_cid(state, ctx["ev"]["cid"])
    key = "play" if is_event else "trigger"
    base: dict[str, Any] = {"card": T.cid(state, ctx["src"]) if is_event else _name(state, ctx["src"], ctx["seat"])}
    if isinstance(base["card"], dict):
        return
    if several:
        base["ability"] = number
    tsel = a.get("target")
    if tsel is None:
        if _costs_ok(state, ctx, a):
            yield {key: base}
        return
    if tsel == "opponent_character_cost_x":
        # The Things I Do for Love: X is chosen in a decision of its own once the card is played
        if x_range(state, ctx, a):
            yield {key: base}
        return
    if not _costs_ok(state, ctx, a):
        return  # (the costs do not depend on the target: no target is worth looking for)
    cands = [u for u in candidates(state, ctx, tsel) if effect_could_change(state, dict(ctx, targets=[u]), a)]
    lo, hi = a.get("count", [1, 1])
    for u in cands:
        yield {key: dict(base, targets=[_name(state, u, ctx["seat"])])}
    if hi > 1 and len(cands) > 1:
        yield {key: dict(base, targets=[_name(state, u, ctx["seat"]) for u in cands[:hi]])}


def x_range(state: State, ctx: Ctx, a: dict[str, Any]) -> list[int]:
    """The legal values of a chosen X (The Things I Do for Love, L134, L136): at least the lowest
    printed cost among the targets (one must exist), at most what the gold pool can pay, with
    every other cost payable."""
    ctx = dict(ctx)
    ctx.pop("x", None)
    cands = candidates(state, ctx, a["target"])
    if not cands:
        return []
    lo = min(_printed(state, u, "cost") for u in cands)
    out = []
    x = lo
    while event_cost(state, ctx["seat"], ctx["src"], x) <= state["players"][ctx["seat"]]["gold"]:
        if _costs_ok(state, dict(ctx, x=x), a):
            out.append(x)
        x += 1
    return out


def _printed_cid(state: State, cid: str) -> int:
    from games.engine.lcg import data

    v = data.card(state, cid).get("cost")
    return v if isinstance(v, int) else 0


def resolve_name(state: State, seat: str, name: Any) -> str:
    """A card named in an act: in play (copy name, optionally {card, seat}), or {card, zone, seat?}."""
    if isinstance(name, dict) and "zone" in name:
        if set(name) - {"card", "zone", "seat"} or not isinstance(name.get("card"), str) \
                or not isinstance(name["zone"], str) or not isinstance(name.get("seat", seat), str):
            raise EngineError("bad_action", gettext("a card is {card, zone, seat?}: three names"))
        s = name.get("seat", seat)
        if s not in state["seats"] or name["zone"] not in ("hand", "discard", "dead", "deck"):
            refuse(gettext("no such place: the %(zone)s of %(seat)s") % {"zone": F.shown(name["zone"]), "seat": F.shown(s)})
        for u in state["players"][s][name["zone"]]:
            if T.cid(state, u) == name["card"]:
                return u
        refuse(gettext("%(card)s is not in that %(zone)s") % {"card": name["card"], "zone": name["zone"]})
    return T.find_in_play(state, name, [seat] + T.others(state, seat))


def shown_name(name: Any) -> str:
    """A card named in an act, for a sentence: its id (`<id>` or the `card` of {card, ...})."""
    return F.shown(name.get("card") if isinstance(name, dict) else name)


def initiate(state: State, seat: str, kind: str, value: Any, events: list[Event]) -> None:
    """`trigger` or `play`: the 7 steps of L128 in one act (targets chosen in the act)."""
    d = state["decision"]
    timing = d["kind"]
    win = top_window(state) if timing in ("interrupt", "reaction") else None
    ev = win["ev"] if win else None
    if isinstance(value, str):
        value = {"card": value}
    if not isinstance(value, dict) or not isinstance(value.get("card"), (str, dict)) \
            or set(value) - {"card", "ability", "targets", "x", "duplicate"}:
        raise EngineError("bad_action", gettext("%(kind)s takes a card id or {card, ability?, targets?, x?}") % {"kind": kind})
    # the type of every field before anything reads it (issue 28); their values are checked below
    F.whole(value.get("ability"), f"{kind}: ability", 1, 9, optional=True)
    F.whole(value.get("x"), f"{kind}: x", 0, 99, optional=True)
    if value.get("targets") is not None:
        F.items(value["targets"], f"{kind}: targets", "cards")
    duplicate = F.flag(value.get("duplicate", False), f"{kind}: duplicate")
    if _catelyn_blocks(state, seat):
        refuse(gettext("Catelyn Stark is participating: you cannot trigger card abilities"))
    if kind == "play":
        src = T.find_in_hand(state, seat, value["card"]) if isinstance(value["card"], str) else None
        if src is None:
            raise EngineError("bad_action", gettext("play takes the id of an event in your hand"))
        c = T.card(state, src)
        if c["type"] != "event":
            refuse(gettext("%(card)s is not an event: characters, locations and attachments are marshaled") % {"card": c["name"]})
        if not ABILITIES.get(c["id"]):
            refuse(gettext("%(card)s has no ability: it could not change the game state (L124)") % {"card": c["name"]})
        is_event = True
    else:
        src = T.find_in_play(state, value["card"], [seat])
        is_event = False
        if duplicate:
            _duplicate_save(state, seat, src, ev, events)
            _after_act(state, seat, timing)
            return
    sp = live_specs(state, src)
    trig = [(i, a) for i, a in enumerate(sp) if a["kind"] in TRIGGERED]
    n = value.get("ability", 1)
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= len(trig):
        refuse(gettext("%(card)s has no such triggered ability") % {"card": T.card(state, src)["name"]})
    i, a = trig[n - 1]
    if not _window_ok(state, a, timing, ev):
        refuse(gettext("%(card)s: that ability cannot be used in this window (L87, L88, L91)") % {"card": T.card(state, src)["name"]})
    ctx = {"src": src, "cid": T.cid(state, src), "i": i, "seat": seat, "ev": ev, "targets": [], "event": is_event}
    subs = triggers(state, ev)
    if len(subs) > 1:
        ctx["ev"] = _pick_trigger(state, seat, ctx, a, subs, value.get("targets"))
    if not _under_limit(state, ctx, a):
        refuse(gettext("%(card)s: its limit is reached (L162)") % {"card": T.card(state, src)["name"]})
    if _used_here(state, ctx):
        refuse(gettext("%(card)s: already used for this (L93)") % {"card": T.card(state, src)["name"]})
    if not conds_hold(state, ctx, a.get("if", ())):
        refuse(gettext("%(card)s: its condition is not met") % {"card": T.card(state, src)["name"]})
    if not could_change(state, ctx, a):
        refuse(gettext("%(card)s: you cannot marshal again this phase, so the reduction would change nothing (L124)")
               % {"card": T.card(state, src)["name"]})
    if is_event and T.card(state, src).get("cost") == "X":
        if ev and ev.get("cid"):
            ctx["x"] = _printed_cid(state, ev["cid"])
        elif "x" in value:
            # SCENARIOS.md's shorthand: X and the target named in the act answer both decisions
            x = value.get("x")
            if not isinstance(x, int) or isinstance(x, bool) or x < 0:
                refuse(gettext("name X (x: a number)"))
            if x not in x_range(state, ctx, a):
                refuse(gettext("%(card)s: X cannot be %(x)s (L134, L136)") % {"card": T.card(state, src)["name"], "x": x})
            ctx["x"] = x
        else:
            if value.get("targets"):
                refuse(gettext("%(card)s: X is chosen first, then the target (L128, L134)") % {"card": T.card(state, src)["name"]})
            xs = x_range(state, ctx, a)
            if not xs:
                refuse(gettext("%(card)s: no X can be paid with a target left (L125, L136)") % {"card": T.card(state, src)["name"]})
            state["decision"] = None
            _push_choice(state, seat, "x", ctx, [], values=xs, timing=timing)
            return
    tsel = a.get("target")
    targets: list[str] = []
    if tsel:
        names = value.get("targets")
        if not isinstance(names, list) or not names:
            refuse(gettext("%(card)s: name its target (L135)") % {"card": T.card(state, src)["name"]})
        lo, hi = a.get("count", [1, 1])
        if not lo <= len(names) <= hi:
            refuse(gettext("%(card)s: %(lo)s to %(hi)s targets") % {"card": T.card(state, src)["name"], "lo": lo, "hi": hi})
        cands = candidates(state, ctx, tsel)
        for nm in names:
            u = resolve_name(state, seat, nm)
            if u not in cands or u in targets:
                refuse(gettext("%(card)s is not a valid target (L136-L141)") % {"card": shown_name(nm)})
            targets.append(u)
        if tsel == "opponent_character_cost_x" and _printed(state, targets[0], "cost") > ctx.get("x", 0):
            refuse(gettext("the character's printed cost is above X"))
    elif value.get("targets"):
        refuse(gettext("%(card)s takes no target") % {"card": T.card(state, src)["name"]})
    if not effect_could_change(state, dict(ctx, targets=targets), a):
        refuse(gettext("%(card)s: its effect would change nothing now (L124)") % {"card": T.card(state, src)["name"]})
    if not _costs_ok(state, ctx, a):
        refuse(gettext("%(card)s: its cost cannot be paid (L125)") % {"card": T.card(state, src)["name"]})
    ctx["targets"] = targets
    state["decision"] = None
    _proceed(state, ctx, timing, events)


def _proceed(state: State, ctx: Ctx, timing: str, events: list[Event]) -> None:
    """An initiation after its X and targets: the card kneeled by a `kneel:<selector>` cost is
    chosen when more than one is eligible (Like Warm Rain, L128 step 5), then everything is paid."""
    a = live_specs(state, ctx["src"])[ctx["i"]]
    chosen = ctx.setdefault("cost_cards", {})
    for c in a.get("cost", ()):
        if c.startswith("kneel:") and c not in chosen:
            cands = candidates(state, ctx, c[6:])
            if len(cands) > 1:
                _push_choice(state, ctx["seat"], "kneel_cost", ctx, [], selector=c[6:], cost=c, timing=timing)
                return
            chosen[c] = cands[0]
    _finish_initiate(state, ctx, a, timing, events)


def _finish_initiate(state: State, ctx: Ctx, a: dict[str, Any], timing: str, events: list[Event]) -> None:
    src, seat, is_event = ctx["src"], ctx["seat"], ctx.get("event")
    targets = ctx["targets"]
    win = top_window(state) if timing in ("interrupt", "reaction") else None
    ctx["host"] = _host(state, src)
    if win is not None:
        win.setdefault("used", []).append(_use_key(ctx))
    _pay(state, ctx, a, events)
    lk = _limit_key(ctx, a)
    if lk:
        state["limits"][lk[0]][lk[1]] = state["limits"][lk[0]].get(lk[1], 0) + 1
    events.append({"type": "played" if is_event else "triggered", "seat": seat, "card": ctx["cid"],
                   "targets": [T.cid(state, u) for u in targets]})
    _after_act(state, seat, timing)
    fid = new_id(state)
    state["queue"].append({"f": "resolve", "id": fid, "ctx": ctx, "ops": a["effect"], "stage": 0,
                           "cancelled": False})


def _after_act(state: State, seat: str, timing: str) -> None:
    state["decision"] = None
    if timing == "action":
        from games.engine.lcg import flow

        flow.window_acted(state, seat)
    else:
        window_acted(state, seat)


def _pay(state: State, ctx: Ctx, a: dict[str, Any], events: list[Event]) -> None:
    """L132: every cost at once."""
    src, seat = ctx["src"], ctx["seat"]
    p = state["players"][seat]
    if ctx.get("event"):
        cost = event_cost(state, seat, src, ctx.get("x", 0))
        p["gold"] -= cost
        key = f"events:{seat}"
        state["limits"]["round"][key] = state["limits"]["round"].get(key, 0) + 1
        p["hand"].remove(src)
        p["discard"].insert(0, src)  # L103: a played event goes to the discard pile
    for c in a.get("cost", ()):
        if c == "kneel_self":
            state["inplay"][src]["kneeling"] = True
        elif c == "kneel_faction":
            p["faction_kneeling"] = True
        elif c.startswith("gold:"):
            p["gold"] -= ctx.get("x", 0) if c == "gold:X" else int(c[5:])
        elif c.startswith("kneel:"):
            u = ctx.get("cost_cards", {}).get(c) or candidates(state, ctx, c[6:])[0]
            state["inplay"][u]["kneeling"] = True
            events.append({"type": "kneel", "seat": seat, "card": T.cid(state, u), "reason": "cost"})
        elif c == "sacrifice_self":
            leave_now(state, [src], "discard", "sacrifice", events)
        elif c == "remove_self":
            T.leave_play(state, [src], "removed", events, "removed")


def _duplicate_save(state: State, seat: str, uid: str, ev: Event | None, events: list[Event]) -> None:
    """L220: discard a duplicate to save the card it covers."""
    if not ev or ev["t"] != "would_leave" or uid not in _open_uids(state, ev):
        refuse(gettext("a duplicate saves only its card when it would leave play (L220)"))
    if not ev.get("savable"):
        refuse(gettext("%(card)s cannot be saved from this (L218)") % {"card": T.card(state, uid)["name"]})
    rec = state["inplay"][uid]
    if not rec["duplicates"]:
        refuse(gettext("%(card)s has no duplicate") % {"card": T.card(state, uid)["name"]})
    d = rec["duplicates"].pop(0)
    T.face_up(state, d)
    state["players"][T.owner(state, d)]["discard"].insert(0, d)
    events.append({"type": "duplicate_discarded", "seat": seat, "card": T.cid(state, d)})
    save(state, uid, events)


def _resolve_step(state: State, fr: dict[str, Any], events: list[Event]) -> None:
    ctx = fr["ctx"]
    if fr["stage"] == 0:
        fr["stage"] = 1
        c = T.card(state, ctx["src"])
        ev = {"t": "initiating", "frame": fr["id"], "seat": ctx["seat"], "event": bool(ctx.get("event")),
              "cid": ctx["cid"], "ctype": c["type"]}
        if not ctx.get("no_cancel"):
            open_window(state, "interrupt", ev)
        return
    state["stack"].remove(fr)
    if fr["cancelled"]:
        events.append({"type": "cancelled", "seat": ctx["seat"], "card": ctx["cid"]})
        return
    if ctx.get("forced"):
        events.append({"type": "forced", "seat": ctx["seat"], "card": ctx["cid"]})
    run_ops(state, ctx, fr["ops"], events)


# ================================================================== effects (ops)


def run_ops(state: State, ctx: Ctx, ops: list[list[Any]], events: list[Event]) -> None:
    """A "then" chain (L145): each op must resolve before the next; a failed op ends it."""
    for i, op in enumerate(ops):
        r = OPS[op[0]](state, ctx, op[1:], events, ops[i + 1:])
        if r == "wait" or r is False:
            return


def _stand(state: State, uid: str, events: list[Event]) -> bool:
    rec = state["inplay"].get(uid)
    if rec is None or not rec["kneeling"]:
        return False
    rec["kneeling"] = False
    events.append({"type": "stand", "seat": rec["controller"], "card": T.cid(state, uid)})
    emit(state, {"t": "stood", "uid": uid}, events)
    return True


def _put_into_play(state: State, seat: str, uid: str, events: list[Event]) -> None:
    """L222: no cost, not marshaled; a second copy of a unique card becomes a duplicate."""
    o = T.owner(state, uid)
    for z in ("hand", "discard", "dead", "deck"):
        if uid in state["players"][o][z]:
            state["players"][o][z].remove(uid)
            break
    c = T.card(state, uid)
    original = next((u for u in state["players"][seat]["play"] if T.cid(state, u) == c["id"]), None) \
        if c["unique"] else None
    if original:
        T.add_duplicate(state, original, uid)
        events.append({"type": "put_into_play", "seat": seat, "card": c["id"], "duplicate": True})
        return
    T.enter_play(state, seat, uid, kneeling=enters_kneeling(state, uid))
    events.append({"type": "put_into_play", "seat": seat, "card": c["id"], "duplicate": False})
    emit(state, {"t": "entered", "uid": uid, "how": "put"}, events)


def _lasting(state: State, entry: dict[str, Any], events: list[Event]) -> None:
    state["lasting"].append(entry)
    if entry.get("strength", 0) > 0 and entry.get("target"):
        emit(state, {"t": "str_increased", "uid": entry["target"]}, events)


def op_draw(state, ctx, args, events, rest):
    return T.draw(state, ctx["seat"], args[0], events) > 0


def op_gold(state, ctx, args, events, rest):
    state["players"][ctx["seat"]]["gold"] += args[0]
    events.append({"type": "gold", "seat": ctx["seat"], "gold": args[0], "card": ctx["cid"]})
    return True


def op_power_self(state, ctx, args, events, rest):
    if ctx["src"] not in state["inplay"]:
        return False
    state["inplay"][ctx["src"]]["power"] += args[0]
    events.append({"type": "power", "seat": ctx["seat"], "card": ctx["cid"], "amount": args[0], "reason": ctx["cid"]})
    return True


def op_faction_power(state, ctx, args, events, rest):
    state["players"][ctx["seat"]]["faction_power"] += args[0]
    events.append({"type": "power", "seat": ctx["seat"], "card": "faction", "amount": args[0], "reason": ctx["cid"]})
    return True


def op_stand_self(state, ctx, args, events, rest):
    return _stand(state, ctx["src"], events)


def op_stand_target(state, ctx, args, events, rest):
    return any([_stand(state, u, events) for u in ctx["targets"]])


def op_stand_host(state, ctx, args, events, rest):
    h = _host(state, ctx["src"])
    return h is not None and _stand(state, h, events)


def op_stand_all_yours(state, ctx, args, events, rest):
    done = False
    for u in T.in_play(state, ctx["seat"], "character"):
        done = _stand(state, u, events) or done
    return done


def op_kneel_target(state, ctx, args, events, rest):
    for u in ctx["targets"]:
        if u in state["inplay"] and not state["inplay"][u]["kneeling"]:
            state["inplay"][u]["kneeling"] = True
            events.append({"type": "kneel", "seat": T.controller(state, u), "card": T.cid(state, u), "reason": ctx["cid"]})
            return True
    return False


def op_kill_target(state, ctx, args, events, rest):
    alive = [u for u in ctx["targets"] if u in state["inplay"]]
    request_leave(state, alive, "dead", ctx["cid"], events)
    return bool(alive)


def op_discard_target(state, ctx, args, events, rest):
    alive = [u for u in ctx["targets"] if u in state["inplay"]]
    request_leave(state, alive, "discard", ctx["cid"], events)
    return bool(alive)


def op_discard_self_unsavable(state, ctx, args, events, rest):
    leave_now(state, [ctx["src"]], "discard", ctx["cid"], events)
    return True


def op_put_target_into_play(state, ctx, args, events, rest):
    for u in ctx["targets"]:
        if u not in state["inplay"] and _can_put(state, ctx["seat"], u, from_dead=True):
            _put_into_play(state, ctx["seat"], u, events)
            ctx["put"] = u
            return True
    return False


def op_return_target_to_hand(state, ctx, args, events, rest):
    for u in ctx["targets"]:
        o = T.owner(state, u)
        if u in state["inplay"]:
            T.leave_play(state, [u], "hand", events, "returned")
            return True
        for z in ("discard", "dead"):
            if u in state["players"][o][z]:
                state["players"][o][z].remove(u)
                state["players"][o]["hand"].append(u)
                events.append({"type": "returned_to_hand", "seat": o, "card": T.cid(state, u), "from": z})
                return True
    return False


def op_strength_target(state, ctx, args, events, rest):
    n = args[0]
    if n == "scout":
        n = 2 if state["first_player"] == ctx["seat"] else 1
    done = False
    for u in ctx["targets"]:
        if u in state["inplay"]:
            _lasting(state, {"target": u, "strength": n, "until": args[1], "source": ctx["cid"]}, events)
            done = True
    return done


def op_strength_host(state, ctx, args, events, rest):
    h = _host(state, ctx["src"])
    if h is None:
        return False
    _lasting(state, {"target": h, "strength": args[0], "until": args[1], "source": ctx["cid"]}, events)
    return True


def op_no_strength_target(state, ctx, args, events, rest):
    for u in ctx["targets"]:
        state["lasting"].append({"target": u, "no_str": True, "until": "challenge", "source": ctx["cid"]})
    return True


def op_remove_target_from_challenge(state, ctx, args, events, rest):
    for u in ctx["targets"]:
        if u in state["inplay"] and state["inplay"][u]["participating"]:
            remove_from_challenge(state, u)
            events.append({"type": "removed_from_challenge", "card": T.cid(state, u)})
            return True
    return False


def remove_from_challenge(state: State, uid: str) -> None:
    """L174: the character no longer participates; under revision 3 the challenge's record (its
    attackers and defenders, as the views show them) no longer lists it, so the side's STR, "the
    only attacking character" and the limits on defenders all read the characters left."""
    state["inplay"][uid]["participating"] = None
    ch = state.get("challenge")
    if ch and ch["live"] and put_right(state):
        for role in ("attackers", "defenders"):
            if uid in ch[role]:
                ch[role].remove(uid)


def participants(state: State, role: str) -> list[str]:
    """The challenge's characters still taking part as `role` (attacking | defending), in the order
    they joined (L173, L174)."""
    ch = state["challenge"]
    ins = state["inplay"]
    return [u for u in ch["attackers" if role == "attacking" else "defenders"]
            if u in ins and ins[u]["participating"] == role]


def op_reduce(state, ctx, args, events, rest):
    state["reductions"].append({"seat": ctx["seat"], "faction": args[0], "type": args[1], "amount": args[2]})
    return True


def op_claim(state, ctx, args, events, rest):
    state["lasting"].append({"seat": ctx["seat"], "claim": args[0], "until": "challenge", "source": ctx["cid"]})
    return True


def op_draw_if_win(state, ctx, args, events, rest):
    state["delayed"].append({"at": "challenge_won", "seat": ctx["seat"], "draw": args[0], "until": "challenge"})
    return True


def op_poison_target(state, ctx, args, events, rest):
    for u in ctx["targets"]:
        tok = state["inplay"][u]["tokens"]
        tok["poison"] = tok.get("poison", 0) + 1
        state["delayed"].append({"at": "phase_ended", "uid": u, "poison": True})
        events.append({"type": "token", "card": T.cid(state, u), "token": "poison"})
    return True


def op_discard_at_phase_end(state, ctx, args, events, rest):
    u = ctx.get("put")
    if u:
        state["delayed"].append({"at": "phase_ended", "uid": u, "discard": True})
    return True


def op_save_host(state, ctx, args, events, rest):
    h = ctx.get("host") or _host(state, ctx["src"])
    return h is not None and save(state, h, events)


def op_save_target(state, ctx, args, events, rest):
    return any([save(state, u, events) for u in ctx["targets"]])


def op_attach_self_to_target(state, ctx, args, events, rest):
    """Risen from the Sea becomes a Terminal Condition attachment giving +1 STR."""
    src, seat = ctx["src"], ctx["seat"]
    u = ctx["targets"][0]
    if u not in state["inplay"] or src not in state["players"][seat]["discard"]:
        return False
    state["players"][seat]["discard"].remove(src)
    T.enter_play(state, T.controller(state, u), src, host=u)
    events.append({"type": "attached", "seat": seat, "card": ctx["cid"], "on": T.cid(state, u)})
    return True


def op_cancel(state, ctx, args, events, rest):
    ev = ctx["ev"]
    fr = _frame(state, ev["frame"])
    if fr is None or fr["cancelled"]:
        return False
    fr["cancelled"] = True
    return True


def op_discard_all_characters(state, ctx, args, events, rest):
    request_leave(state, _chars(state), "discard", ctx["cid"], events)
    return True


def op_random_discard_loser(state, ctx, args, events, rest):
    loser = ctx["ev"]["loser"]
    p = state["players"][loser]
    if not p["hand"]:
        return False
    u = p["hand"].pop(rng.randbelow(state, len(p["hand"])))
    p["discard"].insert(0, u)
    events.append({"type": "discard", "seat": loser, "card": T.cid(state, u), "reason": ctx["cid"]})
    return True


def op_gold_per_opponent_character(state, ctx, args, events, rest):
    if ask_opponent(state, ctx, ["gold_per_opponent_character", *args], rest):
        return "wait"
    n = len(T.in_play(state, ctx["opp"], "character"))
    return op_gold(state, ctx, [n], events, rest)


def op_top_card_as_duplicate(state, ctx, args, events, rest):
    p = state["players"][ctx["seat"]]
    if not p["deck"] or ctx["src"] not in state["inplay"]:
        return False
    u = p["deck"].pop(0)
    p["pinned"] = max(0, p["pinned"] - 1)
    T.add_duplicate(state, ctx["src"], u)
    # facedown (Arya Stark): its controller may look at it (L55), nobody else; the event names it privately
    state.setdefault("facedown", []).append(u)
    events.append({"type": "duplicate_placed", "seat": ctx["seat"], "on": ctx["cid"], "facedown": True,
                   "private": {ctx["seat"]: [T.cid(state, u)]}})
    return True


def op_opponent_kills(state, ctx, args, events, rest):
    # The Queen's Assassin: "more cards in hand than an opponent, that player chooses and kills"
    if ask_opponent(state, ctx, ["opponent_kills", *args], rest, lambda o: _fewer_cards(state, ctx["seat"], o)):
        return "wait"
    opp = ctx["opp"]
    chars = T.in_play(state, opp, "character")
    if not chars:
        return False
    if len(chars) == 1:
        request_leave(state, chars, "dead", ctx["cid"], events)
        return True
    return _push_choice(state, opp, "kill", ctx, rest, count=1, options="own_characters_of_chooser")


def op_name_type(state, ctx, args, events, rest):
    return _push_choice(state, ctx["seat"], "challenge_type", ctx, rest, purpose=args[0])


def op_pick(state, ctx, args, events, rest):
    cands = candidates(state, ctx, args[0])
    if not cands and not state["options"]["every_window"]:
        return False
    return _push_choice(state, ctx["seat"], "card", ctx, rest, selector=args[0], then=args[1], optional=False)


def op_pick_many(state, ctx, args, events, rest):
    cands = candidates(state, ctx, args[0])
    if not cands and not state["options"]["every_window"]:
        return False
    return _push_choice(state, ctx["seat"], "cards", ctx, rest, selector=args[0], lo=args[1], hi=args[2], then=args[3])


def op_script(state, ctx, args, events, rest):
    return SCRIPTS[args[0]](state, ctx, events, rest)


OPS = {name[3:]: fn for name, fn in list(globals().items()) if name.startswith("op_")}


# ================================================================== scripts (the escape hatch)


def sc_heads_on_spikes(state, ctx, events, rest):
    if ask_opponent(state, ctx, ["script", "heads_on_spikes"], rest):
        return "wait"
    opp = ctx["opp"]
    p = state["players"][opp]
    if not p["hand"]:
        return False
    u = p["hand"].pop(rng.randbelow(state, len(p["hand"])))
    if T.card(state, u)["type"] == "character":
        p["dead"].insert(0, u)
        events.append({"type": "discard", "seat": opp, "card": T.cid(state, u), "reason": "heads_on_spikes", "to": "dead"})
        op_faction_power(state, ctx, [2], events, rest)
    else:
        p["discard"].insert(0, u)
        events.append({"type": "discard", "seat": opp, "card": T.cid(state, u), "reason": "heads_on_spikes"})
    return True


def sc_summons(state, ctx, events, rest):
    return _push_choice(state, ctx["seat"], "card", ctx, rest, selector="deck_top10_character", then="to_hand_shuffle",
                        optional=True)


def sc_return_all_gold(state, ctx, events, rest):
    for s in state["seats"]:
        state["players"][s]["gold"] = 0
    events.append({"type": "gold_returned", "card": ctx["cid"]})
    return True


def sc_wildfire_assault(state, ctx, events, rest):
    ctx["keep"] = {}
    return _wildfire_next(state, ctx, events, rest)


def _wildfire_next(state, ctx, events, rest):
    for s in T.player_order(state):
        if s in ctx["keep"]:
            continue
        chars = T.in_play(state, s, "character")
        if len(chars) <= 3 and not state["options"]["every_window"]:
            ctx["keep"][s] = list(chars)
            continue
        return _push_choice(state, s, "cards", ctx, rest, selector="own_characters", lo=0, hi=3, then="wildfire")
    doomed = [u for s in state["seats"] for u in T.in_play(state, s, "character") if u not in ctx["keep"][s]]
    request_leave(state, doomed, "dead", "wildfire_assault", events, savable=False)
    return True


def sc_tickler(state, ctx, events, rest):
    if ask_opponent(state, ctx, ["script", "tickler"], rest, lambda o: bool(state["players"][o]["deck"])):
        return "wait"
    opp = ctx["opp"]
    p = state["players"][opp]
    if not p["deck"]:
        return False
    u = p["deck"].pop(0)
    p["pinned"] = max(0, p["pinned"] - 1)
    p["discard"].insert(0, u)
    events.append({"type": "discard", "seat": opp, "card": T.cid(state, u), "reason": "the_tickler"})
    ctx["title"] = T.cid(state, u)
    if not any(T.cid(state, x) == ctx["title"] for s in state["seats"] for x in state["players"][s]["play"]):
        return True
    return _push_choice(state, ctx["seat"], "card", ctx, rest, selector="same_title_in_play", then="discard",
                        optional=True)


def sc_great_kraken(state, ctx, events, rest):
    return _push_choice(state, ctx["seat"], "mode", ctx, rest, modes=2, then="great_kraken")


def sc_gates_of_winterfell(state, ctx, events, rest):
    p = state["players"][ctx["seat"]]
    if not p["deck"]:
        return False
    u = p["deck"][0]
    events.append({"type": "revealed", "seat": ctx["seat"], "card": T.cid(state, u), "reason": "gates_of_winterfell"})
    if T.card(state, u)["faction"] == "stark":
        T.draw(state, ctx["seat"], 1, events)
    return True


def sc_olennas_cunning(state, ctx, events, rest):
    loser = ctx["ev"]["loser"]
    return _push_choice(state, loser, "card_type", ctx, rest)


def sc_bear_and_maiden(state, ctx, events, rest):
    return _push_choice(state, ctx["seat"], "seat", ctx, rest, then="bear")


SCRIPTS = {name[3:]: fn for name, fn in list(globals().items()) if name.startswith("sc_")}


# ================================================================== choices while resolving


def _fewer_cards(state: State, seat: str, o: str) -> bool:
    return len(state["players"][seat]["hand"]) > len(state["players"][o]["hand"])


def opponents_where(state: State, seat: str, ok=None) -> list[str]:
    """The opponents still in the game (seat order) for which `ok` holds (every one without `ok`)."""
    return [o for o in T.others(state, seat) if ok is None or ok(o)]


def ask_opponent(state: State, ctx: Ctx, op: list[Any], rest: list[Any], ok=None) -> bool:
    """A card saying "an opponent" (docs/rules-decisions.md, "Melee: 'an opponent'"): its player
    chooses which, among the opponents `ok` allows (hand sizes, decks and power are open; a hand's
    cards never enter the question). With one such opponent (the joust) nothing is asked. Sets
    ctx["opp"] and returns False, or pushes the choice (op runs again once answered) and returns True.
    The timeout default is the reading used before: `table.opponent`, if allowed, else the next
    allowed opponent in player order."""
    if ctx.get("opp") in T.others(state, ctx["seat"]):
        return False
    seat = ctx["seat"]
    legal = opponents_where(state, seat, ok)
    usual = T.opponent(state, seat)
    if len(legal) <= 1:
        ctx["opp"] = legal[0] if legal else usual
        return False
    if usual not in legal:
        seats = state["seats"]
        i = seats.index(seat)
        usual = next(s for s in seats[i + 1:] + seats[:i] if s in legal)
    _push_choice(state, seat, "opponent", ctx, [op, *rest], opponents=legal, usual=usual)
    return True


def _push_choice(state, seat, what, ctx, rest, **kw):
    state["queue"].append({"f": "choose", "id": new_id(state), "seat": seat, "what": what, "ctx": ctx,
                           "rest": rest, **kw})
    return "wait"


def choice_options(state: State, fr: dict[str, Any]) -> list[str]:
    """The cards a `card`/`cards`/`kill` choice may name (computed now, never stored: some are
    in hidden zones)."""
    ctx = fr["ctx"]
    seat = fr["seat"]
    sel = fr.get("selector") or fr.get("options")
    if sel == "deck_top10_character":
        return [u for u in state["players"][seat]["deck"][:10] if T.card(state, u)["type"] == "character"]
    if sel == "same_title_in_play":
        return [u for s in state["seats"] for u in state["players"][s]["play"] if T.cid(state, u) == ctx["title"]]
    if sel == "own_characters_of_chooser" or (fr["what"] == "cards" and fr.get("then") == "wildfire"):
        return T.in_play(state, seat, "character")
    if sel == "deck_not_type":
        return [u for u in state["players"][seat]["deck"] if T.card(state, u)["type"] != ctx["named_type"]]
    if sel == "bear_top5":
        return list(state["players"][ctx["bear_seat"]]["deck"][:5])
    if sel == "bear_rest":
        return list(state["players"][ctx["bear_seat"]]["deck"][:ctx["bear_rest"]])
    return candidates(state, dict(ctx, seat=seat), sel)


def _ask_choice(state: State, fr: dict[str, Any], events: list[Event]) -> None:
    if not fr.get("asked"):
        fr["asked"] = True
        if fr.get("then") == "bear" and fr["what"] == "cards":
            top = choice_options(state, fr)
            events.append({"type": "look", "seat": fr["seat"], "deck": fr["ctx"]["bear_seat"], "count": len(top),
                           "private": {fr["seat"]: [T.cid(state, u) for u in top]}})
    d: dict[str, Any] = {"kind": "kill" if fr["what"] == "kill" else "choose", "seats": [fr["seat"]],
                         "what": fr["what"], "card": fr["ctx"]["cid"]}
    if fr["what"] == "kill":
        d["count"] = fr["count"]
    if fr["what"] == "cards":
        d["min"], d["max"] = fr["lo"], fr["hi"]
    if fr["what"] == "x":
        d["min"], d["max"] = fr["values"][0], fr["values"][-1]
    if fr["what"] == "order":
        d["count"] = fr["count"]  # how many cards, never which (§5.2)
    if fr.get("optional"):
        d["optional"] = True
    state["decision"] = d


def choice_legal(state: State, seat: str) -> list[Any] | None:
    """The legal `choose` values of the pending choice (None: too many to list)."""
    import itertools

    fr = state["stack"][-1]
    w = fr["what"]
    if w in ("challenge_type",):
        return ["military", "intrigue", "power"]
    if w == "card_type":
        return ["character", "location", "attachment", "event"]
    if w == "mode":
        return list(range(fr["modes"]))
    if w == "seat":
        return list(state["seats"])
    if w == "opponent":
        return [o for o in fr["opponents"] if o in T.others(state, fr["seat"])]
    if w == "x":
        return list(fr["values"])
    if w == "order":
        ids = [T.cid(state, u) for u in choice_options(state, fr)]
        return [list(p) for p in dict.fromkeys(itertools.permutations(ids))]
    opts = [_name(state, u, seat) for u in choice_options(state, fr)]
    if w in ("target", "kneel_cost"):
        return opts
    if w == "card":
        return ([None] if fr.get("optional") or not opts else []) + opts
    if w == "kill":
        return [[o] for o in opts]
    if len(opts) > 8:
        return None
    hi = min(fr["hi"], len(opts))
    return [list(c) for r in range(fr["lo"], hi + 1) for c in itertools.combinations(opts, r)]


def choice_default(state: State, seat: str) -> Any:
    """§5.3: a "may" declines; a mandatory pick takes the lowest printed cost, then id order."""
    fr = state["stack"][-1]
    w = fr["what"]
    if w == "challenge_type":
        return "military"
    if w == "card_type":
        return "character"
    if w in ("mode",):
        return 0
    if w == "seat":
        return seat
    if w == "opponent":
        return fr["usual"]
    if w == "x":
        return fr["values"][0]  # the lowest legal X
    if w == "order":
        return [T.cid(state, u) for u in choice_options(state, fr)]  # the order they were in
    opts = sorted(choice_options(state, fr), key=lambda u: (_printed(state, u, "cost"), T.cid(state, u),
                                                             int(u[1:])))
    if w in ("target", "kneel_cost"):
        return _name(state, opts[0], seat)
    if w == "card":
        return None if fr.get("optional") or not opts else _name(state, opts[0], seat)
    if w == "kill":
        return [_name(state, opts[0], seat)]
    if fr.get("then") == "wildfire":
        strongest = sorted(opts, key=lambda u: (-_printed(state, u, "cost"), int(u[1:])))[:fr["hi"]]
        return [_name(state, u, seat) for u in choice_options(state, fr) if u in strongest]
    return []


def answer(state: State, seat: str, value: Any, events: list[Event]) -> None:
    """A `choose` (or `kill`) act answering the choice on top of the stack."""
    fr = state["stack"][-1]
    ctx, w = fr["ctx"], fr["what"]
    if w == "challenge_type":
        if value not in ("military", "intrigue", "power"):
            refuse(gettext("name a challenge type: military, intrigue or power"))
        _done_choice(state, fr)
        if fr.get("purpose") == "calm":
            state["lasting"].append({"seat": ctx["seat"], "calm": value, "until": "plot", "source": ctx["cid"]})
        else:
            state["lasting"].append({"seat": ctx["seat"], "extra_challenge": value, "until": "phase",
                                     "source": ctx["cid"]})
        events.append({"type": "named", "seat": seat, "card": ctx["cid"], "challenge": value})
        run_ops(state, ctx, fr["rest"], events)
        return
    if w == "card_type":
        if value not in ("character", "location", "attachment", "event"):
            refuse(gettext("name a card type: character, location, attachment or event"))
        _done_choice(state, fr)
        events.append({"type": "named", "seat": seat, "card": ctx["cid"], "card_type": value})
        ctx["named_type"] = value
        _push_choice(state, ctx["seat"], "card", ctx, fr["rest"], selector="deck_not_type", then="to_hand_shuffle",
                     optional=True)
        return
    if w == "mode":
        if isinstance(value, bool) or not isinstance(value, int) or value not in range(fr["modes"]):
            refuse(gettext("choose a mode, 0 to %(n)s") % {"n": fr["modes"] - 1})
        _done_choice(state, fr)
        if value == 0:
            T.draw(state, ctx["seat"], 1, events)
        else:
            op_faction_power(state, ctx, [1], events, [])
        run_ops(state, ctx, fr["rest"], events)
        return
    if w == "opponent":
        if not isinstance(value, str) or value not in fr["opponents"] or value not in T.others(state, fr["seat"]):
            refuse(gettext("choose one of the opponents listed"))
        _done_choice(state, fr)
        ctx["opp"] = value
        events.append({"type": "named", "seat": seat, "card": ctx["cid"], "opponent": value})
        run_ops(state, ctx, fr["rest"], events)
        return
    if w == "seat":
        if value not in state["seats"]:
            refuse(gettext("choose a seat"))
        _done_choice(state, fr)
        ctx["bear_seat"] = value
        _push_choice(state, ctx["seat"], "cards", ctx, fr["rest"], selector="bear_top5", lo=0, hi=3, then="bear")
        return
    if w == "x":
        if not isinstance(value, int) or isinstance(value, bool):
            raise EngineError("bad_action", gettext("choose takes a number (X)"))
        if value not in fr["values"]:
            refuse(gettext("X: %(lo)s to %(hi)s (L134, L136)") % {"lo": fr["values"][0], "hi": fr["values"][-1]})
        _done_choice(state, fr)
        ctx["x"] = value
        events.append({"type": "named", "seat": seat, "card": ctx["cid"], "x": value})
        a = live_specs(state, ctx["src"])[ctx["i"]]
        _push_choice(state, seat, "target", ctx, [], selector=a["target"], timing=fr["timing"])
        return
    if w == "order":
        _answer_order(state, fr, seat, value, events)
        return
    opts = choice_options(state, fr)
    if w in ("target", "kneel_cost"):
        u = resolve_name(state, seat, value)
        if u not in opts:
            refuse(gettext("%(card)s is not a valid choice (L136-L141)") % {"card": shown_name(value)})
        _done_choice(state, fr)
        if w == "target":
            ctx["targets"] = [u]
        else:
            ctx.setdefault("cost_cards", {})[fr["cost"]] = u
        _proceed(state, ctx, fr["timing"], events)
        return
    if w == "card":
        if value is None:
            if not fr.get("optional") and opts:
                refuse(gettext("this choice is not optional"))
            _done_choice(state, fr)
            _finish_card_choice(state, fr, None, events)
            return
        u = resolve_name(state, seat, value)
        if u not in opts:
            refuse(gettext("%(card)s is not a valid choice") % {"card": shown_name(value)})
        _done_choice(state, fr)
        _finish_card_choice(state, fr, u, events)
        return
    if w in ("cards", "kill"):
        if not isinstance(value, list):
            raise EngineError("bad_action", gettext("this takes a list of cards"))
        uids = []
        for v in value:
            u = resolve_name(state, seat, v)
            if isinstance(v, dict) and "zone" in v and (u in uids or u not in opts):
                # two copies of one card in a hidden zone are named alike: take the next one offered
                u = next((x for x in opts if x not in uids and T.cid(state, x) == T.cid(state, u)), u)
            uids.append(u)
        if len(set(uids)) != len(uids) or any(u not in opts for u in uids):
            refuse(gettext("not valid choices"))
        lo, hi = (fr["count"], fr["count"]) if w == "kill" else (fr["lo"], fr["hi"])
        if not lo <= len(uids) <= hi:
            refuse(gettext("choose %(lo)s to %(hi)s cards") % {"lo": lo, "hi": hi})
        _done_choice(state, fr)
        if w == "kill":
            request_leave(state, uids, "dead", ctx["cid"], events)
            run_ops(state, ctx, fr["rest"], events)
            return
        then = fr["then"]
        if then == "wildfire":
            ctx["keep"][seat] = uids
            _wildfire_next(state, ctx, events, fr["rest"])
            return
        if then == "shuffle_into_deck":
            p = state["players"][seat]
            for u in uids:
                p["discard"].remove(u)
                p["deck"].append(u)
            rng.shuffle(state, p["deck"], p["pinned"])
            events.append({"type": "shuffled_into_deck", "seat": seat, "cards": [T.cid(state, u) for u in uids]})
        elif then == "bear":
            p = state["players"][ctx["bear_seat"]]
            rest = len(choice_options(state, fr)) - len(uids)
            for u in uids:
                p["deck"].remove(u)
                p["deck"].append(u)
            p["pinned"] = 0
            events.append({"type": "to_bottom", "seat": ctx["bear_seat"], "count": len(uids), "by": seat})
            if rest > 1:
                # "the rest on top, in whatever order you choose"
                ctx["bear_rest"] = rest
                _push_choice(state, seat, "order", ctx, fr["rest"], selector="bear_rest", count=rest, then="bear")
                return
        run_ops(state, ctx, fr["rest"], events)
        return
    refuse(gettext("nothing to choose"))


def _answer_order(state: State, fr: dict[str, Any], seat: str, value: Any, events: list[Event]) -> None:
    """The Bear and the Maiden Fair: the cards left on top, in the order chosen (top first). The
    order is never shown to the other seat nor logged (§5.2)."""
    ctx = fr["ctx"]
    top = choice_options(state, fr)
    if not isinstance(value, list):
        raise EngineError("bad_action", gettext("choose takes the cards in their new order, top first"))
    ids = [v.get("card") if isinstance(v, dict) else v for v in value]
    pool = list(top)
    order = []
    for cid in ids:
        u = next((x for x in pool if T.cid(state, x) == cid), None)
        if u is None:
            refuse(gettext("name each card left on top once, top first"))
        pool.remove(u)
        order.append(u)
    if pool:
        refuse(gettext("name each card left on top once, top first"))
    _done_choice(state, fr)
    p = state["players"][ctx["bear_seat"]]
    p["deck"][:len(order)] = order
    events.append({"type": "reordered", "seat": ctx["bear_seat"], "count": len(order), "by": seat})
    run_ops(state, ctx, fr["rest"], events)


def _done_choice(state: State, fr: dict[str, Any]) -> None:
    state["stack"].remove(fr)
    state["decision"] = None


def _finish_card_choice(state: State, fr: dict[str, Any], u: str | None, events: list[Event]) -> None:
    ctx, then, seat = fr["ctx"], fr["then"], fr["seat"]
    if then == "to_hand_shuffle":
        p = state["players"][seat]
        if u is not None:
            p["deck"].remove(u)
            p["hand"].append(u)
            events.append({"type": "revealed", "seat": seat, "card": T.cid(state, u), "reason": ctx["cid"]})
        rng.shuffle(state, p["deck"], 0)
        p["pinned"] = 0
    elif u is None:
        return
    elif then == "discard":
        request_leave(state, [u], "discard", ctx["cid"], events)
    elif then == "put_into_play":
        _put_into_play(state, seat, u, events)
    run_ops(state, ctx, fr["rest"], events)


# ================================================================== timing points


def _delayed_on(state: State, ev: Event, events: list[Event]) -> None:
    """L108: delayed effects resolve as their condition occurs, before reactions."""
    keep = []
    fired = []
    for d in state["delayed"]:
        if d["at"] == ev["t"] and (ev["t"] != "phase_ended" or True):
            fired.append(d)
        else:
            keep.append(d)
    if not fired:
        return
    state["delayed"] = keep
    for d in fired:
        if ev["t"] == "challenge_won":
            if ev.get("winner") == d["seat"]:
                T.draw(state, d["seat"], d["draw"], events)
        elif d.get("poison"):
            u = d["uid"]
            if u in state["inplay"] and state["inplay"][u]["tokens"].get("poison"):
                state["inplay"][u]["tokens"]["poison"] -= 1
                if not state["inplay"][u]["tokens"]["poison"]:
                    del state["inplay"][u]["tokens"]["poison"]
                request_leave(state, [u], "dead", "tears_of_lys", events)
        elif d.get("discard"):
            if d["uid"] in state["inplay"]:
                if put_right(state):  # "it cannot be saved": the leave-play interrupts still answer it
                    request_leave(state, [d["uid"]], "discard", "hear_me_roar", events, savable=False)
                else:
                    leave_now(state, [d["uid"]], "discard", "hear_me_roar", events)


def phase_began(state: State, phase: str, events: list[Event]) -> None:
    emit(state, {"t": "phase_began", "phase": phase}, events)


def phase_ended(state: State, phase: str, events: list[Event]) -> None:
    """L85, L149: "when the phase ends" (delayed effects, forced interrupts, the interrupt window);
    lasting effects until the end of the phase expire; phase limits start afresh."""
    if put_right(state):
        # L149: lasting effects "until the end of the phase" expire exactly when it ends, before the
        # "when the phase ends" abilities (delayed effects, forced interrupts, the window)
        state["lasting"] = [e for e in state["lasting"] if e["until"] not in ("challenge", "phase")]
    emit(state, {"t": "phase_ended", "phase": phase}, events, timing="interrupt")
    expire(state, "phase")


def expire(state: State, period: str) -> None:
    periods = {"challenge": ("challenge",), "phase": ("challenge", "phase"),
               "round": ("challenge", "phase", "round")}[period]
    state["lasting"] = [e for e in state["lasting"] if e["until"] not in periods]
    state["delayed"] = [d for d in state["delayed"] if d.get("until") not in periods]
    for p in periods:
        state["limits"][p] = {}
    if period in ("phase", "round"):
        state["reductions"] = []


def plot_revealed(state: State, seats: list[str]) -> None:
    """Calm over Westeros lasts until its seat reveals another plot."""
    state["lasting"] = [e for e in state["lasting"] if not (e["until"] == "plot" and e.get("seat") in seats)]


def when_revealed(state: State, events: list[Event]) -> None:
    """L58 III: the new plots' when-revealed abilities, in player order (the first player's first;
    the timeout order of §5.3), each resolving completely before the next."""
    items = []
    for seat in T.player_order(state):
        pu = state["players"][seat]["plot"]
        if pu is None:
            continue
        for i, a in enumerate(ABILITIES.get(T.cid(state, pu), ())):
            if a["kind"] == "when_revealed":
                ctx = {"src": pu, "cid": T.cid(state, pu), "i": i, "seat": seat, "ev": None, "targets": [],
                       "no_cancel": True}
                items.append((ctx, a["effect"]))
    queue_ordered(state, items)
