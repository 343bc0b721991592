"""A Retreat with nowhere to go (M47, M49, M74): the unit stays where it is, which is not a move, so
M74's "no move ends within 1 in of an enemy" does not apply to it, even when an enemy it is not
engaged with already stands within 1 in (found by `simulate --game minis --games 1000`: seeds 45,
243, 253, 301, 447 and 927) (issue 18)."""
from __future__ import annotations

import pytest

from games.engine import get_ruleset
from games.engine.base import EngineError
from games.engine.minis import bot

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]


def boxed_in(options=None):
    # the Sworn Swords are engaged front to front with the Guardsmen; a second Guardsmen unit stands
    # 0.5 in behind them (not engaged): back, left and right all end within 1 in of an enemy
    units = {"swords": {"card": "10201", "at": [24, 20], "facing": 0},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180, "order_used": True},
             "guards_b": {"card": "10101", "at": [24, 14.7], "facing": 0, "order_used": True}}
    setup = {"units": units, "hands": {"stark": [], "lannister": []}, "dice": [1]}
    s = R.scenario_game(SEATS, options or {}, 1, setup, "activation")
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, events = R.apply(s, "stark", {"retreat": True})
    assert s["last_retreat"] == {"unit": "swords", "roll": 1, "max": 6}
    s["_events"] = events
    return s


def test_a_unit_with_no_legal_retreat_stays_at_once_the_only_legal_answer():
    # SCENARIOS.md "Decisions" (rules revision 2, issue 32): staying is the one legal answer, so the
    # engine takes it and no retreat_move is asked
    s = boxed_in()
    events = s.pop("_events")
    move = next(e for e in events if e["type"] == "move")
    assert move["stays"] and move["at"] == [24, 20]
    bot.check_invariants(s, events)
    assert s["units"]["swords"]["activated"] and R.pending(s) == {"lannister": "activate"}


def test_a_unit_with_no_legal_retreat_stays_and_that_is_not_a_move():
    s = boxed_in({"revision": 1})  # revision 1 asked the stay of its owner
    s.pop("_events")
    with pytest.raises(EngineError, match="1 in or less"):
        R.apply(s, "stark", {"retreat_move": {"direction": "left", "distance": 6}})
    s, events = R.apply(s, "stark", {"retreat_move": {"distance": 0}})
    move = next(e for e in events if e["type"] == "move")
    assert move["stays"] and move["at"] == [24, 20]
    bot.check_invariants(s, events)  # before the fix: "swords ends 0.50 in from guards_b after a retreat"
    assert s["units"]["swords"]["activated"] and R.pending(s) == {"lannister": "activate"}


def test_a_retreat_that_moves_still_may_not_end_within_one_inch():
    s = boxed_in({"revision": 1})
    s.pop("_events")
    s["units"]["guards_b"]["at"] = [24, 12]  # 3.2 in behind: 1 in back is refused, 2 in is legal
    with pytest.raises(EngineError, match="1 in or less"):
        R.apply(s, "stark", {"retreat_move": {"distance": 2.5}})
    s, events = R.apply(s, "stark", {"retreat_move": {"distance": 2}})
    assert not any(e.get("stays") for e in events)
    bot.check_invariants(s, events)


@pytest.mark.parametrize("seed", [45, 927])
def test_simulated_games_where_a_boxed_in_unit_retreated_run_clean(seed):
    result = bot.play_game(seed)  # invariants after every action
    assert result["actions"] > 100
