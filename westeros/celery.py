"""The Celery app. With REDIS_URL the broker is Redis; without it tasks run in-process (embedded mode)."""
from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "westeros.settings")

app = Celery("westeros")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def warm_up(**kwargs) -> None:
    """The rulesets imported by the worker before it starts its processes (they inherit them), not by
    the first deadline sweep of each (games/runner.py, warm_up); then the garbage collector set for
    a server (westeros/heap.py), which the processes inherit too."""
    from games.engine import ruleset_ids  # pure Python: no Django needed yet
    from westeros.heap import tune_collector

    ruleset_ids()
    tune_collector()  # before the fork: the garbage collector set for a server (westeros/heap.py)
