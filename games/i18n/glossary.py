"""The Spanish game terms of each ruleset, as the Spanish rulebooks print them (issue 29).

`term("agot", "Siege Engine")` is "Torre de asedio". The words live in glossary/<game>.yaml, one entry
per English term as the project writes it, with the Spanish term, its kind and the seed line(s) that
give it; docs/glossary-es.md explains the files and lists them. A term the seeds do not give has
`spanish: null`: `term` then answers the English name, which translators keep (issue 29: "otherwise
keep the English name"). Each file is read once per process.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from games.engine import yamlfile

GLOSSARY_DIR = Path(__file__).parent / "glossary"
GAMES = ("agot", "lcg", "minis", "btwixt")


@functools.cache
def load(game: str) -> dict[str, Any]:
    """The glossary file of `game` as data; KeyError for a game that has none."""
    if game not in GAMES:
        raise KeyError(f"no glossary for the game {game!r}")
    return yamlfile.load(GLOSSARY_DIR / f"{game}.yaml")


@functools.cache
def _index(game: str) -> dict[str, list[dict[str, Any]]]:
    # English terms are matched without regard to case: narrators write "footman", pages "Footman".
    index: dict[str, list[dict[str, Any]]] = {}
    for entry in load(game)["terms"]:
        index.setdefault(entry["english"].casefold(), []).append(entry)
    return index


def entries(game: str) -> list[dict[str, Any]]:
    """Every entry of `game`'s glossary, in the file's order."""
    return load(game)["terms"]


def entry(game: str, english: str, kind: str | None = None) -> dict[str, Any]:
    """The glossary entry of an English term (of that kind, when the same English names two kinds of
    thing, as "Supply" the track and the Westeros card). KeyError when the glossary lacks it."""
    found = [e for e in _index(game).get(english.casefold(), []) if kind is None or e["kind"] == kind]
    if not found:
        raise KeyError(f"{game} glossary has no term {english!r}" + (f" of kind {kind!r}" if kind else ""))
    if len({e["spanish"] for e in found}) > 1:  # the tests keep this from happening; say so if it does
        raise KeyError(f"{game} glossary: {english!r} is ambiguous, give its kind")
    return found[0]


def term(game: str, english: str, kind: str | None = None, plural: bool = False) -> str:
    """The Spanish for an English game term, as the seed writes it; the English name when the seeds give
    no Spanish one. `plural=True` gives the seed's plural (LookupError when the seed gives none)."""
    found = entry(game, english, kind)
    if found["spanish"] is None:
        return found["english"]
    if not plural:
        return found["spanish"]
    if not found.get("plural"):
        raise LookupError(f"{game} glossary: the seed gives no plural of {found['spanish']!r}")
    return found["plural"]
