"""The channel layer of Redis mode: channels-redis' RedisChannelLayer whose receiving rides out a
short Redis outage (issue 28).

channels-redis receives for all the sockets of a process through one blocking read (BZPOPMIN on the
process's channel), made by whichever socket holds its receive lock. When Redis fails, that read
raises in that socket's consumer, which ends (westeros/outages.py closes it with 4503); the next
socket takes the lock, fails the same way, and so on: every socket of every process is closed within
milliseconds, and all of them reconnect together once Redis is back, a storm of handshakes that the
servers answer in seconds (benchmarks/chaos.py, the redis fault: a Sentinel failover takes about 3 s).

Here the read is tried again, every RETRY_SECONDS, for up to `receive_grace` seconds of outage
(settings.CHANNEL_LAYER_RECEIVE_GRACE, 15 by default): the sockets stay open, and each new connection
asks the sentinels anew, so the read resumes on the promoted replica, which has the groups (Redis
replicates them). The updates sent while Redis was down are lost, but a socket does not depend on
them: its keep-alive carries the game's version read from the database (games/consumers.py), and
the page re-fetches when it is behind. An outage longer than the grace fails the read for every
socket at once, as before (closed with 4503; the pages reconnect). What sends (group_add,
group_send) is not retried: a handshake during the outage is closed with 4503 and the page tries
again; an action commits and its update is lost (games/services/notify.py)."""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels_redis.core import RedisChannelLayer as ChannelsRedisLayer

from westeros.outages import REDIS_ERRORS

log = logging.getLogger(__name__)

RECEIVE_GRACE_SECONDS = 15.0
RETRY_SECONDS = 0.2
clock = time.monotonic  # tests may replace it


def receive_grace() -> float:
    from django.conf import settings

    return float(getattr(settings, "CHANNEL_LAYER_RECEIVE_GRACE", RECEIVE_GRACE_SECONDS))


class RedisChannelLayer(ChannelsRedisLayer):
    """channels_redis.core.RedisChannelLayer whose receive tries again while Redis is down, for up to
    `receive_grace` seconds of outage (counted from the first failure, for the whole layer: past it,
    every socket's read fails at once, not one socket's grace after another's)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.receive_grace = receive_grace()
        self.failing_since: float | None = None  # when the reads began to fail; None while they work

    async def receive_single(self, channel: str) -> Any:
        while True:
            try:
                received = await super().receive_single(channel)
            except REDIS_ERRORS as error:
                now = clock()
                if self.failing_since is None:
                    self.failing_since = now
                    log.warning("the channel layer cannot read from Redis (%s); trying again for %g s",
                                error, self.receive_grace)
                if now - self.failing_since >= self.receive_grace:
                    raise
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if self.failing_since is not None:
                log.warning("the channel layer reads from Redis again after %.1f s", clock() - self.failing_since)
                self.failing_since = None
            return received

    # What sends is tried once more on a connection error: after Redis restarted (or a failover), the
    # pool still holds connections to the old server, and the first command on each fails ("Connection
    # closed by server") though Redis answers again; redis-py drops that connection, so the second try
    # runs on a fresh one. A Redis still down fails the second try too, and the caller decides (a
    # handshake is closed with 4503, an action's update is logged as lost: games/services/notify.py).
    async def send(self, channel: str, message: dict) -> None:
        await _once_more(super().send, channel, message)

    async def group_add(self, group: str, channel: str) -> None:
        await _once_more(super().group_add, group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        await _once_more(super().group_discard, group, channel)

    async def group_send(self, group: str, message: dict) -> None:
        await _once_more(super().group_send, group, message)


async def _once_more(call: Any, *args: Any) -> Any:
    try:
        return await call(*args)
    except REDIS_ERRORS:
        return await call(*args)
