"""What the games' narrators (agot, lcg and minis `narrate.py`) share: lists and numbers in words,
a sentence built of pieces, and the line a ruleset's `describe_event` returns. Pure Python.

A narrator writes an event as a list of pieces: plain strings, marked strings (a `Marked`: a seat, a
house) a page shows in its own way, and lists of them. `sentence` flattens them into parts (`{"text"}`
for plain text, what `Marked.part` says for a marked piece), with the narrator's fallback for an event
it cannot tell; `text` joins the parts back into the sentence; `line` is the dict of a log line.

Languages (issue 29). A narrator writes each sentence as one translatable template with named
placeholders, `say(gettext("%(house)s raids from %(area)s."), house=h, area=area(a))`, so a language
with another word order gets the whole sentence (docs/translating.md). `gettext`, `ngettext`,
`pgettext` and `gettext_noop` here are named as Django's, so `makemessages` finds the templates; they
answer English until a host installs its words (`use_words`): the site installs Django's translation
of the active language and the Spanish glossary (games/i18n/narration_words.py), so each reader gets
the log in their own language, built from the stored events at read time. `term(game, english, kind)`
is a game term in the active language (the rulebooks' Spanish: games/i18n/glossary). The engines
themselves never import Django: without installed words, everything is English, as before.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol

Event = dict[str, Any]
Part = dict[str, str]
Piece = Any  # str, Marked, or a list of them (flattened)


# ------------------------------------------------------------------ languages


class Words(Protocol):
    """What a host installs to have the narrators speak another language: Django's translation
    functions of the active language, and the game terms of that language."""

    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int) -> str: ...
    def pgettext(self, context: str, message: str) -> str: ...
    def term(self, game: str, english: str, kind: str | None = None, plural: bool = False) -> str: ...


_words: Words | None = None


def use_words(words: Words | None) -> None:
    """Install the host's words (None: English, the engines' own)."""
    global _words
    _words = words


def gettext(message: str) -> str:
    return _words.gettext(message) if _words else message


_ = gettext


def gettext_noop(message: str) -> str:
    """Marks a text for translation where it is defined (a table); translate it where it is used."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    if _words:
        return _words.ngettext(singular, plural, n)
    return singular if n == 1 else plural


def pgettext(context: str, message: str) -> str:
    return _words.pgettext(context, message) if _words else message


def term(game: str, english: str, kind: str | None = None, plural: bool = False) -> str:
    """A game term (an area, a card, a unit...) as the active language writes it: the English name
    unless installed words give another (the Spanish rulebooks' word, else the English name)."""
    if _words:
        return _words.term(game, english, kind, plural)
    return english


NUMBERS = ("no", "one", gettext_noop("two"), gettext_noop("three"),
           gettext_noop("four"), gettext_noop("five"), gettext_noop("six"), gettext_noop("seven"),
           gettext_noop("eight"), gettext_noop("nine"), gettext_noop("ten"))
# What a narrator may raise on an event without the fields its sentence needs: the fallback tells it.
TOLD_ERRORS: tuple[type[Exception], ...] = (KeyError, TypeError, ValueError, AttributeError, IndexError)
# A value missing from a sentence ("None"): the event lacks what its sentence needs.
MISSING = re.compile(r"\bNone\b")


# ------------------------------------------------------------------ words


def join(items: list[str]) -> str:
    """'a, b and c' (empty items left out), in the active language ('a, b y c')."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return gettext("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}


def number(n: Any) -> str:
    """2 to 10 in words ('three', 'tres'), other numbers in figures. One and none are part of their
    sentence's own words (their gender differs in Spanish: 'una carta', 'un Caballero'): write them in
    the template ("one card" / "%(count)s cards", with `ngettext`), not with this."""
    n = int(n or 0)
    return gettext(NUMBERS[n]) if 2 <= n < len(NUMBERS) else str(n)


def counted(n: Any, template: str) -> str:
    """A counted phrase from a template `ngettext` chose: counted(n, ngettext("one card",
    "%(count)s cards", n)) -> 'three cards' / 'tres cartas'."""
    return template % {"count": number(n)} if "%(count)s" in template else template


def count_of(n: Any, one: str, many: str) -> str:
    """'no cards', 'one card', 'three cards', '12 cards': English only (the engines' tests and tools);
    a narrated sentence uses `ngettext` and `counted` so that it can be translated."""
    n = int(n or 0)
    return f"{NUMBERS[n] if 0 <= n < len(NUMBERS) else n} {one if n == 1 else many}"


# ------------------------------------------------------------------ pieces and parts


class Marked(str):
    """A piece a page shows in its own way: its part carries a second key besides `text`."""

    def part(self) -> Part:
        raise NotImplementedError


class Seat(Marked):
    """A seat inside a sentence: the placeholder `{p1}` in the text, shown by a page as the player's
    name (the part `{"text": "{p1}", "seat": "p1"}`)."""

    def part(self) -> Part:
        return {"text": "{" + str(self) + "}", "seat": str(self)}


def flat(pieces: list[Piece]) -> list[Part]:
    """The pieces as parts: nested lists flattened, empty strings dropped, neighbouring plain text
    merged into one part."""
    out: list[Part] = []
    for p in pieces:
        if isinstance(p, list):
            out.extend(flat(p))
        elif isinstance(p, Marked):
            out.append(p.part())
        elif p:
            if out and len(out[-1]) == 1:  # a plain-text part ({"text"} alone)
                out[-1] = {"text": out[-1]["text"] + str(p)}
            else:
                out.append({"text": str(p)})
    return out


PLACE = re.compile(r"%\((\w+)\)s|%%")


def say(template: str, **pieces: Piece) -> list[Piece]:
    """A translated template as pieces: each `%(name)s` replaced by its piece (a string, a Marked
    piece such as a seat or a house, or a list of them), so that marked pieces keep their mark in any
    word order; `%%` is a percent sign. say(gettext("%(house)s raids %(area)s."), house=h, area="Pyke")
    -> [h, " raids ", "Pyke", "."]. A placeholder without its piece raises KeyError (the sentence's
    fallback then tells the event)."""
    out: list[Piece] = []
    at = 0
    for m in PLACE.finditer(template):
        out.append(template[at:m.start()])
        out.append("%" if m.group(0) == "%%" else pieces[m.group(1)])
        at = m.end()
    out.append(template[at:])
    return out


def sentence(tell: Callable[[Event], list[Piece] | None] | None, event: Event,
             fallback: Callable[[Event], list[Piece]],
             errors: tuple[type[Exception], ...] = TOLD_ERRORS) -> list[Part]:
    """The event's sentence in parts: `tell(event)`, or `fallback(event)` when there is no teller, it
    returns None, raises one of `errors`, or leaves a value missing; a sentence starting with plain
    text starts with a capital."""
    try:
        pieces = tell(event) if tell else None
    except errors:
        pieces = None
    out = flat(pieces if pieces is not None else fallback(event))
    if any(MISSING.search(p["text"]) for p in out):  # an event without the values its sentence needs
        out = flat(fallback(event))
    if out and len(out[0]) == 1 and out[0]["text"][:1].islower():
        out[0] = {"text": out[0]["text"][:1].upper() + out[0]["text"][1:]}
    return out


def text(parts: list[Part]) -> str:
    return "".join(p["text"] for p in parts)


def seats(parts: list[Part]) -> list[str]:
    """The seats a sentence names, once each, in order."""
    return list(dict.fromkeys(p["seat"] for p in parts if "seat" in p))


def fill(text: str, names: dict[str, str]) -> str:
    """The sentence with each seat placeholder replaced by the player's name ({"p1": "alice"})."""
    return re.sub(r"\{(\w+)\}", lambda m: names.get(m.group(1), m.group(0)), text)


# ------------------------------------------------------------------ log lines


def line(parts: list[Part], *, key: bool, headline: bool, private: bool = False,
         moment: dict[str, Any] | None = None, **named: list[str]) -> dict[str, Any]:
    """A log line as `describe_event` returns it: the sentence (`text`), its pieces (`parts`), whether
    it belongs in a digest (`key`) and leads a summary (`headline`), what it names (`named`, e.g.
    `seats` or `areas`: each only when not empty), `private` when it tells what only this viewer may
    see, and the round/phase it starts (`moment`, its values that are not None)."""
    out: dict[str, Any] = {"text": text(parts), "parts": parts, "key": key, "headline": headline}
    out.update({k: v for k, v in named.items() if v})
    if private:
        out["private"] = True
    out.update({k: v for k, v in (moment or {}).items() if v is not None})
    return out
