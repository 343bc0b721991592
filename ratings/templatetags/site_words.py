"""Words for the pages instead of codes and numbers of seconds: {% load site_words %}, then
`{{ game.ruleset|ruleset_name }}` ("A Game of Thrones: The Board Game", "B'Twixt", "A Game of Thrones:
The Card Game"), `{% open_rulesets ruleset as others %}` (the games open on the site but `ruleset`, each with its
name) and
`{{ lobby.time_limit|duration_words }}` ("2 hours", "1 day and 12 hours", "90 seconds"),
`{{ row.seat|seat_name:row.game.ruleset }}` ("Baratheon", "Cersei Lannister", "Player 1").

It lives in the ratings app because `web` is not an installed app (its templates are found by
folder), and a template library must belong to one."""
from __future__ import annotations

from django import template

from games import rulesets

register = template.Library()

RULESET_NAMES = rulesets.NAMES
UNITS = (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1))


@register.filter
def ruleset_name(ruleset: str) -> str:
    return rulesets.name(ruleset)


@register.simple_tag
def open_rulesets(exclude: str = "") -> list[dict[str, str]]:
    """The rulesets open for play on the site (games/rulesets.py) but `exclude`, each `{"id", "name"}`."""
    from games.rulesets import open_ruleset_ids

    return [{"id": ruleset, "name": ruleset_name(ruleset)} for ruleset in open_ruleset_ids() if ruleset != exclude]


@register.filter
def seat_name(seat, ruleset: str = "agot") -> str:
    """A seat as players say it: `{{ row.seat|seat_name:row.game.ruleset }}` ("Baratheon",
    "Cersei Lannister" for a B'Twixt leader, "Player 1" in the card game), never an id."""
    seat = str(seat or "")
    if ruleset == "lcg" and seat[1:].isdigit():
        return f"Player {seat[1:]}"
    if ruleset == "btwixt":
        from games.engine.btwixt import data as btwixt_data

        leaders = btwixt_data.catalogue().get("leaders", {})
        if seat in leaders:
            return leaders[seat]
    return " ".join(w.capitalize() for w in seat.split("_"))


@register.filter
def duration_words(seconds) -> str:
    """A number of seconds in words, at most its two largest units: 7200 -> "2 hours",
    129600 -> "1 day and 12 hours", 90 -> "1 minute and 30 seconds"."""
    try:
        left = int(seconds)
    except (TypeError, ValueError):
        return ""
    if left <= 0:
        return "no time"
    parts = []
    for name, size in UNITS:
        count, left = divmod(left, size)
        if count:
            parts.append(f"{count} {name}{'' if count == 1 else 's'}")
    return " and ".join(parts[:2])

