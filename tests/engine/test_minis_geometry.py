"""The minis battlefield geometry (SCENARIOS.md "minis" geometry; rules/minis.md M72-M82): poses,
pivots about the centre, arcs by largest area, line of sight through gaps but not between touching
trays, the tolerance, impassable and rough terrain."""
from __future__ import annotations

import pytest

from games.engine import get_ruleset
from games.engine.base import EngineError
from games.engine.minis import flow
from games.engine.minis import geometry as G
from games.engine.minis import table as T

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]


def game(units, terrain=None):
    setup = {"hands": {"stark": [], "lannister": []}, "units": units}
    if terrain:
        setup["terrain"] = terrain
    return R.scenario_game(SEATS, {}, 1, setup, "activation")


def test_a_pivot_turns_about_the_tray_centre():
    # M72: infantry 5.5 x 4.8, front-centre (24, 10) facing 0 -> centre (24, 7.6); facing 180
    at = G.pivot((24, 10), 0, 180, 4.8)
    assert at == pytest.approx((24, 5.2))
    assert G.centre(at, 180, 4.8) == pytest.approx((24, 7.6))


def test_arcs_by_largest_area_from_the_target():
    # M80, M82: a tray straight behind is in the rear arc, one beside in a flank, one ahead in front
    wed = G.wedges((24, 24), 0, 5.5, 4.8)
    assert G.arc_of(wed, G.tray((24, 30), 180, 5.5, 4.8))[0] == "front"
    assert G.arc_of(wed, G.tray((24, 15), 0, 5.5, 4.8))[0] == "rear"
    assert G.arc_of(wed, G.tray((33, 21.6), 270, 5.5, 4.8))[0] == "flank"


def test_touching_trays_block_sight_as_one_piece_and_a_gap_lets_it_through():
    # M81 and the rule's example of two units edge to edge
    blockers = {"b1": {"card": "10201", "at": [21.25, 20], "facing": 0},
                "b2": {"card": "10201", "at": [26.75, 20], "facing": 0}}
    s = game({"swords": {"card": "10201", "at": [24, 10], "facing": 0},
              "guards": {"card": "10101", "at": [24, 30], "facing": 180}, **blockers})
    assert not T.has_los(s, "swords", "guards")
    blockers["b1"]["at"] = [20.5, 20]  # a 1.5 in gap between the two trays
    s = game({"swords": {"card": "10201", "at": [24, 10], "facing": 0},
              "guards": {"card": "10101", "at": [24, 30], "facing": 180}, **blockers})
    assert T.has_los(s, "swords", "guards")


def test_no_sight_to_a_target_outside_the_front_arc():
    s = game({"swords": {"card": "10201", "at": [24, 10], "facing": 0},
              "guards": {"card": "10101", "at": [24, 5], "facing": 0}})
    assert not T.has_los(s, "swords", "guards")


def test_touching_is_within_the_tolerance_and_overlap_beyond_it():
    a = G.tray((24, 20), 0, 5.5, 4.8)
    assert G.touches(a, G.tray((24, 20.009), 180, 5.5, 4.8))
    assert not G.touches(a, G.tray((24, 20.02), 180, 5.5, 4.8))
    assert not G.overlaps(a, G.tray((24, 19.995), 180, 5.5, 4.8))
    assert G.overlaps(a, G.tray((24, 19.98), 180, 5.5, 4.8))


def test_impassable_terrain_blocks_a_path_and_rough_costs_an_inch():
    wall = [{"id": "p", "type": "palisade", "rect": {"center": [24, 14], "size": [10, 1], "rotation": 0}}]
    s = game({"swords": {"card": "10201", "at": [24, 10], "facing": 0},
              "guards": {"card": "10101", "at": [24, 40], "facing": 180}}, wall)
    with pytest.raises(EngineError, match="impassable"):
        flow.check_march(s, "swords", {"forward": 8})
    bog = [{"id": "b", "type": "bog", "circle": {"center": [24, 14], "radius": 1}}]
    s = game({"swords": {"card": "10201", "at": [24, 10], "facing": 0},
              "guards": {"card": "10101", "at": [24, 40], "facing": 180}}, bog)
    assert flow.check_march(s, "swords", {"forward": 9})[0] == pytest.approx([24, 19])
    with pytest.raises(EngineError, match="more than the 9 in"):
        flow.check_march(s, "swords", {"forward": 9.5})


def test_a_move_may_cross_a_friend_but_not_an_enemy():
    # M75: a friendly tray is crossed, an enemy tray is not
    s = game({"swords": {"card": "10201", "at": [24, 10], "facing": 0},
              "friend": {"card": "10201", "at": [24, 15], "facing": 0},
              "guards": {"card": "10101", "at": [40, 40], "facing": 180}})
    assert flow.check_march(s, "swords", {"forward": 10})[0] == pytest.approx([24, 20])
    s = game({"swords": {"card": "10201", "at": [24, 10], "facing": 0},
              "guards": {"card": "10101", "at": [24, 15], "facing": 0}})
    with pytest.raises(EngineError, match="crosses an enemy"):
        flow.check_march(s, "swords", {"forward": 10})
