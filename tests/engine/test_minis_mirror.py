"""A mirror match of the miniatures game (issue 33): two players whose armies are of one house sit at the house's
two seats, `stark` + `stark_2` or `lannister` + `lannister_2` (the seed does not forbid it; the community plays it).
Stark against Lannister stays the default. Scenarios: tests/scenarios/minis/mirror/."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engine import EngineError, get_ruleset
from games.engine.minis import bot, narrate
from games.engine.minis import table as T

R = get_ruleset("minis")


def test_two_players_default_to_stark_and_lannister_and_may_choose_a_house_twice():
    assert R.seat_names(2) == ["stark", "lannister"]
    assert R.seat_choices(2) == ["stark", "lannister", "stark_2", "lannister_2"]
    for seats in (["stark", "stark_2"], ["lannister", "lannister_2"], ["stark", "lannister"]):
        state = R.new_game(seats, {}, 1)
        assert state["seats"] == seats and not T.multi(state)
        # each seat fields its house's starter army and its own Tactics deck (M16)
        assert {T.faction_of(state["units"][n]["seat"]) for n in state["units"]} == {T.faction_of(s) for s in seats}
        assert all(state["players"][s]["deck"] for s in seats)


@pytest.mark.parametrize("seats", [["stark", "lannister_2"], ["stark_2", "lannister"], ["stark", "stark"],
                                   ["stark_2", "lannister_2"], ["lannister_2", "stark"]])
def test_a_duel_that_is_neither_the_two_houses_nor_one_house_twice_is_refused_in_words(seats):
    with pytest.raises(EngineError) as e:
        R.new_game(seats, {}, 1)
    assert "one house's two armies" in e.value.reason


def test_each_army_of_the_house_is_its_seats_and_the_units_are_numbered_on():
    from games.engine.minis import data

    full = data.default_list("stark")
    smaller = {"commander": full["commander"], "units": full["units"][:-1], "ncus": full["ncus"]}
    state = R.new_game(["stark", "stark_2"], {"armies": {"stark": "list_stark_30", "stark_2": smaller}}, 3)
    first = sorted(n for n, u in state["units"].items() if u["seat"] == "stark")
    second = sorted(n for n, u in state["units"].items() if u["seat"] == "stark_2")
    assert len(first) == len(full["units"]) and len(second) == len(full["units"]) - 1  # the option keyed by seat
    assert not set(first) & set(second)
    assert len(state["ncus"]) == 2 and {n["seat"] for n in state["ncus"].values()} == {"stark", "stark_2"}
    # the zones: the first seat's the south edge, the second's the north (M23)
    from games.engine.minis import flow
    assert flow.home_edge(state, "stark") == "s" and flow.home_edge(state, "stark_2") == "n"
    assert T.opponent(state, "stark") == "stark_2" and T.is_enemy(state, "stark", "stark_2")


@pytest.mark.parametrize("house,seed", [("stark", 11), ("lannister", 12)])
def test_a_random_mirror_game_plays_to_its_end_keeping_every_invariant(house, seed):
    res = bot.play_game(seed, check=True, mirror=house)
    state = res["state"]
    assert state["over"] and state["seats"] == [house, f"{house}_2"]
    assert R.ranking(state) is not None and set(R.placements(state)) == set(state["seats"])
    # VP for destroyed units went to the other army of the house (M129)
    for x in state["vp_log"]:
        if x["source"].startswith("destroyed:"):
            assert state["units"][x["source"].split(":", 1)[1]]["seat"] != x["seat"]
    # each seat sees its own hand only
    for seat in state["seats"]:
        other = T.opponent(state, seat)
        assert R.view(state, seat)["players"][other]["hand"] != state["players"][other]["hand"] or \
            not state["players"][other]["hand"]


def test_the_engines_player_plays_a_mirror_game_to_its_end():
    res = bot.play_game(5, {"lannister": "bot", "lannister_2": "bot"}, check=True, mirror="lannister")
    assert res["state"]["over"]


def test_a_destroyed_unit_is_told_with_the_other_army_of_the_house_scoring_M129():
    state = R.scenario_game(["stark", "stark_2"], {}, 1, {
        "hands": {"stark": [], "stark_2": []},
        "units": {"swords": {"card": "10201", "at": [36, 36], "facing": 0},
                  "wolves": {"card": "10201", "seat": "stark_2", "at": [36, 36], "facing": 180, "wounds": 1},
                  "riders": {"card": "10201", "seat": "stark_2", "at": [8, 40], "facing": 180}},
        "dice": [6] * 7 + [1] * 14}, "activation")
    state, _ = R.apply(state, "stark", {"activate": "swords"})
    state, events = R.apply(state, "stark", {"attack": {"target": "wolves", "attack": "Winter's Bite"}})
    destroyed = next(e for e in events if e["type"] == "destroyed")
    assert destroyed["scorer"] == "stark" and state["vp"] == {"stark": 1, "stark_2": 0}
    said = narrate.describe(destroyed)["text"]
    assert "{stark} scores 1 victory point" in said and "{stark_2}" not in said


def test_a_stark_and_lannister_game_tells_a_destroyed_unit_as_before():
    state = R.scenario_game(["stark", "lannister"], {}, 1, {
        "hands": {"stark": [], "lannister": []},
        "units": {"swords": {"card": "10201", "at": [36, 36], "facing": 0},
                  "guards": {"card": "10101", "at": [36, 36], "facing": 180, "wounds": 1},
                  "halberds": {"card": "10101", "at": [8, 40], "facing": 180}},
        "dice": [6] * 7 + [1] * 14}, "activation")
    state, _ = R.apply(state, "stark", {"activate": "swords"})
    state, events = R.apply(state, "stark", {"attack": {"target": "guards", "attack": "Winter's Bite"}})
    destroyed = next(e for e in events if e["type"] == "destroyed")
    assert "scorer" not in destroyed  # the event's shape is unchanged for the usual duel
    assert "{stark} scores 1 victory point" in narrate.describe(destroyed)["text"]


def test_a_scenario_unit_or_ncu_of_a_house_with_no_seat_is_refused():
    from games.engine.base import ScenarioSetupError

    with pytest.raises(ScenarioSetupError, match="no seat of the lannister house"):
        R.scenario_game(["stark", "stark_2"], {}, 1, {
            "units": {"guards": {"card": "10101", "at": [24, 24], "facing": 0}}}, "activation")
    with pytest.raises(ScenarioSetupError, match="not a seat of the stark house"):
        R.scenario_game(["stark", "stark_2"], {}, 1, {
            "units": {"swords": {"card": "10201", "at": [24, 10], "facing": 0}},
            "ncus": {"30201": {"seat": "lannister"}}}, "activation")
    state = R.scenario_game(["stark", "stark_2"], {}, 1, {
        "units": {"swords": {"card": "10201", "at": [24, 10], "facing": 0}},
        "ncus": {"30201": {"seat": "stark_2"}}}, "activation")
    assert state["ncus"]["30201"]["seat"] == "stark_2"


def test_simulate_plays_mirror_games_and_refuses_the_option_for_more_players():
    out = io.StringIO()
    call_command("simulate", "--game", "minis", "--games", "2", "--seed", "4", "--options", "mirror", stdout=out)
    assert "2 games of 2 players, each house's two armies against each other" in out.getvalue()
    assert "2 ok, 0 failed" in out.getvalue()
    with pytest.raises(CommandError, match="two: mirror"):
        call_command("simulate", "--game", "minis", "--players", "3", "--options", "mirror",
                     stdout=io.StringIO(), stderr=io.StringIO())
