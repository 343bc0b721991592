"""March orders, control and power tokens, ports and transport (R146-R178, R247-R272, R33, A14, A23)."""
from __future__ import annotations

from tests.engine.agot_helpers import R, act, game, refused, summ

TRACKS = {"iron_throne": ["stark", "lannister", "baratheon"]}


def march_game(units, orders, **extra):
    setup = {"units": units, "orders": orders, "neutral_forces": {}, "tracks": TRACKS}
    setup.update(extra)
    return game(setup)


def test_split_moves_and_leave_power_token_R146_R147_R154_R165():
    s = march_game({"castle_black": {"stark": ["footman", "knight"]}, "lannisport": {"lannister": ["footman"]}},
                   {"castle_black": {"stark": "march+0"}})
    assert R.pending(s) == {"stark": "march"}
    s, _ = act(s, "stark", {"march": {"from": "castle_black", "moves": {"karhold": ["footman"], "winterfell": ["knight"]},
                                      "leave_power_token": True}})
    sm = summ(s)
    assert sm["units"]["karhold"] == {"stark": ["footman"]} and sm["units"]["winterfell"] == {"stark": ["knight"]}
    assert sm["power_tokens"]["castle_black"] == "stark" and sm["control"]["castle_black"] == "stark"
    assert sm["power"]["stark"] == 4 and sm["pool"]["stark"] == 15


def test_vacating_without_token_loses_control_R154():
    s = march_game({"castle_black": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]}},
                   {"castle_black": {"stark": "march+0"}})
    s, _ = act(s, "stark", {"march": {"from": "castle_black", "moves": {"karhold": ["footman"]}}})
    assert summ(s)["control"].get("castle_black") is None


def test_power_token_refusals_R165_R169_R170():
    units = {"castle_black": {"stark": ["footman", "footman"]}, "the_shivering_sea": {"stark": ["ship"]},
             "lannisport": {"lannister": ["footman"]}}
    orders = {"castle_black": {"stark": "march+0"}, "the_shivering_sea": {"stark": "march-1"}}
    s = march_game(units, orders)
    # not vacated
    refused(s, "stark", {"march": {"from": "castle_black", "moves": {"karhold": ["footman"]}, "leave_power_token": True}})
    # never on a sea area
    refused(s, "stark", {"march": {"from": "the_shivering_sea", "moves": {"the_narrow_sea": ["ship"]},
                                   "leave_power_token": True}})
    s0 = march_game(units, orders, power={"stark": 0})
    refused(s0, "stark", {"march": {"from": "castle_black", "moves": {"karhold": ["footman", "footman"]},
                                    "leave_power_token": True}})


def test_routed_units_cannot_move_R162():
    s = march_game({"castle_black": {"stark": ["routed_footman", "knight"]}, "karhold": {"stark": ["routed_footman"]},
                    "lannisport": {"lannister": ["footman"]}},
                   {"castle_black": {"stark": "march+0"}, "karhold": {"stark": "march-1"}})
    refused(s, "stark", {"march": {"from": "castle_black", "moves": {"winterfell": ["routed_footman"]}}})
    refused(s, "stark", {"march": {"from": "castle_black", "moves": {"winterfell": ["footman"]}}})
    s, ev = act(s, "stark", {"march": {"from": "castle_black", "moves": {"winterfell": ["knight"]}}})
    # the Karhold march can move nothing: the engine removes it (forced)
    assert any(e.get("forced") and e["area"] == "karhold" for e in ev)
    # it stayed, and the Clean-up that followed stood it up again (R186)
    assert summ(s)["units"]["karhold"] == {"stark": ["footman"]} and summ(s)["round"] == 2


def test_unit_types_and_areas_R149_R248_R251():
    units = {"winterfell": {"stark": ["footman"]}, "bay_of_ice": {"stark": ["ship", "ship"]},
             "port_of_lannisport": {"lannister": ["ship"]}, "the_golden_sound": {"stark": ["ship"]},
             "lannisport": {"lannister": ["footman"]}}
    orders = {"winterfell": {"stark": "march+0"}, "bay_of_ice": {"stark": "march-1"},
              "the_golden_sound": {"stark": "march+1*"}}
    s = march_game(units, orders, supply={"stark": 2})
    refused(s, "stark", {"march": {"from": "winterfell", "moves": {"bay_of_ice": ["footman"]}}})
    refused(s, "stark", {"march": {"from": "winterfell", "moves": {"port_of_winterfell": ["footman"]}}})
    refused(s, "stark", {"march": {"from": "bay_of_ice", "moves": {"the_stony_shore": ["ship"]}}})
    refused(s, "stark", {"march": {"from": "the_golden_sound", "moves": {"port_of_lannisport": ["ship"]}}})  # R251
    s, _ = act(s, "stark", {"march": {"from": "bay_of_ice", "moves": {"port_of_winterfell": ["ship", "ship"]}}})
    assert summ(s)["units"]["port_of_winterfell"] == {"stark": ["ship", "ship"]}


def test_port_holds_three_ships_R248():
    s = march_game({"port_of_winterfell": {"stark": ["ship", "ship", "ship"]}, "bay_of_ice": {"stark": ["ship"]},
                    "winterfell": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]}},
                   {"bay_of_ice": {"stark": "march+0"}}, supply={"stark": 6})
    refused(s, "stark", {"march": {"from": "bay_of_ice", "moves": {"port_of_winterfell": ["ship"]}}})


def test_supply_limits_marches_R161():
    s = march_game({"winterfell": {"stark": ["footman", "footman"]}, "white_harbor": {"stark": ["footman", "footman"]},
                    "castle_black": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]}},
                   {"castle_black": {"stark": "march+0"}}, supply={"stark": 0})
    refused(s, "stark", {"march": {"from": "castle_black", "moves": {"winterfell": ["footman"]}}})
    act(s, "stark", {"march": {"from": "castle_black", "moves": {"karhold": ["footman"]}}})


def test_token_only_area_no_combat_R157_R167():
    s = march_game({"castle_black": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]}},
                   {"castle_black": {"stark": "march+0"}}, power_tokens={"karhold": "lannister"})
    assert summ(s)["pool"]["lannister"] == 14
    s, _ = act(s, "stark", {"march": {"from": "castle_black", "moves": {"karhold": ["footman"]}}})
    sm = summ(s)
    assert sm["control"]["karhold"] == "stark" and "karhold" not in sm["power_tokens"]
    assert sm["pool"]["lannister"] == 15 and sm["power"]["lannister"] == 5


def test_enemy_home_reverts_when_left_R172_R174_A33():
    s = march_game({"winterfell": {"lannister": ["footman"]}, "lannisport": {"lannister": ["footman"]},
                    "castle_black": {"stark": ["footman"]}},
                   {"winterfell": {"lannister": "march+0"}}, garrisons={})
    assert summ(s)["control"]["winterfell"] == "lannister" and summ(s)["victory"]["lannister"] == 2
    assert summ(s)["control"]["dragonstone"] == "baratheon"  # a home shield with no units (R172)
    s, _ = act(s, "lannister", {"march": {"from": "winterfell", "moves": {"karhold": ["footman"]}}})
    assert summ(s)["control"]["winterfell"] == "stark" and summ(s)["victory"] == {
        "stark": 1, "lannister": 1, "baratheon": 1}


def test_ship_transport_R259_R262_R263_R266():
    units = {"lannisport": {"lannister": ["footman"]}, "the_golden_sound": {"lannister": ["routed_ship"]},
             "sunset_sea": {"lannister": ["ship"]}, "winterfell": {"stark": ["footman"]}}
    s = march_game(units, {"lannisport": {"lannister": "march+0"}, "sunset_sea": {"lannister": "defense+1"}},
                   tracks={"iron_throne": ["lannister", "stark", "baratheon"]})
    s2, _ = act(s, "lannister", {"march": {"from": "lannisport", "moves": {"flints_finger": ["footman"]}}})
    assert summ(s2)["units"]["flints_finger"] == {"lannister": ["footman"]}
    s = march_game(dict(units, sunset_sea={"baratheon": ["ship"]}), {"lannisport": {"lannister": "march+0"}},
                   tracks={"iron_throne": ["lannister", "stark", "baratheon"]})
    refused(s, "lannister", {"march": {"from": "lannisport", "moves": {"flints_finger": ["footman"]}}})  # R261


def test_island_needs_transport_R270():
    s = march_game({"dragonstone": {"baratheon": ["footman"]}, "lannisport": {"lannister": ["footman"]},
                    "winterfell": {"stark": ["footman"]}},
                   {"dragonstone": {"baratheon": "march+0"}, "winterfell": {"stark": "march+0"}},
                   tracks={"iron_throne": ["baratheon", "stark", "lannister"]})
    # no Baratheon ship: nothing can move, the engine removes the march; Stark is asked
    assert R.pending(s) == {"stark": "march"} and "dragonstone" not in summ(s)["orders"]
    s = march_game({"dragonstone": {"baratheon": ["footman"]}, "shipbreaker_bay": {"baratheon": ["ship"]},
                    "lannisport": {"lannister": ["footman"]}}, {"dragonstone": {"baratheon": "march+0"}})
    act(s, "baratheon", {"march": {"from": "dragonstone", "moves": {"kingswood": ["footman"]}}})


def test_impassable_areas_three_players_R33_R284():
    s = game({"units": {"kingswood": {"baratheon": ["footman"]}, "lannisport": {"lannister": ["footman"]}},
              "orders": {"kingswood": {"baratheon": "march+0"}}})
    assert summ(s)["neutral_forces"]["storms_end"] == "impassable"
    refused(s, "baratheon", {"march": {"from": "kingswood", "moves": {"storms_end": ["footman"]}}})


def test_one_combat_per_march_R150():
    s = march_game({"castle_black": {"stark": ["footman", "knight"]}, "karhold": {"lannister": ["footman"]},
                    "winterfell": {"baratheon": ["footman"]}, "lannisport": {"lannister": ["footman"]}},
                   {"castle_black": {"stark": "march+0"}}, garrisons={})
    refused(s, "stark", {"march": {"from": "castle_black", "moves": {"karhold": ["footman"], "winterfell": ["knight"]}}})


def test_neutral_force_too_strong_is_refused_A14_R280():
    s = game({"units": {"kingswood": {"baratheon": ["footman"]}, "lannisport": {"lannister": ["footman"]}},
              "neutral_forces": {"the_reach": 3}, "orders": {"kingswood": {"baratheon": "march+1*"}}})
    refused(s, "baratheon", {"march": {"from": "kingswood", "moves": {"the_reach": ["footman"]}}})
    assert summ(s)["neutral_forces"]["the_reach"] == 3


def test_port_capture_when_land_changes_hands_R258_A23():
    units = {"winterfell": {"stark": ["footman"]}, "port_of_white_harbor": {"lannister": ["ship", "ship"]},
             "lannisport": {"lannister": ["footman"]}}
    s = march_game(units, {"winterfell": {"stark": "march+0"}}, power_tokens={"white_harbor": "lannister"})
    s, _ = act(s, "stark", {"march": {"from": "winterfell", "moves": {"white_harbor": ["footman"]}}})
    assert R.pending(s) == {"stark": "replace_ships"}
    assert R.legal_actions(s, "stark") == [{"replace_ships": k} for k in range(3)]
    assert R.default_action(s, "stark") == {"replace_ships": 2}  # D27
    refused(s, "stark", {"replace_ships": 3})
    s, _ = act(s, "stark", {"replace_ships": 1})
    assert summ(s)["units"]["port_of_white_harbor"] == {"stark": ["ship"]}


def test_instant_win_at_seven_castles_R37b():
    castles = ["white_harbor", "moat_cailin", "flints_finger", "seagard", "riverrun", "harrenhal"]
    units = {a: {"stark": ["footman"]} for a in castles}
    units.update({"the_twins": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]}})
    # Winterfell (shield) + 6 castles = 7 already: the setup does not end the game, the next control change does
    s = march_game(units, {"harrenhal": {"stark": "march+0"}})
    s, ev = act(s, "stark", {"march": {"from": "harrenhal", "moves": {"crackclaw_point": ["footman"]},
                                       "leave_power_token": True}})
    assert s["phase"] == "over" and summ(s)["winner"] == "stark" and summ(s)["ranking"][0] == "stark"
    assert R.pending(s) == {}
    refused(s, "lannister", {"march": {"from": "lannisport", "moves": {}}}, "game_over")


def test_captured_ships_lose_their_order_R258():
    units = {"winterfell": {"stark": ["footman"]}, "port_of_white_harbor": {"lannister": ["ship"]},
             "lannisport": {"lannister": ["footman"]}}
    s = march_game(units, {"winterfell": {"stark": "march+0"}, "port_of_white_harbor": {"lannister": "march+0"}},
                   power_tokens={"white_harbor": "lannister"})
    s, _ = act(s, "stark", {"march": {"from": "winterfell", "moves": {"white_harbor": ["footman"]}}})
    s, _ = act(s, "stark", {"replace_ships": 0})
    sm = summ(s)
    assert "port_of_white_harbor" not in sm["units"] and "port_of_white_harbor" not in sm["orders"]
