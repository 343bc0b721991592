"""End to end with a real Celery worker: the notifications decided when a game starts are enqueued
on commit through Redis and sent by a worker, a separate process on the same PostgreSQL database.
Needs the real services (CI sets DATABASE_URL and REDIS_URL)."""
from __future__ import annotations

import pytest

from notifications.models import Kind, Notification
from tests.celery_worker import celery_worker, needs_services, wait_for
from tests.factories import make_game

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


@pytest.fixture
def worker():
    with celery_worker("test-notify", EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend") as queue:
        yield queue


def test_a_worker_sends_the_notifications_decided_in_the_request(worker, settings):
    settings.NOTIFY_QUEUE = worker
    game = make_game()
    started = Notification.objects.filter(game=game, kind=Kind.GAME_STARTED)
    assert started.count() == 3
    assert wait_for(lambda: started.filter(emailed_at__isnull=False).count() == 3)
    assert not started.exclude(error="").exists()
