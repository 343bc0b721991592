"""{% rating_summary user %}: a player's ratings and reliability, for the profile page."""
from __future__ import annotations

from django import template

from ratings import services

register = template.Library()


@register.inclusion_tag("ratings/_summary.html")
def rating_summary(user) -> dict:
    profile = services.public_profile(user)
    ratings = [{"row": r, "provisional": services.is_provisional(r)} for r in profile.ratings]
    return {"ratings": ratings, "reliability": profile.reliability, "games_played": profile.games_played}
