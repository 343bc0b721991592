"""A card game started before issue 30 keeps its rules (option `revision`, abilities.REVISION): its
action log, recorded by the engine of that time with live windows (`every_window`), replays to the
same end under revision 1. The windows of revision 2 ask fewer seats (prompts.py), so the old log
does not replay under them: a migration marks the games started earlier (games/migrations)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import EngineError, get_ruleset
from games.engine.lcg.abilities import REVISION

R = get_ruleset("lcg")
GAMES = json.loads((Path(__file__).parent / "data" / "lcg_revision1_games.json").read_text())


def replay(game, revision):
    options = dict(game["options"], **({"revision": revision} if revision else {}))
    state = R.new_game(["p1", "p2"], options, game["seed"])
    for seat, action in game["actions"]:
        state, _ = R.apply(state, seat, action)
    return state


@pytest.mark.parametrize("game", GAMES, ids=[f"seed{g['seed']}" for g in GAMES])
def test_a_game_recorded_under_revision_1_replays_to_the_same_end(game):
    state = replay(game, 1)
    assert state["over"] is game["over"] is True
    assert state.get("winner") == game["winner"]
    for seat, recorded in game["players"].items():
        p = state["players"][seat]
        assert (p.get("power"), len(p["hand"]), sorted(p["discard"]), sorted(p["dead"])) == (
            recorded["power"], recorded["hand"], recorded["discard"], recorded["dead"])
    assert sorted(state["inplay"]) == game["inplay"]


def test_the_same_log_does_not_replay_under_the_current_revision():
    """What the revision is for: the current windows ask fewer seats, so an old log's passes fail."""
    with pytest.raises(EngineError):
        replay(GAMES[0], None)


def test_the_revision_option_is_checked_and_a_current_game_does_not_store_it():
    assert "revision" not in R.new_game(["p1", "p2"], {}, 1)["options"]
    assert R.new_game(["p1", "p2"], {"revision": 1}, 1)["options"]["revision"] == 1
    for bad in (0, REVISION + 1, "1", True, None):
        with pytest.raises(EngineError, match="revision"):
            R.new_game(["p1", "p2"], {"revision": bad}, 1)


def test_a_game_of_revision_2_keeps_its_rules_and_a_new_game_takes_revision_3():
    """Revision 3 puts the rules right (issue 30, docs/rules-decisions.md); a game started under
    revision 2 keeps the readings of then, so its log replays (migration 0019 marks those games)."""
    from games.engine.lcg import abilities as A

    assert REVISION == 3
    old = R.new_game(["p1", "p2"], {"revision": 2}, 1)
    assert old["options"]["revision"] == 2 and not A.put_right(old)
    assert A.put_right(R.new_game(["p1", "p2"], {}, 1))
