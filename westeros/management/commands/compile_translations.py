"""`manage.py compile_translations`: the site's translation catalogues (locale/*/LC_MESSAGES/*.po)
compiled to the .mo files Django reads (issue 29; docs/translating.md). `dev.py start` and
`dev.py test` run it, so the .mo files are never committed and never stale.

With GNU gettext's msgfmt on the machine this is Django's own `compilemessages` (which also checks
the format strings); without it, polib writes the same .mo files in pure Python, so a newcomer
without gettext still gets Spanish. Either way a catalogue whose .mo is newer than its .po is left
as it is.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

# folders compilemessages must not walk into (it looks for every "locale" folder under the current one)
IGNORED = [".venv", "node_modules", "staticfiles", "test-artifacts", "build"]


def catalogues() -> list[Path]:
    return sorted(po for folder in settings.LOCALE_PATHS for po in Path(folder).glob("*/LC_MESSAGES/*.po"))


def stale(po: Path) -> bool:
    mo = po.with_suffix(".mo")
    return not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime


def compile_with_polib(po: Path) -> None:
    """The .mo beside `po`, written whole then renamed (a reader never sees half a file)."""
    import polib

    handle, temporary = tempfile.mkstemp(dir=po.parent, suffix=".mo.tmp")
    os.close(handle)
    try:
        polib.pofile(str(po)).save_as_mofile(temporary)
        os.replace(temporary, po.with_suffix(".mo"))
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


class Command(BaseCommand):
    help = "Compile the site's translations (locale/*/LC_MESSAGES/*.po) into .mo files."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--pure-python", action="store_true",
                            help="use polib even when msgfmt is installed (what a machine without gettext does)")

    def handle(self, *args, pure_python: bool = False, **options) -> None:
        todo = [po for po in catalogues() if stale(po)]
        if not todo:
            return
        if shutil.which("msgfmt") and not pure_python:
            call_command("compilemessages", ignore_patterns=IGNORED, verbosity=options["verbosity"] - 1 if
                         options["verbosity"] else 0)
        else:
            for po in todo:
                compile_with_polib(po)
        if options["verbosity"]:
            self.stdout.write(f"Compiled {len(todo)} translation catalogue(s).")
