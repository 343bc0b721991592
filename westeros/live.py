"""Live updates after a commit, sent without making the request wait for them.

A sync view under Daphne runs in a worker thread while the server's event loop runs the sockets.
Sending a change with asgiref's `async_to_sync` makes that thread wait for every `group_send` (a
hop to the loop and two or three Redis round trips each: about 4 ms of a 15 ms action, measured in
issue 20), and Django runs sync views one at a time per process, so every request behind it waits
too. Here the sends are handed to the server's loop and the caller goes on: the commit is already
the truth, and a socket that misses an update re-fetches by version (the consumers put crossing
messages back in version order).

Outside a server (Celery workers, `manage.py run_deadlines`, tests calling services directly) there is
no server loop to hand them to: they are sent before `send_in_order` returns, as before, on an event
loop this process keeps in a thread of its own for the purpose. asgiref's `async_to_sync` would start
a thread, an event loop and a Redis connection for every call (a sweep thread spent 7% of its time
starting threads that way, profiled with py-spy); the in-memory layer, which only a test can read
outside a server, keeps `async_to_sync`.

`off_the_request` does the same for other blocking work a committed change starts and its answer
does not need (handing notifications to Celery: about 1.5 ms of Redis per notification).
"""
from __future__ import annotations

import asyncio
import logging
import os
import threading
import weakref
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer

from westeros.outages import REDIS_ERRORS

# Per server loop, the queue of sends waiting to go out and the one task sending them, in order.
_queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Queue] = weakref.WeakKeyDictionary()
_senders: set[asyncio.Task] = set()  # asyncio keeps only weak references to running tasks
# One thread per process for `off_the_request`: the work is done in the order it was handed over.
_background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="after-commit")


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The web server's running event loop when this thread is one of its sync worker threads (a
    view, or a deadline sweep started from the loop); None anywhere else."""
    local = SyncToAsync.threadlocal
    loop = getattr(local, "main_event_loop", None)
    if loop is None or getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    if loop.is_closed() or not loop.is_running():
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return loop  # a worker thread, not the loop's own: hand the sends over
    return None


def send_in_order(layer: Any, messages: list[tuple[str, dict]], log: logging.Logger, what: str) -> None:
    """`layer.group_send` each (group, message) of `messages`, in order: on the server's loop without
    waiting when there is one, else before returning. A failure is logged on `log` (one line when
    the channel layer is down, `what` naming the change) and never raised: the commit stands."""
    if layer is None or not messages:
        return

    async def send_all() -> None:
        try:
            for group, message in messages:
                await layer.group_send(group, message)
        except REDIS_ERRORS as error:  # Redis down: one line per change, not a traceback
            log.warning("could not notify %s: the channel layer is unavailable (%s)", what, error)
        except Exception:
            log.exception("could not notify %s", what)

    loop = server_loop()
    if loop is not None:
        loop.call_soon_threadsafe(_enqueue, loop, send_all)
    elif isinstance(layer, InMemoryChannelLayer):
        async_to_sync(send_all)()
    else:
        try:
            asyncio.run_coroutine_threadsafe(send_all(), _process_loop()).result(timeout=SEND_TIMEOUT)
        except TimeoutError:
            log.warning("could not notify %s: the channel layer did not answer in %s s", what, SEND_TIMEOUT)


SEND_TIMEOUT = 30  # seconds a caller outside a server waits for its sends, at most
_own: tuple[int, asyncio.AbstractEventLoop] | None = None  # (pid, loop) of this process's sending loop
_own_lock = threading.Lock()


def _process_loop() -> asyncio.AbstractEventLoop:
    """This process's own event loop for sending, running in a daemon thread (started on first use,
    and again in a child process after a fork, which does not inherit the thread)."""
    global _own
    with _own_lock:
        if _own is None or _own[0] != os.getpid() or _own[1].is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="live-sends", daemon=True).start()
            _own = (os.getpid(), loop)
        return _own[1]


def _enqueue(loop: asyncio.AbstractEventLoop, send_all: Callable[[], Awaitable[None]]) -> None:
    """On the loop: queue the sends for the loop's sender task (started on first use)."""
    queue = _queues.get(loop)
    if queue is None:
        queue = _queues[loop] = asyncio.Queue()
        task = loop.create_task(_send_queued(queue))
        _senders.add(task)
        task.add_done_callback(_senders.discard)
    queue.put_nowait(send_all)


async def _send_queued(queue: asyncio.Queue) -> None:
    """Send the queued changes one after the other, in the order they were committed here."""
    while True:
        send_all = await queue.get()
        await send_all()


def off_the_request(work: Callable[[], None], log: logging.Logger, what: str) -> None:
    """Run `work` in a background thread of this process when in the web server (the request does
    not wait for it), else now. An exception is logged on `log`, never raised."""
    if server_loop() is None:
        _logged(work, log, what)
    else:
        _background.submit(_logged, work, log, what)


def _logged(work: Callable[[], None], log: logging.Logger, what: str) -> None:
    try:
        work()
    except Exception:
        log.exception("could not %s", what)
