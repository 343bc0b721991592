"""Card tests: characters, locations, attachments and events (rules/lcg.md §2.5-2.6). Each test is
named after its card and cites the rules it leans on."""
from __future__ import annotations

import pytest

from games.engine import EngineError
from games.engine.lcg import abilities as A
from tests.engine.lcg_helpers import R, act, game, uid


def str_of(s, seat, name):
    return A.strength(s, uid(s, seat, name))


# ---------------------------------------------------------------- constants (the modifier layer, L153-L158)


def test_tywin_lannister_gets_1_str_per_gold_L153():
    s = game({}, {"characters": ["tywin_lannister"], "gold": 3})
    assert str_of(s, "p2", "tywin_lannister") == 9


def test_direwolf_pup_and_grey_wind_L153():
    s = game({"characters": ["direwolf_pup", "grey_wind", "summer"]}, {})
    assert str_of(s, "p1", "direwolf_pup") == 3


def test_left_and_right_gain_str_and_icons_together_L127():
    s = game({}, {"characters": ["left", "right"]})
    assert str_of(s, "p2", "left") == 3 and A.has_icon(s, uid(s, "p2", "left"), "power")
    assert A.has_icon(s, uid(s, "p2", "right"), "intrigue")
    alone = game({}, {"characters": ["left"]})
    assert str_of(alone, "p2", "left") == 2 and not A.has_icon(alone, uid(alone, "p2", "left"), "power")


def test_ice_and_widows_wail_give_2_str_L153():
    s = game({"characters": [{"card": "eddard_stark", "attachments": ["ice"]}]},
             {"characters": [{"card": "joffrey_baratheon", "attachments": ["widows_wail"]}]})
    assert str_of(s, "p1", "eddard_stark") == 7
    assert str_of(s, "p2", "joffrey_baratheon") == 5 and A.has_icon(s, uid(s, "p2", "joffrey_baratheon"), "military")


def test_little_bird_gives_an_intrigue_icon_L160():
    s = game({"characters": [{"card": "tumblestone_knight", "attachments": ["little_bird"]}]}, {})
    assert A.has_icon(s, uid(s, "p1", "tumblestone_knight"), "intrigue")


def test_milk_of_the_poppy_blanks_text_and_keywords_L158():
    s = game({}, {"characters": [{"card": "tywin_lannister", "attachments": ["milk_of_the_poppy"]}], "gold": 3})
    u = uid(s, "p2", "tywin_lannister")
    assert A.strength(s, u) == 6 and not A.has_keyword(s, u, "renown")


def test_great_kraken_gives_balon_stealth_and_drowned_men_count_warships_L160():
    s = game({}, {"faction": "greyjoy", "characters": ["balon_greyjoy", "drowned_men"],
                  "locations": ["great_kraken", "iron_fleet_scout"]})
    assert A.has_keyword(s, uid(s, "p2", "balon_greyjoy"), "stealth")
    assert str_of(s, "p2", "drowned_men") == 5


def test_summer_gives_bran_insight_L160():
    s = game({"characters": ["bran_stark", "summer"]}, {})
    assert A.has_keyword(s, uid(s, "p1", "bran_stark"), "insight")


def test_ser_jaime_lannister_does_not_kneel_attacking_in_military_and_gains_renown():
    s = game({}, {"characters": ["ser_jaime_lannister"]}, first="p2")
    s, _ = act(s, "p2", {"challenge": {"type": "military", "attackers": ["ser_jaime_lannister"]}})
    u = uid(s, "p2", "ser_jaime_lannister")
    assert not s["inplay"][u]["kneeling"] and A.has_keyword(s, u, "renown")


def test_sansa_stark_enters_play_kneeling_L212():
    s = game({"hand": ["sansa_stark", "winterfell_steward"], "gold": 1}, {}, start="marshaling")  # still marshaling after
    s, _ = act(s, "p1", {"marshal": "sansa_stark"})
    assert s["inplay"][uid(s, "p1", "sansa_stark")]["kneeling"]


def test_the_knight_of_flowers_alone_allows_one_defender():
    s = game({"characters": ["eddard_stark", "grey_wind"]}, {"characters": ["the_knight_of_flowers"]}, first="p2")
    s, _ = act(s, "p2", {"challenge": {"type": "military", "attackers": ["the_knight_of_flowers"]}})
    with pytest.raises(EngineError):
        act(s, "p1", {"defenders": ["eddard_stark", "grey_wind"]})
    act(s, "p1", {"defenders": ["eddard_stark"]})


def test_the_wolfswood_gives_direwolves_in_hand_ambush_L192():
    s = game({"locations": ["the_wolfswood"], "hand": ["summer"], "gold": 3}, {})
    assert {"ambush": "summer"} in R.legal_actions(s, "p1")


# ---------------------------------------------------------------- reactions, actions (L87-L98, L128)


def test_littlefinger_draws_2_after_he_is_marshaled_L91():
    s = game({"hand": ["littlefinger"], "gold": 2}, {}, start="marshaling")
    s, _ = act(s, "p1", {"marshal": "littlefinger"})
    assert R.pending(s) == {"p1": "reaction"}
    hand = len(s["players"]["p1"]["hand"])
    s, _ = act(s, "p1", {"trigger": "littlefinger"})
    assert len(s["players"]["p1"]["hand"]) == hand + 2


def test_tyrion_lannister_gains_2_gold_twice_per_round_L162():
    s = game({"characters": ["maester_lomys"]}, {"characters": ["tyrion_lannister"]})
    s, _ = act(s, "p1", {"challenge": {"type": "intrigue", "attackers": ["maester_lomys"]}})
    assert R.pending(s) == {"p2": "reaction"}
    s, _ = act(s, "p2", {"trigger": "tyrion_lannister"})
    assert s["players"]["p2"]["gold"] == 2
    s["limits"]["round"][f"{uid(s, 'p2', 'tyrion_lannister')}:0"] = 2
    assert A.options(s, "p2", "reaction", {"t": "challenge_initiated", "type": "intrigue"}) == []


def test_eddard_stark_stands_when_a_challenge_is_initiated_against_you():
    s = game({"characters": [{"card": "eddard_stark", "kneeling": True}]}, {"characters": ["burned_men"]},
             first="p2")
    s, _ = act(s, "p2", {"challenge": {"type": "military", "attackers": ["burned_men"]}})
    s, _ = act(s, "p1", {"trigger": "eddard_stark"})
    assert not s["inplay"][uid(s, "p1", "eddard_stark")]["kneeling"]


def test_grey_wind_kills_a_character_with_str_1_L128():
    s = game({"characters": ["grey_wind", "eddard_stark"]}, {"characters": ["lannisport_merchant", "burned_men"]})
    opts = A.options(s, "p1", "action", None)
    s["window"] = {"name": "before_challenge", "then": "challenge_offer", "turn": "p1", "passes": 0}
    s["decision"] = {"kind": "action", "seats": ["p1"]}
    assert {"trigger": {"card": "grey_wind#1", "targets": [{"card": "lannisport_merchant#1", "seat": "p2"}]}} in opts
    s, _ = act(s, "p1", {"trigger": {"card": "grey_wind", "targets": [{"card": "lannisport_merchant", "seat": "p2"}]}})
    assert R.summary(s)["dead"]["p2"] == ["lannisport_merchant"]


def test_winterfell_steward_makes_the_next_stark_character_cheaper():
    s = game({"characters": ["winterfell_steward"], "hand": ["catelyn_stark"]}, {}, start="marshaling")
    s, _ = act(s, "p1", {"trigger": "winterfell_steward"})
    assert A.marshal_cost(s, "p1", s["players"]["p1"]["hand"][0]) == 3


def test_the_kingsroad_is_sacrificed_for_3_less():
    s = game({"locations": ["the_kingsroad"], "hand": ["eddard_stark"], "gold": 1}, {}, start="marshaling")
    s, _ = act(s, "p1", {"trigger": "the_kingsroad"})
    assert R.summary(s)["discard"]["p1"] == ["the_kingsroad"]
    s, _ = act(s, "p1", {"marshal": "eddard_stark"})  # 7 - 3 = 4: 1 gold and the Winds' 3
    assert R.summary(s)["characters"]["p1"] == ["eddard_stark"]


def test_margaery_tyrell_gives_3_str_until_the_end_of_the_phase_L149():
    s = game({}, {"characters": ["margaery_tyrell", "burned_men"]}, first="p2")
    s, _ = act(s, "p2", {"trigger": {"card": "margaery_tyrell", "targets": ["burned_men"]}})
    assert str_of(s, "p2", "burned_men") == 5


def test_joffrey_baratheon_gains_power_when_a_lord_dies():
    s = game({"characters": ["grey_wind", "bran_stark"]}, {"characters": ["joffrey_baratheon"]})
    s, _ = act(s, "p1", {"trigger": {"card": "grey_wind", "targets": ["bran_stark"]}})
    assert R.pending(s) == {"p2": "reaction"}
    s, _ = act(s, "p2", {"trigger": "joffrey_baratheon"})
    assert s["inplay"][uid(s, "p2", "joffrey_baratheon")]["power"] == 1


def test_robb_stark_stands_your_characters_after_a_stark_character_dies():
    s = game({"characters": ["grey_wind", "bran_stark", "robb_stark"]}, {})
    s, _ = act(s, "p1", {"trigger": {"card": "grey_wind", "targets": ["bran_stark"]}})
    s, _ = act(s, "p1", {"trigger": "robb_stark"})
    assert not s["inplay"][uid(s, "p1", "grey_wind")]["kneeling"]


# ---------------------------------------------------------------- saves and cancels (L101-L106, L218, L220)


def test_bodyguard_saves_its_character_from_a_military_claim_L218():
    s = game({"characters": [{"card": "catelyn_stark", "attachments": ["bodyguard"]}]},
             {"characters": ["tywin_lannister"], "plot": "a_game_of_thrones"}, first="p2")
    s["players"]["p2"]["won"] = ["intrigue"]
    s, _ = act(s, "p2", {"challenge": {"type": "military", "attackers": ["tywin_lannister"]}})
    assert R.pending(s) == {"p1": "interrupt"}  # claim 1 kills the only character (L184)
    s, _ = act(s, "p1", {"trigger": "bodyguard"})
    assert R.summary(s)["characters"]["p1"] == ["catelyn_stark"] and R.summary(s)["discard"]["p1"] == ["bodyguard"]


def test_a_duplicate_saves_its_unique_card_L220():
    s = game({"characters": [{"card": "catelyn_stark", "duplicates": 1}]}, {"characters": ["tywin_lannister"]},
             first="p2")
    s, _ = act(s, "p2", {"challenge": {"type": "military", "attackers": ["tywin_lannister"]}})
    s, _ = act(s, "p1", {"trigger": {"card": "catelyn_stark", "duplicate": True}})
    assert R.summary(s)["characters"]["p1"] == ["catelyn_stark"] and R.summary(s)["discard"]["p1"] == ["catelyn_stark"]
    assert s["inplay"][uid(s, "p1", "catelyn_stark")]["duplicates"] == []


def test_bran_stark_cancels_an_opponents_event_L101_L103():
    s = game({"characters": ["bran_stark"]}, {"characters": ["burned_men"], "hand": ["winter_is_coming"], "gold": 1},
             first="p2")
    s, _ = act(s, "p2", {"challenge": {"type": "military", "attackers": ["burned_men"]}})
    s, _ = act(s, "p1", {"pass": True}) if R.pending(s) == {"p1": "action"} else (s, [])
    s, _ = act(s, "p2", {"play": "winter_is_coming"})
    assert R.pending(s) == {"p1": "interrupt"}
    s, ev = act(s, "p1", {"trigger": "bran_stark"})
    assert any(e["type"] == "cancelled" for e in ev)
    assert R.summary(s)["discard"]["p2"] == ["winter_is_coming"] and s["players"]["p2"]["gold"] == 0
    assert not any("claim" in e for e in s["lasting"])


def test_catelyn_stark_blocks_opponents_abilities_while_participating():
    s = game({"characters": ["catelyn_stark"]}, {"characters": ["tyrion_lannister"]})
    s, _ = act(s, "p1", {"challenge": {"type": "intrigue", "attackers": ["catelyn_stark"]}})
    assert R.pending(s) != {"p2": "reaction"}


# ---------------------------------------------------------------- events and delayed effects (L108, L123)


def test_hear_me_roar_puts_a_character_into_play_then_discards_it_at_the_phase_end_L108():
    s = game({}, {"hand": ["hear_me_roar", "tywin_lannister"], "gold": 1, "characters": ["burned_men"]}, first="p2")
    s, _ = act(s, "p2", {"play": {"card": "hear_me_roar", "targets": [{"card": "tywin_lannister", "zone": "hand"}]}})
    assert "tywin_lannister" in R.summary(s)["characters"]["p2"]
    while s["phase"] == "challenges":
        seat = sorted(R.pending(s))[0]
        s, _ = act(s, seat, R.default_action(s, seat))
    assert "tywin_lannister" in R.summary(s)["discard"]["p2"]


def test_gold_cloaks_ambushed_are_discarded_when_the_phase_ends():
    s = game({}, {"hand": ["gold_cloaks"], "gold": 2}, first="p2")
    s, _ = act(s, "p2", {"ambush": "gold_cloaks"})
    while s["phase"] == "challenges":
        seat = sorted(R.pending(s))[0]
        s, _ = act(s, seat, R.default_action(s, seat))
    assert R.summary(s)["discard"]["p2"] == ["gold_cloaks"]


def test_winter_is_coming_raises_the_claim_for_the_challenge_L183():
    s = game({"characters": ["eddard_stark"], "hand": ["winter_is_coming"], "gold": 1}, {})
    s, _ = act(s, "p1", {"challenge": {"type": "power", "attackers": ["eddard_stark"]}})
    s, _ = act(s, "p1", {"play": "winter_is_coming"})
    assert R.summary(s)["claim"]["p1"] == 3
