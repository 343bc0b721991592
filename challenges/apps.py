from __future__ import annotations

from django.apps import AppConfig


class ChallengesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "challenges"
    verbose_name = "Challenges"

    def ready(self) -> None:
        from challenges.services import waiting_challenge_events
        from events.services import INITIAL_PROVIDERS

        if waiting_challenge_events not in INITIAL_PROVIDERS:
            INITIAL_PROVIDERS.append(waiting_challenge_events)
