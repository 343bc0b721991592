"""What the narrators' Spanish tests share (tests/test_{agot,lcg,minis}_in_spanish.py, issue 29): the
same events told by the engine alone (no host's words: its own English), by the site in English and
by the site in Spanish."""
from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from django.utils import translation

from games.engine import narration


@contextmanager
def engine_alone():
    """The narrators without the site's words (as the engines run in tools and benchmarks)."""
    narration.use_words(None)
    try:
        yield
    finally:
        from games.i18n.narration_words import SiteWords

        narration.use_words(SiteWords())


def told_three_ways(describe: Callable[[dict], Any], events: list[dict]) -> list[tuple[dict, Any, Any, Any]]:
    """(event, the engine's own line, the site's English line, the site's Spanish line) per event."""
    with engine_alone():
        bare = [describe(ev) for ev in events]
    with translation.override("en"):
        english = [describe(ev) for ev in events]
    with translation.override("es"):
        spanish = [describe(ev) for ev in events]
    return list(zip(events, bare, english, spanish, strict=True))
