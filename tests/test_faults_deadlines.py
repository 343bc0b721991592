"""Deadlines keep being enforced through faults, with nobody restarting anything (issue 13, items 1
and 2): real Celery workers and beat on a private Redis that the test restarts (never the shared
one), a worker killed with SIGKILL, and the number of wake-ups a busy site schedules.

Before the redesign each deadline was an ETA task held unacknowledged in a worker's memory; a Redis
restart made kombu's restore_unacked crash the worker ("Unrecoverable error: AttributeError"), and a
killed worker's reserved tasks stayed in Redis for the 8-day visibility timeout."""
from __future__ import annotations

import celery.app.task
import pytest
from django.utils import timezone

from games.engine import get_ruleset
from games.models import Game, GameAction
from games.services.play import do_submit_action
from notifications.models import Notification
from tests.celery_worker import celery_processes, needs_postgres, private_redis, site_on_broker, wait_for
from tests.factories import make_game

AGOT = get_ruleset("agot")


def timeouts(game: Game) -> int:
    return GameAction.objects.filter(game=game, source="timeout").count()


def resolved_within(game: Game, count: int, seconds: float) -> bool:
    """`count` timeouts applied within `seconds` (generous bounds: the benchmark measures speed)."""
    return wait_for(lambda: timeouts(game) >= count, timeout=seconds)


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_workers_and_beat_survive_a_redis_restart_and_deadlines_go_on(settings):
    with (private_redis() as redis, celery_processes("faults", redis_url=redis.url) as celery,
          site_on_broker(settings, redis.url, celery.queue)):
        workers = [celery.start_worker(concurrency=2, name="a"), celery.start_worker(concurrency=2, name="b")]
        beat = celery.start_beat()
        before = [make_game(time_limit=2, seed=n) for n in range(3)]
        assert all(resolved_within(g, 3, 30) for g in before), celery.logs()
        # Games whose deadlines are pending across the restart (a worker would have held their tasks),
        # and a burst of notifications (three per game started) that keeps the workers receiving
        # messages when Redis goes away.
        across = [make_game(time_limit=6, seed=10 + n) for n in range(3)]
        busy = [make_game(time_limit=3600, seed=30 + n) for n in range(15)]
        assert wait_for(lambda: Notification.objects.filter(game__in=busy, claimed_at__isnull=False).exists(), 20)

        redis.restart(down_seconds=3)

        assert all(celery.alive(w) for w in workers), "a worker died when Redis restarted\n" + celery.logs()
        assert celery.alive(beat), celery.logs()
        assert all(resolved_within(g, 3, 30) for g in across), celery.logs()
        after = make_game(time_limit=2, seed=20)
        assert resolved_within(after, 3, 30), celery.logs()
        # Still alive once everything settled, and every game moved on to its next deadline.
        assert all(celery.alive(w) for w in workers), celery.logs()
        assert all(resolved_within(g, 4, 30) for g in [*before, *across, after]), celery.logs()


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_game_loses_no_deadline(settings):
    with (private_redis() as redis, celery_processes("faults", redis_url=redis.url) as celery,
          site_on_broker(settings, redis.url, celery.queue)):
        doomed = celery.start_worker(concurrency=2, name="doomed")
        celery.start_beat()
        game = make_game(time_limit=2)
        assert resolved_within(game, 3, 30), celery.logs()
        celery.kill(doomed)
        survivor = celery.start_worker(concurrency=1, name="survivor")
        fresh = make_game(time_limit=2, seed=5)
        assert resolved_within(fresh, 3, 30), celery.logs()
        assert resolved_within(game, 4, 30), celery.logs()
        assert celery.alive(survivor)


@pytest.mark.django_db
def test_playing_schedules_no_task_per_deadline(settings, monkeypatch, django_capture_on_commit_callbacks):
    """Item 2: 40 games played for a while schedule no wake-up of their own (the old design sent an
    ETA task at every state change, about 2,000 for 160 games); deadlines are found by the sweep."""
    settings.DEADLINE_TASKS = True  # what the old design needed to schedule tasks (ignored now)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent: list[str] = []
    monkeypatch.setattr(celery.app.task.Task, "apply_async",
                        lambda task, *args, **kwargs: sent.append(task.name))
    with django_capture_on_commit_callbacks(execute=True):  # what runs after each commit
        games = [make_game(time_limit=3600, seed=n) for n in range(40)]
        for game in games:
            for _ in range(3):
                game.refresh_from_db()
                seat = sorted(AGOT.pending(game.state))[0]
                do_submit_action(game.pk, game.seats.get(seat=seat).user,
                                 action=AGOT.default_action(game.state, seat), version=game.version)
    deadline_tasks = [name for name in sent if name.startswith("games.")]
    assert deadline_tasks == []
    assert Game.objects.filter(pk__in=[g.pk for g in games], deadline_at__gt=timezone.now()).count() == 40


def test_a_channel_holding_a_message_closes_quietly_after_redis_went_away():
    """The exact path that killed workers (kombu's restore_unacked through a connection already gone,
    seen in the worker's traceback: the transport drops its client, then the consumer closes its
    channel). kombu's own Redis transport raises AttributeError there; the project's transport
    (westeros/broker.py) leaves the message to Redis's visibility timeout and closes."""
    from kombu import Connection

    with private_redis() as redis:
        connection = Connection(redis.url, transport="westeros.broker:Transport")
        channel = connection.default_channel
        channel.queue_declare("sweeps")
        connection.Producer(channel).publish({"task": "sweep"}, routing_key="sweeps")
        assert channel.basic_get("sweeps", no_ack=False) is not None  # received, not acknowledged
        redis.stop()
        connection._do_close_transport()
        connection._do_close_self()  # kombu.transport.redis.Transport raises here
        assert channel.closed
