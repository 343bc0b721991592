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

from games.services.deadlines import sweep
from notifications.services import deliver_pending, warn_deadlines

log = logging.getLogger(__name__)
INTERVAL_SECONDS = 1.0


@dataclass(frozen=True)
class Tick:
    timeouts: int
    notifications_sent: int


def tick() -> Tick:
    """One pass: resolve what is overdue, decide deadline warnings, send the notification outbox."""
    timeouts = sweep().timeouts
    warn_deadlines()
    sent = deliver_pending()  # no broker, so no task sends them
    return Tick(timeouts, sent)


def tick_between_connections() -> Tick:
    """A tick in a long-running loop is treated like a request: connections that broke (database
    restarted) or aged out are dropped before and after."""
    close_old_connections()
    try:
        return tick()
    finally:
        close_old_connections()


async def run_forever(interval: float = INTERVAL_SECONDS) -> None:
    """Tick every `interval` seconds on the server's event loop. The database work runs in a worker
    thread; the websocket messages it sends after each commit are scheduled back onto this loop
    (asgiref's async_to_sync does that from a sync_to_async thread), where the in-memory channel
    layer's queues live. A failing tick (database restarting) is logged and the loop goes on."""
    log.info("deadline runner started in the web server (every %.1f s)", interval)
    while True:
        try:
            done = await sync_to_async(tick_between_connections, thread_sensitive=False)()
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
