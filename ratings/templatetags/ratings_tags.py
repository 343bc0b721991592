"""Profile fragments: {% rating_summary user %} (ratings, reliability, games played) and
{% rating_history user %} (a chart of each ruleset's rating over its ranked games, drawn as inline
SVG on the server, and the player's recent games)."""
from __future__ import annotations

from django import template

from games.models import GameSeat
from ratings import services
from ratings.models import RatingChange

register = template.Library()

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 90, 6
RECENT_GAMES = 10


@register.inclusion_tag("ratings/_summary.html")
def rating_summary(user) -> dict:
    ratings = [{"row": r, "provisional": services.is_provisional(r)} for r in services.ratings_of(user)]
    return {"ratings": ratings, "reliability": services.reliability_report(user),
            "games_played": services.games_played(user)}


def chart_points(values: list[float]) -> str:
    """SVG polyline points for `values` (oldest first), scaled to the chart box."""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (CHART_WIDTH - 2 * CHART_PAD) / max(1, len(values) - 1)
    return " ".join(
        f"{CHART_PAD + i * step:.1f},{CHART_HEIGHT - CHART_PAD - (v - low) / span * (CHART_HEIGHT - 2 * CHART_PAD):.1f}"
        for i, v in enumerate(values)
    )


@register.inclusion_tag("ratings/_history.html")
def rating_history(user) -> dict:
    changes = RatingChange.objects.filter(user=user).order_by("played_at", "id").values_list("ruleset", "before", "after")
    series: dict[str, list[float]] = {}
    for ruleset, before, after in changes:
        series.setdefault(ruleset, [before]).append(after)
    charts = [
        {"ruleset": ruleset, "points": chart_points(values), "first": values[0], "last": values[-1],
         "low": min(values), "high": max(values), "games": len(values) - 1}
        for ruleset, values in sorted(series.items())
    ]
    seats = (GameSeat.objects.filter(user=user).select_related("game")
             .order_by("-game__created_at", "-game_id")[:RECENT_GAMES])
    recent = [{"game": s.game, "seat": s.seat, "left": s.has_left(),
               "place": (s.game.ranking.index(s.seat) + 1) if s.game.ranking and s.seat in s.game.ranking else None}
              for s in seats]
    return {"charts": charts, "recent": recent, "width": CHART_WIDTH, "height": CHART_HEIGHT}
