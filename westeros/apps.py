"""The project package as an app of its own: system checks for a public deployment and the
`westeros_links` template tags (links in e-mails)."""
from __future__ import annotations

from django.apps import AppConfig


class WesterosConfig(AppConfig):
    name = "westeros"
    verbose_name = "Westeros"

    def ready(self) -> None:
        from westeros import checks  # noqa: F401  (registers the checks)
