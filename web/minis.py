"""The miniatures game's public catalogue for its pages (templates/web/minis_game.html, the replay):
per card id what is printed on it (combat units: name, type, tray, speed, defense, morale, attacks,
figures, wounds per figure, ranks, abilities in the project's own words; attachments, NCUs and
Tactics cards with their texts), the tray sizes, the terrain types with their keywords, the Tactics
Board's zones and the condition tokens, all in words. Public data of games/engine/minis/data.py,
the same for every viewer: no hand or deck of any game is in it. `page_catalogue()` is the one of the
reader's language (names from the Spanish glossary, the words and the cards' texts translated; issue 29)."""
from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, gettext_noop, pgettext_lazy

from games.i18n import glossary

FACTION_NAMES = {"stark": "Stark", "lannister": "Lannister", "neutral": "Neutral"}
# three or four players (issue 33): a house played twice, its second seat (stark_2) named so
SECOND_ARMY = gettext_noop("%(house)s (second army)")


def _second_armies(names: dict[str, str], say=lambda text: text) -> dict[str, str]:
    return {**names, **{f"{k}_2": say(SECOND_ARMY) % {"house": names[k]} for k in ("stark", "lannister")}}
ZONES = {
    "crown": ("Crown", gettext_noop("One enemy unit takes a Panic Test at -1.")),
    "money": ("Wealth", gettext_noop("Heal up to 3 wounds of any unit and remove one condition token from it.")),
    "letter": ("Tactics", gettext_noop("Draw 2 Tactics cards and put a condition token on an enemy unit.")),
    "swords": ("Combat", gettext_noop("One friendly unit may make a free Attack.")),
    "horse": ("Maneuver", gettext_noop("One friendly unit may make a free Maneuver or Retreat.")),
}
CONDITIONS = {
    "panicked": ("Panicked", gettext_noop("The enemy may spend it to re-roll this unit's Morale Test dice.")),
    "vulnerable": ("Vulnerable", gettext_noop("The enemy may spend it to re-roll this unit's Defense dice.")),
    "weakened": ("Weakened", gettext_noop("The enemy may spend it to re-roll this unit's attack dice.")),
}
KEYWORDS = {
    "blocks_los": gettext_noop("blocks line of sight"), "cover": gettext_noop("cover"),
    "destructible": gettext_noop("destructible"), "hindering": gettext_noop("hindering"),
    "elevated": gettext_noop("elevated"), "rough": gettext_noop("rough (1 in less movement)"),
    "fortified": gettext_noop("fortified"), "horrific": gettext_noop("horrific"), "inspiring": gettext_noop("inspiring"),
    "impassable": gettext_noop("impassable"), "dangerous": gettext_noop("dangerous"),
}
UNIT_TYPES = {"infantry": "Infantry", "cavalry": "Cavalry", "monster": "Monster", "war_machine": "War machine"}
TERRAIN_NAMES = {
    "forest": "Forest", "corpse_pile": "Corpse pile", "bog": "Bog", "stakes": "Stakes", "wall": "Wall",
    "hedge": "Hedge", "weirwood": "Weirwood", "palisade": "Palisade", "hill": "Hill", "custom": "Terrain",
}
# pieces the seed does not print (the project's agreed ones, seed 003:2008-2011): their Spanish names are the
# translation catalogue's, the glossary having none (games/i18n/glossary/minis.yaml)
AGREED_TERRAIN = {"hill": pgettext_lazy("a terrain piece on the battlefield", "Hill")}
QUADRANTS = {"sw": "south-west", "se": "south-east", "nw": "north-west", "ne": "north-east"}
QUADRANT_WORDS = {"sw": pgettext_lazy("a quadrant of the battlefield", "south-west"),
                  "se": pgettext_lazy("a quadrant of the battlefield", "south-east"),
                  "nw": pgettext_lazy("a quadrant of the battlefield", "north-west"),
                  "ne": pgettext_lazy("a quadrant of the battlefield", "north-east")}


def _abilities(c: dict[str, Any]) -> list[dict[str, str]]:
    return [{"name": a["name"], "trigger": a.get("trigger") or "", "text": " ".join(str(a.get("effect", "")).split())}
            for a in c.get("abilities") or []]


def unit_entry(c: dict[str, Any], trays: dict[str, Any]) -> dict[str, Any]:
    """A combat unit's card as the page draws it (also a scenario's synthetic card)."""
    t = trays.get(c.get("tray"), {})
    return {
        "kind": "unit", "name": c.get("name") or str(c["id"]), "faction": c.get("faction", "neutral"),
        "type": c.get("type", "infantry"), "tray": c.get("tray"),
        "width": float(t.get("frontage_in", 5.5)), "depth": float(t.get("depth_in", 4.8)),
        "files": int(t.get("files", 1)), "speed": c.get("speed"), "defense": c.get("defense_save"),
        "morale": c.get("morale"),
        "attacks": [{"name": a["name"], "range": a.get("range", "melee"), "hit": a.get("hit"), "dice": list(a.get("dice", []))}
                    for a in c.get("attacks") or []],
        "figures": c.get("figures"), "wounds_per_figure": c.get("wounds_per_figure", 1), "ranks": c.get("ranks"),
        "wounds": c.get("wounds") or (c.get("figures", 1) * c.get("wounds_per_figure", 1)),
        "cost": c.get("cost"), "abilities": _abilities(c),
    }


@lru_cache(maxsize=1)
def catalogue() -> dict[str, Any]:
    from games.engine.minis import data

    content = data.content()
    trays = content["trays"]
    cards: dict[str, Any] = {}
    for cid, c in content["cards"].items():
        if c["kind"] == "unit":
            cards[cid] = unit_entry(c, trays)
        elif c["kind"] in ("attachment", "ncu"):
            cards[cid] = {"kind": c["kind"], "name": c["name"], "faction": c.get("faction", "neutral"),
                          "cost": c.get("cost"), "commander": bool(c.get("commander")), "abilities": _abilities(c)}
        else:
            cards[cid] = {"kind": "tactics", "name": c["name"], "faction": c.get("faction", "neutral"),
                          "modes": [{"trigger": m.get("trigger", ""), "text": " ".join(str(m.get("effect", "")).split())}
                                    for m in c.get("modes") or []]}
    return {
        "cards": cards,
        "trays": {k: {"width": float(v["frontage_in"]), "depth": float(v["depth_in"]), "files": int(v["files"]),
                      "ranks": int(v["ranks"])} for k, v in trays.items()},
        "terrain": {k: {"name": TERRAIN_NAMES.get(k, k.title()), "keywords": list(kw)} for k, kw in data.TERRAIN_TYPES.items()},
        "keywords": dict(KEYWORDS),
        "zones": {k: {"name": n, "text": t} for k, (n, t) in ZONES.items()},
        "conditions": {k: {"name": n, "text": t} for k, (n, t) in CONDITIONS.items()},
        "factions": _second_armies(dict(FACTION_NAMES)),
        "quadrants": dict(QUADRANTS),
        "types": dict(UNIT_TYPES),
    }


def _term(english: str, kind: str | None = None) -> str:
    try:
        return glossary.term("minis", english, kind)
    except LookupError:  # a name the glossary lacks keeps its English
        return english


def _say_texts(piece: dict[str, str]) -> None:
    """An ability's or a Tactics card mode's text and trigger in the active language (marked in
    web/minis_texts.py; a text the data does not hold, a scenario's own, stays as written)."""
    for key in ("text", "trigger"):
        if piece.get(key):  # gettext("") would answer the catalogue's header
            piece[key] = gettext(piece[key])


@lru_cache(maxsize=4)
def _translated(language: str) -> dict[str, Any]:
    """The catalogue in `language` (issue 29): names as the Spanish rulebook prints them (the
    glossary's; the English name where it gives none), the zones', conditions' and terrain's words
    translated, and the cards' own texts (abilities, Tactics cards, their triggers: the project's
    wording, marked in web/minis_texts.py) said in the language with the rulebook's terms."""
    out = copy.deepcopy(catalogue())
    with translation.override(language):
        for c in out["cards"].values():
            c["name"] = _term(c["name"])
            for a in c.get("abilities") or []:
                a["label"] = _term(a["name"])  # the name stays English: the page's script reads it
                _say_texts(a)
            for m in c.get("modes") or []:
                _say_texts(m)
        for k, t in out["terrain"].items():
            t["name"] = str(AGREED_TERRAIN[k]) if k in AGREED_TERRAIN else _term(t["name"], "terrain")
            t["name"] = t["name"][:1].upper() + t["name"][1:]
        out["keywords"] = {k: gettext(v) for k, v in KEYWORDS.items()}
        out["zones"] = {k: {"name": _term(n, "zone"), "text": gettext(t)} for k, (n, t) in ZONES.items()}
        out["conditions"] = {k: {"name": _term(n, "condition"), "text": gettext(t)} for k, (n, t) in CONDITIONS.items()}
        out["factions"] = _second_armies({k: _term(n, "faction") if k != "neutral" else gettext("Neutral")
                                          for k, n in FACTION_NAMES.items()}, gettext)
        out["quadrants"] = {k: str(v) for k, v in QUADRANT_WORDS.items()}
        out["types"] = {k: _term(v, "unit_type") for k, v in UNIT_TYPES.items()}
    return out


def page_catalogue() -> dict[str, Any]:
    """The catalogue in the active language (the request's): the English one is `catalogue()`."""
    language = translation.get_language() or "en"
    return _translated("es") if language.startswith("es") else catalogue()
