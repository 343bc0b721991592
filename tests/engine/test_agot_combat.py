"""Combat (R189-R246), garrisons (R273-R278), neutral forces (R279-R285, A14) and the combat
defaults D18-D26, played through the agot ruleset from small scenario setups."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine.agot import combat
from games.engine.base import EngineError, get_ruleset

RS = get_ruleset("agot")
SEATS = ["stark", "lannister", "baratheon"]
TRACKS = {
    "iron_throne": ["lannister", "stark", "baratheon"],
    "fiefdoms": ["baratheon", "stark", "lannister"],
    "kings_court": ["lannister", "stark", "baratheon"],
}


def game(units: dict[str, Any], orders: dict[str, Any], seats: list[str] | None = None, **setup: Any) -> dict:
    full = {"units": units, "orders": orders, "neutral_forces": {}, "garrisons": {}, "tracks": TRACKS}
    full.update(setup)
    return RS.scenario_game(seats or SEATS, {}, 7, full, "action")


def act(state: dict, seat: str, action: dict) -> dict:
    new, _events = RS.apply(state, seat, action)
    return new


def refused(state: dict, seat: str, action: dict) -> str:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(EngineError) as info:
        RS.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before
    return info.value.code


def summary(state: dict, viewer: Any = "referee") -> dict:
    return RS.summary(state, viewer)


def march(state: dict, seat: str, origin: str, dest: str, units: list[str]) -> dict:
    return act(state, seat, {"march": {"from": origin, "moves": {dest: units}}})


# --------------------------------------------------------------------- a standard battle
# Lannister attacks Baratheon in Blackwater from Stoney Sept; Lannister may support itself from
# Harrenhal, Stark may support either side from Crackclaw Point.


def blackwater(**setup: Any) -> dict:
    units = {
        "stoney_sept": {"lannister": ["knight", "footman"]},
        "harrenhal": {"lannister": ["footman"]},
        "blackwater": {"baratheon": ["footman", "knight"]},
        "crackclaw_point": {"stark": ["knight"]},
    }
    orders = {
        "stoney_sept": {"lannister": "march+0"},
        "harrenhal": {"lannister": "support+0"},
        "crackclaw_point": {"stark": "support+0"},
    }
    units.update(setup.pop("units", {}))
    orders.update(setup.pop("orders", {}))
    state = game(units, orders, **setup)
    return march(state, "lannister", "stoney_sept", "blackwater", ["knight", "footman"])


def test_r194_r195_unit_strengths() -> None:
    assert combat.unit_strength("footman", attacking=True, castle=False) == 1
    assert combat.unit_strength("knight", attacking=False, castle=True) == 2
    assert combat.unit_strength("ship", attacking=True, castle=False) == 1
    assert combat.unit_strength("siege_engine", attacking=True, castle=True) == 4
    assert combat.unit_strength("siege_engine", attacking=True, castle=False) == 0
    assert combat.unit_strength("siege_engine", attacking=False, castle=True) == 0
    assert combat.unit_strength("routed_knight", attacking=False, castle=False) == 0


def test_r203_supporters_declare_in_iron_throne_order() -> None:
    state = blackwater()
    assert summary(state)["pending"] == {"lannister": "support"}
    state = act(state, "lannister", {"support": {"for": "lannister"}})
    assert summary(state)["pending"] == {"stark": "support"}


def test_r210_never_support_the_enemy_of_ones_own_units() -> None:
    state = blackwater()
    assert refused(state, "lannister", {"support": {"for": "baratheon"}}) == "illegal_action"
    assert refused(state, "stark", {"support": {"for": "lannister"}}) == "not_your_turn"
    assert refused(state, "lannister", {"support": {"for": "greyjoy"}}) == "illegal_action"
    assert refused(state, "lannister", {"support": "lannister"}) == "bad_action"


def test_r200_r207_support_offered_to_another_house_may_be_refused() -> None:
    state = blackwater()
    state = act(state, "lannister", {"support": {"for": "lannister"}})
    state = act(state, "stark", {"support": {"for": "baratheon"}})
    assert summary(state)["pending"] == {"baratheon": "accept_support"}
    assert refused(state, "baratheon", {"accept_support": {"lannister": False}}) == "illegal_action"
    state = act(state, "baratheon", {"accept_support": {"stark": False}})
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "baratheon", {"house_card": "melisandre"})
    # Lannister 2 + 1 + March +0 + Harrenhal's footman 1 = 4; Baratheon 1 + 2 = 3 without Stark's knight.
    assert summary(state)["combat"]["initial_strength"] == {"lannister": 4, "baratheon": 3}


def test_r204_r215_accepted_support_counts_and_supporters_are_untouched() -> None:
    state = blackwater()
    state = act(state, "lannister", {"support": {"for": "lannister"}})
    state = act(state, "stark", {"support": {"for": "baratheon"}})
    state = act(state, "baratheon", {"accept_support": {"stark": True}})
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "baratheon", {"house_card": "melisandre"})
    s = summary(state)
    assert s["combat"]["initial_strength"] == {"lannister": 4, "baratheon": 5}
    assert s["units"]["crackclaw_point"]["stark"] == ["knight"]
    assert s["orders"]["crackclaw_point"] == {"stark": "support+0"}  # R205: not used up


def test_r212_a27_special_support_adds_one_even_from_zero_strength() -> None:
    state = blackwater(units={"harrenhal": {"lannister": ["siege_engine"]}},
                       orders={"harrenhal": {"lannister": "support+1*"}})
    state = act(state, "lannister", {"support": {"for": "lannister"}})
    state = act(state, "stark", {"support": {"for": None}})
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "baratheon", {"house_card": "melisandre"})
    # Blackwater has no castle: the siege engine adds 0 (R209), the special token +1 (R212).
    assert summary(state)["combat"]["initial_strength"] == {"lannister": 4, "baratheon": 3}


def test_r196_defense_order_adds_to_the_defender() -> None:
    state = blackwater(orders={"blackwater": {"baratheon": "defense+2*"}})
    state = act(state, "lannister", {"support": {"for": None}})
    state = act(state, "stark", {"support": {"for": None}})
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "baratheon", {"house_card": "melisandre"})
    assert summary(state)["combat"]["initial_strength"] == {"lannister": 3, "baratheon": 5}


def test_r208_r213_land_units_never_support_at_sea_and_port_ships_never_on_land() -> None:
    units = {
        "sunset_sea": {"lannister": ["ship", "ship"]},
        "bay_of_ice": {"stark": ["ship"]},
        "winterfell": {"stark": ["footman"]},
        "port_of_winterfell": {"stark": ["ship"]},
        "karhold": {"lannister": ["knight"]},
    }
    orders = {
        "sunset_sea": {"lannister": "march+0"},
        "winterfell": {"stark": "support+0"},
        "port_of_winterfell": {"stark": "support+0"},
        "karhold": {"lannister": "march+0"},
    }
    state = game(units, orders)
    # Sea combat: the port ships may support it (R213), the footman in Winterfell may not (R208).
    sea = march(state, "lannister", "sunset_sea", "bay_of_ice", ["ship", "ship"])
    assert summary(sea)["pending"] == {"stark": "support"}
    sea = act(sea, "stark", {"support": {"for": "stark"}})
    sea = act(sea, "lannister", {"house_card": "the_hound"})
    sea = act(sea, "stark", {"house_card": "catelyn_stark"})
    assert summary(sea)["combat"]["initial_strength"] == {"lannister": 2, "stark": 2}
    # Land combat in Winterfell: the port's ships may not support it (R198, R213); nobody is asked.
    land = march(state, "lannister", "karhold", "winterfell", ["knight"])
    assert summary(land)["pending"] == {"lannister": "house_card", "stark": "house_card"}


def test_r211_support_must_be_adjacent_to_the_embattled_area() -> None:
    # Riverrun is adjacent to Stoney Sept (the origin) but not to Blackwater: it is never asked.
    state = game(
        {"stoney_sept": {"lannister": ["knight"]}, "riverrun": {"lannister": ["knight"]},
         "blackwater": {"baratheon": ["footman"]}},
        {"stoney_sept": {"lannister": "march+0"}, "riverrun": {"lannister": "support+0"}},
    )
    state = march(state, "lannister", "stoney_sept", "blackwater", ["knight"])
    assert summary(state)["pending"] == {"lannister": "house_card", "baratheon": "house_card"}


# --------------------------------------------------------------------- house cards


def to_cards(**setup: Any) -> dict:
    state = blackwater(**setup)
    state = act(state, "lannister", {"support": {"for": "lannister"}})
    return act(state, "stark", {"support": {"for": None}})


def test_r219_house_cards_are_secret_until_both_are_chosen() -> None:
    state = to_cards()
    state = act(state, "lannister", {"house_card": "tywin_lannister"})
    assert summary(state)["pending"] == {"baratheon": "house_card"}
    assert "tywin_lannister" not in json.dumps(RS.view(state, "baratheon"))
    assert "tywin_lannister" not in json.dumps(RS.view(state, None))
    assert "tywin_lannister" not in json.dumps(summary(state, "baratheon").get("combat"))
    assert RS.view(state, "lannister")["secret"]["lannister"]["house_card"] == "tywin_lannister"
    # a house may change its mind only by... not at all: the decision is made
    assert refused(state, "lannister", {"house_card": "the_hound"}) == "not_your_turn"
    state = act(state, "baratheon", {"house_card": "melisandre"})
    assert summary(state, None)["combat"]["cards"] == {"lannister": "tywin_lannister", "baratheon": "melisandre"}


def test_r223_a_card_not_in_hand_is_refused() -> None:
    state = to_cards(discards={"lannister": ["the_hound"]})
    assert refused(state, "lannister", {"house_card": "the_hound"}) == "illegal_action"
    assert refused(state, "lannister", {"house_card": "melisandre"}) == "illegal_action"
    assert refused(state, "lannister", {"house_card": 3}) == "bad_action"


def test_r220_the_last_card_is_played_without_asking_and_r224_the_hand_comes_back() -> None:
    others = ["tywin_lannister", "ser_gregor_clegane", "the_hound", "ser_jaime_lannister", "tyrion_lannister",
              "ser_kevan_lannister"]
    state = to_cards(hands={"lannister": ["cersei_lannister"]}, discards={"lannister": others})
    assert summary(state)["pending"] == {"baratheon": "house_card"}
    state = act(state, "baratheon", {"house_card": "melisandre"})
    s = summary(state)
    assert s["combat"]["cards"]["lannister"] == "cersei_lannister"
    assert sorted(s["hands"]["lannister"]) == sorted(others)
    assert s["discards"]["lannister"] == ["cersei_lannister"]
    assert s["discards"]["baratheon"] == ["melisandre"]
    assert "melisandre" not in s["hands"]["baratheon"]


# --------------------------------------------------------------------- blade, victor, casualties


def test_r228_the_blade_holder_may_add_one_once_per_round() -> None:
    tracks = dict(TRACKS, fiefdoms=["lannister", "stark", "baratheon"])
    state = to_cards(tracks=tracks)
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "baratheon", {"house_card": "stannis_baratheon"})
    s = summary(state)
    assert s["pending"] == {"lannister": "blade"}
    assert s["combat"]["strength"] == {"lannister": 6, "baratheon": 7}
    # D22: +1 only ties 7-7, which Lannister (first on Fiefdoms) wins: the default uses it.
    assert RS.default_action(state, "lannister") == {"blade": True}
    state = act(state, "lannister", {"blade": True})
    s = summary(state)
    assert s["combat"]["strength"] == {"lannister": 7, "baratheon": 7}
    assert s["combat"]["winner"] == "lannister"
    assert s["used"]["valyrian_steel_blade"] is True


def test_d22_blade_default_keeps_it_when_it_cannot_change_the_result() -> None:
    tracks = dict(TRACKS, fiefdoms=["lannister", "stark", "baratheon"])
    state = to_cards(tracks=tracks)
    state = act(state, "lannister", {"house_card": "tywin_lannister"})
    state = act(state, "baratheon", {"house_card": "melisandre"})
    assert summary(state)["pending"] == {"lannister": "blade"}
    assert RS.default_action(state, "lannister") == {"blade": False}


def test_r228_a_used_blade_is_not_offered() -> None:
    tracks = dict(TRACKS, fiefdoms=["lannister", "stark", "baratheon"])
    state = to_cards(tracks=tracks, used={"valyrian_steel_blade": True})
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "baratheon", {"house_card": "stannis_baratheon"})
    assert summary(state)["pending"] != {"lannister": "blade"}


def test_r229_a_tie_goes_to_the_higher_fiefdoms_position() -> None:
    state = to_cards()
    state = act(state, "lannister", {"house_card": "ser_kevan_lannister"})
    state = act(state, "baratheon", {"house_card": "salladhor_saan"})
    s = summary(state)
    assert s["combat"]["strength"]["lannister"] == s["combat"]["strength"]["baratheon"]
    assert s["combat"]["winner"] == "baratheon"  # Baratheon is first on Fiefdoms here


def test_r231_r232_the_loser_chooses_casualties_among_eligible_units() -> None:
    state = to_cards()
    state = act(state, "lannister", {"house_card": "tywin_lannister"})  # 4, 2 swords? see data
    state = act(state, "baratheon", {"house_card": "ser_davos_seaworth"})
    s = summary(state)
    assert s["combat"]["winner"] == "lannister"
    assert s["pending"] == {"baratheon": "casualties"}
    assert refused(state, "baratheon", {"casualties": ["knight", "footman"]}) == "illegal_action"
    assert refused(state, "baratheon", {"casualties": ["ship"]}) == "illegal_action"
    assert RS.default_action(state, "baratheon") == {"casualties": ["footman"]}  # D24
    state = act(state, "baratheon", {"casualties": ["knight"]})
    s = summary(state)
    assert s["combat"]["casualties"] == {"baratheon": ["knight"]}
    assert s["pending"] == {"baratheon": "retreat"}


def test_r231_fortifications_cancel_swords() -> None:
    state = to_cards()
    state = act(state, "lannister", {"house_card": "ser_jaime_lannister"})  # 2, 1 sword
    state = act(state, "baratheon", {"house_card": "ser_davos_seaworth"})  # 2, 1 fortification
    s = summary(state)
    assert s["combat"]["winner"] == "lannister"
    assert s["combat"]["casualties"] == {}
    assert s["pending"] == {"baratheon": "retreat"}


def test_r234_r241_routed_units_are_never_casualties_and_die_when_retreating_again() -> None:
    state = to_cards(units={"blackwater": {"baratheon": ["footman", "routed_knight"]}})
    state = act(state, "lannister", {"house_card": "tywin_lannister"})
    state = act(state, "baratheon", {"house_card": "melisandre"})
    s = summary(state)
    assert s["combat"]["initial_strength"]["baratheon"] == 1
    assert s["combat"]["casualties"] == {"baratheon": ["footman"]}
    assert s["units"]["blackwater"] == {"lannister": ["knight", "footman"]}
    assert s["control"]["blackwater"] == "lannister"


# --------------------------------------------------------------------- retreats


def retreat_setup(**setup: Any) -> dict:
    state = to_cards(**setup)
    state = act(state, "lannister", {"house_card": "the_hound"})
    return act(state, "baratheon", {"house_card": "melisandre"})


def test_r238_legal_retreat_areas_exclude_origin_and_enemy_areas() -> None:
    state = retreat_setup(units={"kings_landing": {"stark": ["footman"]}})
    options = {a["retreat"]["to"] for a in RS.legal_actions(state, "baratheon")}
    # Blackwater: Stoney Sept is the attacker's origin (c), Harrenhal and Crackclaw Point and
    # King's Landing hold enemy units (a); Searoad Marches and The Reach are empty.
    assert options == {"searoad_marches", "the_reach"}
    assert refused(state, "baratheon", {"retreat": {"to": "stoney_sept"}}) == "illegal_action"
    assert refused(state, "baratheon", {"retreat": {"to": "kings_landing"}}) == "illegal_action"
    state = act(state, "baratheon", {"retreat": {"to": "the_reach"}})
    s = summary(state)
    assert s["units"]["the_reach"]["baratheon"] == ["routed_footman", "routed_knight"]  # R241
    assert s["units"]["blackwater"] == {"lannister": ["knight", "footman"]}


def test_a24_neutral_force_and_enemy_token_areas_are_not_retreat_areas() -> None:
    state = retreat_setup(neutral_forces={"the_reach": 4}, power_tokens={"searoad_marches": "stark"},
                          units={"kings_landing": {"stark": ["footman"]}})
    # Nothing left: the retreating units are destroyed (R238e).
    s = summary(state)
    assert s["units"].get("blackwater") == {"lannister": ["knight", "footman"]}
    assert all("baratheon" not in by_house for by_house in s["units"].values())


def test_d25_default_retreat_prefers_friendly_then_lowest_id() -> None:
    state = retreat_setup(units={"the_reach": {"baratheon": ["footman"]}}, supply={"baratheon": 3})
    assert RS.default_action(state, "baratheon") == {"retreat": {"to": "the_reach"}}


def test_r238d_units_beyond_supply_are_destroyed_before_the_retreat() -> None:
    # Stark (supply 0: armies of 2 and 2) loses Castle Black; Karhold already holds a footman and is
    # the only retreat area (Winterfell is the origin, the rest is sea).
    state = game(
        {"winterfell": {"lannister": ["knight", "knight"]}, "castle_black": {"stark": ["footman", "knight"]},
         "karhold": {"stark": ["footman"]}},
        {"winterfell": {"lannister": "march+0"}},
        supply={"stark": 0},
    )
    state = march(state, "lannister", "winterfell", "castle_black", ["knight", "knight"])
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "stark", {"house_card": "catelyn_stark"})
    assert summary(state)["pending"] == {"stark": "retreat"}
    assert RS.legal_actions(state, "stark") == [
        {"retreat": {"to": "karhold", "destroy": ["footman"]}},
        {"retreat": {"to": "karhold", "destroy": ["knight"]}},
    ]
    assert RS.default_action(state, "stark") == {"retreat": {"to": "karhold", "destroy": ["footman"]}}  # D26
    assert refused(state, "stark", {"retreat": {"to": "karhold"}}) == "illegal_action"
    state = act(state, "stark", {"retreat": {"to": "karhold", "destroy": ["footman"]}})
    assert summary(state)["units"]["karhold"]["stark"] == ["footman", "routed_knight"]


def test_r238e_no_legal_area_destroys_the_army_and_r239_transport_opens_one() -> None:
    units = {"winterfell": {"lannister": ["knight", "knight"]}, "the_stony_shore": {"stark": ["footman"]}}
    orders = {"winterfell": {"lannister": "march+0"}}
    state = game(units, orders)
    state = march(state, "lannister", "winterfell", "the_stony_shore", ["knight", "knight"])
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "stark", {"house_card": "catelyn_stark"})
    assert "stark" not in json.dumps(summary(state)["units"])  # only Bay of Ice (sea) and the origin
    # With a Stark ship in the Bay of Ice the footman may retreat by transport.
    state = game(dict(units, bay_of_ice={"stark": ["ship"]}), orders)
    state = march(state, "lannister", "winterfell", "the_stony_shore", ["knight", "knight"])
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "stark", {"house_card": "catelyn_stark"})
    options = {a["retreat"]["to"] for a in RS.legal_actions(state, "stark")}
    assert options == {"castle_black", "flints_finger", "greywater_watch"}


def test_r240_siege_engines_cannot_retreat() -> None:
    state = retreat_setup(units={"blackwater": {"baratheon": ["footman", "siege_engine"]},
                                 "the_reach": {"baratheon": ["footman"]}}, supply={"baratheon": 3})
    assert RS.default_action(state, "baratheon")["retreat"]["to"] == "the_reach"
    state = act(state, "baratheon", {"retreat": {"to": "the_reach"}})
    assert summary(state)["units"]["the_reach"]["baratheon"] == ["footman", "routed_footman"]


def test_r237_r242_a_losing_attacker_returns_routed_to_its_origin() -> None:
    state = to_cards()
    state = act(state, "lannister", {"house_card": "ser_kevan_lannister"})
    state = act(state, "baratheon", {"house_card": "stannis_baratheon"})
    s = summary(state)
    assert s["combat"]["winner"] == "baratheon"
    assert s["units"]["stoney_sept"]["lannister"] == ["routed_footman", "routed_knight"]
    assert s["units"]["blackwater"] == {"baratheon": ["footman", "knight"]}


def test_a18_ships_retreat_into_a_friendly_port() -> None:
    state = game(
        {"sunset_sea": {"lannister": ["ship", "ship"]}, "bay_of_ice": {"stark": ["ship"]},
         "winterfell": {"stark": ["footman"]}},
        {"sunset_sea": {"lannister": "march+0"}},
    )
    state = march(state, "lannister", "sunset_sea", "bay_of_ice", ["ship", "ship"])
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "stark", {"house_card": "catelyn_stark"})
    # the only legal area (the Sunset Sea is the origin): taken without asking
    assert summary(state)["units"]["port_of_winterfell"] == {"stark": ["routed_ship"]}


# --------------------------------------------------------------------- garrisons and neutral forces


def test_r274_r276_a_garrison_defends_and_is_removed_when_it_loses() -> None:
    state = game(
        {"karhold": {"lannister": ["knight", "knight"]}, "winterfell": {"stark": ["footman"]}},
        {"karhold": {"lannister": "march+0"}},
        garrisons={"winterfell": 2},
    )
    state = march(state, "lannister", "karhold", "winterfell", ["knight", "knight"])
    state = act(state, "lannister", {"house_card": "tywin_lannister"})
    state = act(state, "stark", {"house_card": "catelyn_stark"})
    s = summary(state)
    assert s["combat"]["initial_strength"] == {"lannister": 4, "stark": 3}
    assert s["combat"]["winner"] == "lannister"
    assert s["garrisons"]["winterfell"] is None
    assert s["control"]["winterfell"] == "lannister"


def test_r275_a32_a_garrison_alone_is_defended_by_its_house_with_a_house_card() -> None:
    state = game(
        {"karhold": {"lannister": ["footman"]}, "white_harbor": {"stark": ["footman"]}},
        {"karhold": {"lannister": "march+0"}},
        garrisons={"winterfell": 2},
    )
    state = march(state, "lannister", "karhold", "winterfell", ["footman"])
    assert summary(state)["pending"] == {"lannister": "house_card", "stark": "house_card"}
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "stark", {"house_card": "eddard_stark"})
    s = summary(state)
    assert s["combat"]["defender"] == "stark"
    assert s["combat"]["initial_strength"] == {"lannister": 1, "stark": 2}
    assert s["combat"]["winner"] == "stark"
    assert s["garrisons"]["winterfell"] == 2  # a winning garrison stays
    assert s["units"]["karhold"]["lannister"] == ["routed_footman"]


def test_r281_no_house_cards_and_no_blade_against_a_neutral_force() -> None:
    tracks = dict(TRACKS, fiefdoms=["lannister", "stark", "baratheon"])
    state = game({"the_reach": {"lannister": ["knight", "knight"]}}, {"the_reach": {"lannister": "march+0"}},
                 neutral_forces={"highgarden": 4}, tracks=tracks)
    state = march(state, "lannister", "the_reach", "highgarden", ["knight", "knight"])
    s = summary(state)
    assert s["neutral_forces"]["highgarden"] is None
    assert s["units"]["highgarden"] == {"lannister": ["knight", "knight"]}
    assert s["combat"]["defender"] is None and s["combat"]["neutral"] == 4
    assert s["used"]["valyrian_steel_blade"] is False
    assert s["hands"]["lannister"] and not s["discards"]["lannister"]


def test_a14_march_into_a_neutral_force_out_of_reach_is_refused() -> None:
    state = game({"the_reach": {"lannister": ["knight"]}}, {"the_reach": {"lannister": "march+0"}},
                 neutral_forces={"highgarden": 4})
    action = {"march": {"from": "the_reach", "moves": {"highgarden": ["knight"]}}}
    assert refused(state, "lannister", action) == "illegal_action"


# --------------------------------------------------------------------- defaults and random choices


def test_d18_to_d26_defaults_are_legal_and_finish_the_combat() -> None:
    state = blackwater(units={"kings_landing": {"stark": ["footman"]}})
    seen: set[str] = set()
    for _ in range(20):
        pending = RS.pending(state)
        kinds = set(pending.values())
        if not kinds & set(combat.KINDS):
            break
        seen |= kinds
        seat = sorted(pending)[0]
        action = RS.default_action(state, seat)
        legal = RS.legal_actions(state, seat)
        assert legal is None or action in legal
        state = act(state, seat, action)
    assert {"support", "house_card"} <= seen
    assert summary(state)["pending"] == {"stark": "march"} or summary(state)["combat"]["winner"]


def test_d18_support_defaults_support_self_else_decline() -> None:
    state = blackwater()
    assert RS.default_action(state, "lannister") == {"support": {"for": "lannister"}}
    state = act(state, "lannister", {"support": {"for": "lannister"}})
    assert RS.default_action(state, "stark") == {"support": {"for": None}}


def test_d19_accept_support_default_keeps_it() -> None:
    state = blackwater()
    state = act(state, "lannister", {"support": {"for": "lannister"}})
    state = act(state, "stark", {"support": {"for": "baratheon"}})
    assert RS.default_action(state, "baratheon") == {"accept_support": {"stark": True}}


def test_d20_default_house_card_is_from_hand_and_deterministic() -> None:
    state = to_cards()
    first = RS.default_action(state, "lannister")
    assert first == RS.default_action(state, "lannister")
    assert first["house_card"] in summary(state)["hands"]["lannister"]
    picks = set()
    for seed in range(30):
        s = dict(state, rng=seed * 7919 + 1)
        picks.add(RS.default_action(s, "lannister")["house_card"])
    assert len(picks) > 2  # spread over the hand, not always the same card


def test_random_actions_are_legal() -> None:
    rand = random.Random(3)
    for _ in range(10):
        state = blackwater(units={"kings_landing": {"stark": ["footman"]}})
        for _ in range(20):
            pending = RS.pending(state)
            if not set(pending.values()) & set(combat.KINDS):
                break
            seat = sorted(pending)[0]
            state = act(state, seat, combat.random_action(state, seat, rand))
        assert not combat.in_progress(state)
