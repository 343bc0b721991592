"""The miniatures game's public catalogue for its pages (templates/web/minis_game.html, the replay):
per card id what is printed on it (combat units: name, type, tray, speed, defense, morale, attacks,
figures, wounds per figure, ranks, abilities in the project's own words; attachments, NCUs and
Tactics cards with their texts), the tray sizes, the terrain types with their keywords, the Tactics
Board's zones and the condition tokens, all in words. Public data of games/engine/minis/data.py,
the same for every viewer: no hand or deck of any game is in it."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

FACTION_NAMES = {"stark": "Stark", "lannister": "Lannister", "neutral": "Neutral"}
ZONES = {
    "crown": ("Crown", "One enemy unit takes a Panic Test at -1."),
    "money": ("Wealth", "Heal up to 3 wounds of any unit and remove one condition token from it."),
    "letter": ("Tactics", "Draw 2 Tactics cards and put a condition token on an enemy unit."),
    "swords": ("Combat", "One friendly unit may make a free Attack."),
    "horse": ("Maneuver", "One friendly unit may make a free Maneuver or Retreat."),
}
CONDITIONS = {
    "panicked": ("Panicked", "The enemy may spend it to re-roll this unit's Morale Test dice."),
    "vulnerable": ("Vulnerable", "The enemy may spend it to re-roll this unit's Defense dice."),
    "weakened": ("Weakened", "The enemy may spend it to re-roll this unit's attack dice."),
}
KEYWORDS = {
    "blocks_los": "blocks line of sight", "cover": "cover", "destructible": "destructible",
    "hindering": "hindering", "elevated": "elevated", "rough": "rough (1 in less movement)",
    "fortified": "fortified", "horrific": "horrific", "inspiring": "inspiring",
    "impassable": "impassable", "dangerous": "dangerous",
}
TERRAIN_NAMES = {
    "forest": "Forest", "corpse_pile": "Corpse pile", "bog": "Bog", "stakes": "Stakes", "wall": "Wall",
    "hedge": "Hedge", "weirwood": "Weirwood", "palisade": "Palisade", "custom": "Terrain",
}
QUADRANTS = {"sw": "south-west", "se": "south-east", "nw": "north-west", "ne": "north-east"}


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
        "factions": dict(FACTION_NAMES),
        "quadrants": dict(QUADRANTS),
    }
