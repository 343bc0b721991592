"""Words for the pages instead of codes and numbers of seconds: {% load site_words %}, then
`{{ game.ruleset|ruleset_name }}` ("A Game of Thrones: The Board Game", "B'Twixt", "A Game of Thrones:
The Card Game"), `{% open_rulesets ruleset as others %}` (the games open on the site but `ruleset`, each with its
name),
`{{ lobby.time_limit|duration_words }}` ("2 hours", "1 day and 12 hours", "90 seconds"),
`{{ row.seat|seat_name:row.game.ruleset }}` ("Baratheon", "Cersei Lannister", "Player 1"),
and `{% table_seat_player seat table %}` (a tournament table's player, with
"left in round N; the computer played on" when they left).

It lives in the ratings app because `web` is not an installed app (its templates are found by
folder), and a template library must belong to one."""
from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy, ngettext_lazy

from games import rulesets

register = template.Library()

RULESET_NAMES = rulesets.NAMES
LEFT_THE_GAME = gettext_lazy("(left the game)")
UNITS = ((ngettext_lazy("%(count)d day", "%(count)d days", "count"), 86400),
         (ngettext_lazy("%(count)d hour", "%(count)d hours", "count"), 3600),
         (ngettext_lazy("%(count)d minute", "%(count)d minutes", "count"), 60),
         (ngettext_lazy("%(count)d second", "%(count)d seconds", "count"), 1))


@register.filter
def ruleset_name(ruleset: str) -> str:
    return gettext(rulesets.name(ruleset))  # in the page's language (the names are marked in games/rulesets.py)


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
        return gettext("Player %(number)s") % {"number": seat[1:]}
    if ruleset == "btwixt":
        from web import btwixt as btwixt_data  # built once per process (issue 27)

        leaders = btwixt_data.catalogue().get("leaders", {})
        if seat in leaders:
            return leaders[seat]
    if ruleset == "minis" and seat.endswith("_2"):  # a house's second army (three or four players, M131)
        from games.engine.minis.armies import house

        return gettext("%(house)s (second army)") % {"house": house(seat[:-2])}
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
        return gettext("no time")
    parts = []
    for words, size in UNITS:
        count, left = divmod(left, size)
        if count:
            parts.append(words % {"count": count})
    if len(parts) == 1:
        return parts[0]
    return gettext("%(larger)s and %(smaller)s") % {"larger": parts[0], "smaller": parts[1]}



@register.simple_tag
def table_seat_player(seat, table):
    """A tournament table seat's player (with the bot badge), and when they left the game, the round
    and that the computer played on: the same words as the game's result (games/results.py)."""
    from accounts.templatetags.bots import bot_badge, player
    from games.results import who_played

    user = seat.registration.user
    if not seat.abandoned or table.game_id is None:
        return player(user)
    if hasattr(seat, "game_seat"):  # read for the whole page (tournaments/views.py, _with_games_left)
        game_seat = seat.game_seat
    else:
        game_seat = table.game.seats.select_related("user").filter(seat=seat.seat).first()
    if game_seat is None or game_seat.left_at is None or game_seat.user_id != user.pk:
        return format_html("{} {}", player(user), LEFT_THE_GAME)
    return format_html("{}{}", who_played(game_seat), bot_badge(user))
