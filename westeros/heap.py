"""Garbage collection in the long-running processes: Daphne, `run_deadlines`, Celery workers.

Python's full collection (generation 2) walks every object that has survived the younger
generations. Timed with `gc.callbacks` inside Daphne (issue 20):
- Under `benchmarks/server_api.py` most of those objects were what the server loaded at start
  (Django, DRF, the four rulesets and their data, about 170,000 objects): each full collection took
  60-117 ms, every 10-20 s at 15 actions/s, and every request in flight waited for it; they made the
  slowest 1% of the actions (p99 47-93 ms against a median of 13 ms).
- Under `benchmarks/server_live.py` (1,200 sockets open, 25 actions/s) a full collection took
  150-160 ms every 5 s, and the updates in flight waited: POST to last socket p99 186-274 ms
  against a median of 18 ms. What set the pace was the young generation's threshold (700
  allocations): collected that often, the objects of requests still in flight were found alive
  and promoted, and a full collection runs once promotions reach a quarter of the old generation.

So, once a process has loaded what it serves with:
- `gc.freeze()` moves every object alive to a permanent generation that collections no longer walk
  (full collections: 6-11 ms in the API run). What was frozen is never collected, so this is done
  once, after a collection, and only in those processes (not in tests that import the ASGI
  application). In a Celery worker it also keeps the forked processes from copying the pages the
  collector would have touched.
- The young generation is collected every YOUNG_THRESHOLD allocations instead of 700: a request's
  objects are mostly freed by their reference counts before a collection looks at them, so few are
  promoted and full collections become rare (none in the fan-out run's 22 s; POST to last socket
  p99 30-33 ms). A young collection takes longer (up to 20 ms seen, where it took under 2 ms), and
  comes fourteen times less often.

Under Daphne, collections happen between requests (`CollectBetweenRequests`, issue 27):
- Timed inside each request of `benchmarks/pages.py`, the young generation's collections were what
  made a page's slowest requests: 3-13 ms each (the young generation at its 10,000), in one request
  of twenty or so, and a page's p95 is decided by its slowest one or two. A request that held 10,000
  new objects at once (a game's state, a list of rows) met one every time.
- So Daphne collects when no HTTP request is in flight, after a response has gone out and once a
  second: the generation Python would choose, once the young one holds BETWEEN_REQUESTS allocations.
  The full collection keeps Python's own rule (only once the old generation has grown by a quarter
  since the last one). Nobody waits for them unless a request arrives during one.
- BETWEEN_REQUESTS is 5,000, not Python's 700: measured with a client that sends its next request
  as soon as it has an answer (the page benchmark), every collection is waited for by someone. At
  700 there were 1,962 collections a run (one every other request; the old code made about 175),
  and the client's own times rose by 8-23% against the old code. At 5,000: 374-376, as much work in
  all as the old code's (0.9-1.0 s a run), half as long each (2-3 ms), the client's p95 as before.
- A server never idle collects after a request once the young generation holds BUSY_THRESHOLD
  (the requests in flight wait, as they did for the automatic collection). The automatic collector
  stays as a backstop, at BACKSTOP_THRESHOLD, for a single request that makes that many objects.
"""
from __future__ import annotations

import asyncio
import gc
import sys

YOUNG_THRESHOLD = 10_000  # allocations between two collections of the young generation (Python: 700)
BETWEEN_REQUESTS = 5_000  # Daphne: allocations after which the young generation is collected when idle
BUSY_THRESHOLD = YOUNG_THRESHOLD  # Daphne: ... and after a request even if others are in flight
BACKSTOP_THRESHOLD = 100_000  # Daphne: the automatic collection, for a single request that makes that many
IDLE_CHECK_SECONDS = 1.0  # also once a second (websocket traffic makes garbage without HTTP requests)


def tune_collector(young: int = YOUNG_THRESHOLD) -> int:
    """Load what the process serves with (westeros/warm.py), collect, freeze what is left (the objects
    the process loaded at start), and collect the young generation every `young` allocations. Returns
    how many objects are now frozen."""
    from westeros.warm import warm_up

    warm_up()
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(young, older, oldest)
    return gc.get_freeze_count()


class CollectBetweenRequests:
    """ASGI middleware for HTTP: counts the requests in flight (from their arrival to their response's
    start) and, once `active`, collects garbage when none is (see the module's docstring). Runs on
    the event loop, as its collections do."""

    def __init__(self, app):
        self.app = app
        self.in_flight = 0
        self.active = False
        self.old_after_full: int | None = None  # objects in the old generation after the last full collection

    async def __call__(self, scope, receive, send):
        self.in_flight += 1
        answered = sent = False

        async def send_counted(message):
            nonlocal answered, sent
            if message["type"] == "http.response.start" and not answered:
                answered = True  # the work is done; a stream (/api/stream/event) is not in flight for hours
                self.in_flight -= 1
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                sent = True  # before Django closes the response on its thread, where the next request may be
                self.after_sending()

        try:
            await self.app(scope, receive, send_counted)
        finally:
            if not answered:
                self.in_flight -= 1
            if not sent:
                self.after_sending()

    def after_sending(self) -> None:
        if self.active:  # a timer, even of 0 s, runs after the writes the loop has pending: the response is out first
            asyncio.get_running_loop().call_later(0, self.after_response)

    def after_response(self) -> int | None:
        """After a request: when idle, as `collect_if_due`; with others in flight, once the young
        generation holds BUSY_THRESHOLD (a server never idle: its requests wait, as they would for the
        automatic collection). Never in the middle of a request otherwise."""
        if self.in_flight and gc.get_count()[0] < BUSY_THRESHOLD:
            return None
        return self._collect()

    def collect_if_due(self) -> int | None:
        """Collect the generation Python would, if no request is in flight and the young generation holds
        BETWEEN_REQUESTS allocations. Returns the generation collected, or None."""
        return None if self.in_flight else self._collect()

    def _collect(self) -> int | None:
        young, middle, old = gc.get_count()
        if young < BETWEEN_REQUESTS:
            return None
        _, middle_threshold, old_threshold = gc.get_threshold()
        generation = 0
        if middle >= middle_threshold:
            generation = 1
            if old >= old_threshold and self.old_generation_grew():
                generation = 2
        gc.collect(generation)
        if generation == 2:
            self.old_after_full = len(gc.get_objects(generation=2))
        return generation

    def old_generation_grew(self) -> bool:
        """Python's rule for a full collection: the objects that reached the old generation since the
        last one are more than a quarter of those it kept (the frozen ones are not counted)."""
        now = len(gc.get_objects(generation=2))
        if self.old_after_full is None:
            self.old_after_full = now
            return False
        return now - self.old_after_full > self.old_after_full // 4


def tune_when_serving(between: CollectBetweenRequests | None = None) -> bool:
    """Under Daphne, once its reactor runs (the application is loaded by then): `tune_collector`, and,
    given the HTTP application's `CollectBetweenRequests`, collections between requests, with the
    automatic collector as a backstop. Anywhere else, such as a test importing the ASGI application,
    nothing. Returns whether it was arranged."""
    if "daphne.server" not in sys.modules:
        return False
    from twisted.internet import reactor  # the asyncio reactor Daphne installed
    from twisted.internet.task import LoopingCall

    def tune():
        if between is None:
            tune_collector()
            return
        tune_collector(young=BACKSTOP_THRESHOLD)
        between.active = True
        LoopingCall(between.collect_if_due).start(IDLE_CHECK_SECONDS, now=False)

    reactor.callWhenRunning(tune)
    return True
