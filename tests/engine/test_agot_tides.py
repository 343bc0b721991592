"""Tides of Battle (R297-R304) and the Valyrian Steel Blade's edge cases (R228, R299, A15, A16) with
house card texts: who is asked, when, and what a redraw spends."""
from __future__ import annotations

from typing import Any

from games.engine.base import get_ruleset

RS = get_ruleset("agot")
SIX = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]


def battle(att: str, dfn: str, fief: list[str], tides: list[str] | None = None, used: bool = False) -> dict:
    rest = [h for h in SIX if h not in (att, dfn)]
    setup: dict[str, Any] = {
        "units": {"stoney_sept": {att: ["knight", "footman"]}, "blackwater": {dfn: ["footman", "knight"]},
                  "the_eyrie": {rest[0]: ["footman"]}},
        "garrisons": {}, "neutral_forces": {},
        "tracks": {"iron_throne": [att, dfn, *rest], "fiefdoms": fief, "kings_court": [att, dfn, *rest]},
        "orders": {"stoney_sept": {att: "march+0"}, "the_eyrie": {rest[0]: "march-1"}},
        "used": {"valyrian_steel_blade": used},
    }
    options = {"tides_of_battle": tides is not None}
    if tides:
        setup["decks"] = {"tides": tides}
    state = RS.scenario_game(SIX, options, 3, setup, "action")
    state, _ = RS.apply(state, att, {"march": {"from": "stoney_sept", "moves": {"blackwater": ["knight", "footman"]}}})
    return state


def play(state: dict, *acts: tuple[str, dict]) -> dict:
    for seat, a in acts:
        state, _ = RS.apply(state, seat, a)
    return state


OUTSIDE = ["tyrell", "stark", "lannister", "greyjoy", "baratheon", "martell"]  # Tyrell holds the blade
LANNISTER_HOLDS = ["lannister", "stark", "greyjoy", "tyrell", "baratheon", "martell"]


def test_r228_holder_outside_the_combat_is_never_asked_with_or_without_tides() -> None:
    for tides in (None, ["zero", "zero"]):
        state = play(battle("lannister", "stark", OUTSIDE, tides), ("lannister", {"house_card": "the_hound"}),
                     ("stark", {"house_card": "eddard_stark"}))
        assert state["combat"]["winner"] == "stark"
        assert state["used"]["valyrian_steel_blade"] is False


def test_r228_a_blade_used_this_round_is_not_offered_not_even_as_a_redraw() -> None:
    state = play(battle("lannister", "stark", LANNISTER_HOLDS, ["zero", "zero"], used=True),
                 ("lannister", {"house_card": "the_hound"}), ("stark", {"house_card": "eddard_stark"}))
    assert "blade" not in RS.pending(state).values() and "blade_redraw" not in RS.pending(state).values()
    assert state["combat"]["winner"] == "stark"


def test_a15_a_declined_redraw_leaves_the_plus_one() -> None:
    state = play(battle("lannister", "stark", LANNISTER_HOLDS, ["zero", "zero"]),
                 ("lannister", {"house_card": "ser_jaime_lannister"}), ("stark", {"house_card": "greatjon_umber"}))
    assert RS.pending(state) == {"lannister": "blade_redraw"}
    state = play(state, ("lannister", {"blade": False}))
    assert RS.pending(state) == {"lannister": "blade"}  # 5 - 5: Lannister already wins the tie on Fiefdoms
    assert RS.default_action(state, "lannister") == {"blade": False}
    state = play(state, ("lannister", {"blade": True}))
    assert state["combat"]["strength"] == {"lannister": 6, "stark": 5} and state["used"]["valyrian_steel_blade"]


def test_a15_a_redraw_spends_the_blade_no_plus_one_follows() -> None:
    state = play(battle("lannister", "stark", LANNISTER_HOLDS, ["zero", "zero", "three"]),
                 ("lannister", {"house_card": "the_hound"}), ("stark", {"house_card": "eddard_stark"}),
                 ("lannister", {"blade": True}))
    assert state["combat"]["tides"] == {"lannister": "three", "stark": "zero"}
    assert state["combat"]["strength"] == {"lannister": 8, "stark": 7}
    assert "blade" not in RS.pending(state).values()


def test_r287_doran_hands_over_a_used_blade_used() -> None:
    """Doran moves Lannister (blade holder, blade used) to the bottom of Fiefdoms: Martell holds it,
    still used, and is not asked."""
    fief = ["lannister", "martell", "stark", "greyjoy", "tyrell", "baratheon"]
    state = play(battle("lannister", "martell", fief, used=True), ("lannister", {"house_card": "cersei_lannister"}),
                 ("martell", {"house_card": "doran_martell"}), ("martell", {"choose": "fiefdoms"}))
    assert state["tracks"]["fiefdoms"][0] == "martell" and state["used"]["valyrian_steel_blade"] is True
    assert state["combat"]["winner"] == "martell"
    assert "blade" not in RS.pending(state).values()


def test_r298_tides_are_drawn_after_a_tyrion_replacement() -> None:
    state = play(battle("greyjoy", "lannister", OUTSIDE, ["two", "zero"]),
                 ("greyjoy", {"house_card": "euron_crows_eye"}), ("lannister", {"house_card": "tyrion_lannister"}))
    assert "tides" not in state["secret"].get("greyjoy", {})  # not before the immediate texts
    state = play(state, ("lannister", {"choose": True}), ("greyjoy", {"house_card": "dagmar_cleftjaw"}))
    assert state["combat"]["cards"]["greyjoy"] == "dagmar_cleftjaw"
    assert state["combat"]["tides"] == {"greyjoy": "two", "lannister": "zero"}
    assert state["combat"]["strength"] == {"greyjoy": 3 + 1 + 2, "lannister": 3 + 1}


def test_a16_every_combat_draws_from_the_whole_deck() -> None:
    state = play(battle("lannister", "stark", OUTSIDE, []), ("lannister", {"house_card": "the_hound"}),
                 ("stark", {"house_card": "eddard_stark"}))
    assert len(state["decks"]["tides"]) == 24
    assert sorted(state["decks"]["tides"]) == sorted(battle("lannister", "stark", OUTSIDE, [])["decks"]["tides"])
