"""Static board data for the game page: geometry from web/data/layout.yaml (a copy of
../shared/data/agot_board/layout.yaml, ids unchanged) merged with the engine's map, house cards,
Westeros and wildling cards and tracks.
Everything here is public and the same for every viewer of one language: the names of areas and cards
are the Spanish rulebook's for a Spanish reader (games/i18n/glossary, English where the seeds give none),
and so are the Westeros cards' effects (web/data/westeros_cards_es.yaml, from the rulebook's reference of
the Westeros cards); the house and wildling cards' texts, which the seeds do not print, are said by the
catalogue (web/agot_texts.py marks them). Kept once per language."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.utils import translation

from games.engine import yamlfile
from games.i18n import glossary

ENGINE_DATA = Path(__file__).resolve().parent.parent / "games" / "engine" / "agot" / "data"
LAYOUT = Path(__file__).resolve().parent / "data" / "layout.yaml"
WESTEROS_ES = Path(__file__).resolve().parent / "data" / "westeros_cards_es.yaml"


def _load(path: Path):
    return yamlfile.load(path)


def _namer(language: str):
    """The name a reader of `language` reads for an English name of `kind`."""
    if not language.startswith("es"):
        return lambda english, kind: english

    def name(english: str, kind: str) -> str:
        try:
            return glossary.term("agot", english, kind)
        except LookupError:  # not in the glossary: the English name
            return english
    return name


def _texts(language: str):
    """The card texts (web/agot_texts.py) as a reader of `language` reads them."""
    if not language.startswith("es"):
        return lambda text: text

    def said(text: str) -> str:
        with translation.override(language):
            return translation.gettext(text)
    return said


def _language(language: str | None) -> str:
    return "es" if (language or translation.get_language() or "").startswith("es") else "en"


def agot_board(language: str | None = None) -> dict:
    """The board data in `language` (default: the active language)."""
    return _agot_board(_language(language))


@cache
def _agot_board(language: str) -> dict:
    name, text = _namer(language), _texts(language)
    layout = _load(LAYOUT)
    areas = {}
    for entry in _load(ENGINE_DATA / "map.yaml")["areas"]:
        geo = layout["areas"][entry["id"]]
        areas[entry["id"]] = {
            "name": name(entry["name"], "area"),
            "type": entry["type"],
            "structure": entry.get("structure", "none"),
            "supply": entry.get("supply", 0),
            "crowns": entry.get("power", 0),
            "home_of": entry.get("home_of"),
            "land_area": entry.get("land_area"),
            "sea_area": entry.get("sea_area"),
            "adjacent": entry.get("adjacent", []),
            "center": geo["center"],
            "inradius": geo.get("inradius", 20),
            "outline": geo["outline"],
            "holes": geo.get("holes", []),
        }
    cards = {}
    for house, entries in _load(ENGINE_DATA / "house_cards.yaml")["houses"].items():
        for card in entries:
            cards[card["id"]] = {"house": house, "name": name(card["name"], "house_card"), "strength": card["strength"],
                                 "swords": card.get("swords", 0), "fortifications": card.get("fortifications", 0),
                                 "ability": text(card["ability"]) if card.get("ability") else None}
    westeros = {}
    effects = {c["id"]: c["effect"] for c in _load(WESTEROS_ES)["cards"]} if language == "es" else {}
    for deck, entries in _load(ENGINE_DATA / "westeros_cards.yaml")["decks"].items():
        for card in entries:
            effect = effects.get(card["id"]) or " ".join(card["effect"].split())
            westeros[card["id"]] = {"deck": deck, "name": name(card["name"], "westeros_card"), "effect": effect,
                                    "wildling_icon": bool(card.get("wildling_icon"))}
    wildlings = {}
    for card in _load(ENGINE_DATA / "wildling_cards.yaml")["cards"]:
        won, lost = card["nights_watch_victory"], card["wildling_victory"]
        wildlings[card["id"]] = {"name": name(card["name"], "wildling_card"),
                                 "highest_bidder": text(" ".join(won["highest_bidder"].split())),
                                 "lowest_bidder": text(" ".join(lost["lowest_bidder"].split())),
                                 "everyone_else": text(" ".join(lost["everyone_else"].split()))}
    tracks = _load(ENGINE_DATA / "tracks.yaml")
    space = layout["coordinate_space"]
    return {"width": space["width"], "height": space["height"], "areas": areas, "house_cards": cards,
            "stars": tracks["kings_court"]["stars_by_player_count"],
            # river stretches (display only; adjacency is map.yaml's): [{areas: [a, b], line: [[x, y]...]}]
            "rivers": [{"areas": r["areas"], "line": r["line"]} for r in layout.get("rivers", [])],
            "westeros_cards": westeros,
            # wildling cards: what the highest bidder gets when the Night's Watch wins, what the lowest
            # bidder and everyone else suffer when the wildlings win
            "wildling_cards": wildlings,
            # supply level -> the largest army sizes allowed at that level
            "supply_limits": {int(k): v for k, v in tracks["supply"]["levels"].items()},
            "victory_target": tracks["victory"]["instant_win_at"],
            "wildling_attack_at": tracks["wildling_threat"]["attack_at"],
            "rounds": len(tracks["rounds"]["positions"])}


def agot_board_json(language: str | None = None) -> str:
    """The board data as JSON in `language` (default: the active language), kept once per language."""
    return _agot_board_json(_language(language))


@cache
def _agot_board_json(language: str) -> str:
    return json.dumps(_agot_board(language), separators=(",", ":"))
