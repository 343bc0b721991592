"""Settings come from the environment: embedded defaults with nothing set, PostgreSQL and Redis
when DATABASE_URL and REDIS_URL are set, and a clear error for a production setup without a key."""
from __future__ import annotations

import json
import os
import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from westeros.env import ConfigurationError, database_from_url, env_bool

ROOT = Path(__file__).resolve().parent.parent
SERVICE_VARS = ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT",
                "EMAIL_HOST", "EMAIL_BACKEND", "SITE_URL", "STATIC_ROOT")


def readme_production_environment() -> dict[str, str]:
    """The `export DEBUG=false ...` lines of the README's production section, with a real key."""
    lines = (ROOT / "README.md").read_text().splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("export DEBUG=false"))
    command = ""
    for line in lines[start:]:
        command += line.rstrip("\\") + " "
        if not line.endswith("\\"):
            break
    env = dict(word.split("=", 1) for word in shlex.split(command)[1:])
    return {**env, "SECRET_KEY": "a-production-secret-key-that-is-long-and-random-0123456789abcdef"}


PRODUCTION = readme_production_environment()


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
        "westeros.channel_layer.RedisChannelLayer",
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


def manage_py(*args: str, **env: str) -> subprocess.CompletedProcess:
    """manage.py in a fresh process with exactly `env` set (of the variables settings read)."""
    clean = {k: v for k, v in os.environ.items() if k not in SERVICE_VARS}
    clean.update(env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True,
                          timeout=120)


def test_missing_secret_key_outside_debug_is_one_clear_line_not_a_traceback():
    result = manage_py("check", **{**PRODUCTION, "SECRET_KEY": ""})
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "Configuration error: SECRET_KEY must be set when DEBUG is off (see README, 'Embedded mode and production')."
    ], result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_a_malformed_setting_is_one_clear_line_too():
    result = manage_py("check", **{**PRODUCTION, "SITE_URL": "westeros.example"})
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        "Configuration error: SITE_URL must be an http:// or https:// address such as https://westeros.example,"
        " not 'westeros.example'"
    ]


def test_check_deploy_passes_with_the_readmes_production_environment():
    assert PRODUCTION["SITE_URL"] == "https://westeros.example" and PRODUCTION["EMAIL_HOST"]
    result = manage_py("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_deploy_fails_loudly_without_an_email_host_or_with_a_loopback_site_url():
    """With DEBUG off and no EMAIL_HOST nothing is mailed or printed, and the deployment check (which
    deploy/deploy.sh runs before migrating) refuses; so does a SITE_URL that links to loopback."""
    env = {**PRODUCTION, "EMAIL_HOST": "", "SITE_URL": ""}
    result = manage_py("check", "--deploy", **env)
    assert result.returncode == 1
    assert "westeros.E001" in result.stderr and "EMAIL_HOST is not set" in result.stderr
    assert "westeros.E002" in result.stderr and "'http://127.0.0.1:8000'" in result.stderr
    # An explicit choice of backend is a choice: no E001. A plain check (what migrate runs) passes.
    chosen = manage_py("check", "--deploy", **{**env, "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend"})
    assert "westeros.E001" not in chosen.stderr and "westeros.E002" in chosen.stderr
    assert manage_py("check", **env).returncode == 0


def test_without_an_email_host_and_debug_off_mail_is_refused_not_printed():
    result = settings_in_subprocess("print(s.EMAIL_BACKEND)", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.core.mail.backends.smtp.EmailBackend"
    result = settings_in_subprocess("print(s.EMAIL_BACKEND)", **{**PRODUCTION, "EMAIL_HOST": ""})
    assert result.stdout.strip() == "westeros.mail.NotConfiguredEmailBackend"


@pytest.mark.django_db
def test_a_password_reset_without_mail_configured_is_logged_without_its_link(client, settings, caplog, capsys):
    from tests.factories import make_user

    settings.EMAIL_BACKEND = "westeros.mail.NotConfiguredEmailBackend"
    make_user(email="arya@example.com")
    response = client.post(reverse("password_reset"), {"email": "arya@example.com"})
    assert response.status_code == 302
    logged = caplog.text + "".join(capsys.readouterr())
    assert "e-mail is not configured" in logged and "arya@example.com" in logged
    assert "/accounts/password/reset/" not in logged and "new password" not in logged


@pytest.mark.django_db
def test_links_the_site_sends_start_with_site_url(client, settings):
    from django.core import mail

    from notifications.models import Kind, Notification
    from notifications.services import compose
    from tests.factories import make_game, make_user

    settings.SITE_URL = "https://westeros.example"
    user = make_user(email="sansa@example.com")
    client.post(reverse("password_reset"), {"email": "sansa@example.com"})  # Host: testserver
    assert re.search(r"^https://westeros\.example/accounts/password/reset/\S+/$", mail.outbox[0].body, re.M), \
        mail.outbox[0].body
    game = make_game(users=[user, make_user(), make_user()])
    notification = Notification(user=user, game=game, kind=Kind.GAME_STARTED, data={"seat": "stark"})
    _subject, text = compose(notification)
    assert text.splitlines()[-1] == f"https://westeros.example/games/{game.pk}/"


def test_env_url():
    from westeros.env import env_url

    os.environ.pop("SOME_URL", None)
    assert env_url("SOME_URL", "http://x:1") == "http://x:1"
    os.environ["SOME_URL"] = "https://westeros.example/"
    try:
        assert env_url("SOME_URL") == "https://westeros.example"
        os.environ["SOME_URL"] = "ftp://westeros.example"
        with pytest.raises(ConfigurationError, match="SOME_URL"):
            env_url("SOME_URL")
    finally:
        del os.environ["SOME_URL"]


@pytest.mark.parametrize(("argument", "site_url"), [
    ([], "http://127.0.0.1:8000"),
    (["192.0.2.7:8080"], "http://192.0.2.7:8080"),
    (["8081"], "http://127.0.0.1:8081"),
    (["0.0.0.0:8080"], f"http://{socket.gethostname()}:8080"),
])
def test_dev_py_start_sets_site_url_to_the_address_it_serves(monkeypatch, argument, site_url):
    import dev

    served = []
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setattr(dev, "ensure_installed", lambda *a: None)
    monkeypatch.setattr(dev, "run", lambda *args, env=None: served.append((args, os.environ.get("SITE_URL"))))
    dev.start(argument)
    assert served[-1][0][-1] == (argument[0] if argument else "127.0.0.1:8000")
    assert served[-1][1] == site_url


def test_dev_py_start_with_redis_sends_notifications_from_the_runner_not_celery(monkeypatch):
    """With REDIS_URL, `dev.py start` runs `run_deadlines` beside the server and no Celery worker:
    both take notifications from the outbox (NOTIFY_OUTBOX_ONLY), which the runner sends, instead of
    handing them to a broker where no worker would ever take them (issue 20)."""
    import dev

    started = []
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    monkeypatch.setenv("NOTIFY_OUTBOX_ONLY", "placeholder")
    monkeypatch.delenv("NOTIFY_OUTBOX_ONLY")  # absent, and restored to what it was after the test
    monkeypatch.setenv("SITE_URL", "http://127.0.0.1:8000")
    monkeypatch.setattr(dev, "ensure_installed", lambda *a: None)
    monkeypatch.setattr(dev, "run", lambda *args, env=None: started.append((args, os.environ.get("NOTIFY_OUTBOX_ONLY"))))

    class Runner:
        def __init__(self, args, cwd=None):
            started.append((tuple(args), os.environ.get("NOTIFY_OUTBOX_ONLY")))

        def terminate(self):
            pass

    monkeypatch.setattr(dev.subprocess, "Popen", Runner)
    dev.start([])
    (runner, outbox_runner), (server, outbox_server) = [(a, o) for a, o in started if "manage.py" in a and (
        "run_deadlines" in a or "serve" in a)]
    assert runner[-1] == "run_deadlines" and server[-2] == "serve"
    assert outbox_runner == outbox_server == "true"


def test_database_url_parsing():
    config = database_from_url("postgres://al%40ice:s%3Acret@db:6543/westeros?sslmode=require", Path("/srv"))
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["USER"], config["PASSWORD"], config["HOST"], config["PORT"], config["NAME"]) == (
        "al@ice", "s:cret", "db", "6543", "westeros"
    )
    assert config["OPTIONS"] == {"sslmode": "require", "server_side_binding": True, "prepare_threshold": 5,
                                 "options": "-c random_page_cost=1.1"}
    assert database_from_url("", Path("/srv"))["NAME"] == "/srv/db.sqlite3"
    assert database_from_url("sqlite:////tmp/x.db", Path("/srv"))["NAME"] == "/tmp/x.db"
    with pytest.raises(ConfigurationError, match="DATABASE_URL"):
        database_from_url("mysql://x/y", Path("/srv"))


def test_postgres_binds_on_the_server_and_prepares_repeated_queries_unless_told_not_to():
    # issue 27: a page's few queries, made again on every request, are planned once per connection
    options = database_from_url("postgres://u@db/w?prepare_threshold=2", Path("/srv"))["OPTIONS"]
    assert options["server_side_binding"] is True and options["prepare_threshold"] == 2
    options = database_from_url("postgres://u@db/w?server_side_binding=false", Path("/srv"))["OPTIONS"]
    assert options["server_side_binding"] is False and "prepare_threshold" not in options


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
@pytest.mark.django_db
def test_the_pool_really_connects_to_postgresql():
    # to this run's test database, which exists whatever DATABASE_URL's own database (a missing one
    # costs the pool's 10 s timeout, then fails)
    from django.db import connection

    url = urlsplit(os.environ["DATABASE_URL"])._replace(path="/" + connection.settings_dict["NAME"]).geturl()
    result = settings_in_subprocess(
        "import django; django.setup(); from django.db import connection; connection.ensure_connection();"
        " print(type(connection.pool).__name__)",
        DATABASE_URL=url, DB_POOL_SIZE="2", SECRET_KEY="x" * 50,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ConnectionPool"


@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="DATABASE_URL not set: SQLite run")
@pytest.mark.django_db
def test_a_query_made_again_and_again_becomes_a_prepared_statement():
    # issue 27: planned once per connection, then executed by name (PREPARE_THRESHOLD)
    from django.db import connection

    from accounts.models import User
    from westeros.env import PREPARE_THRESHOLD

    for _ in range(PREPARE_THRESHOLD + 1):
        list(User.objects.filter(username="nobody-at-all"))
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("nobody" not in sql and '"accounts_user"' in sql and "username" in sql for sql in prepared), prepared


@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="DATABASE_URL not set: SQLite run")
@pytest.mark.django_db
def test_each_connection_prices_a_random_page_read_as_data_in_memory():
    # issue 27, thirteenth round: at PostgreSQL's 4.0 the planner scanned every user to join a page of lobbies
    from django.db import connection

    from westeros.env import RANDOM_PAGE_COST, database_from_url

    with connection.cursor() as cursor:
        cursor.execute("SHOW random_page_cost")
        assert float(cursor.fetchone()[0]) == RANDOM_PAGE_COST
    given = database_from_url("postgres://u@h/db?options=-c%20work_mem%3D8MB", Path("/tmp"))
    assert given["OPTIONS"]["options"] == "-c work_mem=8MB"  # the URL's own options replace it
