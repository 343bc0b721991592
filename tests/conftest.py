from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import make_user

# .ci/run runs the suite twice, on PostgreSQL then on SQLite. Tests marked slow_once test nothing new
# the second time: the browser tests (their server has a SQLite database of its own on both passes)
# and the engine's tests in tests/engine (pure Python, no database; they play thousands of whole
# games: 12 minutes on one core). The second pass sets LONG_TESTS_RAN_ON to the first pass' backend
# and leaves them out. `python3 dev.py test` alone (no such variable) runs everything.
LONG_TESTS_RAN_ON = "LONG_TESTS_RAN_ON"
LEFT_OUT = "{count} long tests (marked slow_once) were left out: they ran on {backend} earlier in this CI run."
ENGINE_TESTS = "/tests/engine/"


@pytest.hookimpl(trylast=True)  # after tests/browser/conftest.py has marked its tests
def pytest_collection_modifyitems(config, items):
    for item in items:
        if ENGINE_TESTS in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.slow_once)
    backend = os.environ.get(LONG_TESTS_RAN_ON, "").strip()
    if not backend:
        return
    left_out = [item for item in items if item.get_closest_marker("slow_once")]
    if left_out:
        items[:] = [item for item in items if not item.get_closest_marker("slow_once")]
        config.hook.pytest_deselected(items=left_out)
    config.stash[LEFT_OUT_COUNT] = len(left_out)
    if hasattr(config, "workeroutput"):  # an xdist worker: its controller prints the line
        config.workeroutput[LONG_TESTS_RAN_ON] = len(left_out)


LEFT_OUT_COUNT = pytest.StashKey[int]()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """xdist's controller collects nothing itself: the count comes from its workers (each collects
    every test, so they agree)."""
    count = getattr(node, "workeroutput", {}).get(LONG_TESTS_RAN_ON)
    if count is not None:
        node.config.stash[LEFT_OUT_COUNT] = max(count, node.config.stash.get(LEFT_OUT_COUNT, 0))


def cpu_times() -> tuple[int, int] | None:
    """(all CPU time, idle CPU time) of the machine since it started, in ticks (Linux only)."""
    try:
        ticks = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    return sum(ticks), ticks[3] + ticks[4]  # idle and iowait


CPU_AT_START = pytest.StashKey[tuple[int, int] | None]()


def pytest_sessionstart(session):
    session.config.stash[CPU_AT_START] = cpu_times()


def pytest_terminal_summary(terminalreporter, config):
    """Why the slow_once tests were left out, and how busy the machine's CPUs were during the run (so a
    slow run says whether the tests waited or the machine was full: issue 27): printed before pytest's
    last line, its summary."""
    backend = os.environ.get(LONG_TESTS_RAN_ON, "").strip()
    count = config.stash.get(LEFT_OUT_COUNT, 0)
    if backend and count:
        terminalreporter.write_line(LEFT_OUT.format(count=count, backend=backend))
    start, end = config.stash.get(CPU_AT_START, None), cpu_times()
    if start and end and end[0] > start[0]:
        busy = 100 * (1 - (end[1] - start[1]) / (end[0] - start[0]))
        load = ", ".join(f"{n:.1f}" for n in os.getloadavg())
        terminalreporter.write_line(f"The machine's {os.cpu_count()} CPUs were {busy:.0f}% busy during this run"
                                    f" (these tests and anything else running); load average now {load}.")


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    """Each test gets its own cache key space: log-in throttling counts live in the cache, and the
    Redis cache is shared by parallel test workers."""
    caches = {name: dict(config) for name, config in settings.CACHES.items()}
    for config in caches.values():
        config["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches


@pytest.fixture(autouse=True)
def no_game_socket_keepalive(settings):
    """No keep-alive on the game sockets of in-process tests (games/consumers.py, issue 28), unless a
    test sets LIVE_KEEPALIVE_SECONDS itself (tests/test_live_keepalive.py): many tests read a socket
    until a message of some kind comes, each read with a timeout, and a keep-alive every 2 s would
    turn a missing message into a test that never ends instead of one that fails. Servers the tests
    start as processes keep the default."""
    settings.LIVE_KEEPALIVE_SECONDS = 0


@pytest.fixture(autouse=True)
def isolated_channel_layer(settings):
    """A fresh channel layer for each test, with its own key prefix on Redis. Group names come from
    ids, and every parallel worker's test database starts its ids at 1, so without a prefix one
    worker's sockets would receive the other's messages. A fresh layer also keeps channels-redis'
    asyncio locks from being shared between the event loops of different async tests (changing
    CHANNEL_LAYERS makes Channels drop its cached layers)."""
    settings.CHANNEL_LAYERS = {
        name: {**config, "CONFIG": {**config.get("CONFIG", {}), "prefix": f"test{uuid.uuid4().hex}"}}
        if "Redis" in config["BACKEND"] else dict(config)
        for name, config in settings.CHANNEL_LAYERS.items()
    }


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """PBKDF2 costs ~0.3 s a user by design; tests create hundreds of users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def user(db):
    return make_user()


@pytest.fixture
def logged_in(db, user) -> Client:
    client = Client()
    client.force_login(user)
    return client


HANDSHAKE_WAIT = 10  # seconds: a bound on a test socket's handshake, far above what one needs


@pytest.fixture(autouse=True)
def patient_websocket_handshakes(monkeypatch):
    """Channels' WebsocketCommunicator.connect() waits 1 s for the handshake unless told otherwise;
    on a loaded CI machine (load 12 on 2 cores) a handshake that reads the database took longer and
    the test failed with TimeoutError. Tests wait on conditions, not durations: a call without a
    timeout waits up to HANDSHAKE_WAIT (one that passes its own keeps it)."""
    from channels.testing import WebsocketCommunicator

    original = WebsocketCommunicator.connect

    async def connect(self, timeout=HANDSHAKE_WAIT):
        return await original(self, timeout)

    monkeypatch.setattr(WebsocketCommunicator, "connect", connect)
