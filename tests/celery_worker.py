"""Real Celery processes for end-to-end tests: workers and beat, each a separate process on a queue
of its own, pointed at the test's PostgreSQL database and consuming through a real Redis (the shared
one, or a private one a fault test starts with `private_redis` and may restart). Tests that use them
need PostgreSQL (CI sets DATABASE_URL); those on the shared Redis need REDIS_URL too."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.db import connection

from westeros.ports import free_port, free_ports  # noqa: F401  (the tests import them from here)

ROOT = Path(__file__).resolve().parent.parent

needs_services = pytest.mark.skipif(
    not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
    reason="a Celery worker in another process needs PostgreSQL and Redis",
)
needs_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="Celery processes share the test database only on PostgreSQL (the SQLite test database is in memory)",
)


def _database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@dataclass
class Processes:
    """The Celery processes of one test, so the test can kill one and start another."""

    env: dict[str, str]
    queue: str
    workdir: Path
    running: list[tuple[str, subprocess.Popen]] = field(default_factory=list)

    def start_worker(self, *, concurrency: int = 1, name: str = "worker") -> subprocess.Popen:
        pool = ["--pool", "solo"] if concurrency == 1 else ["--pool", "prefork", "--concurrency", str(concurrency)]
        return self._start(name, ["worker", "-Q", self.queue, *pool, "-n", f"{name}-{uuid.uuid4().hex[:8]}@%h",
                                  "--without-heartbeat", "--without-mingle", "--without-gossip", "-l", "info"])

    def start_beat(self) -> subprocess.Popen:
        return self._start("beat", ["beat", "-s", str(self.workdir / "beat-schedule"), "-l", "info"])

    def _start(self, name: str, args: list[str]) -> subprocess.Popen:
        log = open(self.workdir / f"{name}-{len(self.running)}.log", "w")  # closed below: the process keeps its own descriptor
        process = subprocess.Popen([sys.executable, "-m", "celery", "-A", "westeros", *args], cwd=ROOT, env=self.env,
                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        self.running.append((name, process))
        return process

    def alive(self, process: subprocess.Popen) -> bool:
        return process.poll() is None

    def kill(self, process: subprocess.Popen) -> None:
        """SIGKILL the process and its pool children, as an OOM killer or a lost machine would."""
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=10)

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
                         for path in sorted(self.workdir.glob("*.log")))

    def stop_all(self) -> None:
        for _name, process in self.running:
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                    process.wait(timeout=15)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    self.kill(process)


@contextmanager
def celery_processes(prefix: str, *, redis_url: str | None = None, **extra_env: str) -> Iterator[Processes]:
    """A place to start workers and beat for one test; all are stopped at the end, and their logs are
    printed (pytest shows them when the test failed). Their queue is DEADLINE_QUEUE and NOTIFY_QUEUE,
    so beat's sweeps come to them and to nobody else. `extra_env` may mention the queue as {queue}."""
    queue = f"{prefix}-{uuid.uuid4().hex}"
    workdir = Path(tempfile.mkdtemp(prefix="westeros-celery-"))
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DB_CONN_MAX_AGE": "0",
        "DB_POOL_SIZE": "0",
        "DEADLINE_QUEUE": queue,
        "NOTIFY_QUEUE": queue,
        "LOG_LEVEL": "INFO",
        **({"REDIS_URL": redis_url} if redis_url else {}),
        **{name: value.format(queue=queue) for name, value in extra_env.items()},
    }
    processes = Processes(env, queue, workdir)
    try:
        yield processes
    finally:
        processes.stop_all()
        print(processes.logs())
        shutil.rmtree(workdir, ignore_errors=True)
        _drop_queue(env.get("REDIS_URL"), queue)


def _drop_queue(redis_url: str | None, queue: str) -> None:
    """Leave nothing of the test's queue in a shared Redis (sweeps beat sent that nobody ran)."""
    if not redis_url:
        return
    import redis

    try:
        redis.Redis.from_url(redis_url, socket_timeout=5).delete(queue)
    except redis.RedisError:
        pass


@contextmanager
def celery_worker(prefix: str, **extra_env: str) -> Iterator[str]:
    """One solo worker while the block runs; yields its queue's name."""
    with celery_processes(prefix, **extra_env) as processes:
        processes.start_worker()
        yield processes.queue


@dataclass
class PrivateRedis:
    """A redis-server of the test's own, on a free port, that the test may stop and start again
    (never the shared one). It keeps nothing on disk, like the shared one: a restart loses every
    queued message."""

    port: int
    workdir: Path
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_for(self._answers, timeout=10):
            raise RuntimeError(f"private redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def restart(self, down_seconds: float = 2.0) -> None:
        self.stop()
        time.sleep(down_seconds)
        self.start()

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False


@contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed (Debian's redis-server package)")
    server = PrivateRedis(free_port(), Path(tempfile.mkdtemp(prefix="westeros-redis-")))
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)


@contextmanager
def site_on_broker(settings, redis_url: str, queue: str) -> Iterator[None]:
    """Point this test process (the "web server" that creates games and submits actions) at the
    same private broker and queue as the Celery processes, as a deployment would."""
    from westeros.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.DEADLINE_QUEUE = queue
    settings.NOTIFY_QUEUE = queue
    saved = app.conf.broker_url, app.conf.task_always_eager
    app.conf.broker_url, app.conf.task_always_eager = redis_url, False
    app._pool, app.amqp._producer_pool = None, None  # the next publish connects to the new broker
    try:
        yield
    finally:
        app.conf.broker_url, app.conf.task_always_eager = saved
        app._pool, app.amqp._producer_pool = None, None


def wait_for(predicate: Callable[[], bool], timeout: float = 45.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False
