"""A PostgreSQL restart must not fail requests once the server is back: pooled connections are
checked before use (westeros/env.py, CONN_HEALTH_CHECKS), so a connection the restart killed is
replaced instead of answering 503.

Real processes: a private PostgreSQL cluster (initdb in a temporary folder, on a free port; run as
the `postgres` user when the tests run as root, since PostgreSQL refuses root) and Daphne serving
the project with a pool of connections to it. The shared PostgreSQL is never touched. Skipped only
when the PostgreSQL server binaries are missing, and under CI=true that fails instead."""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.celery_worker import free_port
from tests.live_server import stop_process

ROOT = Path(__file__).resolve().parent.parent
REQUESTS_AFTER_RESTART = 40


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _server_bin_dir() -> Path | None:
    candidates = [os.path.dirname(os.path.realpath(p)) for p in [shutil.which("pg_ctl")] if p]
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if all(os.access(os.path.join(folder, name), os.X_OK) for name in ("initdb", "pg_ctl", "postgres")):
            return Path(folder)
    return None


class PrivateCluster:
    """A throwaway PostgreSQL cluster; every command is bounded by a timeout."""

    def __init__(self, bin_dir: Path, folder: Path) -> None:
        self.bin_dir, self.folder = bin_dir, folder
        self.data, self.log = folder / "data", folder / "server.log"
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/westeros"
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            runuser = shutil.which("runuser")
            try:
                account = pwd.getpwnam("postgres")
            except KeyError:
                account = None
            if runuser is None or account is None:
                pytest.fail("running as root needs `runuser` and a `postgres` user to start a private PostgreSQL")
            os.chown(folder, account.pw_uid, account.pw_gid)
            self.as_user = [runuser, "-u", "postgres", "--"]

    def run(self, tool: str, *args: str, timeout: float = 30) -> None:
        result = subprocess.run([*self.as_user, str(self.bin_dir / tool), *args], capture_output=True, text=True,
                                timeout=timeout)
        assert result.returncode == 0, f"{tool} {args} failed:\n{result.stdout}\n{result.stderr}\n{self.server_log()}"

    def server_log(self) -> str:
        try:
            return self.log.read_text()[-3000:]
        except OSError:
            return ""

    def init_and_start(self) -> None:
        self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync",
                 timeout=60)
        self.start()
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "westeros")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.log), "-w", "-t", "20", "start")

    def restart(self) -> None:
        """Fast mode: every session is terminated, as in a real restart."""
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-m", "fast", "-w", "-t", "20", "restart")

    def stop(self) -> None:
        if not (self.data / "postmaster.pid").exists():
            return
        try:
            self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "-t", "15", "stop", timeout=20)
        except (AssertionError, subprocess.TimeoutExpired):
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def private_postgres() -> Iterator[PrivateCluster]:
    bin_dir = _server_bin_dir()
    if bin_dir is None:
        message = "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found"
        if _in_ci():
            pytest.fail(message + " (CI=true: install postgresql)")
        pytest.skip(message)
    folder = Path(tempfile.mkdtemp(prefix="westeros-pg-"))
    cluster = PrivateCluster(bin_dir, folder)
    try:
        cluster.init_and_start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _server_env(cluster: PrivateCluster) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DB_", "REDIS_", "DATABASE_"))}
    env.update(DATABASE_URL=cluster.url, DB_POOL_SIZE="8", DB_CONN_MAX_AGE="0", DEBUG="false",
               SECRET_KEY="x" * 50, SECURE_SSL_REDIRECT="false", ALLOWED_HOSTS="127.0.0.1",
               DJANGO_SETTINGS_MODULE="westeros.settings", LOG_LEVEL="WARNING")
    return env


@pytest.fixture
def server(private_postgres: PrivateCluster) -> Iterator[str]:
    """Daphne serving the project on the private cluster, with a pool of up to 8 connections."""
    env = _server_env(private_postgres)
    migrate = subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
    assert migrate.returncode == 0, migrate.stderr
    port = free_port()
    log_path = private_postgres.folder / "daphne.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                    "westeros.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while _status(base) is None:
            assert process.poll() is None, log_path.read_text()[-3000:]
            assert time.monotonic() < deadline, "Daphne did not answer within 30 s:\n" + log_path.read_text()[-3000:]
            time.sleep(0.2)
        yield base
    finally:
        stop_process(process)


def _status(base: str) -> int | None:
    """The status of a request that reads the database (the open lobbies); None: no answer."""
    try:
        with urllib.request.urlopen(f"{base}/api/v1/lobbies", timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def _statuses(base: str, count: int, workers: int = 8) -> list[int | None]:
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda _: _status(base), range(count)))


@pytest.mark.slow_once  # a private PostgreSQL of its own whichever the pass: the same on both CI passes
def test_no_request_fails_after_postgresql_restarts(private_postgres, server):
    for _ in range(3):  # concurrent requests: the pool holds several connections
        assert set(_statuses(server, 16)) == {200}

    private_postgres.restart()  # every pooled connection is now dead

    statuses = _statuses(server, REQUESTS_AFTER_RESTART)
    failures = [s for s in statuses if s != 200]
    assert not failures, f"{len(failures)} of {REQUESTS_AFTER_RESTART} requests failed after the restart: {failures}"
