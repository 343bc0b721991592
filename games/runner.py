"""The embedded deadline runner: without Redis or Celery, something must sweep overdue deadlines,
warn of near ones and send pending notifications. It runs inside the web server's process
(`start_in_server`, called by westeros/asgi.py under Daphne), because the in-memory channel layer
lives in that process: a timeout resolved there reaches the players' websockets like any action.
`manage.py run_deadlines` runs the same tick in a process of its own, for deployments whose channel
layer is shared (Redis) but that have no Celery.

With Celery (production), each web server runs a fallback instead (`start_fallback_in_server`): the
same sweeps every second, but only of games whose deadline passed more than
DEADLINE_FALLBACK_GRACE_SECONDS ago. While the workers keep up they resolve every deadline within
about a second and the fallback finds nothing; when every worker is down (killed, restarting, or
Redis' queue lost) the web servers resolve the deadlines a grace later. Nothing is done twice: each
game is claimed under its row lock with SKIP LOCKED and resolution re-checks the deadline under it
(games/services/deadlines.py). Its websocket messages go through the shared channel layer like any
action's. It sends no notifications (the workers do, from their queue and the outbox, when back).
"""
from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.db import close_old_connections

from games.services.deadlines import seconds_to_next_deadline, sweep, sweep_parallel, sweep_until, sweep_workers
from notifications.services import deliver_pending, purge_old, warn_deadlines

log = logging.getLogger(__name__)
INTERVAL_SECONDS = 1.0
_started: set[asyncio.Task] = set()  # asyncio keeps only weak references to running tasks


@dataclass(frozen=True)
class Tick:
    timeouts: int
    notifications_sent: int


def tick() -> Tick:
    """One pass: resolve what is overdue (DEADLINE_SWEEP_WORKERS sweeps side by side on PostgreSQL),
    decide deadline warnings, send the notification outbox (`run_deadlines --once`)."""
    timeouts = sweep_parallel().timeouts
    return Tick(timeouts, after_sweep())


def after_sweep() -> int:
    """The notification half of a tick: deadline warnings, then the notification outbox (no broker,
    so no task sends them), and once an hour the old sent ones deleted (what beat does with
    Celery). Returns how many notifications were sent."""
    global _purged_at
    warn_deadlines()
    sent = deliver_pending()
    if time.monotonic() - _purged_at >= PURGE_EVERY_SECONDS:
        purge_old()
        _purged_at = time.monotonic()
    return sent


PURGE_EVERY_SECONDS = 3600.0
_purged_at = float("-inf")  # the first pass of a process purges


def _between_connections(step):
    close_old_connections()
    try:
        return step()
    finally:
        close_old_connections()


class _Notifier:
    """The notification half in a thread of its own, for the long-running loops: hundreds of warnings
    or messages to send (a burst of games starting, or timing out) must not hold up the next sweep.
    One pass at a time; each loop turn starts one if none is running."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._sent = 0

    def poke(self) -> int:
        """Start a pass unless one is running; returns what the passes finished since the last call
        sent."""
        with self._lock:
            sent, self._sent = self._sent, 0
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="deadline-notifier", daemon=True)
                self._thread.start()
        return sent

    def _run(self) -> None:
        from django.db import connection

        try:
            sent = _between_connections(after_sweep)
        except Exception:
            log.exception("deadline runner: the notification pass failed; trying again")
            sent = 0
        finally:
            connection.close()  # this thread ends: its connection goes with it
        with self._lock:
            self._sent += sent


_notifier = _Notifier()


def tick_between_connections() -> Tick:
    """A turn of the `run_deadlines` loop, treated like a request: connections that broke (database
    restarted) or aged out are dropped before and after. The sweeps run here; the notification half
    runs beside them in its own thread (`_Notifier`). Deadlines falling due before the next turn are
    swept when they do (`sweep_until`)."""
    sent = _notifier.poke()
    return Tick(_between_connections(lambda: sweep_until(INTERVAL_SECONDS).timeouts), sent)


def warm_up() -> None:
    """Import the rulesets now, in a long-running process that will resolve deadlines or serve
    games, rather than inside its first timeout or action (importing them takes about 0.3 s: the
    first of 300 deadlines falling due together was resolved 0.36 s late for it, in
    benchmarks/server_live.py)."""
    from games.engine import ruleset_ids

    ruleset_ids()


def until_next_tick(interval: float) -> float:
    """How long `run_deadlines` sleeps after a turn: `interval`, or less when a deadline falls due
    sooner. (It slept a whole interval after each turn, which already swept up to an interval ahead:
    a deadline falling due in that second waited up to a second more.)"""
    soon = seconds_to_next_deadline()
    return interval if soon is None else max(0.0, min(interval, soon + 0.01))


async def _sweep_on_loop(overdue_by: float = 0.0) -> int:
    """The sweeps from the server's event loop: they run in worker threads started from this loop
    (sync_to_async), side by side, so that the websocket messages each sends after its commits are
    scheduled back onto this loop, where the in-memory channel layer's queues live. `overdue_by`:
    only games overdue by that many seconds (the fallback)."""
    workers = await sync_to_async(_between_connections, thread_sensitive=False)(sweep_workers)
    results = await asyncio.gather(*(sync_to_async(_between_connections, thread_sensitive=False)(
        lambda: sweep(overdue_by=overdue_by)) for _ in range(workers)))
    return sum(r.timeouts for r in results)


async def _every(interval: float, step, what: str, next_wait=None) -> None:
    """Run `step` every `interval` seconds, or sooner when `next_wait` says (the next deadline)."""
    while True:
        wait = interval
        try:
            done = await step()
            if done and what == "sweep":
                log.info("applied %s timeout default(s)", done)
            elif done and what == "fallback sweep":
                log.warning("the web server applied %s timeout default(s) overdue by more than %g s: "
                            "are the Celery workers and beat running?", done, fallback_grace())
            if next_wait is not None:
                soon = await next_wait()
                if soon is not None:
                    wait = min(interval, soon + 0.01)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("deadline runner: the %s failed; trying again", what)
        await asyncio.sleep(wait)


async def run_forever(interval: float = INTERVAL_SECONDS) -> None:
    """Sweep every `interval` seconds on the server's event loop (or as soon as the next deadline
    falls due, when that is sooner), and, in a loop of its own so that a
    burst of messages never delays a sweep, decide warnings and send the outbox. The database work
    runs in worker threads; the websocket messages sent after each commit are scheduled back onto
    this loop (asgiref's async_to_sync does that from a sync_to_async thread), where the in-memory
    channel layer's queues live. A failing pass (database restarting) is logged and the loop goes
    on."""
    log.info("deadline runner started in the web server (every %.1f s)", interval)
    notifications = sync_to_async(_between_connections, thread_sensitive=False)
    next_deadline = sync_to_async(_between_connections, thread_sensitive=False)
    await asyncio.gather(_every(interval, _sweep_on_loop, "sweep", lambda: next_deadline(seconds_to_next_deadline)),
                         _every(interval, lambda: notifications(after_sweep), "notification pass"))


def fallback_grace() -> float:
    from django.conf import settings

    return float(settings.DEADLINE_FALLBACK_GRACE_SECONDS)


def fallback_sweep() -> int:
    """One pass of the fallback in the calling thread (`sweep_parallel`'s threads on PostgreSQL): the
    games overdue by more than the grace. Returns how many timeout defaults it applied."""
    return sweep_parallel(overdue_by=fallback_grace()).timeouts


async def run_fallback_forever(interval: float = INTERVAL_SECONDS) -> None:
    """The fallback on the server's event loop: every `interval` seconds (or when the next deadline
    plus the grace comes, if sooner) sweep the games overdue by more than the grace. A failing pass
    (database restarting) is logged and the loop goes on."""
    grace = fallback_grace()
    log.info("deadline fallback started in the web server (deadlines overdue by more than %g s)", grace)
    next_deadline = sync_to_async(_between_connections, thread_sensitive=False)

    async def until_next() -> float | None:
        soon = await next_deadline(seconds_to_next_deadline)
        return None if soon is None else soon + grace

    await _every(interval, lambda: _fallback_on_loop(grace), "fallback sweep", until_next)


def _anything_overdue_by(grace: float) -> bool:
    from datetime import timedelta

    from django.utils import timezone

    from games.services.deadlines import overdue_games

    return overdue_games(timezone.now() - timedelta(seconds=grace)).exists()


async def _fallback_on_loop(grace: float) -> int:
    """One query (the partial index on active games' deadlines) while the workers keep up; the
    sweeps, side by side, only when a game is overdue by more than the grace."""
    if not await sync_to_async(_between_connections, thread_sensitive=False)(lambda: _anything_overdue_by(grace)):
        return 0
    return await _sweep_on_loop(overdue_by=grace)


def start_in_server(fallback: bool = False) -> bool:
    """Start `run_forever` (or, with `fallback`, `run_fallback_forever`) on Daphne's event loop once
    its reactor runs. Only under Daphne (its asyncio reactor is installed before the application is
    imported): anywhere else, such as a test importing the ASGI application, nothing starts. Returns
    whether it was arranged."""
    if "daphne.server" not in sys.modules:
        return False
    from twisted.internet import reactor  # the asyncio reactor Daphne installed

    loop = reactor._asyncioEventloop  # Daphne runs the application on this loop too

    def start() -> None:
        _started.add(loop.create_task(run_fallback_forever() if fallback else run_forever()))

    reactor.callWhenRunning(start)
    return True
