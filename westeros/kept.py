"""Rendered fragments kept in the cache (issue 27: the home page's lobbies, My games' rows, a
tournament's standings and its list, a profile's charts). A fragment is a saving, never a need: when
the cache cannot be reached (Redis down), a read is a miss and a write is skipped, so the page is
rendered afresh instead of failing. Every key is made of what the fragment shows or of a version
renewed by every change, so nothing kept is stale. InProcess keeps renderings in a process's own memory
instead, for HTML whose key holds all it shows."""
from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

log = logging.getLogger(__name__)


def get(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:  # the cache unreachable: render afresh
        log.warning("kept fragment %s: the cache could not be read", key.split(":", 1)[0])
        return None


def get_many(keys: list[str]) -> dict[str, Any]:
    if not keys:
        return {}
    try:
        return cache.get_many(keys)
    except Exception:
        log.warning("kept fragments: the cache could not be read")
        return {}


def keep(key: str, value: Any, seconds: int) -> None:
    try:
        cache.set(key, value, seconds)
    except Exception:
        log.warning("kept fragment %s: the cache could not be written", key.split(":", 1)[0])


def keep_many(values: dict[str, Any], seconds: int) -> None:
    if not values:
        return
    try:
        cache.set_many(values, seconds)
    except Exception:
        log.warning("kept fragments: the cache could not be written")


class InProcess:
    """Renderings kept in this process's memory (the header, the footer, the home page's play-now cards),
    for HTML that says only what its key says: the key holds everything it shows, so nothing kept is stale.
    At most `limit` kept; past that, all are forgotten at once."""

    def __init__(self, limit: int = 10_000):
        self.limit = limit
        self._kept: dict[Any, str] = {}

    def get(self, key: Any, render: Callable[[], str]) -> str:
        html = self._kept.get(key)
        if html is None:
            html = render()
            if len(self._kept) >= self.limit:
                self._kept.clear()
            self._kept[key] = html
        return html


# A kept rendering's forms: rendered with CSRF_MARK as their `csrf_token`, the request's token written in as
# they are served (`with_csrf`). NUL is in no stored text (PostgreSQL's text holds none, and a request
# carrying one is refused: westeros/middleware.py), so no name can be mistaken for it.
CSRF_MARK = "\x00csrf\x00"
_CSRF_FIELD = f'<input type="hidden" name="csrfmiddlewaretoken" value="{CSRF_MARK}">'


def with_csrf(html: str, csrf_token: Any) -> str:
    """A rendering made with CSRF_MARK as its `csrf_token`, with the request's token written in as
    {% csrf_token %} writes it: nothing without one (or with Django's NOTPROVIDED)."""
    if CSRF_MARK not in html:
        return html
    token = str(csrf_token) if csrf_token else ""
    return (html.replace(CSRF_MARK, conditional_escape(token)) if token and token != "NOTPROVIDED"
            else html.replace(_CSRF_FIELD, ""))


def mark(name: str) -> str:
    """A mark for a kept rendering: where a reader's own HTML goes, written in at each request (`filled`).
    NUL, as CSRF_MARK, is in no stored text or name."""
    return mark_safe(f"\x00{name}\x00")


def filled(html: str, csrf_token: Any, fills: dict[str, str] | None = None) -> str:
    """A kept rendering as one reader is served it: their CSRF token written in (`with_csrf`) and each mark of
    `fills` replaced by its HTML (escaped already: a name with conditional_escape)."""
    html = with_csrf(html, csrf_token)
    for at, value in (fills or {}).items():
        html = html.replace(at, value)
    return mark_safe(html)


def until_renewed(key: str, version_key: str, build: Callable[[], Any], seconds: int) -> Any:
    """The value kept under `key` while the version under `version_key` is the one it was built at, else
    `build()` kept anew: read in one round trip with its version. For a fragment whose rows change only
    when something happens that renews the version (`renew`, sent once that change has committed), such
    as the home page's recent results when a game ends: rebuilt once a change, not on a timer (issue 27).
    A build that read the rows before a change and is kept after it was kept under the old version, so
    the next reader builds again: never stale past a renewal. `seconds` bounds what no renewal covers."""
    found = get_many([key, version_key])
    version = found.get(version_key)
    if version is None:  # never set, or evicted: start one (another reader may just have)
        try:
            version = uuid.uuid4().hex
            if not cache.add(version_key, version, None):
                version = cache.get(version_key)
        except Exception:
            log.warning("kept fragment %s: the cache could not be written", key.split(":", 1)[0])
            version = None
        if version is None:
            return build()
    held = found.get(key)
    if isinstance(held, tuple) and len(held) == 2 and held[0] == version:
        return held[1]
    value = build()
    keep(key, (version, value), seconds)
    return value


def renew(version_key: str) -> None:
    """A new version for the fragments kept `until_renewed` under it: each is built again when next read."""
    try:
        cache.set(version_key, uuid.uuid4().hex, None)
    except Exception:
        log.warning("kept fragments %s: the cache could not be written", version_key.split(":", 1)[0])
