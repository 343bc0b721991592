"""Live updates leave the request without waiting (issue 20, westeros/live.py): in the web server a
change's group_sends are handed to the server's loop, where one task sends them in the order of
the commits; the request answers meanwhile. Elsewhere (Celery, commands) they are sent before the
call returns. A layer that fails is logged, never raised."""
from __future__ import annotations

import asyncio
import logging
import time

import pytest
import redis.exceptions
from asgiref.sync import sync_to_async

from westeros import live

log = logging.getLogger("tests.live")


class SlowLayer:
    """Records each group_send; the first one waits until `release` is set."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []
        self.release = asyncio.Event()

    async def group_send(self, group: str, message: dict) -> None:
        if not self.sent and not self.release.is_set():
            await self.release.wait()
        self.sent.append((group, message))


async def eventually(condition, what: str, timeout: float = 30) -> None:
    """Wait until `condition()` holds, letting the loop run; fail after `timeout` seconds (a
    ceiling for a loaded machine, not an expected duration) saying what was awaited."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout:.0f} s for {what}"
        await asyncio.sleep(0.01)


class DownLayer:
    async def group_send(self, group: str, message: dict) -> None:
        raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


@pytest.mark.asyncio
async def test_in_the_server_a_request_does_not_wait_for_its_sends_and_they_go_out_in_order():
    layer = SlowLayer()

    def commit(n: int) -> None:  # what a view's on_commit does, in a worker thread of the server
        live.send_in_order(layer, [(f"game.{n}.table", {"n": n}), (f"game.{n}.spectators", {"n": n})], log, f"change {n}")

    for n in range(3):
        await sync_to_async(commit, thread_sensitive=False)(n)  # returns while the first send still waits
    assert layer.sent == []
    layer.release.set()
    await eventually(lambda: len(layer.sent) == 6, "the six sends")
    assert [group for group, _ in layer.sent] == ["game.0.table", "game.0.spectators", "game.1.table",
                                                  "game.1.spectators", "game.2.table", "game.2.spectators"]


@pytest.mark.asyncio
async def test_in_the_server_a_failed_send_is_one_logged_line(caplog):
    with caplog.at_level("WARNING", logger="tests.live"):
        await sync_to_async(live.send_in_order, thread_sensitive=False)(
            DownLayer(), [("game.1.table", {})], log, "game 1 at version 4")
        await eventually(lambda: caplog.records, "the failed send's logged line")
    (record,) = caplog.records
    assert "could not notify game 1 at version 4: the channel layer is unavailable" in record.getMessage()
    assert record.exc_info is None


def test_outside_a_server_the_sends_are_made_before_returning(caplog):
    layer = SlowLayer()
    layer.release.set()
    assert live.server_loop() is None
    live.send_in_order(layer, [("game.1.table", {"n": 1}), ("game.1.spectators", {"n": 1})], log, "change 1")
    assert [group for group, _ in layer.sent] == ["game.1.table", "game.1.spectators"]
    with caplog.at_level("WARNING", logger="tests.live"):
        live.send_in_order(DownLayer(), [("game.1.table", {})], log, "change 2")  # logged, not raised
    assert ["could not notify change 2" in r.getMessage() for r in caplog.records] == [True]


@pytest.mark.asyncio
async def test_in_the_server_work_after_a_commit_runs_in_a_background_thread():
    import threading

    started, release, ran_in = threading.Event(), threading.Event(), []

    def work() -> None:  # e.g. handing notifications to Celery
        started.set()
        release.wait(60)
        ran_in.append(threading.current_thread().name)

    await sync_to_async(live.off_the_request, thread_sensitive=False)(work, log, "enqueue")
    assert await asyncio.to_thread(started.wait, 60) and ran_in == []  # the caller went on meanwhile
    release.set()
    await eventually(lambda: ran_in, "the work to run")
    assert ran_in and ran_in[0].startswith("after-commit")


def test_outside_a_server_work_after_a_commit_runs_now_and_its_failure_is_logged(caplog):
    import threading

    ran_in = []
    live.off_the_request(lambda: ran_in.append(threading.current_thread().name), log, "enqueue")
    assert ran_in == [threading.current_thread().name]
    with caplog.at_level("ERROR", logger="tests.live"):
        live.off_the_request(lambda: 1 / 0, log, "enqueue notifications")
    assert [r.getMessage() for r in caplog.records] == ["could not enqueue notifications"]


def test_outside_a_server_sends_reuse_one_loop_of_the_process():
    """A Celery worker or `run_deadlines` sends on one loop of its own, in a thread of its own,
    instead of a new thread, loop and Redis connection for every change (asgiref's async_to_sync)."""
    import threading

    seen = []

    class Recording:
        async def group_send(self, group: str, message: dict) -> None:
            seen.append((threading.current_thread().name, id(asyncio.get_running_loop())))

    for n in range(3):
        live.send_in_order(Recording(), [(f"game.{n}.table", {})], log, f"change {n}")
    assert len(seen) == 3 and len(set(seen)) == 1 and seen[0][0] == "live-sends"
