"""Creating a game: the normal setup for 3-6 players (R15-R33, R273-R285) and scenario setups
(SCENARIOS.md, "setup keys").
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import rng
from games.engine.agot import board as B
from games.engine.agot.data import (
    HOUSES,
    LAND_UNITS,
    ORDER_TOKENS,
    TRACKS,
    UNIT_TYPES,
    board,
    full_deck,
    house_card_ids,
    house_cards,
    player_count_data,
    setup_data,
    unit_limits,
)
from games.engine.base import EngineError, ScenarioSetupError
from games.engine.narration import gettext

State = dict[str, Any]

# Options a game may be created with (R28, R297) and the variants of issue 34 (docs/rules-decisions.md,
# "AGoT variants"): fog of war, the castles needed to win, the number of rounds, random start positions,
# gifting power tokens (gifts.py), the house-card and Influence-track drafts (draft.py), anonymous players
# (`anonymous`: kept for the site, which hides the players' names until the game ends; the engine names
# houses only, so it plays the same with it or without), and `spectator_delay` (kept for the site too: with
# the fog of war, spectators see the whole board that many rounds late, games/spectators.py; 0: they see
# nothing hidden until the game ends).
OPTIONS: dict[str, Any] = {"tides_of_battle": False, "fog_of_war": False, "castles_to_win": 7, "rounds": 10,
                           "random_starts": False, "gift_power_tokens": False, "draft_house_cards": False,
                           "draft_tracks": False, "anonymous": False, "spectator_delay": 0}
# The whole-number options and their ranges: at least 3 castles (one house starts with 2), at most all
# 20 castle and stronghold areas; 1 to 10 rounds (the Westeros decks hold 10 cards, one drawn a round
# from round 2); a spectators' delay of 0 (none), 1 or 2 rounds.
NUMBER_OPTIONS: dict[str, tuple[int, int]] = {"castles_to_win": (3, 20), "rounds": (1, 10), "spectator_delay": (0, 2)}
DECK_NAMES = ("westeros_1", "westeros_2", "westeros_3", "wildlings", "tides")


def allowed_houses(count: int) -> list[str]:
    return list(player_count_data(count)["houses"])


def _check_seats(seats: list[str]) -> None:
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise EngineError("bad_action", gettext("seats must be a list of house names"))
    if not 3 <= len(seats) <= 6:
        raise EngineError("illegal_action", f"A Game of Thrones is played by 3 to 6 houses, not {len(seats)} (R1)")
    if len(set(seats)) != len(seats):
        raise EngineError("illegal_action", "a house may be seated only once")
    unknown = [s for s in seats if s not in HOUSES]
    if unknown:
        raise EngineError("illegal_action", f"unknown house {unknown[0]!r}")
    allowed = allowed_houses(len(seats))
    refused = [s for s in seats if s not in allowed]
    if refused:
        raise EngineError(
            "illegal_action",
            f"{refused[0]} cannot be chosen in a {len(seats)}-player game (R29-R31); allowed: {', '.join(allowed)}",
        )


def _options(options: dict[str, Any] | None) -> dict[str, Any]:
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise EngineError("illegal_action", f"unknown option {unknown[0]!r}; known: {', '.join(sorted(OPTIONS))}")
    out = dict(OPTIONS)
    for k, v in options.items():
        if k in NUMBER_OPTIONS:
            low, high = NUMBER_OPTIONS[k]
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                raise EngineError("illegal_action", f"option {k} must be a whole number from {low} to {high}")
        elif not isinstance(v, bool):
            raise EngineError("illegal_action", f"option {k} must be true or false")
        out[k] = v
    return out


def initial_state(seats: list[str], options: dict[str, Any] | None, seed: int) -> State:
    """The board after the normal setup, before round 1 begins (no decision yet)."""
    _check_seats(seats)
    opts = _options(options)
    count = len(seats)
    pc = player_count_data(count)
    houses = setup_data()["houses"]
    state: State = {
        "ruleset": "agot",
        "seats": list(seats),
        "options": opts,
        "rng": rng.seed_state(seed),
        "round": 1,
        "phase": "planning",
        "step": "assign",
        "units": {},
        "power_tokens": {},
        "garrisons": {houses[h]["garrison"]["area"]: int(houses[h]["garrison"]["strength"]) for h in seats},
        "neutral_forces": dict(pc["neutral_forces"]),
        "power": {h: int(setup_data()["starting_power_tokens"]) for h in seats},
        "supply": {},
        "victory": {},
        "tracks": {t: [h for h in pc["influence"][t] if h in seats] for t in TRACKS},
        "used": {"valyrian_steel_blade": False, "messenger_raven": False},
        "wildlings": 2,  # R16
        "hands": {h: list(house_card_ids(h)) for h in seats},
        "discards": {h: [] for h in seats},
        "restrictions": [],
        "revealed": {"westeros": []},
        "bids": {},
        "westeros": {"queue": [], "current": None,
                     "discards": {"westeros_1": [], "westeros_2": [], "westeros_3": []}},
        "decks": {},
        "orders": {},
        "secret": {h: {} for h in seats},
        "action": None,
        "combat": None,
        "decision": None,
        "winner": None,
        "ranking": None,
    }
    for area in pc.get("impassable_areas", []) or []:
        state["neutral_forces"][area] = "impassable"  # R33
    starts = deal_starts(state) if opts["random_starts"] else {h: h for h in seats}
    for h in seats:
        for area, units in houses[starts[h]]["starting_units"].items():
            for unit, n in units.items():
                B.add_units(state, area, h, [unit] * int(n))
    # R16, R17, R28: shuffled decks (the tides deck only with the option).
    for name in DECK_NAMES:
        if name == "tides" and not opts["tides_of_battle"]:
            continue
        deck = full_deck(name)
        rng.shuffle(state, deck)
        state["decks"][name] = deck
    state["decks"]["_pinned"] = {}
    recompute_supply(state)
    refresh_victory(state)
    return state


def deal_starts(state: State) -> dict[str, str]:
    """Random start positions (issue 34, docs/rules-decisions.md "AGoT variants"): the seated houses'
    starting positions dealt at random among them, as Swords and Ravens does. A house takes the
    position's home area (its home shield and garrison, R26: `state["homes"]`, area -> house), starting
    units and places on the three Influence tracks; its supply is counted from the areas it gets
    (R22); it keeps its own house cards, order tokens and power. Returns house -> position."""
    seats = state["seats"]
    positions = list(seats)
    rng.shuffle(state, positions)
    starts = dict(zip(seats, positions, strict=True))
    taker = {p: h for h, p in starts.items()}
    b = board()
    state["homes"] = {b.home[p]: h for h, p in starts.items()}
    state["tracks"] = {t: [taker[p] for p in order] for t, order in state["tracks"].items()}
    return starts


def recompute_supply(state: State, houses: list[str] | None = None) -> None:
    for h in houses or state["seats"]:
        state["supply"][h] = B.supply_icons(state, h)


def refresh_victory(state: State) -> None:
    state["victory"] = B.victory_counts(state)


# ------------------------------------------------------------------ scenario setups


def _err(key: str, msg: str) -> ScenarioSetupError:
    return ScenarioSetupError(f"setup.{key}: {msg}")


def _area(key: str, area: Any) -> str:
    if not isinstance(area, str) or area not in board().areas:
        raise _err(key, f"unknown area {area!r}")
    return area


def _house(state: State, key: str, house: Any) -> str:
    if house not in HOUSES:
        raise _err(key, f"unknown house {house!r}")
    if house not in state["seats"]:
        raise _err(key, f"house {house!r} is not seated in this game")
    return house


def _mapping(key: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _err(key, "must be a mapping")
    return value


def parse_unit(key: str, unit: Any) -> str:
    if not isinstance(unit, str):
        raise _err(key, f"unknown unit {unit!r}")
    base = unit[len(B.ROUTED):] if unit.startswith(B.ROUTED) else unit
    if base not in UNIT_TYPES:
        raise _err(key, f"unknown unit {unit!r}")
    return unit


def _setup_units(state: State, value: Any) -> None:
    state["units"] = {}
    b = board()
    for area, by_house in _mapping("units", value).items():
        _area("units", area)
        for house, units in _mapping(f"units.{area}", by_house).items():
            _house(state, f"units.{area}", house)
            if not isinstance(units, list):
                raise _err(f"units.{area}.{house}", "must be a list of units")
            parsed = [parse_unit(f"units.{area}.{house}", u) for u in units]
            for u in parsed:
                land_unit = B.base_unit(u) in LAND_UNITS
                if land_unit != (b.type[area] == "land"):
                    raise EngineError("illegal_action", f"a {u} cannot stand in {area} ({b.type[area]} area)")
            B.add_units(state, area, house, parsed)
        if len(state["units"].get(area, {})) > 1:
            raise EngineError("illegal_action", f"two houses have units in {area}")
    for h in state["seats"]:
        counts = B.unit_counts(state, h)
        for unit, limit in unit_limits().items():
            if counts[unit] > limit:
                raise EngineError("illegal_action", f"{h} has more than {limit} {unit}s (R9)")
    for port in b.ports:
        if sum(len(v) for v in state["units"].get(port, {}).values()) > 3:
            raise EngineError("illegal_action", f"more than 3 ships in {port} (R248)")


def _setup_deck(state: State, name: str, cards: Any) -> None:
    if name not in DECK_NAMES:
        raise _err("decks", f"unknown deck {name!r}")
    if not isinstance(cards, list):
        raise _err(f"decks.{name}", "must be a list of card ids")
    full = Counter(full_deck(name))
    listed = Counter()
    for c in cards:
        if c not in full:
            raise _err(f"decks.{name}", f"unknown card {c!r}")
        listed[c] += 1
    # A Westeros deck's list gives successive rounds and may repeat a card beyond its copies (the
    # engine never reshuffles a listed card away); the rest of the deck is every card not listed.
    rest = full - listed
    tail = list(rest.elements())
    rng.shuffle(state, tail)
    state["decks"][name] = list(cards) + tail
    state["decks"]["_pinned"][name] = len(cards)


def _setup_tracks(state: State, value: Any) -> None:
    for track, order in _mapping("tracks", value).items():
        if track not in TRACKS:
            raise _err("tracks", f"unknown track {track!r}")
        if not isinstance(order, list) or sorted(order) != sorted(state["seats"]):
            for h in order if isinstance(order, list) else []:
                _house(state, f"tracks.{track}", h)
            raise EngineError("illegal_action", f"tracks.{track} must list every seated house exactly once")
        state["tracks"][track] = list(order)


def _setup_cards(state: State, hands: Any, discards: Any) -> None:
    cards = house_cards()
    given_h = _mapping("hands", hands) if hands is not None else {}
    given_d = _mapping("discards", discards) if discards is not None else {}
    for key, given in (("hands", given_h), ("discards", given_d)):
        for house, ids in given.items():
            _house(state, key, house)
            if not isinstance(ids, list):
                raise _err(f"{key}.{house}", "must be a list of card ids")
            for c in ids:
                if c not in cards:
                    raise _err(f"{key}.{house}", f"unknown card {c!r}")
                if cards[c]["house"] != house:
                    raise EngineError("illegal_action", f"{c} is not a {house} card")
    for house in set(given_h) | set(given_d):
        all_ids = list(house_card_ids(house))
        if house in given_h and house in given_d:
            hand, disc = list(given_h[house]), list(given_d[house])
        elif house in given_h:
            hand = list(given_h[house])
            disc = [c for c in all_ids if c not in hand]
        else:
            disc = list(given_d[house])
            hand = [c for c in all_ids if c not in disc]
        if set(hand) & set(disc) or len(set(hand)) != len(hand) or len(set(disc)) != len(disc):
            raise EngineError("illegal_action", f"{house}: a house card cannot be in two places")
        state["hands"][house] = hand
        state["discards"][house] = disc


def _setup_orders(state: State, value: Any) -> None:
    state["orders"] = {}
    used: dict[str, Counter[str]] = {h: Counter() for h in state["seats"]}
    for area, by_house in _mapping("orders", value).items():
        _area("orders", area)
        by_house = _mapping(f"orders.{area}", by_house)
        if len(by_house) != 1:
            raise EngineError("illegal_action", f"one order per area (R113): {area}")
        ((house, token),) = by_house.items()
        _house(state, f"orders.{area}", house)
        if token not in ORDER_TOKENS:
            raise _err(f"orders.{area}.{house}", f"unknown order token {token!r}")
        if not B.house_units(state, area, house):
            raise EngineError("illegal_action", f"{house} has no units in {area} to hold an order (R112)")
        used[house][token] += 1
        if used[house][token] > ORDER_TOKENS[token]:
            raise EngineError("illegal_action", f"{house} has only {ORDER_TOKENS[token]} {token} token(s)")
        state["orders"][area] = {"house": house, "token": token}


SETUP_KEYS = (
    "round", "units", "power_tokens", "garrisons", "neutral_forces", "power", "supply", "tracks", "wildlings",
    "hands", "discards", "used", "decks", "orders",
)


def apply_setup(state: State, setup: dict[str, Any] | None, start: str) -> None:
    """Apply a scenario's `setup` keys to a freshly set-up state (SCENARIOS.md)."""
    setup = dict(setup or {})
    unknown = sorted(set(setup) - set(SETUP_KEYS))
    if unknown:
        raise _err(unknown[0], "unknown setup key")
    if "round" in setup:
        r = setup["round"]
        if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= 10:
            raise _err("round", "must be an integer 1-10")
        state["round"] = r
    if "units" in setup:
        _setup_units(state, setup["units"])
    if "power_tokens" in setup:
        state["power_tokens"] = {}
        for area, house in _mapping("power_tokens", setup["power_tokens"]).items():
            _area("power_tokens", area)
            _house(state, f"power_tokens.{area}", house)
            if board().type[area] != "land":
                raise EngineError("illegal_action", f"power tokens go on land areas only (R165): {area}")
            if any(h != house for h in state["units"].get(area, {})):
                raise EngineError("illegal_action", f"another house's units stand on this power token (R157): {area}")
            state["power_tokens"][area] = house
    if "garrisons" in setup:
        state["garrisons"] = {}
        for area, n in _mapping("garrisons", setup["garrisons"]).items():
            _area("garrisons", area)
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise _err(f"garrisons.{area}", "must be a strength")
            if B.home_of(state, area) not in state["seats"]:
                raise EngineError("illegal_action", f"a garrison stands only in a seated house's home area (R26): {area}")
            state["garrisons"][area] = n
    if "neutral_forces" in setup:
        state["neutral_forces"] = {}
        for area, n in _mapping("neutral_forces", setup["neutral_forces"]).items():
            _area("neutral_forces", area)
            if n != "impassable" and (not isinstance(n, int) or isinstance(n, bool) or n < 0):
                raise _err(f"neutral_forces.{area}", "must be a strength or impassable")
            state["neutral_forces"][area] = n
    if "power" in setup:
        for house, n in _mapping("power", setup["power"]).items():
            _house(state, "power", house)
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise _err(f"power.{house}", "must be a number of tokens")
            state["power"][house] = n
    for h in state["seats"]:
        if B.pool(state, h) < 0:
            raise EngineError("illegal_action", f"{h} would have more than 20 power tokens (R9)")
    if "tracks" in setup:
        _setup_tracks(state, setup["tracks"])
    if "wildlings" in setup:
        w = setup["wildlings"]
        if not isinstance(w, int) or isinstance(w, bool) or w not in range(0, 13, 2):
            raise _err("wildlings", "must be one of 0, 2, ..., 12")
        state["wildlings"] = w
    if "hands" in setup or "discards" in setup:
        _setup_cards(state, setup.get("hands"), setup.get("discards"))
    if "used" in setup:
        for token, v in _mapping("used", setup["used"]).items():
            if token not in ("valyrian_steel_blade", "messenger_raven"):
                raise _err("used", f"unknown dominance token {token!r}")
            if not isinstance(v, bool):
                raise _err(f"used.{token}", "must be true or false")
            state["used"][token] = v
    if "decks" in setup:
        for name, cards in _mapping("decks", setup["decks"]).items():
            if name == "tides" and not state["options"]["tides_of_battle"]:
                raise EngineError("illegal_action", "a tides deck needs the tides_of_battle option")
            _setup_deck(state, name, cards)
    if "orders" in setup:
        if start != "action":
            raise _err("orders", "orders on the board need start: action")
        _setup_orders(state, setup["orders"])
    # supply: else computed from the board as set up
    recompute_supply(state)
    if "supply" in setup:
        for house, n in _mapping("supply", setup["supply"]).items():
            _house(state, "supply", house)
            if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 6:
                raise _err(f"supply.{house}", "must be 0-6")
            state["supply"][house] = n
    refresh_victory(state)


__all__ = ["OPTIONS", "allowed_houses", "apply_setup", "initial_state", "recompute_supply", "refresh_victory"]
