"""Card tests, part 2: the characters the first card tests left out (rules/lcg.md §2.5-2.8), one
test per card ability, named after the card, citing the rules they lean on."""
from __future__ import annotations

import pytest

from games.engine import EngineError
from games.engine.lcg import abilities as A
from games.engine.lcg import flow
from games.engine.lcg import table as T
from tests.engine.lcg_helpers import R, act, attack, game, uid, until

# ---------------------------------------------------------------- neutral


def test_varys_removes_himself_and_discards_every_character_when_dominance_ends_L91():
    s = game({"characters": ["varys", "eddard_stark"]}, {"characters": ["burned_men"]}, start="dominance")
    s = until(s, lambda s: R.pending(s) == {"p1": "interrupt"})
    s, _ = act(s, "p1", {"trigger": "varys"})
    assert R.summary(s)["characters"] == {"p1": [], "p2": []}
    assert R.summary(s)["discard"]["p2"] == ["burned_men"] and "varys" not in R.summary(s)["discard"]["p1"]
    assert [T.cid(s, u) for u in s["players"]["p1"]["removed"]] == ["varys"]


def test_rattleshirts_raiders_discard_an_attachment_of_the_loser_after_winning_as_attacker_L91():
    s = game({"characters": ["rattleshirts_raiders"]},
             {"characters": [{"card": "tywin_lannister", "kneeling": True, "attachments": ["little_bird"]}]})
    s, _ = attack(s, "p1", "military", ["rattleshirts_raiders"])
    s = until(s, lambda s: "reaction" in R.pending(s).values() or s["phase"] != "challenges")
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": {"card": "rattleshirts_raiders", "targets": [{"card": "little_bird", "seat": "p2"}]}})
    assert R.summary(s)["discard"]["p2"] == ["little_bird"]


# ---------------------------------------------------------------- greyjoy


def test_aeron_damphair_brings_an_ironborn_back_from_the_dead_pile_after_winning_dominance_L77():
    s = game({"faction": "greyjoy", "characters": ["aeron_damphair"], "dead": ["theon_greyjoy"]}, {},
             start="dominance")
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    s, _ = act(s, "p1", {"trigger": {"card": "aeron_damphair", "targets": [{"card": "theon_greyjoy", "zone": "dead"}]}})
    assert "theon_greyjoy" in R.summary(s)["characters"]["p1"] and R.summary(s)["dead"]["p1"] == []


def test_alannys_greyjoy_lowers_the_opponents_reserve_while_you_are_first_player_L157():
    s = game({"faction": "greyjoy", "characters": ["alannys_greyjoy"]}, {})
    assert R.summary(s)["reserve"] == {"p1": 5, "p2": 4}  # The Winds of Winter: reserve 5
    s = game({"faction": "greyjoy", "characters": ["alannys_greyjoy"]}, {}, first="p2")
    assert R.summary(s)["reserve"] == {"p1": 5, "p2": 5}


def test_asha_greyjoy_stands_after_an_unopposed_win_L91_L182():
    s = game({"faction": "greyjoy", "characters": ["asha_greyjoy"]}, {})
    s, _ = attack(s, "p1", "power", ["asha_greyjoy"])
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    assert s["inplay"][uid(s, "p1", "asha_greyjoy")]["kneeling"]
    s, _ = act(s, "p1", {"trigger": "asha_greyjoy"})
    assert not s["inplay"][uid(s, "p1", "asha_greyjoy")]["kneeling"]


def test_balon_greyjoy_defenders_weaker_than_him_contribute_no_str_L153():
    s = game({"faction": "greyjoy", "characters": ["balon_greyjoy"]}, {"characters": ["tywin_lannister", "burned_men"]})
    s, _ = attack(s, "p1", "military", ["balon_greyjoy"], ["burned_men", "tywin_lannister"])
    ch = s["challenge"]
    assert ch["strength"]["p2"] == 6 and ch["winner"] == "p2"  # Tywin 6 counts, the Burned Men's 4 do not


def test_euron_crows_eye_takes_a_location_from_the_losers_discard_after_pillage_L199():
    s = game({"faction": "greyjoy", "characters": ["euron_crows_eye"]},
             {"discard": ["the_kingsroad"], "deck": ["blank"]})
    s, _ = attack(s, "p1", "power", ["euron_crows_eye"])
    s = until(s, lambda s: "pillage" in R.pending(s).values())
    s, _ = act(s, "p1", {"pillage": ["euron_crows_eye"]})
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": {"card": "euron_crows_eye",
                                     "targets": [{"card": "the_kingsroad", "zone": "discard", "seat": "p2"}]}})
    assert R.summary(s)["locations"]["p1"] == ["the_kingsroad"]


def test_theon_greyjoy_gains_power_after_an_unopposed_win_L91():
    s = game({"faction": "greyjoy", "characters": ["theon_greyjoy"]}, {})
    s, _ = attack(s, "p1", "military", ["theon_greyjoy"])
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    s, _ = act(s, "p1", {"trigger": "theon_greyjoy"})
    assert s["inplay"][uid(s, "p1", "theon_greyjoy")]["power"] == 1


@pytest.mark.parametrize("reducer,faction,card,cheaper", [
    ("iron_islands_fishmonger", "greyjoy", "theon_greyjoy", 3),
    ("lannisport_merchant", "lannister", "cersei_lannister", 3),
    ("garden_caretaker", "tyrell", "maester_lomys", 2),
])
def test_iron_islands_fishmonger_lannisport_merchant_garden_caretaker_reduce_a_character_L88(
        reducer, faction, card, cheaper):
    s = game({"faction": faction, "characters": [reducer], "hand": [card, "the_roseroad"]}, {}, start="marshaling")
    hand = s["players"]["p1"]["hand"]
    s, _ = act(s, "p1", {"trigger": reducer})
    assert s["inplay"][uid(s, "p1", reducer)]["kneeling"]
    assert A.marshal_cost(s, "p1", hand[0]) == cheaper
    assert A.marshal_cost(s, "p1", hand[1]) == 0  # a location is not reduced (cost 0 anyway)


def test_lordsport_shipwright_kneels_a_location_of_cost_3_when_first_player_L88():
    s = game({"faction": "greyjoy", "characters": ["lordsport_shipwright"]}, {"locations": ["lannisport"]},
             start="marshaling")
    s, ev = act(s, "p1", {"trigger": {"card": "lordsport_shipwright", "targets": [{"card": "lannisport", "seat": "p2"}]}})
    assert {"type": "kneel", "seat": "p2", "card": "lannisport", "reason": "lordsport_shipwright"} in ev
    s = game({"faction": "greyjoy", "characters": ["lordsport_shipwright"]}, {"locations": ["lannisport"]},
             start="marshaling", first="p2")
    assert not A.candidates(s, {"seat": "p1"}, "shipwright_location")


# ---------------------------------------------------------------- lannister


def test_cersei_lannister_raises_the_intrigue_claim_while_attacking_L183():
    for attacker, left in (("cersei_lannister", 1), ("the_tickler", 2)):
        s = game({"characters": ["eddard_stark"], "hand": ["blank"] * 4},
                 {"characters": [attacker]}, first="p2")
        s, _ = attack(s, "p2", "intrigue", [attacker])
        s = until(s, lambda s: len(s["players"]["p1"]["hand"]) < 4)
        assert len(s["players"]["p1"]["hand"]) == left  # The Winds of Winter's claim 2, +1 with Cersei


def test_the_tickler_discards_the_top_card_and_a_copy_in_play_L88():
    s = game({"characters": ["burned_men"], "deck": ["burned_men"]}, {"characters": ["the_tickler"]},
             start="dominance", first="p2")
    s = until(s, lambda s: R.pending(s) == {"p2": "action"})
    s, _ = act(s, "p2", {"trigger": "the_tickler"})
    assert R.summary(s)["discard"]["p1"] == ["burned_men"]
    s, _ = act(s, "p2", {"choose": {"card": "burned_men", "seat": "p1"}})
    assert R.summary(s)["characters"]["p1"] == [] and R.summary(s)["discard"]["p1"] == ["burned_men", "burned_men"]


def test_the_queens_assassin_after_ambush_makes_the_opponent_kill_a_character_L192():
    s = game({"characters": ["burned_men"]},
             {"hand": ["the_queens_assassin", "blank", "blank"], "gold": 4}, first="p2")
    s, _ = act(s, "p2", {"ambush": "the_queens_assassin"})
    assert R.pending(s) == {"p2": "reaction"}
    s, _ = act(s, "p2", {"trigger": "the_queens_assassin"})
    assert R.summary(s)["dead"]["p1"] == ["burned_men"]


# ---------------------------------------------------------------- stark


def test_arya_stark_takes_the_top_card_as_a_duplicate_and_has_a_military_icon_L220():
    s = game({"hand": ["arya_stark"], "gold": 3, "deck": ["burned_men"]}, {}, start="marshaling")
    s, _ = act(s, "p1", {"marshal": "arya_stark"})
    u = uid(s, "p1", "arya_stark")
    assert not A.has_icon(s, u, "military")
    s, _ = act(s, "p1", {"trigger": "arya_stark"})
    assert len(s["inplay"][u]["duplicates"]) == 1 and A.has_icon(s, u, "military")


def test_vanguard_of_the_north_does_not_kneel_attacking_in_military_with_a_war_plot():
    s = game({}, {"characters": ["vanguard_of_the_north"], "plot": "reinforcements"}, first="p2")  # War
    s, _ = attack(s, "p2", "military", ["vanguard_of_the_north"])
    assert not s["inplay"][uid(s, "p2", "vanguard_of_the_north")]["kneeling"]
    s = game({"characters": ["vanguard_of_the_north"]}, {"characters": ["burned_men"]})  # Winds of Winter: no War
    s, _ = act(s, "p1", {"challenge": {"type": "military", "attackers": ["vanguard_of_the_north"]}})
    assert s["inplay"][uid(s, "p1", "vanguard_of_the_north")]["kneeling"]


# ---------------------------------------------------------------- tyrell


def test_maester_lomys_discards_a_random_card_after_defending_an_intrigue_challenge_L91():
    s = game({"faction": "tyrell", "characters": ["maester_lomys"]},
             {"characters": ["the_tickler"], "hand": ["blank", "blank"]}, first="p2")
    s, _ = attack(s, "p2", "intrigue", ["the_tickler"], ["maester_lomys"])
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    s, _ = act(s, "p1", {"trigger": "maester_lomys"})
    assert len(s["players"]["p2"]["hand"]) == 1 and R.summary(s)["discard"]["p2"] == ["blank"]


def test_paxter_redwyne_the_first_event_each_round_costs_1_less_L123():
    s = game({"faction": "tyrell", "characters": ["paxter_redwyne"], "hand": ["growing_strong", "growing_strong"]}, {})
    hand = s["players"]["p1"]["hand"]
    assert A.event_cost(s, "p1", hand[0]) == 0
    s, _ = act(s, "p1", {"play": {"card": "growing_strong", "targets": ["paxter_redwyne"]}})
    assert A.event_cost(s, "p1", s["players"]["p1"]["hand"][0]) == 1


def test_randyll_tarly_stands_after_a_card_effect_raises_his_str_limit_twice_per_phase_L162():
    s = game({"faction": "tyrell", "characters": [{"card": "randyll_tarly", "kneeling": True}, "margaery_tyrell"]}, {})
    s, _ = act(s, "p1", {"trigger": {"card": "margaery_tyrell", "targets": ["randyll_tarly"]}})
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": "randyll_tarly"})
    assert not s["inplay"][uid(s, "p1", "randyll_tarly")]["kneeling"]
    assert s["limits"]["phase"][f"{uid(s, 'p1', 'randyll_tarly')}:0"] == 1


def test_the_queen_of_thorns_puts_a_tyrell_character_from_hand_into_play_after_an_intrigue_win():
    s = game({"faction": "tyrell", "characters": ["the_queen_of_thorns"], "hand": ["randyll_tarly", "paxter_redwyne"]},
             {})
    s, _ = attack(s, "p1", "intrigue", ["the_queen_of_thorns"])
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    opts = R.legal_actions(s, "p1")
    assert {"trigger": {"card": "the_queen_of_thorns#1",
                        "targets": [{"card": "randyll_tarly", "zone": "hand"}]}} in opts
    s, _ = act(s, "p1", {"trigger": {"card": "the_queen_of_thorns", "targets": [{"card": "randyll_tarly", "zone": "hand"}]}})
    assert "randyll_tarly" in R.summary(s)["characters"]["p1"]


def test_olennas_informant_names_a_type_for_an_extra_challenge_after_entering_in_challenges_L72():
    s = game({"faction": "tyrell", "characters": ["margaery_tyrell"], "hand": ["olennas_informant"], "gold": 4}, {})
    s, _ = act(s, "p1", {"ambush": "olennas_informant"})
    s, _ = act(s, "p1", {"trigger": "olennas_informant"})
    assert R.pending(s) == {"p1": "choose"}
    s, _ = act(s, "p1", {"choose": "power"})
    assert {"seat": "p1", "extra_challenge": "power", "until": "phase"}.items() <= s["lasting"][-1].items() or \
        any(e.get("extra_challenge") == "power" for e in s["lasting"])
    s["players"]["p1"]["challenges"] = ["power"]  # one power challenge made: a second is allowed
    assert "power" in flow.can_challenge(s, "p1")


def test_wardens_of_the_reach_get_1_str_per_reach_location_L153():
    s = game({"faction": "tyrell", "characters": ["wardens_of_the_reach"], "locations": ["highgarden", "rose_garden",
                                                                                           "the_kingsroad"]}, {})
    assert A.strength(s, uid(s, "p1", "wardens_of_the_reach")) == 5


def test_grey_wind_refuses_a_target_with_more_than_1_str_L136():
    s = game({"characters": ["grey_wind"]}, {"characters": ["tywin_lannister"]})
    with pytest.raises(EngineError):
        act(s, "p1", {"trigger": {"card": "grey_wind", "targets": ["tywin_lannister"]}})


# ---------------------------------------------------------------- second abilities of cards tested for their first


def test_sansa_stark_gains_a_faction_power_when_she_stands_L80():
    s = game({"characters": [{"card": "sansa_stark", "kneeling": True}]}, {}, start="standing")
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    s, ev = act(s, "p1", {"trigger": "sansa_stark"})
    assert s["players"]["p1"]["faction_power"] == 1


def test_summer_returns_a_stark_character_with_str_2_or_less_from_the_discard_pile_L91():
    s = game({"hand": ["summer"], "gold": 3, "discard": ["arya_stark", "eddard_stark"]}, {}, start="marshaling")
    s, _ = act(s, "p1", {"marshal": "summer"})
    assert {"trigger": {"card": "summer#1", "targets": [{"card": "eddard_stark", "zone": "discard"}]}} \
        not in R.legal_actions(s, "p1")
    s, _ = act(s, "p1", {"trigger": {"card": "summer", "targets": [{"card": "arya_stark", "zone": "discard"}]}})
    assert "arya_stark" in R.summary(s)["hand"]["p1"] and R.summary(s)["discard"]["p1"] == ["eddard_stark"]


def test_great_kraken_draws_or_gains_power_after_an_unopposed_win_L91():
    s = game({"faction": "greyjoy", "characters": ["theon_greyjoy"], "locations": ["great_kraken"]}, {})
    s, _ = attack(s, "p1", "military", ["theon_greyjoy"])
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    s, _ = act(s, "p1", {"trigger": "great_kraken"})
    assert R.pending(s) == {"p1": "choose"}
    before = s["players"]["p1"]["faction_power"]
    s, _ = act(s, "p1", {"choose": 1})
    assert s["players"]["p1"]["faction_power"] == before + 1


def test_ice_is_sacrificed_to_kill_a_character_of_the_loser_after_a_military_win_L217():
    s = game({"characters": [{"card": "eddard_stark", "attachments": ["ice"]}]},
             {"characters": ["burned_men", "the_tickler"]})
    s, _ = attack(s, "p1", "military", ["eddard_stark"], ["burned_men"])
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    s, _ = act(s, "p1", {"trigger": {"card": "ice", "targets": [{"card": "the_tickler", "seat": "p2"}]}})
    assert "the_tickler" in R.summary(s)["dead"]["p2"] and R.summary(s)["discard"]["p1"] == ["ice"]
