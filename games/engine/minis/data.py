"""The starter content, loaded as data (data/starter_armies.yaml, copied from ../shared/data/minis
with its ids), and army-list checks (M1-M17)."""
from __future__ import annotations

import copy
import functools
import re
from pathlib import Path
from typing import Any

from games.engine import yamlfile
from games.engine.base import EngineError, ScenarioSetupError

DATA_FILE = Path(__file__).parent / "data" / "starter_armies.yaml"
QUICK_FILE = Path(__file__).parent / "data" / "quick_lists.yaml"  # the project's 20-point lists (M130)
FACTIONS = ("stark", "lannister")
ZONES = ("crown", "money", "letter", "swords", "horse")
CONDITIONS = ("panicked", "vulnerable", "weakened")
KEYWORDS = ("blocks_los", "cover", "destructible", "hindering", "elevated", "rough", "fortified",
            "horrific", "inspiring", "impassable", "dangerous")
# M79: the rulebook's example pieces and their keywords.
TERRAIN_TYPES = {
    "forest": ["cover", "fortified"],
    "corpse_pile": ["hindering", "horrific"],
    "bog": ["hindering", "rough"],
    "stakes": ["destructible", "dangerous"],
    "wall": ["destructible", "hindering", "fortified"],
    "hedge": ["cover", "destructible", "rough"],
    "weirwood": ["inspiring"],
    "palisade": ["blocks_los", "destructible", "impassable"],
    # not one of M79's examples: the project's agreed piece (seed 2008-2011: a piece that fits no category
    # has the keywords its players agree), the random terrain's player's choice from revision 5 (setup.py)
    "hill": ["elevated"],
}
SYNTHETIC_KEYS = {"id", "name", "faction", "type", "speed", "defense_save", "morale", "attacks", "tray",
                  "figures", "wounds_per_figure", "ranks", "cost"}


@functools.lru_cache(maxsize=1)
def _raw() -> dict[str, Any]:
    return yamlfile.load(DATA_FILE)


@functools.lru_cache(maxsize=1)
def content() -> dict[str, Any]:
    raw = _raw()
    cards: dict[str, dict[str, Any]] = {}
    for section, kind in (("units", "unit"), ("attachments", "attachment"), ("ncus", "ncu"),
                          ("tactics_cards", "tactics")):
        for c in raw[section]:
            c = dict(c)
            c["kind"] = kind
            cards[str(c["id"])] = c
    return {
        "cards": cards,
        "trays": raw["tray_types"],
        "decks": {d["id"]: d for d in raw["tactics_decks"]},
        "lists": {x["id"]: x for x in raw["fixed_lists"]},
        # the quick team game's 20-point lists (M130): kept apart from the starter lists the site offers
        "quick_lists": {x["id"]: x for x in yamlfile.load(QUICK_FILE)["quick_lists"]},
    }


def card(cid: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    if extra and cid in extra:
        return extra[cid]
    return content()["cards"][cid]


def known(cid: str, extra: dict[str, Any] | None = None) -> bool:
    return bool(extra and cid in extra) or cid in content()["cards"]


def tray_size(c: dict[str, Any]) -> tuple[float, float]:
    t = content()["trays"][c["tray"]]
    return float(t["frontage_in"]), float(t["depth_in"])


def cost(c: dict[str, Any]) -> int:
    v = c.get("cost", 0)
    return 0 if v == "C" else int(v)


def ability_names(c: dict[str, Any] | None) -> set[str]:
    if not c:
        return set()
    return {a["name"] for a in c.get("abilities", [])}


def list_ids() -> list[str]:
    return list(content()["lists"])


def default_list(faction: str, game_size: int = 30) -> dict[str, Any]:
    """The house's fixed list of that game size (20: the quick team game's, M130), else its 30-point
    starter list."""
    quick = [x for x in content()["quick_lists"].values()
             if x["faction"] == faction and int(x["game_size"]) == game_size]
    for x in quick + list(content()["lists"].values()):
        if x["faction"] == faction:
            return {"commander": x["commander_id"], "units": copy.deepcopy(x["combat_units"]),
                    "ncus": list(x["ncus"]), "id": x["id"]}
    raise KeyError(faction)


def deck_for(faction: str, commander: str) -> list[str]:
    """M16: the faction's 7 cards + the commander's 3, two copies each."""
    cards = content()["cards"]
    faction_cards = [cid for cid, c in cards.items() if c["kind"] == "tactics" and c["faction"] == faction
                     and c.get("deck") == "faction"]
    commander_cards = list(cards[commander].get("tactics_cards", [])) if commander in cards else []
    out: list[str] = []
    for cid in faction_cards + commander_cards:
        out += [cid, cid]
    return out


def slug(name: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    for prefix in ("stark_", "lannister_", "house_"):
        if s.startswith(prefix):
            s = s[len(prefix):]
    return s


def read_list(faction: str, spec: Any) -> dict[str, Any]:
    """A list given as a fixed list id or written out; ScenarioSetupError if unreadable."""
    if spec is None:
        return default_list(faction)
    if isinstance(spec, str):
        lst = content()["lists"].get(spec) or content()["quick_lists"].get(spec)
        if lst is None:
            raise ScenarioSetupError(f"unknown army list {spec!r}")
        return {"commander": lst["commander_id"], "units": copy.deepcopy(lst["combat_units"]),
                "ncus": list(lst["ncus"]), "id": spec, "faction": lst["faction"]}
    if not isinstance(spec, dict) or set(spec) - {"commander", "units", "ncus"}:
        raise ScenarioSetupError("an army list is a list id or {commander, units, ncus}")
    units = spec.get("units") or []
    if not isinstance(units, list) or not all(isinstance(u, dict) and set(u) <= {"unit", "attachment"}
                                              and "unit" in u for u in units):
        raise ScenarioSetupError("army units are [{unit, attachment?}]")
    for u in units:
        for key in ("unit", "attachment"):
            if key in u and not known(str(u[key])):
                raise ScenarioSetupError(f"unknown card {u[key]!r}")
    for n in spec.get("ncus") or []:
        if not known(str(n)):
            raise ScenarioSetupError(f"unknown card {n!r}")
    return {"commander": str(spec["commander"]) if spec.get("commander") is not None else None,
            "units": [{k: str(v) for k, v in u.items()} for u in units],
            "ncus": [str(n) for n in spec.get("ncus") or []]}


def list_points(lst: dict[str, Any]) -> int:
    cards = content()["cards"]
    pts = 0
    for u in lst["units"]:
        pts += cost(cards[u["unit"]])
        if u.get("attachment"):
            pts += cost(cards[u["attachment"]])
    for n in lst["ncus"]:
        pts += cost(cards[n])
    return pts


def check_list(faction: str, lst: dict[str, Any], game_size: int) -> None:
    """M1-M17 on the starter content; EngineError(illegal_action) saying what is wrong otherwise (in
    words for players: the rule ids stay in the comments)."""
    cards = content()["cards"]

    def bad(msg: str) -> EngineError:
        return EngineError("illegal_action", f"army list of {faction}: {msg}")

    used: dict[str, int] = {}
    characters: list[str] = []
    neutral = 0
    for u in lst["units"]:
        uc = cards[u["unit"]]
        if uc["kind"] != "unit":
            raise bad(f"{uc['name']} is not a combat unit")
        for cid in filter(None, (u.get("unit"), u.get("attachment"))):
            used[cid] = used.get(cid, 0) + 1
        if uc["faction"] not in (faction, "neutral"):
            raise bad(f"{uc['name']} is not of the {faction} faction")  # M2
        if uc["faction"] == "neutral":
            neutral += cost(uc)
        if uc.get("character"):
            characters.append(uc["name"])
        if u.get("attachment"):
            ac = cards[u["attachment"]]
            if ac["kind"] != "attachment":
                raise bad(f"{ac['name']} is not an attachment")
            if ac["faction"] not in (faction, "neutral"):
                raise bad(f"{ac['name']} is not of the {faction} faction")  # M2
            if uc["tray"].startswith("solo") or ac.get("attaches_to") != uc["type"]:
                raise bad(f"{ac['name']} cannot join {uc['name']} (one attachment of the unit's type, "  # M9
                          "never on a solo tray)")
            if ac.get("character"):
                characters.append(ac["character"])
    for n in lst["ncus"]:
        nc = cards[n]
        if nc["kind"] != "ncu":
            raise bad(f"{nc['name']} is not an NCU")
        if nc["faction"] not in (faction, "neutral"):
            raise bad(f"{nc['name']} is not of the {faction} faction")  # M2
        used[n] = used.get(n, 0) + 1
        if nc.get("character"):
            characters.append(nc["character"])
    for cid, count in used.items():
        limit = int(cards[cid].get("starter_copies", 1))
        if count > limit:
            raise bad(f"{count} copies of {cards[cid]['name']}, the starter content holds {limit}")
    dupes = sorted({c for c in characters if characters.count(c) > 1})
    if dupes:
        raise bad(f"{dupes[0]} appears twice (characters are unique)")  # M7
    commanders = [u["attachment"] for u in lst["units"] if u.get("attachment")
                  and cards[u["attachment"]].get("commander")]
    if len(commanders) != 1:
        raise bad(f"{len(commanders)} commanders attached; exactly one is required")  # M5, M6
    if lst.get("commander") and lst["commander"] != commanders[0]:
        raise bad("the commander named is not the one attached to a unit")  # M6
    for u in lst["units"]:
        for req in cards[u["unit"]].get("requirements", []):
            if req.get("kind") == "army_must_include_character" and req["character"] not in characters:
                raise bad(f"{cards[u['unit']]['name']} needs {req['character']} in the army")
    pts = list_points(lst)
    if pts > game_size:
        raise bad(f"{pts} points, over the game size of {game_size}")  # M1
    if neutral * 2 > pts:
        raise bad("neutral units over half the army's points")  # M3


def threshold(game_size: int) -> int:
    """M126: 30 -> 8, 40 -> 10, 50 -> 12, +2 per 10 points more."""
    return 8 + 2 * max(0, (int(game_size) - 30) // 10)
