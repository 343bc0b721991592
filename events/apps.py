from __future__ import annotations

from django.apps import AppConfig


class EventsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "events"
    verbose_name = "Event stream"

    def ready(self) -> None:
        from events import receivers

        receivers.connect()
