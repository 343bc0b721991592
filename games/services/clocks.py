"""Clocks for live play (issue 21): a time bank per seat plus an increment per decision, beside the
per-decision deadline (`game.time_limit`). docs/clocks.md says what they do and why.

A seat's clock runs while it has a decision pending (every pending seat's clock at once, for
simultaneous decisions) and the game is not paused. When the decision ends, answered or timed out,
the bank loses the time used and gains the increment. The seat's deadline is the earlier of the
per-decision deadline and the moment its bank runs out, and it is stored in the deadline columns
(GameSeat.deadline_at, Game.deadline_at) like any deadline: the same sweep (Celery, the embedded
runner, `run_deadlines`) applies the ruleset's default when it passes, under the game's row lock,
once. games/services/deadlines.py `renew` calls the functions here for every change of a game.

The stored clock of a seat: `clock_remaining`, the bank in seconds as of `clock_started_at` while
the clock runs, or as it stopped (`clock_started_at` empty). A seat without a clock (the game has
none, or the seat was a bot from the start) has `clock_remaining` empty.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from games.models import Game, GameSeat

# What a seat whose bank ran out gets for its later decisions (docs/clocks.md, "Out of time"):
# "increment": each later decision gets the increment as its time (and the default if it passes);
# "flag": no more time, so each later decision gets the default at once, and the consecutive-timeout
# rule soon hands the seat to the engine's player.
OUT_OF_TIME = {"agot": "increment", "btwixt": "increment", "lcg": "flag", "minis": "flag"}


def out_of_time_rule(ruleset: str) -> str:
    return OUT_OF_TIME.get(ruleset, "increment")


def remaining(seat: GameSeat, now: datetime) -> float | None:
    """The seat's bank in seconds at `now` (never below 0); None when the seat has no clock."""
    if seat.clock_remaining is None:
        return None
    if seat.clock_started_at is None:
        return max(0.0, seat.clock_remaining)
    return max(0.0, seat.clock_remaining - (now - seat.clock_started_at).total_seconds())


def stop(game: Game, seat: GameSeat, now: datetime, *, answered: bool) -> None:
    """The seat's decision ended at `now`: the bank loses the time used and, when the seat answered
    it (its own action, or the default applied when its time passed), gains the increment; under the
    "flag" rule a bank already empty gains nothing. A decision that ended without the seat's answer
    (the seat is a bot now, or the game ended) only costs the time used."""
    left = remaining(seat, now)
    if left is None:
        return
    if answered and not (left <= 0 and out_of_time_rule(game.ruleset) == "flag"):
        left += game.clock_increment
    seat.clock_remaining = left
    seat.clock_started_at = None


def start(game: Game, seat: GameSeat, now: datetime, decision_deadline: datetime) -> datetime:
    """The seat's clock runs from `now`; returns its deadline: the per-decision deadline or the
    moment its bank runs out, whichever comes first."""
    if seat.clock_remaining is None:
        return decision_deadline
    seat.clock_started_at = now
    return min(decision_deadline, now + timedelta(seconds=seat.clock_remaining))


def freeze(seat: GameSeat, now: datetime) -> None:
    """Pause: the running clock stops without gaining anything (games/services/pause.py)."""
    if seat.clock_started_at is not None:
        seat.clock_remaining = remaining(seat, now)
        seat.clock_started_at = None


def snapshot(seats: list[GameSeat], now: datetime) -> dict[str, dict[str, Any]]:
    """{seat: {"remaining": seconds, "running": bool}} for the seats with a clock: what an action row
    keeps for the replay."""
    return {s.seat: {"remaining": round(remaining(s, now), 1), "running": s.clock_started_at is not None}
            for s in seats if s.clock_remaining is not None}


def seat_clock(game: Game, seat: GameSeat, now: datetime) -> dict[str, Any] | None:
    """A seat's clock as the game API shows it: the seconds left, whether it runs, and when it runs
    out if nothing is answered (its bank, not the per-decision deadline: that is `deadline_at`)."""
    if not game.has_clock() or seat.clock_remaining is None:
        return None
    running = seat.clock_started_at is not None and game.is_active() and not game.is_paused()
    at = now if game.is_active() else (game.finished_at or now)
    left = remaining(seat, at)
    runs_out_at = seat.clock_started_at + timedelta(seconds=seat.clock_remaining) if running else None
    return {"remaining": round(left, 1), "running": running, "runs_out_at": runs_out_at}
