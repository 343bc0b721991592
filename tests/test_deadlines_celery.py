"""End to end with a real Celery worker: a deadline task scheduled through Redis fires, and the
worker, a separate process on the same PostgreSQL database, applies the timeout defaults.
Needs the real services (CI sets DATABASE_URL and REDIS_URL)."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game, GameAction, GameSeat
from games.tasks import resolve_game_deadline, sweep_deadlines
from tests.factories import make_game

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
        reason="a Celery worker in another process needs PostgreSQL and Redis",
    ),
]


@pytest.fixture
def worker():
    """A Celery worker on a queue of its own, pointed at this test's database."""
    queue = f"test-{uuid.uuid4().hex}"
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "DB_CONN_MAX_AGE": "0",
        # Tasks the worker schedules itself (the next deadline) must come back to this queue.
        "DEADLINE_QUEUE": queue,
        "DEADLINE_TASKS": "true",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "westeros", "worker", "-Q", queue, "--pool", "solo",
         "--without-heartbeat", "--without-mingle", "--without-gossip", "-l", "info"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        yield queue
    finally:
        process.terminate()
        try:
            output, _ = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        print(output[-4000:])


def wait_for(predicate, timeout=45.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


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
