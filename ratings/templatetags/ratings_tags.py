"""Profile fragments: {% rating_summary user %} (ratings, reliability, games played) and
{% rating_history user %} (a chart of each ruleset's rating over its ranked games, drawn as inline
SVG on the server, and the player's recent games)."""
from __future__ import annotations

import hashlib
from decimal import ROUND_HALF_UP, Decimal

from django import template
from django.core.cache import cache
from django.db.models import Count, Exists, Max, OuterRef
from django.template.loader import render_to_string
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext_lazy

from games.models import GameSeat, SeatSubstitution
from games.results import leaver_words, who_played
from ratings import services
from ratings.models import RatingChange
from ratings.templatetags.site_words import RULESET_NAMES
from westeros import kept

register = template.Library()

CHART_WIDTH, CHART_HEIGHT = 360, 210
# room for the rating labels on the left, the game numbers and the axis title below
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 52, 14, 24, 42
NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MAX_POINT_MARKS = 60
RECENT_GAMES = 10
# a game's status in words (the recent games' table)
GAME_STATUS = {"active": pgettext_lazy("a game", "active"), "finished": pgettext_lazy("a game", "finished"),
               "abandoned": pgettext_lazy("a game", "abandoned")}


@register.inclusion_tag("ratings/_summary.html")
def rating_summary(user) -> dict:
    ratings = [{"row": r, "provisional": services.is_provisional(r)} for r in services.ratings_of(user)]
    return {"ratings": ratings, "reliability": services.shown_reliability(user),
            "games_played": services.games_played(user)}


def _nice_range(low: float, high: float) -> tuple[int, int, int]:
    """(bottom, top, step): round bounds around [low, high] with at most 5 intervals."""
    low, high = int(low // 1), int(-(-high // 1))
    if high - low < 10:
        low, high = low - 5, high + 5
    for step in NICE_STEPS:
        bottom, top = (low // step) * step, -(-high // step) * step
        if (top - bottom) / step <= 5:
            return bottom, top, step
    step = NICE_STEPS[-1]
    return (low // step) * step, -(-high // step) * step, step


def chart(values: list[float]) -> dict:
    """A rating chart's geometry: each game's point (x, y, rating), the rating ticks (y, label) on
    the left axis and the game-number ticks (x, label) on the bottom axis (0 = before the first)."""
    bottom, top, step = _nice_range(min(values), max(values))
    plot_w = CHART_WIDTH - CHART_LEFT - CHART_RIGHT
    plot_h = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM
    games = max(1, len(values) - 1)

    def x(i: float) -> float:
        return CHART_LEFT + i / games * plot_w

    def y(v: float) -> float:
        return CHART_TOP + (top - v) / (top - bottom) * plot_h

    every = max(1, -(-games // 8))  # at most about 8 game numbers
    x_ticks = [(x(i), str(i)) for i in range(0, games + 1, every)]
    if x_ticks[-1][1] != str(games):
        x_ticks.append((x(games), str(games)))
    span = top - bottom  # x() and y() written out: a point per game, thousands for a busy player
    return {
        "points": [(CHART_LEFT + i / games * plot_w, CHART_TOP + (top - v) / span * plot_h, round(v))
                   for i, v in enumerate(values)],
        "y_ticks": [(y(v), str(v)) for v in range(bottom, top + 1, step)],
        "x_ticks": x_ticks,
    }


TENTH = Decimal("0.1")


def _tenths(value: float) -> str:
    """`value` as `|floatformat:1` writes it (to the tenth, half up), without the filter's cost in a
    template loop (a chart's ticks and marks: 2.5 ms of a busy player's profile)."""
    return str(Decimal(repr(value)).quantize(TENTH, ROUND_HALF_UP))


@register.inclusion_tag("ratings/_history.html")
def rating_history(user) -> dict:
    # "charts": the charts' geometry, read only by whoever asks for it (the page writes charts_html)
    recent = recent_games(user)
    return {"charts_html": charts_html(user), "charts": SimpleLazyObject(lambda: history_charts(user)),
            "recent": recent, "recent_html": recent_games_html(recent)}


RECENT_GAMES_SECONDS = 600  # how long a rendering of a profile's recent games is kept (its key is their rows)


def recent_games_html(rows: list[dict]) -> str:
    """The profile's table of recent games (ratings/_recent_games.html), rendered once for the rows as
    they are and kept, per language: the rows (read on every request) are the key, so a game that
    starts, ends or is taken over shows at once; only the rendering of an unchanged table is saved
    (issue 27: ten rows of links, seat names and translations on every profile)."""
    values = [(r["game"].pk, r["game"].ruleset, r["game"].ranked, r["seat"], str(r["who"]), str(r["status_words"]),
               r["place"]) for r in rows]
    key = f"ratings:recent:{get_language()}:{hashlib.blake2b(repr(values).encode(), digest_size=16).hexdigest()}"
    html = kept.get(key)
    if html is None:
        html = render_to_string("ratings/_recent_games.html", {"recent": rows})
        kept.keep(key, html, RECENT_GAMES_SECONDS)
    return mark_safe(html)


CHARTS_CACHE_SECONDS = 24 * 3600


def _history_stamp(user) -> tuple[int, int] | None:
    """The stamp of the user's rating history: the number of their rating changes and the newest
    one's id (None without any). A game rated adds a change (a new id), a replay of the ratings
    writes every change again (new ids), a game deleted takes its changes away (fewer): any of them
    is a new stamp, so whatever is kept under it is never stale. One read of an index ((user, sequence)
    with the ids), the query compiled once per process (westeros/compiled.py; issue 27)."""
    from westeros import compiled

    stamp = compiled.rows("ratings:history-stamp", _history_stamp_query, user_id=user.pk)
    return (stamp[0]["newest"], stamp[0]["count"]) if stamp else None


def _history_stamp_query(user_id: int):
    """_history_stamp's query: one row (the user's) with the newest id and the count, none without a change."""
    return (RatingChange.objects.filter(user_id=user_id).order_by().values("user_id")
            .annotate(newest=Max("id"), count=Count("id")))


def history_charts(user, stamp: tuple[int, int] | None | bool = False) -> list[dict]:
    """The charts of the user's rating history, kept in the cache under the history's stamp
    (_history_stamp), so a chart is never stale. Drawing a busy player's 1,632 changes took about
    15 ms a profile (issue 27)."""
    stamp = _history_stamp(user) if stamp is False else stamp
    if stamp is None:
        return []
    key = f"ratings:charts:{user.pk}:{stamp[0]}:{stamp[1]}"
    return cache.get_or_set(key, lambda: _draw_charts(user), CHARTS_CACHE_SECONDS)


def charts_html(user) -> str:
    """The charts as the profile shows them (ratings/_charts.html), rendered once per history stamp
    and language and kept: writing a busy player's charts (their ticks, lines and marks in SVG) was a
    third of a profile's time (issue 27). One query, the stamp; a new rated game shows at once."""
    stamp = _history_stamp(user)
    key = f"ratings:charts-html:{get_language()}:{user.pk}:{stamp[0] if stamp else 0}:{stamp[1] if stamp else 0}"
    html = kept.get(key)
    if html is None:
        html = render_to_string("ratings/_charts.html", {
            "charts": history_charts(user, stamp), "width": CHART_WIDTH, "height": CHART_HEIGHT,
            "left": CHART_LEFT, "right": CHART_WIDTH - CHART_RIGHT, "top": CHART_TOP,
            "bottom": CHART_HEIGHT - CHART_BOTTOM, "middle_y": (CHART_TOP + CHART_HEIGHT - CHART_BOTTOM) / 2,
            "middle_x": (CHART_LEFT + CHART_WIDTH - CHART_RIGHT) / 2, "y_label_x": str(CHART_LEFT - 6),
            "x_label_y": str(CHART_HEIGHT - CHART_BOTTOM + 15)})
        kept.keep(key, html, CHARTS_CACHE_SECONDS)
    return mark_safe(html)


def _draw_charts(user) -> list[dict]:
    changes = services.in_applied_order(RatingChange.objects.filter(user=user)).values_list("ruleset", "before", "after")
    series: dict[str, list[float]] = {}
    for ruleset, before, after in changes:
        series.setdefault(ruleset, [before]).append(after)
    charts = []
    for ruleset, values in sorted(series.items()):
        geometry = chart(values)
        points, (end_x, end_y, end_value) = geometry["points"], geometry["points"][-1]
        # the coordinates as the template writes them (end_y: as `|add:-9` did, a whole number)
        charts.append({
            "ruleset": ruleset, "name": RULESET_NAMES.get(ruleset, ruleset), "first": values[0], "last": values[-1],
            "low": min(values), "high": max(values), "games": len(values) - 1,
            "line": " ".join(f"{px:.1f},{py:.1f}" for px, py, _ in points),
            "marks": [(_tenths(px), _tenths(py), v) for px, py, v in points] if len(values) <= MAX_POINT_MARKS else [],
            "end": (_tenths(end_x), _tenths(int(end_y) - 9), end_value),
            "y_ticks": [(_tenths(py), label) for py, label in geometry["y_ticks"]],
            "x_ticks": [(_tenths(px), label) for px, label in geometry["x_ticks"]],
        })
    return charts


def recent_games(user) -> list[dict]:
    """The player's last games, each with the seat, its place and who played it in words
    (games/results.py: "Alys (left in round 3; the computer played on)", never as if Alys had played
    it to the end); a seat they left that a substitute took over is listed too. Three queries; the games'
    states are not read (a sort of the player's seats carried every state: 27 ms at 2,000 games). The
    latest seats are picked by their games' numbers in an index, and only those seats are then read with
    their games: sorting the seats joined to their games scanned every game (15 ms at 50,000 games)."""
    # both queries compiled once per process (westeros/compiled.py: the user their parameter; rows read
    # afresh and made into models as the ORM does): building them was half the profile's cost (issue 27)
    from westeros import compiled

    seats = compiled.models("ratings:recent-seats", _recent_seats_query, user_id=user.pk)
    subs: dict[int, list] = {}
    if any(s.taken_over for s in seats):
        for sub in (SeatSubstitution.objects.filter(game_id__in=[s.game_id for s in seats if s.taken_over])
                    .select_related("leaver", "substitute")):
            subs.setdefault(sub.game_id, []).append(sub)
    for s in seats:
        s.user = user  # the profile's player: their seats (not read again with each)
    rows = [{"game": s.game, "seat": s.seat, "left": s.has_left(), "who": who_played(s, subs.get(s.game_id, []))}
            for s in seats]
    left = compiled.models("ratings:recent-left", _recent_left_query, user_id=user.pk)
    rows += [{"game": sub.game, "seat": sub.seat, "left": True, "who": leaver_words(sub)} for sub in left]
    rows.sort(key=lambda r: (r["game"].created_at, r["game"].pk), reverse=True)
    for row in rows:
        ranking = row["game"].ranking
        row["place"] = ranking.index(row["seat"]) + 1 if ranking and row["seat"] in ranking else None
        row["status_words"] = GAME_STATUS.get(row["game"].status, row["game"].status)
    return rows[:RECENT_GAMES]


def _latest_seats(user_id: int):
    # newest first by number (games are numbered as they are created): the index seat_user_newest_game
    # serves it (the games' creation times, read per seat, were 12 ms for 2,000 games)
    return GameSeat.objects.filter(user_id=user_id).order_by("-game_id").values("pk")[:RECENT_GAMES]


def _recent_seats_query(user_id: int):
    """recent_games' seats: what the rows say, alone; whether a game had a take-over comes with it, so
    the take-overs are read only for the games that had one (most have none: a query saved; issue 27)."""
    taken_over = SeatSubstitution.objects.filter(game_id=OuterRef("game_id"))
    return (GameSeat.objects.filter(pk__in=_latest_seats(user_id)).select_related("game")
            .only("seat", "user_id", "left_at", "left_round", "game__ruleset", "game__ranked", "game__status",
                  "game__ranking", "game__created_at")
            .annotate(taken_over=Exists(taken_over)).order_by("-game__created_at", "-game_id"))


def _recent_left_query(user_id: int):
    """recent_games' seats the user left to a substitute, but for the games of _recent_seats_query's."""
    theirs = GameSeat.objects.filter(pk__in=_latest_seats(user_id)).values("game_id")
    return (SeatSubstitution.objects.filter(leaver_id=user_id).exclude(game_id__in=theirs)
            .select_related("game", "leaver", "substitute").defer("game__state")
            .order_by("-game__created_at", "-game_id")[:RECENT_GAMES])
