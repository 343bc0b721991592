"""Timeout defaults (SCENARIOS.md "btwixt", D3-D8): each is legal, deterministic and documented."""
from __future__ import annotations

from games.engine import get_ruleset

R = get_ruleset("btwixt")
SEATS = ["cersei", "tyrion", "olenna"]


def _bidding(setup):
    base = {"hands": {s: [] for s in SEATS}, "current_ally": "eddard_stark"}
    base.update(setup)
    return R.scenario_game(SEATS, {}, 7, base, "bidding")


def test_turn_default_is_kneel_D4():
    st = _bidding({"hands": {"cersei": ["kind_word"], "tyrion": [], "olenna": []}})
    assert R.default_action(st, "cersei") == {"kneel": True}


def test_turn_default_plays_when_kneeling_is_illegal_robert_B19():
    st = _bidding({"hands": {"cersei": ["kind_word", "hedge_knight"], "tyrion": [], "olenna": []},
                   "current_ally": "robert_baratheon"})
    act = R.default_action(st, "cersei")
    assert "play" in act and act in R.legal_actions(st, "cersei")
    assert {"kneel": True} not in R.legal_actions(st, "cersei")


def test_mandatory_choose_default_is_the_first_option_D8():
    """Ser Gregor with two weakest allies (power 2) in his council: the claimer chooses; the default
    takes the first id alphabetically."""
    st = _bidding({"councils": {"cersei-tyrion": {"allies": ["ygritte", "osha", "eddard_stark"]}},
                   "current_ally": "ser_gregor_clegane"})
    st, _ = R.apply(st, "cersei", {"claim": "cersei-tyrion"})
    assert R.pending(st) == {"cersei": "choose"}
    assert R.default_action(st, "cersei") == {"choose": {"ally": "osha"}}
    st, _ = R.apply(st, "cersei", R.default_action(st, "cersei"))
    assert st["dead"] == ["osha"]


def test_optional_choose_default_declines_D5():
    st = _bidding({"councils": {"cersei-tyrion": {"allies": ["eddard_stark"]}}, "current_ally": "theon_greyjoy"})
    st, _ = R.apply(st, "cersei", {"claim": "olenna-cersei"})
    assert R.default_action(st, "cersei") == {"choose": False}


def test_claim_default_lower_estimate_then_next_seat_D6():
    st = _bidding({"councils": {"cersei-tyrion": {"allies": ["khal_drogo"]}}})
    assert R.pending(st) == {"cersei": "claim"}
    assert R.default_action(st, "cersei") == {"claim": "olenna-cersei"}
    st2 = _bidding({"councils": {"olenna-cersei": {"tokens": [1, 1]}, "cersei-tyrion": {"allies": ["ygritte"]}}})
    assert R.default_action(st2, "cersei") == {"claim": "cersei-tyrion"}  # 2 < 2 * 2
    st3 = _bidding({})
    assert R.default_action(st3, "cersei") == {"claim": "cersei-tyrion"}  # tie: the next seat clockwise


def test_keep_default_highest_value_then_lowest_id_D3():
    st = R.scenario_game(SEATS, {"draft": True}, 3, {"decks": {"influence": [
        "kind_word", "royal_wedding", "army_of_the_realm", "hedge_knight", "city_watch", "city_watch",
        "sworn_sword", "silver_stag", "golden_dragon", "token_of_favour"]}}, "round")
    assert R.default_action(st, "cersei") == {"keep": "army_of_the_realm"}
