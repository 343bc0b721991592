"""Setup (B5-B14, B77, B82): the normal setup and a scenario's `setup` keys (SCENARIOS.md "btwixt")."""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import rng
from games.engine.base import EngineError, ScenarioSetupError
from games.engine.btwixt import data, effects, flow
from games.engine.btwixt import table as T

State = dict[str, Any]
Event = dict[str, Any]

OPTION_KEYS = ("advanced", "draft", "succession", "allies_in_sight", "short")
SETUP_KEYS = frozenset({
    "first_player", "season", "round", "hands", "councils", "discard", "dead", "removed", "leader_cards",
    "events_in_deck", "decks", "current_ally", "ally_tokens", "extra_allies", "piles", "knelt", "turn",
})
DECK_KEYS = frozenset({"allies", "influence", "tokens", "events", "leader_cards"})


def check_options(options: dict[str, Any]) -> dict[str, bool]:
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        raise EngineError("illegal_action", f"unknown option {', '.join(unknown)}")
    for k, v in options.items():
        if not isinstance(v, bool):
            raise EngineError("illegal_action", f"option {k} must be true or false")
    opts = {k: bool(options.get(k, False)) for k in OPTION_KEYS}
    if opts["succession"]:
        opts["draft"] = True  # B77: succession is a draft mode
    return opts


def check_seats(seats: list[str]) -> None:
    """B1: 3 to 6 leaders; B9: each leader once."""
    if not isinstance(seats, list) or not 3 <= len(seats) <= 6:
        raise EngineError("illegal_action", "B'Twixt is played by 3 to 6 leaders")
    known = data.cardset().leaders
    for s in seats:
        if s not in known:
            raise EngineError("illegal_action", f"{s} is not a leader ({', '.join(known)})")
    if len(set(seats)) != len(seats):
        raise EngineError("illegal_action", "each leader sits once")


def empty_state(seats: list[str], options: dict[str, Any], seed: int) -> State:
    check_seats(seats)
    opts = check_options(options)
    n = len(seats)
    state: State = {
        "ruleset": "btwixt", "cardset": data.cardset().id, "seats": list(seats), "options": opts,
        "rng": rng.seed_state(seed), "season": data.start_season(n, opts["short"]), "round": 1,
        "first_player": seats[0], "step": "setup", "current_ally": None, "round_ally": None, "ally_tokens": [],
        "extra_allies": [], "claiming": None, "placing": None, "playing": None, "limbo_token": None,
        "piles": {s: [] for s in seats}, "knelt": [], "turn": None, "bid_winner": None,
        "councils": {c: {"allies": [], "tokens": []} for c in T.all_councils({"seats": seats})},
        "decks": {"influence": [], "allies": [], "events": [], "tokens": [], "aside": [], "_pinned": {}},
        "discard": [], "dead": [], "removed": [], "row": [], "draft": None,
        "secret": {s: {"hand": [], "leader_cards": [], "peeked": [], "options": [], "packet": [], "kept": []}
                   for s in seats},
        "decision": None, "queue": [], "score": {}, "winners": [], "ranking": [],
    }
    return state


def new_game(seats: list[str], options: dict[str, Any], seed: int) -> State:
    state = empty_state(seats, options, seed)
    build(state, {})
    events: list[Event] = []
    state["first_player"] = seats[rng.randbelow(state, len(seats))]  # D1: a random seat
    flow.deal_hands(state, list(seats), events)
    flow.run(state, events)
    return state


# ------------------------------------------------------------------ scenario setup


class _Pool:
    """Every physical card of the set; placing a card takes one copy (too many: illegal_action)."""

    def __init__(self) -> None:
        cs = data.cardset()
        self.left: Counter[str] = Counter()
        for kind in ("influence", "event", "leader", "ally"):
            self.left.update(cs.ids(kind))
        self.tokens: Counter[int] = Counter(cs.tokens)

    def take(self, card_id: Any, where: str, kinds: tuple[str, ...]) -> str:
        if not isinstance(card_id, str) or card_id not in data.cardset().cards:
            raise ScenarioSetupError(f"{where}: unknown card {card_id!r}")
        if data.card(card_id).kind not in kinds:
            raise ScenarioSetupError(f"{where}: {card_id} is not a {' or '.join(kinds)} card")
        if self.left[card_id] <= 0:
            raise EngineError("illegal_action", f"{where}: more copies of {card_id} than exist")
        self.left[card_id] -= 1
        return card_id

    def take_token(self, value: Any, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value not in self.tokens:
            raise ScenarioSetupError(f"{where}: unknown power token {value!r}")
        if self.tokens[value] <= 0:
            raise EngineError("illegal_action", f"{where}: more power tokens of {value} than exist")
        self.tokens[value] -= 1
        return value


CARDS = ("influence", "event", "leader")


def _list(setup: dict[str, Any], key: str) -> list[Any]:
    v = setup.get(key) or []
    if not isinstance(v, list):
        raise ScenarioSetupError(f"{key}: must be a list")
    return v


def _seat_map(state: State, setup: dict[str, Any], key: str) -> dict[str, Any]:
    v = setup.get(key) or {}
    if not isinstance(v, dict):
        raise ScenarioSetupError(f"{key}: must map seats to lists")
    for s, cards in v.items():
        if s not in state["seats"]:
            raise ScenarioSetupError(f"{key}: {s} is not a seat")
        if not isinstance(cards, list):
            raise ScenarioSetupError(f"{key}.{s}: must be a list")
    return v


def build(state: State, setup: dict[str, Any]) -> set[str]:
    """Place what `setup` names, then everything else as the normal setup does (B6, B7, B11, B13,
    B14, B77). Returns the seats whose hands were given."""
    unknown = sorted(set(setup) - SETUP_KEYS)
    if unknown:
        raise ScenarioSetupError(f"unknown key {', '.join(unknown)}")
    decks = setup.get("decks") or {}
    if not isinstance(decks, dict) or set(decks) - DECK_KEYS:
        raise ScenarioSetupError(f"decks: unknown key {', '.join(sorted(set(decks) - DECK_KEYS))}")
    opts = state["options"]
    pool = _Pool()
    hands = _seat_map(state, setup, "hands")
    for s, cards in hands.items():
        T.hand(state, s).extend(pool.take(c, f"hands.{s}", CARDS) for c in cards)
    for s, cards in _seat_map(state, setup, "piles").items():
        state["piles"][s] = [pool.take(c, f"piles.{s}", CARDS) for c in cards]
    state["discard"] = [pool.take(c, "discard", CARDS) for c in _list(setup, "discard")]
    state["removed"] = [pool.take(c, "removed", ("leader",)) for c in _list(setup, "removed")]
    _place_allies(state, setup, pool, decks)
    _place_tokens(state, setup, pool, decks)
    # influence deck: listed draws on top (pinned), then the rest shuffled
    top = [pool.take(c, "decks.influence", CARDS) for c in decks.get("influence") or []]
    in_deck = [pool.take(c, "events_in_deck", ("event",)) for c in _list(setup, "events_in_deck")]
    ev_top = [pool.take(c, "decks.events", ("event",)) for c in decks.get("events") or []]
    given_lc = _seat_map(state, setup, "leader_cards")
    lc_top = _seat_map(state, {"leader_cards": decks.get("leader_cards") or {}}, "leader_cards")
    for s, cards in given_lc.items():
        T.leader_cards(state, s).extend(pool.take(c, f"leader_cards.{s}", ("leader",)) for c in cards)
    for s, cards in lc_top.items():
        taken = [pool.take(c, f"decks.leader_cards.{s}", ("leader",)) for c in cards]
        T.leader_cards(state, s)[0:0] = taken
        T.set_pinned(state, f"leader_cards:{s}", len(taken))
    rest_std = sorted(pool.left.elements())
    standard = [c for c in rest_std if data.card(c).kind == "influence"]
    events = [c for c in rest_std if data.card(c).kind == "event"]
    leaders = [c for c in rest_std if data.card(c).kind == "leader"]
    if opts["succession"]:  # B77: leader and event cards in the deck
        standard += events + leaders
        events, leaders = [], []
    elif opts["advanced"]:
        for s in state["seats"]:  # B13: each leader's own cards set aside for it
            if s not in given_lc:
                mine = [c for c in leaders if data.card(c).leader == s]
                T.leader_cards(state, s).extend(mine)
        held = {c for s in state["seats"] for c in T.leader_cards(state, s)}
        leaders = [c for c in leaders if c not in held]
    state["decks"]["influence"] = top + standard + in_deck
    T.set_pinned(state, "influence", len(top))
    T.shuffle_deck(state, "influence")
    state["decks"]["events"] = ev_top + events
    T.set_pinned(state, "events", len(ev_top))
    T.shuffle_deck(state, "events")
    state["decks"]["aside"] = sorted(leaders)
    return set(hands)


def _place_allies(state: State, setup: dict[str, Any], pool: _Pool, decks: dict[str, Any]) -> None:
    councils = setup.get("councils") or {}
    if not isinstance(councils, dict):
        raise ScenarioSetupError("councils: must be a mapping")
    for name, c in councils.items():
        if name not in state["councils"]:
            raise ScenarioSetupError(f"councils: unknown council {name!r} (councils: {', '.join(state['councils'])})")
        if not isinstance(c, dict) or set(c) - {"allies", "tokens"}:
            raise ScenarioSetupError(f"councils.{name}: only allies and tokens")
        state["councils"][name]["allies"] = [pool.take(a, f"councils.{name}", ("ally",)) for a in c.get("allies") or []]
        state["councils"][name]["tokens"] = [pool.take_token(v, f"councils.{name}") for v in c.get("tokens") or []]
    state["dead"] = [pool.take(a, "dead", ("ally",)) for a in _list(setup, "dead")]
    if setup.get("current_ally") is not None:
        state["current_ally"] = pool.take(setup["current_ally"], "current_ally", ("ally",))
        state["round_ally"] = state["current_ally"]
    state["extra_allies"] = [pool.take(a, "extra_allies", ("ally",)) for a in _list(setup, "extra_allies")]
    top = [pool.take(a, "decks.allies", ("ally",)) for a in decks.get("allies") or []]
    rest = [c for c in sorted(pool.left.elements()) if data.card(c).kind == "ally"]
    for a in rest:
        pool.left[a] -= 1
    state["decks"]["allies"] = top + rest
    T.set_pinned(state, "allies", len(top))
    T.shuffle_deck(state, "allies")  # B6


def _place_tokens(state: State, setup: dict[str, Any], pool: _Pool, decks: dict[str, Any]) -> None:
    state["ally_tokens"] = [pool.take_token(v, "ally_tokens") for v in _list(setup, "ally_tokens")]
    top = [pool.take_token(v, "decks.tokens") for v in decks.get("tokens") or []]
    state["decks"]["tokens"] = top + sorted(pool.tokens.elements())
    pool.tokens.clear()
    T.set_pinned(state, "tokens", len(top))
    T.shuffle_deck(state, "tokens")  # B7: mixed without looking


def scenario_game(seats: list[str], options: dict[str, Any], seed: int, setup: dict[str, Any],
                  start: str | None) -> State:
    state = empty_state(seats, options, seed)
    if not isinstance(setup, dict):
        raise ScenarioSetupError("setup: must be a mapping")
    start = start or "round"
    if start not in ("round", "bidding"):
        raise ScenarioSetupError(f"start: unknown start {start!r} (round or bidding)")
    n = len(seats)
    if "first_player" in setup:
        if setup["first_player"] not in seats:
            raise ScenarioSetupError(f"first_player: {setup['first_player']!r} is not a seat")
        state["first_player"] = setup["first_player"]
    if "season" in setup:
        if setup["season"] not in data.SEASONS:
            raise ScenarioSetupError(f"season: unknown season {setup['season']!r}")
        state["season"] = setup["season"]
    if "round" in setup:
        r = setup["round"]
        if not isinstance(r, int) or not 1 <= r <= data.rounds_per_season(n):
            raise ScenarioSetupError(f"round: 1 .. {data.rounds_per_season(n)}")
        state["round"] = r
    if start == "round":
        for key in ("current_ally", "ally_tokens", "extra_allies", "piles", "knelt", "turn"):
            if key in setup:
                raise ScenarioSetupError(f"{key}: only with start: bidding")
    given = build(state, setup)
    events: list[Event] = []
    missing = [s for s in seats if s not in given]
    if start == "bidding":
        _deal_missing(state, missing)
        state["step"] = "bidding"
        knelt = _list(setup, "knelt")
        for s in knelt:
            if s not in seats:
                raise ScenarioSetupError(f"knelt: {s!r} is not a seat")
        state["knelt"] = list(knelt)
        if state["current_ally"] is None:  # no ally given: the next one is on offer (B18)
            state["current_ally"] = state["round_ally"] = effects.reveal_next(state, round_start=True)
        turn = setup.get("turn", state["first_player"])
        if turn not in seats:
            raise ScenarioSetupError(f"turn: {turn!r} is not a seat")
        flow.start_turns(state, turn, events)
    elif missing:  # a season whose hands are not given starts with their deal (or the draft)
        flow.deal_hands(state, missing, events)
    else:
        flow.begin_season_rounds(state, events)
    flow.run(state, events)
    return state


def _deal_missing(state: State, missing: list[str]) -> None:
    opts = state["options"]
    for s in T.clockwise_from(state, state["first_player"]):
        if s in missing:
            T.draw_to_hand(state, s, 9 if opts["advanced"] else 10)
            if opts["advanced"] and not opts["succession"]:
                T.draw_leader_card(state, s)
