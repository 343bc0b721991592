"""General terms (R1-R14) and the order of the Action phase (R131)."""
from __future__ import annotations

from games.engine.agot import board as B
from games.engine.agot import supply
from games.engine.agot.data import board
from tests.engine.agot_helpers import R, act, game, summ


def test_three_to_six_houses_R1():
    assert (R.min_seats, R.max_seats) == (3, 6)
    assert R.seat_names(6) == ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]


def test_garrisons_and_neutral_forces_are_not_units_R2_R273():
    s = game({"units": {"winterfell": {"stark": ["footman"]}}, "garrisons": {"winterfell": 2},
              "neutral_forces": {"karhold": 3}}, start="planning")
    assert supply.army_sizes(s, "stark") == [] and B.unit_counts(s, "stark")["footman"] == 1


def test_area_types_and_home_areas_R3_R4():
    b = board()
    assert {b.type[a] for a in b.ids} == {"land", "sea", "port"}
    assert b.home == {"stark": "winterfell", "lannister": "lannisport", "greyjoy": "pyke", "tyrell": "highgarden",
                      "baratheon": "dragonstone", "martell": "sunspear"}


def test_turn_order_is_the_iron_throne_track_R5_R131():
    units = {"winterfell": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]},
             "dragonstone": {"baratheon": ["footman"]}, "shipbreaker_bay": {"baratheon": ["ship"]},
             "stoney_sept": {"lannister": ["footman"]}, "castle_black": {"stark": ["footman"]}}
    orders = {"winterfell": {"stark": "march+0"}, "lannisport": {"lannister": "march+0"},
              "dragonstone": {"baratheon": "march+0"}, "stoney_sept": {"lannister": "raid"},
              "castle_black": {"stark": "consolidate"}, "shipbreaker_bay": {"baratheon": "raid"}}
    s = game({"units": units, "orders": orders, "neutral_forces": {},
              "tracks": {"iron_throne": ["stark", "baratheon", "lannister"]}})
    # raids first (R131): Stark has none; Baratheon's raid has no target and is removed; Lannister's too
    assert summ(s)["step"] == "march" and R.pending(s) == {"stark": "march"}
    s, _ = act(s, "stark", {"march": {"from": "winterfell", "moves": {}}})
    assert R.pending(s) == {"baratheon": "march"}
    s, _ = act(s, "baratheon", {"march": {"from": "dragonstone", "moves": {}}})
    assert R.pending(s) == {"lannister": "march"}
    s, ev = act(s, "lannister", {"march": {"from": "lannisport", "moves": {}}})
    kinds = [e["type"] for e in ev]
    # then consolidate power, then clean-up
    assert kinds.index("consolidate") < kinds.index("cleanup")


def test_destroyed_units_return_to_the_house_R9_R11():
    s = game({"units": {"winterfell": {"stark": ["footman"] * 10}}, "supply": {"stark": 6}}, start="planning")
    assert B.unit_counts(s, "stark")["footman"] == 10
    B.remove_units(s, "winterfell", "stark", ["footman"])
    assert B.unit_counts(s, "stark")["footman"] == 9


def test_only_enemy_orders_are_raided_R12_R145():
    s = game({"units": {"lannisport": {"lannister": ["footman"]}, "stoney_sept": {"lannister": ["footman"]},
                        "winterfell": {"stark": ["footman"]}},
              "neutral_forces": {}, "orders": {"lannisport": {"lannister": "raid"},
                                               "stoney_sept": {"lannister": "consolidate"},
                                               "winterfell": {"stark": "march+0"}}})
    assert "lannisport" not in summ(s)["orders"]  # no enemy target: removed by the engine


def test_transport_is_adjacency_for_march_only_R14_R143_R266():
    s = game({"units": {"lannisport": {"lannister": ["footman"]}, "the_golden_sound": {"lannister": ["ship"]},
                        "sunset_sea": {"lannister": ["ship"]}, "flints_finger": {"stark": ["footman"]}},
              "neutral_forces": {}, "orders": {"lannisport": {"lannister": "raid"},
                                               "flints_finger": {"stark": "consolidate"}}})
    # Flint's Finger is reachable by transport but not adjacent: the raid has no target (R143)
    assert "flints_finger" not in B.adjacent("lannisport")
    assert summ(s)["power"]["lannister"] == 5
