"""Rendered fragments kept in the cache (issue 27: the home page's lobbies, My games' rows, a
tournament's standings and its list, a profile's charts). A fragment is a saving, never a need: when
the cache cannot be reached (Redis down), a read is a miss and a write is skipped, so the page is
rendered afresh instead of failing. Every key is made of what the fragment shows or of a version
renewed by every change, so nothing kept is stale."""
from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

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
