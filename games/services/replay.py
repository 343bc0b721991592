"""Check that a stored game's snapshot is what its log rebuilds."""
from __future__ import annotations

from games.models import Game
from games.replay import rebuild, state_digest


def log_entries(game: Game) -> list[dict]:
    return [{"seat": a.seat, "action": a.action} for a in game.actions.order_by("version")]


def rebuilt_state(game: Game, upto: int | None = None) -> dict:
    return rebuild(game.ruleset, game.seat_names(), game.options, game.seed, log_entries(game), upto)


def snapshot_matches_log(game: Game) -> bool:
    entries = log_entries(game)
    versions_ok = [a.version for a in game.actions.order_by("version")] == list(range(1, len(entries) + 1))
    return versions_ok and len(entries) == game.version and state_digest(rebuilt_state(game)) == state_digest(game.state)
