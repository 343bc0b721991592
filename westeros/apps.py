"""The project package as an app of its own: system checks for a public deployment and the
`westeros_links` template tags (links in e-mails); in-memory SQLite read without table locks."""
from __future__ import annotations

from django.apps import AppConfig


class WesterosConfig(AppConfig):
    name = "westeros"
    verbose_name = "Westeros"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from westeros import checks  # noqa: F401  (registers the checks)
        from westeros.sqlite_shared import read_without_table_locks

        connection_created.connect(read_without_table_locks, dispatch_uid="westeros-sqlite-shared")
