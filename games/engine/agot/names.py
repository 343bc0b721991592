"""Names for the board game's refusals (EngineError sentences a player reads, issue 29): houses, areas,
units, orders, cards and tracks as the log names them (narrate.py: the Spanish rulebook's words through
the site's glossary when the reader's language is Spanish), never their ids; a list is said as a list
("Winterfell, Invernalia y Pyke"). The rules a refusal follows go in EngineError's `rules`, not in its
sentence."""
from __future__ import annotations

from typing import Any

from games.engine.agot import narrate as N
from games.engine.agot.data import HOUSES, token_kind


def house(h: Any) -> str:
    return h.capitalize() if h in HOUSES else N.words(h)


def houses(hs: Any) -> str:
    return N.join([house(h) for h in hs])


def area(a: Any) -> str:
    return N.area(a)


def areas(items: Any) -> str:
    return N.join([area(a) for a in items])


def units(us: Any) -> str:
    return N.units(list(us))


def order(t: Any) -> str:
    """'March +1 order', 'special Raid order'."""
    return N.order(t)


def order_kind(t: Any) -> str:
    """The kind of an order token, as the rulebook names it ('Raid', 'Incursión')."""
    try:
        kind = token_kind(t)
    except (KeyError, ValueError, StopIteration, TypeError):
        return N.words(t)
    return N.term("agot", {"consolidate": "Consolidate Power"}.get(kind, kind.capitalize()), "order")


# The units by the rulebook's names, with the English plural (the glossary gives the Spanish one).
UNIT_WORDS = {"footman": ("Footman", "Footmen"), "knight": ("Knight", "Knights"), "ship": ("Ship", "Ships"),
              "siege_engine": ("Siege Engine", "Siege Engines")}


def unit_singular(u: Any) -> str:
    """'Knight', 'Caballero'."""
    return N.term("agot", UNIT_WORDS[u][0], "unit") if u in UNIT_WORDS else N.words(u)


def unit_plural(u: Any) -> str:
    """'Knights', 'Caballeros'."""
    if u not in UNIT_WORDS:
        return N.words(u)
    one, many = UNIT_WORDS[u]
    said = N.term("agot", one, "unit", plural=True)
    return many if said == one else said


def card(c: Any) -> str:
    return N.card(c)


def named(x: Any) -> str:
    """Whatever an id names: a house, an area, a track, a card; else the id in words."""
    if isinstance(x, str):
        if x in HOUSES:
            return house(x)
        if x in N.board().areas:
            return area(x)
        if x in N.TRACK_NAMES:
            return N.track(x)
        said = N.card(x)
        if said != N.words(x).capitalize():
            return said
    return N.words(x)


def options(xs: Any) -> str:
    """A list of choices, each by its name ('the Iron Throne track, the Fiefdoms track or ...')."""
    return ", ".join(named(x) for x in xs)
