"""Whether a seat is asked in a window of a live game, judged from public information only
(issue 30; rules/lcg.md L87-L98: action windows, interrupts and reactions).

With `every_window` on (live games) a seat is asked in an action, interrupt or reaction window
exactly when some card it MIGHT hold, or a card it controls, could legally be used there. What it
might hold is what its opponent knows:

- its hand's size (an empty hand holds nothing);
- with an open deck list (option `open_decklists`, the lobby's choice, as tournaments with open
  lists do; a learn-to-play deck's list is always open) its deck list minus the copies in its
  public zones (in play, duplicates included, discard pile, dead pile, removed from the game);
- with a closed list every card a legal deck of its faction and agenda may hold (L17-L20: its
  faction's cards, the neutral ones, a Banner's faction's non-loyal cards), plus any card of it seen
  so far, minus the cards whose every allowed copy (3, or the card's "Limit X per deck") is in its
  public zones.

Everything else (what is in play, gold, limits used, the triggering event) is public state. The
question is answered by the very code that lists legal options (abilities.options and
actions.window_actions) on a *public view* of the state: for the time of the question the
seat's hand is replaced by one phantom copy of each card it might hold (padded with blank cards to
the hand's real size, so hand-size conditions read the same), every other hand by blank cards of
its size and every draw deck by blank cards of the same count. The real hands and decks are put
back before the answer is returned, so the answer is a function of public information: whether a
seat is asked tells nothing about its hand.
A seat that holds a card it could play is always asked, because that card is among the phantoms.

Conditions and target selectors of the cards' modules (`abilities.MORE_CONDS`,
`abilities.MORE_SELECTORS`) see the public view too, so they need no care of their own.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from games.engine.lcg import abilities as A
from games.engine.lcg import actions, data, flow

State = dict[str, Any]
Event = dict[str, Any]

DRAW_TYPES = ("character", "location", "attachment", "event")
PHANTOM = "?"  # prefix of the public view's card instances (real ones are "c<n>")


# ------------------------------------------------------------------ the players' action windows


# The action windows a player chooses to be asked in (option `action_windows`, each player's account
# setting carried into the game when it starts, as throneteki's "Action windows" user setting): the
# names of flow.open_window's windows, in the order of a round. The marshaling phase's window is not
# among them: the active player marshals there. A seat's setting is public (it is not its hand), so
# passing a window it turned off tells nothing.
ACTION_WINDOWS = ("plot", "draw", "before_challenge", "after_attackers", "after_defenders", "dominance",
                  "standing", "taxation")
# throneteki's defaults (its settings' defaultWindows): asked after attackers and after defenders are declared
DEFAULT_ACTION_WINDOWS = ("after_attackers", "after_defenders")


def check_action_windows(value: Any, seats: list[str]) -> dict[str, list[str]]:
    """Option `action_windows`: {seat: [the names of ACTION_WINDOWS it is asked in]}. A seat it does
    not name, and a game without the option (every game started before it), is asked in every window."""
    from games.engine.base import EngineError

    if not isinstance(value, dict) or not set(value) <= set(seats):
        raise EngineError("illegal_action", "option action_windows: {seat: [window names]}")
    out = {}
    for seat, names in value.items():
        if not isinstance(names, list) or not all(isinstance(n, str) and n in ACTION_WINDOWS for n in names):
            raise EngineError("illegal_action", f"option action_windows: window names among {', '.join(ACTION_WINDOWS)}")
        out[seat] = [n for n in ACTION_WINDOWS if n in names]
    return out


def window_on(state: State, seat: str) -> bool:
    """Whether the seat's own setting lets the open action window ask it (a public fact: the window and
    the option)."""
    chosen = state["options"].get("action_windows")
    if not chosen or seat not in chosen:
        return True
    w = state.get("window")
    return w is None or w["name"] not in ACTION_WINDOWS or w["name"] in chosen[seat]


# ------------------------------------------------------------------ deck lists


@lru_cache(maxsize=1)
def learn_to_play_ids() -> frozenset[str]:
    """The learn-to-play decks (their lists are printed in the rules booklet: always open)."""
    from games.engine import yamlfile

    raw = yamlfile.load(str(data.DEFAULT_DATA))
    return frozenset(d["id"] for d in raw.get("learn_to_play_decks", ()))


def default_open(deck_ids: list[str]) -> bool:
    """A game whose every deck is a learn-to-play deck has open lists by default."""
    return bool(deck_ids) and all(d in learn_to_play_ids() for d in deck_ids)


def is_open(state: State, seat: str) -> bool:
    """Whether the seat's deck list is public: the game's lists are open, or its deck is a
    learn-to-play deck (printed in the rules booklet: always open)."""
    return bool(state["options"].get("open_decklists")) or state["players"][seat].get("deck_id") in learn_to_play_ids()


def decklist(state: State, seat: str) -> list[str] | None:
    """The seat's draw-deck list (card ids with repeats), when the game knows it (not a copy: read
    it only)."""
    p = state["players"][seat]
    if isinstance(p.get("decklist"), list):
        return p["decklist"]
    deck = data.all_decks().get(p.get("deck_id") or "")
    return deck["draw"] if deck else None


def public_copies(state: State, seat: str) -> dict[str, int]:
    """Card ids of the draw cards the seat owns in public zones: in play (with duplicates, not a
    facedown one, and attachments, whoever controls them), discard and dead piles, removed from
    the game: {card id: copies} (a plain dict: a Counter's missing key costs a call)."""
    uids = state["uids"]
    facedown = state.get("facedown") or ()  # Arya Stark's duplicate: nobody else knows what it is (L55)
    inplay = state["inplay"]
    out: dict[str, int] = {}
    get = out.get
    for s in state["seats"]:
        for u in state["players"][s]["play"]:
            c, o = uids[u]
            if o == seat:
                out[c] = get(c, 0) + 1
            dups = inplay[u].get("duplicates")
            if dups:
                for v in dups:
                    if uids[v][1] == seat and v not in facedown:
                        c = uids[v][0]
                        out[c] = get(c, 0) + 1
    p = state["players"][seat]
    for zone in ("discard", "dead", "removed"):
        for u in p.get(zone, ()):
            c = uids[u][0]
            out[c] = get(c, 0) + 1
    return out


@lru_cache(maxsize=64)
def _pool(faction: str | None, agenda: str | None) -> tuple[tuple[str, int], ...]:
    """(card id, copies allowed) of every draw card of the card data a legal deck of that faction
    and agenda may hold (L17-L20): its faction's, the neutral ones, a Banner's faction's non-loyal
    ones. (The learn-to-play decks, which mix two factions' loyal cards, are always open.)"""
    cards = data.cards()
    banner = None
    if agenda and agenda in cards:
        banner = (cards[agenda].get("deck_building") or {}).get("allow_non_loyal_faction")
    out = []
    for cid, c in cards.items():
        if c["type"] not in DRAW_TYPES or c.get("synthetic"):
            continue
        f = c.get("faction", "neutral")
        if f in ("neutral", faction) or (banner and f == banner and not c.get("loyal")):
            out.append((cid, _limit(c)))
    return tuple(sorted(out))


def _limit(c: dict[str, Any]) -> int:
    n = c.get("deck_limit")
    return n if isinstance(n, int) and not isinstance(n, bool) else 3


_DECK_COUNTS: dict[tuple[str, ...], tuple[tuple[str, int], ...]] = {}


_DECK_COUNTS_OF: dict[int, tuple[Any, ...]] = {}


def _deck_counts(listed: list[str]) -> tuple[tuple[str, int], ...]:
    """(card id, copies) of a deck list, sorted by card id (kept per list: it never changes in a game;
    the card data's lists, the same object each time, are found by identity first)."""
    got = _DECK_COUNTS_OF.get(id(listed))
    if got is not None and got[0] is listed and len(listed) == got[2]:
        return got[1]
    key = tuple(listed)
    out = _DECK_COUNTS.get(key)
    if out is None:
        if len(_DECK_COUNTS) > 256:
            _DECK_COUNTS.clear()
        out = _DECK_COUNTS[key] = tuple(sorted(Counter(listed).items()))
    if len(_DECK_COUNTS_OF) > 256:
        _DECK_COUNTS_OF.clear()
    _DECK_COUNTS_OF[id(listed)] = (listed, out, len(listed))  # (the list held: its id stays its own)
    return out


def possible(state: State, seat: str) -> list[str]:
    """The card ids the seat might hold, from public information only (see the module's text)."""
    p = state["players"][seat]
    if not p["hand"]:
        return []
    seen = public_copies(state, seat)
    listed = decklist(state, seat) if is_open(state, seat) else None
    if listed is not None:
        get = seen.get
        return [c for c, n in _deck_counts(listed) if n > get(c, 0)]
    items = _pool(p.get("faction"), p.get("agenda"))
    get = seen.get
    out = [c for c, n in items if get(c, 0) < n]  # sorted, as the pool is
    pool = _pool_ids(p.get("faction"), p.get("agenda"))
    extra = [c for c, k in seen.items() if c not in pool and k < _limit(data.card(state, c))]
    return sorted(out + extra) if extra else out


@lru_cache(maxsize=64)
def _pool_ids(faction: str | None, agenda: str | None) -> frozenset[str]:
    return frozenset(c for c, _n in _pool(faction, agenda))


# ------------------------------------------------------------------ the public view


# agendas whose action the cards' modules add to the options of an action window (not in ABILITIES)
MODULE_AGENDA_ACTIONS = frozenset({"fealty"})

# target selectors that read the hand of the ability's controller (the cards' modules may add theirs)
HAND_SELECTORS = {"hand_tyrell_6", "hand_lannister_character", "reinforcement"}


_INDEX: dict[str, Any] = {"key": None, "windows": {}, "events": {}}


def _index() -> dict[str, Any]:
    """The card data's triggered abilities by window, computed once (again when `ABILITIES`
    changes): `windows[(timing, event type)]` maps each card id to its abilities of that timing that
    answer that event (`("action", None)`: its action abilities, any phase), and `events` the same
    keys to the event cards among them."""
    key = (id(A.ABILITIES), len(A.ABILITIES))
    if _INDEX["key"] != key:
        windows: dict[tuple[str, str | None], dict[str, tuple[dict[str, Any], ...]]] = {}
        cards = data.cards()
        for c, sp in list(A.ABILITIES.items()):
            for a in sp:
                if a["kind"] not in A.TRIGGERED:
                    continue
                ons = [None] if a["kind"] == "action" else (a["on"] if isinstance(a["on"], list) else [a["on"]])
                for on in dict.fromkeys(ons):
                    per = windows.setdefault((a["kind"], on), {})
                    per[c] = (*per.get(c, ()), a)
        events = {k: frozenset(c for c in per if c in cards and cards[c]["type"] == "event") for k, per in windows.items()}
        _INDEX.update(key=key, windows=windows, events=events)
    return _INDEX


_NONE: dict[str, Any] = {}


def _window_table(timing: str, ev: Event | None) -> dict[str, tuple[dict[str, Any], ...]]:
    """Card id -> its abilities of the window's timing that answer its event (for an action window,
    of any phase: `relevant` reads the phase)."""
    if timing == "action":
        return _index()["windows"].get(("action", None), _NONE)
    if ev is None:
        return _NONE
    return _index()["windows"].get((timing, ev["t"]), _NONE)


_READS_HAND: dict[int, tuple[dict[str, Any], bool]] = {}


def _reads_hand(abilities: list[dict[str, Any]]) -> bool:
    for a in abilities:
        kept = _READS_HAND.get(id(a))
        if kept is None or kept[0] is not a:  # kept per ability (the same dict of ABILITIES each time)
            sel = [a.get("target"), *(c[6:] for c in a.get("cost", ()) if c.startswith("kneel:"))]
            kept = _READS_HAND[id(a)] = (a, any(x in HAND_SELECTORS or x in A.MORE_SELECTORS for x in sel if x))
        if kept[1]:
            return True
    return False


_ROWS: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _rows(counts: tuple[tuple[str, int], ...], table: Any, answering: Any, phase: str | None,
          action: bool) -> tuple[list[tuple[str, int, Any]], list[tuple[str, int]], list[tuple[str, int]]]:
    """What `relevant` reads of the cards of an open deck list (`_deck_counts`) in a window (its
    table, `_window_table`, and phase): (card id, copies, its abilities answering the window) of
    the cards with such abilities; (card id, copies) of the cards that are not events (to marshal);
    the same of the cards with ambush or a Direwolf (to ambush). Kept per list and window (none of
    it is state)."""
    cards = data.cards()
    key = (id(counts), id(table), id(answering), phase, action)
    got = _ROWS.get(key)
    if got is not None and got[0] is counts and got[1] is table and got[2] is answering and got[3] is cards:
        return got[4]
    answer, marshal, ambush = [], [], []
    for cid, n in counts:
        if cid in answering:
            found = table[cid]
            m = [a for a in found if a.get("phase") in (None, phase)] if action else found
            if m:
                answer.append((cid, n, m))
        c = cards[cid]
        if c["type"] != "event":
            marshal.append((cid, n))
        if c["keywords"].get("ambush") is not None or "Direwolf" in c["traits"]:
            ambush.append((cid, n))
    if len(_ROWS) > 512:
        _ROWS.clear()
    rows = (answer, marshal, ambush)
    _ROWS[key] = (counts, table, answering, cards, rows)  # (the objects held: their ids stay theirs)
    return rows


def relevant(state: State, seat: str, timing: str, ev: Event | None) -> list[str] | None:
    """The cards the seat might hold that could matter in this window (None: nothing could be
    used there, in hand or in play). A quick, public filter before the legal options are read.
    What the seat might hold is worked out only when a card of the hand could matter here (an
    event answering the window, a card to marshal or to ambush)."""
    p = state["players"][seat]
    uses: list[dict[str, Any]] = []
    keep: list[str] = []
    table = _window_table(timing, ev)
    answering: Any = ()
    # an action window's abilities of another phase do not count (abilities._window_ok)
    action = timing == "action"
    phase = state["phase"] if action else None
    uids = state["uids"]
    if table:
        answering = _index()["events"].get(("action", None) if action else (timing, ev["t"]), ())
        for u in p["play"]:
            found = table.get(uids[u][0])
            if found:
                m = [a for a in found if a.get("phase") in (None, phase)] if action else found
                if m and A.live_specs(state, u):  # not blanked (L158): its abilities are those of the card
                    uses.extend(m)
        if p["plot"] is not None:  # the revealed plot's triggered abilities (cards_baratheon_targaryen._sources)
            found = table.get(uids[p["plot"]][0])
            if found:
                uses.extend([a for a in found if a.get("phase") in (None, phase)] if action else found)
    w = state.get("window")
    marshal = challenge = False
    if action and w is not None:
        marshal = w["name"] == "marshaling" and state["active"] == seat
        challenge = not marshal and w["name"] in flow.CHALLENGE_WINDOWS
    cands: list[str] | None = None
    if p["hand"] and (answering or marshal or challenge):
        listed = None if state.get("extra_cards") or not is_open(state, seat) else decklist(state, seat)
        if listed is not None:  # an open list: only the cards of the list that could matter here
            counts = _deck_counts(listed)
            answer, to_marshal, to_ambush = _rows(counts, table, answering, phase, action)
            more = to_marshal if marshal else to_ambush if challenge else ()
            if answer or more:
                get = public_copies(state, seat).get
                for cid, n, m in answer:
                    if n > get(cid, 0):
                        keep.append(cid)
                        uses.extend(m)
                keep.extend(cid for cid, n in more if n > get(cid, 0))
                if uses and _reads_hand(uses):  # (below) every card it might hold: `possible`
                    cands = [c for c, n in counts if n > get(c, 0)]
        else:
            cands = possible(state, seat)
            if answering:
                for cid in cands:
                    if cid in answering:
                        found = table[cid]
                        m = [a for a in found if a.get("phase") in (None, phase)] if action else found
                        if m:
                            keep.append(cid)
                            uses.extend(m)
            if marshal or challenge:
                flags = _FLAGS["flags"] if not state.get("extra_cards") and _FLAGS["of"] is data.cards() else None
                if flags is None:
                    fl = [_flags(state, c) for c in cands]
                else:
                    fl = [flags.get(c) or _flags(state, c) for c in cands]
                if marshal:
                    keep.extend(c for c, f in zip(cands, fl, strict=True) if not f[0])
                else:
                    keep.extend(c for c, f in zip(cands, fl, strict=True) if f[1])
    dup = timing == "interrupt" and ev is not None and ev.get("t") == "would_leave"
    # an agenda's own action (Fealty's) comes from the cards' modules (cards_martell_watch._options),
    # not from ABILITIES, where every agenda has none: never filtered out of an action window
    if not keep and not uses and not dup and not (timing == "action" and p.get("agenda") in MODULE_AGENDA_ACTIONS):
        return None
    if _reads_hand(uses):
        return cands if cands is not None else possible(state, seat)
    return sorted(set(keep))


_FLAGS: dict[str, Any] = {"of": None, "flags": {}}


def _flags(state: State, cid: str) -> tuple[bool, bool]:
    """(an event, ambush or a Direwolf) of a card id, from its printed data (kept per card)."""
    extra = state.get("extra_cards")
    if extra and cid in extra:
        c = extra[cid]
        return c["type"] == "event", c["keywords"].get("ambush") is not None or "Direwolf" in c["traits"]
    cards = data.cards()
    if _FLAGS["of"] is not cards:
        _FLAGS.update(of=cards, flags={})
    f = _FLAGS["flags"].get(cid)
    if f is None:
        c = cards[cid]
        f = _FLAGS["flags"][cid] = (c["type"] == "event",
                                    c["keywords"].get("ambush") is not None or "Direwolf" in c["traits"])
    return f


# a phantom's uid and its entry of `uids` ([card id, seat], never changed: shared by every view), per seat
_PHANTOMS: dict[str, dict[str, tuple[str, list[str]]]] = {}


def _view_on(state: State, seat: str, cards: list[str] | None) -> list[Any]:
    """Put the public view up (see `public_view`): what `_view_off` needs to take it down (taken
    down at once if putting it up fails)."""
    players, uids = state["players"], state["uids"]
    saved: list[Any] = []
    phantoms: list[str] = []
    state["_memo"] = {}  # read-only meanwhile: abilities.constants keeps its answer
    try:
        for s in state["seats"]:
            p = players[s]
            hand, deck = p["hand"], p["deck"]
            saved.append((p, hand, deck))
            new: list[str] = []
            names = _PHANTOMS.get(s)
            if names is None:
                names = _PHANTOMS[s] = {}
            if s == seat:
                for cid in possible(state, s) if cards is None else cards:
                    got = names.get(cid)
                    if got is None:
                        got = names[cid] = (f"{PHANTOM}{s}:{cid}", [cid, s])
                    uids[got[0]] = got[1]
                    phantoms.append(got[0])
                    new.append(got[0])
            blank, entry = names.get("blank") or names.setdefault("blank", (f"{PHANTOM}{s}:blank", ["blank", s]))
            uids[blank] = entry
            phantoms.append(blank)
            if len(hand) > len(new):
                new.extend([blank] * (len(hand) - len(new)))
            p["hand"] = new
            p["deck"] = [blank] * len(deck)
    except BaseException:
        _view_off(state, [*saved, phantoms])
        raise
    saved.append(phantoms)
    return saved


def _view_off(state: State, saved: list[Any]) -> None:
    uids = state["uids"]
    for uid in saved[-1]:
        uids.pop(uid, None)
    for p, hand, deck in saved[:-1]:
        p["hand"] = hand
        p["deck"] = deck
    state.pop("_memo", None)


@contextmanager
def public_view(state: State, seat: str, cards: list[str] | None = None) -> Iterator[None]:
    """For the time of the block `seat`'s hand is one phantom per card it might hold (or per card
    of `cards`, a part of them: `relevant`), padded with
    blank cards to the hand's size; every other hand is blank cards of the same size, and every
    draw deck is blank cards of the same count."""
    saved = None
    try:
        saved = _view_on(state, seat, cards)
        yield
    finally:
        if saved is not None:
            _view_off(state, saved)


_MEMOISED: list[str] = []


def _memoise_in_views() -> None:
    """While a public view is up the state does not change, so `abilities.rule_sources` (a rule's
    sources: constants and their conditions) and `abilities.blanked` (Milk of the Poppy, Fortified
    Position...) give the same answer each time they are asked: keep it in the view's `_memo`.
    Installed on the first judgement, after the cards' modules have added their hooks (hooks.wrap), so
    the memo holds their answer too. Outside a view nothing changes (no `_memo`: the function itself)."""
    if _MEMOISED:
        return
    from games.engine.lcg.hooks import wrap

    for name in ("rule_sources",):  # (`blanked` is kept already: abilities.kept_blanked)
        @wrap(A, name)
        def memo(state, key, _name=name):
            kept = state.get("_memo")
            if kept is None:
                return memo_of[_name](state, key)
            k = (_name, key)
            if k not in kept:
                kept[k] = memo_of[_name](state, key)
            return kept[k]
        memo_of[name] = memo.orig
        _MEMOISED.append(name)


memo_of: dict[str, Any] = {}


def might_act(state: State, seat: str, timing: str, ev: Event | None) -> bool:
    """Whether the seat is asked in the window (`timing`: action, interrupt or reaction): some card
    it might hold, or a card it controls, could legally be used there, and (an action window) the
    seat's setting `action_windows` has the window on. Public information only."""
    if timing == "action" and not window_on(state, seat):
        return False  # the seat turned this window off (its public setting): passed for it
    if not _MEMOISED:
        _memoise_in_views()
    state["_memo"] = {}  # the state does not change while the filter reads it: blanked and rule_sources kept
    try:
        cards = relevant(state, seat, timing, ev)
    finally:
        state.pop("_memo", None)
    if cards is None:
        return False
    saved = _view_on(state, seat, cards)
    try:
        if timing == "action":
            return bool(actions.window_actions(state, seat, first_only=True))
        return bool(A.options(state, seat, timing, ev, first_only=True))
    finally:
        _view_off(state, saved)


def can_act(state: State, seat: str) -> bool:
    """Whether the seat, asked in a window now, has anything but pass with its real hand (the
    player's own "pass for me when I hold nothing playable", which may read its hand)."""
    d = state.get("decision")
    if not d or seat not in d["seats"]:
        return False
    if d["kind"] == "action":
        return bool(actions.window_actions(state, seat, first_only=True))
    if d["kind"] in ("interrupt", "reaction"):
        w = A.top_window(state)
        return bool(w and A.options(state, seat, d["kind"], w["ev"], first_only=True))
    return True
