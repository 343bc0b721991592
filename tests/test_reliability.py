"""Reliability (issue 7, "Ratings"): the share of deadlines missed over the last N decisions and
games abandoned. The formula (ratings.services.Reliability):

- decisions are the GameAction rows with source "player" or "timeout" in a seat the user held
  (timeout rows have no user: they are matched by game and seat); each game the user abandoned
  (GameSeat.left_at) is one more decision;
- the last N (RELIABILITY_DECISIONS) of them count; a timeout or an abandonment is a miss;
- reliability = 1 - misses / decisions, 1.0 with no decision yet.
"""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine import get_ruleset
from games.models import Game, GameAction, GameSeat
from games.services.play import do_concede, do_submit_action
from ratings import services
from tests.factories import make_game, make_user

pytestmark = pytest.mark.django_db

T0 = timezone.now() - timedelta(days=3)


def log(game, seat: str, source: str, minutes: int, user=None) -> GameAction:
    """One logged decision at T0 + minutes (versions far from the game's own)."""
    version = 10_000 + GameAction.objects.filter(game=game).count()
    return GameAction.objects.create(game=game, version=version, seat=seat, action={}, source=source, user=user,
                                     created_at=T0 + timedelta(minutes=minutes))


def seat_of(game, user) -> str:
    return GameSeat.objects.get(game=game, user=user).seat


def test_no_decision_yet_is_fully_reliable():
    report = services.reliability_report(make_user())
    assert (report.decisions, report.missed, report.score) == (0, 0, 1.0)
    assert services.reliability_of(make_user()) == 1.0


def test_share_of_deadlines_missed():
    """3 decisions in time and 1 timeout (logged with no user, in the user's seat): 1 - 1/4 = 0.75."""
    user, other = make_user(), make_user()
    game = make_game(users=[user, other, make_user()])
    mine, theirs = seat_of(game, user), seat_of(game, other)
    for minute in range(3):
        log(game, mine, "player", minute, user)
    log(game, mine, "timeout", 3)
    log(game, theirs, "timeout", 4)  # another seat's timeout is not the user's
    log(game, mine, "bot", 5)  # a bot action is no decision of the user's
    report = services.reliability_report(user)
    assert (report.decisions, report.timeouts, report.abandoned) == (4, 1, 0)
    assert services.reliability_of(user) == 0.75
    assert services.reliability_of(other) == 0.0  # one decision, a timeout


def test_a_timeout_in_a_seat_of_the_same_name_in_another_game_is_not_the_users():
    user = make_user()
    game = make_game(users=[user, make_user(), make_user()])
    elsewhere = make_game(users=[make_user(), make_user(), make_user()])
    log(game, seat_of(game, user), "player", 0, user)
    log(elsewhere, seat_of(game, user), "timeout", 1)
    assert services.reliability_of(user) == 1.0


def test_an_abandoned_game_counts_as_a_missed_decision():
    """2 decisions in time, then the user concedes: 3 decisions, 1 miss."""
    user = make_user()
    game = make_game(users=[user, make_user(), make_user()])
    log(game, seat_of(game, user), "player", 0, user)
    log(game, seat_of(game, user), "player", 1, user)
    do_concede(game.pk, user)
    report = services.reliability_report(user)
    assert (report.decisions, report.timeouts, report.abandoned) == (3, 0, 1)
    assert report.score == pytest.approx(2 / 3)


def test_only_the_last_n_decisions_count(settings):
    """With RELIABILITY_DECISIONS = 4, two old timeouts followed by four decisions in time are forgotten;
    one more timeout brings one back into the window: 1 - 1/4."""
    settings.RELIABILITY_DECISIONS = 4
    user = make_user()
    game = make_game(users=[user, make_user(), make_user()])
    seat = seat_of(game, user)
    log(game, seat, "timeout", 0)
    log(game, seat, "timeout", 1)
    for minute in range(2, 6):
        log(game, seat, "player", minute, user)
    assert services.reliability_of(user) == 1.0
    log(game, seat, "timeout", 6)
    assert services.reliability_of(user) == 0.75
    assert services.reliability_report(user).decisions == 4


def test_abandonments_and_decisions_share_one_window(settings):
    settings.RELIABILITY_DECISIONS = 3
    user = make_user()
    old = make_game(users=[user, make_user(), make_user()], seed=1)
    GameSeat.objects.filter(game=old, user=user).update(left_at=T0)  # oldest: out of the window
    game = make_game(users=[user, make_user(), make_user()], seed=2)
    for minute in range(1, 4):
        log(game, seat_of(game, user), "player", minute, user)
    assert services.reliability_of(user) == 1.0
    GameSeat.objects.filter(game=game, user=user).update(left_at=T0 + timedelta(minutes=9))
    assert services.reliability_report(user).abandoned == 1
    assert services.reliability_of(user) == pytest.approx(2 / 3)


def test_real_submissions_count_as_decisions_in_time():
    """Decisions submitted through the play service are logged with source 'player' and count in time."""
    user = make_user()
    game = make_game(users=[user, None, None])
    game.refresh_from_db()
    engine = get_ruleset(game.ruleset)
    seat = seat_of(game, user)
    submitted = 0
    while game.is_active() and submitted < 3:
        do_submit_action(game.pk, user, action=engine.default_action(game.state, seat), version=game.version)
        submitted += 1
        game.refresh_from_db()
    report = services.reliability_report(user)
    assert report.decisions == submitted > 0
    assert report.score == 1.0


def test_reliability_is_shown_on_the_profile_page():
    user = make_user()
    game = make_game(users=[user, make_user(), make_user()])
    for minute in range(3):
        log(game, seat_of(game, user), "player", minute, user)
    log(game, seat_of(game, user), "timeout", 3)
    client = Client()
    client.force_login(user)
    page = client.get(reverse("profile")).content.decode()
    assert "Reliability" in page
    assert "75%" in page
    assert "1 missed deadline," in page


def ended(game, minutes: int) -> None:
    """The game ended at T0 + minutes (its decisions were all logged before)."""
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=T0 + timedelta(minutes=minutes))


def test_the_window_is_found_across_games_newest_decisions_first(settings, monkeypatch):
    """The newest decisions are read from the user's latest games first (issue 27: the cost follows
    the window, not the whole history): games in progress first, then those that ended latest, the
    others only when needed. With a window of 5 and two games read first, the five newest decisions
    count whatever the order the games were created or ended in: a timeout long ago in a game still
    in progress, or in the game that ended last, stays out of the window; a new timeout in the game in
    progress comes in."""
    settings.RELIABILITY_DECISIONS = 5
    monkeypatch.setattr(services, "DECISION_GAMES", 2)
    user = make_user()
    late = make_game(users=[user, make_user(), make_user()])  # ended last, its only decision long ago
    log(late, seat_of(late, user), "timeout", 1)
    ended(late, 500)
    games = [make_game(users=[user, make_user(), make_user()]) for _ in range(6)]
    for k, game in enumerate(reversed(games), 1):  # the first created decided and ended last
        log(game, seat_of(game, user), "player", 10 * k, user)
        ended(game, 10 * k + 5)
    log(games[-1], seat_of(games[-1], user), "timeout", 11)  # the oldest game's: out of the window
    active = make_game(users=[user, make_user(), make_user()])
    log(active, seat_of(active, user), "timeout", 0)
    report = services.reliability_report(user)
    assert (report.decisions, report.timeouts, report.score) == (5, 0, 1.0)
    log(active, seat_of(active, user), "timeout", 100)
    report = services.reliability_report(user)
    assert (report.decisions, report.timeouts) == (5, 1)
    assert report.score == pytest.approx(0.8)


def test_reading_stops_once_the_window_is_full(settings, monkeypatch, django_assert_num_queries):
    """A player with many more games: the same queries, as the games that ended before the window's
    oldest decision are not read (with two games read first, the window is full after them)."""
    settings.RELIABILITY_DECISIONS = 4
    monkeypatch.setattr(services, "DECISION_GAMES", 2)
    user = make_user()

    def play(n: int, start: int) -> None:
        for k in range(n):
            game = make_game(users=[user, make_user(), make_user()])
            for minute in (0, 1):
                log(game, seat_of(game, user), "player", start - 10 * k + minute, user)
            ended(game, start - 10 * k + 5)

    play(2, 1000)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        assert services.reliability_report(user).decisions == 4
    play(12, 500)  # older games
    with django_assert_num_queries(len(few.captured_queries)):
        assert services.reliability_report(user).decisions == 4


def test_the_games_that_ended_latest_are_read_first(settings, monkeypatch):
    """Reading one game first: the game that ended last holds the newest decisions (two in time),
    whatever the order the games were created in; the older games' timeouts stay out of the window."""
    settings.RELIABILITY_DECISIONS = 2
    monkeypatch.setattr(services, "DECISION_GAMES", 1)
    user = make_user()
    first, second, last = (make_game(users=[user, make_user(), make_user()]) for _ in range(3))
    for game, minutes, end in ((first, (40, 41), 50), (second, (20, 21), 30), (last, (100, 101), 200)):
        source = "player" if game is last else "timeout"
        for minute in minutes:
            log(game, seat_of(game, user), source, minute, user if source == "player" else None)
        ended(game, end)
    report = services.reliability_report(user)
    assert (report.decisions, report.timeouts, report.score) == (2, 0, 1.0)
