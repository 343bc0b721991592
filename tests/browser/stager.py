"""The browser tests' stager: one Python process per live server that runs the code the tests would
otherwise give `manage.py shell -c` one process at a time (tests/browser/conftest.py,
LiveServer.manage). Starting Django and loading the engines' data cost about 1.5 s of CPU for each of
the hundreds of stagings in a run; here they are paid once per server.

It reads one JSON line {"code": ...} at a time from stdin and answers one JSON line {"ok", "out",
"error"} on the stdout it was started with; the code runs in the namespace `manage.py shell` gives
(its automatic imports of the models), and what it prints is its answer's "out". Between two stagings
the database connections are closed (the live server's SQLite file is shared with the server) and
the process' caches cleared, so nothing one staging read or cached is seen by the next."""
from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import traceback


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "westeros.settings")
    import django

    django.setup()
    from django.core.cache import caches
    from django.core.management.commands.shell import Command
    from django.db import connections

    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray write to fd 1 cannot break an answer
    namespace = Command().get_namespace(verbosity=0)
    for line in sys.stdin:
        code = json.loads(line)["code"]
        out, error = io.StringIO(), ""
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, "<staging>", "exec"), {"__name__": "__main__", **namespace})
        except BaseException:  # SystemExit too: the answer says what happened, the stager goes on
            error = traceback.format_exc()
        finally:
            connections.close_all()
            for cache in caches.all():
                cache.clear()
        answers.write(json.dumps({"ok": not error, "out": out.getvalue(), "error": error}) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
