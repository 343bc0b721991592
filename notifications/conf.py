"""The notification settings, each overridable in Django settings (defaults here)."""
from __future__ import annotations

from django.conf import settings

DEFAULTS: dict[str, object] = {
    # A deadline warning goes out this share of the time limit before the deadline, but at least
    # NOTIFY_DEADLINE_WARNING_MIN_SECONDS before it.
    "NOTIFY_DEADLINE_WARNING_FRACTION": 0.1,
    "NOTIFY_DEADLINE_WARNING_MIN_SECONDS": 60,
    # How often Celery beat looks for deadlines to warn about (the embedded runner: every loop).
    "NOTIFY_DEADLINE_WARNING_SWEEP_SECONDS": 30,
    "NOTIFY_WEBHOOK_TIMEOUT_SECONDS": 5.0,
    # How long saving a webhook URL waits for its name to resolve (the address check of the settings;
    # the real guard is at sending). A resolver that does not answer in time leaves the name unchecked
    # until then rather than holding the request (DNS timeouts are 5 s and more).
    "NOTIFY_WEBHOOK_CHECK_RESOLVE_SECONDS": 1.0,
    # Webhooks to loopback, private, link-local or reserved addresses are refused unless this is on
    # (tests point webhooks at a server on 127.0.0.1).
    "NOTIFY_WEBHOOK_ALLOW_PRIVATE": False,
    # The Celery queue of the sending tasks (None: Celery's default queue).
    "NOTIFY_QUEUE": None,
}


def get(name: str):
    return getattr(settings, name, DEFAULTS[name])
