"""Setup for 3-6 players (R15-R33, R273-R285) and scenario setups (SCENARIOS.md)."""
from __future__ import annotations

import pytest

from games.engine import EngineError
from games.engine.agot import board as B
from games.engine.base import ScenarioSetupError
from tests.engine.agot_helpers import SIX, THREE, R, game, summ


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_setup_per_player_count_R15_R33(count):
    seats = R.seat_names(count)
    s = R.new_game(seats, {}, 1)
    sm = summ(s)
    assert sm["round"] == 1 and sm["phase"] == "planning" and sm["step"] == "assign"  # R19, R35
    assert sm["wildlings"] == 2  # R16
    assert sorted(sm["decks"]["wildlings"]) == sorted(
        ["silence_at_the_wall", "preemptive_raid", "crow_killers", "rattleshirts_raiders", "massing_on_the_milkwater",
         "a_king_beyond_the_wall", "mammoth_riders", "the_horde_descends", "skinchanger_scout"])
    assert [len(sm["decks"][d]) for d in ("westeros_1", "westeros_2", "westeros_3")] == [10, 10, 10]  # R17
    assert "tides" not in sm["decks"]  # R28: only with the option
    for h in seats:
        assert sm["power"][h] == 5 and sm["pool"][h] == 15  # R27
        assert len(sm["hands"][h]) == 7  # R218
        assert sm["garrisons"][B.board().home[h]] == 2  # R26, R273
    for t in ("iron_throne", "fiefdoms", "kings_court"):
        assert sorted(sm["tracks"][t]) == sorted(seats)  # R22, R23
    assert sm["holder"]["iron_throne"] == sm["tracks"]["iron_throne"][0]  # R24
    nf = sm["neutral_forces"]
    expected = {3: 14, 4: 12, 5: 9, 6: 2}[count]  # R18, R29-R32
    assert len(nf) == expected
    if count == 3:
        assert sum(1 for v in nf.values() if v == "impassable") == 12  # R31, R33
    assert set(sm["pending"]) == set(seats)


def test_starting_supply_and_victory_R22_R39():
    sm = summ(R.new_game(SIX, {}, 1))
    assert sm["supply"] == {"stark": 1, "lannister": 2, "greyjoy": 2, "tyrell": 2, "baratheon": 2, "martell": 2}
    assert sm["victory"] == {"stark": 2, "lannister": 1, "greyjoy": 1, "tyrell": 1, "baratheon": 1, "martell": 1}


def test_kings_court_stars_six_players_R99():
    s = R.new_game(SIX, {}, 1)
    assert [B.stars_of(s, h) for h in s["tracks"]["kings_court"]] == [3, 3, 2, 1, 0, 0]


@pytest.mark.parametrize("seats", [["stark", "lannister", "baratheon", "martell"], ["stark", "greyjoy", "baratheon"],
                                   ["stark", "lannister", "greyjoy", "tyrell", "martell"], ["stark", "stark", "lannister"],
                                   ["stark", "lannister"], ["stark", "lannister", "nobody"]])
def test_refused_houses_R20_R29_R31(seats):
    with pytest.raises(EngineError) as e:
        R.new_game(seats, {}, 1)
    assert e.value.code == "illegal_action"


def test_options():
    s = R.new_game(THREE, {"tides_of_battle": True}, 1)
    assert len(s["decks"]["tides"]) == 24  # R28, R297
    with pytest.raises(EngineError):
        R.new_game(THREE, {"dragons": True}, 1)  # an option the engine does not know
    with pytest.raises(EngineError):
        R.new_game(THREE, {"fog_of_war": "yes"}, 1)  # a known switch takes true or false only


def test_same_seed_same_game():
    assert R.new_game(SIX, {}, 42) == R.new_game(SIX, {}, 42)
    assert R.new_game(SIX, {}, 42)["decks"] != R.new_game(SIX, {}, 43)["decks"]


@pytest.mark.parametrize("setup,key", [
    ({"colour": 1}, "colour"),
    ({"units": {"atlantis": {"stark": ["footman"]}}}, "atlantis"),
    ({"units": {"winterfell": {"stark": ["dragon"]}}}, "dragon"),
    ({"units": {"winterfell": {"targaryen": ["footman"]}}}, "targaryen"),
    ({"hands": {"stark": ["jon_snow"]}}, "jon_snow"),
    ({"decks": {"westeros_1": ["dragon_egg"]}}, "dragon_egg"),
    ({"decks": {"westeros_9": []}}, "westeros_9"),
    ({"tracks": {"iron_bank": ["stark"]}}, "iron_bank"),
    ({"used": {"iron_throne": True}}, "iron_throne"),
    ({"power_tokens": {"winterfell": "greyjoy"}}, "greyjoy"),
])
def test_scenario_setup_errors_name_the_key(setup, key):
    with pytest.raises(ScenarioSetupError) as e:
        game(setup, start="planning")
    assert key in str(e.value)


def test_start_westeros_needs_round_two_R35():
    with pytest.raises(ScenarioSetupError, match="round 2-10"):
        game({}, start="westeros")
    assert game({"round": 2}, start="westeros")["phase"] in ("westeros", "planning")


def test_skip_westeros_option_is_gone():
    with pytest.raises(EngineError, match="skip_westeros"):
        game({}, start="planning", options={"skip_westeros": True})


def test_scenario_rules_refusals_are_engine_errors():
    with pytest.raises(EngineError):
        game({"units": {"the_golden_sound": {"stark": ["footman"]}}}, start="planning")
    with pytest.raises(EngineError):
        game({"units": {"winterfell": {"stark": ["footman"] * 11}}}, start="planning")  # R9


def test_scenario_setup_keys_apply():
    s = game({"round": 4, "units": {"winterfell": {"stark": ["footman", "routed_knight"]}},
              "power_tokens": {"the_reach": "lannister"}, "power": {"stark": 3}, "wildlings": 6,
              "hands": {"stark": ["eddard_stark"]}, "used": {"messenger_raven": True},
              "decks": {"wildlings": ["crow_killers"]}}, start="planning")
    sm = summ(s)
    assert sm["round"] == 4 and sm["wildlings"] == 6 and sm["power"]["stark"] == 3
    assert sm["units"] == {"winterfell": {"stark": ["footman", "routed_knight"]}}
    assert sm["control"]["the_reach"] == "lannister"
    assert sm["hands"]["stark"] == ["eddard_stark"] and len(sm["discards"]["stark"]) == 6
    assert sm["decks"]["wildlings"][0] == "crow_killers" and len(sm["decks"]["wildlings"]) == 9
    assert sm["supply"]["stark"] == 1  # computed from the board
    assert sm["victory"]["lannister"] == 2  # Lannisport by its shield + The Reach by a token


def test_garrison_only_in_a_seated_home_area_R26():
    with pytest.raises(EngineError):
        game({"garrisons": {"highgarden": 2}}, start="planning")
    assert summ(game({"garrisons": {"winterfell": 3}}, start="planning"))["garrisons"] == {"winterfell": 3}
