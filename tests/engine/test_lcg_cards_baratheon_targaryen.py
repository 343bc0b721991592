"""Card tests: the Core Set's Baratheon and Targaryen cards and thirteen neutral plots (issue 30;
rules/lcg.md §2.5-2.6, the ability model L87-L174). Each test is named after its card and cites the
rules it leans on; the engine's hooks are in games/engine/lcg/cards_baratheon_targaryen.py."""
from __future__ import annotations

import pytest

from games.engine import EngineError
from games.engine.lcg import abilities as A
from games.engine.lcg.cards import ABILITIES
from tests.engine.lcg_helpers import R, act, attack, game, uid


def str_of(s, seat, name):
    return A.strength(s, uid(s, seat, name))


def kneeling(s, seat, name):
    return s["inplay"][uid(s, seat, name)]["kneeling"]


def reveal(p1_plot, p2_plot="the_winds_of_winter", p1=None, p2=None):
    """Start at the plot phase; both seats choose; p1 is made first player (L58)."""
    s = game({"plots": [p1_plot, "the_winds_of_winter"], **(p1 or {})},
             {"plots": [p2_plot, "summons"], **(p2 or {})}, start="plot")
    s, _ = act(s, "p1", {"plot": p1_plot})
    s, _ = act(s, "p2", {"plot": p2_plot})
    s, _ = act(s, s["decision"]["seats"][0], {"first_player": "p1"})
    return s


def end_phase(s, phase):
    """The phase ends (L85): its "when the phase ends" effects, then the frames they queue (a delayed
    return to hand goes through the would-leave window under rules revision 3, L218)."""
    events, pending = [], s["decision"]
    A.phase_ended(s, phase, events)
    s["decision"] = None
    while A.busy(s) and s["decision"] is None:
        A.step(s, events)
    s["decision"] = s["decision"] or pending
    return s


def in_action_window(s, seat):
    """Make it `seat`'s turn in the challenges phase's first action window (L87)."""
    s["window"] = {"name": "before_challenge", "then": "challenge_offer", "turn": seat, "passes": 0}
    s["decision"] = {"kind": "action", "seats": [seat]}
    return s


# ---------------------------------------------------------------- neutral plots (L58 III, L99, L119)


def test_counting_coppers_draws_3_when_revealed_L58():
    s = reveal("counting_coppers", p1={"hand": [], "deck_size": 10})
    assert len(s["players"]["p1"]["hand"]) == 3 + 2  # and the draw phase's 2 (L64)


def test_filthy_accusations_kneels_a_standing_character_L58_L136():
    s = reveal("filthy_accusations", p2={"characters": ["tywin_lannister", {"card": "burned_men", "kneeling": True}]})
    assert R.pending(s) == {"p1": "choose"}
    with pytest.raises(EngineError):  # a knelt one cannot be changed by the effect
        act(s, "p1", {"choose": {"card": "burned_men", "seat": "p2"}})
    s, ev = act(s, "p1", {"choose": {"card": "tywin_lannister", "seat": "p2"}})
    assert {"type": "kneel", "seat": "p2", "card": "tywin_lannister", "reason": "filthy_accusations"} in ev


def test_building_orders_takes_a_location_or_attachment_from_the_top_10_L58():
    s = reveal("building_orders", p1={"hand": [], "deck": ["eddard_stark", "ice", "winterfell_steward"]})
    assert R.pending(s) == {"p1": "choose"}
    with pytest.raises(EngineError):
        act(s, "p1", {"choose": {"card": "eddard_stark", "zone": "deck"}})
    s, _ = act(s, "p1", {"choose": {"card": "ice", "zone": "deck"}})
    assert [s["uids"][u][0] for u in s["players"]["p1"]["hand"]][0] == "ice"  # then the draw phase's 2 (L64)


def test_marched_to_the_wall_each_player_discards_one_unsavably_L58_L218():
    s = reveal("marched_to_the_wall",
               p1={"characters": ["eddard_stark", "winterfell_steward"]},
               p2={"characters": [{"card": "tywin_lannister", "attachments": ["bodyguard"]}]})
    assert R.pending(s) == {"p1": "choose"}  # p2 has one character: no choice to make
    s, _ = act(s, "p1", {"choose": "winterfell_steward"})
    summary = R.summary(s)
    assert summary["characters"]["p1"] == ["eddard_stark"] and summary["characters"]["p2"] == []
    assert "tywin_lannister" in summary["discard"]["p2"]  # Bodyguard could not save it


def test_a_feast_for_crows_gives_2_power_after_winning_dominance_L91():
    s = game({"plot": "a_feast_for_crows", "characters": ["eddard_stark"]}, {}, start="dominance")
    assert R.pending(s) == {"p1": "reaction"}  # the revealed plot's own reaction
    s, _ = act(s, "p1", {"trigger": "a_feast_for_crows"})
    assert s["players"]["p1"]["faction_power"] == 3  # 1 for dominance (L79) and 2 for the plot


def test_a_clash_of_kings_moves_1_power_after_winning_a_power_challenge_L91():
    s = game({"plot": "a_clash_of_kings", "characters": ["eddard_stark"]}, {"faction_power": 2})
    s, _ = attack(s, "p1", "power", ["eddard_stark"])
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": "a_clash_of_kings"})
    s, _ = act(s, "p1", {"pass": True}) if R.pending(s) == {"p1": "reaction"} else (s, [])
    # unopposed: +1 (L182), claim 1 (L185), and 1 moved by the plot
    assert s["players"]["p2"]["faction_power"] == 0 and s["players"]["p1"]["faction_power"] == 3


def test_power_behind_the_throne_puts_a_stand_token_and_spends_it_to_stand_a_character_L87():
    s = reveal("power_behind_the_throne", p1={"characters": ["eddard_stark"]})
    assert {"plot": s["players"]["p1"]["plot"], "n": 1} == s["players"]["p1"]["bt_stand_tokens"]
    s["inplay"][uid(s, "p1", "eddard_stark")]["kneeling"] = True
    s = in_action_window(s, "p1")
    assert {"trigger": {"card": "power_behind_the_throne", "targets": ["eddard_stark#1"]}} in R.legal_actions(s, "p1")
    s, _ = act(s, "p1", {"trigger": {"card": "power_behind_the_throne", "targets": ["eddard_stark"]}})
    assert not kneeling(s, "p1", "eddard_stark") and s["players"]["p1"]["bt_stand_tokens"]["n"] == 0
    s["inplay"][uid(s, "p1", "eddard_stark")]["kneeling"] = True
    assert not [o for o in A.options(s, "p1", "action", None) if o["trigger"]["card"] == "power_behind_the_throne"]


def test_a_noble_cause_the_first_lord_or_lady_costs_2_less_L128():
    s = game({"plot": "a_noble_cause", "hand": ["eddard_stark", "catelyn_stark"]}, {}, start="marshaling")
    hand = s["players"]["p1"]["hand"]
    assert A.marshal_cost(s, "p1", hand[0]) == 5 and A.marshal_cost(s, "p1", hand[1]) == 2
    s["players"]["p1"]["gold"] = 5
    s, _ = act(s, "p1", {"marshal": "eddard_stark"})
    assert s["players"]["p1"]["gold"] == 0
    assert A.marshal_cost(s, "p1", s["players"]["p1"]["hand"][0]) == 4  # only the first one


def test_a_storm_of_swords_and_khal_drogo_each_allow_1_extra_military_challenge_L72():
    s = game({"plot": "a_storm_of_swords", "characters": ["eddard_stark", "robb_stark", "grey_wind"]}, {})
    s["players"]["p1"]["challenges"] = ["military"]
    assert A.challenge_allowance(s, "p1", "military") is None
    s["players"]["p1"]["challenges"] = ["military", "military"]
    assert A.challenge_allowance(s, "p1", "military") is not None
    s = game({"characters": ["khal_drogo", "eddard_stark"]}, {})
    s["players"]["p1"]["challenges"] = ["military"]
    assert A.challenge_allowance(s, "p1", "military") is None


def test_fortified_position_blanks_every_characters_text_L158():
    s = game({"plot": "fortified_position"}, {"characters": ["tywin_lannister", "robert_baratheon"], "gold": 3})
    assert str_of(s, "p2", "tywin_lannister") == 6  # no +1 per gold
    assert not A.has_keyword(s, uid(s, "p2", "robert_baratheon"), "renown")


def test_marching_orders_forbids_attachments_locations_and_events_L68():
    s = game({"plot": "marching_orders", "characters": ["eddard_stark"], "gold": 9,
              "hand": ["ice", "the_kingsroad", "winterfell_steward", "winter_is_coming"]}, {}, start="marshaling")
    marshals = [a["marshal"] for a in R.legal_actions(s, "p1") if "marshal" in a]
    assert marshals == ["winterfell_steward"]
    with pytest.raises(EngineError):
        act(s, "p1", {"marshal": "the_kingsroad"})
    assert not any("play" in a for a in R.legal_actions(s, "p1"))


def test_wildling_horde_kneels_the_faction_card_for_2_str_L132():
    s = game({"characters": ["wildling_horde"]}, {"characters": ["tywin_lannister"]})
    s, _ = act(s, "p1", {"challenge": {"type": "military", "attackers": ["wildling_horde"]}})
    s = in_action_window(s, "p1")
    s, _ = act(s, "p1", {"trigger": {"card": "wildling_horde", "targets": ["wildling_horde"]}})
    assert str_of(s, "p1", "wildling_horde") == 7 and s["players"]["p1"]["faction_kneeling"]


# ---------------------------------------------------------------- baratheon


def test_maester_cressen_discards_a_condition_attachment_L88():
    s = game({"characters": ["maester_cressen"]},
             {"characters": [{"card": "tywin_lannister", "attachments": ["milk_of_the_poppy"]}]}, start="marshaling")
    s, _ = act(s, "p1", {"trigger": {"card": "maester_cressen", "targets": [{"card": "milk_of_the_poppy", "seat": "p2"}]}})
    assert R.summary(s)["attachments"]["p2"] == [] and kneeling(s, "p1", "maester_cressen")


def test_melisandre_kneels_a_character_after_you_marshal_a_rhllor_card_L91_L162():
    s = game({"characters": ["melisandre"], "hand": ["fiery_followers", "fiery_followers"], "gold": 6},
             {"characters": ["tywin_lannister"]}, start="marshaling")
    s, _ = act(s, "p1", {"marshal": "fiery_followers"})
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": {"card": "melisandre", "targets": [{"card": "tywin_lannister", "seat": "p2"}]}})
    assert kneeling(s, "p2", "tywin_lannister")
    s, _ = act(s, "p1", {"marshal": "fiery_followers"})
    assert R.pending(s) != {"p1": "reaction"}  # once per round


def test_robert_baratheon_gets_1_str_per_other_kneeling_character_L153():
    s = game({"characters": ["robert_baratheon", {"card": "eddard_stark", "kneeling": True}]},
             {"characters": [{"card": "tywin_lannister", "kneeling": True}]})
    assert str_of(s, "p1", "robert_baratheon") == 7


def test_selyse_baratheon_gives_a_baratheon_character_an_intrigue_icon_L132_L149():
    s = game({"characters": ["selyse_baratheon", "robert_baratheon"], "gold": 1}, {})
    s = in_action_window(s, "p1")
    with pytest.raises(EngineError):  # Selyse has the icon already: the effect cannot change her
        act(s, "p1", {"trigger": {"card": "selyse_baratheon", "targets": ["selyse_baratheon"]}})
    s, _ = act(s, "p1", {"trigger": {"card": "selyse_baratheon", "targets": ["robert_baratheon"]}})
    assert A.has_icon(s, uid(s, "p1", "robert_baratheon"), "intrigue") and s["players"]["p1"]["gold"] == 0
    A.phase_ended(s, "challenges", [])
    assert not A.has_icon(s, uid(s, "p1", "robert_baratheon"), "intrigue")


def test_ser_davos_seaworth_killed_goes_back_to_hand_L91_L214():
    s = game({"characters": ["tywin_lannister"]}, {"characters": ["ser_davos_seaworth"]})
    s, _ = attack(s, "p1", "military", ["tywin_lannister"])  # claim kills the only character (L184)
    assert R.pending(s) == {"p2": "interrupt"}
    s, ev = act(s, "p2", {"trigger": "ser_davos_seaworth"})
    assert R.summary(s)["dead"]["p2"] == [] and R.summary(s)["characters"]["p2"] == []
    assert any(e["type"] == "leaves_play" and e["card"] == "ser_davos_seaworth" and e["to"] == "hand" for e in ev)


def test_shireen_baratheon_killed_kneels_a_character_L91():
    s = game({"characters": ["tywin_lannister"]}, {"characters": ["shireen_baratheon"]}, first="p1")
    s, _ = attack(s, "p1", "military", ["tywin_lannister"])
    assert R.pending(s) == {"p2": "interrupt"}
    s["inplay"][uid(s, "p1", "tywin_lannister")]["kneeling"] = False
    s, _ = act(s, "p2", {"trigger": {"card": "shireen_baratheon", "targets": [{"card": "tywin_lannister", "seat": "p1"}]}})
    assert kneeling(s, "p1", "tywin_lannister") and R.summary(s)["dead"]["p2"] == ["shireen_baratheon"]


def test_fiery_followers_stands_when_the_dominance_phase_begins_L91():
    s = game({"characters": [{"card": "fiery_followers", "kneeling": True}]}, {}, start="dominance")
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": "fiery_followers"})
    assert not kneeling(s, "p1", "fiery_followers") and s["dominance"]["total"]["p1"] == 2  # it counts (L77)


def test_kings_hunting_party_has_intrigue_while_an_opponent_controls_a_king():
    s = game({"characters": ["kings_hunting_party"]}, {"characters": ["robert_baratheon"]})
    assert A.has_icon(s, uid(s, "p1", "kings_hunting_party"), "intrigue")
    s = game({"characters": ["kings_hunting_party", "robert_baratheon"]}, {})
    assert not A.has_icon(s, uid(s, "p1", "kings_hunting_party"), "intrigue")


def test_dragonstone_faithful_and_port_reduce_baratheon_costs_L88():
    s = game({"characters": ["dragonstone_faithful"], "locations": ["dragonstone_port"],
              "hand": ["robert_baratheon", "lightbringer"]}, {}, start="marshaling")
    s, _ = act(s, "p1", {"trigger": "dragonstone_faithful"})
    s, _ = act(s, "p1", {"trigger": "dragonstone_port"})
    robert, lightbringer = s["players"]["p1"]["hand"]
    assert A.marshal_cost(s, "p1", robert) == 5 and A.marshal_cost(s, "p1", lightbringer) == 1


def test_vanguard_lancer_discards_1_power_from_an_opponent_L91():
    s = game({"hand": ["vanguard_lancer"], "gold": 2}, {"faction_power": 3}, start="marshaling")
    s, _ = act(s, "p1", {"marshal": "vanguard_lancer"})
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": "vanguard_lancer"})
    assert s["players"]["p2"]["faction_power"] == 2


def test_vanguard_lancer_offers_a_character_first_then_the_faction_card_as_its_text_lists_them_L91():
    """SCENARIOS.md: a "choose" answers the options 0-based in the order the text gives them ("a
    character or a faction card")."""
    for mode, faction, on_tywin in ((0, 3, 1), (1, 2, 2)):
        s = game({"hand": ["vanguard_lancer"], "gold": 2},
                 {"faction_power": 3, "characters": [{"card": "tywin_lannister", "power": 2}]}, start="marshaling")
        s, _ = act(s, "p1", {"marshal": "vanguard_lancer"})
        s, _ = act(s, "p1", {"trigger": "vanguard_lancer"})
        s, _ = act(s, "p1", {"choose": mode})
        if mode == 0:
            s, _ = act(s, "p1", {"choose": "tywin_lannister"})
        assert s["players"]["p2"]["faction_power"] == faction
        assert s["inplay"][uid(s, "p2", "tywin_lannister")]["power"] == on_tywin


def test_chamber_of_the_painted_table_moves_power_after_dominance_L91():
    s = game({"locations": ["chamber_of_the_painted_table"], "characters": ["eddard_stark"]},
             {"faction_power": 2}, start="dominance")
    s, _ = R.apply(s, "p1", {"pass": True}) if R.pending(s) == {"p1": "action"} else (s, [])
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": "chamber_of_the_painted_table"})
    assert s["players"]["p2"]["faction_power"] == 1 and s["players"]["p1"]["faction_power"] == 2


def test_seen_in_flames_discards_a_card_from_the_opponents_hand_L123():
    s = game({"characters": ["melisandre"], "hand": ["seen_in_flames"], "gold": 1},
             {"hand": ["tywin_lannister", "burned_men"]})
    s = in_action_window(s, "p1")
    s, _ = act(s, "p1", {"play": "seen_in_flames"})
    assert R.pending(s) == {"p1": "choose"}
    s, _ = act(s, "p1", {"choose": {"card": "tywin_lannister", "zone": "hand", "seat": "p2"}})
    assert R.summary(s)["discard"]["p2"] == ["tywin_lannister"]


def test_ours_is_the_fury_joins_a_kneeling_character_as_defender_and_stands_it_on_a_win_L174():
    s = game({"characters": [{"card": "robert_baratheon", "kneeling": True}], "hand": ["ours_is_the_fury"], "gold": 2},
             {"characters": ["burned_men"]}, first="p2")
    s, _ = act(s, "p2", {"challenge": {"type": "military", "attackers": ["burned_men"]}})
    while R.pending(s) != {"p1": "action"}:
        seat = sorted(R.pending(s))[0]
        s, _ = act(s, seat, {"pass": True} if R.pending(s)[seat] in ("action", "reaction") else R.default_action(s, seat))
    s, _ = act(s, "p1", {"play": {"card": "ours_is_the_fury", "targets": ["robert_baratheon"]}})
    assert s["inplay"][uid(s, "p1", "robert_baratheon")]["participating"] == "defending"
    for _ in range(20):
        if s["challenge"]["winner"]:
            break
        seat = sorted(R.pending(s))[0]
        s, _ = act(s, seat, {"pass": True})
    assert s["challenge"]["winner"] == "p1" and not kneeling(s, "p1", "robert_baratheon")


# ---------------------------------------------------------------- targaryen


def test_daenerys_targaryen_gives_opponents_participants_minus_1_L153():
    s = game({"characters": ["daenerys_targaryen"]}, {"characters": ["tywin_lannister"], "gold": 0})
    s, _ = act(s, "p1", {"challenge": {"type": "intrigue", "attackers": ["daenerys_targaryen"]}})
    s["inplay"][uid(s, "p2", "tywin_lannister")]["participating"] = "defending"
    s["inplay"][uid(s, "p1", "daenerys_targaryen")]["kneeling"] = False
    assert str_of(s, "p2", "tywin_lannister") == 5
    s["inplay"][uid(s, "p1", "daenerys_targaryen")]["kneeling"] = True
    assert str_of(s, "p2", "tywin_lannister") == 6


def test_drogon_and_viserion_give_daenerys_renown_and_stealth_L160():
    s = game({"characters": ["daenerys_targaryen", "drogon", "viserion"]}, {})
    u = uid(s, "p1", "daenerys_targaryen")
    assert A.has_keyword(s, u, "renown") and A.has_keyword(s, u, "stealth")


def test_magister_illyrio_pays_2_gold_to_stand_a_character_once_per_phase_L162():
    s = game({"characters": ["magister_illyrio", {"card": "khal_drogo", "kneeling": True},
                             {"card": "braided_warrior", "kneeling": True}], "gold": 4}, {})
    s = in_action_window(s, "p1")
    s, _ = act(s, "p1", {"trigger": {"card": "magister_illyrio", "targets": ["khal_drogo"]}})
    assert not kneeling(s, "p1", "khal_drogo") and s["players"]["p1"]["gold"] == 2
    assert not [o for o in A.options(s, "p1", "action", None) if o["trigger"]["card"].startswith("magister")]


def test_rhaegal_stands_a_stormborn_character_after_a_win_with_one_L91():
    s = game({"characters": ["daenerys_targaryen", "rhaegal"]}, {})
    s, _ = attack(s, "p1", "intrigue", ["daenerys_targaryen"])
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": {"card": "rhaegal", "targets": ["daenerys_targaryen"]}})
    assert not kneeling(s, "p1", "daenerys_targaryen")


def test_ser_jorah_mormont_gets_betrayal_tokens_and_is_sacrificed_at_3_L99():
    s = game({"characters": [{"card": "ser_jorah_mormont", "tokens": {"betrayal": 2}}]}, {})
    s, ev = attack(s, "p1", "military", ["ser_jorah_mormont"])
    s = until_idle(s)
    assert "ser_jorah_mormont" in R.summary(s)["discard"]["p1"]


def until_idle(s):
    for _ in range(20):
        if A.busy(s) or not R.pending(s):
            break
        seat = sorted(R.pending(s))[0]
        if R.pending(s)[seat] in ("reaction", "interrupt"):
            s, _ = act(s, seat, {"pass": True})
        else:
            break
    return s


def test_viserys_targaryen_leaving_play_discards_an_attachment_L91():
    s = game({"characters": ["tywin_lannister"]},
             {"characters": ["viserys_targaryen", {"card": "burned_men", "attachments": ["little_bird"]}]})
    s, _ = attack(s, "p1", "military", ["tywin_lannister"], [])  # claim 2 kills both (L184)
    assert R.pending(s) == {"p2": "interrupt"}
    s, _ = act(s, "p2", {"trigger": {"card": "viserys_targaryen", "targets": [{"card": "little_bird", "seat": "p2"}]}})
    assert R.summary(s)["attachments"]["p2"] == []


def test_handmaiden_is_sacrificed_to_stand_a_lady_L132():
    s = game({"characters": ["handmaiden", {"card": "daenerys_targaryen", "kneeling": True}]}, {})
    s = in_action_window(s, "p1")
    s, _ = act(s, "p1", {"trigger": {"card": "handmaiden", "targets": ["daenerys_targaryen"]}})
    assert not kneeling(s, "p1", "daenerys_targaryen") and R.summary(s)["discard"]["p1"] == ["handmaiden"]


def test_targaryen_loyalist_and_illyrios_estate_reduce_targaryen_costs_L88():
    s = game({"characters": ["targaryen_loyalist"], "locations": ["illyrios_estate"],
              "hand": ["khal_drogo"], "gold": 4}, {}, start="marshaling")
    s, _ = act(s, "p1", {"trigger": "targaryen_loyalist"})
    s, _ = act(s, "p1", {"trigger": "illyrios_estate"})
    assert A.marshal_cost(s, "p1", s["players"]["p1"]["hand"][0]) == 4


def test_unsullied_attacking_gives_defenders_minus_1_L153():
    s = game({"characters": ["unsullied"]}, {"characters": ["tywin_lannister"]})
    s, _ = attack(s, "p1", "military", ["unsullied"], ["tywin_lannister"])
    assert s["challenge"]["strength"]["p2"] == 5


def test_dothraki_sea_puts_a_dothraki_into_play_until_the_phase_ends_L222():
    s = game({"locations": ["dothraki_sea"], "characters": ["daenerys_targaryen"], "hand": ["khal_drogo"]}, {})
    s, _ = attack(s, "p1", "power", ["daenerys_targaryen"])
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": {"card": "dothraki_sea", "targets": [{"card": "khal_drogo", "zone": "hand"}]}})
    assert "khal_drogo" in R.summary(s)["characters"]["p1"] and R.summary(s)["discard"]["p1"] == ["dothraki_sea"]
    s = end_phase(s, "challenges")
    assert "khal_drogo" not in R.summary(s)["characters"]["p1"]
    assert "khal_drogo" in [s["uids"][u][0] for u in s["players"]["p1"]["hand"]]


def test_drogos_arakh_gives_2_str_and_khal_drogo_does_not_kneel_in_the_first_military_L169():
    s = game({"characters": [{"card": "khal_drogo", "attachments": ["drogos_arakh"]}]}, {})
    assert str_of(s, "p1", "khal_drogo") == 7
    s, _ = act(s, "p1", {"challenge": {"type": "military", "attackers": ["khal_drogo"]}})
    assert not kneeling(s, "p1", "khal_drogo")


def test_fire_and_blood_puts_a_hatchling_back_into_play_or_shuffles_L222():
    s = game({"dead": ["rhaegal"], "hand": ["fire_and_blood"], "gold": 1}, {})
    s = in_action_window(s, "p1")
    s, _ = act(s, "p1", {"play": {"card": "fire_and_blood", "targets": [{"card": "rhaegal", "zone": "dead"}]}})
    assert R.pending(s) == {"p1": "choose"}
    s, _ = act(s, "p1", {"choose": 1})
    assert R.summary(s)["characters"]["p1"] == ["rhaegal"] and R.summary(s)["dead"]["p1"] == []
    s = game({"dead": ["daenerys_targaryen"], "hand": ["fire_and_blood"], "gold": 1, "deck_size": 3}, {})
    s = in_action_window(s, "p1")
    s, _ = act(s, "p1", {"play": {"card": "fire_and_blood", "targets": [{"card": "daenerys_targaryen", "zone": "dead"}]}})
    assert R.summary(s)["dead"]["p1"] == [] and len(s["players"]["p1"]["deck"]) == 4


def test_waking_the_dragon_stands_a_unique_targaryen_that_returns_to_hand_L108():
    s = game({"characters": [{"card": "khal_drogo", "kneeling": True}], "hand": ["waking_the_dragon"]}, {})
    s = in_action_window(s, "p1")
    s, _ = act(s, "p1", {"play": {"card": "waking_the_dragon", "targets": ["khal_drogo"]}})
    assert not kneeling(s, "p1", "khal_drogo")
    s = end_phase(s, "challenges")
    assert R.summary(s)["characters"]["p1"] == []


def test_cards_without_abilities_are_implemented():
    for cid in ("bastard_in_hiding", "braided_warrior"):
        assert ABILITIES[cid] == []


# ---------------------------------------------------------------- random games with these cards (§5.3, L219, L229)

BARATHEON = ["maester_cressen", "melisandre", "robert_baratheon", "selyse_baratheon", "ser_davos_seaworth",
             "shireen_baratheon", "bastard_in_hiding", "fiery_followers", "kings_hunting_party", "dragonstone_faithful",
             "vanguard_lancer", "dragonstone_port", "chamber_of_the_painted_table", "seen_in_flames",
             "ours_is_the_fury", "wildling_horde", "stannis_baratheon", "the_red_keep", "lightbringer",
             "consolidation_of_power"]
TARGARYEN = ["daenerys_targaryen", "drogon", "khal_drogo", "magister_illyrio", "rhaegal", "ser_jorah_mormont",
             "viserion", "viserys_targaryen", "braided_warrior", "handmaiden", "targaryen_loyalist", "unsullied",
             "illyrios_estate", "dothraki_sea", "drogos_arakh", "fire_and_blood", "waking_the_dragon",
             "plaza_of_punishment", "dracarys"]
PLOTS = {"baratheon": ["a_clash_of_kings", "a_feast_for_crows", "a_noble_cause", "counting_coppers",
                       "filthy_accusations", "marched_to_the_wall", "power_behind_the_throne"],
         "targaryen": ["a_storm_of_swords", "fortified_position", "marching_orders", "counting_coppers",
                       "building_orders", "jousting_contest", "a_feast_for_crows"]}


@pytest.fixture
def test_decks(monkeypatch):
    from games.engine.lcg import data

    decks = data.load()["decks"]
    for faction, cards in (("baratheon", BARATHEON), ("targaryen", TARGARYEN)):
        draw = (cards * 4)[:60]
        monkeypatch.setitem(decks, f"bt_{faction}", {"id": f"bt_{faction}", "name": faction, "faction": faction,
                                                     "agenda": None, "plots": PLOTS[faction], "draw": draw})
    return ["bt_baratheon", "bt_targaryen"]


@pytest.mark.parametrize("every_window", [False, True], ids=["skip-empty-windows", "every-window"])
def test_random_games_with_these_cards_keep_the_invariants(test_decks, every_window):
    from tests.engine.test_lcg_random_games import play

    for seed in range(4):
        for decks in (tuple(test_decks), tuple(reversed(test_decks)), ("bt_targaryen", "secrets_and_schemes")):
            state, _log = play(500 + seed, decks, every_window)
            assert state["winner"] in ("p1", "p2")


# ---------------------------------------------------------------- the framework's rules these cards change


def test_stannis_baratheon_no_player_stands_more_than_2_characters_L80():
    knelt = [{"card": c, "kneeling": True} for c in ("eddard_stark", "robb_stark", "grey_wind")]
    s = game({"characters": knelt, "locations": [{"card": "the_kingsroad", "kneeling": True}]},
             {"characters": ["stannis_baratheon", {"card": "tywin_lannister", "kneeling": True}]}, start="standing")
    assert R.pending(s) == {"p1": "choose"}
    assert not kneeling(s, "p1", "the_kingsroad") and not kneeling(s, "p2", "tywin_lannister")
    s, _ = act(s, "p1", {"choose": "robb_stark"})
    s, _ = act(s, "p1", {"choose": "grey_wind"})
    assert kneeling(s, "p1", "eddard_stark") and not kneeling(s, "p1", "robb_stark")


def test_the_red_keep_adds_2_str_in_power_challenges_and_draws_2_if_no_power_challenge_was_lost_L176():
    s = game({"characters": ["eddard_stark"]}, {"characters": ["tywin_lannister"], "locations": ["the_red_keep"]})
    s, _ = attack(s, "p1", "power", ["eddard_stark"], ["tywin_lannister"])
    assert s["challenge"]["strength"] == {"p1": 5, "p2": 8} and s["challenge"]["winner"] == "p2"
    assert A.strength(s, uid(s, "p2", "tywin_lannister")) == 6  # a side's bonus, not the character's
    ctx = {"src": uid(s, "p2", "the_red_keep"), "seat": "p2", "ev": {"phase": "challenges"}}
    assert A.conds_hold(s, ctx, ABILITIES["the_red_keep"][1]["if"])
    s["players"]["p2"]["bt_lost_power"] = s["round"]
    assert not A.conds_hold(s, ctx, ABILITIES["the_red_keep"][1]["if"])


def test_the_red_keep_interrupt_when_the_challenges_phase_ends_L85():
    s = game({}, {"locations": ["the_red_keep"], "deck_size": 5}, first="p2")
    hand = len(s["players"]["p2"]["hand"])
    s, _ = act(s, "p2", {"pass": True}) if R.pending(s) == {"p2": "challenge"} else (s, [])
    assert R.pending(s) == {"p2": "interrupt"}
    s, _ = act(s, "p2", {"trigger": "the_red_keep"})
    assert len(s["players"]["p2"]["hand"]) == hand + 2


def test_plaza_of_punishment_gives_minus_2_and_kills_at_0_str_L153():
    s = game({"characters": ["eddard_stark"], "locations": ["plaza_of_punishment"]},
             {"characters": ["lannisport_merchant", "tywin_lannister"]})
    s, _ = attack(s, "p1", "power", ["eddard_stark"])
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": {"card": "plaza_of_punishment",
                                     "targets": [{"card": "lannisport_merchant", "seat": "p2"}]}})
    assert "lannisport_merchant" in R.summary(s)["dead"]["p2"]


def test_dracarys_kneels_a_dragon_for_minus_4_str_L132():
    s = game({"characters": ["drogon", "rhaegal"], "hand": ["dracarys"], "gold": 1},
             {"characters": ["tywin_lannister"]})
    s, _ = act(s, "p1", {"challenge": {"type": "military", "attackers": ["drogon"]}})
    s, _ = act(s, "p1", {"pass": True})  # the window after attackers (L74)
    s, _ = act(s, "p2", {"defenders": ["tywin_lannister"]})
    assert R.pending(s) == {"p1": "action"}
    s, ev = act(s, "p1", {"play": {"card": "dracarys", "targets": [{"card": "tywin_lannister", "seat": "p2"}]}})
    assert {"type": "kneel", "seat": "p1", "card": "rhaegal", "reason": "cost"} in ev
    result = next(e for e in ev if e["type"] == "challenge_result")
    assert result["strength"] == {"p1": 4, "p2": 2} and result["winner"] == "p1"


def test_lightbringer_gives_stannis_renown_and_stands_him_after_he_gains_power():
    s = game({"characters": [{"card": "stannis_baratheon", "attachments": ["lightbringer"]}]}, {})
    assert A.has_keyword(s, uid(s, "p1", "stannis_baratheon"), "renown")
    s, _ = attack(s, "p1", "power", ["stannis_baratheon"])
    for _ in range(5):
        if R.pending(s) != {"p1": "renown"}:
            break
        s, _ = act(s, "p1", {"renown": ["stannis_baratheon"]})
    assert R.pending(s) == {"p1": "reaction"}
    s, _ = act(s, "p1", {"trigger": "lightbringer"})
    assert not kneeling(s, "p1", "stannis_baratheon")


def test_consolidation_of_power_kneels_up_to_4_str_and_gives_1_power_L136():
    s = game({"hand": ["consolidation_of_power"], "gold": 1},
             {"characters": ["lannisport_merchant", "burned_men", "tywin_lannister"]}, start="marshaling")
    s, _ = act(s, "p1", {"play": "consolidation_of_power"})
    with pytest.raises(EngineError):  # STR 6
        act(s, "p1", {"choose": {"card": "tywin_lannister", "seat": "p2"}})
    s, _ = act(s, "p1", {"choose": {"card": "lannisport_merchant", "seat": "p2"}})
    s, _ = act(s, "p1", {"choose": {"card": "burned_men", "seat": "p2"}})
    s, _ = act(s, "p1", {"choose": {"card": "burned_men", "seat": "p2"}})
    assert kneeling(s, "p2", "lannisport_merchant") and kneeling(s, "p2", "burned_men")
    assert s["inplay"][uid(s, "p2", "burned_men")]["power"] == 1


def test_jousting_contest_one_attacker_and_one_defender_per_player_L169_L172():
    s = game({"plot": "jousting_contest", "characters": ["eddard_stark", "robb_stark"]},
             {"characters": ["tywin_lannister", "ser_jaime_lannister"]})
    with pytest.raises(EngineError, match="Jousting Contest"):
        act(s, "p1", {"challenge": {"type": "military", "attackers": ["eddard_stark", "robb_stark"]}})
    s, _ = act(s, "p1", {"challenge": {"type": "military", "attackers": ["eddard_stark"]}})
    assert R.pending(s) == {"p2": "defenders"} and A.max_defenders(s) == 1
    with pytest.raises(EngineError, match="Jousting Contest"):
        act(s, "p2", {"defenders": ["tywin_lannister", "ser_jaime_lannister"]})
    act(s, "p2", {"defenders": ["tywin_lannister"]})
