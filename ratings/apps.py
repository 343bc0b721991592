from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Ratings and reliability"

    def ready(self) -> None:
        from ratings import receivers

        receivers.connect()
