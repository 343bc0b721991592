"""The ratings settings, each overridable in Django settings (defaults here)."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings

from ratings import elo

DEFAULTS: dict[str, object] = {
    "RATINGS_K": elo.DEFAULT_K,
    "RATINGS_K_PROVISIONAL": elo.DEFAULT_K_PROVISIONAL,
    "RATINGS_PROVISIONAL_GAMES": elo.DEFAULT_PROVISIONAL_GAMES,
    "RATINGS_INACTIVE_DAYS": 180,
    "RATINGS_LEADERBOARD_PAGE_SIZE": 50,
    "RATINGS_HISTORY_LENGTH": 50,
    "RELIABILITY_DECISIONS": 100,
}


def get(name: str):
    return getattr(settings, name, DEFAULTS[name])


def elo_config() -> elo.EloConfig:
    return elo.EloConfig(
        k=float(get("RATINGS_K")),
        k_provisional=float(get("RATINGS_K_PROVISIONAL")),
        provisional_games=int(get("RATINGS_PROVISIONAL_GAMES")),
    )


def provisional_games() -> int:
    return int(get("RATINGS_PROVISIONAL_GAMES"))


def inactive_after() -> timedelta:
    return timedelta(days=int(get("RATINGS_INACTIVE_DAYS")))


def reliability_decisions() -> int:
    return int(get("RELIABILITY_DECISIONS"))
