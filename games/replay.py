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


def canonical_json(state: dict[str, Any]) -> str:
    """The one serialization a state is hashed in: sorted keys, compact separators, UTF-8 escaped."""
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def state_digest(state: dict[str, Any]) -> str:
    """SHA-256 (hex) of the state's canonical JSON: `final_state_sha256` in a finished game's fairness
    payload, and what `check_game` compares a rebuilt state with its snapshot by."""
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()


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


REQUIRED_KEYS = ("ruleset", "seed", "salt", "seed_hash", "seats", "options", "actions", "final_version",
                 "final_state_sha256")


def verify_published(replay: dict[str, Any]) -> Verdict:
    """Check a fairness payload: the seed matches the commitment published at the start, the actions
    replay legally from it, and the replay ends where the game ended: at `final_version` (one version
    per action) with the state whose digest was published (`final_state_sha256`). A dropped, added,
    reordered or altered action fails one of these."""
    if not isinstance(replay, dict):
        return Verdict(False, "the replay is not a JSON object")
    for key in REQUIRED_KEYS:
        if key not in replay:
            return Verdict(False, f"the replay has no '{key}' (is the game over?)")
    if not isinstance(replay["actions"], list):
        return Verdict(False, "'actions' is not a list")
    final_version = replay["final_version"]
    if not isinstance(final_version, int) or isinstance(final_version, bool):
        return Verdict(False, "'final_version' is not an integer")
    if commitment(replay["seed"], replay["salt"]) != replay["seed_hash"]:
        return Verdict(False, "the seed does not match the commitment published when the game started")
    try:
        state = rebuild(replay["ruleset"], replay["seats"], replay["options"], replay["seed"], replay["actions"])
    except Exception as error:  # an illegal action in the log is exactly what this check reports
        return Verdict(False, f"the actions do not replay from the seed: {error}")
    count = len(replay["actions"])
    if count != final_version:
        return Verdict(False, f"the replay ends at version {count} but the game ended at version {final_version}: "
                              f"{abs(final_version - count)} action(s) {'missing' if count < final_version else 'too many'}")
    digest = state_digest(state)
    if digest != replay["final_state_sha256"]:
        return Verdict(False, f"the replayed final state (sha256 {digest}) is not the published final state "
                              f"(final_state_sha256 {replay['final_state_sha256']}): an action was altered or reordered")
    engine = get_ruleset(replay["ruleset"])
    ranking = engine.ranking(state)
    return Verdict(True, f"seed matches its commitment; {count} actions replay to version {final_version} and the "
                         f"published final state (sha256 {digest[:12]}...); ranking {ranking}")
