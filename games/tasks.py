"""Celery tasks. Beat sends `sweep_deadlines` every DEADLINE_SWEEP_SECONDS; nothing is scheduled per
game (games/services/deadlines.py says why). The sweep is idempotent: it resolves only what is
overdue, each game under its row lock."""
from __future__ import annotations

from celery import shared_task

from games.services import deadlines


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Returns how many timeout defaults were applied. DEADLINE_SWEEP_WORKERS sweeps run side by side
    in this task's threads (on PostgreSQL), so one worker process keeps up with a burst of
    deadlines falling due together."""
    from django.conf import settings

    return deadlines.sweep_until(settings.DEADLINE_SWEEP_SECONDS).timeouts
