"""Line of sight as a read-only query of the engine's `check` (issue 19, the battlefield page shows
it for the selected unit): {"line_of_sight": {"from", "to", "ranged"?}} answers {"ok", "reason"} by
the rules of M81 (a line from the Front arc's edge to any part of the target, other trays in the
way, the rule's example of two touching units) and M78 (Blocks LoS terrain; Cover for ranged
attacks only; terrain the viewer stands in does not block). Positions are public: any seat may ask,
about any two units, whatever decision is pending, and nothing changes."""
from __future__ import annotations

import json
import math
import random

import pytest

from games.engine import get_ruleset
from games.engine.minis import table as T

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]


def game(units, terrain=None, options=None):
    setup = {"hands": {"stark": [], "lannister": []}, "units": units}
    if terrain:
        setup["terrain"] = terrain
    return R.scenario_game(SEATS, options or {}, 1, setup, "activation")


def los(state, a, b, seat="stark", ranged=None):
    q = {"from": a, "to": b}
    if ranged is not None:
        q["ranged"] = ranged
    return R.check(state, seat, {"line_of_sight": q})


FACE_TO_FACE = {"swords": {"card": "10201", "at": [24, 10], "facing": 0},
                "guards": {"card": "10101", "at": [24, 30], "facing": 180}}


def test_a_clear_line_is_seen_both_ways_M81():
    s = game(FACE_TO_FACE)
    assert los(s, "swords", "guards") == {"ok": True, "reason": "swords has line of sight to guards"}
    assert los(s, "guards", "swords")["ok"] is True


def test_a_target_outside_the_front_arc_is_not_seen_M81():
    s = game({"swords": {"card": "10201", "at": [24, 10], "facing": 0},
              "guards": {"card": "10101", "at": [24, 5], "facing": 0}})   # behind the Sworn Swords
    res = los(s, "swords", "guards")
    assert res["ok"] is False and res["error"] == "no_line_of_sight"
    assert res["reason"] == "guards is outside the Front arc of swords"
    assert los(s, "guards", "swords")["ok"] is True   # the Guardsmen face them


def test_two_touching_units_block_and_are_named_M81():
    # the rule's example (L969-L971): two units edge to edge hide what is behind them
    blockers = {"b1": {"card": "10201", "at": [21.25, 20], "facing": 0},
                "b2": {"card": "10201", "at": [26.75, 20], "facing": 0}}
    s = game({**FACE_TO_FACE, **blockers})
    res = los(s, "swords", "guards")
    assert res["ok"] is False
    assert "b1 and b2 stand in the way" in res["reason"] and "(M" not in res["reason"]
    blockers["b1"]["at"] = [20.5, 20]   # a 1.5 in gap: seen through it
    assert los(game({**FACE_TO_FACE, **blockers}), "swords", "guards")["ok"] is True


@pytest.mark.parametrize("gap, seen", [(0.0, False), (0.009, False), (0.0105, True), (0.011, True),
                                       (0.013, True), (0.05, True)])
def test_sight_through_a_gap_is_exact_to_the_tolerance_M81(gap, seen):
    """Exact line of sight (issue 32, rules revision 3): a gap between two trays wider than the
    tolerance (0.01 in: trays that close touch, SCENARIOS.md D6) gives sight, straight through it or
    slanting; one at most that wide is no gap (revision 2 refused gaps under about 0.013 in)."""
    half = gap / 2
    blockers = {"b1": {"card": "10201", "at": [24 - half - 2.75, 20], "facing": 0},
                "b2": {"card": "10201", "at": [24 + half + 2.75, 20], "facing": 0}}
    assert los(game({**FACE_TO_FACE, **blockers}), "swords", "guards")["ok"] is seen
    # the same gap slanting at 30 degrees (both trays turned), the line through it at that angle
    rx, ry = math.cos(math.radians(30)), -math.sin(math.radians(30))  # right of facing 30
    d = half + 2.75
    slant = {"b1": {"card": "10201", "at": [24 - rx * d, 20 - ry * d], "facing": 30},
             "b2": {"card": "10201", "at": [24 + rx * d, 20 + ry * d], "facing": 30},
             "swords": {"card": "10201", "at": [24 - 10 * math.tan(math.radians(30)), 10], "facing": 0},
             "guards": {"card": "10101", "at": [24 + 10 * math.tan(math.radians(30)), 30], "facing": 180}}
    assert los(game(slant), "swords", "guards")["ok"] is seen


@pytest.mark.parametrize("gap, seen", [(0.009, False), (0.011, False), (0.014, True)])
def test_a_game_of_revision_2_keeps_its_line_of_sight_M81(gap, seen):
    """A game started under rules revision 2 (games/migrations/0022) keeps the line of sight it was
    played with, so its log replays: a gap of 0.011 in gave no sight then (it does now)."""
    half = gap / 2
    blockers = {"b1": {"card": "10201", "at": [24 - half - 2.75, 20], "facing": 0},
                "b2": {"card": "10201", "at": [24 + half + 2.75, 20], "facing": 0}}
    assert los(game({**FACE_TO_FACE, **blockers}, options={"revision": 2}), "swords", "guards")["ok"] is seen


def test_blocks_los_terrain_blocks_and_cover_only_for_ranged_M78():
    wall = {"id": "p", "type": "palisade", "rect": {"center": [24, 20], "size": [12, 1], "rotation": 0}}
    res = los(game(FACE_TO_FACE, [wall]), "swords", "guards")
    assert res["ok"] is False and "the palisade (Blocks LoS) stands in the way" in res["reason"]
    wood = {"id": "w", "type": "forest", "circle": {"center": [24, 20], "radius": 4}}
    s = game(FACE_TO_FACE, [wood])
    assert los(s, "swords", "guards")["ok"] is True                  # melee and charges see through Cover
    ranged = los(s, "swords", "guards", ranged=True)
    assert ranged["ok"] is False and "the forest (Cover) stands in the way" in ranged["reason"]
    inside = game({"swords": {"card": "10201", "at": [24, 21], "facing": 0},
                   "guards": {"card": "10101", "at": [24, 34], "facing": 180}}, [wood])
    assert los(inside, "swords", "guards", ranged=True)["ok"] is True   # the viewer stands in it


def test_any_seat_may_ask_about_any_units_and_nothing_changes():
    s = game(FACE_TO_FACE)
    assert R.pending(s) == {"stark": "activate"}
    before = json.dumps(s, sort_keys=True)
    assert los(s, "guards", "swords", seat="lannister")["ok"] is True   # not pending, the enemy's unit
    assert los(s, "swords", "guards", seat="lannister")["ok"] is True
    assert json.dumps(s, sort_keys=True) == before


@pytest.mark.parametrize("query", [
    {"from": "swords"}, {"from": "swords", "to": "nobody"}, {"from": "swords", "to": "swords"},
    {"from": "swords", "to": "guards", "ranged": "yes"}, {"from": "swords", "to": "guards", "extra": 1},
    {"from": 3, "to": "guards"}, "swords", None])
def test_a_bad_query_is_a_bad_action(query):
    res = R.check(game(FACE_TO_FACE), "stark", {"line_of_sight": query})
    assert res["ok"] is False and res["error"] == "bad_action"


def test_the_answer_is_the_engines_own_line_of_sight_over_a_random_game():
    """At positions of a seeded random game on random terrain, the query agrees with the line of sight
    the engine's charges (melee) and ranged attacks use (table.has_los)."""
    rnd = random.Random(5)
    s = R.new_game(SEATS, {"terrain": "random"}, 5)
    compared = 0
    for _ in range(400):
        if R.is_over(s):
            break
        seat = sorted(R.pending(s))[0]
        s, _ = R.apply(s, seat, R.random_action(s, seat, rnd))
        if s["phase"] != "deployment" and rnd.random() < 0.1:
            for a in T.live(s):
                for b in T.live(s):
                    if a != b:
                        for ranged in (False, True):
                            assert los(s, a, b, ranged=ranged)["ok"] is T.has_los(s, a, b, ranged)
                            compared += 1
    assert compared > 100
