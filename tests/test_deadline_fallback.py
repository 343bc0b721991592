"""Deadlines survive the loss of every Celery worker (issue 28): each web server sweeps, as a fallback,
the deadlines overdue by more than DEADLINE_FALLBACK_GRACE_SECONDS (games/runner.py), so normally the
workers resolve them first and the fallback finds nothing, and with every worker down they are
resolved a grace late, their websocket messages going through the shared channel layer."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from games import runner
from games.models import Game, GameAction, GameSeat
from games.services.notify import table_group
from tests.celery_worker import _database_url, free_port, needs_postgres, private_redis, wait_for
from tests.factories import make_game

ROOT = Path(__file__).resolve().parent.parent


def overdue_since(game: Game, seconds: float) -> None:
    """Every deadline of the game passed `seconds` ago."""
    at = timezone.now() - timedelta(seconds=seconds)
    GameSeat.objects.filter(game=game, deadline_at__isnull=False).update(deadline_at=at)
    Game.objects.filter(pk=game.pk).update(deadline_at=at)


def timeouts(game: Game) -> int:
    return GameAction.objects.filter(game=game, source=GameAction.Source.TIMEOUT).count()


@pytest.mark.django_db
def test_the_fallback_leaves_a_deadline_overdue_by_less_than_the_grace_to_the_workers(settings):
    settings.DEADLINE_FALLBACK_GRACE_SECONDS = 30
    game = make_game(time_limit=600)
    overdue_since(game, 10)  # overdue, but by less than the grace
    assert runner.fallback_sweep() == 0
    assert timeouts(game) == 0

    overdue_since(game, 31)  # now by more
    assert runner.fallback_sweep() == 3  # the three seats' orders
    assert timeouts(game) == 3
    # resolved as of now: the next decisions' deadlines count from now, not from a grace ago
    game.refresh_from_db()
    assert game.deadline_at is not None
    assert game.deadline_at >= timezone.now() + timedelta(seconds=600 - 60)
    assert runner.fallback_sweep() == 0  # nothing twice


@pytest.mark.django_db
def test_the_ordinary_sweep_still_takes_a_deadline_just_passed(settings):
    """The workers' sweep (no grace) is unchanged: what the fallback leaves, they take."""
    from games.services.deadlines import sweep

    settings.DEADLINE_FALLBACK_GRACE_SECONDS = 30
    game = make_game(time_limit=600)
    overdue_since(game, 1)
    assert runner.fallback_sweep() == 0
    assert sweep().timeouts == 3


@pytest.mark.django_db
def test_while_the_workers_keep_up_each_pass_is_one_query_that_finds_nothing(django_assert_num_queries):
    """What each Daphne asks every second before it sweeps (runner._fallback_on_loop); the real
    server's loop runs it in the test below."""
    game = make_game(time_limit=600)
    overdue_since(game, 1)
    with django_assert_num_queries(1):
        assert runner._anything_overdue_by(30) is False
    overdue_since(game, 31)
    assert runner._anything_overdue_by(30) is True


def serve(env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    """A Daphne process as the recipe starts one (deploy/systemd/westeros-daphne@.service)."""
    with log.open("w") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "westeros.asgi_server", "-e", f"tcp:port={port}:interface=127.0.0.1",
             "westeros.asgi:application"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def answers(port: int) -> bool:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


async def first_update(redis_url: str, game_id: int, timeout: float) -> dict | None:
    """The first game update the game's table group receives on the shared channel layer."""
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=[{"address": redis_url, "socket_timeout": None}])  # as the settings
    channel = await layer.new_channel()
    await layer.group_add(table_group(game_id), channel)
    try:
        async with asyncio.timeout(timeout):
            while True:
                message = await layer.receive(channel)
                if message.get("type") == "game.update":
                    return message
    except TimeoutError:
        return None
    finally:
        await layer.flush()


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_with_no_celery_worker_at_all_the_web_server_resolves_the_deadline():
    with private_redis() as redis, tempfile.TemporaryDirectory(prefix="westeros-fallback-") as folder:
        env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": redis.url, "DB_CONN_MAX_AGE": "0",
               "DB_POOL_SIZE": "0", "SECRET_KEY": "test-only-secret-key", "DEBUG": "false",
               "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "false", "LOG_LEVEL": "INFO",
               "DEADLINE_FALLBACK_GRACE_SECONDS": "2", "PYTHONUNBUFFERED": "1"}
        env.pop("DEADLINE_RUNNER_IN_SERVER", None)
        env.pop("DEADLINE_FALLBACK_IN_SERVER", None)
        port, log = free_port(), Path(folder) / "daphne.log"
        server = serve(env, port, log)
        try:
            assert wait_for(lambda: answers(port) or server.poll() is not None, 120), log.read_text()
            assert server.poll() is None, log.read_text()
            game = make_game(time_limit=3)  # no worker, no beat: only the web server can resolve it
            started = time.monotonic()
            update = asyncio.run(first_update(redis.url, game.pk, timeout=60))
            assert wait_for(lambda: timeouts(game) >= 3, 60), log.read_text()
            assert time.monotonic() - started >= 3  # not before its deadline
            assert update is not None, "no websocket message on the shared channel layer\n" + log.read_text()
            assert update["version"] > 0
            assert "overdue by more than 2 s" in log.read_text()
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=15)
