"""Consolidate Power (R179-R184), Clean-up (R185-R188), round flow and the end of the game (R34-R41)."""
from __future__ import annotations

from tests.engine.agot_helpers import R, act, game, summ

TRACKS = {"iron_throne": ["stark", "lannister", "baratheon"]}
# round 2's Westeros phase: no decision, no power, no supply change (Web of Lies: no Support orders)
QUIET = {"westeros_1": ["last_days_of_summer"], "westeros_2": ["last_days_of_summer"], "westeros_3": ["web_of_lies"]}


def test_consolidate_land_sea_port_R179_R181_R184():
    s = game({"units": {"castle_black": {"stark": ["footman"]}, "bay_of_ice": {"stark": ["ship"]},
                        "port_of_winterfell": {"stark": ["ship"]}, "winterfell": {"stark": ["footman"]},
                        "dragonstone": {"baratheon": ["footman"]}, "lannisport": {"lannister": ["footman"]},
                        "port_of_lannisport": {"lannister": ["ship"]}, "the_golden_sound": {"baratheon": ["ship"]}},
              "neutral_forces": {}, "tracks": TRACKS, "decks": QUIET,
              "orders": {"castle_black": {"stark": "consolidate"}, "bay_of_ice": {"stark": "consolidate"},
                         "port_of_winterfell": {"stark": "consolidate*"}, "dragonstone": {"baratheon": "consolidate"},
                         "port_of_lannisport": {"lannister": "consolidate"}}})
    # every consolidate order is taken by the engine (no choice yet); the round ended
    sm = summ(s)
    assert sm["round"] == 2 and sm["phase"] == "planning"
    assert sm["power"]["stark"] == 5 + 2 + 0 + 1  # Castle Black crown, sea 0 (R180), port +1 (R181)
    assert sm["power"]["baratheon"] == 5 + 2  # Dragonstone: 1 + 1 crown (R184)
    assert sm["power"]["lannister"] == 5  # enemy ship in the Golden Sound: the port CP has no effect (R181)


def test_cleanup_R185_R187_then_the_westeros_phase_R42():
    s = game({"units": {"winterfell": {"stark": ["routed_footman", "knight"]}, "lannisport": {"lannister": ["footman"]},
                        "stoney_sept": {"lannister": ["footman"]}},
              "neutral_forces": {}, "tracks": TRACKS, "used": {"valyrian_steel_blade": True}, "decks": QUIET,
              "orders": {"winterfell": {"stark": "defense+1"}, "lannisport": {"lannister": "support+0"},
                         "stoney_sept": {"lannister": "march+0"}}})
    s, ev = act(s, "lannister", {"march": {"from": "stoney_sept", "moves": {}}})
    sm = summ(s)
    assert sm["orders"] == {} and sm["units"]["winterfell"]["stark"] == ["footman", "knight"]
    assert sm["used"] == {"valyrian_steel_blade": False, "messenger_raven": False}
    assert sm["round"] == 2 and sm["phase"] == "planning" and sm["step"] == "assign"
    assert [e["cards"] for e in ev if e["type"] == "westeros_revealed"] == [
        ["last_days_of_summer", "last_days_of_summer", "web_of_lies"]]
    assert sm["restrictions"] == ["support"] and sm["wildlings"] == 8  # three icons: 2 -> 8


def _end_game(units, **extra):
    setup = {"round": 10, "units": units, "neutral_forces": {}, "garrisons": {},
             "orders": {"castle_black": {"stark": "march+0"}}}
    setup.update(extra)
    s = game(setup)
    s, ev = act(s, "stark", {"march": {"from": "castle_black", "moves": {}}})
    assert s["phase"] == "over" and R.pending(s) == {}
    return summ(s)


def test_game_ends_after_round_ten_R37a_R40_castles():
    sm = _end_game({"castle_black": {"stark": ["footman"]}, "white_harbor": {"stark": ["footman"]},
                    "moat_cailin": {"stark": ["footman"]}, "harrenhal": {"lannister": ["footman"]}})
    assert sm["ranking"] == ["stark", "lannister", "baratheon"] and sm["winner"] == "stark"


def test_tie_break_strongholds_R40():
    # Stark: Winterfell + White Harbor (1 stronghold); Lannister: Lannisport + Riverrun (2 strongholds)
    sm = _end_game({"castle_black": {"stark": ["footman"]}, "white_harbor": {"stark": ["footman"]},
                    "riverrun": {"lannister": ["footman"]}})
    assert sm["victory"]["stark"] == sm["victory"]["lannister"] == 2
    assert sm["ranking"] == ["lannister", "stark", "baratheon"]


def test_tie_break_supply_then_power_then_iron_throne_R40():
    units = {"castle_black": {"stark": ["footman"]}}
    sm = _end_game(units, supply={"stark": 1, "lannister": 3, "baratheon": 2})
    assert sm["ranking"] == ["lannister", "baratheon", "stark"]
    sm = _end_game(units, supply={"stark": 2, "lannister": 2, "baratheon": 2}, power={"stark": 1, "lannister": 2,
                                                                                      "baratheon": 3})
    assert sm["ranking"] == ["baratheon", "lannister", "stark"]
    sm = _end_game(units, supply={"stark": 2, "lannister": 2, "baratheon": 2}, power={"stark": 2, "lannister": 2,
                                                                                      "baratheon": 2},
                   tracks={"iron_throne": ["lannister", "stark", "baratheon"]})
    assert sm["ranking"] == ["lannister", "stark", "baratheon"]


def test_round_one_has_no_westeros_phase_R35():
    s = R.new_game(["stark", "lannister", "baratheon"], {}, 5)
    sm = summ(s)
    assert sm["round"] == 1 and sm["phase"] == "planning" and sm["revealed"]["westeros"] == []


def test_special_consolidate_asks_power_or_muster_R182_D28():
    setup = {"units": {"lannisport": {"lannister": ["footman"]}, "winterfell": {"stark": ["footman"]}},
             "neutral_forces": {}, "decks": QUIET, "orders": {"lannisport": {"lannister": "consolidate*"}}}
    s = game(setup)
    assert R.pending(s) == {"lannister": "consolidate"}
    assert R.default_action(s, "lannister") == {"consolidate": {"from": "lannisport"}}  # D28
    gained, _ = act(s, "lannister", R.default_action(s, "lannister"))
    assert summ(gained)["power"]["lannister"] == 6 and summ(gained)["round"] == 2
    mustered, _ = act(s, "lannister", {"consolidate": {"from": "lannisport", "muster": [
        {"upgrade": "footman", "to": "knight"}, {"recruit": "ship", "to": "port_of_lannisport"}]}})
    sm = summ(mustered)
    assert sm["power"]["lannister"] == 5
    assert sm["units"]["lannisport"]["lannister"] == ["knight"]
    assert sm["units"]["port_of_lannisport"]["lannister"] == ["ship"]


def test_ordinary_consolidate_stays_forced_R179():
    s = game({"units": {"lannisport": {"lannister": ["footman"]}, "winterfell": {"stark": ["footman"]}},
              "neutral_forces": {}, "decks": QUIET, "orders": {"lannisport": {"lannister": "consolidate"}}})
    assert summ(s)["power"]["lannister"] == 6 and summ(s)["round"] == 2
