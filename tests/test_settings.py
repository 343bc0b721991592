"""Settings come from the environment: embedded defaults with nothing set, PostgreSQL and Redis
when DATABASE_URL and REDIS_URL are set, and a clear error for a production setup without a key."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from westeros.env import ConfigurationError, database_from_url, env_bool

ROOT = Path(__file__).resolve().parent.parent
SERVICE_VARS = ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT")


def settings_in_subprocess(code: str, **env: str) -> subprocess.CompletedProcess:
    """Run `code` after importing the settings in a fresh interpreter with exactly `env` set."""
    clean = {k: v for k, v in os.environ.items() if k not in SERVICE_VARS}
    clean.update(env)
    clean["DJANGO_SETTINGS_MODULE"] = "westeros.settings"
    return subprocess.run(
        [sys.executable, "-c", f"from django.conf import settings as s; {code}"],
        cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60,
    )


def test_no_variables_means_embedded_mode():
    result = settings_in_subprocess(
        "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], s.DEBUG, s.EMAIL_BACKEND,"
        " s.CELERY_TASK_ALWAYS_EAGER)"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "channels.layers.InMemoryChannelLayer",
        "True",
        "django.core.mail.backends.console.EmailBackend",
        "True",
    ]


def test_database_and_redis_urls_switch_to_postgres_and_redis():
    result = settings_in_subprocess(
        "print(s.DATABASES['default']['ENGINE'], s.DATABASES['default']['HOST'], s.CHANNEL_LAYERS['default']['BACKEND'],"
        " s.CELERY_BROKER_URL, s.CACHES['default']['BACKEND'], s.DEBUG)",
        DATABASE_URL="postgres://u:p@db.example:5433/w",
        REDIS_URL="redis://cache.example:6379/1",
        SECRET_KEY="x" * 50,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "db.example",
        "channels_redis.core.RedisChannelLayer",
        "redis://cache.example:6379/1",
        "django.core.cache.backends.redis.RedisCache",
        "False",
    ]


def test_the_redis_channel_layer_never_times_out_an_idle_read():
    result = settings_in_subprocess(
        "import json; print(json.dumps(s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]))",
        REDIS_URL="redis://cache.example:6379/1", SECRET_KEY="x" * 50,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"address": "redis://cache.example:6379/1", "socket_timeout": None}


def test_missing_secret_key_outside_debug_is_a_clear_startup_error():
    result = settings_in_subprocess("print(s.SECRET_KEY)", DEBUG="false")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_check_deploy_passes_with_a_production_environment():
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_VARS}
    env.update(
        DEBUG="false",
        SECRET_KEY="a-production-secret-key-that-is-long-and-random-0123456789abcdef",
        ALLOWED_HOSTS="westeros.example",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/westeros",
        REDIS_URL="redis://127.0.0.1:6379/0",
        SECURE_HSTS_PRELOAD="true",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_database_url_parsing():
    config = database_from_url("postgres://al%40ice:s%3Acret@db:6543/westeros?sslmode=require", Path("/srv"))
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["USER"], config["PASSWORD"], config["HOST"], config["PORT"], config["NAME"]) == (
        "al@ice", "s:cret", "db", "6543", "westeros"
    )
    assert config["OPTIONS"] == {"sslmode": "require"}
    assert database_from_url("", Path("/srv"))["NAME"] == "/srv/db.sqlite3"
    assert database_from_url("sqlite:////tmp/x.db", Path("/srv"))["NAME"] == "/tmp/x.db"
    with pytest.raises(ConfigurationError, match="DATABASE_URL"):
        database_from_url("mysql://x/y", Path("/srv"))


def test_env_bool_refuses_nonsense(monkeypatch):
    monkeypatch.setenv("SOME_FLAG", "maybe")
    with pytest.raises(ConfigurationError, match="SOME_FLAG"):
        env_bool("SOME_FLAG", False)
    monkeypatch.setenv("SOME_FLAG", "off")
    assert env_bool("SOME_FLAG", True) is False


def test_postgres_connections_come_from_a_pool_when_configured():
    config = database_from_url("postgres://u@db/w", Path("/srv"), conn_max_age=60, pool_size=15)
    assert config["OPTIONS"]["pool"]["max_size"] == 15
    assert config["CONN_MAX_AGE"] == 0  # Django refuses persistent connections with a pool
    assert "pool" not in database_from_url("postgres://u@db/w", Path("/srv"), pool_size=0)["OPTIONS"]


@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="DATABASE_URL not set: SQLite run")
def test_the_pool_really_connects_to_postgresql():
    result = settings_in_subprocess(
        "import django; django.setup(); from django.db import connection; connection.ensure_connection();"
        " print(type(connection.pool).__name__)",
        DATABASE_URL=os.environ["DATABASE_URL"], DB_POOL_SIZE="2", SECRET_KEY="x" * 50,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ConnectionPool"
