"""Card tests: the Core Set's Martell and Night's Watch cards, The Iron Throne, Noble Lineage, Syrio's
Training, Put to the Sword, Put to the Torch and Fealty's action (issue 30; the ability model,
rules/lcg.md §2.5-2.6). Each test is named after its card and cites the rules it leans on."""
from __future__ import annotations

import pytest

from games.engine import EngineError
from games.engine.lcg import abilities as A
from games.engine.lcg import flow
from games.engine.lcg.cards import ABILITIES
from tests.engine.lcg_helpers import R, act, attack, game, uid, until

OPP = "p2"


def str_of(s, seat, name):
    return A.strength(s, uid(s, seat, name))


def icon(s, seat, name, which):
    return A.has_icon(s, uid(s, seat, name), which)


def kneeling(s, seat, name):
    return s["inplay"][uid(s, seat, name)]["kneeling"]


def their(name):
    return {"card": name, "seat": OPP}


def in_window(s, seat="p1", name="before_challenge"):
    """An action window of the challenges phase, the seat asked."""
    s["window"] = {"name": name, "then": "challenge_offer", "turn": seat, "passes": 0}
    s["decision"] = {"kind": "action", "seats": [seat]}
    return s


# ---------------------------------------------------------------- keyword-only cards


@pytest.mark.parametrize("card", ["house_dayne_knight", "samwell_tarly", "ranging_party"])
def test_cards_with_keywords_only_are_implemented_with_no_ability(card):
    assert ABILITIES[card] == []


# ---------------------------------------------------------------- constants (the modifier layer, L153-L160)


def test_noble_lineage_and_syrios_training_give_icons_L160():
    s = game({"characters": [{"card": "bran_stark", "attachments": ["syrios_training"]},
                             {"card": "lannisport_moneylender", "attachments": ["noble_lineage"]}]}, {})
    assert icon(s, "p1", "bran_stark", "military") and icon(s, "p1", "lannisport_moneylender", "power")


def test_longclaw_gives_1_str_and_renown_L153_L160():
    s = game({"characters": [{"card": "ranging_party", "attachments": ["longclaw"]}]}, {})
    assert str_of(s, "p1", "ranging_party") == 6 and A.has_keyword(s, uid(s, "p1", "ranging_party"), "renown")


def test_doran_martell_gives_other_martell_lords_and_ladies_1_str_per_used_plot_L153():
    s = game({"faction": "martell", "characters": ["doran_martell", "arianne_martell", "the_red_viper", "obara_sand"],
              "used_plots": ["sneak_attack", "taxation"]}, {})
    assert str_of(s, "p1", "arianne_martell") == 6 and str_of(s, "p1", "the_red_viper") == 9
    assert str_of(s, "p1", "doran_martell") == 4 and str_of(s, "p1", "obara_sand") == 3  # not himself, no Lady


def test_dawn_counts_used_plots_and_gives_a_house_dayne_character_intimidate_L160():
    s = game({"characters": [{"card": "house_dayne_knight", "attachments": ["dawn"]}], "used_plots": ["sneak_attack"]}, {})
    knight = uid(s, "p1", "house_dayne_knight")
    assert A.strength(s, knight) == 3 and A.has_keyword(s, knight, "intimidate")
    s = game({"characters": [{"card": "tumblestone_knight", "attachments": ["dawn"]}]}, {})
    assert str_of(s, "p1", "tumblestone_knight") == 2
    assert not A.has_keyword(s, uid(s, "p1", "tumblestone_knight"), "intimidate")


def test_palace_spearman_has_an_intrigue_icon_unless_first_player_L160():
    s = game({"characters": ["palace_spearman"]}, {}, first="p2")
    assert icon(s, "p1", "palace_spearman", "intrigue")
    s = game({"characters": ["palace_spearman"]}, {}, first="p1")
    assert not icon(s, "p1", "palace_spearman", "intrigue")


def test_the_wall_gives_your_nights_watch_characters_1_str_L153():
    s = game({"characters": ["ranging_party", "direwolf_pup"], "locations": ["the_wall"]},
             {"characters": ["samwell_tarly"]})
    assert str_of(s, "p1", "ranging_party") == 6 and str_of(s, "p1", "direwolf_pup") == 1
    assert str_of(s, "p2", "samwell_tarly") == 1  # only yours


def test_the_iron_throne_adds_8_str_to_dominance_L77():
    s = game({"locations": ["the_iron_throne"]}, {"characters": ["eddard_stark"]}, start="dominance")
    s = until(s, lambda s: s.get("dominance"))
    assert s["dominance"]["total"] == {"p1": 8, "p2": 5} and s["dominance"]["winner"] == "p1"


def test_old_bear_mormont_does_not_kneel_to_defend_while_you_control_the_wall_L172():
    s = game({"characters": ["old_bear_mormont"], "locations": ["the_wall"]}, {"characters": ["tywin_lannister"]},
             first="p2")
    s, _ = attack(s, "p2", "power", ["tywin_lannister"], ["old_bear_mormont"])
    assert not kneeling(s, "p1", "old_bear_mormont")


def test_obara_sand_defends_a_power_challenge_while_kneeling_L172():
    s = game({"characters": [{"card": "obara_sand", "kneeling": True, "attachments": ["noble_lineage"]}]},
             {"characters": ["tywin_lannister"]}, first="p2")
    s, _ = act(s, "p2", {"challenge": {"type": "power", "attackers": ["tywin_lannister"]}})
    assert R.pending(s) == {"p1": "defenders"}
    s, _ = act(s, "p1", {"defenders": ["obara_sand"]})
    assert s["inplay"][uid(s, "p1", "obara_sand")]["participating"] == "defending"
    s = game({"characters": [{"card": "obara_sand", "kneeling": True, "attachments": ["syrios_training"]}]},
             {"characters": ["tywin_lannister"]}, first="p2")
    s, _ = act(s, "p2", {"challenge": {"type": "military", "attackers": ["tywin_lannister"]}})
    assert R.pending(s) != {"p1": "defenders"}  # not in a military challenge


def test_benjen_stark_keeps_your_rangers_from_being_bypassed_by_stealth_L199():
    s = game({"characters": ["benjen_stark", "ranging_party"]}, {"characters": ["theon_greyjoy"]}, first="p2")
    with pytest.raises(EngineError):
        act(s, "p2", {"challenge": {"type": "military", "attackers": ["theon_greyjoy"],
                                    "stealth": {"theon_greyjoy": "ranging_party"}}})
    s = game({"characters": ["ranging_party"]}, {"characters": ["theon_greyjoy"]}, first="p2")
    act(s, "p2", {"challenge": {"type": "military", "attackers": ["theon_greyjoy"],
                                "stealth": {"theon_greyjoy": "ranging_party"}}})


# ---------------------------------------------------------------- reactions and interrupts (L91-L98)


def test_areo_hotah_removes_a_participating_character_when_he_enters_play_by_ambush_L174_L192():
    s = game({"characters": ["direwolf_pup"]}, {"hand": ["areo_hotah"], "gold": 5, "characters": ["burned_men"]})
    s = until(s, lambda s: R.pending(s) == {"p1": "challenge"})
    s, _ = act(s, "p1", {"challenge": {"type": "military", "attackers": ["direwolf_pup"]}})
    s, _ = act(s, "p2", {"ambush": "areo_hotah"})
    assert R.pending(s) == {"p2": "reaction"}
    s, _ = act(s, "p2", {"trigger": {"card": "areo_hotah", "targets": [{"card": "direwolf_pup", "seat": "p1"}]}})
    assert s["inplay"][uid(s, "p1", "direwolf_pup")]["participating"] is None


def test_the_red_viper_gains_1_power_per_full_5_str_of_margin():
    s = game({"characters": ["the_red_viper", "robb_stark"]}, {})
    s, _ = attack(s, "p1", "power", ["the_red_viper", "robb_stark"])  # 12 to 0
    s, _ = act(s, "p1", {"trigger": "the_red_viper"})
    assert s["inplay"][uid(s, "p1", "the_red_viper")]["power"] == 2


def test_maester_caleotte_makes_a_character_lose_a_named_icon_until_the_phase_ends_L149():
    s = game({"characters": ["maester_caleotte"]}, {"characters": ["tywin_lannister"]}, first="p2")
    s, _ = attack(s, "p2", "intrigue", ["tywin_lannister"], ["maester_caleotte"])
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": {"card": "maester_caleotte", "targets": [their("tywin_lannister")]}})
    s, ev = act(s, "p1", {"choose": "power"})
    assert any(e["type"] == "named" for e in ev)
    assert not icon(s, "p2", "tywin_lannister", "power") and icon(s, "p2", "tywin_lannister", "military")
    A.expire(s, "phase")
    assert icon(s, "p2", "tywin_lannister", "power")


def test_greenblood_trader_keeps_one_of_the_top_2_and_puts_the_other_at_the_bottom():
    s = game({"hand": ["greenblood_trader"], "gold": 2, "deck": ["summer", "bran_stark", "eddard_stark"]}, {},
             start="marshaling")
    s, _ = act(s, "p1", {"marshal": "greenblood_trader"})
    s, _ = act(s, "p1", {"trigger": "greenblood_trader"})
    s, _ = act(s, "p1", {"choose": {"card": "bran_stark", "zone": "deck"}})
    p = s["players"]["p1"]
    assert [x for x in p["hand"] if s["uids"][x][0] == "bran_stark"]
    deck = [s["uids"][x][0] for x in p["deck"]]
    assert deck[0] == "eddard_stark" and deck[-1] == "summer" and "summer" not in deck[:-1]


def test_greenblood_trader_may_keep_none_and_order_both_at_the_bottom():
    s = game({"hand": ["greenblood_trader"], "gold": 2, "deck": ["summer", "bran_stark", "eddard_stark"]}, {},
             start="marshaling")
    s, _ = act(s, "p1", {"marshal": "greenblood_trader"})
    s, _ = act(s, "p1", {"trigger": "greenblood_trader"})
    s, _ = act(s, "p1", {"choose": None})
    s, _ = act(s, "p1", {"choose": {"card": "summer", "zone": "deck"}})  # the very bottom
    deck = [s["uids"][x][0] for x in s["players"]["p1"]["deck"]]
    assert deck[0] == "eddard_stark" and deck[-2:] == ["bran_stark", "summer"]


def test_ghaston_grey_returns_an_attacker_to_its_owners_hand_L132():
    s = game({"locations": ["ghaston_grey"]}, {"characters": ["tywin_lannister"]}, first="p2")
    s, _ = attack(s, "p2", "power", ["tywin_lannister"])
    s, _ = act(s, "p1", {"trigger": {"card": "ghaston_grey", "targets": [their("tywin_lannister")]}})
    assert R.summary(s)["discard"]["p1"] == ["ghaston_grey"]
    assert "tywin_lannister" not in R.summary(s)["characters"]["p2"]
    assert any(s["uids"][x][0] == "tywin_lannister" for x in s["players"]["p2"]["hand"])


def test_sunspear_raises_your_claim_in_challenges_of_the_lost_type_L183():
    s = game({"locations": ["sunspear"], "characters": ["eddard_stark"]}, {"characters": ["tywin_lannister"]},
             first="p2")
    s, _ = attack(s, "p2", "power", ["tywin_lannister"])
    s, _ = act(s, "p1", {"trigger": "sunspear"})
    assert kneeling(s, "p1", "sunspear")
    s = until(s, lambda s: R.pending(s) == {"p1": "challenge"})
    base = A.plot_value(s, "p1", "claim")
    s, _ = act(s, "p1", {"challenge": {"type": "power", "attackers": ["eddard_stark"]}})
    assert A.plot_value(s, "p1", "claim") == base + 1


def test_maester_aemon_saves_a_nights_watch_character_from_being_killed_L218():
    s = game({"characters": ["maester_aemon", "ranging_party"]}, {"characters": ["tywin_lannister"]}, first="p2")
    s, _ = attack(s, "p2", "military", ["tywin_lannister"])
    s = until(s, lambda s: R.pending(s) == {"p1": "interrupt"})  # claim 2 kills both (L184)
    s, _ = act(s, "p1", {"trigger": {"card": "maester_aemon", "targets": ["ranging_party"]}})
    assert R.summary(s)["characters"]["p1"] == ["ranging_party"] and R.summary(s)["dead"]["p1"] == ["maester_aemon"]


def test_benjen_stark_gains_2_power_and_is_shuffled_into_the_deck_when_killed():
    s = game({"characters": ["benjen_stark"], "deck": ["summer", "bran_stark"]}, {"characters": ["tywin_lannister"]},
             first="p2")
    s, _ = attack(s, "p2", "military", ["tywin_lannister"])
    s = until(s, lambda s: R.pending(s) == {"p1": "interrupt"})
    s, ev = act(s, "p1", {"trigger": {"card": "benjen_stark", "ability": 1}})
    p = s["players"]["p1"]
    assert p["faction_power"] == 2 and not p["dead"]
    assert "benjen_stark" in [s["uids"][x][0] for x in p["deck"]]
    assert any(e["type"] == "leaves_play" and e["to"] == "deck" for e in ev)


def test_ser_waymar_royce_makes_each_opponent_discard_at_random_when_killed():
    s = game({"characters": ["ser_waymar_royce"]}, {"characters": ["tywin_lannister"], "hand": ["summer"]},
             first="p2")
    s, _ = attack(s, "p2", "military", ["tywin_lannister"])
    s = until(s, lambda s: R.pending(s) == {"p1": "interrupt"})
    s, _ = act(s, "p1", {"trigger": "ser_waymar_royce"})
    assert R.summary(s)["discard"]["p2"] == ["summer"] and R.summary(s)["dead"]["p1"] == ["ser_waymar_royce"]


def test_ghost_bars_the_bypassed_character_from_defending_for_the_phase_L199():
    s = game({"characters": ["ghost"]}, {"characters": ["tywin_lannister", "ser_jaime_lannister"]})
    s, _ = act(s, "p1", {"challenge": {"type": "military", "attackers": ["ghost"],
                                       "stealth": {"ghost": "tywin_lannister"}}})
    s, _ = act(s, "p1", {"trigger": "ghost"})
    assert R.pending(s) == {"p2": "defenders"}
    s["challenge"]["stealth"] = {}  # a later challenge of the phase: still barred
    assert uid(s, "p2", "ser_jaime_lannister") in flow.eligible_defenders(s)
    assert uid(s, "p2", "tywin_lannister") not in flow.eligible_defenders(s)


def test_yoren_puts_a_cheap_character_from_an_opponents_discard_pile_into_play_under_your_control_L222():
    s = game({"hand": ["yoren"], "gold": 3}, {"discard": ["burned_men", "tywin_lannister"]}, start="marshaling")
    s, _ = act(s, "p1", {"marshal": "yoren"})
    s, _ = act(s, "p1", {"trigger": {"card": "yoren", "targets": [{"card": "burned_men", "zone": "discard",
                                                                    "seat": "p2"}]}})
    assert "burned_men" in R.summary(s)["characters"]["p1"]


def test_the_wall_kneels_after_an_unopposed_loss_and_gives_2_power_when_the_challenges_phase_ends():
    s = game({"locations": ["the_wall"]}, {"characters": ["burned_men"]}, first="p2")
    s, ev = attack(s, "p2", "military", ["burned_men"])
    assert any(e["type"] == "forced" and e["card"] == "the_wall" for e in ev)
    assert any(e["type"] == "kneel" and e["card"] == "the_wall" for e in ev)
    s = game({"locations": ["the_wall"]}, {})
    s = until(s, lambda s: R.pending(s) == {"p1": "interrupt"})
    s, _ = act(s, "p1", {"trigger": "the_wall"})
    assert s["players"]["p1"]["faction_power"] == 2


def test_old_bear_mormont_puts_a_nights_watch_card_into_play_if_you_lost_no_defence():
    s = game({"characters": ["old_bear_mormont"], "hand": ["ranging_party"]}, {})
    s = until(s, lambda s: R.pending(s) == {"p1": "interrupt"})
    s, _ = act(s, "p1", {"trigger": {"card": "old_bear_mormont", "ability": 1,
                                     "targets": [{"card": "ranging_party", "zone": "hand"}]}})
    assert "ranging_party" in R.summary(s)["characters"]["p1"]
    s = game({"characters": ["old_bear_mormont"], "hand": ["ranging_party"]}, {"characters": ["burned_men"]},
             first="p2")
    s, _ = attack(s, "p2", "military", ["burned_men"])
    s = until(s, lambda s: s["phase"] != "challenges" or R.pending(s) == {"p1": "interrupt"})
    assert s["phase"] != "challenges"  # a lost defence: never asked


def test_put_to_the_sword_kills_a_character_of_the_loser_after_a_5_str_military_win():
    s = game({"characters": ["the_red_viper"], "hand": ["put_to_the_sword"], "gold": 2},
             {"characters": ["burned_men", "lannisport_merchant"]})
    s, _ = attack(s, "p1", "military", ["the_red_viper"])
    s, _ = act(s, "p1", {"play": {"card": "put_to_the_sword", "targets": [their("lannisport_merchant")]}})
    assert "lannisport_merchant" in R.summary(s)["dead"]["p2"]


def test_put_to_the_torch_discards_a_location_of_the_loser():
    s = game({"characters": ["the_red_viper"], "hand": ["put_to_the_torch"], "gold": 1},
             {"locations": ["the_kingsroad"]})
    s, _ = attack(s, "p1", "military", ["the_red_viper"])
    s, _ = act(s, "p1", {"play": {"card": "put_to_the_torch", "targets": [their("the_kingsroad")]}})
    assert R.summary(s)["discard"]["p2"] == ["the_kingsroad"]


def test_put_to_the_sword_needs_a_5_str_margin():
    s = game({"characters": ["direwolf_pup"], "hand": ["put_to_the_sword"], "gold": 2}, {"characters": ["burned_men"]})
    s, _ = attack(s, "p1", "military", ["direwolf_pup"])
    assert R.pending(s) != {"p1": "reaction"}


def test_dorans_game_gains_power_per_used_plot_after_a_5_str_intrigue_win():
    s = game({"characters": ["the_red_viper"], "hand": ["dorans_game"], "gold": 1,
              "used_plots": ["sneak_attack", "taxation", "summons"]}, {})
    s, _ = attack(s, "p1", "intrigue", ["the_red_viper"])
    s, _ = act(s, "p1", {"play": "dorans_game"})
    assert s["players"]["p1"]["faction_power"] == 3  # before the unopposed bonus (L181, L182)


def test_unbowed_unbent_unbroken_forbids_the_winner_a_named_challenge_type_for_the_phase():
    s = game({"characters": ["direwolf_pup"], "hand": ["unbowed_unbent_unbroken"]},
             {"characters": ["tywin_lannister", "ser_jaime_lannister"]}, first="p2")
    s, _ = attack(s, "p2", "power", ["tywin_lannister"])
    s, _ = act(s, "p1", {"play": "unbowed_unbent_unbroken"})
    s, _ = act(s, "p1", {"choose": "military"})
    assert A.challenge_allowance(s, "p2", "military") and not A.challenge_allowance(s, "p2", "intrigue")


def test_unbowed_unbent_unbroken_only_while_an_opponent_is_first_player():
    s = game({"characters": ["direwolf_pup"], "hand": ["unbowed_unbent_unbroken"]},
             {"characters": ["tywin_lannister"]}, first="p1")
    s = until(s, lambda s: R.pending(s) == {"p2": "challenge"})
    s, _ = attack(s, "p2", "power", ["tywin_lannister"])
    assert R.pending(s) != {"p1": "reaction"}


def test_the_sword_in_the_darkness_stops_the_loser_from_challenging_you_this_round():
    s = game({"characters": ["ranging_party", "benjen_stark"], "hand": ["the_sword_in_the_darkness"], "gold": 1},
             {"characters": ["lannisport_merchant", "tywin_lannister"]}, first="p2")
    s, _ = attack(s, "p2", "power", ["lannisport_merchant"], ["ranging_party", "benjen_stark"])
    assert all(A.challenge_allowance(s, "p2", t) is None for t in ("intrigue", "military"))
    s, ev = act(s, "p1", {"play": "the_sword_in_the_darkness"})
    assert any(e["type"] == "played" for e in ev)
    # Tywin Lannister stood ready, yet p2 initiated nothing more: the phase went on to dominance
    assert not any(e["type"] == "challenge" for e in ev)
    assert next(e for e in ev if e["type"] == "dominance")["total"]["p2"] == 6


# ---------------------------------------------------------------- actions (L87-L90, L128)


def test_desert_scavenger_and_blood_orange_grove_make_the_next_martell_card_cheaper():
    s = game({"characters": ["desert_scavenger"], "locations": ["blood_orange_grove"], "hand": ["arianne_martell"]},
             {}, start="marshaling")
    s, _ = act(s, "p1", {"trigger": "desert_scavenger"})
    s, _ = act(s, "p1", {"trigger": "blood_orange_grove"})
    assert A.marshal_cost(s, "p1", s["players"]["p1"]["hand"][0]) == 3


def test_steward_at_the_wall_makes_the_next_nights_watch_character_cheaper():
    s = game({"characters": ["steward_at_the_wall"], "hand": ["ranging_party"]}, {}, start="marshaling")
    s, _ = act(s, "p1", {"trigger": "steward_at_the_wall"})
    assert A.marshal_cost(s, "p1", s["players"]["p1"]["hand"][0]) == 3


def test_fealty_kneels_the_faction_card_for_1_less_on_the_next_loyal_card_marshaled_or_played():
    s = game({"agenda": "fealty", "hand": ["grey_wind", "summer", "winter_is_coming"], "gold": 0}, {},
             start="marshaling")
    assert {"trigger": "fealty"} in R.legal_actions(s, "p1")
    s, ev = act(s, "p1", {"trigger": "fealty"})
    p = s["players"]["p1"]
    assert p["faction_kneeling"] and any(e["type"] == "triggered" and e["card"] == "fealty" for e in ev)
    assert {"trigger": "fealty"} not in R.legal_actions(s, "p1")
    hand = {s["uids"][x][0]: x for x in p["hand"]}
    assert A.marshal_cost(s, "p1", hand["grey_wind"]) == 4 and A.marshal_cost(s, "p1", hand["summer"]) == 2
    assert A.event_cost(s, "p1", hand["winter_is_coming"]) == 0  # a loyal event too
    p["gold"] = 4
    s, _ = act(s, "p1", {"marshal": "grey_wind"})
    assert s["players"]["p1"]["gold"] == 0 and A.marshal_cost(s, "p1", hand["summer"]) == 3  # the next one only


def test_fealty_is_only_the_agendas():
    s = game({"hand": ["grey_wind"]}, {}, start="marshaling")
    assert {"trigger": "fealty"} not in R.legal_actions(s, "p1")
    with pytest.raises(EngineError):
        act(s, "p1", {"trigger": "fealty"})


def test_arianne_martell_puts_a_character_into_play_and_returns_to_hand_L162():
    s = game({"characters": ["arianne_martell"], "hand": ["obara_sand"]}, {})
    s = in_window(s)
    s, _ = act(s, "p1", {"trigger": {"card": "arianne_martell", "targets": [{"card": "obara_sand", "zone": "hand"}]}})
    assert R.summary(s)["characters"]["p1"] == ["obara_sand"]
    assert [s["uids"][x][0] for x in s["players"]["p1"]["hand"]] == ["arianne_martell"]


def test_edric_dayne_pays_1_gold_for_an_icon_until_the_phase_ends_L149():
    s = game({"characters": ["edric_dayne"], "gold": 1}, {})
    s = in_window(s)
    s, _ = act(s, "p1", {"trigger": "edric_dayne"})
    s, _ = act(s, "p1", {"choose": "intrigue"})
    assert icon(s, "p1", "edric_dayne", "intrigue") and s["players"]["p1"]["gold"] == 0
    A.expire(s, "phase")
    assert not icon(s, "p1", "edric_dayne", "intrigue")


def test_castle_black_stands_a_defending_nights_watch_character_with_2_str():
    s = game({"characters": ["ranging_party"], "locations": ["castle_black"]}, {"characters": ["tywin_lannister"]},
             first="p2")
    s, _ = attack(s, "p2", "power", ["tywin_lannister"], ["ranging_party"])
    s = in_window(s, "p1", "after_defenders")
    s, _ = act(s, "p1", {"trigger": {"card": "castle_black", "targets": ["ranging_party"]}})
    assert not kneeling(s, "p1", "ranging_party") and str_of(s, "p1", "ranging_party") == 7


def test_veteran_builder_is_sacrificed_to_stand_a_location():
    s = game({"characters": ["veteran_builder"], "locations": [{"card": "the_wall", "kneeling": True}]}, {})
    s = in_window(s)
    s, _ = act(s, "p1", {"trigger": {"card": "veteran_builder", "targets": ["the_wall"]}})
    assert not kneeling(s, "p1", "the_wall") and R.summary(s)["discard"]["p1"] == ["veteran_builder"]


def test_old_forest_hunter_discards_a_card_for_1_gold_once_per_phase_L162():
    s = game({"characters": ["old_forest_hunter"], "hand": ["summer", "bran_stark"]}, {})
    s = in_window(s)
    s, _ = act(s, "p1", {"trigger": {"card": "old_forest_hunter", "targets": [{"card": "summer", "zone": "hand"}]}})
    assert s["players"]["p1"]["gold"] == 1 and R.summary(s)["discard"]["p1"] == ["summer"]
    assert not [o for o in A.options(s, "p1", "action", None) if "old_forest_hunter" in str(o)]


def test_messenger_raven_returns_to_hand_and_draws_in_the_dominance_phase_L88():
    s = game({"characters": ["messenger_raven"], "deck": ["summer", "bran_stark"]}, {})
    assert s["phase"] == "dominance" and R.pending(s) == {"p1": "action"}
    s["phase"] = "challenges"
    assert not A.options(s, "p1", "action", None)
    s["phase"] = "dominance"
    s, _ = act(s, "p1", {"trigger": "messenger_raven"})
    assert sorted(s["uids"][x][0] for x in s["players"]["p1"]["hand"]) == ["messenger_raven", "summer"]


def test_confinement_takes_every_icon_of_a_character_with_4_str_or_less_until_the_phase_ends():
    s = game({"hand": ["confinement"], "gold": 1}, {"characters": ["ser_jaime_lannister", "burned_men"]})
    s = in_window(s)
    with pytest.raises(EngineError):
        act(s, "p1", {"play": {"card": "confinement", "targets": [their("ser_jaime_lannister")]}})
    s, _ = act(s, "p1", {"play": {"card": "confinement", "targets": [their("burned_men")]}})
    assert not icon(s, "p2", "burned_men", "military")


def test_take_the_black_takes_control_of_a_non_unique_character_once_per_round():
    s = game({"hand": ["take_the_black"], "gold": 3}, {"characters": ["burned_men", "tywin_lannister"]})
    s["phase"] = "dominance"
    s = in_window(s, "p1", "dominance")
    with pytest.raises(EngineError):
        act(s, "p1", {"play": {"card": "take_the_black", "targets": [their("tywin_lannister")]}})
    s, ev = act(s, "p1", {"play": {"card": "take_the_black", "targets": [their("burned_men")]}})
    assert "burned_men" in R.summary(s)["characters"]["p1"] and any(e["type"] == "control" for e in ev)


def test_jon_snow_standing_counts_as_attacking_beside_another_nights_watch_attacker_L176():
    s = game({"characters": ["jon_snow", "ranging_party"]}, {})
    s, ev = attack(s, "p1", "military", ["ranging_party"])
    result = next(e for e in ev if e["type"] == "challenge_result")
    assert result["strength"]["p1"] == 5 + 4 and not kneeling(s, "p1", "jon_snow")
    s = game({"characters": ["jon_snow", "direwolf_pup"]}, {})
    s, ev = attack(s, "p1", "military", ["direwolf_pup"])  # not a [thenightswatch] attacker
    assert next(e for e in ev if e["type"] == "challenge_result")["strength"]["p1"] == 1


def test_dornish_paramour_makes_a_character_defend_if_able():
    s = game({"characters": ["dornish_paramour"]}, {"characters": ["lannisport_moneylender", "tywin_lannister"]})
    s, _ = act(s, "p1", {"challenge": {"type": "intrigue", "attackers": ["dornish_paramour"]}})
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": {"card": "dornish_paramour", "targets": [their("lannisport_moneylender")]}})
    s, ev = act(s, "p2", {"defenders": ["tywin_lannister"]})
    declared = next(e for e in ev if e["type"] == "defenders")["defenders"]
    assert sorted(declared) == ["lannisport_moneylender", "tywin_lannister"]


def test_a_meager_contribution_takes_1_gold_after_an_opponent_collects_income_L68():
    s = game({"hand": ["a_meager_contribution"]}, {}, start="marshaling")
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    assert s["active"] == "p2"
    assert s["players"]["p2"]["gold"] == 3  # The Winds of Winter's income
    s, ev = act(s, "p1", {"play": "a_meager_contribution"})
    moved = [(e["seat"], e["gold"]) for e in ev if e["type"] == "gold" and e.get("card") == "a_meager_contribution"]
    assert moved == [("p2", -1), ("p1", 1)]


def test_the_random_player_names_no_ranger_benjen_stark_protects_L199():
    import random

    s = game({"characters": ["theon_greyjoy"]}, {"characters": ["benjen_stark", "ranging_party", "samwell_tarly"]})
    assert R.pending(s) == {"p1": "challenge"}
    named = set()
    for seed in range(60):
        a = R.random_action(s, "p1", random.Random(seed))
        named.update((a.get("challenge") or {}).get("stealth", {}).values())
        if "challenge" in a:
            act(s, "p1", a)  # legal
    assert named and all("samwell_tarly" in str(n) for n in named)  # Benjen Stark is a Ranger too
