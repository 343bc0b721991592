"""Reading settings from the environment. Pure functions, so the settings module stays declarative
and these can be tested without reloading Django."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit


class ConfigurationError(SystemExit):
    """A setting is missing or malformed; raised at startup with a message that says which.

    A SystemExit, so a process that cannot start (manage.py, daphne, celery) prints that one line and
    exits with status 1 instead of a traceback through Django's settings machinery."""

    def __init__(self, message: str) -> None:
        super().__init__(f"Configuration error: {message}")
        self.message = message

    def __str__(self) -> str:
        return self.message


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
# A query run this many times on one connection becomes a prepared statement (database_from_url).
PREPARE_THRESHOLD = 5
# What PostgreSQL's planner counts a page read out of order (its default, 4.0, prices a spinning disk's seek;
# 1.1 is the usual setting for data in memory or on an SSD, as the site's is). At 4.0 the planner scanned all
# 10,000 users to join 120 lobbies to their creators and 1,000 ratings to theirs (issue 27, thirteenth round).
# Set on each connection (database_from_url); `?options=...` in DATABASE_URL replaces it (a connection pooler that
# refuses startup options, as PgBouncer without ignore_startup_parameters: give it its own there).
RANDOM_PAGE_COST = 1.1


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise ConfigurationError(f"{name} must be true or false, not {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigurationError(f"{name} must be a whole number, not {raw!r}") from None


def env_url(name: str, default: str = "") -> str:
    """An absolute http(s) URL without a trailing slash (`SITE_URL`), or `default` when unset."""
    raw = env_str(name)
    if not raw:
        return default
    parts = urlsplit(raw)
    if parts.scheme not in {"http", "https"} or not parts.netloc or parts.query or parts.fragment:
        raise ConfigurationError(f"{name} must be an http:// or https:// address such as https://westeros.example, "
                                 f"not {raw!r}")
    return raw.rstrip("/")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def sqlite_database(path: str) -> dict[str, Any]:
    """SQLite set up for a web server and the deadline runner writing at the same time: WAL lets
    readers go on during a write, IMMEDIATE transactions take the write lock up front (no deadlock
    on upgrade), and a writer waits up to 20 s for the lock instead of failing."""
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": path,
        "OPTIONS": {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }


def database_from_url(url: str, base_dir: Path, conn_max_age: int = 60, pool_size: int = 0) -> dict[str, Any]:
    """DATABASES['default'] for `url`; an empty url means the embedded SQLite file.

    With `pool_size` > 0, PostgreSQL connections come from psycopg's pool (Django 5.1+) instead of
    persistent per-thread connections: under ASGI every worker thread would otherwise hold its own
    connection and a busy server runs the database out of them.

    Connections are checked before use either way (CONN_HEALTH_CHECKS; with a pool Django then hands
    psycopg_pool `ConnectionPool.check_connection`, so OPTIONS["pool"] must not name `check` too):
    after a PostgreSQL restart a stale connection is replaced instead of failing a request."""
    if not url:
        return sqlite_database(str(base_dir / "db.sqlite3"))
    parts = urlsplit(url)
    if parts.scheme in {"postgres", "postgresql", "pgsql"}:
        options: dict[str, Any] = dict(parse_qsl(parts.query))
        test_name = options.pop("test_name", None)
        # Server-side binding (psycopg sends the values apart from the SQL, instead of quoting them
        # into it in Python) and prepared statements (a query run PREPARE_THRESHOLD times on a
        # connection is planned once, then executed by name): every page makes the same few queries
        # again and again (issue 27). `?server_side_binding=false` in the URL turns both off, as a
        # transaction-mode connection pooler (PgBouncer before 1.21) needs.
        options["server_side_binding"] = options.get("server_side_binding", "true").lower() not in FALSE_WORDS
        if options["server_side_binding"]:
            options["prepare_threshold"] = int(options.get("prepare_threshold", PREPARE_THRESHOLD))
        else:
            options.pop("prepare_threshold", None)
        options.setdefault("options", f"-c random_page_cost={RANDOM_PAGE_COST}")
        if pool_size > 0:
            options["pool"] = {"min_size": 1, "max_size": pool_size, "timeout": 10}
            conn_max_age = 0  # Django refuses persistent connections together with a pool
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parts.path.lstrip("/")) or "westeros",
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "CONN_MAX_AGE": conn_max_age,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": options,
            "TEST": {"NAME": test_name},
        }
    if parts.scheme == "sqlite":
        # sqlite:///relative/path or sqlite:////absolute/path
        path = parts.path[1:] if parts.path.startswith("/") else parts.path
        return sqlite_database(path or str(base_dir / "db.sqlite3"))
    raise ConfigurationError(f"DATABASE_URL must start with postgres:// or sqlite://, not {parts.scheme!r}://")
