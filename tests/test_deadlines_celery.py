"""End to end with a real Celery worker: a deadline task scheduled through Redis fires, and the
worker, a separate process on the same PostgreSQL database, applies the timeout defaults.
Needs the real services (CI sets DATABASE_URL and REDIS_URL)."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, GameAction, GameSeat
from games.tasks import resolve_game_deadline, sweep_deadlines
from tests.celery_worker import celery_worker, needs_services, wait_for
from tests.factories import make_game

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


@pytest.fixture
def worker():
    # Tasks the worker schedules itself (the next deadline) must come back to its own queue.
    with celery_worker("test", DEADLINE_QUEUE="{queue}", DEADLINE_TASKS="true") as queue:
        yield queue


def test_a_deadline_scheduled_at_game_start_is_resolved_by_a_real_worker(worker, settings):
    settings.DEADLINE_TASKS = True
    settings.DEADLINE_QUEUE = worker
    # A 2-second time limit (lobbies allow 2 minutes at least; the service takes any).
    game = make_game(time_limit=2)
    assert wait_for(lambda: GameAction.objects.filter(game=game, source="timeout").count() >= 3)
    first_three = list(GameAction.objects.filter(game=game).order_by("version")[:3])
    assert [a.source for a in first_three] == ["timeout"] * 3
    assert {a.seat for a in first_three} == {"stark", "lannister", "baratheon"}
    # The next decision got its own deadline and task: the Raven holder times out 2 s later.
    assert wait_for(lambda: GameAction.objects.filter(game=game, source="timeout").count() >= 4)


def test_a_task_delivered_late_and_twice_resolves_once(worker):
    game = make_game(time_limit=3600)
    soon = timezone.now() + timedelta(seconds=1)
    GameSeat.objects.filter(game=game).update(deadline_at=soon)
    Game.objects.filter(pk=game.pk).update(deadline_at=soon)
    resolve_game_deadline.apply_async((game.id,), eta=soon, queue=worker)
    assert wait_for(lambda: GameAction.objects.filter(game=game, source="timeout").count() == 3)
    game.refresh_from_db()
    assert game.version == 3
    # Delivered again (or raced by the sweep): nothing more happens.
    sweep_deadlines.apply_async(queue=worker)
    resolve_game_deadline.apply_async((game.id,), queue=worker)
    time.sleep(2)
    game.refresh_from_db()
    assert game.version == 3
