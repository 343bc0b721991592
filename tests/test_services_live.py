"""Talk to the real PostgreSQL and Redis when the environment names them (CI does): the test
database, the cache and the channel layer all go through the configured services."""
from __future__ import annotations

import os
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import connection

needs_postgres = pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="DATABASE_URL not set: SQLite run")
needs_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL not set: in-memory run")


@needs_postgres
@pytest.mark.django_db
def test_the_database_is_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("select version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")


@needs_redis
def test_the_cache_is_redis():
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    cache.set("live-check", 41)
    assert cache.incr("live-check") == 42


@needs_redis
def test_the_channel_layer_round_trips_through_redis():
    layer = get_channel_layer()
    assert type(layer).__name__ == "RedisChannelLayer"

    async def round_trip():
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "hello", "n": 1})
        return await layer.receive(channel)

    assert async_to_sync(round_trip)() == {"type": "hello", "n": 1}


def test_the_channel_layer_round_trips_in_any_mode():
    layer = get_channel_layer()

    # A group of its own: parallel test workers share one Redis.
    group = f"table-{uuid.uuid4().hex}"

    async def group_round_trip():
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        await layer.group_send(group, {"type": "update", "version": 3})
        return await layer.receive(channel)

    assert async_to_sync(group_round_trip)() == {"type": "update", "version": 3}
