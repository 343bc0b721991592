"""The embedded deadline runner: without Redis or Celery, something must sweep overdue deadlines,
warn of near ones and send pending notifications. It runs inside the web server's process
(`start_in_server`, called by westeros/asgi.py under Daphne), because the in-memory channel layer
lives in that process: a timeout resolved there reaches the players' websockets like any action.
`manage.py run_deadlines` runs the same tick in a process of its own, for deployments whose channel
layer is shared (Redis) but that have no Celery.
"""
from __future__ import annotations

import asyncio
import logging
import sys
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.db import close_old_connections

from games.services.deadlines import sweep, sweep_parallel, sweep_workers
from notifications.services import deliver_pending, warn_deadlines

log = logging.getLogger(__name__)
INTERVAL_SECONDS = 1.0


@dataclass(frozen=True)
class Tick:
    timeouts: int
    notifications_sent: int


def tick() -> Tick:
    """One pass: resolve what is overdue (DEADLINE_SWEEP_WORKERS sweeps side by side on PostgreSQL),
    decide deadline warnings, send the notification outbox."""
    timeouts = sweep_parallel().timeouts
    return Tick(timeouts, after_sweep())


def after_sweep() -> int:
    """The rest of a tick: deadline warnings, then the notification outbox (no broker, so no task
    sends them). Returns how many notifications were sent."""
    warn_deadlines()
    return deliver_pending()


def _between_connections(step):
    close_old_connections()
    try:
        return step()
    finally:
        close_old_connections()


async def tick_on_loop() -> Tick:
    """A tick from the server's event loop: the sweeps run in worker threads started from this loop
    (sync_to_async), side by side, so that the websocket messages each sends after its commits are
    scheduled back onto this loop, where the in-memory channel layer's queues live."""
    workers = await sync_to_async(_between_connections, thread_sensitive=False)(sweep_workers)
    results = await asyncio.gather(*(sync_to_async(_between_connections, thread_sensitive=False)(sweep)
                                     for _ in range(workers)))
    sent = await sync_to_async(_between_connections, thread_sensitive=False)(after_sweep)
    return Tick(sum(r.timeouts for r in results), sent)


def tick_between_connections() -> Tick:
    """A tick in a long-running loop is treated like a request: connections that broke (database
    restarted) or aged out are dropped before and after."""
    return _between_connections(tick)


async def run_forever(interval: float = INTERVAL_SECONDS) -> None:
    """Tick every `interval` seconds on the server's event loop. The database work runs in a worker
    thread; the websocket messages it sends after each commit are scheduled back onto this loop
    (asgiref's async_to_sync does that from a sync_to_async thread), where the in-memory channel
    layer's queues live. A failing tick (database restarting) is logged and the loop goes on."""
    log.info("deadline runner started in the web server (every %.1f s)", interval)
    while True:
        try:
            done = await tick_on_loop()
            if done.timeouts:
                log.info("applied %s timeout default(s)", done.timeouts)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("deadline runner tick failed; trying again")
        await asyncio.sleep(interval)


def start_in_server() -> bool:
    """Start `run_forever` on Daphne's event loop once its reactor runs. Only under Daphne (its
    asyncio reactor is installed before the application is imported): anywhere else, such as a test
    importing the ASGI application, nothing starts. Returns whether it was arranged."""
    if "daphne.server" not in sys.modules:
        return False
    from twisted.internet import reactor  # the asyncio reactor Daphne installed

    loop = reactor._asyncioEventloop  # Daphne runs the application on this loop too

    def start() -> None:
        loop.create_task(run_forever())

    reactor.callWhenRunning(start)
    return True
