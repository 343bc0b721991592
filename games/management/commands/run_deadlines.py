"""The embedded runner: every second, resolves overdue deadlines, warns of near ones, and sends
pending notifications. `python3 dev.py start` runs it beside the web server, so deadlines and
notifications work with nothing installed but Python. With Redis, Celery's worker and beat do
this job instead (README)."""
from __future__ import annotations

import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from games.services.deadlines import sweep
from notifications.services import deliver_pending, warn_deadlines


class Command(BaseCommand):
    help = "Resolve overdue deadlines every INTERVAL seconds (the embedded replacement for Celery beat)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--interval", type=float, default=1.0)
        parser.add_argument("--once", action="store_true", help="sweep once and exit")

    def handle(self, *args, interval: float, once: bool, **options) -> None:
        while True:
            applied = sweep()
            warn_deadlines()
            sent = deliver_pending()  # embedded mode's outbox: no broker, so no task sends them
            if applied:
                self.stdout.write(f"applied {applied} timeout default(s)")
            if sent:
                self.stdout.write(f"sent {sent} notification(s)")
            if once:
                return
            time.sleep(interval)
            # A long-running loop, like a request: drop connections that broke or aged out.
            close_old_connections()
