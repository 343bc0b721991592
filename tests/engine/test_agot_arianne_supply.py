"""Arianne Martell sends a winning attacker back where it marched from. When the march's other
moves filled the supply there meanwhile, the returning units that no longer fit are destroyed
first, as A19 rules for an attacker's retreat (found by `simulate --players 6 --tides`, seed 901)."""
from __future__ import annotations

from games.engine.agot import bot
from games.engine.agot import supply as S
from tests.engine.agot_helpers import SIX, R, act, game


def play_out(state: dict) -> tuple[dict, list[dict]]:
    """Answer every pending decision with its default until the Action phase moves on."""
    seen: list[dict] = []
    while state["combat"] and state["combat"].get("_current") is not None and R.pending(state):
        seat = sorted(R.pending(state))[0]
        state, events = act(state, seat, R.default_action(state, seat))
        seen += events
    return state, seen


def test_a19_arianne_returns_only_the_units_that_fit_the_supply() -> None:
    state = game({
        "units": {"shipbreaker_bay": {"baratheon": ["ship", "ship", "ship"]}, "dragonstone": {"baratheon": ["footman", "knight"]},
                  "the_fingers": {"baratheon": ["footman", "footman"]},
                  "port_of_dragonstone": {"baratheon": ["ship"]},
                  "east_summer_sea": {"martell": ["ship"]}, "sunspear": {"martell": ["footman"]}},
        "supply": {"baratheon": 2},
        "hands": {"martell": ["arianne_martell"], "baratheon": ["stannis_baratheon"]},
        "orders": {"shipbreaker_bay": {"baratheon": "march+0"}, "sunspear": {"martell": "defense+1"}},
        "tracks": {"iron_throne": ["baratheon", "martell", "stark", "lannister", "greyjoy", "tyrell"]},
        "neutral_forces": {},
    }, seats=SIX)
    # One ship joins the port, one stays, one attacks the lone Martell ship and wins (Stannis, 4):
    # coming home it would make a fourth army of two, over supply 2 (armies 2, 2, 2 fit).
    state, events = act(state, "baratheon", {"march": {"from": "shipbreaker_bay",
                                                       "moves": {"port_of_dragonstone": ["ship"],
                                                                 "east_summer_sea": ["ship"]}}})
    state, more = play_out(state)
    events += more
    ability = [e for e in events if e.get("card") == "arianne_martell" and e["type"] == "card_ability"]
    assert ability, "Arianne's text must have sent the attacker home"
    destroyed = [e for e in events if e["type"] == "units_destroyed" and e["house"] == "baratheon"]
    assert destroyed and destroyed[0]["units"] == ["ship"] and ability[0]["returned"] == []
    assert S.fits(state, "baratheon")
    bot.check_invariants(state)
