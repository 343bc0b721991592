"""The chat settings, each overridable in Django settings (defaults here)."""
from __future__ import annotations

from django.conf import settings

DEFAULTS: dict[str, int] = {
    "CHAT_MAX_LENGTH": 1000,  # characters of a message, after cleaning
    "CHAT_RATE_MESSAGES": 5,  # messages a user may send ...
    "CHAT_RATE_SECONDS": 5,  # ... per window of this many seconds (0 messages: no limit)
    "CHAT_PAGE_SIZE": 50,  # history page size (the client may ask for up to CHAT_MAX_PAGE_SIZE)
    "CHAT_MAX_PAGE_SIZE": 200,
}


def get(name: str) -> int:
    return int(getattr(settings, name, DEFAULTS[name]))
