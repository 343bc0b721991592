"""The card data, loaded as data (data/core_set.yaml, format `agot2e_core_v1`: the whole Core Set,
its ready-made constructed decks and its learn-to-play decks; data/SOURCES.md).

Cards are plain dicts keyed by their `id`. A scenario's synthetic cards (SCENARIOS.md "lcg",
`cards:`) live in the game state (`state["extra_cards"]`) so that a state is self-contained; `card`
looks there first. The built-in `blank` event (cost 0, no ability, never playable) fills synthetic
decks.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from games.engine import yamlfile

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_DATA = DATA_DIR / "core_set.yaml"

TYPES = ("character", "location", "attachment", "event", "plot", "agenda")
ICONS = ("military", "intrigue", "power")
FACTIONS = ("baratheon", "greyjoy", "lannister", "martell", "thenightswatch", "stark", "targaryen", "tyrell")
# each faction (and the neutral cards) as players name it, for pages, logs and results
FACTION_NAMES = {
    "baratheon": "Baratheon", "greyjoy": "Greyjoy", "lannister": "Lannister", "martell": "Martell",
    "thenightswatch": "The Night's Watch", "stark": "Stark", "targaryen": "Targaryen", "tyrell": "Tyrell",
    "neutral": "Neutral",
}
FLAG_KEYWORDS = ("insight", "intimidate", "limited", "pillage", "renown", "stealth", "terminal", "no_attachments")
NUMBER_KEYWORDS = ("ambush", "bestow")
PLOT_VALUES = ("income", "initiative", "claim", "reserve")
MODIFIER_VALUES = ("income", "initiative", "reserve")
SYNTHETIC_KEYS = frozenset({
    "id", "type", "cost", "strength", "icons", "plot", "unique", "faction", "loyal", "traits", "keywords",
    "plot_modifiers", "name", "no_attachments", "no_attachments_except_traits", "attach_only_to",
})

BLANK: dict[str, Any] = {
    "id": "blank", "name": "Blank", "type": "event", "cost": 0, "faction": "neutral", "loyal": False,
    "unique": False, "traits": [], "keywords": {}, "icons": [], "plot_modifiers": {}, "ability_kind": ["none"],
    "ability": None, "synthetic": True,
}


class CardDataError(ValueError):
    """A card definition that cannot be read (the message names the key)."""


def _normalise(raw: dict[str, Any], synthetic: bool) -> dict[str, Any]:
    card = dict(raw)
    card.setdefault("name", card["id"].replace("_", " ").title())
    card.setdefault("faction", "neutral")
    card.setdefault("loyal", False)
    card.setdefault("unique", False)
    card.setdefault("traits", [])
    card["keywords"] = dict(card.get("keywords") or {})
    card["plot_modifiers"] = dict(card.get("plot_modifiers") or {})
    card["icons"] = list(card.get("icons") or [])
    if card.get("no_attachments"):
        card["keywords"]["no_attachments"] = True
    card.setdefault("ability_kind", ["none"])
    card.setdefault("ability", None)
    card["synthetic"] = synthetic
    return card


def check_card(raw: Any, known: dict[str, Any]) -> dict[str, Any]:
    """A synthetic card of a scenario, checked key by key (SCENARIOS.md "lcg", synthetic cards)."""
    if not isinstance(raw, dict):
        raise CardDataError("a card is a mapping")
    unknown = sorted(str(k) for k in raw if k not in SYNTHETIC_KEYS)
    if unknown:
        raise CardDataError(f"unknown key {', '.join(unknown)} (a synthetic card has no ability)")
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid:
        raise CardDataError("id: a card needs an id")
    if cid in known or cid == "blank" or "#" in cid:
        raise CardDataError(f"id: {cid} is already a card of the data")
    ctype = raw.get("type")
    if ctype not in ("character", "location", "attachment", "event", "plot"):
        raise CardDataError(f"type: {ctype!r} is not character, location, attachment, event or plot")
    if ctype == "plot":
        plot = raw.get("plot")
        if not isinstance(plot, dict) or set(plot) != set(PLOT_VALUES) or not all(
                _nat(v) for v in plot.values()):
            raise CardDataError(f"plot: a plot needs income, initiative, claim and reserve ({cid})")
        if "cost" in raw:
            raise CardDataError(f"cost: a plot has no cost ({cid})")
    else:
        if not _nat(raw.get("cost")):
            raise CardDataError(f"cost: {cid} needs a cost (0 or more)")
        if "plot" in raw:
            raise CardDataError(f"plot: only plots have plot values ({cid})")
    if ctype == "character":
        if not _nat(raw.get("strength")):
            raise CardDataError(f"strength: {cid} needs a strength")
        icons = raw.get("icons", [])
        if not isinstance(icons, list) or not set(icons) <= set(ICONS):
            raise CardDataError(f"icons: {icons!r} (military, intrigue, power)")
    elif "strength" in raw or "icons" in raw:
        raise CardDataError(f"strength/icons: only characters have them ({cid})")
    kw = raw.get("keywords", {}) or {}
    if not isinstance(kw, dict):
        raise CardDataError("keywords: a mapping")
    for k, v in kw.items():
        if k in FLAG_KEYWORDS:
            if v is not True:
                raise CardDataError(f"keywords.{k}: true")
        elif k in NUMBER_KEYWORDS:
            if not _nat(v):
                raise CardDataError(f"keywords.{k}: a number")
        else:
            raise CardDataError(f"keywords: unknown keyword {k}")
    mods = raw.get("plot_modifiers", {}) or {}
    if not isinstance(mods, dict) or not set(mods) <= set(MODIFIER_VALUES) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in mods.values()):
        raise CardDataError("plot_modifiers: {income|initiative|reserve: n}")
    for key in ("unique", "loyal"):
        if key in raw and not isinstance(raw[key], bool):
            raise CardDataError(f"{key}: true or false")
    if "traits" in raw and not (isinstance(raw["traits"], list) and all(isinstance(t, str) for t in raw["traits"])):
        raise CardDataError("traits: a list of names")
    if "faction" in raw and raw["faction"] not in (*FACTIONS, "neutral"):
        raise CardDataError(f"faction: {raw['faction']!r}")
    return _normalise(raw, synthetic=True)


def _nat(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


@lru_cache(maxsize=4)
def load(path: str = str(DEFAULT_DATA)) -> dict[str, Any]:
    """{"cards": {id: card}, "decks": {id: deck}} from the data file: the learn-to-play decks first,
    then the constructed ones."""
    raw = yamlfile.load(path)
    cards = {c["id"]: _normalise(c, synthetic=False) for c in raw["cards"]}
    cards["blank"] = dict(BLANK)
    decks: dict[str, Any] = {}
    for d in raw.get("learn_to_play_decks", []) + raw["decks"]:
        decks[d["id"]] = {
            "id": d["id"], "name": d["name"], "faction": d["faction"],
            "agenda": (d.get("agenda") or {}).get("card"),
            "plots": [e["card"] for e in d["plots"] for _ in range(int(e["qty"]))],
            "draw": [e["card"] for e in d["draw_deck"] for _ in range(int(e["qty"]))],
        }
    return {"cards": cards, "decks": decks}


def cards() -> dict[str, Any]:
    return load()["cards"]


# the four fixed learn-to-play decks (not 60-card legal, played as they are)
LEARN_TO_PLAY = ("the_old_ways", "at_the_wall", "from_east_to_west", "secrets_and_schemes")
# the decks a game gets when none is chosen, seat by seat (scenarios rely on them)
DEFAULT_DECKS = ("the_old_ways", "secrets_and_schemes")


def all_decks() -> dict[str, Any]:
    """Every deck of the data, whether or not the engine plays all its cards yet."""
    return load()["decks"]


def decks() -> dict[str, Any]:
    """The decks a game may use: those whose every card the engine plays (cards.ABILITIES)."""
    from games.engine.lcg.cards import ABILITIES

    return {k: d for k, d in all_decks().items() if playable(d, ABILITIES)}


def deck_ids() -> list[str]:
    return list(decks())


def playable(deck: dict[str, Any], implemented) -> bool:
    """Every card of `deck` has its abilities in the engine (`implemented`: the card ids that do)."""
    return all(c in implemented for c in [deck["agenda"], *deck["plots"], *deck["draw"]] if c)


_DEFAULT: list[dict[str, Any]] = []  # the default data's cards, kept once read (`card` runs very often)


def default_cards() -> dict[str, Any]:
    """`cards()`, without the cached call each time (the same dict)."""
    if not _DEFAULT:
        _DEFAULT.append(cards())
    return _DEFAULT[0]


def card(state: dict[str, Any], cid: str) -> dict[str, Any]:
    extra = state.get("extra_cards")
    if extra and cid in extra:
        return extra[cid]
    return (_DEFAULT[0] if _DEFAULT else default_cards())[cid]


def known(state: dict[str, Any], cid: Any) -> bool:
    return isinstance(cid, str) and (cid in cards() or cid in (state.get("extra_cards") or {}))
