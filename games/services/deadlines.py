"""Deadlines: every pending decision of a player times out `game.time_limit` seconds after it
became theirs. The deadline lives in the database (GameSeat.deadline_at, and Game.deadline_at =
the earliest, which the sweep queries), and nothing else holds it: no task waits in a broker or in
a worker's memory for a particular deadline.

The sweep wakes every second (Celery beat's `sweep_deadlines`, or the embedded runner inside the
web server; with Celery, each web server also sweeps as a fallback, only for games overdue by more
than DEADLINE_FALLBACK_GRACE_SECONDS, so that deadlines go on when every worker is down:
games/runner.py) and resolves every overdue game, a small batch per transaction, each game claimed with
a row lock taken with SKIP LOCKED: several sweeps running at once (the DEADLINE_SWEEP_WORKERS
threads of one tick, two workers, or a sweep still busy when the next one starts) share the overdue
games between them instead of queueing on the same row. Resolution re-checks everything under that
lock, so a sweep delivered twice, or one racing a player's action,
applies each default once; a worker killed mid-way rolls its transaction back and the next sweep
redoes it. A lost or expired sweep costs one second, nothing more: the next one finds the same
games, because the database still says they are overdue.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Case, Prefetch, Value, When
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext

from games.engine import get_ruleset
from games.errors import GameError, conflict
from games.models import Game, GameAction, GameSeat
from games.services import clocks

log = logging.getLogger(__name__)
# A sweep's games come with their seats, the seats' players and the players' notification settings
# (one query per batch): the timeouts' notifications need no query of their own for them.
SEATS_WITH_PLAYERS = Prefetch("seats", queryset=GameSeat.objects.select_related("user__notification_settings"))


def renew(game: Game, pending_before: set[str], records: list[GameAction], now: datetime | None = None,
          seats: list[GameSeat] | None = None, timed_out: list[GameSeat] = ()) -> None:
    """Give each seat that has just become pending (or acted and is pending again) a fresh
    deadline counted from `now` (the moment of the change); clear the deadline of seats that no
    longer have to act; keep the others. In a game with a clock (games/services/clocks.py) a
    decision that ends charges the seat's bank, a fresh one starts its clock, and its deadline is
    the earlier of the two; `records` then keep the clocks as they are after the change (for the
    replay: call this before they are inserted). The changed seats are written in one UPDATE, with
    the `timed_out` seats' new consecutive_timeouts. `seats`: the game's seats as read under its
    lock (read here otherwise)."""
    now = now or timezone.now()
    engine = get_ruleset(game.ruleset)
    pending = set(engine.pending(game.state)) if game.is_active() else set()
    acted = {record.seat for record in records}
    clocked = game.has_clock()
    seats = list(game.seats.all()) if seats is None else seats
    earliest: datetime | None = None
    changed = []
    for seat in seats:
        deadline = seat.deadline_at
        was = (seat.clock_remaining, seat.clock_started_at, seat.paused_remaining)
        waiting = seat.seat in pending and not seat.is_bot
        if game.is_paused():
            # a change while paused (a player conceded, the bot played for them): every deadline and
            # clock stays frozen; a decision that arrives now waits, frozen, for the resume
            deadline = None
            if not waiting:
                seat.paused_remaining = None
            elif seat.paused_remaining is None or seat.seat not in pending_before or seat.seat in acted:
                bank = clocks.remaining(seat, now) if clocked else None
                seat.paused_remaining = float(game.time_limit if bank is None else min(game.time_limit, bank))
        else:
            fresh = waiting and (deadline is None or seat.seat not in pending_before or seat.seat in acted)
            if clocked and seat.clock_started_at is not None and (fresh or not waiting):
                clocks.stop(game, seat, now, answered=seat.seat in acted)
            if not waiting:
                deadline = None
            elif fresh:
                deadline = now + timedelta(seconds=game.time_limit)
                if clocked:
                    deadline = clocks.start(game, seat, now, deadline)
        if deadline != seat.deadline_at or was != (seat.clock_remaining, seat.clock_started_at, seat.paused_remaining):
            seat.deadline_at = deadline
            changed.append(seat)
        if deadline is not None and (earliest is None or deadline < earliest):
            earliest = deadline
    if timed_out:
        changed += [seat for seat in timed_out if seat not in changed]
    if changed:
        fields = ["deadline_at", *(["clock_remaining", "clock_started_at"] if clocked else []),
                  *(["paused_remaining"] if game.is_paused() else []),
                  *(["consecutive_timeouts"] if timed_out else [])]
        _write_seats(changed, fields)
    if clocked and records:
        state = clocks.snapshot(seats, now)
        for record in records:
            record.clocks = state
    game.deadline_at = earliest


def _write_seats(changed: list[GameSeat], fields: list[str]) -> None:
    """Write `fields` of the `changed` seats in one UPDATE: a field every seat takes the same value of
    is set to that value, any other to a CASE over the seats grouped by value. `bulk_update` builds
    a WHEN per seat and field, whose expressions cost the ORM about 1 ms per call; this costs about
    0.3 ms (issue 20: profiled on a deadline sweep and on an action, where it ran for every change)."""
    from django.db import connection

    updates: dict[str, Any] = {}
    for name in fields:
        field = GameSeat._meta.get_field(name)
        by_value: dict[Any, list[int]] = {}
        for seat in changed:
            by_value.setdefault(getattr(seat, name), []).append(seat.pk)
        if len(by_value) == 1:
            updates[name] = next(iter(by_value))
            continue
        *others, (last, _) = by_value.items()
        case = Case(*(When(pk__in=ids, then=Value(value, output_field=field)) for value, ids in others),
                    default=Value(last, output_field=field), output_field=field)
        # as bulk_update does: PostgreSQL types a CASE of parameters only when told
        updates[name] = Cast(case, output_field=field) if connection.features.requires_casted_case_in_updates else case
    GameSeat.objects.filter(pk__in=[seat.pk for seat in changed]).update(**updates)


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
    seats = sorted(game.seats.all(), key=lambda s: s.position)  # read once, reused by settle
    counted = []
    for seat in seats:
        if seat.is_bot or seat.deadline_at is None or seat.deadline_at > now:
            continue
        if seat.seat not in engine.pending(game.state):
            continue
        records.append(apply_default(game, seat.seat, GameAction.Source.TIMEOUT))
        seat.consecutive_timeouts += 1
        limit = game.max_consecutive_timeouts
        if limit and seat.consecutive_timeouts >= limit:
            hand_to_bot(seat, abandoned=True, state=game.state)  # saves the seat, its count included
            seats_changed = True
        else:
            counted.append(seat)
    settle(game, before, records, seats_changed=seats_changed, now=now, seats=seats, timed_out=counted)
    return records


def overdue_games(now: datetime):
    """Active games with a deadline at or before `now`, earliest first (the partial index on active
    games' deadline_at answers it)."""
    return Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__lte=now).order_by("deadline_at")


def seconds_to_next_deadline(now: datetime | None = None) -> float | None:
    """Seconds until the earliest deadline still in the future among active games (one query on
    the partial index), or None when there is none. The loops use it to wake when a deadline falls
    due rather than up to a whole interval later; deadlines already past (a game another sweep holds,
    or one that fails) are left to the regular interval, so they never make a loop spin."""
    from django.db.models import Min

    now = now or timezone.now()
    earliest = (Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__gt=now)
                .aggregate(earliest=Min("deadline_at"))["earliest"])
    return None if earliest is None else (earliest - now).total_seconds()


def sweep_until(horizon: float, workers: int | None = None) -> SweepResult:
    """Sweep now, then again at each deadline that falls due within `horizon` seconds (the time to
    the next tick), so that a deadline is resolved when it falls due instead of up to a tick later.
    For the long-running loops (`run_deadlines`, the Celery task); returns the total."""
    stop_at = time.monotonic() + horizon
    total = sweep_parallel(workers)
    while True:
        wait = seconds_to_next_deadline()
        if wait is None or time.monotonic() + wait >= stop_at:
            return total
        time.sleep(wait + 0.01)
        total = total.merge(sweep_parallel(workers))


def overdue_game_ids(now: datetime | None = None, limit: int = 500) -> list[int]:
    return list(overdue_games(now or timezone.now()).values_list("pk", flat=True)[:limit])


@dataclass
class SweepResult:
    games: int = 0  # games whose overdue seats got their defaults
    timeouts: int = 0  # default actions applied
    handled: list[int] = field(default_factory=list)  # games claimed, each once per sweep
    failed: list[int] = field(default_factory=list)  # games whose resolution raised (logged)

    def merge(self, other: SweepResult) -> SweepResult:
        return SweepResult(self.games + other.games, self.timeouts + other.timeouts,
                           self.handled + other.handled, self.failed + other.failed)


def sweep_workers() -> int:
    """How many sweeps run side by side per tick: DEADLINE_SWEEP_WORKERS on PostgreSQL (SKIP LOCKED
    shares the games between them, and a resolution mostly waits on the database, so threads
    overlap well); always 1 on SQLite, which has one writer at a time, and inside a transaction
    (other threads' connections would not see what it has not committed)."""
    from django.db import connection

    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return 1
    return max(1, int(getattr(settings, "DEADLINE_SWEEP_WORKERS", 1)))


def sweep_in_thread(now: datetime | None = None, budget_seconds: float | None = None,
                    overdue_by: float = 0.0) -> SweepResult:
    """`sweep` in a thread of its own: its database connection is closed when it ends."""
    from django.db import connection

    try:
        return sweep(now, budget_seconds, overdue_by=overdue_by)
    finally:
        connection.close()


def sweep_parallel(workers: int | None = None, now: datetime | None = None,
                   budget_seconds: float | None = None, overdue_by: float = 0.0) -> SweepResult:
    """`workers` sweeps at once in threads (default: `sweep_workers()`), sharing the overdue games
    through SKIP LOCKED; one worker is a plain `sweep` in the calling thread. For a Celery worker or
    `manage.py run_deadlines`; the runner inside Daphne starts its sweeps on the server's loop
    instead (games/runner.py), so that their websocket messages reach its in-memory channel layer."""
    from concurrent.futures import ThreadPoolExecutor

    workers = sweep_workers() if workers is None else workers
    if workers <= 1:
        return sweep(now, budget_seconds, overdue_by=overdue_by)
    with ThreadPoolExecutor(workers, thread_name_prefix="deadline-sweep") as pool:
        futures = [pool.submit(sweep_in_thread, now, budget_seconds, overdue_by) for _ in range(workers)]
        results = [f.result() for f in futures]  # a failed claim (database down) raises, as in sweep
    total = SweepResult()
    for result in results:
        total = total.merge(result)
    return total


def sweep(now: datetime | None = None, budget_seconds: float | None = None,
          batch: int | None = None, overdue_by: float = 0.0) -> SweepResult:
    """Resolve overdue games until none is left that no other sweep holds, or `budget_seconds` have
    passed (the next sweep carries on). Games are claimed `batch` at a time (DEADLINE_SWEEP_BATCH)
    with `SELECT ... FOR UPDATE SKIP LOCKED` on PostgreSQL, so sweeps running side by side never
    wait for each other (SQLite has one writer at a time anyway), their seats read in the same
    trip, and resolved in one transaction: one claim and one commit for the batch instead of one
    per game. If any game of a batch fails, the whole batch rolls back and its games are redone one
    per transaction, so one broken game stops nobody else. `now` fixes the clock (tests); otherwise
    each claim reads it afresh, so a long sweep also takes deadlines that fall due while it runs.
    `overdue_by` (seconds): claim only games whose deadline passed at least that long ago (the web
    servers' fallback, games/runner.py, leaves the others to the workers); they are resolved as of
    now all the same (their next deadlines count from now)."""
    budget = settings.DEADLINE_SWEEP_BUDGET_SECONDS if budget_seconds is None else budget_seconds
    size = max(1, int(getattr(settings, "DEADLINE_SWEEP_BATCH", 1) if batch is None else batch))
    stop_at = time.monotonic() + budget
    result = SweepResult()
    while time.monotonic() < stop_at:
        claimed: list[int] = []
        done: list[list[GameAction]] = []
        try:
            with transaction.atomic():
                clock = now or timezone.now()
                games = list(overdue_games(clock - timedelta(seconds=overdue_by)).exclude(pk__in=result.handled)
                             .select_for_update(skip_locked=True).prefetch_related(SEATS_WITH_PLAYERS)[:size])
                claimed = [game.pk for game in games]
                result.handled.extend(claimed)
                for game in games:
                    done.append(_resolve_locked(game, clock))
        except Exception:
            if not claimed:
                raise  # the claim itself failed (database unavailable): the next sweep tries again
            if len(claimed) == 1:
                _failed(result, claimed[0])
            else:
                for game_id in claimed:  # everything rolled back: one game at a time, to isolate it
                    _sweep_one(game_id, now, result, overdue_by)
            continue
        if not claimed:
            break
        for records in done:
            _tally(result, records)
    return result


def _sweep_one(game_id: int, now: datetime | None, result: SweepResult, overdue_by: float = 0.0) -> None:
    try:
        with transaction.atomic():
            clock = now or timezone.now()
            game = overdue_games(clock - timedelta(seconds=overdue_by)).filter(pk=game_id).select_for_update(skip_locked=True).first()
            records = _resolve_locked(game, clock) if game is not None else []
    except Exception:
        _failed(result, game_id)
        return
    _tally(result, records)


def _failed(result: SweepResult, game_id: int) -> None:
    # One broken game must not stop the others; it is tried again by the next sweep.
    log.exception("could not resolve the deadline of game %s", game_id)
    result.failed.append(game_id)


def _tally(result: SweepResult, records: list[GameAction]) -> None:
    if records:
        result.games += 1
        result.timeouts += len(records)


def do_extend(game_id: int, user) -> Game:
    """A player's one-time extension in a game: their current deadline moves by one time limit."""
    from games.services.play import lock_game

    with transaction.atomic():
        game = lock_game(game_id)
        seat = game.seat_for(user)
        if seat is None:
            raise GameError("forbidden", gettext("You do not play in this game."), status_code=403)
        if seat.extension_used:
            raise conflict("extension_used", gettext("You already used your extension in this game."), version=game.version)
        if game.has_clock():
            raise conflict("clock_game", gettext("In a game with a clock there is no extension: your time is your clock's."),
                           version=game.version)
        if seat.deadline_at is None:
            raise conflict("nothing_pending", gettext("You have no decision pending, so no deadline to extend."),
                           version=game.version)
        seat.deadline_at += timedelta(seconds=game.time_limit)
        seat.extension_used = True
        seat.save(update_fields=["deadline_at", "extension_used"])
        game.deadline_at = min(s.deadline_at for s in game.seats.all() if s.deadline_at is not None)
        game.save(update_fields=["deadline_at"])
        return game
