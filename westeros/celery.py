"""The Celery app. With REDIS_URL the broker is Redis; without it tasks run in-process (embedded mode)."""
from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "westeros.settings")

app = Celery("westeros")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
