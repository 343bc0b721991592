"""A finished game's replay step costs the same early or late (issue 27): states at every EVERY-th
step are kept in the cache the first time a replay passes them (games/checkpoints.py), and a lost
checkpoint is rebuilt from the seed with the same result."""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import checkpoints
from games.engine import get_ruleset
from games.replay import canonical_json, rebuild
from games.services.play import do_create_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_game():
    cache.clear()
    game = do_create_game(ruleset="agot", seating=dict.fromkeys(get_ruleset("agot").seat_names(3)), seed=11)
    game.refresh_from_db()
    assert not game.is_active() and game.version > 3 * checkpoints.EVERY
    return game


def _from_seed(game, step):
    actions = [{"seat": a.seat, "action": a.action} for a in game.actions.order_by("version")]
    return rebuild(game.ruleset, game.seat_names(), game.options, game.seed, actions, upto=step)


def test_every_step_is_the_state_the_seed_and_actions_give(finished_game):
    game = finished_game
    steps = [0, 1, checkpoints.EVERY - 1, checkpoints.EVERY, checkpoints.EVERY + 1, 2 * checkpoints.EVERY + 7,
             game.version]
    for step in steps:  # first pass fills the cache, second reads the checkpoints
        assert canonical_json(checkpoints.state_after(game, step)) == canonical_json(_from_seed(game, step))
    for step in reversed(steps):
        assert canonical_json(checkpoints.state_after(game, step)) == canonical_json(_from_seed(game, step))
    # the final step is the stored snapshot, in the engine's key order
    assert list(checkpoints.state_after(game, game.version)) == list(game.state)


def test_a_late_step_reads_at_most_every_actions_once_checkpointed(finished_game):
    game = finished_game
    late = game.version - 1
    checkpoints.state_after(game, late)  # passes (and keeps) every checkpoint on the way
    cache.delete(checkpoints._step_key(game, late))  # the step itself kept: not what this test reads
    with CaptureQueriesContext(connection) as queries:
        state = checkpoints.state_after(game, late)
    reads = [q["sql"] for q in queries.captured_queries if "games_gameaction" in q["sql"]]
    assert len(reads) == 1 and "version" in reads[0]
    # the rows read are only those after the checkpoint
    read_rows = game.actions.filter(version__gt=late - late % checkpoints.EVERY, version__lte=late).count()
    assert read_rows < checkpoints.EVERY
    assert canonical_json(state) == canonical_json(_from_seed(game, late))


def test_a_lost_checkpoint_is_rebuilt_from_the_seed(finished_game):
    game = finished_game
    step = 2 * checkpoints.EVERY + 3
    before = canonical_json(checkpoints.state_after(game, step))
    cache.clear()
    assert canonical_json(checkpoints.state_after(game, step)) == before


def test_another_games_checkpoints_are_never_read(finished_game):
    game = finished_game
    # the key names the game, its seed's commitment and its final version
    other = do_create_game(ruleset="agot", seating=dict.fromkeys(get_ruleset("agot").seat_names(3)), seed=12)
    other.refresh_from_db()
    checkpoints.state_after(other, checkpoints.EVERY)
    assert canonical_json(checkpoints.state_after(game, checkpoints.EVERY)) == \
        canonical_json(_from_seed(game, checkpoints.EVERY))


def test_active_games_have_no_checkpoints(finished_game):
    from tests.factories import make_game

    with pytest.raises(ValueError):
        checkpoints.state_after(make_game(), 0)


def test_the_replay_page_step_counts_and_late_steps(client, finished_game):
    game = finished_game
    last = client.get(reverse("web-replay-step", args=[game.pk, game.version])).json()
    assert last["steps"] == game.version == game.actions.count()
    assert last["view"] == get_ruleset("agot").view(game.state, None)
    assert client.get(reverse("web-replay-step", args=[game.pk, game.version + 1])).status_code == 404
    assert client.get(reverse("web-replay-step", args=[game.pk, game.version - 5])).json()["entry"]["version"] == \
        game.version - 5


def test_a_step_the_engine_no_longer_replays_is_said_in_words_not_a_server_error(client, finished_game):
    """A stored action the engine refuses today (a log from before a rules change that no revision
    keeps): the step answers 409 with a sentence, in the reader's language, never a 500."""
    game = finished_game
    record = game.actions.get(version=2)
    record.action = {"no_such_action": True}
    record.save(update_fields=["action"])
    response = client.get(reverse("web-replay-step", args=[game.pk, game.version]))
    assert response.status_code == 409
    assert response.json()["error"] == "not_replayable"
    assert "can no longer be replayed" in response.json()["detail"]
    spanish = client.get(reverse("web-replay-step", args=[game.pk, game.version]), HTTP_ACCEPT_LANGUAGE="es")
    assert spanish.status_code == 409 and "ya no se puede" in spanish.json()["detail"]


def test_a_step_shown_again_reads_no_action_and_the_next_step_reads_one(finished_game):
    """The state after a step shown is kept for a while (issue 27): asked again it is that state alone,
    and the next step replays one action from it; both are the state the seed and actions give."""
    game = finished_game
    step = 2 * checkpoints.EVERY + 7
    checkpoints.state_after(game, step)
    with CaptureQueriesContext(connection) as queries:
        again = checkpoints.state_after(game, step)
    assert not [q for q in queries.captured_queries if "games_gameaction" in q["sql"]]
    assert canonical_json(again) == canonical_json(_from_seed(game, step))
    with CaptureQueriesContext(connection) as queries:
        forward = checkpoints.state_after(game, step + 1)
    reads = [q["sql"] for q in queries.captured_queries if "games_gameaction" in q["sql"]]
    assert len(reads) == 1
    assert canonical_json(forward) == canonical_json(_from_seed(game, step + 1))
    # a copy lost is rebuilt from the checkpoint, with the same state
    cache.delete(checkpoints._step_key(game, step))
    assert canonical_json(checkpoints.state_after(game, step)) == canonical_json(_from_seed(game, step))
