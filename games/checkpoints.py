"""A finished game's state after any step of its replay, at a bounded cost (issue 27).

Rebuilding step N from the seed replays N actions, so a replay's later steps cost more the longer the
game (a 6-player game of A Game of Thrones runs to hundreds of actions). A finished game never changes,
so the states at every EVERY-th step are kept in the cache (Redis in production, the process's memory
in the embedded default) the first time a replay passes them; a step is then its nearest checkpoint
plus fewer than EVERY actions, read from the log alone. The cache is only a shortcut: a lost or evicted
checkpoint is rebuilt from the seed, with the same result (states are deterministic from the seed and
the actions; games/replay.py), and the keys carry the game's seed commitment and final version, so they never go stale.

Besides the checkpoints, the state after each step a replay shows is kept for a while (STEP_TIMEOUT):
the same step asked again (a viewer going back, another viewer) is that state alone, and the next step
forward is one action from it (issue 27: a late step of a miniatures game replayed its geometry for up
to EVERY - 1 actions on every request). Their keys are made like the checkpoints', so they never go
stale either.
"""
from __future__ import annotations

import json
from typing import Any

from django.core.cache import cache

from games.engine import get_ruleset
from games.models import Game

EVERY = 25  # a step replays at most EVERY - 1 actions from its checkpoint once the cache holds it
TIMEOUT = 7 * 24 * 3600  # a week: replays are watched soon after a game, and anything lost is rebuilt
STEP_TIMEOUT = 15 * 60  # how long the state after a step shown is kept (a replay watched now)


def _key(game: Game, step: int) -> str:
    # the seed's commitment too: a key never names another game, even where ids were reused (a test
    # database rolled back, a restored backup)
    return f"replay-state:{game.pk}:{game.seed_hash[:16]}:{game.version}:{step}"


def _step_key(game: Game, step: int) -> str:
    return f"replay-step:{game.pk}:{game.seed_hash[:16]}:{game.version}:{step}"


def state_after(game: Game, step: int) -> dict[str, Any]:
    """The state of finished `game` after its first `step` actions (0 <= step <= game.version)."""
    if game.is_active():
        raise ValueError("checkpoints are kept for finished games only (an active game's log still grows)")
    engine = get_ruleset(game.ruleset)
    base = step - step % EVERY
    start, state = 0, None
    # one read of the cache: this step as shown before, the step before it (a replay going forward),
    # and the checkpoint below it
    wanted = {_step_key(game, step): step}
    if step > 0:
        wanted[_step_key(game, step - 1)] = step - 1
    if base:
        wanted[_key(game, base)] = base
    found = cache.get_many(list(wanted))
    for key, at in sorted(wanted.items(), key=lambda kv: -kv[1]):  # the nearest first
        if found.get(key) is not None:
            start, state = at, json.loads(found[key])  # JSON keeps the engine's key order (games/jsonfield.py)
            break
    if state is not None and start == step:  # this step, kept
        return state
    if state is None:
        state = engine.new_game(game.seat_names(), dict(game.options or {}), game.seed)
    fresh = {}
    actions = game.actions.filter(version__gt=start, version__lte=step).order_by("version")
    for version, seat, action in actions.values_list("version", "seat", "action").iterator(chunk_size=500):
        state, _events = engine.apply(state, seat, action)
        if version % EVERY == 0 and version > start:
            fresh[_key(game, version)] = json.dumps(state)
    if fresh:
        cache.set_many(fresh, TIMEOUT)
    if step not in (0, base):  # the start and the checkpoints need no copy
        cache.set(_step_key(game, step), json.dumps(state), STEP_TIMEOUT)
    return state
