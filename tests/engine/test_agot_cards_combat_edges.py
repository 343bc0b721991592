"""Combat edge cases found by the 1,000-game simulations (manage.py simulate --tides)."""
from __future__ import annotations

from games.engine.agot import bot
from games.engine.base import get_ruleset

RS = get_ruleset("agot")
SIX = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]


def test_a14_a19_units_returning_from_a_neutral_force_respect_supply() -> None:
    """Baratheon's March from Dragonstone (three Knights) sends one into King's Landing (neutral force
    5) and one to Crackclaw Point, where it forms an army of two. Nobody supports: the force holds
    and the first Knight must go back to Dragonstone, which would make a fourth army of two at
    supply 2 ([2, 2, 2, 2]): it is destroyed instead (A19 applied to A14)."""
    setup = {
        "units": {"dragonstone": {"baratheon": ["knight", "knight", "knight"]}, "crackclaw_point": {"baratheon": ["footman"]},
                  "shipbreaker_bay": {"baratheon": ["ship", "ship"]}, "port_of_dragonstone": {"baratheon": ["ship", "ship"]},
                  "blackwater_bay": {"baratheon": ["ship"]}, "the_reach": {"lannister": ["knight", "knight"]}},
        "garrisons": {}, "neutral_forces": {"kings_landing": 5}, "supply": {"baratheon": 2},
        "tracks": {"iron_throne": ["baratheon", *[h for h in SIX if h != "baratheon"]], "fiefdoms": SIX, "kings_court": SIX},
        "orders": {"dragonstone": {"baratheon": "march+0"}, "blackwater_bay": {"baratheon": "support+0"},
                   "the_reach": {"lannister": "support+0"}},
    }
    state = RS.scenario_game(SIX, {}, 1, setup, "action")
    bot.check_invariants(state)
    state, _ = RS.apply(state, "baratheon", {"march": {"from": "dragonstone",
                                                        "moves": {"kings_landing": ["knight"], "crackclaw_point": ["knight"]}}})
    for seat in ("baratheon", "lannister"):
        if RS.pending(state).get(seat) == "support":
            state, _ = RS.apply(state, seat, {"support": {"for": None}})
    assert state["neutral_forces"]["kings_landing"] == 5
    assert state["units"]["dragonstone"] == {"baratheon": ["knight"]}
    assert sorted(state["units"]["crackclaw_point"]["baratheon"]) == ["footman", "knight"]
    bot.check_invariants(state)
