"""Deadlines: every pending decision of a player times out `game.time_limit` seconds after it
became theirs. The deadline lives in the database (GameSeat.deadline_at, and Game.deadline_at =
the earliest, which the sweep queries). A Celery task is scheduled at each deadline and a periodic
sweep catches whatever a lost or late task missed. Resolution locks the game row and re-checks
everything under the lock, so a task delivered twice, or a task racing the sweep, applies each
default once; a worker killed mid-way rolls its transaction back and the next sweep redoes it.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine import get_ruleset
from games.errors import GameError, conflict
from games.models import Game, GameAction

log = logging.getLogger(__name__)


def renew(game: Game, pending_before: set[str], records: list[GameAction], now: datetime | None = None) -> None:
    """Give each seat that has just become pending (or acted and is pending again) a fresh
    deadline counted from `now` (the moment of the change); clear the deadline of seats that no
    longer have to act; keep the others."""
    now = now or timezone.now()
    engine = get_ruleset(game.ruleset)
    pending = set(engine.pending(game.state)) if game.is_active() else set()
    acted = {record.seat for record in records}
    earliest: datetime | None = None
    for seat in game.seats.all():
        deadline = seat.deadline_at
        if seat.seat not in pending or seat.is_bot:
            deadline = None
        elif deadline is None or seat.seat not in pending_before or seat.seat in acted:
            deadline = now + timedelta(seconds=game.time_limit)
        if deadline != seat.deadline_at:
            seat.deadline_at = deadline
            seat.save(update_fields=["deadline_at"])
        if deadline is not None and (earliest is None or deadline < earliest):
            earliest = deadline
    game.deadline_at = earliest


def resolve_overdue(game_id: int, now: datetime | None = None) -> list[GameAction]:
    """Apply the engine's default action for every seat of the game whose deadline has passed,
    exactly as if submitted, logged as a timeout. Returns the timeout records (empty if nothing was
    due, which makes a second run a no-op)."""
    from games.services.play import apply_default, hand_to_bot, lock_game, settle

    now = now or timezone.now()
    with transaction.atomic():
        try:
            game = lock_game(game_id)
        except GameError:
            return []
        if not game.is_active() or game.deadline_at is None or game.deadline_at > now:
            return []
        engine = get_ruleset(game.ruleset)
        before = set(engine.pending(game.state))
        records: list[GameAction] = []
        seats_changed = False
        for seat in game.seats.filter(deadline_at__lte=now, is_bot=False).order_by("position"):
            if seat.seat not in engine.pending(game.state):
                continue
            records.append(apply_default(game, seat.seat, GameAction.Source.TIMEOUT))
            seat.consecutive_timeouts += 1
            seat.save(update_fields=["consecutive_timeouts"])
            limit = game.max_consecutive_timeouts
            if limit and seat.consecutive_timeouts >= limit:
                hand_to_bot(seat, abandoned=True)
                seats_changed = True
        settle(game, before, records, seats_changed=seats_changed, now=now)
        return records


def overdue_game_ids(now: datetime | None = None, limit: int = 500) -> list[int]:
    """One indexed query (the partial index on active games' deadline_at)."""
    now = now or timezone.now()
    return list(
        Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__lte=now)
        .order_by("deadline_at")
        .values_list("pk", flat=True)[:limit]
    )


def sweep(now: datetime | None = None) -> int:
    """Resolve every overdue game; returns how many timeouts were applied."""
    applied = 0
    for game_id in overdue_game_ids(now):
        try:
            applied += len(resolve_overdue(game_id, now))
        except Exception:  # one broken game must not stop the others
            log.exception("could not resolve the deadline of game %s", game_id)
    return applied


def do_extend(game_id: int, user) -> Game:
    """A player's one-time extension in a game: their current deadline moves by one time limit."""
    from games.services.play import lock_game

    with transaction.atomic():
        game = lock_game(game_id)
        seat = game.seat_for(user)
        if seat is None:
            raise GameError("forbidden", "You do not play in this game.", status_code=403)
        if seat.extension_used:
            raise conflict("extension_used", "You already used your extension in this game.", version=game.version)
        if seat.deadline_at is None:
            raise conflict("nothing_pending", "You have no decision pending, so no deadline to extend.",
                           version=game.version)
        seat.deadline_at += timedelta(seconds=game.time_limit)
        seat.extension_used = True
        seat.save(update_fields=["deadline_at", "extension_used"])
        game.deadline_at = min(s.deadline_at for s in game.seats.all() if s.deadline_at is not None)
        game.save(update_fields=["deadline_at"])
        schedule_after_commit(game)
        return game


def schedule_after_commit(game: Game) -> None:
    """Schedule the Celery task at the game's deadline once the transaction commits. Without a
    broker (embedded mode) the deadline runner (`manage.py run_deadlines`) sweeps instead."""
    if game.deadline_at is None or not settings.DEADLINE_TASKS:
        return
    game_id, eta, queue = game.pk, game.deadline_at, settings.DEADLINE_QUEUE

    def send() -> None:
        from games.tasks import resolve_game_deadline

        try:
            resolve_game_deadline.apply_async((game_id,), eta=eta, queue=queue)
        except Exception:  # the sweep will catch it
            log.exception("could not schedule the deadline of game %s", game_id)

    transaction.on_commit(send)
