"""Issue 32's rules framework, rules revision 2 (docs/rules-decisions.md "Miniatures (issue 32): the
rules framework"): the `revision` option, effects declared together (seed 1776-1779, M105), M70's
50 % alignment, the Combat and Wealth zones in full (M35), exact line of sight (M81), forced
decisions (SCENARIOS.md "Decisions") and the terrain keywords of M78. Scenarios 53-60 show the same
in the notation."""
from __future__ import annotations

import pytest

from games.engine import get_ruleset
from games.engine.base import EngineError
from games.engine.minis import flow
from games.engine.minis import table as T

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]


def game(units, hands=None, dice=None, options=None, **extra):
    setup = {"hands": hands or {"stark": [], "lannister": []}, "units": units, **extra}
    if dice is not None:
        setup["dice"] = dice
    return R.scenario_game(SEATS, options or {}, 1, setup, "activation")


# ---------------------------------------------------------------- the revision option


def test_new_games_play_the_current_revision_and_keep_an_earlier_one():
    assert T.REVISION == 5
    s = R.new_game(SEATS, {}, 1)
    assert "revision" not in s["options"] and T.revision(s) == 5
    for kept in (1, 2, 3, 4):
        old = R.new_game(SEATS, {"revision": kept}, 1)
        assert old["options"]["revision"] == kept and T.revision(old) == kept
    for bad in (0, 6, True, "2"):
        with pytest.raises(EngineError):
            R.new_game(SEATS, {"revision": bad}, 1)


# ---------------------------------------------------------------- M70


def test_m70_an_enemy_in_the_chargers_front_moves_to_be_aligned_fifty_per_cent():
    """The second Guardsmen stand half an inch off the 50 % pose on the charger's front edge: they
    are moved there (M70: "must align 50 % with the attacker") and stay engaged; revision 1 pushed
    them back (scenario 40)."""
    units = {"swords": {"card": "10201", "at": [24, 8], "facing": 0},
             "guards": {"card": "10101", "at": [24, 19], "facing": 180},
             "guards2": {"card": "10101", "at": [30, 19], "facing": 180}}
    s = game(units, dice=[6] + [1] * 7)
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, ev = R.apply(s, "stark", {"charge": {"target": "guards", "align": "left"}})
    assert s["units"]["guards2"]["at"] == [29.5, 19] and s["units"]["guards2"]["facing"] == 180
    assert sorted(T.engaged_with(s, "swords")) == ["guards", "guards2"]
    align = [e for e in ev if e["type"] == "move" and e["unit"] == "guards2"]
    assert align and align[0]["kind"] == "align" and align[0]["distance"] == 0.5


def test_m70_an_enemy_in_the_chargers_flank_is_still_pushed_back():
    units = {"swords": {"card": "10201", "at": [24, 8], "facing": 0},
             "guards": {"card": "10101", "at": [24, 19], "facing": 180},
             "guards2": {"card": "10101", "at": [32.25, 14], "facing": 270}}  # against the right side
    s = game(units, dice=[6] + [1] * 7)
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, ev = R.apply(s, "stark", {"charge": {"target": "guards", "align": "left"}})
    assert s["last_charge"]["result"] == "success"
    moves = [e for e in ev if e["type"] == "move" and e["unit"] == "guards2"]
    if moves:  # touched by the charger's right side: pushed back, not aligned
        assert moves[0]["kind"] == "push_back"
    assert "guards2" not in T.engaged_with(s, "swords")


# ---------------------------------------------------------------- M81: exact line of sight


def gap_game(gap, rev=2, left=23.5):
    units = {"swords": {"card": "10201", "at": [24, 10], "facing": 0},
             "guards": {"card": "10101", "at": [24, 30], "facing": 180},
             "b1": {"card": "10201", "at": [left - 2.75, 20], "facing": 0},
             "b2": {"card": "10201", "at": [left + gap + 2.75, 20], "facing": 0}}
    return game(units, options={"revision": rev})


@pytest.mark.parametrize("gap", [0.02, 0.3, 0.6])
def test_m81_any_gap_wider_than_the_tolerance_gives_sight(gap):
    assert T.has_los(gap_game(gap), "swords", "guards")


@pytest.mark.parametrize("gap", [0.0, 0.005])
def test_m81_trays_within_the_tolerance_still_block_together(gap):
    assert not T.has_los(gap_game(gap), "swords", "guards")


def test_m81_revision_1_sampled_and_missed_a_narrow_gap():
    assert not T.has_los(gap_game(0.3, rev=1), "swords", "guards")
    assert T.has_los(gap_game(0.3, rev=2), "swords", "guards")


def test_m81_a_gap_that_opens_only_obliquely_is_found():
    # the gap lies to the side: only a slanted line from the front edge's left end gets through
    units = {"swords": {"card": "10201", "at": [24, 10], "facing": 0},
             "guards": {"card": "10101", "at": [30, 30], "facing": 180},
             "b1": {"card": "10201", "at": [22.25, 20], "facing": 0},
             "b2": {"card": "10201", "at": [28.35, 20], "facing": 0}}
    assert T.has_los(game(units), "swords", "guards")
    assert not T.has_los(game(units, options={"revision": 1}), "swords", "guards")


# ---------------------------------------------------------------- M35: the zones in full


def test_the_combat_zone_lets_an_engaged_unit_refacing_and_aligning_attack():
    """The free Attack action takes the attack's own keys: the Swords, engaged only in their flank,
    re-face to front the Guardsmen (M58) before their free attack."""
    units = {"swords": {"card": "10201", "at": [26, 27.55], "facing": 90, "activated": True},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180, "activated": True}}
    s = game(units, ncus={"30201": {"activated": False}}, dice=[1] * 30)
    s, _ = R.apply(s, "stark", {"activate": "30201"})
    s, _ = R.apply(s, "stark", {"claim": {"zone": "swords"}})
    if s["decision"]["kind"] == "choose" and s["decision"].get("what") == "influence":
        s, _ = R.apply(s, "stark", {"choose": {"unit": "guards"}})
    assert s["decision"]["kind"] == "choose" and s["decision"]["zone"] == "swords"
    s, ev = R.apply(s, "stark", {"choose": {"unit": "swords", "target": "guards", "face": True}})
    assert [e["kind"] for e in ev if e["type"] == "move"][:1] == ["reface"]
    assert s["last_attack"]["attacker"] == "swords" and s["units"]["swords"]["facing"] == 180
    assert s["last_attack"]["arc"] == "rear"  # the Swords now face the Guardsmen's rear edge


def test_the_wealth_zone_lists_only_answers_that_remove_a_token():
    units = {"guards": {"card": "10101", "at": [24, 10], "facing": 0, "conditions": ["weakened"]},
             "swords": {"card": "10201", "at": [24, 40], "facing": 180}}
    s = game(units)
    opts = flow.zone_choices(s, "money", "lannister")
    assert {"unit": "guards"} not in opts and {"unit": "guards", "condition": "weakened"} in opts
    assert {"unit": "swords"} in opts
    old = game(units, options={"revision": 1})
    assert {"unit": "guards"} in flow.zone_choices(old, "money", "lannister")


# ---------------------------------------------------------------- M78 terrain keywords


@pytest.mark.parametrize(("kind", "at", "mod"), [("weirwood", [24, 26], 1), ("corpse_pile", [24, 26], -1),
                                                  ("weirwood", [24, 40], 0)])
def test_inspiring_and_horrific_terrain_within_short_range(kind, at, mod):
    units = {"swords": {"card": "10201", "at": [24, 15], "facing": 180}}
    terrain = [{"id": "t", "type": kind, "circle": {"center": at, "radius": 2.5}}]
    s = game(units, terrain=terrain)
    assert flow.morale_modifier(s, "swords") == mod
    assert flow.morale_modifier(game(units, terrain=terrain, options={"revision": 1}), "swords") == 0


def test_elevated_only_for_ranged_line_of_sight():
    units = {"swords": {"card": "10201", "at": [24, 6], "facing": 0},
             "b": {"card": "10201", "at": [24, 8], "facing": 180},
             "guards": {"card": "10101", "at": [24, 15], "facing": 180}}
    hill = [{"id": "hill", "type": "custom", "keywords": ["elevated"],
             "rect": {"center": [24, 3.5], "size": [8, 5], "rotation": 0}}]
    s = game(units, terrain=hill)
    assert T.elevated(s, "swords")
    assert T.has_los(s, "swords", "guards", ranged=True)
    assert not T.has_los(s, "swords", "guards")  # a charge's line of sight is not raised
