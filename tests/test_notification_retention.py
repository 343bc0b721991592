"""Notifications are not kept forever (issue 20, database growth): those sent more than
NOTIFICATION_RETENTION_DAYS ago are deleted hourly, by Celery beat or by the embedded runner's
notification pass. One never sent is kept, whatever its age."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from games import runner
from notifications import services, tasks
from notifications.models import Notification
from tests.factories import make_game

pytestmark = pytest.mark.django_db


def notification(game, key: str, age_days: float, sent: bool) -> Notification:
    created = timezone.now() - timedelta(days=age_days)
    return Notification.objects.create(user=game.seats.first().user, game=game, kind="your_turn", key=key,
                                       created_at=created, claimed_at=created if sent else None)


def keys() -> set[str]:
    return set(Notification.objects.values_list("key", flat=True))


def test_sent_notifications_older_than_the_retention_are_deleted_in_batches(settings):
    settings.NOTIFICATION_RETENTION_DAYS = 30
    game = make_game()
    Notification.objects.all().delete()  # the game's own "started" messages
    for n in range(5):
        notification(game, f"old-sent-{n}", 31 + n, sent=True)
    notification(game, "old-never-sent", 400, sent=False)
    notification(game, "recent-sent", 29, sent=True)
    assert services.purge_old(batch=2) == 5
    assert keys() == {"old-never-sent", "recent-sent"}
    assert services.purge_old() == 0


def test_a_retention_of_zero_keeps_everything(settings):
    settings.NOTIFICATION_RETENTION_DAYS = 0
    game = make_game()
    notification(game, "ancient", 3000, sent=True)
    assert services.purge_old() == 0 and "ancient" in keys()


def test_celery_beat_purges_every_hour(settings):
    settings.NOTIFICATION_RETENTION_DAYS = 30
    entry = django_settings.CELERY_BEAT_SCHEDULE["purge-old-notifications"]
    assert entry["task"] == "notifications.tasks.purge_old" and entry["schedule"] == 3600
    game = make_game()
    notification(game, "old", 60, sent=True)
    assert tasks.purge_old() == 1 and "old" not in keys()


def test_the_embedded_runner_purges_once_an_hour(settings, monkeypatch):
    settings.NOTIFICATION_RETENTION_DAYS = 30
    monkeypatch.setattr(runner, "_purged_at", float("-inf"))
    game = make_game()
    notification(game, "old-1", 60, sent=True)
    runner.after_sweep()
    assert "old-1" not in keys()
    notification(game, "old-2", 60, sent=True)
    runner.after_sweep()  # within the hour: not again
    assert "old-2" in keys()
    monkeypatch.setattr(runner, "_purged_at", runner._purged_at - runner.PURGE_EVERY_SECONDS)
    runner.after_sweep()
    assert "old-2" not in keys()
