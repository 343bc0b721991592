"""Rebuild a game from its seed and action log. Pure: no Django import, so anyone holding a
finished game's published replay (GET /api/v1/games/<id>/fairness) can check it with this module."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from games.engine import get_ruleset


def commitment(seed: int, salt: str) -> str:
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def state_digest(state: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def rebuild(ruleset: str, seats: list[str], options: dict[str, Any], seed: int, actions: list[dict[str, Any]],
            upto: int | None = None) -> dict[str, Any]:
    """The state after the first `upto` actions (all of them by default)."""
    engine = get_ruleset(ruleset)
    state = engine.new_game(seats, options, seed)
    for entry in actions[:upto]:
        state, _events = engine.apply(state, entry["seat"], entry["action"])
    return state


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str


def verify_published(replay: dict[str, Any]) -> Verdict:
    """Check a fairness payload: the seed matches the commitment published at the start, and the
    actions replay legally from it to the end."""
    for key in ("ruleset", "seed", "salt", "seed_hash", "seats", "options", "actions"):
        if key not in replay:
            return Verdict(False, f"the replay has no '{key}' (is the game over?)")
    if commitment(replay["seed"], replay["salt"]) != replay["seed_hash"]:
        return Verdict(False, "the seed does not match the commitment published when the game started")
    try:
        state = rebuild(replay["ruleset"], replay["seats"], replay["options"], replay["seed"], replay["actions"])
    except Exception as error:  # an illegal action in the log is exactly what this check reports
        return Verdict(False, f"the actions do not replay from the seed: {error}")
    engine = get_ruleset(replay["ruleset"])
    ranking = engine.ranking(state)
    return Verdict(True, f"seed matches its commitment; {len(replay['actions'])} actions replay; ranking {ranking}")
