"""The table: card instances, zones and the derived values every phase reads.

Every physical card is an instance `uid` ("c482913", drawn at random by new_uid) with a card id and
an owner (`state["uids"]`).
Out-of-play zones are lists of uids in `state["players"][seat]` (hand, deck top first, discard and
dead top first, plots, used_plots; `plot` and `chosen_plot` hold one uid or None). Cards in play are
listed in their controller's `play` (entry order) and described in `state["inplay"][uid]`; a
duplicate sits in its card's `duplicates` list and nowhere else (L220). docs/engine-lcg.md has the
whole layout.
"""
from __future__ import annotations

from typing import Any

from games.engine import fields as F
from games.engine import rng
from games.engine.base import EngineError
from games.engine.lcg import data
from games.engine.narration import gettext

State = dict[str, Any]
Event = dict[str, Any]

PILES = ("hand", "deck", "discard", "dead", "plots", "used_plots", "removed")


def cid(state: State, uid: str) -> str:
    return state["uids"][uid][0]


def owner(state: State, uid: str) -> str:
    return state["uids"][uid][1]


def card(state: State, uid: str) -> dict[str, Any]:
    c = state["uids"][uid][0]
    extra = state.get("extra_cards")
    if extra and c in extra:
        return extra[c]
    return (data._DEFAULT[0] if data._DEFAULT else data.default_cards())[c]  # data.card, inlined


UID_SPACE = 900_000  # a uid is "c" and a number of six digits (100000-999999), drawn at random


def uid_stream(seed_state: int) -> int:
    """The state of the generator that draws uids, derived from the game's seed but apart from
    `state["rng"]`, so that drawing uids changes no shuffle or other random outcome."""
    return rng.next_u64({"rng": seed_state ^ 0x6A09E667F3BCC908})


def new_uid(state: State, card_id: str, seat: str) -> str:
    """A new card instance. Its uid is drawn at random from the game's seeded uid generator
    (`state["uid_rng"]`, deterministic from the seed, hidden like `state["rng"]`), so a uid tells
    nothing of which card it is, of its deck position or of its owner's deck list, and the same uid
    is a different card in another game (issue 30: a face-down card cannot be recognised by its id)."""
    state["counter"] += 1
    if state["options"].get("revision") == 1:  # a game started before issue 30 keeps c1, c2... (its log replays)
        uid = f"c{state['counter']}"
        state["uids"][uid] = [card_id, seat]
        return uid
    if "uid_rng" not in state:  # a game begun before uids were random: a stream from its generator
        state["uid_rng"] = uid_stream(state["rng"])
    holder = {"rng": state["uid_rng"]}
    while True:
        uid = f"c{100_000 + rng.randbelow(holder, UID_SPACE)}"
        if uid not in state["uids"]:
            break
    state["uid_rng"] = holder["rng"]
    state["uids"][uid] = [card_id, seat]
    return uid


def player(state: State, seat: str) -> dict[str, Any]:
    return state["players"][seat]


def alive(state: State) -> list[str]:
    """The seats still in the game (melee: an eliminated seat is out, L231), in seat order."""
    out = state["eliminated"]
    return [s for s in state["seats"] if s not in out] if out else list(state["seats"])


def others(state: State, seat: str) -> list[str]:
    return [s for s in alive(state) if s != seat]


def opponent(state: State, seat: str) -> str:
    """The opponent (joust). In a melee: the other player of the challenge the seat takes part in,
    else the next opponent in player order (docs/rules-decisions.md, "Melee: 'an opponent'")."""
    rest = others(state, seat)
    if len(state["seats"]) > 2:
        ch = state.get("challenge")
        if ch and ch.get("live") and seat in (ch["attacker"], ch["defender"]):
            other = ch["defender"] if seat == ch["attacker"] else ch["attacker"]
            if other in rest:
                return other
        seats = state["seats"]
        i = seats.index(seat)
        for s in seats[i + 1:] + seats[:i]:
            if s in rest:
                return s
    return rest[0] if rest else [s for s in state["seats"] if s != seat][0]


def player_order(state: State) -> list[str]:
    """L113: the first player, then clockwise (seat order); eliminated seats are skipped."""
    seats = state["seats"]
    i = seats.index(state["first_player"])
    order = seats[i:] + seats[:i]
    return [s for s in order if s not in state["eliminated"]] if state["eliminated"] else order


def next_seat(state: State, seat: str) -> str:
    seats = state["seats"]
    i = seats.index(seat)
    for k in range(1, len(seats) + 1):
        s = seats[(i + k) % len(seats)]
        if s not in state["eliminated"]:
            return s
    return seat


# ------------------------------------------------------------------ cards in play


def in_play(state: State, seat: str, ctype: str | None = None) -> list[str]:
    """The uids `seat` controls in play (entry order), optionally of one type."""
    out = state["players"][seat]["play"]
    if ctype is None:
        return list(out)
    if state.get("extra_cards"):
        return [u for u in out if type_in_play(state, u) == ctype]
    inplay, uids = state["inplay"], state["uids"]  # no synthetic card: type_in_play, inlined
    cards = data._DEFAULT[0] if data._DEFAULT else data.default_cards()
    found = []
    for u in out:
        rec = inplay.get(u)
        if ("attachment" if rec is not None and rec.get("on") else cards[uids[u][0]]["type"]) == ctype:
            found.append(u)
    return found


def type_in_play(state: State, uid: str) -> str:
    """The card's type in play: a card attached to a host is an attachment (Risen from the Sea, an
    event, becomes a Condition attachment), else its printed type."""
    rec = state["inplay"].get(uid)
    return "attachment" if rec is not None and rec.get("on") else card(state, uid)["type"]


def controller(state: State, uid: str) -> str | None:
    rec = state["inplay"].get(uid)
    return rec["controller"] if rec else None


def attachments_on(state: State, host: str) -> list[str]:
    return [u for s in state["seats"] for u in state["players"][s]["play"] if state["inplay"][u]["on"] == host]


def has_keyword(state: State, uid: str, kw: str) -> bool:
    """Printed (unless blanked) or gained (L158, L160): the modifier layer, abilities.py."""
    return A.has_keyword(state, uid, kw)


def strength(state: State, uid: str) -> int:
    """Current STR (L153-L156): the printed value plus modifiers, never below 0."""
    return A.strength(state, uid)


def has_icon(state: State, uid: str, icon: str) -> bool:
    return A.has_icon(state, uid, icon)


def plot_value(state: State, seat: str, key: str) -> int | None:
    """A revealed plot's value after modifiers (L67, L150, L157, L183), never below 0."""
    return A.plot_value(state, seat, key)


def power_total(state: State, seat: str) -> int:
    """L229: the power on every card the seat controls (faction card included)."""
    p = state["players"][seat]
    inplay = state["inplay"]
    total = p["faction_power"]
    for u in p["play"]:
        total += inplay[u]["power"]
    return total


def copy_names(state: State, seat: str) -> dict[str, str]:
    """{uid: '<id>#<n>'} for the seat's cards in play, n in entry order per id (SCENARIOS.md)."""
    seen: dict[str, int] = {}
    out: dict[str, str] = {}
    for u in state["players"][seat]["play"]:
        c = cid(state, u)
        seen[c] = seen.get(c, 0) + 1
        out[u] = f"{c}#{seen[c]}"
    return out


def find_in_play(state: State, name: Any, seats: list[str], ctype: str | None = None) -> str:
    """The uid of a card in play named `<id>` / `<id>#<n>` (or {card, seat}) among `seats`' cards."""
    if isinstance(name, dict):
        if set(name) - {"card", "seat"} or not isinstance(name.get("card"), str):
            raise EngineError("bad_action", gettext("a card is an id or {card: id, seat: seat}"))
        if "seat" in name:
            if name["seat"] not in state["seats"]:
                raise EngineError("illegal_action", gettext("%(seat)s is not a seat") % {"seat": F.shown(name["seat"])})
            seats = [name["seat"]]
        name = name["card"]
    if not isinstance(name, str):
        raise EngineError("bad_action", gettext("a card is named by its id"))
    base, n = copy_number(name)
    for seat in seats:
        k = 0
        for u in state["players"][seat]["play"]:
            if cid(state, u) == base and (ctype is None or card(state, u)["type"] == ctype):
                k += 1
                if k == n:
                    return u
    raise EngineError("illegal_action", gettext("%(card)s is not in play there") % {"card": _named(name)})


def copy_number(name: str) -> tuple[str, int]:
    """`<id>#<n>` -> (id, n); a plain `<id>` is copy 1. n is a whole number from 1 to 99 in ASCII
    digits (str.isdigit also takes "²", which int() refuses)."""
    base, sep, num = name.partition("#")
    if not sep:
        return base, 1
    if not (num.isascii() and num.isdigit() and len(num) <= 2 and int(num) >= 1):
        raise EngineError("bad_action", gettext("%(name)s: a copy is named <id>#<n>, n from 1 to 99") % {"name": F.shown(name)})
    return base, int(num)


def _named(name: str) -> str:
    """A card named in an action (`<id>` or `<id>#<n>`) as a refusal says it: its printed name."""
    from games.engine.lcg.narrate import card as card_name

    base, _sep, n = name.partition("#")
    said = card_name(base)
    return f"{said} #{n}" if n else said


def find_in_hand(state: State, seat: str, name: Any) -> str:
    if not isinstance(name, str):
        raise EngineError("bad_action", gettext("a card in hand is named by its id"))
    for u in state["players"][seat]["hand"]:
        if cid(state, u) == name:
            return u
    raise EngineError("illegal_action", gettext("%(card)s is not in your hand") % {"card": _named(name)})


# ------------------------------------------------------------------ moving cards


def enter_play(state: State, seat: str, uid: str, *, kneeling: bool = False, host: str | None = None) -> None:
    """The card goes into play under `seat`'s control (L27-L29, L50, L212)."""
    state["entered"] += 1
    state["inplay"][uid] = {"controller": seat, "kneeling": kneeling, "power": 0, "gold": 0, "tokens": {},
                            "duplicates": [], "on": host, "participating": None, "entered": state["entered"]}
    state["players"][seat]["play"].append(uid)


def add_duplicate(state: State, original: str, uid: str) -> None:
    state["inplay"][original]["duplicates"].append(uid)


def face_up(state: State, uid: str) -> None:
    """A facedown duplicate (Arya Stark's) leaves its pile face up: forget that it was facedown."""
    facedown = state.get("facedown")
    if facedown and uid in facedown:
        facedown.remove(uid)


def leave_play(state: State, uids: list[str], dest: str, events: list[Event], reason: str) -> None:
    """Cards leave play simultaneously (L213): to their owners' `dest` pile (dead for a kill, L214;
    discard, L215); tokens, power and bestowed gold return to the treasury; duplicates are
    discarded; attachments go back to their owners' hands (Terminal ones are discarded, L201);
    a participating character stops participating (L174)."""
    leaving = list(uids)
    for u in uids:
        for a in attachments_on(state, u):
            if a not in leaving:
                leaving.append(a)
    for u in leaving:
        rec = state["inplay"].pop(u)
        state["players"][rec["controller"]]["play"].remove(u)
        for d in rec["duplicates"]:
            face_up(state, d)
            state["players"][owner(state, d)]["discard"].insert(0, d)
        if u in uids:
            pile = dest
        elif has_keyword(state, u, "terminal") or card(state, u)["type"] == "event":
            pile = "discard"
        else:
            pile = "hand"
        state["players"][owner(state, u)][pile].insert(0, u)
        events.append({"type": "leaves_play", "seat": rec["controller"], "card": cid(state, u), "to": pile,
                       "reason": reason if u in uids else "host_left"})
    A.on_leave(state, leaving)


def draw(state: State, seat: str, n: int, events: list[Event]) -> int:
    """L223: the top n cards, at once (fewer if the deck runs out: the seat is then decked, L231)."""
    p = state["players"][seat]
    got = p["deck"][:n]
    del p["deck"][:len(got)]
    p["pinned"] = max(0, p["pinned"] - len(got))
    p["hand"].extend(got)
    if got:
        events.append({"type": "draw", "seat": seat, "count": len(got),
                       "private": {seat: [cid(state, u) for u in got]}})
    return len(got)


from games.engine.lcg import abilities as A  # noqa: E402  (the modifier layer reads this module)
