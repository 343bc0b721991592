"""`python manage.py scenario PATH [PATH ...]`: run scenario files (../shared/SCENARIOS.md).

Prints one `PASS name` / `FAIL name: what differed` line per scenario and `N passed, M failed`;
exits with status 1 when anything failed. The work is done by games.engine.scenarios.run_paths,
which pytest shares.
"""
from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.engine.scenarios import run_paths


class Command(BaseCommand):
    help = "Run rules scenario files (files or folders of *.yaml) and report PASS/FAIL for each."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="scenario files or folders")

    def handle(self, *args: Any, **options: Any) -> None:
        lines, failed = run_paths(options["paths"])
        for line in lines:
            self.stdout.write(line)
        self.stdout.flush()
        if failed:
            sys.exit(1)
