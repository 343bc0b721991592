"""A Celery worker started exactly as the production recipe starts it (deploy/systemd/westeros-worker.service)
reports ready and resolves deadlines (issue 28: a worker took 16-18 s to take tasks; the recipe now
starts it without mingle, gossip and heartbeat: docs/performance.md, "A worker starts fast"). A
private Redis and the test's PostgreSQL database, skipped on SQLite like tests/test_faults_deadlines.py."""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from games.models import GameAction
from tests.celery_worker import celery_processes, needs_postgres, private_redis, site_on_broker, wait_for
from tests.factories import make_game

UNIT = Path(__file__).resolve().parent.parent / "deploy" / "systemd" / "westeros-worker.service"


def recipe_arguments() -> list[str]:
    """The worker unit's ExecStart arguments after `celery` (-A westeros worker ...)."""
    command = re.search(r"^ExecStart=(.+)$", UNIT.read_text(), re.M).group(1).split()
    assert Path(command[0]).name == "celery", command
    return command[1:]


def test_the_recipe_starts_the_worker_without_the_slow_start_steps():
    arguments = recipe_arguments()
    assert arguments[:3] == ["-A", "westeros", "worker"]
    for flag in ("--without-mingle", "--without-gossip", "--without-heartbeat"):
        assert flag in arguments


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_started_as_the_recipe_starts_it_is_ready_and_resolves_a_deadline(settings):
    with (private_redis() as redis, celery_processes("start", redis_url=redis.url) as celery,
          site_on_broker(settings, redis.url, celery.queue)):
        started = time.monotonic()
        worker = celery._start("worker", recipe_arguments())
        assert wait_for(lambda: " ready." in celery.logs() or worker.poll() is not None, 120), celery.logs()
        assert worker.poll() is None, celery.logs()
        print(f"the worker reported ready {time.monotonic() - started:.1f} s after it started")
        assert "mingle" not in celery.logs()  # it did not wait for other workers' answers
        celery.start_beat()
        game = make_game(time_limit=2)
        assert wait_for(lambda: GameAction.objects.filter(game=game, source="timeout").count() >= 3, 60), \
            celery.logs()
