"""The deadline runner in a process of its own: every second, resolves overdue deadlines, warns of
near ones, and sends pending notifications. The web server already runs this loop inside itself when
there is no Redis (games/runner.py), which is what embedded mode needs: a separate process has its
own in-memory channel layer, so its timeouts would never reach the pages. Use this command where the
channel layer is shared (Redis) but Celery does not run, or to sweep once (`--once`)."""
from __future__ import annotations

import logging
import time

from django.core.management.base import BaseCommand

from games.runner import tick, tick_between_connections, until_next_tick, warm_up
from westeros.heap import tune_collector

log = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Resolve overdue deadlines every INTERVAL seconds (what Celery beat and workers do with Redis)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--interval", type=float, default=1.0)
        parser.add_argument("--once", action="store_true", help="sweep once and exit")

    def handle(self, *args, interval: float, once: bool, **options) -> None:
        if once:
            self._report(tick())
            return
        warm_up()
        tune_collector()  # the garbage collector set for a long-running process (westeros/heap.py)
        while True:
            try:
                self._report(tick_between_connections())
                pause = until_next_tick(interval)
            except Exception:  # the database restarting: log it and keep going
                log.exception("deadline runner tick failed; trying again")
                pause = interval
            time.sleep(pause)

    def _report(self, done) -> None:
        if done.timeouts:
            self.stdout.write(f"applied {done.timeouts} timeout default(s)")
        if done.notifications_sent:
            self.stdout.write(f"sent {done.notifications_sent} notification(s)")
