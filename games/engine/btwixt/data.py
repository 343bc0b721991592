"""The card set, loaded as data (data/reference_set.yaml, format `btwixt-cardset/1`).

Another set in the same format may replace it: `load_cardset(path)` checks the counts (B2, B3) and
`use_cardset(path)` makes it the one the engine plays with. Nothing in the engine names a card
except through the effect ops of the set (SCENARIOS.md "btwixt": ids are those of the loaded set).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from games.engine import yamlfile

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_SET = DATA_DIR / "reference_set.yaml"
SEASONS = ("summer", "autumn", "winter")


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    kind: str  # influence | event | leader | ally
    colour: str = ""
    value: int = 0  # influence value, or an ally's power
    copies: int = 1
    leader: str = ""
    house: str = ""
    abilities: tuple[dict[str, Any], ...] = ()

    def steps(self, timing: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for ab in self.abilities:
            if ab.get("timing") == timing:
                out.extend(dict(s) for s in ab.get("effect") or [])
        return out


@dataclass
class CardSet:
    id: str
    leaders: list[str]
    cards: dict[str, Card] = field(default_factory=dict)
    tokens: list[int] = field(default_factory=list)  # every power token's value (54, B38)

    def ids(self, kind: str) -> list[str]:
        """Every physical card of a kind (copies repeated), in file order."""
        return [c.id for c in self.cards.values() if c.kind == kind for _ in range(c.copies)]

    def leader_cards_of(self, leader: str) -> list[str]:
        return [c.id for c in self.cards.values() if c.kind == "leader" and c.leader == leader]


def _card(raw: dict[str, Any], kind: str) -> Card:
    value = raw.get("power", raw.get("value", 0))
    return Card(
        id=str(raw["id"]), name=str(raw.get("name", raw["id"])), kind=kind, colour=str(raw.get("colour", "")),
        value=int(value), copies=int(raw.get("copies", 1)), leader=str(raw.get("leader", "")),
        house=str(raw.get("house", "")), abilities=tuple(raw.get("abilities") or ()),
    )


def load_cardset(path: str | Path) -> CardSet:
    """Read and check a card set; a set whose counts differ from its `counts` is refused (B2)."""
    raw = yamlfile.load(path)
    if raw.get("format") != "btwixt-cardset/1":
        raise ValueError(f"{path}: not a btwixt-cardset/1 file")
    cs = CardSet(id=str(raw["id"]), leaders=[str(x["id"]) for x in raw["leaders"]])
    for key, kind in (("influence", "influence"), ("events", "event"), ("leader_cards", "leader"), ("allies", "ally")):
        for entry in raw.get(key) or []:
            card = _card(entry, kind)
            if card.id in cs.cards:
                raise ValueError(f"{path}: duplicate id {card.id}")
            cs.cards[card.id] = card
    for t in raw["power_tokens"]:
        cs.tokens.extend([int(t["value"])] * int(t["count"]))
    counts = raw.get("counts") or {}
    actual = {"influence": len(cs.ids("influence")), "events": len(cs.ids("event")),
              "leader_cards": len(cs.ids("leader")), "allies": len(cs.ids("ally")),
              "power_tokens": len(cs.tokens), "leaders": len(cs.leaders)}
    for k, v in counts.items():
        if actual.get(k) != v:
            raise ValueError(f"{path}: {k} count {actual.get(k)} != declared {v}")
    return cs


_CURRENT: list[Path] = [DEFAULT_SET]


@lru_cache(maxsize=4)
def _cached(path: str) -> CardSet:
    return load_cardset(path)


def cardset() -> CardSet:
    return _cached(str(_CURRENT[0]))


def use_cardset(path: str | Path) -> None:
    """Play with another set in the same format from now on."""
    load_cardset(path)
    _CURRENT[0] = Path(path)


def card(card_id: str) -> Card:
    return cardset().cards[card_id]


def value(card_id: str) -> int:
    return cardset().cards[card_id].value


# ------------------------------------------------------------------ player counts (time_track.yaml)


def start_season(players: int, short: bool) -> str:
    """B5, B15, B82: Summer for 3-4 players, Autumn for 5-6; short mode one season later."""
    first = 0 if players <= 4 else 1
    return SEASONS[first + (1 if short else 0)]


def rounds_per_season(players: int) -> int:
    return players + 1  # B16


def events_added(players: int) -> dict[str, int]:
    """B72, B73: events shuffled in at the end of a season (advanced game)."""
    return {"summer": 3, "autumn": 3} if players <= 4 else {"autumn": 6}


def _applies(ability: dict[str, Any]) -> dict[str, Any]:
    """Who an ability applies to and the ops it runs, for the page's labels (issue 26): "applies" is
    the condition of its steps (`if`: won | lost | neighbour_won) or "losers" for a `draw {who:
    losers}`; absent when it applies to its holder without a condition."""
    steps = ability.get("effect") or []
    out: dict[str, Any] = {"ops": sorted({str(s.get("op")) for s in steps})}
    cond = next((s["if"] for s in steps if s.get("if")), None)
    if cond is None and any(s.get("who") == "losers" for s in steps):
        cond = "losers"
    if cond:
        out["applies"] = str(cond)
    return out


def catalogue() -> dict[str, Any]:
    """What a page needs to draw the cards of the loaded set (public data only): the set's id,
    name and statement ("the official card list is not in the rules text..."), the leaders, and per
    card id its name, kind, colour, value (influence, or an ally's power), leader/house and texts
    (each with its timing, its ops and whom it applies to, `_applies`)."""
    path = _CURRENT[0]
    raw = yamlfile.load(path)
    cs = cardset()
    cards = {
        c.id: {"name": c.name, "kind": c.kind, "colour": c.colour, "value": c.value, "copies": c.copies,
               "leader": c.leader, "house": c.house,
               "texts": [{"timing": a.get("timing"), "text": a.get("text"), **_applies(a)} for a in c.abilities]}
        for c in cs.cards.values()
    }
    leaders = {str(x["id"]): str(x.get("name", x["id"])) for x in raw["leaders"]}
    return {"id": cs.id, "name": raw.get("name", cs.id), "statement": raw.get("statement", ""),
            "leaders": leaders, "cards": cards}
