"""`manage.py verify_replay`: a finished game's fairness payload publishes its final version and the
SHA-256 of its final state, and the check replays the actions to exactly there. A truncated,
reordered or altered action list is refused with a clear message and a non-zero exit."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from games.models import Game
from games.replay import canonical_json, state_digest, verify_published
from tests.factories import api_client_for, make_game, make_user

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent


def published(game: Game) -> dict:
    return api_client_for(make_user()).get(reverse("api-game-fairness", args=[game.id])).json()


@pytest.fixture
def finished() -> tuple[Game, dict]:
    """An AGoT game the bots played to its end, and its fairness payload."""
    game = make_game(users=[None, None, None])
    game.refresh_from_db()
    assert game.status == "finished" and game.version > 20
    return game, published(game)


def verify(tmp_path: Path, payload: dict) -> str:
    path = tmp_path / "fairness.json"
    path.write_text(json.dumps(payload))
    out = tmp_path / "out.txt"
    with out.open("w") as handle:
        call_command("verify_replay", str(path), stdout=handle)
    return out.read_text()


def test_the_payload_publishes_the_final_version_and_state_hash_only_once_the_game_ended(finished):
    game, payload = finished
    assert payload["final_version"] == game.version == len(payload["actions"])
    assert payload["final_state_sha256"] == state_digest(game.state)
    # one canonical form: sorted keys, compact separators
    assert canonical_json({"b": 1, "a": [1, {"d": 2, "c": None}]}) == '{"a":[1,{"c":null,"d":2}],"b":1}'
    ongoing = published(make_game())
    assert "final_version" not in ongoing and "final_state_sha256" not in ongoing and "actions" not in ongoing


def test_the_genuine_payload_verifies(finished, tmp_path):
    game, payload = finished
    out = verify(tmp_path, payload)
    assert out.startswith("VERIFIED") and f"to version {game.version}" in out


def test_a_list_truncated_by_five_actions_fails(finished, tmp_path):
    _game, payload = finished
    payload["actions"] = payload["actions"][:-5]
    with pytest.raises(CommandError, match="NOT VERIFIED: .*5 action.s. missing"):
        verify(tmp_path, payload)


def test_a_truncated_list_with_a_matching_final_version_still_fails_on_the_state_hash(finished, tmp_path):
    _game, payload = finished
    payload["actions"] = payload["actions"][:-5]
    payload["final_version"] -= 5
    with pytest.raises(CommandError, match="NOT VERIFIED: the replayed final state .* is not the published final state"):
        verify(tmp_path, payload)


def test_reordered_actions_fail(finished, tmp_path):
    _game, payload = finished
    actions = payload["actions"]
    actions[-1], actions[-2] = actions[-2], actions[-1]
    assert not verify_published(payload).ok
    actions.insert(0, actions.pop())  # the last action played first: illegal or a different game
    with pytest.raises(CommandError, match="NOT VERIFIED"):
        verify(tmp_path, payload)


def test_an_altered_action_fails(finished, tmp_path):
    _game, payload = finished
    # the same seat's action moved to another point of the game (same count, same version)
    actions = payload["actions"]
    last_of_first_seat = max(i for i, a in enumerate(actions) if a["seat"] == actions[0]["seat"])
    actions[0] = dict(actions[last_of_first_seat])
    with pytest.raises(CommandError, match="NOT VERIFIED"):
        verify(tmp_path, payload)


def test_an_altered_hash_or_version_fails(finished, tmp_path):
    _game, payload = finished
    wrong_hash = dict(payload, final_state_sha256="0" * 64)
    assert "not the published final state" in verify_published(wrong_hash).message
    wrong_version = dict(payload, final_version=payload["final_version"] + 1)
    assert "1 action(s) missing" in verify_published(wrong_version).message
    old_format = {k: v for k, v in payload.items() if k != "final_state_sha256"}
    assert verify_published(old_format).message == "the replay has no 'final_state_sha256' (is the game over?)"


def test_a_btwixt_game_verifies_and_its_truncation_fails(tmp_path):
    game = make_game(4, ruleset="btwixt", users=[None] * 4)
    game.refresh_from_db()
    assert game.status == "finished"
    payload = published(game)
    assert verify(tmp_path, payload).startswith("VERIFIED")
    payload["actions"] = payload["actions"][:-5]
    assert not verify_published(payload).ok


def test_the_command_exits_non_zero_with_the_reason_on_stderr(finished, tmp_path):
    _game, payload = finished
    good = tmp_path / "good.json"
    good.write_text(json.dumps(payload))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(payload, actions=payload["actions"][:-5])))
    env_free = {"PATH": "/usr/bin:/bin", "SECRET_KEY": "x"}  # embedded settings; the check needs no database
    ok = subprocess.run([sys.executable, "manage.py", "verify_replay", str(good)], cwd=ROOT, env=env_free,
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and ok.stdout.startswith("VERIFIED"), ok.stderr
    refused = subprocess.run([sys.executable, "manage.py", "verify_replay", str(bad)], cwd=ROOT, env=env_free,
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode != 0 and "VERIFIED:" not in refused.stdout
    assert "NOT VERIFIED: the replay ends at version" in refused.stderr and "5 action(s) missing" in refused.stderr
