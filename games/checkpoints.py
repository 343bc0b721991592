"""A finished game's state after any step of its replay, at a bounded cost (issue 27).

Rebuilding step N from the seed replays N actions, so a replay's later steps cost more the longer the
game (a 6-player game of A Game of Thrones runs to hundreds of actions). A finished game never changes,
so the states at every EVERY-th step are kept in the cache (Redis in production, the process's memory
in the embedded default) the first time a replay passes them; a step is then its nearest checkpoint
plus fewer than EVERY actions, read from the log alone. The cache is only a shortcut: a lost or evicted
checkpoint is rebuilt from the seed, with the same result (states are deterministic from the seed and
the actions; games/replay.py), and the keys carry the game's seed commitment and final version, so they never go stale.
"""
from __future__ import annotations

import json
from typing import Any

from django.core.cache import cache

from games.engine import get_ruleset
from games.models import Game

EVERY = 25  # a step replays at most EVERY - 1 actions from its checkpoint once the cache holds it
TIMEOUT = 7 * 24 * 3600  # a week: replays are watched soon after a game, and anything lost is rebuilt


def _key(game: Game, step: int) -> str:
    # the seed's commitment too: a key never names another game, even where ids were reused (a test
    # database rolled back, a restored backup)
    return f"replay-state:{game.pk}:{game.seed_hash[:16]}:{game.version}:{step}"


def state_after(game: Game, step: int) -> dict[str, Any]:
    """The state of finished `game` after its first `step` actions (0 <= step <= game.version)."""
    if game.is_active():
        raise ValueError("checkpoints are kept for finished games only (an active game's log still grows)")
    engine = get_ruleset(game.ruleset)
    base = step - step % EVERY
    start, state = 0, None
    if base:
        kept = cache.get(_key(game, base))
        if kept is not None:
            start, state = base, json.loads(kept)  # JSON keeps the engine's key order (games/jsonfield.py)
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
    return state
