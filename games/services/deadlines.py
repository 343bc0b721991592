"""Deadlines: every pending decision of a player times out `game.time_limit` seconds after it
became theirs. The deadline lives in the database (GameSeat.deadline_at, and Game.deadline_at =
the earliest, which the sweep queries), and nothing else holds it: no task waits in a broker or in
a worker's memory for a particular deadline.

The sweep wakes every second (Celery beat's `sweep_deadlines`, or the embedded runner inside the
web server) and resolves every overdue game, one at a time, each claimed with a row lock taken with
SKIP LOCKED: several sweeps running at once (two workers, or a sweep still busy when the next one
starts) share the overdue games between them instead of queueing on the same row. Resolution
re-checks everything under that lock, so a sweep delivered twice, or one racing a player's action,
applies each default once; a worker killed mid-way rolls its transaction back and the next sweep
redoes it. A lost or expired sweep costs one second, nothing more: the next one finds the same
games, because the database still says they are overdue.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
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
    from games.services.play import lock_game

    now = now or timezone.now()
    with transaction.atomic():
        try:
            game = lock_game(game_id)
        except GameError:
            return []
        return _resolve_locked(game, now)


def _resolve_locked(game: Game, now: datetime) -> list[GameAction]:
    from games.services.play import apply_default, hand_to_bot, settle

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


def overdue_games(now: datetime):
    """Active games with a deadline at or before `now`, earliest first (the partial index on active
    games' deadline_at answers it)."""
    return Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__lte=now).order_by("deadline_at")


def overdue_game_ids(now: datetime | None = None, limit: int = 500) -> list[int]:
    return list(overdue_games(now or timezone.now()).values_list("pk", flat=True)[:limit])


@dataclass
class SweepResult:
    games: int = 0  # games whose overdue seats got their defaults
    timeouts: int = 0  # default actions applied
    handled: list[int] = field(default_factory=list)  # games claimed, each once per sweep
    failed: list[int] = field(default_factory=list)  # games whose resolution raised (logged)


def sweep(now: datetime | None = None, budget_seconds: float | None = None) -> SweepResult:
    """Resolve overdue games until none is left that no other sweep holds, or `budget_seconds` have
    passed (the next sweep carries on). Each game is claimed and resolved in its own transaction:
    `SELECT ... FOR UPDATE SKIP LOCKED` on PostgreSQL, so sweeps running side by side never wait
    for each other; SQLite has one writer at a time anyway. `now` fixes the clock (tests);
    otherwise each claim reads it afresh, so a long sweep also takes deadlines that fall due while
    it runs."""
    budget = settings.DEADLINE_SWEEP_BUDGET_SECONDS if budget_seconds is None else budget_seconds
    stop_at = time.monotonic() + budget
    result = SweepResult()
    while time.monotonic() < stop_at:
        game_id = None
        try:
            with transaction.atomic():
                game = (overdue_games(now or timezone.now()).exclude(pk__in=result.handled)
                        .select_for_update(skip_locked=True).first())
                if game is None:
                    break
                game_id = game.pk
                result.handled.append(game_id)
                records = _resolve_locked(game, now or timezone.now())
        except Exception:
            if game_id is None:
                raise  # the claim itself failed (database unavailable): the next sweep tries again
            # One broken game must not stop the others; it is tried again by the next sweep.
            log.exception("could not resolve the deadline of game %s", game_id)
            result.failed.append(game_id)
            continue
        if records:
            result.games += 1
            result.timeouts += len(records)
    return result


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
        return game
