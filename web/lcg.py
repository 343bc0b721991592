"""The card game's public catalogue for its pages (templates/web/lcg_game.html, the replay): per
card id what is printed on the card (name, type, faction, cost, strength, icons, traits, keywords,
the ability text in the project's own words, unique, loyal, plot values and modifiers), the
factions' names and the decks' names. Public data of games/engine/lcg/data.py, the same for every
viewer: no hand, deck or pile of any game is in it. `page_catalogue()` is the one of the reader's language
(issue 29): the ability texts, the project's own words, said in Spanish (marked in web/lcg_texts.py); card
names, traits and the decks' names stay as printed."""
from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from django.utils import translation

from games.engine.lcg.data import FACTION_NAMES  # the factions in words (public data), re-exported


def card_entry(card: dict[str, Any]) -> dict[str, Any]:
    """One card as a page draws it (also used for a scenario's synthetic cards)."""
    entry: dict[str, Any] = {
        "name": card.get("name") or card["id"].replace("_", " ").title(),
        "type": card["type"], "faction": card.get("faction", "neutral"),
        "unique": bool(card.get("unique")), "loyal": bool(card.get("loyal")),
        "traits": list(card.get("traits") or []), "keywords": dict(card.get("keywords") or {}),
        "text": card.get("ability") or "",
    }
    if card["type"] not in ("plot", "agenda", "title"):
        entry["cost"] = card.get("cost", 0)
    if card["type"] == "character":
        entry["strength"] = card.get("strength", 0)
        entry["icons"] = list(card.get("icons") or [])
    if card["type"] == "plot":
        entry["plot"] = dict(card.get("plot") or {})
    if card["type"] == "title":  # the melee's titles (issue 31): which titles it supports and which are its rivals
        entry["supports"] = list(card.get("supports") or [])
        entry["rivals"] = list(card.get("rivals") or [])
    if card.get("plot_modifiers"):
        entry["plot_modifiers"] = dict(card["plot_modifiers"])
    return entry


@lru_cache(maxsize=1)
def catalogue() -> dict[str, Any]:
    from games.engine.lcg import data

    decks = {d["id"]: {"name": d["name"], "faction": d["faction"], "agenda": d["agenda"]} for d in data.decks().values()}
    return {"cards": {cid: card_entry(c) for cid, c in data.cards().items()}, "factions": dict(FACTION_NAMES),
            "decks": decks}


@lru_cache(maxsize=4)
def _translated(language: str) -> dict[str, Any]:
    """The catalogue in `language`: each card's ability text translated (web/lcg_texts.py marks them),
    the rest as `catalogue()` has it."""
    out = copy.deepcopy(catalogue())
    with translation.override(language):
        for card in out["cards"].values():
            if card["text"]:
                card["text"] = translation.gettext(card["text"])
    return out


def page_catalogue() -> dict[str, Any]:
    """The catalogue in the active language (the request's): the English one is `catalogue()`, the same
    dict for every caller of a language, which must not change it."""
    language = translation.get_language() or "en"
    return _translated("es") if language.startswith("es") else catalogue()
