"""Celery tasks. Both are idempotent: they resolve only what is overdue, under the game row lock."""
from __future__ import annotations

from celery import shared_task

from games.services import deadlines


@shared_task(acks_late=True, ignore_result=True)
def resolve_game_deadline(game_id: int) -> int:
    return len(deadlines.resolve_overdue(game_id))


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    return deadlines.sweep()
