"""The Celery broker transport: kombu's Redis transport, minus one step that kills workers.

When a worker loses its Redis connection (Redis restarting), kombu closes the channel and first
tries to put the messages it had received but not yet acknowledged back on their queue, through the
very connection that was lost; that raises (`AttributeError: 'NoneType' object has no attribute
'hostname'`, kombu's restore_unacked), and the worker exits with "Unrecoverable error" instead of
reconnecting. Here the channel skips that step. Nothing is lost by it: tasks are acknowledged when
they start (settings: no late acks, no prefetch), so at most a message just received is left in
Redis's unacknowledged set, which kombu puts back on its queue after the visibility timeout (or which
went with Redis if Redis restarted); every task is idempotent and the database is the truth, so the
next deadline sweep or the notification outbox does its work anyway. Settings: CELERY_BROKER_TRANSPORT
(westeros/redis_config.py, celery_broker).

Through Redis Sentinel (REDIS_SENTINELS) the same holds for kombu's sentinel transport: SentinelTransport
below, whose channel asks the sentinels for the primary and skips that step too. kombu picks the transport
again from a URL's scheme whenever it moves on to the next `sentinel://` URL of the broker's list after a
connection error (kombu.Connection.switch, which says so): so `sentinel` is made to name this transport
too, in kombu's table of transport names (kombu.transport.TRANSPORT_ALIASES), when this module is loaded,
which kombu does when it first resolves CELERY_BROKER_TRANSPORT. Otherwise the first failover would put
a worker back on kombu's own transport, and the next loss of Redis would stop it.
"""
from __future__ import annotations

from time import monotonic, sleep

from kombu import transport as kombu_transports
from kombu.transport import redis


class QoS(redis.QoS):
    restore_at_shutdown = False


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel


class SentinelChannel(redis.SentinelChannel):
    QoS = QoS


class SentinelTransport(redis.SentinelTransport):
    """kombu's sentinel transport with SentinelChannel, and one more thing: connecting keeps asking
    the sentinels for up to FAILOVER_WAIT seconds before it fails. When the primary dies, the
    sentinels go on naming it for a few seconds (deploy/redis/sentinel.conf: 2 s to agree that it is
    down, then the promotion), so every attempt to connect fails in that time; kombu then waits 2 s,
    4 s, 6 s... between rounds over the sentinels, and a worker came back about 6 s after the primary
    died, 3 s after the promotion. Asking again every quarter second instead, it connects to the new
    primary as soon as it is promoted. Publishers (beat, the web processes' background threads) wait
    the same way instead of failing; no request waits for it."""

    Channel = SentinelChannel
    FAILOVER_WAIT = 6.0  # seconds: longer than Sentinel's 2 s down-after plus a failover
    RETRY_EVERY = 0.25

    def establish_connection(self):
        give_up = monotonic() + self.FAILOVER_WAIT
        while True:
            try:
                return super().establish_connection()
            except self.connection_errors:
                if monotonic() >= give_up:
                    raise
                sleep(self.RETRY_EVERY)


SENTINEL_TRANSPORT = f"{__name__}:SentinelTransport"


def use_for_sentinel_urls() -> None:
    """`sentinel://` URLs name SentinelTransport (see the module's docstring). Idempotent."""
    kombu_transports.TRANSPORT_ALIASES["sentinel"] = SENTINEL_TRANSPORT
    kombu_transports._transport_cache.pop("sentinel", None)  # resolved before this module was loaded


use_for_sentinel_urls()
