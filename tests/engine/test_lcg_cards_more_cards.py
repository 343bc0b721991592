"""Card tests, part 3: locations, attachments, events and Summons (rules/lcg.md §2.5-2.8), one
test per card ability, named after the card, citing the rules they lean on."""
from __future__ import annotations

import pytest

from games.engine import EngineError
from games.engine.lcg import abilities as A
from games.engine.lcg import flow
from games.engine.lcg import table as T
from tests.engine.lcg_helpers import R, act, attack, game, uid, until


def standing(s, seat, name):
    return not s["inplay"][uid(s, seat, name)]["kneeling"]


# ---------------------------------------------------------------- plot


def test_summons_adds_a_character_from_the_top_10_cards_to_the_hand_L58():
    s = game({"plots": ["summons", "the_winds_of_winter"], "deck": ["blank", "burned_men", "blank"]},
             {"plots": ["the_winds_of_winter", "a_game_of_thrones"]}, start="plot")
    s, _ = act(s, "p1", {"plot": "summons"})
    s, _ = act(s, "p2", {"plot": "the_winds_of_winter"})
    s, _ = act(s, s["decision"]["seats"][0], {"first_player": "p1"})
    assert R.pending(s) == {"p1": "choose"}
    legal = R.legal_actions(s, "p1")
    assert {"choose": None} in legal and {"choose": {"card": "burned_men", "zone": "deck"}} in legal
    s, ev = act(s, "p1", {"choose": {"card": "burned_men", "zone": "deck"}})
    assert "burned_men" in R.summary(s)["hand"]["p1"]


# ---------------------------------------------------------------- locations


@pytest.mark.parametrize("reducer,faction,card,cost", [
    ("sea_tower", "greyjoy", "theon_greyjoy", 3),
    ("western_fiefdom", "lannister", "lannisport", 2),
    ("heart_tree_grove", "stark", "gates_of_winterfell", 1),
    ("rose_garden", "tyrell", "highgarden", 2),
])
def test_sea_tower_western_fiefdom_heart_tree_grove_rose_garden_reduce_any_card_of_the_faction_L88(
        reducer, faction, card, cost):
    s = game({"faction": faction, "locations": [reducer], "hand": [card, "tywin_lannister"]}, {}, start="marshaling")
    hand = s["players"]["p1"]["hand"]
    s, _ = act(s, "p1", {"trigger": reducer})
    assert A.marshal_cost(s, "p1", hand[0]) == cost
    assert A.marshal_cost(s, "p1", hand[1]) == (6 if faction == "lannister" else 7)


def test_iron_fleet_scout_gives_a_participating_greyjoy_2_str_as_first_player_L149():
    s = game({"faction": "greyjoy", "characters": ["theon_greyjoy"], "locations": ["iron_fleet_scout"]},
             {"characters": ["burned_men"]})
    s, _ = act(s, "p1", {"challenge": {"type": "military", "attackers": ["theon_greyjoy"]}})
    s = until(s, lambda s: R.pending(s) == {"p1": "action"} or s["step"] != "4.1")
    s, _ = act(s, "p1", {"trigger": {"card": "iron_fleet_scout", "targets": ["theon_greyjoy"]}})
    assert A.strength(s, uid(s, "p1", "theon_greyjoy")) == 5


def test_casterly_rock_allows_an_extra_intrigue_challenge_L72():
    s = game({}, {"characters": ["the_tickler"], "locations": ["casterly_rock"]})
    s["players"]["p2"]["challenges"] = ["intrigue"]
    assert "intrigue" in flow.can_challenge(s, "p2")
    s = game({}, {"characters": ["the_tickler"]})
    s["players"]["p2"]["challenges"] = ["intrigue"]
    assert "intrigue" not in flow.can_challenge(s, "p2")


def test_lannisport_draws_a_card_after_winning_an_intrigue_challenge_L91():
    s = game({"characters": ["eddard_stark"]}, {"characters": ["the_tickler"], "locations": ["lannisport"]}, first="p2")
    s, _ = attack(s, "p2", "intrigue", ["the_tickler"])
    s = until(s, lambda s: R.pending(s) == {"p2": "reaction"})
    hand = len(s["players"]["p2"]["hand"])
    s, _ = act(s, "p2", {"trigger": "lannisport"})
    assert len(s["players"]["p2"]["hand"]) == hand + 1


def test_gates_of_winterfell_reveals_the_top_card_and_draws_a_stark_card_L88():
    s = game({"locations": ["gates_of_winterfell"], "deck": ["summer", "burned_men"]}, {"characters": ["burned_men"]})
    s, ev = act(s, "p1", {"trigger": "gates_of_winterfell"})
    assert {"type": "revealed", "seat": "p1", "card": "summer", "reason": "gates_of_winterfell"} in ev
    assert "summer" in R.summary(s)["hand"]["p1"]


def test_highgarden_stands_an_attacker_and_removes_it_from_the_challenge_L149():
    s = game({"faction": "tyrell", "locations": ["highgarden"], "gold": 1, "characters": ["maester_lomys"]},
             {"characters": ["burned_men"]}, first="p2")
    s, _ = act(s, "p2", {"challenge": {"type": "military", "attackers": ["burned_men"]}})
    s = until(s, lambda s: R.pending(s) == {"p1": "action"})
    s, _ = act(s, "p1", {"trigger": {"card": "highgarden", "targets": [{"card": "burned_men", "seat": "p2"}]}})
    u = uid(s, "p2", "burned_men")
    assert not s["inplay"][u]["kneeling"] and s["inplay"][u]["participating"] is None and s["players"]["p1"]["gold"] == 0


def test_the_mander_draws_2_after_winning_by_5_or_more_L91():
    s = game({"faction": "tyrell", "locations": ["the_mander"], "characters": ["randyll_tarly"]}, {})
    s, _ = attack(s, "p1", "power", ["randyll_tarly"])
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    hand = len(s["players"]["p1"]["hand"])
    s, _ = act(s, "p1", {"trigger": "the_mander"})
    assert len(s["players"]["p1"]["hand"]) == hand + 2 and not standing(s, "p1", "the_mander")


# ---------------------------------------------------------------- attachments


def test_seal_of_the_hand_stands_its_character_L128():
    s = game({"characters": [{"card": "eddard_stark", "kneeling": True, "attachments": ["seal_of_the_hand"]}]},
             {"characters": ["burned_men"]})
    s, _ = act(s, "p1", {"trigger": "seal_of_the_hand"})
    assert standing(s, "p1", "eddard_stark")


def test_throwing_axe_is_sacrificed_to_kill_a_defender_L217():
    s = game({"faction": "greyjoy", "characters": [{"card": "euron_crows_eye", "attachments": ["throwing_axe"]}]},
             {"characters": ["burned_men"]})
    s, _ = attack(s, "p1", "military", ["euron_crows_eye"], ["burned_men"])
    s = until(s, lambda s: "reaction" in R.pending(s).values() and R.pending(s) == {"p1": "reaction"})
    s, _ = act(s, "p1", {"trigger": {"card": "throwing_axe", "targets": [{"card": "burned_men", "seat": "p2"}]}})
    assert R.summary(s)["dead"]["p2"] == ["burned_men"] and R.summary(s)["discard"]["p1"] == ["throwing_axe"]


def test_heartsbane_gives_3_str_while_its_character_participates_L149():
    s = game({"faction": "tyrell", "characters": [{"card": "maester_lomys", "attachments": ["heartsbane"]}]},
             {"characters": ["burned_men"]})
    s, _ = act(s, "p1", {"challenge": {"type": "intrigue", "attackers": ["maester_lomys"]}})
    s = until(s, lambda s: R.pending(s) == {"p1": "action"})
    s, _ = act(s, "p1", {"trigger": "heartsbane"})
    assert s["challenge"]["strength"]["p1"] == 6  # 3 + 3 until the challenge ends
    assert A.strength(s, uid(s, "p1", "maester_lomys")) == 3


# ---------------------------------------------------------------- events


def test_superior_claim_gains_2_power_after_a_power_win_by_5_L123():
    s = game({"faction": "tyrell", "characters": ["randyll_tarly"], "hand": ["superior_claim"]}, {})
    s, _ = attack(s, "p1", "power", ["randyll_tarly"])
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    s, ev = act(s, "p1", {"play": "superior_claim"})
    assert {"type": "power", "seat": "p1", "card": "faction", "amount": 2, "reason": "superior_claim"} in ev
    assert R.summary(s)["discard"]["p1"] == ["superior_claim"]


def test_tears_of_lys_poisons_and_kills_at_the_end_of_the_phase_L108():
    s = game({"characters": ["grey_wind"]}, {"characters": ["the_tickler"], "hand": ["tears_of_lys"], "gold": 1},
             first="p2")
    s, _ = attack(s, "p2", "intrigue", ["the_tickler"])
    s = until(s, lambda s: R.pending(s) == {"p2": "reaction"})
    s, _ = act(s, "p2", {"play": {"card": "tears_of_lys", "targets": [{"card": "grey_wind", "seat": "p1"}]}})
    assert s["inplay"][uid(s, "p1", "grey_wind")]["tokens"] == {"poison": 1}
    s = until(s, lambda s: s["phase"] != "challenges")
    assert R.summary(s)["dead"]["p1"] == ["grey_wind"]


def test_the_hands_judgment_cancels_an_opponents_event_L101_L103():
    s = game({"characters": ["eddard_stark"], "hand": ["winter_is_coming"], "gold": 1},
             {"hand": ["the_hands_judgment"], "gold": 1, "characters": ["burned_men"]})
    s, _ = act(s, "p1", {"challenge": {"type": "power", "attackers": ["eddard_stark"]}})
    s = until(s, lambda s: R.pending(s) == {"p1": "action"})
    s, _ = act(s, "p1", {"play": "winter_is_coming"})
    assert R.pending(s) == {"p2": "interrupt"}
    s, ev = act(s, "p2", {"play": "the_hands_judgment"})
    assert any(e["type"] == "cancelled" for e in ev) and s["players"]["p2"]["gold"] == 0  # X = 1
    assert R.summary(s)["discard"]["p1"] == ["winter_is_coming"]


def test_risen_from_the_sea_saves_a_greyjoy_character_and_attaches_L218():
    s = game({"faction": "greyjoy", "characters": ["theon_greyjoy"], "hand": ["risen_from_the_sea"]},
             {"characters": ["tywin_lannister"]}, first="p2")
    s, _ = attack(s, "p2", "military", ["tywin_lannister"])
    s = until(s, lambda s: R.pending(s) == {"p1": "interrupt"})
    s, _ = act(s, "p1", {"play": {"card": "risen_from_the_sea", "targets": ["theon_greyjoy"]}})
    assert R.summary(s)["characters"]["p1"] == ["theon_greyjoy"] and R.summary(s)["attachments"]["p1"] == ["risen_from_the_sea"]
    assert A.strength(s, uid(s, "p1", "theon_greyjoy")) == 4


def test_the_krakens_grasp_a_defender_contributes_no_str_first_player_only_L153():
    s = game({"faction": "greyjoy", "characters": ["theon_greyjoy"], "hand": ["the_krakens_grasp"]},
             {"characters": ["burned_men"]})
    s, _ = attack(s, "p1", "military", ["theon_greyjoy"], ["burned_men"])
    s = until(s, lambda s: R.pending(s) == {"p1": "action"})
    s, _ = act(s, "p1", {"play": {"card": "the_krakens_grasp", "targets": [{"card": "burned_men", "seat": "p2"}]}})
    s = until(s, lambda s: s["challenge"]["winner"] is not None)
    assert s["challenge"]["winner"] == "p1"


def test_we_do_not_sow_discards_a_location_after_an_unopposed_win_L123():
    s = game({"faction": "greyjoy", "characters": ["theon_greyjoy"], "hand": ["we_do_not_sow"], "gold": 1},
             {"locations": ["lannisport"]})
    s, _ = attack(s, "p1", "power", ["theon_greyjoy"])
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    s, _ = act(s, "p1", {"play": {"card": "we_do_not_sow", "targets": [{"card": "lannisport", "seat": "p2"}]}})
    assert R.summary(s)["discard"]["p2"] == ["lannisport"]


def test_the_things_i_do_for_love_returns_a_character_to_hand_kneeling_the_faction_L132():
    s = game({"characters": ["eddard_stark"]},
             {"characters": ["cersei_lannister"], "hand": ["the_things_i_do_for_love"], "gold": 7}, first="p2")
    s, _ = act(s, "p2", {"play": {"card": "the_things_i_do_for_love", "x": 7, "targets": [{"card": "eddard_stark", "seat": "p1"}]}})
    assert "eddard_stark" in R.summary(s)["hand"]["p1"] and s["players"]["p2"]["faction_kneeling"]
    assert s["players"]["p2"]["gold"] == 0  # X = the printed cost, 7


def test_treachery_cancels_a_character_ability_L101():
    s = game({"characters": ["grey_wind", "bran_stark"]},
             {"characters": ["tyrion_lannister"], "hand": ["treachery"], "gold": 1})
    s, _ = act(s, "p1", {"trigger": {"card": "grey_wind", "targets": ["bran_stark"]}})
    assert R.pending(s) == {"p2": "interrupt"}
    s, _ = act(s, "p2", {"play": "treachery"})
    assert R.pending(s) == {"p1": "interrupt"}  # Bran may cancel Treachery in turn (L107)
    s, ev = act(s, "p1", {"pass": True})
    assert any(e["type"] == "cancelled" for e in ev) and R.summary(s)["dead"]["p1"] == []
    assert not standing(s, "p1", "grey_wind")  # the cost stays paid (L103)


def test_for_the_north_gives_2_str_and_draws_on_a_win_L108():
    s = game({"characters": ["eddard_stark"], "hand": ["for_the_north"]}, {"characters": ["burned_men"]})
    s, _ = attack(s, "p1", "military", ["eddard_stark"], ["burned_men"])
    s = until(s, lambda s: R.pending(s) == {"p1": "action"})
    s, _ = act(s, "p1", {"play": {"card": "for_the_north", "targets": ["eddard_stark"]}})
    assert A.strength(s, uid(s, "p1", "eddard_stark")) == 7
    hand = len(s["players"]["p1"]["hand"])
    s = until(s, lambda s: s["challenge"]["winner"] is not None)
    assert len(s["players"]["p1"]["hand"]) == hand + 1


def test_like_warm_rain_kneels_a_direwolf_to_kill_an_attacker_L132():
    s = game({"characters": ["grey_wind", "catelyn_stark"], "hand": ["like_warm_rain"], "gold": 1},
             {"characters": ["tywin_lannister"]}, first="p2")
    s, _ = attack(s, "p2", "intrigue", ["tywin_lannister"], ["catelyn_stark"])
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    s, ev = act(s, "p1", {"play": {"card": "like_warm_rain", "targets": [{"card": "tywin_lannister", "seat": "p2"}]}})
    assert R.summary(s)["dead"]["p2"] == ["tywin_lannister"]
    assert any(e["type"] == "kneel" and e["card"] == "grey_wind" for e in ev)  # the cost (L132)


def test_growing_strong_gives_up_to_3_tyrell_characters_2_str_L138():
    s = game({"faction": "tyrell", "characters": ["maester_lomys", "paxter_redwyne"], "hand": ["growing_strong"],
              "gold": 1}, {"characters": ["burned_men"]})
    s, _ = act(s, "p1", {"play": {"card": "growing_strong", "targets": ["maester_lomys", "paxter_redwyne"]}})
    assert A.strength(s, uid(s, "p1", "maester_lomys")) == 5 and A.strength(s, uid(s, "p1", "paxter_redwyne")) == 5


def test_olennas_cunning_the_loser_names_a_type_and_a_card_of_another_type_is_searched_L123():
    s = game({"faction": "tyrell", "characters": ["maester_lomys"], "hand": ["olennas_cunning"], "gold": 2,
              "deck": ["highgarden", "randyll_tarly"]}, {})
    s, _ = attack(s, "p1", "intrigue", ["maester_lomys"])
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    s, _ = act(s, "p1", {"play": "olennas_cunning"})
    assert R.pending(s) == {"p2": "choose"}
    s, _ = act(s, "p2", {"choose": "location"})
    with pytest.raises(EngineError):
        act(s, "p1", {"choose": {"card": "highgarden", "zone": "deck"}})
    s, _ = act(s, "p1", {"choose": {"card": "randyll_tarly", "zone": "deck"}})
    assert "randyll_tarly" in R.summary(s)["hand"]["p1"]


def test_the_bear_and_the_maiden_fair_puts_up_to_3_of_the_top_5_on_the_bottom():
    s = game({"hand": ["the_bear_and_the_maiden_fair"], "characters": ["eddard_stark"]},
             {"deck": ["tywin_lannister", "blank", "blank", "blank", "blank", "cersei_lannister"]})
    s, _ = act(s, "p1", {"play": "the_bear_and_the_maiden_fair"})
    s, _ = act(s, "p1", {"choose": "p2"})
    s, ev = act(s, "p1", {"choose": [{"card": "tywin_lannister", "zone": "deck", "seat": "p2"}]})
    assert T.cid(s, s["players"]["p2"]["deck"][-1]) == "tywin_lannister"
    assert T.cid(s, s["players"]["p2"]["deck"][0]) == "blank"
