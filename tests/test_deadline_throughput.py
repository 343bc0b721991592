"""The server path at load (issue 20): a sweep resolves overdue games in batches with few queries
per game, sweeps run side by side without taking a game twice, and an action costs a bounded
number of queries."""
from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine import get_ruleset
from games.models import Game, GameAction, GameSeat
from games.services import deadlines
from games.services.play import do_submit_action
from tests.factories import make_game

pytestmark = pytest.mark.django_db
AGOT = get_ruleset("agot")
HOUR = 3600
POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


def test_a_sweep_costs_few_queries_per_game(settings):
    """Three timeouts per game used to cost about 26 queries (seats re-read by every step, one
    INSERT per action, one UPDATE per seat, one claim and commit per game); now the batch is
    claimed with its seats in two queries, a game's actions are one INSERT and its seats one
    UPDATE: about 12. The notification decisions then cost 8 of them (seats read again, settings,
    a get_or_create per notification with its savepoint); now the seats are passed on and a
    change's decisions are one query for the players and settings, one for known keys, one INSERT:
    about 9 per game. The players and their settings now come with the batch's seats: 7.9."""
    settings.DEADLINE_SWEEP_BATCH = 8
    games = [make_game(time_limit=HOUR, seed=n) for n in range(8)]
    with CaptureQueriesContext(connection) as queries:
        result = deadlines.sweep(now=later(HOUR + 1))
    assert result.games == 8 and result.timeouts == 24 and not result.failed
    per_game = len(queries.captured_queries) / len(games)
    assert per_game <= 8.5, f"{per_game:.1f} queries per game"
    inserts = [q for q in queries.captured_queries if q["sql"].startswith('INSERT INTO "games_gameaction"')]
    assert len(inserts) == 8  # one per game, its three timeouts together
    for game in games:
        game.refresh_from_db()
        assert game.version == 3
        assert list(GameAction.objects.filter(game=game).values_list("version", flat=True).order_by("version")) == [1, 2, 3]


def test_a_broken_game_in_a_batch_rolls_back_only_itself(monkeypatch, settings):
    settings.DEADLINE_SWEEP_BATCH = 8
    games = [make_game(time_limit=HOUR, seed=n) for n in range(5)]
    broken = games[2]
    real = deadlines._resolve_locked

    def fail_for_broken(game, now):
        if game.pk == broken.pk:
            raise RuntimeError("engine bug")
        return real(game, now)

    monkeypatch.setattr(deadlines, "_resolve_locked", fail_for_broken)
    result = deadlines.sweep(now=later(HOUR + 1))
    assert result.failed == [broken.pk] and result.games == 4 and result.timeouts == 12
    assert Game.objects.get(pk=broken.pk).version == 0
    assert not GameAction.objects.filter(game=broken).exists()
    for game in games:
        if game.pk != broken.pk:
            assert Game.objects.get(pk=game.pk).version == 3
            assert GameAction.objects.filter(game=game, source="timeout").count() == 3


def test_a_second_sweep_finds_nothing_to_do():
    make_game(time_limit=HOUR)
    assert deadlines.sweep(now=later(HOUR + 1)).timeouts == 3
    assert deadlines.sweep(now=later(HOUR + 1)).timeouts == 0


def test_the_fourth_timeout_in_a_row_still_hands_the_seat_to_the_bot():
    game = make_game(time_limit=HOUR, max_consecutive_timeouts=1)
    deadlines.sweep(now=later(HOUR + 1))
    seats = {s.seat: s for s in game.seats.all()}
    assert all(s.is_bot and s.abandoned and s.consecutive_timeouts == 1 for s in seats.values())


def _seat_updates(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "games_gameseat"')]


def test_the_seats_of_a_timeout_are_written_in_one_update_with_each_its_own_values():
    """Every seat timed out and the phase moved on: one seat has a fresh deadline, the others none,
    and one of them had timed out before (its count goes to 2, the others' to 1). One UPDATE writes
    them all, with a CASE only for what differs and one WHEN per distinct value (bulk_update built
    one per seat and field: about 1 ms of the ORM's time per change)."""
    game = make_game(time_limit=HOUR)
    GameSeat.objects.filter(game=game, seat="stark").update(consecutive_timeouts=1)
    now = later(HOUR + 1)
    with CaptureQueriesContext(connection) as queries:
        assert deadlines.sweep(now=now).timeouts == 3
    (update,) = _seat_updates(queries)
    assert update.count("WHEN") == 2  # deadline_at: 2 values; consecutive_timeouts: 2 values
    game.refresh_from_db()
    pending = set(AGOT.pending(game.state))
    for seat in game.seats.all():
        assert seat.consecutive_timeouts == (2 if seat.seat == "stark" else 1)
        assert seat.deadline_at == (now + timedelta(seconds=HOUR) if seat.seat in pending else None)
    assert pending and pending != {"stark", "lannister", "baratheon"}  # both deadline values occur


def test_seats_taking_the_same_values_are_set_without_a_case():
    game = make_game(time_limit=HOUR)
    now = later(HOUR + 1)
    with CaptureQueriesContext(connection) as queries:
        assert deadlines.sweep(now=now).timeouts == 3
    (update,) = _seat_updates(queries)
    assert update.count("WHEN") == 1  # only deadline_at differs; every count is 1
    assert set(game.seats.values_list("consecutive_timeouts", flat=True)) == {1}


def test_inside_a_transaction_the_sweep_stays_on_its_connection(settings):
    settings.DEADLINE_SWEEP_WORKERS = 4
    assert deadlines.sweep_workers() == 1  # the test's transaction: other threads would not see its rows


@pytest.mark.skipif(not POSTGRES, reason="parallel sweeps need PostgreSQL (SKIP LOCKED, several connections)")
@pytest.mark.django_db(transaction=True)
def test_parallel_sweeps_resolve_every_game_once(settings):
    settings.DEADLINE_SWEEP_WORKERS = 4
    settings.DEADLINE_SWEEP_BATCH = 3
    games = [make_game(time_limit=HOUR, seed=n) for n in range(30)]
    assert deadlines.sweep_workers() == 4
    result = deadlines.sweep_parallel(now=later(HOUR + 1))
    assert result.games == 30 and result.timeouts == 90 and not result.failed
    assert sorted(result.handled) == sorted(g.pk for g in games)  # no game claimed twice
    assert GameAction.objects.filter(source="timeout").count() == 90
    assert deadlines.sweep_parallel(now=later(HOUR + 1)).timeouts == 0


def test_an_action_costs_a_bounded_number_of_queries(django_assert_max_num_queries):
    """Submitting an action: lock the game, read its seats once (with their players and settings),
    one INSERT for the action (and any bot replies), one UPDATE for the seats whose deadlines
    changed, the game row, and the notification decisions (known keys, one INSERT): 9 here, some of them
    the savepoints of the action's and the notifications' transactions nested in the test's. It
    cost 15 (and 16 here) before the seats were read once and the rows written together, 11 before
    the notification decisions were made together, 10 before the players' settings came with the
    seats (9 now)."""
    game = make_game(time_limit=HOUR)
    user = game.seats.select_related("user").get(seat="stark").user
    with django_assert_max_num_queries(9):
        do_submit_action(game.id, user, action=AGOT.default_action(game.state, "stark"), version=0)
    assert Game.objects.get(pk=game.pk).version == 1
    assert GameAction.objects.get(game=game).seat == "stark"


def test_a_deadline_falling_due_before_the_next_tick_is_swept_when_it_does():
    """The loops used to sleep a whole interval between sweeps, so a deadline waited up to a second
    after falling due; now a sweep waits for a deadline due within its horizon and takes it then."""
    game = make_game(time_limit=HOUR)
    soon = timezone.now() + timedelta(seconds=0.3)
    GameSeat.objects.filter(game=game).update(deadline_at=soon)
    Game.objects.filter(pk=game.pk).update(deadline_at=soon)
    assert 0 < deadlines.seconds_to_next_deadline() <= 0.3
    result = deadlines.sweep_until(1.0)
    assert result.timeouts == 3
    first = GameAction.objects.filter(game=game).order_by("version").first()
    assert soon <= first.created_at < soon + timedelta(seconds=0.5)


def test_a_deadline_beyond_the_horizon_is_left_to_the_next_tick():
    game = make_game(time_limit=HOUR)
    started = timezone.now()
    assert deadlines.sweep_until(0.2).timeouts == 0
    assert timezone.now() - started < timedelta(seconds=0.5)
    assert Game.objects.get(pk=game.pk).version == 0


def test_the_runner_sleeps_only_until_the_next_deadline_after_a_turn():
    """`run_deadlines` slept a whole interval after each turn, though the turn had already swept up
    to an interval ahead: a deadline falling due in that second waited up to a second more (the
    300-deadline benchmark's first timeout came 0.4 s late)."""
    from games.runner import until_next_tick

    assert until_next_tick(1.0) == 1.0  # no deadline at all
    game = make_game(time_limit=HOUR)
    assert until_next_tick(1.0) == 1.0  # the next one an hour away
    soon = timezone.now() + timedelta(seconds=0.3)
    Game.objects.filter(pk=game.pk).update(deadline_at=soon)
    assert 0 < until_next_tick(1.0) <= 0.31


def test_the_server_and_the_celery_worker_import_the_rulesets_when_they_start():
    """Not inside their first action or timeout (0.3 s: the first of 300 deadlines falling due
    together was resolved 0.36 s late for it)."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys; {} ; print([m for m in ('games.engine.agot', 'games.engine.btwixt', 'games.engine.lcg', "
            "'games.engine.minis') if m in sys.modules])")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="westeros.settings", SECRET_KEY="test", DEADLINE_RUNNER_IN_SERVER="false")
    root = Path(__file__).resolve().parent.parent
    server = subprocess.run([sys.executable, "-c", code.format("import westeros.asgi")], cwd=root, env=env,
                            capture_output=True, text=True, timeout=120)
    assert server.stdout.strip() == str(["games.engine.agot", "games.engine.btwixt", "games.engine.lcg",
                                         "games.engine.minis"]), server.stderr
    worker = subprocess.run([sys.executable, "-c", code.format(
        "from westeros.celery import app; from celery.signals import worker_init; worker_init.send(sender=None)")],
        cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert worker.stdout.strip() == server.stdout.strip(), worker.stderr
