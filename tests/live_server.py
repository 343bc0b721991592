"""A real server process for tests that need one (Daphne, started the way the README or dev.py does),
in embedded mode on a SQLite file of its own: no REDIS_URL, so the channel layer is in-memory and
the deadline runner lives in the server. Tests reach it over loopback only."""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.celery_worker import free_port

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Server:
    port: int
    env: dict[str, str]
    process: subprocess.Popen
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args: str) -> str:
        """manage.py against the server's database; returns what it printed."""
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True,
                              text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


def embedded_env(folder: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL", "DEBUG")}
    env.update(DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}", SECRET_KEY="test-only-secret-key", DEBUG="false",
               ALLOWED_HOSTS="127.0.0.1,localhost", SECURE_SSL_REDIRECT="false", DB_CONN_MAX_AGE="0",
               PYTHONUNBUFFERED="1", LOG_LEVEL="INFO", **extra)
    return env


@contextmanager
def running_server(command: list[str], **extra_env: str) -> Iterator[Server]:
    """A freshly migrated database (a copy of migrated_database's), then run `command` (with {port}
    filled in) until the block ends."""
    folder = Path(tempfile.mkdtemp(prefix="westeros-server-"))
    env = embedded_env(folder, **extra_env)
    shutil.copyfile(migrated_database(extra_env), folder / "db.sqlite3")
    port = free_port()
    log = folder / "server.log"
    with log.open("w") as out:
        process = subprocess.Popen([part.format(port=port) for part in command], cwd=ROOT, env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
    server = Server(port, env, process, log)
    try:
        _wait_until_up(server)
        yield server
    finally:
        stop_process(process)
        shutil.rmtree(folder, ignore_errors=True)


# One migrated database per test process and environment, copied for each server: `manage.py
# migrate` costs a Django start and every migration (3-4 s of CPU) and gives the same file each time.
_migrated: dict[tuple[tuple[str, str], ...], Path] = {}
NOT_READ_BY_MIGRATE = {"STATIC_ROOT"}  # where collectstatic writes: no migration reads it


def migrated_database(extra_env: dict[str, str]) -> Path:
    """A SQLite file `manage.py migrate` made in this environment (made on first use in this process)."""
    key = tuple(sorted((k, v) for k, v in extra_env.items() if k not in NOT_READ_BY_MIGRATE))
    if key not in _migrated:
        folder = Path(tempfile.mkdtemp(prefix="westeros-migrated-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT,
                       env=embedded_env(folder, **dict(key)), check=True, timeout=300)
        _migrated[key] = folder / "db.sqlite3"
    return _migrated[key]


def stop_process(process: subprocess.Popen, grace: float = 10) -> None:
    """SIGTERM, then SIGKILL if it has not exited within `grace` seconds."""
    process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=grace)


def _wait_until_up(server: Server, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(server.url + "/", timeout=2)
            return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            if server.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start:\n" + server.output()) from None
            time.sleep(0.3)
