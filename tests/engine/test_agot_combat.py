"""Combat (R189-R246), garrisons (R273-R278), neutral forces (R279-R285, A14) and the combat
defaults D18-D26, played through the agot ruleset from small scenario setups."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine.agot import combat
from games.engine.agot.data import tides_deck
from games.engine.base import EngineError, get_ruleset

RS = get_ruleset("agot")
SEATS = ["stark", "lannister", "baratheon"]
TRACKS = {
    "iron_throne": ["lannister", "stark", "baratheon"],
    "fiefdoms": ["stark", "baratheon", "lannister"],  # Stark holds the blade, outside the battles
    "kings_court": ["lannister", "stark", "baratheon"],
}


# Stark-Lannister battles: Baratheon, outside them, holds the blade.
NORTH = dict(TRACKS, fiefdoms=["baratheon", "stark", "lannister"])
# A Baratheon march far away keeps the Action phase going after the battle under test, so that
# routed units are not stood up by the Clean-up (R186) before the test looks at them.
ELSEWHERE = ("sunspear", "baratheon", "march-1")


def game(units: dict[str, Any], orders: dict[str, Any], seats: list[str] | None = None,
         options: dict[str, Any] | None = None, **setup: Any) -> dict:
    area, house, token = ELSEWHERE
    units = {area: {house: ["footman"]}, **units}
    orders = {area: {house: token}, **orders}
    full = {"units": units, "orders": orders, "neutral_forces": {}, "garrisons": {}, "tracks": TRACKS}
    full.update(setup)
    return RS.scenario_game(seats or SEATS, options or {}, 7, full, "action")


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


def units_at(state: dict, area: str) -> dict[str, list[str]]:
    """{house: sorted units} in an area, from the referee summary."""
    return {h: sorted(us) for h, us in (summary(state)["units"].get(area) or {}).items() if us}


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
    options = {"tides_of_battle": True} if "tides" in setup.get("decks", {}) else None
    state = game(units, orders, options=options, **setup)
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
    }
    # Sea combat: the port ships may support it (R213), the footman in Winterfell may not (R208).
    sea = march(game(units, orders, tracks=NORTH), "lannister", "sunset_sea", "bay_of_ice", ["ship", "ship"])
    assert summary(sea)["pending"] == {"stark": "support"}
    sea = act(sea, "stark", {"support": {"for": "stark"}})
    sea = act(sea, "lannister", {"house_card": "the_hound"})
    sea = act(sea, "stark", {"house_card": "ser_rodrik_cassel"})
    assert summary(sea)["combat"]["initial_strength"] == {"lannister": 2, "stark": 2}
    # Land combat in Winterfell: the port's ships may not support it (R198, R213); nobody is asked.
    orders = dict(orders, karhold={"lannister": "march+0"})
    del orders["sunset_sea"]
    land = march(game(units, orders, tracks=NORTH), "lannister", "karhold", "winterfell", ["knight"])
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
# Icon-only cards are used so that these tests keep their meaning once card texts exist (issue 5).
# After to_cards(): Lannister 2 + 1 + March +0 + Harrenhal 1 = 4; Baratheon 1 + 2 = 3, or 5 when
# Stark's knight supports it.


def to_cards(stark_for: str | None = None, **setup: Any) -> dict:
    state = blackwater(**setup)
    state = act(state, "lannister", {"support": {"for": "lannister"}})
    state = act(state, "stark", {"support": {"for": stark_for}})
    if stark_for is not None:
        state = act(state, stark_for, {"accept_support": {"stark": True}})
    return state


def test_r219_house_cards_are_secret_until_both_are_chosen() -> None:
    state = to_cards()
    assert summary(state)["pending"] == {"lannister": "house_card", "baratheon": "house_card"}
    state = act(state, "lannister", {"house_card": "ser_gregor_clegane"})
    assert summary(state)["pending"] == {"baratheon": "house_card"}
    # hands are public (R225), the choice is not: only Lannister's own view holds it
    assert "lannister" not in RS.view(state, "baratheon")["secret"]
    assert RS.view(state, None)["secret"] == {}
    assert "ser_gregor_clegane" not in json.dumps(summary(state, "baratheon").get("combat"))
    assert "ser_gregor_clegane" not in json.dumps(summary(state, None).get("combat"))
    assert RS.view(state, "lannister")["secret"]["lannister"]["house_card"] == "ser_gregor_clegane"
    assert refused(state, "lannister", {"house_card": "the_hound"}) == "not_your_turn"
    state = act(state, "baratheon", {"house_card": "melisandre"})
    assert summary(state, None)["combat"]["cards"] == {"lannister": "ser_gregor_clegane", "baratheon": "melisandre"}


def test_r219_only_the_chooser_sees_the_event_naming_its_card() -> None:
    state = to_cards()
    _state, events = RS.apply(state, "lannister", {"house_card": "the_hound"})
    for seat in ("baratheon", "stark", None):
        shown = [RS.event_view(e, seat) for e in events]
        assert "the_hound" not in json.dumps([e for e in shown if e is not None])
    assert "the_hound" in json.dumps([RS.event_view(e, "lannister") for e in events])


def test_r223_a_card_not_in_hand_is_refused() -> None:
    state = to_cards(discards={"lannister": ["the_hound"]})
    assert refused(state, "lannister", {"house_card": "the_hound"}) == "illegal_action"
    assert refused(state, "lannister", {"house_card": "melisandre"}) == "illegal_action"
    assert refused(state, "lannister", {"house_card": 3}) == "bad_action"


def test_r220_the_last_card_is_played_without_asking_and_r224_the_hand_comes_back() -> None:
    others = ["tywin_lannister", "ser_gregor_clegane", "the_hound", "cersei_lannister", "tyrion_lannister",
              "ser_kevan_lannister"]
    state = to_cards(hands={"lannister": ["ser_jaime_lannister"]}, discards={"lannister": others})
    assert summary(state)["pending"] == {"baratheon": "house_card"}
    state = act(state, "baratheon", {"house_card": "brienne_of_tarth"})
    state = act(state, "baratheon", {"retreat": {"to": "the_reach"}})
    s = summary(state)
    assert s["combat"]["cards"]["lannister"] == "ser_jaime_lannister"
    assert sorted(s["hands"]["lannister"]) == sorted(others)
    assert s["discards"]["lannister"] == ["ser_jaime_lannister"]
    assert s["discards"]["baratheon"] == ["brienne_of_tarth"]
    assert "brienne_of_tarth" not in s["hands"]["baratheon"]


# --------------------------------------------------------------------- blade, victor, casualties

LANNISTER_BLADE = dict(TRACKS, fiefdoms=["lannister", "stark", "baratheon"])


def test_r228_the_blade_holder_may_add_one_once_per_round() -> None:
    state = to_cards("baratheon", tracks=LANNISTER_BLADE)
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "baratheon", {"house_card": "brienne_of_tarth"})
    s = summary(state)
    assert s["pending"] == {"lannister": "blade"}
    assert s["combat"]["strength"] == {"lannister": 6, "baratheon": 7}
    # D22: +1 ties 7-7, which Lannister (first on Fiefdoms) wins: the default uses it.
    assert RS.default_action(state, "lannister") == {"blade": True}
    assert refused(state, "lannister", {"blade": 1}) == "bad_action"
    state = act(state, "lannister", {"blade": True})
    s = summary(state)
    assert s["combat"]["strength"] == {"lannister": 7, "baratheon": 7}
    assert s["combat"]["winner"] == "lannister"
    assert s["used"]["valyrian_steel_blade"] is True


def test_d22_blade_default_keeps_it_when_it_cannot_change_the_result() -> None:
    state = to_cards(tracks=LANNISTER_BLADE)
    state = act(state, "lannister", {"house_card": "ser_gregor_clegane"})
    state = act(state, "baratheon", {"house_card": "melisandre"})
    assert summary(state)["pending"] == {"lannister": "blade"}
    assert RS.default_action(state, "lannister") == {"blade": False}
    state = act(state, "lannister", {"blade": False})
    assert summary(state)["used"]["valyrian_steel_blade"] is False


def test_r228_a_used_blade_is_not_offered() -> None:
    state = to_cards("baratheon", tracks=LANNISTER_BLADE, used={"valyrian_steel_blade": True})
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "baratheon", {"house_card": "brienne_of_tarth"})
    s = summary(state)
    assert s["combat"]["strength"] == {"lannister": 6, "baratheon": 7}
    assert s["combat"]["winner"] == "baratheon"
    assert "blade" not in s["pending"].values()


def test_r229_a_tie_goes_to_the_higher_fiefdoms_position() -> None:
    state = to_cards("baratheon")
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "baratheon", {"house_card": "melisandre"})
    s = summary(state)
    assert s["combat"]["strength"] == {"lannister": 6, "baratheon": 6}
    assert s["combat"]["winner"] == "baratheon"  # Baratheon is above Lannister on Fiefdoms


def test_r231_r232_the_loser_chooses_casualties_among_eligible_units() -> None:
    state = to_cards()
    state = act(state, "lannister", {"house_card": "ser_jaime_lannister"})  # 2, one sword
    state = act(state, "baratheon", {"house_card": "melisandre"})  # 1, no fortification
    s = summary(state)
    assert s["combat"]["winner"] == "lannister"
    assert s["pending"] == {"baratheon": "casualties"}
    assert refused(state, "baratheon", {"casualties": ["knight", "footman"]}) == "illegal_action"
    assert refused(state, "baratheon", {"casualties": ["ship"]}) == "illegal_action"
    assert refused(state, "lannister", {"casualties": ["knight"]}) == "not_your_turn"
    assert RS.default_action(state, "baratheon") == {"casualties": ["footman"]}  # D24
    state = act(state, "baratheon", {"casualties": ["knight"]})
    s = summary(state)
    assert s["combat"]["casualties"] == {"baratheon": ["knight"]}
    assert s["pending"] == {"baratheon": "retreat"}


def test_r231_fortifications_cancel_swords() -> None:
    state = to_cards()
    state = act(state, "lannister", {"house_card": "ser_jaime_lannister"})  # one sword
    state = act(state, "baratheon", {"house_card": "brienne_of_tarth"})  # one fortification
    s = summary(state)
    assert s["combat"]["winner"] == "lannister"
    assert s["combat"]["casualties"] == {}
    assert s["pending"] == {"baratheon": "retreat"}


def test_r235_more_casualties_than_units_destroy_them_all() -> None:
    state = to_cards()
    state = act(state, "lannister", {"house_card": "ser_gregor_clegane"})  # three swords
    state = act(state, "baratheon", {"house_card": "melisandre"})
    s = summary(state)
    assert s["combat"]["casualties"] == {"baratheon": ["footman", "knight"]}
    assert units_at(state, "blackwater") == {"lannister": ["footman", "knight"]}


def test_r234_r241_routed_units_are_never_casualties_and_die_when_retreating_again() -> None:
    state = to_cards(units={"blackwater": {"baratheon": ["footman", "routed_knight"]}})
    state = act(state, "lannister", {"house_card": "ser_gregor_clegane"})
    state = act(state, "baratheon", {"house_card": "melisandre"})
    s = summary(state)
    assert s["combat"]["initial_strength"]["baratheon"] == 1
    assert s["combat"]["casualties"] == {"baratheon": ["footman"]}
    assert units_at(state, "blackwater") == {"lannister": ["footman", "knight"]}
    assert s["control"]["blackwater"] == "lannister"


def test_r237_r242_a_losing_attacker_returns_routed_to_its_origin() -> None:
    state = to_cards("baratheon")
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "baratheon", {"house_card": "brienne_of_tarth"})
    s = summary(state)
    assert s["combat"]["winner"] == "baratheon"
    assert s["combat"]["casualties"] == {}
    assert units_at(state, "stoney_sept") == {"lannister": ["routed_footman", "routed_knight"]}
    assert units_at(state, "blackwater") == {"baratheon": ["footman", "knight"]}
    assert s["orders"].get("stoney_sept") is None  # R244: the March is removed


# --------------------------------------------------------------------- retreats


def retreat_setup(**setup: Any) -> dict:
    state = to_cards(**setup)
    state = act(state, "lannister", {"house_card": "the_hound"})  # no sword: nobody dies
    return act(state, "baratheon", {"house_card": "melisandre"})


def test_r238_legal_retreat_areas_exclude_origin_and_enemy_areas() -> None:
    state = retreat_setup(units={"kings_landing": {"stark": ["footman"]}})
    options = {a["retreat"]["to"] for a in RS.legal_actions(state, "baratheon")}
    # From Blackwater: Stoney Sept is the attacker's origin (c); Harrenhal, Crackclaw Point and
    # King's Landing hold enemy units (a); Searoad Marches and The Reach are empty.
    assert options == {"searoad_marches", "the_reach"}
    assert refused(state, "baratheon", {"retreat": {"to": "stoney_sept"}}) == "illegal_action"
    assert refused(state, "baratheon", {"retreat": {"to": "kings_landing"}}) == "illegal_action"
    assert refused(state, "baratheon", {"retreat": {"to": "the_reach", "destroy": ["knight"]}}) == "illegal_action"
    state = act(state, "baratheon", {"retreat": {"to": "the_reach"}})
    assert units_at(state, "the_reach") == {"baratheon": ["routed_footman", "routed_knight"]}  # R241
    assert units_at(state, "blackwater") == {"lannister": ["footman", "knight"]}


def test_a24_r238e_neutral_force_and_enemy_token_areas_are_not_retreat_areas() -> None:
    state = retreat_setup(neutral_forces={"the_reach": 4}, power_tokens={"searoad_marches": "stark"},
                          units={"kings_landing": {"stark": ["footman"]}})
    # Nothing is left: the retreating units are destroyed (R238e).
    assert units_at(state, "blackwater") == {"lannister": ["footman", "knight"]}
    assert [a for a, by_house in summary(state)["units"].items() if "baratheon" in by_house] == [ELSEWHERE[0]]


def test_d25_default_retreat_prefers_friendly_then_lowest_id() -> None:
    state = retreat_setup(units={"the_reach": {"baratheon": ["footman"]}}, supply={"baratheon": 3})
    assert RS.default_action(state, "baratheon") == {"retreat": {"to": "the_reach"}}
    state = retreat_setup()
    assert RS.default_action(state, "baratheon") == {"retreat": {"to": "kings_landing"}}


def test_r238d_units_beyond_supply_are_destroyed_before_the_retreat() -> None:
    # Stark (supply 0: two armies of 2) loses Castle Black; Karhold already holds a footman and is
    # the only retreat area (Winterfell is the origin, the rest is sea).
    state = game(
        {"winterfell": {"lannister": ["knight", "knight"]}, "castle_black": {"stark": ["footman", "knight"]},
         "karhold": {"stark": ["footman"]}},
        {"winterfell": {"lannister": "march+0"}},
        supply={"stark": 0},
        tracks=NORTH,
    )
    state = march(state, "lannister", "winterfell", "castle_black", ["knight", "knight"])
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "stark", {"house_card": "ser_rodrik_cassel"})
    assert summary(state)["pending"] == {"stark": "retreat"}
    assert RS.legal_actions(state, "stark") == [
        {"retreat": {"to": "karhold", "destroy": ["footman"]}},
        {"retreat": {"to": "karhold", "destroy": ["knight"]}},
    ]
    assert RS.default_action(state, "stark") == {"retreat": {"to": "karhold", "destroy": ["footman"]}}  # D26
    assert refused(state, "stark", {"retreat": {"to": "karhold"}}) == "illegal_action"
    state = act(state, "stark", {"retreat": {"to": "karhold", "destroy": ["footman"]}})
    assert units_at(state, "karhold") == {"stark": ["footman", "routed_knight"]}


def test_r238e_no_legal_area_destroys_the_army_and_r239_transport_opens_one() -> None:
    units = {"winterfell": {"lannister": ["knight", "knight"]}, "the_stony_shore": {"stark": ["footman"]}}
    orders = {"winterfell": {"lannister": "march+0"}}
    state = game(units, orders, tracks=NORTH)
    state = march(state, "lannister", "winterfell", "the_stony_shore", ["knight", "knight"])
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "stark", {"house_card": "ser_rodrik_cassel"})
    # only the Bay of Ice (a sea) and Winterfell (the origin) are adjacent
    assert all("stark" not in by_house for by_house in summary(state)["units"].values())
    # With a Stark ship in the Bay of Ice the footman may retreat by ship transport.
    state = game(dict(units, bay_of_ice={"stark": ["ship"]}), orders, tracks=NORTH)
    state = march(state, "lannister", "winterfell", "the_stony_shore", ["knight", "knight"])
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "stark", {"house_card": "ser_rodrik_cassel"})
    options = {a["retreat"]["to"] for a in RS.legal_actions(state, "stark")}
    assert options == {"castle_black", "flints_finger", "greywater_watch"}


def test_r240_siege_engines_cannot_retreat() -> None:
    state = retreat_setup(units={"blackwater": {"baratheon": ["footman", "siege_engine"]},
                                 "the_reach": {"baratheon": ["footman"]}}, supply={"baratheon": 3})
    state = act(state, "baratheon", {"retreat": {"to": "the_reach"}})
    s = summary(state)
    assert units_at(state, "the_reach") == {"baratheon": ["footman", "routed_footman"]}
    assert all("siege_engine" not in by_house.get("baratheon", []) for by_house in s["units"].values())


def test_a18_ships_retreat_into_a_friendly_port() -> None:
    state = game(
        {"sunset_sea": {"lannister": ["ship", "ship"]}, "bay_of_ice": {"stark": ["ship"]},
         "winterfell": {"stark": ["footman"]}},
        {"sunset_sea": {"lannister": "march+0"}},
        tracks=NORTH,
    )
    state = march(state, "lannister", "sunset_sea", "bay_of_ice", ["ship", "ship"])
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "stark", {"house_card": "ser_rodrik_cassel"})
    # the only legal area (the Sunset Sea is the origin): taken without asking
    assert summary(state)["units"]["port_of_winterfell"] == {"stark": ["routed_ship"]}


# --------------------------------------------------------------------- garrisons and neutral forces


def test_r274_r276_a_garrison_defends_and_is_removed_when_it_loses() -> None:
    state = game(
        {"karhold": {"lannister": ["knight", "knight"]}, "winterfell": {"stark": ["footman"]}},
        {"karhold": {"lannister": "march+0"}},
        garrisons={"winterfell": 2},
        tracks=NORTH,
    )
    state = march(state, "lannister", "karhold", "winterfell", ["knight", "knight"])
    state = act(state, "lannister", {"house_card": "ser_gregor_clegane"})
    state = act(state, "stark", {"house_card": "ser_rodrik_cassel"})
    s = summary(state)
    assert s["combat"]["initial_strength"] == {"lannister": 4, "stark": 3}
    assert s["combat"]["winner"] == "lannister"
    assert s["combat"]["casualties"] == {"stark": ["footman"]}  # 3 swords - 2 fortifications
    assert s["garrisons"].get("winterfell") is None
    assert s["control"]["winterfell"] == "lannister"


def test_r275_a32_a_garrison_alone_is_defended_by_its_house_with_a_house_card() -> None:
    state = game(
        {"karhold": {"lannister": ["footman"]}, "white_harbor": {"stark": ["footman"]}},
        {"karhold": {"lannister": "march+0"}},
        garrisons={"winterfell": 2},
        tracks=NORTH,
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
    assert units_at(state, "karhold") == {"lannister": ["routed_footman"]}


def test_r281_no_house_cards_and_no_blade_against_a_neutral_force() -> None:
    tracks = dict(TRACKS, fiefdoms=["lannister", "stark", "baratheon"])
    state = game({"the_reach": {"lannister": ["knight", "knight"]}}, {"the_reach": {"lannister": "march+0"}},
                 neutral_forces={"highgarden": 4}, tracks=tracks)
    state = march(state, "lannister", "the_reach", "highgarden", ["knight", "knight"])
    s = summary(state)
    assert s["neutral_forces"].get("highgarden") is None
    assert units_at(state, "highgarden") == {"lannister": ["knight", "knight"]}
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
            if not combat.in_progress(state):  # combat kinds and the card abilities' `choose`
                break
            seat = sorted(pending)[0]
            state = act(state, seat, combat.random_action(state, seat, rand))
        assert not combat.in_progress(state)


# --------------------------------------------------------------------- Tides of Battle (option)


def tides_battle(tides: list[str], **setup: Any) -> dict:
    """to_cards() with the Tides of Battle option; both house cards are then revealed."""
    state = to_cards(decks={"tides": tides}, **setup)
    state = act(state, "lannister", {"house_card": "the_hound"})  # 2, two fortifications
    return act(state, "baratheon", {"house_card": "melisandre"})  # 1, one sword


def test_r298_tides_cards_are_drawn_secretly_and_r300_revealed_together() -> None:
    state = tides_battle(["two", "three"], tracks=LANNISTER_BLADE)
    # the blade holder (Lannister) may redraw before the reveal: the cards are still secret
    assert summary(state)["pending"] == {"lannister": "blade_redraw"}
    assert RS.view(state, "lannister")["secret"]["lannister"]["tides"] == "two"
    assert "tides" not in RS.view(state, "baratheon")["secret"].get("lannister", {})
    assert summary(state, None)["combat"]["tides"] == {}
    assert RS.default_action(state, "lannister") == {"blade_redraw": False}  # D23
    state = act(state, "lannister", {"blade_redraw": False})
    s = summary(state)
    assert s["combat"]["tides"] == {"lannister": "two", "baratheon": "three"}
    # 4 + 2 + 2 = 8 against 3 + 1 + 3 = 7; A15: the blade is still there for step 4
    assert s["combat"]["strength"] == {"lannister": 8, "baratheon": 7}
    assert s["pending"] == {"lannister": "blade"}


def test_r299_a_blade_redraw_must_be_kept_and_uses_the_blade() -> None:
    state = tides_battle(["two", "three", "zero"], tracks=LANNISTER_BLADE)
    events: list[dict] = []
    state = json.loads(json.dumps(state))
    combat.apply(state, "lannister", {"blade": True}, events)  # SCENARIOS.md: `blade` answers it
    s = summary(state)
    assert s["combat"]["tides"] == {"lannister": "zero", "baratheon": "three"}
    assert s["used"]["valyrian_steel_blade"] is True
    assert "blade" not in s["pending"].values()
    assert "two" not in json.dumps([RS.event_view(e, "baratheon") for e in events])  # A16: stays hidden


def test_r301_tides_icons_add_to_the_house_card() -> None:
    state = tides_battle(["zero", "sword"])
    s = summary(state)
    # Lannister 4 + 2 + 0 = 6 wins against 3 + 1 + 1 = 5; no sword on The Hound, none on "zero"
    assert s["combat"]["winner"] == "lannister"
    assert s["combat"]["casualties"] == {}
    state = tides_battle(["sword", "zero"])
    # one sword from the Tides card: Baratheon loses a unit and chooses which
    assert summary(state)["pending"] == {"baratheon": "casualties"}


def test_r302_a_skull_kills_one_opposing_unit_whoever_wins() -> None:
    state = tides_battle(["zero", "skull"])
    s = summary(state)
    assert s["combat"]["winner"] == "lannister"
    # the loser's skull costs the winner one unit, chosen by the winner, fortifications or not
    assert s["pending"] == {"lannister": "casualties"}
    state = act(state, "lannister", {"casualties": ["footman"]})
    s = summary(state)
    assert s["combat"]["casualties"] == {"lannister": ["footman"]}
    assert s["pending"] == {"baratheon": "retreat"}


def test_a16_r304_tides_cards_go_back_to_the_deck_after_the_combat() -> None:
    state = tides_battle(["two", "zero"])
    state = act(state, "baratheon", {"retreat": {"to": "the_reach"}})
    assert not combat.in_progress(state)
    assert sorted(state["decks"]["tides"]) == sorted(tides_deck())


def test_r302_a_winner_wiped_out_by_a_skull_loses_its_order_too() -> None:
    state = tides_battle(["skull", "three"], units={"blackwater": {"baratheon": ["knight"]}},
                         orders={"blackwater": {"baratheon": "defense+1"}})
    s = summary(state)
    # Baratheon 2 + 1 + 1 + 3 = 7 beats Lannister 4 + 2 + 0 = 6, but Lannister's skull kills the knight
    assert s["combat"]["winner"] == "baratheon"
    assert s["combat"]["casualties"] == {"baratheon": ["knight"]}
    assert units_at(state, "blackwater") == {}
    assert s["orders"].get("blackwater") is None
    assert units_at(state, "stoney_sept") == {"lannister": ["routed_footman", "routed_knight"]}


def test_r298_a16_no_view_shows_a_tides_card_before_its_reveal() -> None:
    state = tides_battle(["skull", "three", "two"], tracks=LANNISTER_BLADE)
    state = act(state, "lannister", {"blade_redraw": True})  # "skull" is discarded, "two" kept
    assert summary(state, None)["combat"]["tides"] == {"lannister": "two", "baratheon": "three"}
    for viewer in ("baratheon", "stark", None):
        assert "skull" not in json.dumps(RS.view(state, viewer))


@pytest.mark.parametrize(("players", "tides"), [(3, False), (4, True), (6, False), (6, True)])
def test_d18_d26_every_combat_default_is_listed_legal_and_accepted(players: int, tides: bool) -> None:
    """Random games; at every combat decision the documented default is among the listed legal
    actions and the engine accepts it (section 4: a default is always legal)."""
    rand = random.Random(players * 10 + tides)
    seen: set[str] = set()
    for seed in range(4):
        state = RS.new_game(RS.seat_names(players), {"tides_of_battle": tides}, seed)
        while not RS.is_over(state):
            pending = RS.pending(state)
            seat = rand.choice(sorted(pending))
            if pending[seat] in combat.KINDS:
                seen.add(pending[seat])
                default = RS.default_action(state, seat)
                legal = RS.legal_actions(state, seat)
                assert legal and default in legal, (pending, default, legal)
                RS.apply(state, seat, default)
            state, _events = RS.apply(state, seat, RS.random_action(state, seat, rand))
    assert "house_card" in seen


# --------------------------------------------------------------------- sequence and roles


def test_r192_r193_roles_and_the_order_of_the_combat_steps() -> None:
    """R193: support, initial strength, house cards, blade, final strength, then victor,
    casualties, retreat; R192: the marching house attacks, the occupant defends."""
    state = blackwater(tracks=dict(TRACKS, fiefdoms=["baratheon", "stark", "lannister"]))
    cards = {"lannister": "ser_jaime_lannister", "baratheon": "melisandre"}
    kinds: list[str] = []
    while combat.in_progress(state):
        for seat, kind in sorted(RS.pending(state).items()):
            kinds.append(kind)
            if kind == "house_card":
                state = act(state, seat, {"house_card": cards[seat]})
            else:
                state = act(state, seat, RS.default_action(state, seat))
    s = summary(state)
    assert (s["combat"]["attacker"], s["combat"]["defender"]) == ("lannister", "baratheon")
    # D18: Lannister supports itself, Stark declines. Lannister 4 + 2 = 6 against 3 + 1 = 4
    # (R190: the higher final strength wins; R216: initial strength plus the card)
    assert s["combat"]["strength"] == {"lannister": 6, "baratheon": 4}
    assert s["combat"]["winner"] == "lannister"
    assert list(dict.fromkeys(kinds)) == ["support", "house_card", "blade", "casualties", "retreat"]


def test_r206_a_support_order_adds_nothing_to_its_own_area() -> None:
    state = to_cards(orders={"blackwater": {"baratheon": "support+1*"}})
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "baratheon", {"house_card": "melisandre"})
    assert summary(state)["combat"]["initial_strength"]["baratheon"] == 3


def test_r230_r233_only_the_loser_loses_units_one_per_casualty_whatever_their_strength() -> None:
    state = to_cards()
    state = act(state, "lannister", {"house_card": "ser_jaime_lannister"})  # one sword
    state = act(state, "baratheon", {"house_card": "melisandre"})  # one sword, on the losing side
    state = act(state, "baratheon", {"casualties": ["knight"]})  # a Knight is one casualty (R233)
    s = summary(state)
    assert s["combat"]["casualties"] == {"baratheon": ["knight"]}  # Melisandre's sword kills nobody
    state = act(state, "baratheon", {"retreat": {"to": "the_reach"}})
    assert units_at(state, "blackwater") == {"lannister": ["footman", "knight"]}


def test_r277_a_garrison_counts_only_when_its_area_is_attacked() -> None:
    state = game(
        {"moat_cailin": {"lannister": ["knight"]}, "white_harbor": {"stark": ["footman"]},
         "winterfell": {"stark": ["footman"]}},
        {"moat_cailin": {"lannister": "march+0"}, "winterfell": {"stark": "support+0"}},
        garrisons={"winterfell": 2}, tracks=NORTH,
    )
    state = march(state, "lannister", "moat_cailin", "white_harbor", ["knight"])
    state = act(state, "stark", {"support": {"for": "stark"}})
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "stark", {"house_card": "ser_rodrik_cassel"})
    # White Harbor: Footman 1 + Winterfell's supporting Footman 1; the Winterfell garrison adds nothing
    assert summary(state)["combat"]["initial_strength"] == {"lannister": 2, "stark": 2}


def test_r278_r303_garrisons_are_immune_to_skulls() -> None:
    state = game(
        {"karhold": {"lannister": ["footman"]}, "white_harbor": {"stark": ["footman"]}},
        {"karhold": {"lannister": "march+0"}},
        options={"tides_of_battle": True}, garrisons={"winterfell": 2}, tracks=NORTH,
        decks={"tides": ["skull", "zero"]},
    )
    state = march(state, "lannister", "karhold", "winterfell", ["footman"])
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "stark", {"house_card": "eddard_stark"})
    s = summary(state)
    assert s["combat"]["tides"] == {"lannister": "skull", "stark": "zero"}
    assert s["combat"]["winner"] == "stark"
    assert s["combat"]["casualties"] == {}
    assert s["garrisons"]["winterfell"] == 2


def test_r239_d25_transport_retreats_are_legal_but_the_default_prefers_an_adjacent_area() -> None:
    state = game(
        {"winterfell": {"lannister": ["knight", "knight"]}, "castle_black": {"stark": ["footman"]},
         "bay_of_ice": {"stark": ["ship"]}},
        {"winterfell": {"lannister": "march+0"}},
        tracks=NORTH,
    )
    state = march(state, "lannister", "winterfell", "castle_black", ["knight", "knight"])
    state = act(state, "lannister", {"house_card": "the_hound"})
    state = act(state, "stark", {"house_card": "ser_rodrik_cassel"})
    options = {a["retreat"]["to"] for a in RS.legal_actions(state, "stark")}
    assert options == {"karhold", "flints_finger", "greywater_watch", "the_stony_shore"}
    assert RS.default_action(state, "stark") == {"retreat": {"to": "karhold"}}
    state = act(state, "stark", {"retreat": {"to": "flints_finger"}})
    assert units_at(state, "flints_finger") == {"stark": ["routed_footman"]}
