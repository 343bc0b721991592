"""{% rating_summary user %}: a player's ratings and reliability, for the profile page."""
from __future__ import annotations

from django import template

from ratings import services

register = template.Library()


@register.inclusion_tag("ratings/_summary.html")
def rating_summary(user) -> dict:
    ratings = [{"row": r, "provisional": services.is_provisional(r)} for r in services.ratings_of(user)]
    return {"ratings": ratings, "reliability": services.reliability_report(user),
            "games_played": services.games_played(user)}
