"""The acts of SCENARIOS.md "lcg": checking them (error codes and the rule that refuses) and
carrying them out; the legal options of a window; the entry rules for a card (L12, L196, L200,
L219-L222)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import fields as F
from games.engine.base import EngineError
from games.engine.lcg import abilities as A
from games.engine.lcg import flow, melee
from games.engine.lcg import table as T
from games.engine.narration import gettext, ngettext, term

State = dict[str, Any]
Event = dict[str, Any]

# act key -> the decision kinds it answers
ANSWERS = {
    "mulligan": ("mulligan",), "setup": ("setup",), "plot": ("plot",), "first_player": ("first_player",),
    "marshal": ("action",), "play": ("action", "interrupt", "reaction"), "trigger": ("action", "interrupt", "reaction"),
    "ambush": ("action",), "pass": ("action", "interrupt", "reaction", "challenge"), "challenge": ("challenge",),
    "defenders": ("defenders",), "kill": ("kill",), "discard": ("discard",), "renown": ("renown",),
    "insight": ("insight",), "pillage": ("pillage",), "intimidate": ("intimidate",), "order": ("order",),
    "winner": ("winner",), "choose": ("choose",),
}


def refuse(reason: str) -> None:
    """An illegal act: the reason in the reader's language (games.engine.narration's words: English in
    the engine, the request's language on the site; issue 29)."""
    raise EngineError("illegal_action", reason)


def type_word(card_type: str) -> str:
    """A card type as the reader's language writes it ('event', 'Evento')."""
    return term("lcg", card_type, "card_type")


def icon_word(ctype: str) -> str:
    return term("lcg", ctype, "challenge")


def either(items: list[str]) -> str:
    """'Knight or Lord' (in the reader's language)."""
    out = ""
    for item in items:
        out = item if not out else gettext("%(either)s or %(other)s") % {"either": out, "other": item}
    return out


# ------------------------------------------------------------------ entry rules


def entry_problem(state: State, seat: str, uid: str, host: str | None, *, marshal: bool) -> tuple[str | None, bool]:
    """(why the card cannot come into play now, or None; whether it comes in as a duplicate)."""
    c = T.card(state, uid)
    if c["type"] not in ("character", "location", "attachment"):
        return gettext("%(card)s is an %(type)s: only characters, locations and attachments come into play") % {
            "card": c["name"], "type": type_word(c["type"])}, False
    p = state["players"][seat]
    duplicate = False
    if c["unique"]:
        if any(T.cid(state, u) == c["id"] for u in p["dead"]):
            return gettext("%(card)s is unique and a copy is in your dead pile (L219)") % {"card": c["name"]}, False
        duplicate = any(T.cid(state, u) == c["id"] and T.owner(state, u) == seat for u in p["play"])
    if duplicate:
        if host is not None:
            return gettext("%(card)s comes in as a duplicate of your copy in play, not attached (L220)") % {
                "card": c["name"]}, True
        return None, True
    if marshal and c["keywords"].get("limited") and p["limited"] >= A.limited_allowance(state, seat):
        return gettext("you already marshaled or played a Limited card this round (L196)"), False
    if c["type"] == "attachment":
        if host is None:
            return gettext("%(card)s is an attachment: name the character it goes on") % {"card": c["name"]}, False
        why = attach_problem(state, uid, host)
        if why:
            return why, False
    elif host is not None:
        return gettext("%(card)s is not an attachment") % {"card": c["name"]}, False
    return None, False


def attach_problem(state: State, uid: str, host: str) -> str | None:
    """L29-L30, L200: a character in play, the attachment's restriction, the host's."""
    a, h = T.card(state, uid), T.card(state, host)
    if h["type"] != "character":
        return gettext("%(card)s can only be attached to a character (L30)") % {"card": a["name"]}
    only = a.get("attach_only_to") or {}
    if only.get("traits_any") and not set(only["traits_any"]) & set(h["traits"]):
        return gettext("%(card)s can only be attached to a %(traits)s character") % {
            "card": a["name"], "traits": either(only["traits_any"])}
    if only.get("faction") and h["faction"] != only["faction"]:
        return gettext("%(card)s can only be attached to a %(faction)s character") % {"card": a["name"], "faction": only["faction"]}
    if h["keywords"].get("no_attachments"):
        return gettext("%(card)s has No attachments (L200)") % {"card": h["name"]}
    allowed = h.get("no_attachments_except_traits")
    if allowed and not set(allowed) & set(a["traits"]):
        return gettext("%(card)s only takes %(traits)s attachments (L200)") % {"card": h["name"], "traits": either(allowed)}
    return None


def cost_of(state: State, uid: str) -> int:
    cost = T.card(state, uid).get("cost")
    return cost if isinstance(cost, int) else 0


def _hosts(state: State) -> list[str]:
    return [u for s in state["seats"] for u in T.in_play(state, s, "character")]


def _entries(state: State, seat: str, uid: str, *, marshal: bool) -> list[str | None]:
    """The hosts (None: no host) with which the card could come into play now."""
    c = T.card(state, uid)
    if c["type"] == "attachment":
        why, dup = entry_problem(state, seat, uid, None, marshal=marshal)
        if dup and why is None:
            return [None]
        return [h for h in _hosts(state) if entry_problem(state, seat, uid, h, marshal=marshal)[0] is None]
    return [None] if entry_problem(state, seat, uid, None, marshal=marshal)[0] is None else []


def window_actions(state: State, seat: str, first_only: bool = False) -> list[dict[str, Any]]:
    """The seat's legal acts in the open action window, besides pass."""
    w = state["window"]
    if w is None:
        return []
    out: list[dict[str, Any]] = []
    p = state["players"][seat]
    seen: set[str] = set()
    if w["name"] == "marshaling" and state["active"] == seat:
        for u in p["hand"]:
            cid = T.cid(state, u)
            if cid in seen:
                continue
            seen.add(cid)
            if A.marshal_cost(state, seat, u) > p["gold"] and not (T.card(state, u)["unique"] and any(
                    state["uids"][v][0] == cid and state["uids"][v][1] == seat for v in p["play"])):
                continue  # not paid for, nor a duplicate of its own copy in play (free, L220): no entry
            for host in _entries(state, seat, u, marshal=True):
                dup = entry_problem(state, seat, u, host, marshal=True)[1]
                if (0 if dup else A.marshal_cost(state, seat, u)) <= p["gold"]:
                    out.append({"marshal": cid if host is None else {"card": cid, "on": _host_name(state, host)}})
                    if first_only:
                        return out
    elif w["name"] in flow.CHALLENGE_WINDOWS:
        for u in p["hand"]:
            cid = T.cid(state, u)
            if cid in seen:
                continue
            seen.add(cid)  # another copy has the same ambush value
            x = A.ambush_value(state, seat, u)
            if x is None or x > p["gold"]:
                continue
            for host in _entries(state, seat, u, marshal=False):
                out.append({"ambush": cid if host is None else {"card": cid, "on": _host_name(state, host)}})
                if first_only:
                    return out
    out.extend(A.options(state, seat, "action", None, first_only=first_only and not out))
    return out


def _host_name(state: State, host: str) -> Any:
    seat = T.controller(state, host)
    return {"card": T.copy_names(state, seat)[host], "seat": seat}


# ------------------------------------------------------------------ apply


def apply(state: State, seat: str, act: dict[str, Any], events: list[Event]) -> None:
    """Check and carry out one act on `state` (a copy the caller owns)."""
    kind = next(iter(act))
    d = state["decision"]
    if d is None or seat not in d["seats"] or d["kind"] not in ANSWERS[kind]:
        asked = d["kind"] if d and seat in d["seats"] else None
        raise EngineError("not_your_turn", (gettext("%(seat)s is not asked for %(kind)s now (asked: %(asked)s)")
                                            if asked else gettext("%(seat)s is not asked for %(kind)s now")) % {
            "seat": seat, "kind": kind, "asked": asked})
    value = act[kind]
    HANDLERS[kind](state, seat, value, events)


def _mulligan(state: State, seat: str, value: Any, events: list[Event]) -> None:
    if not isinstance(value, bool):
        raise EngineError("bad_action", gettext("mulligan takes true or false"))
    state["decision"] = None
    flow.mulligan(state, seat, value, events)


def setup_has_choice(state: State, seat: str) -> bool:
    """Whether the seat could place at least one setup card (else `setup` is not asked)."""
    p = state["players"][seat]
    for u in p["hand"]:
        c = T.card(state, u)
        if c["type"] in ("character", "location") and cost_of(state, u) <= SETUP_LIMIT:
            return True
    return False


SETUP_LIMIT = flow.SETUP_LIMIT


def check_setup(state: State, seat: str, value: Any) -> list[dict[str, Any]]:
    """L12: characters, locations and attachments from hand; printed cost at most 8; one Limited;
    duplicates of a unique card placed free; each attachment on one of the seat's placed
    characters, legally."""
    if not isinstance(value, list):
        raise EngineError("bad_action", gettext("setup takes a list of cards ([] for none)"))
    p = state["players"][seat]
    available = list(p["hand"])
    entries: list[dict[str, Any]] = []
    total = 0
    limited = 0
    placed_ids: list[str] = []
    for raw in value:
        host_name = None
        if isinstance(raw, dict):
            if set(raw) - {"card", "on"} or not isinstance(raw.get("card"), str):
                raise EngineError("bad_action", gettext("setup: a card is an id or {card: id, on: id}"))
            name, host_name = raw["card"], raw.get("on")
        elif isinstance(raw, str):
            name = raw
        else:
            raise EngineError("bad_action", gettext("setup: a card is an id or {card: id, on: id}"))
        uid = next((u for u in available if T.cid(state, u) == name), None)
        if uid is None:
            refuse(gettext("%(card)s is not in your hand (or not that many copies)") % {"card": name})
        available.remove(uid)
        c = T.card(state, uid)
        if c["type"] not in ("character", "location", "attachment"):
            refuse(gettext("%(card)s is an %(type)s: setup cards are characters, locations and attachments (L12)") % {
                "card": c["name"], "type": type_word(c["type"])})
        duplicate = c["unique"] and name in placed_ids
        if c["unique"] and any(T.cid(state, u) == name for u in p["dead"]):
            refuse(gettext("%(card)s is unique and a copy is in your dead pile (L219)") % {"card": c["name"]})
        entry = {"uid": uid, "host": None, "duplicate": duplicate}
        if duplicate:
            if host_name is not None:
                refuse(gettext("%(card)s is placed as a duplicate, not attached (L220)") % {"card": c["name"]})
        else:
            total += cost_of(state, uid)
            if c["keywords"].get("limited"):
                limited += 1
            if c["type"] == "attachment":
                if host_name is None:
                    refuse(gettext("%(card)s is an attachment: name the character it goes on") % {"card": c["name"]})
                index = _setup_host(state, entries, host_name)
                if index is None:
                    refuse(gettext("%(card)s: %(host)s is not one of your setup characters (L12)") % {
                        "card": c["name"], "host": host_name})
                why = attach_problem(state, uid, entries[index]["uid"])
                if why:
                    refuse(why)
                entry["host"] = index
            elif host_name is not None:
                refuse(gettext("%(card)s is not an attachment") % {"card": c["name"]})
            placed_ids.append(name)
        entries.append(entry)
    if total > SETUP_LIMIT:
        refuse(gettext("setup cards cost %(total)s in all; at most %(limit)s (L12)") % {"total": total, "limit": SETUP_LIMIT})
    if limited > 1:
        refuse(gettext("at most one Limited card at setup (L12)"))
    return entries


def _setup_host(state: State, entries: list[dict[str, Any]], name: Any) -> int | None:
    if not isinstance(name, str):
        raise EngineError("bad_action", gettext("setup: 'on' names a character placed before it"))
    base, n = T.copy_number(name)
    k = 0
    for i, e in enumerate(entries):
        if not e["duplicate"] and e["host"] is None and T.cid(state, e["uid"]) == base \
                and T.card(state, e["uid"])["type"] == "character":
            k += 1
            if k == n:
                return i
    return None


def _setup(state: State, seat: str, value: Any, events: list[Event]) -> None:
    entries = check_setup(state, seat, value)
    state["players"][seat]["setup_cards"] = entries
    events.append({"type": "setup_chosen", "seat": seat})
    d = state["decision"]
    d["seats"].remove(seat)
    if not d["seats"]:
        state["decision"] = None
        flow.goto(state, "setup_reveal")


def _plot(state: State, seat: str, value: Any, events: list[Event]) -> None:
    if not isinstance(value, str):
        raise EngineError("bad_action", gettext("plot takes a plot id"))
    p = state["players"][seat]
    uid = next((u for u in p["plots"] if T.cid(state, u) == value), None)
    if uid is None:
        refuse(gettext("%(card)s is not in your plot deck") % {"card": value})
    flow.choose_plot(state, seat, uid, events)


def _first_player(state: State, seat: str, value: Any, events: list[Event]) -> None:
    if value not in T.alive(state):
        raise EngineError("bad_action" if not isinstance(value, str) else "illegal_action",
                          gettext("first_player is one of %(seats)s") % {"seats": ", ".join(state["seats"])})
    flow.choose_first_player(state, seat, value, events)


def _card_and_host(state: State, seat: str, value: Any, key: str) -> tuple[str, str | None]:
    if isinstance(value, str):
        return T.find_in_hand(state, seat, value), None
    if isinstance(value, dict) and isinstance(value.get("card"), str) and not set(value) - {"card", "on", "x"}:
        uid = T.find_in_hand(state, seat, value["card"])
        host = None
        if value.get("on") is not None:
            order = [seat] + T.others(state, seat)
            host = T.find_in_play(state, value["on"], order, "character") \
                if not isinstance(value["on"], dict) else T.find_in_play(state, value["on"], order)
        return uid, host
    raise EngineError("bad_action", gettext("%(key)s takes a card id or {card: id, on: host}") % {"key": key})


def _marshal(state: State, seat: str, value: Any, events: list[Event]) -> None:
    """L68, L221: the active seat, in the marshaling window, pays the cost."""
    if state["window"] is None or state["window"]["name"] != "marshaling":
        refuse(gettext("cards are marshaled only in the marshaling phase (L221)"))
    if state["active"] != seat:
        refuse(gettext("only the active player marshals (L68)"))
    uid, host = _card_and_host(state, seat, value, "marshal")
    why, dup = entry_problem(state, seat, uid, host, marshal=True)
    if why:
        refuse(why)
    cost = 0 if dup else A.marshal_cost(state, seat, uid)
    p = state["players"][seat]
    if cost > p["gold"]:
        refuse(gettext("%(card)s costs %(cost)s gold; you have %(gold)s") % {"card": T.card(state, uid)["name"], "cost": cost,
                                                                             "gold": p["gold"]})
    if not dup:
        A.marshal_cost(state, seat, uid, consume=True)
    p["gold"] -= cost
    _bring_in(state, seat, uid, host, dup, events, "marshal")
    if not dup and T.card(state, uid)["keywords"].get("limited"):
        p["limited"] += 1
    flow.window_acted(state, seat)
    state["decision"] = None
    _maybe_bestow(state, seat, uid, dup)
    A.emit(state, {"t": "marshaled", "uid": uid, "seat": seat}, events)
    if not dup:
        A.emit(state, {"t": "entered", "uid": uid, "how": "marshal"}, events)


def _bring_in(state: State, seat: str, uid: str, host: str | None, dup: bool, events: list[Event], how: str) -> None:
    p = state["players"][seat]
    p["hand"].remove(uid)
    cid = T.cid(state, uid)
    if dup:
        original = next(u for u in p["play"] if T.cid(state, u) == cid)
        T.add_duplicate(state, original, uid)
    else:
        T.enter_play(state, seat, uid, host=host, kneeling=A.enters_kneeling(state, uid))
    events.append({"type": how, "seat": seat, "card": cid, "duplicate": dup,
                   "on": T.cid(state, host) if host else None})


def _maybe_bestow(state: State, seat: str, uid: str, dup: bool) -> None:
    """L193: as the card enters play its controller may move up to X gold onto it."""
    x = T.card(state, uid)["keywords"].get("bestow")
    gold = state["players"][seat]["gold"]
    if dup or not x or gold <= 0:
        return
    flow.ask(state, "choose", [seat], what="bestow", card=uid, max=min(int(x), gold))


def _ambush(state: State, seat: str, value: Any, events: list[Event]) -> None:
    """L192: in a challenges-phase window, pay X to put the card into play (not marshaled)."""
    if state["window"] is None or state["window"]["name"] not in flow.CHALLENGE_WINDOWS:
        refuse(gettext("ambush is a player action of the challenges phase (L192)"))
    uid, host = _card_and_host(state, seat, value, "ambush")
    x = A.ambush_value(state, seat, uid)
    if x is None:
        refuse(gettext("%(card)s has no ambush") % {"card": T.card(state, uid)["name"]})
    if isinstance(value, dict) and value.get("x") is not None and not F.same(value["x"], x):
        refuse(gettext("%(card)s has ambush %(x)s") % {"card": T.card(state, uid)["name"], "x": x})
    why, dup = entry_problem(state, seat, uid, host, marshal=False)
    if why:
        refuse(why)
    p = state["players"][seat]
    if x > p["gold"]:
        refuse(gettext("ambush costs %(cost)s gold; you have %(gold)s") % {"cost": x, "gold": p["gold"]})
    p["gold"] -= x
    _bring_in(state, seat, uid, host, dup, events, "ambush")
    flow.window_acted(state, seat)
    state["decision"] = None
    _maybe_bestow(state, seat, uid, dup)
    if not dup:
        state["inplay"][uid]["ambushed"] = [state["round"], state["phase"]]
        A.emit(state, {"t": "entered", "uid": uid, "how": "ambush"}, events)


def _play(state: State, seat: str, value: Any, events: list[Event]) -> None:
    name = value.get("card") if isinstance(value, dict) else value
    if not isinstance(name, str):
        raise EngineError("bad_action", gettext("play takes a card id or {card: id, ...}"))
    uid = T.find_in_hand(state, seat, name)
    c = T.card(state, uid)
    if c["type"] != "event":
        refuse(gettext("%(card)s is not an event: characters, locations and attachments are marshaled") % {"card": c["name"]})
    if c["synthetic"] or c.get("ability") is None:
        refuse(gettext("%(card)s has no ability: it could not change the game state (L124)") % {"card": c["name"]})
    A.initiate(state, seat, "play", value, events)


def _trigger(state: State, seat: str, value: Any, events: list[Event]) -> None:
    A.initiate(state, seat, "trigger", value, events)


def _pass(state: State, seat: str, value: Any, events: list[Event]) -> None:
    if value is not True:
        raise EngineError("bad_action", gettext("pass takes true"))
    d = state["decision"]
    state["decision"] = None
    if d["kind"] == "challenge":
        events.append({"type": "no_challenge", "seat": seat})
        flow.goto(state, "challenge_next_player")
        return
    if d["kind"] in ("interrupt", "reaction"):
        A.window_pass(state, seat)
        return
    flow.window_pass(state, seat)


def _names(value: Any, key: str) -> list[Any]:
    if not isinstance(value, list):
        raise EngineError("bad_action", gettext("%(key)s takes a list of cards") % {"key": key})
    return value


def _distinct(uids: list[str], key: str) -> None:
    if len(set(uids)) != len(uids):
        refuse(gettext("%(what)s: the same card twice") % {"what": key})


def _challenge(state: State, seat: str, value: Any, events: list[Event]) -> None:
    """L169, L172, L199: the whole initiation in one act."""
    if not isinstance(value, dict) or set(value) - {"type", "attackers", "stealth", "opponent"}:
        raise EngineError("bad_action", gettext("challenge takes {type, attackers, stealth?, opponent?}"))
    ctype = value.get("type")
    if ctype not in flow.CHALLENGE_TYPES:
        raise EngineError("bad_action", gettext("a challenge's type is military, intrigue or power"))
    opponent = value.get("opponent", T.opponent(state, seat))
    if opponent not in T.others(state, seat):
        refuse(gettext("%(seat)s is not an opponent") % {"seat": F.shown(opponent)})
    why = melee.allowance(state, seat, ctype, opponent)  # L72; in a melee also L206, Hand of the King
    if why:
        refuse(why)
    attackers = [T.find_in_play(state, n, [seat], "character") for n in _names(value.get("attackers"), "attackers")]
    if not attackers:
        refuse(gettext("a challenge needs at least one attacker (L169)"))
    _distinct(attackers, "attackers")
    for u in attackers:
        if state["inplay"][u]["kneeling"]:
            refuse(gettext("%(card)s is kneeling: attackers must be standing (L169)") % {"card": T.card(state, u)["name"]})
        if not T.has_icon(state, u, ctype):
            refuse(gettext("%(card)s has no %(icon)s icon (L169)") % {"card": T.card(state, u)["name"], "icon": icon_word(ctype)})
    raw = {} if value.get("stealth") is None else value["stealth"]
    if not isinstance(raw, dict):
        raise EngineError("bad_action", gettext("stealth takes {attacker: target}"))
    stealth: dict[str, str] = {}
    for a_name, t_name in raw.items():
        a = T.find_in_play(state, a_name, [seat], "character")
        if a not in attackers or not T.has_keyword(state, a, "stealth"):
            refuse(gettext("%(card)s is not an attacker with stealth (L199)") % {"card": a_name})
        t = T.find_in_play(state, t_name, [opponent], "character")
        if T.has_keyword(state, t, "stealth"):
            refuse(gettext("%(card)s has stealth and cannot be bypassed (L199)") % {"card": A.shown_name(t_name)})
        stealth[a] = t
    flow.initiate_challenge(state, seat, ctype, attackers, stealth, opponent, events)


def _defenders(state: State, seat: str, value: Any, events: list[Event]) -> None:
    uids = [T.find_in_play(state, n, [seat], "character") for n in _names(value, "defenders")]
    _distinct(uids, "defenders")
    eligible = flow.eligible_defenders(state)
    ch = state["challenge"]
    most = A.max_defenders(state)
    if most is not None and len(uids) > most:
        refuse(ngettext("The Knight of Flowers attacks alone: at most %(n)s defender",
                        "The Knight of Flowers attacks alone: at most %(n)s defender", most) % {"n": most})
    for u in uids:
        if u not in eligible:
            name = T.card(state, u)["name"]
            if u in ch["stealth"].values():
                refuse(gettext("%(card)s was bypassed by stealth and cannot defend (L199)") % {"card": name})
            if state["inplay"][u]["kneeling"]:
                refuse(gettext("%(card)s is kneeling: defenders must be standing (L172)") % {"card": name})
            refuse(gettext("%(card)s has no %(icon)s icon (L172)") % {"card": name, "icon": icon_word(ch["type"])})
    flow.declare_defenders(state, seat, uids, events)


def _kill(state: State, seat: str, value: Any, events: list[Event]) -> None:
    """L184: exactly the claim's number of different characters the seat controls."""
    if state["stack"] and state["stack"][-1]["f"] == "choose":
        A.answer(state, seat, value, events)
        return
    uids = [T.find_in_play(state, n, [seat], "character") for n in _names(value, "kill")]
    _distinct(uids, "kill")
    count = state["decision"]["count"]
    if len(uids) != count:
        refuse(ngettext("choose %(n)s different characters to kill (L184)", "choose %(n)s different characters to kill (L184)",
                        count) % {"n": count})
    flow.claim_kill(state, seat, uids, events)


def _discard(state: State, seat: str, value: Any, events: list[Event]) -> None:
    """L82: exactly down to reserve."""
    names = _names(value, "discard")
    p = state["players"][seat]
    left = list(p["hand"])
    uids = []
    for n in names:
        u = next((x for x in left if T.cid(state, x) == n), None) if isinstance(n, str) else None
        if u is None:
            refuse(gettext("%(card)s is not in your hand (or not that many copies)") % {"card": F.shown(n)})
        left.remove(u)
        uids.append(u)
    count = state["decision"]["count"]
    if len(uids) != count:
        refuse(ngettext("discard exactly %(n)s cards, down to your reserve (L82)", "discard exactly %(n)s cards, down to your reserve (L82)",
                        count) % {"n": count})
    state["decision"] = None
    flow.discard_from_hand(state, seat, uids, "reserve", events)


def _keyword(kw: str):
    def handler(state: State, seat: str, value: Any, events: list[Event]) -> None:
        options = flow.keyword_options(state, kw)
        if kw == "intimidate":
            if value is None:
                uids = []
            else:
                u = T.find_in_play(state, value, [state["challenge"]["loser"]], "character")
                if u not in options:
                    refuse(gettext("%(card)s cannot be knelt: a standing character with STR at most %(n)s (L195)") % {
                        "card": A.shown_name(value), "n": state["challenge"]["margin"]})
                uids = [u]
        else:
            uids = [T.find_in_play(state, n, [seat], "character") for n in _names(value, kw)]
            _distinct(uids, kw)
            for u in uids:
                if u not in options:
                    refuse(gettext("%(card)s is not a participating character with %(keyword)s (L187)") % {
                        "card": T.card(state, u)["name"], "keyword": term("lcg", kw, "keyword")})
        flow.resolve_keyword(state, seat, kw, uids, events)
    return handler


def _order(state: State, seat: str, value: Any, events: list[Event]) -> None:
    options = state["decision"]["options"]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise EngineError("bad_action", gettext("order takes a list of names"))
    if Counter(value) != Counter(options):
        refuse(gettext("order: every one of %(options)s, once") % {"options": ", ".join(options)})
    if state["decision"].get("abilities"):
        A.order_answer(state, [str(v) for v in value])
        return
    state["challenge"]["keywords"] = list(value)
    state["decision"] = None


def _winner(state: State, seat: str, value: Any, events: list[Event]) -> None:
    d = state["decision"]
    if value not in d["options"]:
        refuse(gettext("winner: one of %(options)s") % {"options": ", ".join(d["options"])})
    for s in d["options"]:
        if s != value and d["reason"] == "decked":
            state["eliminated"].append(s)
    state["decision"] = None
    flow.finish(state, value, d["reason"], events)


def _choose(state: State, seat: str, value: Any, events: list[Event]) -> None:
    d = state["decision"]
    if d.get("what") == "bestow":
        if not isinstance(value, int) or isinstance(value, bool):
            raise EngineError("bad_action", gettext("choose takes a number of gold"))
        if not 0 <= value <= d["max"]:
            refuse(gettext("bestow: 0 to %(n)s gold (L193)") % {"n": d["max"]})
        state["players"][seat]["gold"] -= value
        state["inplay"][d["card"]]["gold"] += value
        events.append({"type": "bestow", "seat": seat, "card": T.cid(state, d["card"]), "gold": value})
        state["decision"] = None
        return
    if state["stack"] and state["stack"][-1]["f"] == "choose":
        A.answer(state, seat, value, events)
        return
    refuse(gettext("nothing to choose"))


HANDLERS = {
    "mulligan": _mulligan, "setup": _setup, "plot": _plot, "first_player": _first_player, "marshal": _marshal,
    "play": _play, "trigger": _trigger, "ambush": _ambush, "pass": _pass, "challenge": _challenge,
    "defenders": _defenders, "kill": _kill, "discard": _discard, "renown": _keyword("renown"),
    "insight": _keyword("insight"), "pillage": _keyword("pillage"), "intimidate": _keyword("intimidate"),
    "order": _order, "winner": _winner, "choose": _choose,
}

# melee (melee.py): the title chosen at 1.4, Crown Regent's redirect, Master of Whispers' opponents
ANSWERS.update({"title": ("title",), "redirect": ("redirect",), "redirect_to": ("redirect_to",),
                "claim_opponents": ("claim_opponents",)})
HANDLERS.update({"title": melee.answer_title, "redirect": melee.answer_redirect,
                 "redirect_to": melee.answer_redirect, "claim_opponents": melee.answer_whispers})
