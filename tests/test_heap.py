"""The long-running processes set the garbage collector for a server (westeros/heap.py, issue 20):
what they loaded at start is frozen (Daphne's full collections took 60-117 ms walking Django and the
rulesets), and the young generation is collected every 10,000 allocations instead of 700 (objects of
requests in flight were promoted, and a full collection of 150 ms came every 5 s with 1,200 sockets
open). Every request or update in flight waited for those collections."""
from __future__ import annotations

import asyncio
import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from westeros import heap

ROOT = Path(__file__).resolve().parent.parent


def run(code: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="westeros.settings", SECRET_KEY="test", DEADLINE_RUNNER_IN_SERVER="false")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_tuning_freezes_the_objects_alive_and_collects_the_young_less_often():
    assert run("import gc; from westeros.heap import tune_collector; print(gc.get_threshold()); "
               "frozen = tune_collector(); print(frozen > 10000, gc.get_freeze_count() == frozen, "
               "len(gc.get_objects()) < frozen, gc.get_threshold())").splitlines() == [
        "(700, 10, 10)", "True True True (10000, 10, 10)"]


def test_daphne_tunes_once_its_reactor_runs_and_not_before():
    """Daphne collects between requests (issue 27), the automatic collection kept as a backstop."""
    code = ("import gc, daphne.server, westeros.asgi; from twisted.internet import reactor; "
            "between = westeros.asgi.http_application; "
            "print(gc.get_freeze_count(), gc.get_threshold()[0], between.active); "
            "reactor.callWhenRunning(lambda: (print(gc.get_freeze_count() > 10000, gc.get_threshold()[0], "
            "between.active), reactor.stop())); reactor.run()")
    assert run(code).splitlines() == ["0 700 False", "True 100000 True"]


def test_importing_the_asgi_application_outside_daphne_changes_nothing():
    assert run("import gc, westeros.asgi; print(gc.get_freeze_count(), gc.get_threshold()[0], "
               "westeros.asgi.http_application.active)") == "0 700 False"


def test_the_celery_worker_tunes_before_it_starts_its_processes():
    code = ("import gc; from westeros.celery import app; from celery.signals import worker_init; "
            "worker_init.send(sender=None); print(gc.get_freeze_count() > 10000, gc.get_threshold()[0])")
    assert run(code) == "True 10000"


def test_run_deadlines_tunes_after_loading_the_rulesets(monkeypatch):
    from django.core.management import call_command

    from games.management.commands import run_deadlines

    steps = []
    monkeypatch.setattr(run_deadlines, "warm_up", lambda: steps.append("warm_up"))
    monkeypatch.setattr(run_deadlines, "tune_collector", lambda: steps.append("tune"))

    def first_turn():
        steps.append("turn")
        raise KeyboardInterrupt  # ends the loop

    monkeypatch.setattr(run_deadlines, "tick_between_connections", first_turn)
    with pytest.raises(KeyboardInterrupt):
        call_command("run_deadlines")
    assert steps == ["warm_up", "tune", "turn"]



def test_the_data_pages_read_is_loaded_before_the_freeze():
    """Issue 27: the catalogues the pages read were built by the first request that needed them, and
    then walked by every full collection; now they are loaded first and frozen with the rest, in each
    language the site speaks (issue 29: English and Spanish)."""
    code = ("import django; django.setup(); import gc; from westeros.heap import tune_collector; "
            "from web import board, btwixt, lcg, minis; tune_collector(); "
            "print(board._agot_board_json.cache_info().currsize, lcg.catalogue.cache_info().currsize, "
            "minis.catalogue.cache_info().currsize, minis._translated.cache_info().currsize, "
            "lcg._translated.cache_info().currsize, sorted(btwixt._built[1]))")
    assert run(code).split() == ["2", "1", "1", "1", "1", "['en',", "'es']"]


# --- collections between requests (Daphne; issue 27) ------------------------------------------------

@pytest.fixture
def collections():
    """The collector stopped (nothing collects but the code under test), every collection recorded by
    its generation; the collector as it was afterwards."""
    seen: list[int] = []

    def record(phase, info):
        if phase == "start":
            seen.append(info["generation"])

    was_enabled = gc.isenabled()
    gc.disable()
    gc.collect()
    gc.callbacks.append(record)
    try:
        yield seen
    finally:
        gc.callbacks.remove(record)
        if was_enabled:
            gc.enable()


def garbage(count: int = heap.BETWEEN_REQUESTS + 100) -> list:
    return [[] for _ in range(count)]  # containers the collector counts


class Page:
    """An HTTP application whose requests answer when told to; a stream keeps sending after its start."""

    def __init__(self):
        self.answer: dict[str, asyncio.Event] = {}

    async def __call__(self, scope, receive, send):
        await self.answer.setdefault(scope["path"], asyncio.Event()).wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        if scope["path"] == "/stream":
            await asyncio.Event().wait()  # open until cancelled
        await send({"type": "http.response.body", "body": b"ok"})
        if scope["path"] == "/closing":  # Django closes the response on its thread, maybe behind the next request
            await self.answer.setdefault("closed", asyncio.Event()).wait()


async def until(condition, seconds: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    ends = loop.time() + seconds
    while not condition():
        assert loop.time() < ends, "the condition never held"
        await asyncio.sleep(0.001)


async def settle() -> None:
    """A few turns of the loop: a collection due after a response (a 0 s timer) has run by then."""
    for _ in range(5):
        await asyncio.sleep(0)


async def nothing(message):
    return None


def request(app, path: str):
    return asyncio.ensure_future(app({"type": "http", "path": path}, nothing, nothing))


def serving() -> tuple[Page, heap.CollectBetweenRequests]:
    """A page behind the middleware, active as under Daphne."""
    page = Page()
    between = heap.CollectBetweenRequests(page)
    between.active = True
    return page, between


async def two_in_flight(between: heap.CollectBetweenRequests):
    first, second = request(between, "/a"), request(between, "/b")
    await until(lambda: between.in_flight == 2)
    return first, second


def test_the_young_generation_is_collected_once_no_request_is_in_flight(collections):
    async def scenario():
        page, between = serving()
        first, second = await two_in_flight(between)
        kept = garbage()
        page.answer["/a"].set()
        await first
        await settle()
        assert collections == []  # /b still in flight: nobody is made to wait
        page.answer["/b"].set()
        await second
        await until(lambda: collections)
        assert collections == [0] and between.in_flight == 0
        return kept

    asyncio.run(scenario())


def test_the_collection_follows_the_response_sent_not_the_end_of_its_closing(collections):
    """The client may send its next request before Django has closed the last response: the collection
    is due once the response's last part is sent, while nothing is in flight."""
    async def scenario():
        page, between = serving()
        closing = request(between, "/closing")
        await until(lambda: between.in_flight == 1)
        kept = garbage()
        page.answer["/closing"].set()
        await until(lambda: collections)
        assert collections == [0] and not closing.done()
        page.answer.setdefault("closed", asyncio.Event()).set()
        await closing
        await settle()
        assert collections == [0]  # once
        return kept

    asyncio.run(scenario())


def test_too_little_garbage_or_an_inactive_server_collects_nothing(collections):
    async def scenario():
        page = Page()
        between = heap.CollectBetweenRequests(page)
        page.answer["/a"] = asyncio.Event()
        page.answer["/a"].set()
        kept = garbage()
        await request(between, "/a")  # not active: outside Daphne
        between.active = True
        gc.collect(0)
        collections.clear()
        await request(between, "/a")  # active, but the young generation holds little
        await settle()
        assert collections == [] and between.collect_if_due() is None
        return kept

    asyncio.run(scenario())


def test_a_server_never_idle_collects_after_a_request_once_the_young_generation_is_large(collections):
    async def scenario():
        page, between = serving()
        first, second = await two_in_flight(between)
        kept = garbage(heap.BUSY_THRESHOLD + 100)
        page.answer["/a"].set()
        await first
        await until(lambda: collections)
        assert collections == [0] and between.in_flight == 1
        collections.clear()
        more = garbage(heap.BUSY_THRESHOLD + 100)
        assert between.collect_if_due() is None and collections == []  # the timer's: never during /b
        page.answer["/b"].set()
        await second
        return kept, more

    asyncio.run(scenario())


def test_a_stream_is_in_flight_only_until_its_response_starts(collections):
    """/api/stream/event stays open for hours: it must not keep every collection waiting."""
    async def scenario():
        page, between = serving()
        stream = request(between, "/stream")
        await until(lambda: between.in_flight == 1)
        kept = garbage()
        assert between.collect_if_due() is None
        page.answer["/stream"].set()
        await until(lambda: between.in_flight == 0)
        assert between.collect_if_due() == 0 and collections == [0]
        stream.cancel()
        return kept

    asyncio.run(scenario())


def test_the_older_generations_are_collected_as_python_would(collections):
    """The middle generation after `threshold[1]` young collections; the old one after `threshold[2]`
    middle ones, and only once it has grown by a quarter since the last full collection (Python's
    own rule), counting the objects that reached it."""
    _, middle, old = gc.get_threshold()
    between = heap.CollectBetweenRequests(None)

    def due_after(young: int, middle_ones: int = 0) -> int | None:
        for _ in range(middle_ones):
            gc.collect(1)
        for _ in range(young):
            gc.collect(0)
        kept = garbage()
        collections.clear()
        done = between.collect_if_due()
        assert collections == ([done] if done is not None else [])
        del kept
        return done

    assert due_after(young=middle - 1) == 0
    assert due_after(young=middle) == 1
    assert due_after(young=middle, middle_ones=old) == 1  # the first look only measures the old generation
    alive = garbage(between.old_after_full // 4 + 5000)
    gc.collect(1)  # they reach the old generation
    assert due_after(young=middle, middle_ones=old) == 2
    assert between.old_after_full >= len(alive)
    assert due_after(young=middle, middle_ones=old) == 1  # it has not grown since
