"""Celery tasks. Both are idempotent: they resolve only what is overdue, under the game row lock."""
from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from games.models import Game
from games.services import deadlines


@shared_task(acks_late=True, ignore_result=True)
def resolve_game_deadline(game_id: int) -> int:
    applied = len(deadlines.resolve_overdue(game_id))
    # Eager mode (no broker) would run the rescheduled task at once: only with a real broker.
    if not applied and settings.DEADLINE_TASKS and not settings.CELERY_TASK_ALWAYS_EAGER:
        # Woken before the deadline (a timer firing early, or an extension moved it): come back at
        # the deadline rather than leave the game to the next sweep.
        due = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).values_list("deadline_at", flat=True).first()
        if due is not None and due > timezone.now():
            resolve_game_deadline.apply_async((game_id,), eta=due, queue=settings.DEADLINE_QUEUE)
    return applied


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    return deadlines.sweep()
