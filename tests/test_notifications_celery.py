"""End to end with a real Celery worker: the notifications decided when a game starts are enqueued
on commit through Redis and sent by a worker, a separate process on the same PostgreSQL database.
Needs the real services (CI sets DATABASE_URL and REDIS_URL)."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from notifications.models import Kind, Notification
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
    queue = f"test-notify-{uuid.uuid4().hex}"
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "DB_CONN_MAX_AGE": "0",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
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


def wait_for(predicate, timeout: float = 45.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_a_worker_sends_the_notifications_decided_in_the_request(worker, settings):
    settings.NOTIFY_QUEUE = worker
    game = make_game()
    started = Notification.objects.filter(game=game, kind=Kind.GAME_STARTED)
    assert started.count() == 3
    assert wait_for(lambda: started.filter(emailed_at__isnull=False).count() == 3)
    assert not started.exclude(error="").exists()
