"""Spectators of a fogged board game with a delay (issue 34; docs/rules-decisions.md, "AGoT variants",
"Spectators with a delay"): the lobby option `spectator_delay` (1 or 2 rounds; only with `fog_of_war`).

While such a game runs, a spectator (anyone who holds no seat in it: logged out, or another user) sees the
whole board, without the fog, as it stood when the round `spectator_delay` rounds before the current one
began (round r: the state right after round r - delay's `round` event; before round 1 + delay, the start
of the game), and the log up to that moment, its events as a spectator of the game without the fog reads
them (fog.unfogged_event). Nothing newer: the live events of the game never reach the spectators' socket
(games/services/notify.py sends them an update without events; the page then re-fetches the game). The
seats keep their fog and their own views; a seated player reading the game is always given its seat's
view. When the game is over the fog lifts for everyone (fog.enabled) and the delay ends.

The delayed state is rebuilt from the seed and the action log (append-only, so the state after a version
never changes once that version exists) and kept in the cache by version; a rebuild starts from the latest
earlier round start kept there."""
from __future__ import annotations

import json
from typing import Any

from django.core.cache import cache

from games.engine import get_ruleset
from games.models import Game

DELAYS = (0, 1, 2)  # rounds; 0: no delay, spectators see nothing hidden until the game ends
TIMEOUT = 7 * 24 * 3600


def delay_rounds(game: Game) -> int:
    """The game's spectators' delay in rounds (0: none, or not a fogged board game)."""
    options = game.options or {}
    n = options.get("spectator_delay", 0)
    if game.ruleset != "agot" or not options.get("fog_of_war") or isinstance(n, bool) or not isinstance(n, int):
        return 0
    return n if n in DELAYS else 0


def delayed(game: Game) -> bool:
    """Whether a spectator reads the game with a delay now (a fogged game with the option, still running)."""
    return game.is_active() and delay_rounds(game) > 0


def _prefix(game: Game) -> str:
    # the seed's commitment too: a key never names another game, even where ids were reused
    return f"{game.pk}:{game.seed_hash[:16]}"


def round_starts(game: Game) -> dict[int, int]:
    """{round: the version whose action began it} (the engine's `round` event), from the log; round 1
    without a draft begins at version 0 and is not listed. Kept in the cache and read on from there:
    the log is append-only."""
    key = f"round-starts:{_prefix(game)}"
    kept = cache.get(key) or {"through": 0, "starts": {}}
    starts = {int(r): v for r, v in kept["starts"].items()}
    through = kept["through"]
    if through < game.version:
        rows = game.actions.filter(version__gt=through, version__lte=game.version).order_by("version")
        for version, events in rows.values_list("version", "events").iterator(chunk_size=500):
            for event in events or []:
                if event.get("type") == "round" and isinstance(event.get("round"), int):
                    starts.setdefault(event["round"], version)
        cache.set(key, {"through": game.version, "starts": {str(r): v for r, v in starts.items()}}, TIMEOUT)
    return starts


def delayed_moment(game: Game) -> tuple[int, int]:
    """(version, round) a spectator sees now: the start of round (current round - delay), or the
    start of the game (version 0, round 0) while the game is not that far on."""
    rounds = delay_rounds(game)
    target = int(game.state.get("round") or 1) - rounds
    if target < 1:
        return 0, 0
    starts = round_starts(game)
    return starts.get(target, 0), target


def state_at(game: Game, version: int) -> dict[str, Any]:
    """The state of `game` after its first `version` actions, from the nearest kept earlier round
    start (or the seed)."""
    engine = get_ruleset(game.ruleset)
    if version == game.version:
        return game.state
    key = f"delayed-state:{_prefix(game)}:{version}"
    kept = cache.get(key)
    if kept is not None:
        return json.loads(kept)  # JSON keeps the engine's key order (games/jsonfield.py)
    earlier = sorted((v for v in round_starts(game).values() if v < version), reverse=True)
    found = cache.get_many([f"delayed-state:{_prefix(game)}:{v}" for v in earlier]) if earlier else {}
    start, state = 0, None
    for v in earlier:
        if (k := f"delayed-state:{_prefix(game)}:{v}") in found:
            start, state = v, json.loads(found[k])
            break
    if state is None:
        state = engine.new_game(game.seat_names(), dict(game.options or {}), game.seed)
    rows = game.actions.filter(version__gt=start, version__lte=version).order_by("version")
    for seat, action in rows.values_list("seat", "action").iterator(chunk_size=500):
        state, _events = engine.apply(state, seat, action)
    cache.set(key, json.dumps(state), TIMEOUT)
    return state


def spectator_parts(game: Game) -> dict[str, Any]:
    """What a spectator of a delayed game is given in place of the live game: the view, the summary
    and the pending decisions of the delayed state, without the fog, and `spectator_delay`: the
    rounds of delay, the version and the round shown (round 0: the start of the game)."""
    from games.engine.agot import fog

    engine = get_ruleset(game.ruleset)
    version, round_ = delayed_moment(game)
    then = state_at(game, version)
    state = fog.unfogged(then)
    view = engine.view(state, None)
    view["options"] = dict(then["options"])  # the game's own options: it is played with the fog
    return {"view": view, "summary": engine.summary(state, None),
            "pending": engine.pending(state), "legal_actions": None,
            "spectator_delay": {"rounds": delay_rounds(game), "version": version, "round": round_}}


def spectator_event(event: dict[str, Any]) -> dict[str, Any] | None:
    """A stored event as a spectator of a delayed game reads it (the whole board: no fog)."""
    from games.engine.agot import fog

    return fog.unfogged_event(event)


def log_limit(game: Game, seat: str | None) -> tuple[int, Any] | None:
    """For a spectator of a game with the option: (the last version its log may show, its event
    filter); None for a seat or a game without the delay. Once the game is over the whole log is
    shown, still without the fog's cuts (what the spectators read while it ran stays in it)."""
    if seat is not None or delay_rounds(game) <= 0:
        return None
    through = delayed_moment(game)[0] if game.is_active() else game.version
    return through, spectator_event
