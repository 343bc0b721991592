"""A real Celery worker for end-to-end tests: a separate process on a queue of its own, pointed at
the test's PostgreSQL database, consuming through the real Redis. Tests that use it need both
services (CI sets DATABASE_URL and REDIS_URL)."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent

needs_services = pytest.mark.skipif(
    not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
    reason="a Celery worker in another process needs PostgreSQL and Redis",
)


@contextmanager
def celery_worker(prefix: str, **extra_env: str) -> Iterator[str]:
    """Run a worker while the block runs; yields its queue's name. `extra_env` may mention the
    queue as {queue} (e.g. DEADLINE_QUEUE="{queue}" so tasks it schedules come back to it)."""
    queue = f"{prefix}-{uuid.uuid4().hex}"
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "DB_CONN_MAX_AGE": "0",
        **{name: value.format(queue=queue) for name, value in extra_env.items()},
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
        print(output[-4000:])  # shown by pytest when the test failed


def wait_for(predicate: Callable[[], bool], timeout: float = 45.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False
