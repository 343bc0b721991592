"""Celery tasks: sending one notification, and the periodic deadline-warning sweep."""
from __future__ import annotations

from datetime import timedelta

from celery import shared_task

from notifications import services


@shared_task(ignore_result=True)
def deliver_notification(notification_id: int) -> None:
    services.deliver(notification_id)


@shared_task(ignore_result=True)
def warn_deadlines() -> int:
    return services.warn_deadlines()


@shared_task(ignore_result=True)
def deliver_pending() -> int:
    """Beat's safety net: notifications whose task was lost (not claimed after a minute)."""
    return services.deliver_pending(older_than=timedelta(minutes=1))


@shared_task(ignore_result=True)
def purge_old() -> int:
    """Hourly: the notifications sent more than NOTIFICATION_RETENTION_DAYS ago."""
    return services.purge_old()
