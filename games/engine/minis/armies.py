"""Army building for the miniatures game (rules/minis.md M1-M17, M126): whether an army is legal, with every
refusal a sentence in words, its points, its Tactics deck, and the plain-text list community army builders
export and read (a title, then one card a line with its points). Pure Python, no Django.

An army is {"faction", "game_size", "commander", "units", "ncus"}: the faction's id, the agreed points (M1), the
Commander's card id, the combat units as [{"unit": id, "attachment": id?}] (the Commander is the attachment of
one of them, M6) and the NCUs as card ids, one entry per copy. Ids are the data's (data/starter_armies.yaml).
Sentences are marked with the narration's gettext (the site says them in the reader's language); card and
faction names go through `term("minis", ...)` (the Spanish rulebook's words).
"""
from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.engine import yamlfile
from games.engine.minis import data
from games.engine.narration import gettext, join, ngettext, term

GAME_SIZES = (30, 40, 50)  # M1: the suggested sizes (any total is allowed)
MIN_SIZE, MAX_SIZE = 10, 150
MAX_UNITS, MAX_NCUS = 30, 15
GLOSSARY = Path(__file__).resolve().parents[2] / "i18n" / "glossary" / "minis.yaml"
FACTION_NAMES = {"stark": "Stark", "lannister": "Lannister", "neutral": "Neutral"}


class ArmyFormatError(ValueError):
    """Something that is not an army at all (not a mapping, unknown card ids): `reason` says why in words."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Problem:
    """One reason an army is not legal: `rule` the rule id (rules/minis.md), `text` the sentence a person reads."""

    rule: str
    text: str


# ------------------------------------------------------------------ the cards


def cards() -> dict[str, dict[str, Any]]:
    return data.content()["cards"]


def name(cid: str) -> str:
    """A card's name in the reader's language."""
    c = cards().get(cid)
    return term("minis", c["name"]) if c else cid


def house(faction: str) -> str:
    """The faction in words ("Stark" / "Casa Stark")."""
    return term("minis", FACTION_NAMES.get(faction, faction))


def points_of(cid: str) -> int:
    """A card's points; a Commander costs none (M5)."""
    return data.cost(cards()[cid])


def is_commander(cid: str | None) -> bool:
    c = cards().get(cid or "")
    return bool(c and c["kind"] == "attachment" and c.get("commander"))


def character(cid: str) -> str | None:
    """The character a card is (M7: versions of one character are the same character), or None."""
    c = cards()[cid]
    if isinstance(c.get("character"), str):
        return c["character"]
    return c["name"] if c.get("character") else None


def characters(army: dict[str, Any]) -> list[str]:
    """The characters an army fields (M7's reading: any version of one character is that character), in the
    order of its list: its units, their attachments (the Commander among them) and its NCUs. `army` is an army or
    a list as the engine reads it (`engine_list`)."""
    ids = [x for u in army.get("units") or [] for x in (u.get("unit"), u.get("attachment")) if x]
    ids += list(army.get("ncus") or [])
    if army.get("commander"):
        ids.append(army["commander"])
    return list(dict.fromkeys(who for cid in ids if cid in cards() and (who := character(cid))))


def shared_characters(first: dict[str, Any], second: dict[str, Any]) -> list[str]:
    """M130: the characters two armies both field (teammates may not: a character appears once in a whole
    team), in the first army's order."""
    theirs = set(characters(second))
    return [who for who in characters(first) if who in theirs]


def team_clash_words(shared: list[str], first: str, second: str) -> str:
    """M130's refusal in words: the characters (English names; said in the reader's language) two armies of one
    team share, and the two armies as the caller names them."""
    return ngettext("%(characters)s is in two armies of one team, %(first)s and %(second)s: in a team game a "
                    "character appears once in the whole team, whichever version of him or her.",
                    "%(characters)s are in two armies of one team, %(first)s and %(second)s: in a team game a "
                    "character appears once in the whole team, whichever version of him or her.", len(shared)) % {
        "characters": join([term("minis", who) for who in shared]), "first": first, "second": second}


def catalogue(faction: str) -> dict[str, list[str]]:
    """The cards an army of `faction` may hold (M2): its own and the neutral ones, by kind."""
    out: dict[str, list[str]] = {"units": [], "attachments": [], "commanders": [], "ncus": []}
    for cid, c in cards().items():
        if c.get("faction") not in (faction, "neutral"):
            continue
        if c["kind"] == "unit":
            out["units"].append(cid)
        elif c["kind"] == "attachment":
            out["commanders" if c.get("commander") else "attachments"].append(cid)
        elif c["kind"] == "ncu":
            out["ncus"].append(cid)
    return out


# ------------------------------------------------------------------ the army's shape


def normalise(army: Any) -> dict[str, Any]:
    """The army with its ids as strings and its lists as lists; ArmyFormatError in words when it is not an army or
    names a card the data does not hold. Its legality is `problems`'."""
    if not isinstance(army, dict):
        raise ArmyFormatError(gettext("An army has a faction, a game size, a Commander, combat units and NCUs."))
    faction = army.get("faction")
    if not isinstance(faction, str) or faction not in data.FACTIONS:
        raise ArmyFormatError(gettext("Choose the army's faction: Stark or Lannister."))
    size = army.get("game_size", GAME_SIZES[0])
    if not isinstance(size, int) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ArmyFormatError(gettext("The game size is a number of points from %(least)s to %(most)s.")
                              % {"least": MIN_SIZE, "most": MAX_SIZE})
    units = army.get("units") or []
    ncus = army.get("ncus") or []
    if not isinstance(units, list) or not all(isinstance(u, dict) and isinstance(u.get("unit"), str)
                                              and set(u) <= {"unit", "attachment"} for u in units):
        raise ArmyFormatError(gettext("The combat units are a list of units, each with at most one attachment."))
    if not isinstance(ncus, list) or not all(isinstance(n, str) for n in ncus):
        raise ArmyFormatError(gettext("The NCUs are a list of cards."))
    if len(units) > MAX_UNITS or len(ncus) > MAX_NCUS:
        raise ArmyFormatError(gettext("An army of more than %(units)s combat units or %(ncus)s NCUs cannot be saved.")
                              % {"units": MAX_UNITS, "ncus": MAX_NCUS})
    commander = army.get("commander") or None
    if commander is not None and not isinstance(commander, str):
        raise ArmyFormatError(gettext("The Commander is one card."))
    out_units = [{"unit": u["unit"], **({"attachment": u["attachment"]} if u.get("attachment") else {})}
                 for u in units]
    ids = [commander] if commander else []
    ids += [x for u in out_units for x in u.values()] + list(ncus)
    unknown = [cid for cid in dict.fromkeys(ids) if cid not in cards() or cards()[cid]["kind"] == "tactics"]
    if unknown:
        raise ArmyFormatError(gettext("Unknown cards: %(cards)s.") % {"cards": ", ".join(unknown[:10])})
    return {"faction": faction, "game_size": size, "commander": commander, "units": out_units, "ncus": list(ncus)}


# ------------------------------------------------------------------ points and legality


def points(army: dict[str, Any]) -> int:
    """M1, M5, M15: units, attachments and NCUs; the Commander costs none."""
    total = 0
    for u in army["units"]:
        total += points_of(u["unit"]) + (points_of(u["attachment"]) if u.get("attachment") else 0)
    return total + sum(points_of(n) for n in army["ncus"])


def neutral_points(army: dict[str, Any]) -> int:
    ids = [x for u in army["units"] for x in u.values()] + list(army["ncus"])
    return sum(points_of(cid) for cid in ids if cards()[cid].get("faction") == "neutral")


def problems(army: Any) -> list[Problem]:
    """Every reason the army is not legal (M1-M9), in words; [] when it is."""
    army = normalise(army)
    out: list[Problem] = []
    every = cards()
    faction = army["faction"]

    def say(rule: str, text: str, **values: Any) -> None:
        out.append(Problem(rule, text % values if values else text))

    # M2 (M4: an all-neutral army holds only neutral cards; the data has no such faction yet)
    ids = [x for u in army["units"] for x in u.values()] + list(army["ncus"])
    if army["commander"]:
        ids.append(army["commander"])
    foreign = [cid for cid in dict.fromkeys(ids) if every[cid].get("faction") not in (faction, "neutral")]
    for cid in foreign:
        say("M2", gettext("%(card)s belongs to %(house)s: an army of %(army)s holds only its faction's cards and "
                          "neutral ones."), card=name(cid), house=house(every[cid]["faction"]), army=house(faction))
    # kinds: the slots hold what they say
    for u in army["units"]:
        if every[u["unit"]]["kind"] != "unit":
            say("M9", gettext("%(card)s is not a combat unit."), card=name(u["unit"]))
    for n in army["ncus"]:
        if every[n]["kind"] != "ncu":
            say("M15", gettext("%(card)s is not an NCU."), card=name(n))
    # M5, M6: one Commander, attached to a unit of his type
    commander = army["commander"]
    attached_commanders = [u["attachment"] for u in army["units"] if is_commander(u.get("attachment"))]
    if not commander:
        say("M5", gettext("Choose the army's Commander."))
    elif not is_commander(commander):
        say("M5", gettext("%(card)s is not a Commander."), card=name(commander))
    elif commander not in attached_commanders:
        kind = every[commander].get("attaches_to", "infantry")
        say("M6", gettext("%(commander)s must be attached to one of the army's combat units (%(kind)s)."),
            commander=name(commander), kind=term("minis", kind.title()))
    for cid, count in Counter(attached_commanders).items():
        if cid != commander or count > 1:
            say("M5", gettext("%(card)s is a Commander: an army has exactly one, the one it chose."), card=name(cid))
    # M9: attachments match their unit's type, never on a solo tray
    for u in army["units"]:
        a = u.get("attachment")
        uc = every[u["unit"]]
        if not a or uc["kind"] != "unit":
            continue
        ac = every[a]
        if ac["kind"] != "attachment":
            say("M9", gettext("%(card)s is not an attachment."), card=name(a))
        elif str(uc.get("tray", "")).startswith("solo"):
            say("M9", gettext("%(card)s cannot join %(unit)s: a unit on a solo tray takes no attachment."),
                card=name(a), unit=name(u["unit"]))
        elif ac.get("attaches_to") != uc.get("type"):
            say("M9", gettext("%(card)s cannot join %(unit)s: it joins %(kind)s units only."),
                card=name(a), unit=name(u["unit"]), kind=term("minis", str(ac.get("attaches_to", "")).title()))
    # M7: characters are unique, whichever version
    chars: Counter[str] = Counter()
    named = [x for u in army["units"] for x in u.values()] + list(army["ncus"])
    if commander and commander not in attached_commanders:
        named.append(commander)
    for cid in named:
        who = character(cid)
        if who:
            chars[who] += 1
    for who, count in chars.items():
        if count > 1:
            say("M7", gettext("%(character)s appears more than once: a character is unique in an army, whichever "
                              "version of him or her."), character=term("minis", who))
    # M8: the cards' own requirements
    present = {c for c in chars if chars[c] > 0}
    for u in army["units"]:
        for req in every[u["unit"]].get("requirements", []):
            if req.get("kind") == "army_must_include_character" and req["character"] not in present:
                say("M8", gettext("%(unit)s needs %(character)s in the army."), unit=name(u["unit"]),
                    character=term("minis", req["character"]))
    # M1, M3
    total = points(army)
    if total > army["game_size"]:
        say("M1", gettext("The army has %(points)s points, over the game size of %(size)s."),
            points=total, size=army["game_size"])
    neutral = neutral_points(army)
    if neutral * 2 > total:
        say("M3", gettext("Neutral cards may be at most half the army's points: here %(neutral)s of %(points)s."),
            neutral=neutral, points=total)
    # an army fights with combat units (M6, M24)
    if not army["units"]:
        say("M6", gettext("The army has no combat unit."))
    return _unique(out)


def _unique(found: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(found))


def is_legal(army: Any) -> bool:
    try:
        return not problems(army)
    except ArmyFormatError:
        return False


def unplayable(army: dict[str, Any]) -> list[str]:
    """What the site's engine does not play yet, in words: it fields the starter boxes' contents only (the copies
    games/engine/minis/data.check_list allows)."""
    army = normalise(army)
    used = Counter([x for u in army["units"] for x in u.values()] + list(army["ncus"]))
    out = []
    for cid, count in used.items():
        most = int(cards()[cid].get("starter_copies", 1))
        if count > most:
            out.append(ngettext("The site fields the starter box's contents: %(count)s copies of %(card)s, the box "
                                "holds one.",
                                "The site fields the starter box's contents: %(count)s copies of %(card)s, the box "
                                "holds %(most)s.", most) % {"count": count, "card": name(cid), "most": most})
    return out


def threshold(game_size: int) -> int:
    """M126: the victory points a game of this size is won with (30: 8, 40: 10, 50: 12, +2 per 10 more)."""
    return data.threshold(game_size)


def tactics_deck(army: dict[str, Any]) -> list[str]:
    """M16: the faction's seven cards and the Commander's three, two copies each (card ids)."""
    return data.deck_for(army["faction"], army["commander"]) if army.get("commander") else []


def report(army: Any) -> dict[str, Any]:
    """What a builder shows: legal or why not, what the site plays, points, the VP needed, the Tactics deck."""
    army = normalise(army)
    found = problems(army)
    missing = unplayable(army)
    return {"legal": not found, "problems": [{"rule": p.rule, "text": p.text} for p in found],
            "playable": not found and not missing, "unplayable": missing, "points": points(army),
            "neutral_points": neutral_points(army), "game_size": army["game_size"],
            "victory_points": threshold(army["game_size"]), "tactics": tactics_deck(army)}


def engine_list(army: dict[str, Any]) -> dict[str, Any]:
    """The army as the engine's setup reads a seat's list (options["armies"][seat], data.read_list)."""
    return {"commander": army["commander"], "units": [dict(u) for u in army["units"]], "ncus": list(army["ncus"])}


# ------------------------------------------------------------------ the starter armies


def starter_armies() -> dict[str, dict[str, Any]]:
    """The fixed starter lists (data's fixed_lists) as armies, by their ids, with an English name."""
    out = {}
    for lid, lst in data.content()["lists"].items():
        out[lid] = {"name": f"{FACTION_NAMES[lst['faction']]} starter army", "faction": lst["faction"],
                    "game_size": int(lst["game_size"]), "commander": lst["commander_id"],
                    "units": [{k: str(v) for k, v in u.items()} for u in lst["combat_units"]],
                    "ncus": [str(n) for n in lst["ncus"]]}
    return out


# ------------------------------------------------------------------ plain text


def _key(text: str) -> str:
    """A name as typed: no case, accents, quotes or punctuation."""
    text = unicodedata.normalize("NFKD", text).casefold()
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return re.sub(r"[^a-z0-9]+", "", text)


@functools.lru_cache(maxsize=1)
def _spanish_names() -> dict[str, list[str]]:
    """English card name -> its Spanish names (the glossary of the Spanish rulebook, games/i18n/glossary)."""
    out: dict[str, list[str]] = {}
    for t in yamlfile.load(GLOSSARY).get("terms", []):
        if t.get("spanish") and t.get("english"):
            out.setdefault(t["english"], []).append(t["spanish"])
    return out


@functools.lru_cache(maxsize=1)
def _by_name() -> dict[str, str]:
    """Card names as players type them: the full name, the name before its title when only one card has it
    ("Catelyn Stark"), and the Spanish rulebook's names."""
    full: dict[str, str] = {}
    short: dict[str, list[str]] = {}
    for cid, c in cards().items():
        if c["kind"] == "tactics":
            continue
        for n in (c["name"], *_spanish_names().get(c["name"], [])):
            full.setdefault(_key(n), cid)
            if "," in n:
                short.setdefault(_key(n.split(",")[0]), []).append(cid)
    for k, cids in short.items():
        if len(set(cids)) == 1:
            full.setdefault(k, cids[0])
    return full


_POINTS = re.compile(r"\s*(?:[\(\[]\s*(?:\d+|c)\s*(?:pts?|points?|puntos?)?\s*[\)\]]|[-–—:]?\s*(?:\d+|\bc)\s*"
                     r"(?:pts?|points?|puntos?)?)\s*$", re.I)
_BULLET = re.compile(r"^\s*(?:[-–•*+>↳]+|with\s|con\s|\d+\s*[x×.)]\s)\s*", re.I)
_LABEL = re.compile(r"^\s*(faction|facci[oó]n|game size|tama[nñ]o(?: de (?:la )?partida)?|size|commander|comandante|"
                    r"points|puntos|name|nombre|army|ej[eé]rcito)\s*:\s*(.*)$", re.I)
_HEADER = re.compile(r"^\s*(combat units?|unidades de combate|non[- ]combat units?|ncus?|uncs?|unidades no "
                     r"combatientes|attachments?|v[ií]nculos|units?|unidades|tactics.*|t[aá]cticas.*)\s*:?\s*"
                     r"(\(\s*\d+\s*\))?\s*$", re.I)


def _faction_of(text: str) -> str | None:
    key = _key(text)
    for f in data.FACTIONS:
        if key in (_key(f), _key(f"House {f}"), _key(f"Casa {f}"), _key(house(f))):
            return f
    return None


def parse_text(text: str) -> tuple[dict[str, Any], str, list[str]]:
    """An army from a builder's plain text: (the army, its name, the lines that could not be read, in sentences).
    A line naming a combat unit starts a unit, a line naming an attachment (Commander or not) joins the last unit,
    a line naming an NCU is an NCU, whatever its bullet or its points ("(5)", "- 5 pts", "(C)"); "Faction:",
    "Game size:" or "Points: 28/40", "Commander:" are read when present; the first other line is the name."""
    if not isinstance(text, str):
        raise ArmyFormatError(gettext("Paste an army list as text."))
    by_name = _by_name()
    every = cards()
    army: dict[str, Any] = {"faction": None, "game_size": None, "commander": None, "units": [], "ncus": []}
    title = ""
    unread: list[str] = []
    for raw in text.splitlines()[:200]:
        line = raw.strip()
        if not line or _HEADER.match(line):
            continue
        label = _LABEL.match(line)
        if label:
            what, value = label.group(1).casefold(), label.group(2).strip()
            if what.startswith(("fac",)):
                army["faction"] = _faction_of(value) or army["faction"]
                if army["faction"] is None:
                    unread.append(gettext("No faction is called “%(name)s”.") % {"name": value[:80]})
            elif what.startswith(("game", "tam", "size", "points", "puntos")):
                m = re.search(r"(\d+)\s*$", value)
                if m:
                    army["game_size"] = int(m.group(1))
            elif what.startswith(("comm", "coman")):
                cid = by_name.get(_key(_POINTS.sub("", value)))
                if cid and is_commander(cid):
                    army["commander"] = cid
                else:
                    unread.append(gettext("No Commander is called “%(name)s”.") % {"name": value[:80]})
            elif not title:
                title = value[:80]
            continue
        bare = _POINTS.sub("", _BULLET.sub("", line)).strip()
        cid = by_name.get(_key(bare))
        if cid is None:
            faction = _faction_of(bare)
            if faction:
                army["faction"] = army["faction"] or faction
            elif not title and not army["units"] and not army["ncus"]:
                title = line[:80]
            else:
                unread.append(gettext("No card is called “%(name)s”.") % {"name": bare[:80]})
            continue
        kind = every[cid]["kind"]
        if kind == "unit":
            army["units"].append({"unit": cid})
        elif kind == "ncu":
            army["ncus"].append(cid)
        elif kind == "attachment":
            if not army["units"] or "attachment" in army["units"][-1]:
                unread.append(gettext("%(card)s has no combat unit to join: write it under its unit.")
                              % {"card": name(cid)})
                continue
            army["units"][-1]["attachment"] = cid
            if every[cid].get("commander") and army["commander"] is None:
                army["commander"] = cid
    if army["faction"] is None:
        found = Counter(every[x]["faction"] for u in army["units"] for x in u.values()
                        if every[x]["faction"] in data.FACTIONS)
        army["faction"] = found.most_common(1)[0][0] if found else None
    if army["game_size"] is None:
        total = sum(points_of(x) for u in army["units"] for x in u.values()) + sum(points_of(n) for n in army["ncus"])
        army["game_size"] = next((s for s in GAME_SIZES if total <= s), max(MIN_SIZE, -(-total // 10) * 10))
    return army, title, unread


def format_text(army: dict[str, Any], army_name: str = "") -> str:
    """The army as builders export it, English as they read it: its name, faction, game size, Commander and
    points, then "Combat Units" one a line "Name (points)" with its attachment under it ("  • Name (points)", a
    Commander's "(C)"), then "Non-Combat Units"."""
    every = cards()

    def cost(cid: str) -> str:
        return "C" if every[cid].get("cost") == "C" else str(points_of(cid))

    lines = [army_name] if army_name else []
    lines.append(f"Faction: {FACTION_NAMES.get(army['faction'], army['faction'])}")
    if army.get("commander"):
        lines.append(f"Commander: {every[army['commander']]['name']}")
    lines.append(f"Points: {points(army)}/{army['game_size']}")
    lines += ["", "Combat Units"]
    for u in army["units"]:
        lines.append(f"{every[u['unit']]['name']} ({cost(u['unit'])})")
        if u.get("attachment"):
            lines.append(f"  • {every[u['attachment']]['name']} ({cost(u['attachment'])})")
    if army["ncus"]:
        lines += ["", "Non-Combat Units"]
        lines += [f"{every[n]['name']} ({cost(n)})" for n in army["ncus"]]
    return "\n".join(lines) + "\n"


def summary(army: dict[str, Any]) -> str:
    """One line: "Stark, 30 of 40 points, Robb Stark, The Wolf Lord"."""
    words = gettext("%(house)s, %(points)s of %(size)s points") % {
        "house": house(army["faction"]), "points": points(army), "size": army["game_size"]}
    return f"{words} · {name(army['commander'])}" if army.get("commander") else words
