"""Deck building (rules/lcg.md §2.2, L16-L26, and each agenda's `deck_building` data): whether a deck is
legal, with every refusal a sentence in words, and ThronesDB's plain-text deck format (what ThronesDB's
"Export > Text" gives and what throneteki and ThronesDB users paste). Pure Python, no Django.

A deck is {"faction", "agenda", "plots", "draw"}: the faction's id, the agenda card's id (or None), and the
plot deck and the draw deck as lists of card ids, one entry per copy (as data.all_decks() gives them).
Sentences are marked with the narration's gettext, so the site says them in the reader's language; card names
stay as printed.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.engine.lcg import data
from games.engine.narration import gettext, join, ngettext, term

PLOT_COUNT = 7  # L18
MIN_DRAW = 60  # L19
COPIES = 3  # L20
PLOT_COPIES = 2  # L18: the one plot a plot deck doubles
DRAW_TYPES = ("character", "location", "attachment", "event")
# each faction as the rulebooks name it (games/i18n/glossary/lcg.yaml gives the Spanish)
HOUSES = {
    "baratheon": "House Baratheon", "greyjoy": "House Greyjoy", "lannister": "House Lannister",
    "martell": "House Martell", "thenightswatch": "The Night's Watch", "stark": "House Stark",
    "targaryen": "House Targaryen", "tyrell": "House Tyrell",
}
SECTIONS = (("plot", "Plots"), ("character", "Characters"), ("location", "Locations"),
            ("attachment", "Attachments"), ("event", "Events"))


class DeckFormatError(ValueError):
    """A deck that is not a deck at all (not a mapping, lists that are not lists of names): `reason` says
    why in words."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Problem:
    """One reason a deck is not legal: `rule` is the rule id behind it (for programs and tests), `text` the
    sentence a person reads."""

    rule: str
    text: str


def house(faction: str) -> str:
    """The faction in words ("House Stark", "Casa Stark"; "Neutral")."""
    if faction == "neutral":
        return term("lcg", "Neutral")
    return term("lcg", HOUSES.get(faction, faction))


def name(cid: str) -> str:
    card = data.cards().get(cid)
    return card["name"] if card else str(cid)


def _names(ids) -> str:
    return join([name(c) for c in ids])


# ------------------------------------------------------------------ shape


def normalise(deck: Any) -> dict[str, Any]:
    """The deck with its four keys checked for shape (DeckFormatError otherwise): faction a string,
    agenda a string or None, plots and draw lists of strings."""
    if not isinstance(deck, dict):
        raise DeckFormatError(gettext("A deck has a faction, an agenda, a plot deck and a draw deck."))
    faction = deck.get("faction")
    if not isinstance(faction, str):
        raise DeckFormatError(gettext("Choose the deck's faction."))
    agenda = deck.get("agenda") or None
    if agenda is not None and not isinstance(agenda, str):
        raise DeckFormatError(gettext("The agenda is one card."))
    out = {"faction": faction, "agenda": agenda}
    for key, said in (("plots", gettext("The plot deck is a list of cards.")),
                      ("draw", gettext("The draw deck is a list of cards."))):
        value = deck.get(key, [])
        if not isinstance(value, list) or not all(isinstance(c, str) and c for c in value):
            raise DeckFormatError(said)
        out[key] = list(value)
    return out


# ------------------------------------------------------------------ legality


def problems(deck: Any) -> list[Problem]:
    """Every reason the deck is not legal (empty: it is), in the order a builder fixes them."""
    d = normalise(deck)
    cards = data.cards()
    out: list[Problem] = []

    def say(rule: str, text: str, **values: Any) -> None:
        out.append(Problem(rule, text % values if values else text))

    # cards that are not what their place needs
    unknown = [c for c in dict.fromkeys([*d["plots"], *d["draw"], *([d["agenda"]] if d["agenda"] else [])])
               if c not in cards or cards[c].get("synthetic")]
    if unknown:
        say("L16", ngettext("%(cards)s is not a card of the Core Set.", "%(cards)s are not cards of the Core Set.",
                            len(unknown)), cards=join(unknown))
    if d["faction"] not in data.FACTIONS:
        say("L16", gettext("Choose the deck's faction: one of the eight Houses."))
    agenda = cards.get(d["agenda"]) if d["agenda"] else None
    if agenda is not None and agenda["type"] != "agenda":
        say("L17", gettext("%(card)s is not an agenda."), card=agenda["name"])
        agenda = None
    plots = [c for c in d["plots"] if c in cards]
    draw = [c for c in d["draw"] if c in cards]
    misplaced = [c for c in dict.fromkeys(plots) if cards[c]["type"] != "plot"]
    if misplaced:
        say("L18", ngettext("%(cards)s is not a plot: only plots go in the plot deck.",
                            "%(cards)s are not plots: only plots go in the plot deck.", len(misplaced)),
            cards=_names(misplaced))
    misplaced = [c for c in dict.fromkeys(draw) if cards[c]["type"] not in DRAW_TYPES]
    if misplaced:
        say("L19", ngettext("%(cards)s cannot go in the draw deck: it holds characters, locations, attachments "
                            "and events.", "%(cards)s cannot go in the draw deck: it holds characters, locations, "
                            "attachments and events.", len(misplaced)), cards=_names(misplaced))
    # L18: exactly seven plots
    if len(d["plots"]) != PLOT_COUNT:
        say("L18", ngettext("The plot deck has one plot; it needs exactly seven.",
                            "The plot deck has %(count)s plots; it needs exactly seven.", len(d["plots"])),
            count=len(d["plots"]))
    # L18, L22: one plot may appear twice (its plot deck limit permitting)
    by_title = Counter(name(c) for c in plots)
    doubled = [t for t, n in by_title.items() if n > 1]
    for t, n in by_title.items():
        limit = _limit([c for c in plots if name(c) == t], PLOT_COPIES)
        if n > limit:
            if limit == 1:
                say("L22", gettext("%(card)s may appear only once in a plot deck."), card=t)
            else:
                say("L18", gettext("%(card)s appears %(count)s times in the plot deck; a plot may appear at most "
                                   "%(limit)s times."), card=t, count=n, limit=limit)
    if len(doubled) > 1:
        say("L18", gettext("Only one plot may appear twice in the plot deck; here %(cards)s do."), cards=join(doubled))
    # L19: 60 draw cards or more
    if len(d["draw"]) < MIN_DRAW:
        say("L19", ngettext("The draw deck has one card; it needs at least 60.",
                            "The draw deck has %(count)s cards; it needs at least 60.", len(d["draw"])),
            count=len(d["draw"]))
    # L20, L21: copies by title ("Limit X per deck": the card's deck limit)
    for t, n in Counter(name(c) for c in draw).items():
        limit = _limit([c for c in draw if name(c) == t], COPIES)
        if n > limit:
            say("L21" if limit != COPIES else "L20",
                ngettext("%(card)s appears %(count)s times; a deck may hold one copy of it.",
                         "%(card)s appears %(count)s times; a deck may hold %(limit)s copies of it at most.", limit),
                card=t, count=n, limit=limit)
    # L23-L25: faction, loyalty, the Banner's permission
    rule = (agenda or {}).get("deck_building") or {}
    banner = rule.get("allow_non_loyal_faction")
    loyal_out, foreign = [], []
    for c in dict.fromkeys([*plots, *draw]) if d["faction"] in HOUSES else ():
        card = cards[c]
        f = card.get("faction", "neutral")
        if f in ("neutral", d["faction"]):
            continue  # L25
        if card.get("loyal"):
            loyal_out.append(c)
        elif f != banner:
            foreign.append(c)
    loyal_by: dict[str, list[str]] = {}
    for c in loyal_out:
        loyal_by.setdefault(cards[c]["faction"], []).append(c)
    for f, ids in loyal_by.items():
        say("L24", ngettext("%(cards)s is loyal to %(house)s: only a deck of %(house)s may hold it.",
                            "%(cards)s are loyal to %(house)s: only a deck of %(house)s may hold them.", len(ids)),
            cards=_names(ids), house=house(f))
    by_faction: dict[str, list[str]] = {}
    for c in foreign:
        by_faction.setdefault(cards[c]["faction"], []).append(c)
    for f, ids in by_faction.items():
        say("L23", ngettext("%(cards)s belongs to %(house)s: a deck of %(deck)s may hold it only with %(banner)s "
                            "as its agenda.",
                            "%(cards)s belong to %(house)s: a deck of %(deck)s may hold them only with %(banner)s "
                            "as its agenda.", len(ids)),
            cards=_names(ids), house=house(f), deck=house(d["faction"]), banner=name(banner_of(f)))
    # the agenda's own rule (its text "Constant (deck building)"; an unqualified "deck" is the draw deck, L26)
    if agenda is not None:
        faction = rule.get("min_cards_faction")
        if faction:
            have = sum(1 for c in draw if cards[c].get("faction") == faction)
            need = int(rule.get("min_cards", 0))
            if have < need:
                say("L24", ngettext("%(agenda)s needs at least %(need)s cards of %(house)s in the draw deck; it has one.",
                                    "%(agenda)s needs at least %(need)s cards of %(house)s in the draw deck; it has "
                                    "%(count)s.", have),
                    agenda=agenda["name"], need=need, house=house(faction), count=have)
        most = rule.get("max_neutral_cards")
        if most is not None:
            have = sum(1 for c in draw if cards[c].get("faction", "neutral") == "neutral")
            if have > most:
                say("L17", gettext("%(agenda)s allows at most %(most)s neutral cards in the draw deck; it has "
                                   "%(count)s."), agenda=agenda["name"], most=most, count=have)
    return out


def banner_of(faction: str) -> str:
    """The Banner agenda that lets a deck hold the non-loyal cards of `faction`."""
    for cid, card in data.cards().items():
        if (card.get("deck_building") or {}).get("allow_non_loyal_faction") == faction:
            return cid
    return faction


def _limit(ids: list[str], default: int) -> int:
    """The copies a title allows: the smallest printed deck limit among its cards (L21, L22)."""
    limits = [data.cards()[c].get("deck_limit") for c in ids]
    limits = [int(x) for x in limits if isinstance(x, int)]
    return min(limits) if limits else default


def is_legal(deck: Any) -> bool:
    try:
        return not problems(deck)
    except DeckFormatError:
        return False


def unplayable(deck: dict[str, Any], implemented=None) -> list[str]:
    """The deck's cards the engine does not play yet (cards.ABILITIES), each once, in deck order."""
    if implemented is None:
        from games.engine.lcg.cards import ABILITIES as implemented
    ids = [deck.get("agenda"), *deck.get("plots", []), *deck.get("draw", [])]
    return [c for c in dict.fromkeys(ids) if c and c not in implemented]


def unplayable_sentence(ids: list[str]) -> str:
    return ngettext("This card cannot be played on the site yet: %(cards)s.",
                    "These cards cannot be played on the site yet: %(cards)s.", len(ids)) % {"cards": _names(ids)}


def counts(deck: dict[str, Any]) -> dict[str, Any]:
    """What a builder shows: cards by type, draw cards by cost, plots, draw cards, and cards by faction."""
    cards = data.cards()
    draw = [cards[c] for c in deck.get("draw", []) if c in cards]
    by_type = Counter(c["type"] for c in draw)
    by_cost = Counter(str(c.get("cost")) for c in draw if c.get("cost") is not None)
    by_faction = Counter(c.get("faction", "neutral") for c in draw)
    return {
        "plots": len(deck.get("plots", [])), "draw": len(deck.get("draw", [])),
        "by_type": {t: by_type.get(t, 0) for t in DRAW_TYPES},
        "by_cost": dict(sorted(by_cost.items(), key=lambda kv: (not kv[0].isdigit(), int(kv[0]) if kv[0].isdigit() else 0))),
        "by_faction": dict(by_faction),
    }


# ------------------------------------------------------------------ ThronesDB's plain text


def _key(text: str) -> str:
    """A card's name as typed: no case, accents, curly quotes or punctuation."""
    text = unicodedata.normalize("NFKD", text).casefold()
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return re.sub(r"[^a-z0-9]+", "", text)


def _by_name() -> dict[str, str]:
    return {_key(c["name"]): cid for cid, c in data.cards().items() if not c.get("synthetic")}


_FACTION_KEYS = {**{_key(h): f for f, h in HOUSES.items()}, **{_key(f): f for f in HOUSES},
                 **{_key(data.FACTION_NAMES[f]): f for f in HOUSES}, _key("Night's Watch"): "thenightswatch",
                 # a list a Spanish reader types (the Spanish rulebook's names, games/i18n/glossary/lcg.yaml)
                 **{_key(f"Casa {data.FACTION_NAMES[f]}"): f for f in HOUSES if f != "thenightswatch"},
                 _key("Guardia de la Noche"): "thenightswatch", _key("La Guardia de la Noche"): "thenightswatch"}
_LINE = re.compile(r"^\s*(\d+)\s*[x×]?\s+(.+?)\s*$", re.I)
_PACK = re.compile(r"\s*\((?:[^()]*)\)\s*$")
_HEADER = re.compile(r"^\s*(plots?|characters?|locations?|attachments?|events?|agendas?|draw deck|plot deck)"
                     r"\s*(\(\s*\d+\s*\))?\s*:?\s*(\(\s*\d+\s*\))?\s*$", re.I)
_SKIP = re.compile(r"^\s*(packs?\s*:|total\s*(cards)?\s*:|deck\s*size|cards up to)", re.I)


def parse_text(text: str) -> tuple[dict[str, Any], list[str]]:
    """A deck from ThronesDB's plain text: ({"name", "faction", "agenda", "plots", "draw"}, the lines that could
    not be read, each in a sentence). The first line that is neither a faction, a card nor a heading is the
    deck's name; "House Stark" (or "Faction: House Stark") the faction; a line naming an agenda the agenda;
    "3x Card Name (Core Set)" (or "3 Card Name") a card, its type saying where it goes."""
    if not isinstance(text, str):
        raise DeckFormatError(gettext("Paste a deck list as text."))
    by_name = _by_name()
    cards = data.cards()
    deck: dict[str, Any] = {"name": "", "faction": None, "agenda": None, "plots": [], "draw": []}
    unread: list[str] = []
    first = True
    for raw in text.splitlines()[:400]:
        line = raw.strip()
        if not line or _SKIP.match(line) or _HEADER.match(line):
            continue
        was_first, first = first, False
        label = re.match(r"^\s*(faction|agenda|name|deck)\s*:\s*(.+)$", line, re.I)
        if label:
            line = label.group(2).strip()
        qty, title = 1, line
        m = _LINE.match(line)
        if m:
            qty, title = int(m.group(1)), m.group(2)
        title = _PACK.sub("", title).strip()
        key = _key(title)
        if not m and key in _FACTION_KEYS and deck["faction"] is None:
            deck["faction"] = _FACTION_KEYS[key]
            continue
        cid = by_name.get(key)
        if was_first and not m and not label and (cid is None or data.cards()[cid]["type"] != "agenda"):
            deck["name"] = line[:80]  # ThronesDB's first line: the deck's name (even one a card also has)
            continue
        if cid is None:
            if not m and not deck["name"] and not label or (label and label.group(1).lower() in ("name", "deck")):
                deck["name"] = line[:80]
            else:
                unread.append(gettext("No card of the Core Set is called “%(name)s”.") % {"name": title[:80]})
            continue
        ctype = cards[cid]["type"]
        if ctype == "agenda":
            deck["agenda"] = cid
        elif ctype == "plot":
            deck["plots"].extend([cid] * min(qty, 10))
        elif ctype in DRAW_TYPES:
            deck["draw"].extend([cid] * min(qty, 10))
        else:
            unread.append(gettext("%(card)s is a title: titles are not part of a deck.") % {"card": cards[cid]["name"]})
    return deck, unread


def format_text(deck: dict[str, Any], deck_name: str = "") -> str:
    """The deck in ThronesDB's plain text: its name, its faction, its agenda, then "Plots (7):" and the draw deck
    by type, one line "2x Card Name (Core Set)" per title. English, as ThronesDB and throneteki read it."""
    cards = data.cards()
    lines = [deck_name or "Deck", ""]
    if deck.get("faction") in HOUSES:
        lines.append(HOUSES[deck["faction"]])
    if deck.get("agenda") in cards:
        lines.append(cards[deck["agenda"]]["name"])
    lines += ["", "Packs: From Core Set to Core Set"]
    every = Counter([*deck.get("plots", []), *deck.get("draw", [])])
    for ctype, heading in SECTIONS:
        ids = sorted((c for c in every if c in cards and cards[c]["type"] == ctype), key=lambda c: cards[c]["name"])
        if not ids:
            continue
        lines += ["", f"{heading} ({sum(every[c] for c in ids)}):"]
        lines += [f"{every[c]}x {cards[c]['name']} (Core Set)" for c in ids]
    return "\n".join(lines) + "\n"
