"""Where Redis is, and how the cache, the Channels layer and the Celery broker reach it.

Two ways to name Redis (README, "Embedded mode and production"; deploy/README.md, "Two machines"):

- `REDIS_URL` (`redis://host:6379/0`): one Redis server. Its password and database are in the URL.
- `REDIS_SENTINELS` (`10.0.0.5:26379,10.0.0.6:26379,10.0.0.7:26379`): Redis Sentinel. Every process
  asks the sentinels which server is the primary of `REDIS_SENTINEL_MASTER` (`westeros`) and asks
  again whenever its connection fails, so when the primary dies and the sentinels promote its replica,
  the cache, the channel layer and Celery follow within seconds. `REDIS_PASSWORD` is the servers'
  `requirepass`, `REDIS_SENTINEL_PASSWORD` the sentinels' own, `REDIS_DB` the database (0).
  When it is set, REDIS_URL is not used.

Each function is a pure function of the environment (a mapping, `os.environ` by default), so
westeros/settings.py stays declarative and tests/test_redis_config.py checks them without Django.
Anything that opens a Redis connection itself goes through `client()`.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

from westeros.env import ConfigurationError

DEFAULT_MASTER = "westeros"
DEFAULT_SENTINEL_PORT = 26379
# The cache's bounded waits: a Redis that hangs (rather than refusing connections) makes a log-in
# answer 503 after a couple of seconds instead of holding the request (accounts/throttle.py fails
# closed). Sentinels are asked with the same bounds, by every part of the site.
CACHE_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 2}
SENTINEL_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 2}


@dataclass(frozen=True)
class RedisSettings:
    """Redis as the environment names it: a URL, sentinels, or neither (embedded mode)."""

    url: str = ""
    sentinels: tuple[tuple[str, int], ...] = ()
    master: str = DEFAULT_MASTER
    password: str = ""
    sentinel_password: str = ""
    db: int = 0

    @property
    def enabled(self) -> bool:
        """Redis mode: the Redis cache, channel layer and Celery broker (otherwise all in memory)."""
        return bool(self.url or self.sentinels)

    @property
    def through_sentinel(self) -> bool:
        return bool(self.sentinels)

    def sentinel_kwargs(self) -> dict[str, Any]:
        """How every client talks to the sentinels themselves (not to the Redis servers)."""
        return {**SENTINEL_OPTIONS, **({"password": self.sentinel_password} if self.sentinel_password else {})}

    def server_kwargs(self) -> dict[str, Any]:
        """The database and password of the Redis servers, found through the sentinels."""
        return {"db": self.db, **({"password": self.password} if self.password else {})}


def _get(environ: Mapping[str, str], name: str) -> str:
    return (environ.get(name) or "").strip()


def parse_sentinels(raw: str) -> tuple[tuple[str, int], ...]:
    """`host:port,host:port` (a bare host means port 26379; an IPv6 address in brackets)."""
    sentinels = []
    for item in (part.strip() for part in raw.split(",")):
        if not item:
            continue
        host, port = item, str(DEFAULT_SENTINEL_PORT)
        if item.startswith("["):
            host, _, rest = item[1:].partition("]")
            if rest:
                if not rest.startswith(":"):
                    host = ""
                port = rest[1:]
        elif item.count(":") == 1:
            host, _, port = item.partition(":")
        elif ":" in item:
            host = ""  # an IPv6 address needs brackets to tell it from its port
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ConfigurationError(
                f"REDIS_SENTINELS must list the sentinels as host:port separated by commas "
                f"(such as 10.0.0.5:26379,10.0.0.6:26379), not {raw!r}")
        sentinels.append((host, int(port)))
    if not sentinels:
        raise ConfigurationError("REDIS_SENTINELS is set but names no sentinel (host:port separated by commas)")
    return tuple(sentinels)


def redis_settings(environ: Mapping[str, str] | None = None) -> RedisSettings:
    """Read REDIS_URL, or REDIS_SENTINELS and the variables that go with it."""
    environ = os.environ if environ is None else environ
    sentinels = _get(environ, "REDIS_SENTINELS")
    if not sentinels:
        return RedisSettings(url=_get(environ, "REDIS_URL"))
    raw_db = _get(environ, "REDIS_DB") or "0"
    if not raw_db.isdigit():
        raise ConfigurationError(f"REDIS_DB must be a Redis database number (0, 1, ...), not {raw_db!r}")
    return RedisSettings(sentinels=parse_sentinels(sentinels),
                         master=_get(environ, "REDIS_SENTINEL_MASTER") or DEFAULT_MASTER,
                         password=environ.get("REDIS_PASSWORD") or "",
                         sentinel_password=environ.get("REDIS_SENTINEL_PASSWORD") or "",
                         db=int(raw_db))


# --------------------------------------------------------------------------- Django's cache

def caches(config: RedisSettings) -> dict[str, Any]:
    if config.through_sentinel:
        return {"default": {"BACKEND": "westeros.redis_config.SentinelRedisCache",
                            "LOCATION": [f"{host}:{port}" for host, port in config.sentinels],
                            "OPTIONS": {"master_name": config.master, "sentinel_kwargs": config.sentinel_kwargs(),
                                        **config.server_kwargs(), **CACHE_OPTIONS}}}
    if config.url:
        return {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": config.url,
                            "OPTIONS": CACHE_OPTIONS}}
    return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


class SentinelRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client whose one connection pool is redis-py's Sentinel-managed pool of
    the primary (`Sentinel(...).master_for(...)`): each new connection asks the sentinels where the
    primary is, and a connection that fails is dropped, so after a failover the next connection
    reaches the promoted replica. Reads go to the primary too (a replica may lag behind the log-in
    throttle's counters)."""

    def __init__(self, servers: list[str], master_name: str = DEFAULT_MASTER,
                 sentinel_kwargs: dict[str, Any] | None = None, **options: Any) -> None:
        super().__init__(servers, **options)
        self._master_name = master_name
        self._sentinels = [_host_port(server) for server in servers]
        self._sentinel_kwargs = sentinel_kwargs

    def _get_connection_pool(self, write: bool):
        if 0 not in self._pools:
            from redis.sentinel import Sentinel

            sentinel = Sentinel(self._sentinels, sentinel_kwargs=self._sentinel_kwargs)
            self._pools[0] = sentinel.master_for(self._master_name, **self._pool_options).connection_pool
        return self._pools[0]


class SentinelRedisCache(RedisCache):
    """django.core.cache.backends.redis.RedisCache through Redis Sentinel: LOCATION lists the
    sentinels (`host:port`); OPTIONS hold `master_name`, `sentinel_kwargs` and the servers' own
    connection options (db, password, timeouts)."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SentinelRedisCacheClient


def _host_port(server: str) -> tuple[str, int]:
    [sentinel] = parse_sentinels(server)
    return sentinel


# --------------------------------------------------------------------------- the Channels layer

def channel_layers(config: RedisSettings, *, capacity: int, expiry: int) -> dict[str, Any]:
    if not config.enabled:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # No socket timeout: redis-py 8 reads with a 5 s default, which kills the layer's blocking
    # receive on an idle socket and closes the websocket with 1011 (seen under load in
    # benchmarks/server_live.py).
    if config.through_sentinel:
        # channels-redis' sentinel host (channels_redis/utils.py, create_pool): an asyncio
        # SentinelConnectionPool of the primary. A connect timeout, so that a primary on a machine
        # that vanished is given up in seconds (then the sentinels are asked again).
        host = {"sentinels": [list(sentinel) for sentinel in config.sentinels], "master_name": config.master,
                "sentinel_kwargs": config.sentinel_kwargs(), "socket_timeout": None, "socket_connect_timeout": 2,
                **config.server_kwargs()}
    else:
        host = {"address": config.url, "socket_timeout": None}
    return {
        "default": {
            # channels-redis' layer, its receiving riding out a Redis outage of seconds (a Sentinel
            # failover) instead of closing every socket (westeros/channel_layer.py)
            "BACKEND": "westeros.channel_layer.RedisChannelLayer",
            # One Daphne process receives for all its sockets through one channel: channels-redis'
            # default capacity of 100 waiting messages dropped updates from about 20 actions/s. A
            # message that waited `expiry` seconds is dropped (the client re-fetches by version).
            "CONFIG": {"hosts": [host], "capacity": capacity, "expiry": expiry},
        }
    }


# --------------------------------------------------------------------------- the Celery broker

def celery_broker(config: RedisSettings) -> dict[str, Any]:
    """CELERY_BROKER_URL, CELERY_BROKER_TRANSPORT and CELERY_BROKER_TRANSPORT_OPTIONS.

    Through Sentinel, kombu's own form: one `sentinel://` URL per sentinel, joined by `;`, and the
    primary's name in the transport options; the password in each URL is the Redis servers' one."""
    # A message reserved by a worker that was then killed returns to the queue after this.
    options: dict[str, Any] = {"visibility_timeout": 300}
    if config.through_sentinel:
        auth = f":{quote(config.password, safe='')}@" if config.password else ""
        url = ";".join(f"sentinel://{auth}{_url_host(host)}:{port}/{config.db}" for host, port in config.sentinels)
        options.update(master_name=config.master, sentinel_kwargs=config.sentinel_kwargs())
        # Redis through Sentinel, through a transport that does not exit when Redis goes away.
        return {"url": url, "transport": "westeros.broker:SentinelTransport", "transport_options": options}
    if config.url:
        return {"url": config.url, "transport": "westeros.broker:Transport", "transport_options": options}
    return {"url": "memory://", "transport": None, "transport_options": options}


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


# --------------------------------------------------------------------------- anything else

def client(config: RedisSettings | None = None, **options: Any):
    """A redis-py client of the primary (REDIS_URL's server, or the one the sentinels name), for
    code that talks to Redis itself. `options` are connection options (socket_timeout, ...)."""
    import redis
    from redis.sentinel import Sentinel

    config = redis_settings() if config is None else config
    if config.through_sentinel:
        sentinel = Sentinel(list(config.sentinels), sentinel_kwargs=config.sentinel_kwargs())
        return sentinel.master_for(config.master, **config.server_kwargs(), **options)
    if config.url:
        return redis.Redis.from_url(config.url, **options)
    raise ConfigurationError("Redis is not configured: set REDIS_URL or REDIS_SENTINELS")
