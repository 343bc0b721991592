"""R37: a march that takes a seventh castle ends the game at once; its March order goes with it
(R146: a resolved March is removed), so no order is left on an area its units have left."""
from __future__ import annotations

from games.engine.agot import bot
from tests.engine.agot_helpers import R, act, game, summ


def test_r37_a_winning_march_leaves_no_order_behind():
    state = game({
        "units": {"winterfell": {"stark": ["footman", "knight"]}, "lannisport": {"lannister": ["footman"]},
                  "dragonstone": {"baratheon": ["footman"]}},
        "power_tokens": {"white_harbor": "stark", "flints_finger": "stark", "seagard": "stark",
                         "riverrun": "stark", "harrenhal": "stark"},
        "neutral_forces": {},
        "orders": {"winterfell": {"stark": "march+0"}, "lannisport": {"lannister": "defense+1"},
                   "dragonstone": {"baratheon": "defense+1"}},
        "tracks": {"iron_throne": ["stark", "lannister", "baratheon"]},
    })
    state, events = act(state, "stark", {"march": {"from": "winterfell", "moves": {"moat_cailin": ["footman", "knight"]}}})
    assert R.is_over(state) and summ(state)["winner"] == "stark"
    assert "winterfell" not in state["orders"]
    bot.check_invariants(state)
