"""westeros/redis_config.py: how the cache, the Channels layer and the Celery broker reach Redis, from
REDIS_URL or through Redis Sentinel (REDIS_SENTINELS), as pure functions of the environment; then the
three of them through a real Sentinel (deploy/redis/'s primary, replica and three sentinels on loopback,
tests/test_deploy.py's sentinel_redis) before and after the primary is killed. The whole site through
Sentinel behind nginx is tests/test_deploy.py's."""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.utils.module_loading import import_string
from kombu import Connection
from kombu.transport import get_transport_cls

from westeros import broker, redis_config
from westeros.env import ConfigurationError
from westeros.redis_config import RedisSettings, redis_settings

ROOT = Path(__file__).resolve().parent.parent
REDIS_VARS = ("REDIS_URL", "REDIS_SENTINELS", "REDIS_SENTINEL_MASTER", "REDIS_PASSWORD", "REDIS_SENTINEL_PASSWORD",
              "REDIS_DB")
SENTINELS = {"REDIS_SENTINELS": "10.0.0.5:26379, 10.0.0.6:26380,10.0.0.7"}


# --------------------------------------------------------------------------- reading the environment

def test_nothing_set_is_embedded_mode_and_redis_url_is_one_server():
    assert not redis_settings({}).enabled
    config = redis_settings({"REDIS_URL": " redis://cache.example:6379/1 "})
    assert config.enabled and not config.through_sentinel
    assert config.url == "redis://cache.example:6379/1"


def test_sentinels_are_read_with_their_defaults():
    config = redis_settings({**SENTINELS, "REDIS_URL": "redis://ignored:6379/0"})
    assert config.enabled and config.through_sentinel and config.url == ""
    assert config.sentinels == (("10.0.0.5", 26379), ("10.0.0.6", 26380), ("10.0.0.7", 26379))
    assert (config.master, config.db, config.password, config.sentinel_password) == ("westeros", 0, "", "")
    config = redis_settings({"REDIS_SENTINELS": "[::1]:26379,[fd00::7]", "REDIS_SENTINEL_MASTER": "site",
                             "REDIS_DB": "3", "REDIS_PASSWORD": "p@ss;word", "REDIS_SENTINEL_PASSWORD": "s"})
    assert config.sentinels == (("::1", 26379), ("fd00::7", 26379))
    assert (config.master, config.db, config.password, config.sentinel_password) == ("site", 3, "p@ss;word", "s")


@pytest.mark.parametrize("raw", ["10.0.0.5:", "10.0.0.5:port", ":26379", "10.0.0.5:70000", "::1:26379",
                                 "[::1]26379", " , "])
def test_a_malformed_sentinel_list_is_a_clear_configuration_error(raw):
    with pytest.raises(ConfigurationError) as error:
        redis_settings({"REDIS_SENTINELS": raw})
    assert "REDIS_SENTINELS" in str(error.value)


def test_a_malformed_database_number_is_a_clear_configuration_error():
    with pytest.raises(ConfigurationError, match="REDIS_DB must be a Redis database number"):
        redis_settings({**SENTINELS, "REDIS_DB": "one"})


# --------------------------------------------------------------------------- what each part is given

def test_redis_url_builds_what_the_site_always_had():
    config = RedisSettings(url="redis://cache.example:6379/1")
    assert redis_config.caches(config) == {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://cache.example:6379/1",
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2}}}
    assert redis_config.channel_layers(config, capacity=5000, expiry=30) == {"default": {
        "BACKEND": "westeros.channel_layer.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": "redis://cache.example:6379/1", "socket_timeout": None}],
                   "capacity": 5000, "expiry": 30}}}
    assert redis_config.celery_broker(config) == {"url": "redis://cache.example:6379/1",
                                                  "transport": "westeros.broker:Transport",
                                                  "transport_options": {"visibility_timeout": 300}}


def test_embedded_mode_keeps_everything_in_memory():
    config = RedisSettings()
    assert redis_config.caches(config)["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert redis_config.channel_layers(config, capacity=1, expiry=1)["default"]["BACKEND"] == \
        "channels.layers.InMemoryChannelLayer"
    assert redis_config.celery_broker(config)["url"] == "memory://"
    with pytest.raises(ConfigurationError):
        redis_config.client(config)


def test_through_sentinel_each_part_gets_the_sentinels_the_name_and_the_passwords():
    config = redis_settings({**SENTINELS, "REDIS_PASSWORD": "p@ss;word", "REDIS_SENTINEL_PASSWORD": "sentinel-pw",
                             "REDIS_DB": "2", "REDIS_SENTINEL_MASTER": "site"})
    sentinel_kwargs = {"socket_connect_timeout": 2, "socket_timeout": 2, "password": "sentinel-pw"}

    cache = redis_config.caches(config)["default"]
    assert cache == {"BACKEND": "westeros.redis_config.SentinelRedisCache",
                     "LOCATION": ["10.0.0.5:26379", "10.0.0.6:26380", "10.0.0.7:26379"],
                     "OPTIONS": {"master_name": "site", "sentinel_kwargs": sentinel_kwargs, "db": 2,
                                 "password": "p@ss;word", "socket_connect_timeout": 2, "socket_timeout": 2}}

    layer = redis_config.channel_layers(config, capacity=5000, expiry=30)["default"]
    assert layer["BACKEND"] == "westeros.channel_layer.RedisChannelLayer"
    assert (layer["CONFIG"]["capacity"], layer["CONFIG"]["expiry"]) == (5000, 30)
    # channels-redis' sentinel host (channels_redis/utils.py, create_pool); still no read timeout
    assert layer["CONFIG"]["hosts"] == [{
        "sentinels": [["10.0.0.5", 26379], ["10.0.0.6", 26380], ["10.0.0.7", 26379]], "master_name": "site",
        "sentinel_kwargs": sentinel_kwargs, "socket_timeout": None, "socket_connect_timeout": 2, "db": 2,
        "password": "p@ss;word"}]

    celery = redis_config.celery_broker(config)
    assert celery["url"] == ("sentinel://:p%40ss%3Bword@10.0.0.5:26379/2;sentinel://:p%40ss%3Bword@10.0.0.6:26380/2;"
                             "sentinel://:p%40ss%3Bword@10.0.0.7:26379/2")
    assert celery["transport"] == "westeros.broker:SentinelTransport"
    assert celery["transport_options"] == {"visibility_timeout": 300, "master_name": "site",
                                           "sentinel_kwargs": sentinel_kwargs}
    # kombu reads the URLs back as they were meant: each sentinel, the servers' password, the database
    connection = Connection(celery["url"], transport=celery["transport"])
    assert [url.split("@")[1] for url in connection.alt] == ["10.0.0.5:26379/2", "10.0.0.6:26380/2",
                                                             "10.0.0.7:26379/2"]
    assert (connection.password, connection.virtual_host) == ("p@ss;word", "2")


def test_the_sentinel_cache_asks_the_sentinels_for_the_primary():
    config = redis_settings({**SENTINELS, "REDIS_PASSWORD": "pw"})
    settings = redis_config.caches(config)["default"]
    cache = import_string(settings["BACKEND"])(settings["LOCATION"], {"OPTIONS": settings["OPTIONS"]})
    pool = cache._cache._get_connection_pool(write=False)
    assert pool is cache._cache._get_connection_pool(write=True)  # reads go to the primary too
    assert pool.service_name == "westeros" and pool.is_master
    assert [(c.connection_pool.connection_kwargs["host"], c.connection_pool.connection_kwargs["port"])
            for c in pool.sentinel_manager.sentinels] == \
        [("10.0.0.5", 26379), ("10.0.0.6", 26380), ("10.0.0.7", 26379)]
    assert pool.connection_kwargs["password"] == "pw" and pool.connection_kwargs["socket_timeout"] == 2


def test_the_worker_keeps_the_site_transport_when_kombu_moves_to_the_next_sentinel():
    """kombu picks the transport again from the URL's scheme when it switches to the next sentinel
    after a connection error: `sentinel` must still name westeros.broker's transport, which does not
    exit when Redis goes away (its QoS does not restore unacknowledged messages at shutdown)."""
    celery = redis_config.celery_broker(redis_settings(SENTINELS))
    connection = Connection(celery["url"], transport=celery["transport"], transport_options=celery["transport_options"])
    assert get_transport_cls(connection.transport_cls) is broker.SentinelTransport
    for _ in range(4):  # round the three sentinels and back
        connection.maybe_switch_next()
        assert connection.transport_cls == "sentinel"  # the scheme of the URL it moved to
        assert get_transport_cls(connection.transport_cls) is broker.SentinelTransport
        assert type(connection.transport) is broker.SentinelTransport
    assert broker.SentinelTransport.Channel.QoS.restore_at_shutdown is False
    assert broker.Transport.Channel.QoS.restore_at_shutdown is False


def test_connecting_through_sentinel_asks_again_while_the_failover_goes_on(monkeypatch):
    """While the sentinels still name a dead primary, or none, each attempt fails: the transport asks
    again every quarter second for up to FAILOVER_WAIT seconds (so a worker connects as soon as the
    replica is promoted, not after kombu's 2 s, 4 s, 6 s pauses), then gives the error to kombu."""
    import redis.exceptions
    from kombu.transport import redis as kombu_redis

    attempts = []
    failures = {"left": 3}

    def establish(transport):  # kombu's: fails while there is no primary to connect to
        attempts.append(1)
        if failures["left"]:
            failures["left"] -= 1
            raise redis.exceptions.ConnectionError("No master found for 'westeros'")
        return transport

    monkeypatch.setattr(kombu_redis.SentinelTransport, "establish_connection", establish)
    monkeypatch.setattr(broker.SentinelTransport, "RETRY_EVERY", 0.01)
    celery = redis_config.celery_broker(redis_settings(SENTINELS))
    transport = Connection(celery["url"], transport=celery["transport"],
                           transport_options=celery["transport_options"]).transport
    assert transport.establish_connection() is transport
    assert len(attempts) == 4  # three failures, then connected

    # No primary for longer than FAILOVER_WAIT: kombu gets the error (and goes on in its own way).
    attempts.clear()
    failures["left"] = 10**6
    monkeypatch.setattr(broker.SentinelTransport, "FAILOVER_WAIT", 0.2)
    with pytest.raises(redis.exceptions.ConnectionError):
        transport.establish_connection()
    assert 1 < len(attempts) < 10**6


def test_the_transport_waits_longer_than_a_failover_takes():
    """FAILOVER_WAIT outlasts deploy/redis/sentinel.conf's down-after plus a promotion (about 1 s)."""
    import re

    conf = (ROOT / "deploy" / "redis" / "sentinel.conf").read_text()
    down_after = int(re.search(r"^sentinel down-after-milliseconds \S+ (\d+)$", conf, re.M).group(1)) / 1000
    assert broker.SentinelTransport.FAILOVER_WAIT >= down_after + 2


def settings_in_subprocess(code: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in (*REDIS_VARS, "DATABASE_URL", "DEBUG")}
    clean.update(env)
    return subprocess.run([sys.executable, "-c", "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = "
                           "'westeros.settings'; django.setup(); from django.conf import settings as s; " + code],
                          cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120)


def test_settings_through_sentinel_are_redis_mode():
    """REDIS_SENTINELS alone switches the site to Redis mode as REDIS_URL does: DEBUG off by default,
    Celery with a broker (no eager tasks), no deadline runner in the server, notifications by task."""
    result = settings_in_subprocess(
        "import json; print(json.dumps([s.CACHES['default']['BACKEND'], s.CHANNEL_LAYERS['default']['BACKEND'],"
        " s.CELERY_BROKER_URL, s.CELERY_BROKER_TRANSPORT, s.CELERY_BROKER_TRANSPORT_OPTIONS['master_name'],"
        " s.CELERY_TASK_ALWAYS_EAGER, s.DEADLINE_RUNNER_IN_SERVER, s.NOTIFY_OUTBOX_ONLY, s.DEBUG]))",
        REDIS_SENTINELS="127.0.0.1:26379,127.0.0.1:26380", SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [
        "westeros.redis_config.SentinelRedisCache", "westeros.channel_layer.RedisChannelLayer",
        "sentinel://127.0.0.1:26379/0;sentinel://127.0.0.1:26380/0", "westeros.broker:SentinelTransport",
        "westeros", False, False, False, False]


def test_a_bad_sentinel_setting_stops_a_process_with_one_line():
    result = settings_in_subprocess("pass", REDIS_SENTINELS="10.0.0.5:redis", SECRET_KEY="x" * 50)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "Configuration error: REDIS_SENTINELS must list the sentinels as host:port separated by commas "
        "(such as 10.0.0.5:26379,10.0.0.6:26379), not '10.0.0.5:redis'"]


# --------------------------------------------------------------------------- through a real Sentinel

@pytest.mark.slow_once  # its own Redis and sentinels, seconds of failover: the same on both CI passes
def test_cache_channel_layer_and_broker_follow_sentinel_when_the_primary_dies():
    """deploy/redis/'s primary, replica and three sentinels on loopback. The cache, the channel layer,
    the broker and client() work through them; the primary is SIGKILLed; once the sentinels have
    promoted the replica, all four work again (the cache and the broker on the same objects, nothing
    restarted) within a few seconds, and the broker is still the site's transport."""
    from channels_redis.core import RedisChannelLayer

    from tests.celery_worker import wait_for
    from tests.test_deploy import sentinel_redis

    with sentinel_redis() as redis:
        config = redis_settings(redis.env)
        cache_settings = redis_config.caches(config)["default"]
        cache = import_string(cache_settings["BACKEND"])(cache_settings["LOCATION"],
                                                         {"OPTIONS": cache_settings["OPTIONS"], "KEY_PREFIX": "t"})
        layer_config = redis_config.channel_layers(config, capacity=100, expiry=30)["default"]["CONFIG"]
        celery = redis_config.celery_broker(config)
        connection = Connection(celery["url"], transport=celery["transport"],
                                transport_options=celery["transport_options"])
        queue = connection.SimpleQueue("sentinel-test")

        async def layer_round_trip(n: int) -> dict:
            layer = RedisChannelLayer(**layer_config)  # one per event loop (asyncio.run makes a new one)
            try:
                channel = await layer.new_channel()
                await layer.send(channel, {"type": "test.message", "n": n})
                return await asyncio.wait_for(layer.receive(channel), 10)
            finally:
                await layer.flush()

        def all_work(n: int) -> None:
            cache.set("key", n)
            assert cache.get("key") == n
            assert asyncio.run(layer_round_trip(n)) == {"type": "test.message", "n": n}
            queue.put({"n": n})
            assert queue.get(timeout=10).payload == {"n": n}
            client = redis_config.client(config, socket_timeout=2)
            assert client.get(cache.make_and_validate_key("key")) is not None
            client.close()

        all_work(1)
        assert redis.role(redis.primary) == "master"

        redis.kill_primary()
        killed = time.monotonic()
        assert wait_for(redis.promoted, timeout=60), redis.logs()

        def works_again() -> bool:
            try:
                all_work(2)
                return True
            except Exception:  # each part raises its own errors (redis-py's, kombu's) until it has moved
                return False

        assert wait_for(works_again, timeout=60), redis.logs()
        print(f"the cache, the channel layer and the broker worked again {time.monotonic() - killed:.1f} s "
              "after the primary was killed")
        assert type(connection.transport) is broker.SentinelTransport
        queue.close()
        connection.release()
