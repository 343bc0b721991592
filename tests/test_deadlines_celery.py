"""End to end with real Celery processes: beat sends a sweep every second, a worker (a separate
process on the same PostgreSQL database) applies the timeout defaults. Needs the real services (CI
sets DATABASE_URL and REDIS_URL)."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, GameAction, GameSeat
from games.tasks import sweep_deadlines
from tests.celery_worker import celery_processes, needs_services, wait_for
from tests.factories import make_game

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


def timeouts(game: Game) -> int:
    return GameAction.objects.filter(game=game, source="timeout").count()


def test_deadlines_are_resolved_by_beat_and_a_real_worker():
    with celery_processes("test-deadlines") as celery:
        celery.start_worker()
        celery.start_beat()
        # A 2-second time limit (lobbies allow 2 minutes at least; the service takes any).
        game = make_game(time_limit=2)
        assert wait_for(lambda: timeouts(game) >= 3), celery.logs()
        first_three = list(GameAction.objects.filter(game=game).order_by("version")[:3])
        assert [a.source for a in first_three] == ["timeout"] * 3
        assert {a.seat for a in first_three} == {"stark", "lannister", "baratheon"}
        # The next decision got its own deadline: the Raven holder times out 2 s later.
        assert wait_for(lambda: timeouts(game) >= 4), celery.logs()


def test_a_sweep_delivered_late_and_twice_resolves_once():
    with celery_processes("test-deadlines") as celery:
        game = make_game(time_limit=3600)
        past = timezone.now() - timedelta(seconds=1)
        GameSeat.objects.filter(game=game).update(deadline_at=past)
        Game.objects.filter(pk=game.pk).update(deadline_at=past)
        for _ in range(3):  # queued while no worker runs, then delivered together
            sweep_deadlines.apply_async(queue=celery.queue)
        celery.start_worker()
        assert wait_for(lambda: timeouts(game) == 3), celery.logs()
        time.sleep(2)
        game.refresh_from_db()
        assert game.version == 3
