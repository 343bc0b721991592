"""What the games' narrators (agot, lcg and minis `narrate.py`) share: lists and numbers in words,
a sentence built of pieces, and the line a ruleset's `describe_event` returns. Pure Python.

A narrator writes an event as a list of pieces: plain strings, marked strings (a `Marked`: a seat, a
house) a page shows in its own way, and lists of them. `sentence` flattens them into parts (`{"text"}`
for plain text, what `Marked.part` says for a marked piece), with the narrator's fallback for an event
it cannot tell; `text` joins the parts back into the sentence; `line` is the dict of a log line.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Event = dict[str, Any]
Part = dict[str, str]
Piece = Any  # str, Marked, or a list of them (flattened)

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# What a narrator may raise on an event without the fields its sentence needs: the fallback tells it.
TOLD_ERRORS: tuple[type[Exception], ...] = (KeyError, TypeError, ValueError, AttributeError, IndexError)
# A value missing from a sentence ("None"): the event lacks what its sentence needs.
MISSING = re.compile(r"\bNone\b")


# ------------------------------------------------------------------ words


def join(items: list[str]) -> str:
    """'a, b and c' (empty items left out)."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def count_of(n: Any, one: str, many: str) -> str:
    """'no cards', 'one card', 'three cards', '12 cards'."""
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
