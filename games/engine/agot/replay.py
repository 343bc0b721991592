"""Replays: the state after any action of a game, rebuilt from its seed, seats, options and action
log (base.py: a seed and a list of actions always rebuild the same state), as any seat sees it.

Pure functions, no database. The log is a list of `(seat, action)` pairs or of mappings with
`seat` and `action` keys (the shape of games.models.GameAction rows). `index` is the 0-based index
of an action in the log: `view_at(..., index=i, ...)` is the state right after action i was applied;
`index=-1` is the state before the first action (after the setup).
"""
from __future__ import annotations

import collections
from collections.abc import Iterable, Iterator
from typing import Any

from games.engine.base import REFEREE, EngineError, Ruleset, get_ruleset

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


def _ruleset(ruleset: Ruleset | str) -> Ruleset:
    return get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset


def _entry(item: Any) -> tuple[str, Action]:
    if isinstance(item, dict):
        return str(item["seat"]), dict(item["action"])
    seat, act = item
    return str(seat), dict(act)


def replay(
    ruleset: Ruleset | str, seats: list[str], options: dict[str, Any], seed: int, actions: Iterable[Any]
) -> Iterator[tuple[State, list[Event]]]:
    """Yield (state, events) after each action of the log, in order. Raises the EngineError of an
    action the engine refuses (a corrupt log), naming its index."""
    rs = _ruleset(ruleset)
    state = rs.new_game(list(seats), dict(options or {}), seed)
    for i, item in enumerate(actions):
        seat, act = _entry(item)
        try:
            state, events = rs.apply(state, seat, act)
        except EngineError as e:  # a log that does not replay is corrupt: say where
            raise EngineError(e.code, f"action {i} ({seat}): {e.reason}") from e
        yield state, events


def state_at(
    ruleset: Ruleset | str, seats: list[str], options: dict[str, Any], seed: int, actions: list[Any], index: int
) -> tuple[State, list[Event]]:
    """The full (referee) state right after action `index` and that action's events."""
    rs = _ruleset(ruleset)
    if not -1 <= index < len(actions):
        raise IndexError(f"action index {index} outside the log (0..{len(actions) - 1}, or -1 for the setup)")
    if index == -1:
        return rs.new_game(list(seats), dict(options or {}), seed), []
    steps = replay(rs, seats, options, seed, actions[: index + 1])
    return collections.deque(steps, maxlen=1)[0]


def view_at(
    ruleset: Ruleset | str,
    seats: list[str],
    options: dict[str, Any],
    seed: int,
    actions: list[Any],
    index: int,
    viewer: str | None,
) -> dict[str, Any]:
    """What `viewer` (a seat, None for a spectator, REFEREE for everything) saw right after action
    `index`: `{"index", "state", "events"}` with the state and that action's events filtered for
    the viewer exactly as the live game showed them (hidden information stays hidden)."""
    rs = _ruleset(ruleset)
    state, events = state_at(rs, seats, options, seed, actions, index)
    if viewer == REFEREE:
        return {"index": index, "state": state, "events": list(events)}
    shown = [e for e in (rs.event_view(ev, viewer) for ev in events) if e is not None]
    return {"index": index, "state": rs.view(state, viewer), "events": shown}
