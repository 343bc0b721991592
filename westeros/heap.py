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
"""
from __future__ import annotations

import gc
import sys

YOUNG_THRESHOLD = 10_000  # allocations between two collections of the young generation (Python: 700)


def tune_collector() -> int:
    """Load what the process serves with (westeros/warm.py), collect, freeze what is left (the objects
    the process loaded at start), and collect the young generation less often. Returns how many
    objects are now frozen."""
    from westeros.warm import warm_up

    warm_up()
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
    return gc.get_freeze_count()


def tune_when_serving() -> bool:
    """Under Daphne, `tune_collector` once its reactor runs (the application is loaded by then);
    anywhere else, such as a test importing the ASGI application, nothing. Returns whether it was
    arranged."""
    if "daphne.server" not in sys.modules:
        return False
    from twisted.internet import reactor  # the asyncio reactor Daphne installed

    reactor.callWhenRunning(tune_collector)
    return True
