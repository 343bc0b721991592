"""Garbage collection in the long-running processes: Daphne, `run_deadlines`, Celery workers.

Python's full collection (generation 2) walks every object that has survived the younger
generations, and in a server that is mostly what it loaded when it started: Django, DRF, the four
rulesets and their data, about 170,000 objects. Timed with `gc.callbacks` inside Daphne under
`benchmarks/server_api.py` (issue 20), each full collection took 60-117 ms, every 10-20 s at 15
actions/s and every second or so at saturation, and every request in flight waited for it: they made
the slowest 1% of the actions (p99 47-93 ms against a median of 13 ms).

`gc.freeze()` moves every object alive at that moment to a permanent generation that collections no
longer walk. Called once the process has loaded what it serves with, a full collection walks only
what came after. What was frozen is never collected, so it is called once, after a collection,
and only in those processes (not in tests that import the ASGI application). It also keeps a
Celery worker's forked processes from copying the pages the collector would have touched.
"""
from __future__ import annotations

import gc
import sys


def freeze_startup_objects() -> int:
    """Collect, then freeze what is left: the objects a long-running process loaded at start.
    Returns how many objects are now frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def freeze_when_serving() -> bool:
    """Under Daphne, freeze once its reactor runs (the application is loaded by then); anywhere
    else, such as a test importing the ASGI application, nothing. Returns whether it was arranged."""
    if "daphne.server" not in sys.modules:
        return False
    from twisted.internet import reactor  # the asyncio reactor Daphne installed

    reactor.callWhenRunning(freeze_startup_objects)
    return True
