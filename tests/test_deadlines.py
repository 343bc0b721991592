"""Deadlines: stored per seat, resolved by the engine's default action exactly as if submitted and
logged as a timeout; idempotent (task twice, task and sweep); a crash mid-way leaves nothing half
done; extensions; seats that keep timing out go to the bot and count as abandoned."""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from games.engine import get_ruleset
from games.models import Game, GameAction, GameSeat
from games.services import deadlines
from games.services.play import do_submit_action
from games.services.replay import snapshot_matches_log
from games.tasks import sweep_deadlines
from tests.factories import api_client_for, make_game

pytestmark = pytest.mark.django_db
AGOT = get_ruleset("agot")
HOUR = 3600


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


def submit_default(game: Game, seat: str):
    game.refresh_from_db()
    return do_submit_action(game.id, game.seats.get(seat=seat).user,
                            action=AGOT.default_action(game.state, seat), version=game.version)


def test_every_pending_seat_gets_a_deadline_one_time_limit_away():
    before = timezone.now()
    game = make_game(time_limit=HOUR)
    seats = list(game.seats.all())
    assert all(s.deadline_at is not None for s in seats)
    for seat in seats:
        assert before + timedelta(seconds=HOUR) <= seat.deadline_at <= later(HOUR)
    assert game.deadline_at == min(s.deadline_at for s in seats)


def test_nothing_happens_before_the_deadline():
    game = make_game(time_limit=HOUR)
    assert deadlines.resolve_overdue(game.id, now=later(HOUR - 5)) == []
    assert Game.objects.get(pk=game.pk).version == 0


def test_an_overdue_seat_gets_its_default_action_logged_as_a_timeout():
    game = make_game(time_limit=HOUR)
    submit_default(game, "stark")
    submit_default(game, "lannister")
    game.refresh_from_db()
    expected = AGOT.default_action(game.state, "baratheon")
    records = deadlines.resolve_overdue(game.id, now=later(HOUR + 1))
    assert [(r.seat, r.source, r.action) for r in records] == [("baratheon", "timeout", expected)]
    game.refresh_from_db()
    assert game.version == 3 and "place_orders" not in AGOT.pending(game.state).values()
    assert snapshot_matches_log(game)


def test_resolving_twice_or_by_task_and_sweep_applies_each_default_once():
    game = make_game(time_limit=HOUR)
    when = later(HOUR + 1)
    first = deadlines.resolve_overdue(game.id, now=when)
    assert len(first) == 3
    version = Game.objects.get(pk=game.pk).version
    assert deadlines.resolve_overdue(game.id, now=when) == []
    assert deadlines.sweep(now=when).timeouts == 0
    assert Game.objects.get(pk=game.pk).version == version


def test_the_celery_sweep_resolves_overdue_games():
    game = make_game(time_limit=HOUR)
    GameSeat.objects.filter(game=game).update(deadline_at=later(-1))
    Game.objects.filter(pk=game.pk).update(deadline_at=later(-1))
    assert sweep_deadlines() == 3
    assert sweep_deadlines() == 0


def test_a_sweep_resolves_every_overdue_game_and_leaves_the_others():
    due = [make_game(time_limit=HOUR, seed=n) for n in range(4)]
    not_yet = make_game(time_limit=3 * HOUR, seed=9)
    result = deadlines.sweep(now=later(HOUR + 1))
    assert (result.games, result.timeouts, result.failed) == (4, 12, [])
    assert all(Game.objects.get(pk=g.pk).version == 3 for g in due)
    assert Game.objects.get(pk=not_yet.pk).version == 0


def test_a_game_that_fails_to_resolve_does_not_stop_the_sweep(monkeypatch):
    broken, fine = make_game(time_limit=HOUR, seed=1), make_game(time_limit=2 * HOUR, seed=2)
    real = deadlines._resolve_locked

    def fail_for_broken(game, now):
        if game.pk == broken.pk:
            raise RuntimeError("engine bug")
        return real(game, now)

    monkeypatch.setattr(deadlines, "_resolve_locked", fail_for_broken)
    result = deadlines.sweep(now=later(2 * HOUR + 1))
    assert result.failed == [broken.pk] and result.games == 1
    assert Game.objects.get(pk=broken.pk).version == 0  # rolled back; the next sweep tries again
    assert Game.objects.get(pk=fine.pk).version == 3


def test_acting_clears_your_deadline_and_keeps_the_others():
    game = make_game(time_limit=HOUR)
    others = {s.seat: s.deadline_at for s in game.seats.exclude(seat="stark")}
    submit_default(game, "stark")
    seats = {s.seat: s.deadline_at for s in GameSeat.objects.filter(game=game)}
    assert seats["stark"] is None
    assert {k: v for k, v in seats.items() if k != "stark"} == others


def test_a_seat_that_becomes_pending_gets_a_fresh_deadline():
    game = make_game(time_limit=HOUR)
    for seat in ("stark", "lannister", "baratheon"):
        submit_default(game, seat)
    game.refresh_from_db()
    (next_seat,) = AGOT.pending(game.state)  # the Raven holder, after the reveal
    deadline = GameSeat.objects.get(game=game, seat=next_seat).deadline_at
    assert deadline is not None and deadline > later(HOUR - 5)
    assert game.deadline_at == deadline


def test_a_crash_mid_resolution_changes_nothing_and_the_next_sweep_finishes(monkeypatch):
    game = make_game(time_limit=HOUR)
    from games.services import play

    real = play.apply_default
    calls = {"n": 0}

    def crash_on_second(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("worker killed")
        return real(*args, **kwargs)

    monkeypatch.setattr(play, "apply_default", crash_on_second)
    with pytest.raises(RuntimeError):
        deadlines.resolve_overdue(game.id, now=later(HOUR + 1))
    assert Game.objects.get(pk=game.pk).version == 0 and not GameAction.objects.filter(game=game).exists()
    monkeypatch.setattr(play, "apply_default", real)
    assert deadlines.sweep(now=later(HOUR + 1)).timeouts == 3


def test_the_sweep_is_one_query_however_many_games(django_assert_num_queries):
    games = [make_game(time_limit=HOUR, seed=n) for n in range(5)]
    with django_assert_num_queries(1):
        ids = deadlines.overdue_game_ids(now=later(HOUR + 1))
    assert sorted(ids) == sorted(g.id for g in games)
    assert deadlines.overdue_game_ids(now=later(10)) == []


def test_a_seat_timing_out_too_often_goes_to_the_bot_and_is_recorded_as_abandoned():
    game = make_game(time_limit=HOUR, max_consecutive_timeouts=2)
    when = timezone.now()
    for _ in range(10):
        when += timedelta(seconds=HOUR + 1)
        deadlines.resolve_overdue(game.id, now=when)
        if GameSeat.objects.get(game=game, seat="stark").is_bot:
            break
    seat = GameSeat.objects.get(game=game, seat="stark")
    assert seat.is_bot and seat.abandoned and seat.left_at is not None
    assert GameAction.objects.filter(game=game, seat="stark", source="timeout").count() == 2


def test_acting_resets_the_count_of_timeouts_in_a_row():
    game = make_game(time_limit=HOUR, max_consecutive_timeouts=2)
    deadlines.resolve_overdue(game.id, now=later(HOUR + 1))
    assert GameSeat.objects.get(game=game, seat="stark").consecutive_timeouts == 1
    game.refresh_from_db()
    pending = AGOT.pending(game.state)
    seat = next(iter(pending))
    submit_default(game, seat)
    assert GameSeat.objects.get(game=game, seat=seat).consecutive_timeouts == 0


def test_the_one_time_extension_moves_the_deadline_once():
    game = make_game(time_limit=HOUR)
    stark = game.seats.get(seat="stark")
    client = api_client_for(stark.user)
    response = client.post(reverse("api-game-extend", args=[game.id]))
    assert response.status_code == 200
    extended = GameSeat.objects.get(pk=stark.pk).deadline_at
    assert extended - stark.deadline_at == timedelta(seconds=HOUR)
    again = client.post(reverse("api-game-extend", args=[game.id]))
    assert again.status_code == 409 and again.json()["error"] == "extension_used"
    assert deadlines.resolve_overdue(game.id, now=later(HOUR + 1))  # the others time out
    assert GameSeat.objects.get(pk=stark.pk).deadline_at == extended


def test_no_extension_without_a_pending_decision():
    game = make_game(time_limit=HOUR)
    submit_default(game, "stark")
    response = api_client_for(game.seats.get(seat="stark").user).post(reverse("api-game-extend", args=[game.id]))
    assert response.status_code == 409 and response.json()["error"] == "nothing_pending"


def test_the_embedded_runner_sweeps(capsys):
    game = make_game(time_limit=HOUR)
    GameSeat.objects.filter(game=game).update(deadline_at=later(-1))
    Game.objects.filter(pk=game.pk).update(deadline_at=later(-1))
    call_command("run_deadlines", "--once")
    assert "applied 3 timeout default(s)" in capsys.readouterr().out


def test_the_api_shows_deadlines():
    game = make_game(time_limit=HOUR)
    body = api_client_for(game.seats.get(seat="stark").user).get(reverse("api-game", args=[game.id])).json()
    assert body["deadline_at"] is not None
    assert all(s["deadline_at"] is not None for s in body["seats"])


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="SKIP LOCKED and concurrent writers need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_sweeps_running_side_by_side_share_the_overdue_games_and_apply_each_default_once():
    games = [make_game(time_limit=HOUR, seed=n) for n in range(24)]
    when = later(HOUR + 1)
    start = threading.Barrier(3)

    def sweeper() -> deadlines.SweepResult:
        start.wait()
        try:
            return deadlines.sweep(now=when)
        finally:
            connection.close()

    with ThreadPoolExecutor(3) as pool:
        results = list(pool.map(lambda _: sweeper(), range(3)))
    assert sum(r.games for r in results) == 24 and sum(r.timeouts for r in results) == 72
    assert not any(r.failed for r in results)
    claimed = [game_id for r in results for game_id in r.handled]
    assert sorted(claimed) == sorted(g.pk for g in games)  # no game taken twice
    assert GameAction.objects.filter(source="timeout").count() == 72
