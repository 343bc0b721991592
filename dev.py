#!/usr/bin/env python3
"""The two commands a newcomer needs (README): `python3 dev.py start` and `python3 dev.py test`.

Only Python 3.11+ is required: everything else is installed into .venv/ the first time, and again
whenever pyproject.toml changes.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


def run(*args: str | Path, env: dict[str, str] | None = None) -> None:
    print("$", " ".join(str(a) for a in args), flush=True)
    completed = subprocess.run([str(a) for a in args], cwd=ROOT, env=env)
    if completed.returncode != 0:
        sys.exit(completed.returncode)


def ensure_installed(extras: str = "") -> None:
    """Create .venv and install the project (with `extras`) unless this exact pyproject is installed."""
    if sys.version_info < (3, 11):
        sys.exit(f"Westeros needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    if not PYTHON.exists():
        print(f"Creating a virtual environment in {VENV} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    stamp = VENV / f".installed{'-' + extras if extras else ''}"
    if stamp.exists() and stamp.read_text() == digest:
        return
    run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    target = f".[{extras}]" if extras else "."
    run(PYTHON, "-m", "pip", "install", "--quiet", "--editable", target)
    stamp.write_text(digest)


def test_environment() -> dict[str, str]:
    env = dict(os.environ)
    # With DATABASE_URL/REDIS_URL set, DEBUG defaults to off, which requires a secret key and
    # redirects HTTP to HTTPS; the test client speaks plain HTTP with a throwaway key.
    env.setdefault("SECRET_KEY", "test-only-secret-key")
    env.setdefault("SECURE_SSL_REDIRECT", "false")
    env.setdefault("DB_CONN_MAX_AGE", "0")
    env.setdefault("DB_POOL_SIZE", "0")
    return env


def start(args: list[str]) -> None:
    ensure_installed()
    run(PYTHON, "manage.py", "migrate", "--no-input")
    run(PYTHON, "manage.py", "compile_translations")  # locale/*.po -> .mo: the site in Spanish too (issue 29)
    run(PYTHON, "manage.py", "seed_demo")
    address = args[0] if args else "127.0.0.1:8000"
    # Links in e-mails and webhooks start with SITE_URL: this server's address (0.0.0.0 listens on
    # every interface; links then name this machine). An explicit SITE_URL wins.
    import socket

    host, _, port = address.rpartition(":")
    host = socket.gethostname() if host in {"0.0.0.0", "[::]", "::"} else host or "127.0.0.1"
    os.environ.setdefault("SITE_URL", f"http://{host}:{port}")
    print(f"\nWesteros is starting on http://{address}/ (Daphne, ASGI); the server also enforces"
          " deadlines. Stop it with Ctrl+C.\n", flush=True)
    # Daphne's runserver (websockets, static files, reload on changes) with a large listen backlog and
    # the production server's limits: a request body over REQUEST_BODY_MAX_SIZE is refused unread
    # (games/management/commands/serve.py, westeros/asgi_server.py).
    # Without Redis the server process sweeps overdue deadlines itself every second, so timeouts
    # reach the pages live (games/runner.py). With REDIS_URL set (and no Celery here) the runner
    # runs beside it; the Redis channel layer carries its updates to the server.
    runner = None
    if os.environ.get("REDIS_URL"):
        # No Celery worker here: the runner sends the notification outbox itself, so neither process
        # hands notifications to Celery (tasks that no worker would ever take would pile up in Redis).
        os.environ.setdefault("NOTIFY_OUTBOX_ONLY", "true")
        runner = subprocess.Popen([str(PYTHON), "manage.py", "run_deadlines"], cwd=ROOT)
    try:
        run(PYTHON, "manage.py", "serve", address)
    finally:
        if runner is not None:
            runner.terminate()


PYTEST_DEFAULTS = ("--durations=25",)


def test(args: list[str]) -> None:
    ensure_installed("test")
    env = test_environment()
    backend = "PostgreSQL" if env.get("DATABASE_URL") else "SQLite"
    layer = "Redis" if env.get("REDIS_URL") else "in-memory"
    print(f"Running the tests on {backend} with the {layer} channel layer.", flush=True)
    run(BIN / "ruff", "check", ".", env=env)
    run(PYTHON, "manage.py", "compile_translations", env=env)  # tests/test_i18n.py reads the Spanish
    # The 25 slowest tests close every run (CI's log shows where the time goes); pytest prints them
    # before the short summary and its last line, "N passed ... in S s", which CI reads, stays last.
    # An explicit --durations in ARGS comes later and wins.
    run(PYTHON, "-m", "pytest", "-n", "2", "-q", *PYTEST_DEFAULTS, *args, env=env)


def bench(args: list[str]) -> None:
    """The speed goals (README, "Performance"): engine, API latency, websocket fan-out, deadlines."""
    ensure_installed("bench")
    env = dict(os.environ)
    run(PYTHON, "benchmarks/agot_engine.py", env=env)
    run(PYTHON, "benchmarks/agot_bot.py", env=env)
    run(PYTHON, "benchmarks/lcg.py", env=env)
    run(PYTHON, "benchmarks/minis.py", env=env)
    run(PYTHON, "benchmarks/server_api.py", env=env)
    run(PYTHON, "benchmarks/pages.py", env=env)  # every page and API GET at a real site's size (issue 27)
    run(PYTHON, "benchmarks/server_live.py", env=env)  # fan-out, then deadlines by run_deadlines
    # the deadline goal's other runners: embedded mode (inside Daphne, no Redis), and Celery with Redis
    run(PYTHON, "benchmarks/server_live.py", "--only-deadlines", "--in-server", env=env)
    if env.get("REDIS_URL"):
        run(PYTHON, "benchmarks/server_live.py", "--only-deadlines", "--celery", env=env)
    if env.get("REDIS_URL"):  # the production shape on loopback, one process killed at a time (issue 28);
        # it starts its own PostgreSQL, Redis with Sentinel and nginx on private ports (needs their programs)
        run(PYTHON, "benchmarks/chaos.py", env=env)


COMMANDS = {"start": start, "test": test, "bench": bench}

# What `python3 dev.py --help` and `python3 dev.py COMMAND --help` print (every sentence of the
# usage in one place): each command's arguments and its line.
USAGE = {
    "start": ("[ADDRESS]", "install, migrate, create the demo account and serve the site on ADDRESS"
                           " (127.0.0.1:8000)"),
    "test": ("[PYTEST ARGS...]", "install the test tools, run `ruff check .`, then pytest on two workers"
                                 " (the arguments go to pytest)"),
    "bench": ("", "run the speed benchmarks of the README's \"Performance\" section (minutes; not tests)"),
}
HELP = ("-h", "--help", "help")


def usage(command: str | None = None) -> str:
    """The usage of dev.py (every command, a line each), or of one of its commands."""
    names = [command] if command else list(USAGE)
    calls = {name: f"{name} {USAGE[name][0]}".strip() for name in names}
    width = max(len(call) for call in calls.values())
    lines = [f"  {calls[name]:<{width}}  {USAGE[name][1]}" for name in names]
    if command:
        return "\n".join([f"usage: python3 dev.py {calls[command]}", "", *lines]) + "\n"
    return "\n".join(["usage: python3 dev.py COMMAND [ARGUMENTS]", "", "commands:", *lines, "",
                      "The first run installs the project into .venv/ (minutes).",
                      "`python3 dev.py COMMAND --help` describes one command."]) + "\n"


def main(argv: list[str]) -> int:
    if not argv or argv[0] in HELP:
        # `dev.py help test` describes one command, as `dev.py test --help` does
        named = argv[1] if len(argv) > 1 and argv[0] == "help" and argv[1] in COMMANDS else None
        (sys.stdout if argv else sys.stderr).write(usage(named))
        return 0 if argv else 2
    command, args = argv[0], argv[1:]
    if command not in COMMANDS:
        sys.stderr.write(f"dev.py: no command {command!r}.\n\n{usage()}")
        return 2
    if command != "test" and args[:1] and args[0] in HELP[:2]:
        sys.stdout.write(usage(command))
        return 0
    if command == "test" and args in (["-h"], ["--help"]):
        sys.stdout.write(usage(command) + "Every pytest option: .venv/bin/python -m pytest --help\n")
        return 0
    if command == "bench" and args:
        sys.stderr.write(f"dev.py bench takes no arguments (got {' '.join(args)!r}).\n\n{usage(command)}")
        return 2
    if command == "start" and (len(args) > 1 or args[:1] and args[0].startswith("-")):
        sys.stderr.write(f"dev.py start takes one address at most (got {' '.join(args)!r}).\n\n{usage(command)}")
        return 2
    COMMANDS[command](args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
