"""The Celery broker transport: kombu's Redis transport, minus one step that kills workers.

When a worker loses its Redis connection (Redis restarting), kombu closes the channel and first
tries to put the messages it had received but not yet acknowledged back on their queue, through the
very connection that was lost; that raises (`AttributeError: 'NoneType' object has no attribute
'hostname'`, kombu's restore_unacked), and the worker exits with "Unrecoverable error" instead of
reconnecting. Here the channel skips that step. Nothing is lost by it: tasks are acknowledged when
they start (settings: no late acks, no prefetch), so at most a message just received is left in
Redis's unacknowledged set, which kombu puts back on its queue after the visibility timeout (or which
went with Redis if Redis restarted); every task is idempotent and the database is the truth, so the
next deadline sweep or the notification outbox does its work anyway. Settings: CELERY_BROKER_TRANSPORT.
"""
from __future__ import annotations

from kombu.transport import redis


class QoS(redis.QoS):
    restore_at_shutdown = False


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
