"""Board, card and setup data, loaded once from games/engine/agot/data/*.yaml (copied from the
shared data folder with the same ids, so the project runs on its own).

Everything here is read-only after loading; the engine never mutates it.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from games.engine import yamlfile

DATA_DIR = Path(__file__).resolve().parent / "data"

HOUSES = ("stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell")
UNIT_TYPES = ("footman", "knight", "ship", "siege_engine")
LAND_UNITS = frozenset({"footman", "knight", "siege_engine"})
TRACKS = ("iron_throne", "fiefdoms", "kings_court")
DOMINANCE = {"iron_throne": "iron_throne", "fiefdoms": "valyrian_steel_blade", "kings_court": "messenger_raven"}
POWER_PER_HOUSE = 20
ORDER_KINDS = ("march", "defense", "support", "raid", "consolidate")
# Every order token a house owns (R116), with its count: 10 normal and 5 special (`*`).
ORDER_TOKENS: dict[str, int] = {
    "march-1": 1, "march+0": 1, "march+1*": 1,
    "defense+1": 2, "defense+2*": 1,
    "support+0": 2, "support+1*": 1,
    "raid": 2, "raid*": 1,
    "consolidate": 2, "consolidate*": 1,
}
WESTEROS_DECKS = {"westeros_1": "I", "westeros_2": "II", "westeros_3": "III"}


def _load(name: str) -> Any:
    return yamlfile.load(DATA_DIR / name)


TOKEN_KIND: dict[str, str] = {t: next(k for k in ORDER_KINDS if t.startswith(k)) for t in ORDER_TOKENS}
SPECIAL_TOKENS = frozenset(t for t in ORDER_TOKENS if t.endswith("*"))


def token_kind(token: str) -> str:
    """'march+1*' -> 'march', 'raid' -> 'raid'."""
    return TOKEN_KIND[token]


def token_special(token: str) -> bool:
    return token in SPECIAL_TOKENS


def token_bonus(token: str) -> int:
    """The number printed on a March/Defense/Support token (0 for raid and consolidate)."""
    body = token.rstrip("*")
    for sign in ("+", "-"):
        if sign in body:
            return int(body[body.index(sign):])
    return 0


class Board:
    """The 58 areas: type, structure, icons, adjacency, ports and homes (map.yaml)."""

    def __init__(self, raw: dict[str, Any]):
        self.areas: dict[str, dict[str, Any]] = {a["id"]: a for a in raw["areas"]}
        self.ids: tuple[str, ...] = tuple(sorted(self.areas))
        self.type: dict[str, str] = {a: v["type"] for a, v in self.areas.items()}
        self.adjacent: dict[str, tuple[str, ...]] = {a: tuple(sorted(v["adjacent"])) for a, v in self.areas.items()}
        self.structure: dict[str, str] = {a: v.get("structure", "none") for a, v in self.areas.items()}
        self.supply: dict[str, int] = {a: int(v.get("supply", 0) or 0) for a, v in self.areas.items()}
        self.power: dict[str, int] = {a: int(v.get("power", 0) or 0) for a, v in self.areas.items()}
        self.home_of: dict[str, str] = {a: v["home_of"] for a, v in self.areas.items() if v.get("home_of")}
        self.home: dict[str, str] = {h: a for a, h in self.home_of.items()}
        self.port_of_land: dict[str, str] = {a: v["port"] for a, v in self.areas.items() if v.get("port")}
        self.port_land: dict[str, str] = {a: v["land_area"] for a, v in self.areas.items() if v["type"] == "port"}
        self.port_sea: dict[str, str] = {a: v["sea_area"] for a, v in self.areas.items() if v["type"] == "port"}
        self.castle_areas: tuple[str, ...] = tuple(a for a in self.ids if self.structure[a] in ("castle", "stronghold"))
        self.strongholds: frozenset[str] = frozenset(a for a in self.ids if self.structure[a] == "stronghold")
        self.land: frozenset[str] = frozenset(a for a in self.ids if self.type[a] == "land")
        self.sea: frozenset[str] = frozenset(a for a in self.ids if self.type[a] == "sea")
        self.ports: frozenset[str] = frozenset(a for a in self.ids if self.type[a] == "port")
        self.adj_set: dict[str, frozenset[str]] = {a: frozenset(v) for a, v in self.adjacent.items()}
        # coastal: sea areas next to each land area (for ship transport, R259)
        self.seas_next_to: dict[str, tuple[str, ...]] = {
            a: tuple(b for b in self.adjacent[a] if self.type[b] == "sea") for a in self.ids
        }
        self.land_next_to: dict[str, tuple[str, ...]] = {
            a: tuple(b for b in self.adjacent[a] if self.type[b] == "land") for a in self.ids
        }


@cache
def board() -> Board:
    return Board(_load("map.yaml"))


@cache
def setup_data() -> dict[str, Any]:
    return _load("setup.yaml")


@cache
def tracks_data() -> dict[str, Any]:
    return _load("tracks.yaml")


@cache
def house_cards() -> dict[str, dict[str, Any]]:
    """card id -> card (with its 'house')."""
    out: dict[str, dict[str, Any]] = {}
    for house, cards in _load("house_cards.yaml")["houses"].items():
        for c in cards:
            out[c["id"]] = dict(c, house=house)
    return out


@cache
def house_card_ids(house: str) -> tuple[str, ...]:
    return tuple(cid for cid, c in house_cards().items() if c["house"] == house)


@cache
def westeros_decks() -> dict[str, list[str]]:
    """deck key (westeros_1..3) -> the full deck, one entry per copy, in data order."""
    raw = _load("westeros_cards.yaml")["decks"]
    out: dict[str, list[str]] = {}
    for key, roman in WESTEROS_DECKS.items():
        out[key] = [c["id"] for c in raw[roman] for _ in range(int(c.get("count", 1)))]
    return out


@cache
def westeros_cards() -> dict[str, dict[str, Any]]:
    raw = _load("westeros_cards.yaml")["decks"]
    return {c["id"]: c for roman in WESTEROS_DECKS.values() for c in raw[roman]}


@cache
def wildling_deck() -> list[str]:
    return [c["id"] for c in _load("wildling_cards.yaml")["cards"]]


@cache
def tides_deck() -> list[str]:
    return [c["type"] for c in _load("tides_of_battle.yaml")["cards"]]


@cache
def tides_cards() -> dict[str, dict[str, Any]]:
    return {c["type"]: c for c in _load("tides_of_battle.yaml")["card_types"]}


def full_deck(name: str) -> list[str]:
    if name in WESTEROS_DECKS:
        return list(westeros_decks()[name])
    if name == "wildlings":
        return list(wildling_deck())
    if name == "tides":
        return list(tides_deck())
    raise KeyError(name)


def player_count_data(count: int) -> dict[str, Any]:
    return setup_data()["player_counts"][count]


def unit_limits() -> dict[str, int]:
    return dict(setup_data()["per_house_components"]["unit_limits"])


@cache
def supply_table() -> dict[int, tuple[int, ...]]:
    return {int(k): tuple(v) for k, v in tracks_data()["supply"]["levels"].items()}


def stars(count: int) -> tuple[int, ...]:
    return tuple(tracks_data()["kings_court"]["stars_by_player_count"][count])
