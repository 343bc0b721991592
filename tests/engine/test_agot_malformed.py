"""Malformed or out-of-turn actions are refused with an EngineError code (bad_action,
illegal_action, not_your_turn), never with a Python error, and leave the state unchanged. Issue 28
(found by fuzzing POST /actions): a muster item's fields are names, a house card ability's choice
is one of its options as JSON (0 is not false), and no refusal repeats a huge value."""
from __future__ import annotations

import json
import random

import pytest

from games.engine import EngineError
from tests.engine.agot_helpers import SIX, R, game

JUNK = [None, 0, -1, 3, "x", "winterfell", [], ["footman"], {}, {"from": None}, {"from": 5}, {"from": "winterfell"},
        {"from": "winterfell", "moves": []}, {"from": "winterfell", "moves": {"karhold": "footman"}},
        {"from": "winterfell", "moves": {"atlantis": ["footman"]}}, {"from": "winterfell", "moves": {5: ["x"]}},
        {"from": "winterfell", "target": 3}, {"replace": 3}, {"replace": {"area": 1, "order": 2}},
        {"replace": {"area": "winterfell"}}, {"winterfell": 3}, {"winterfell": "raid", "karhold": None}, True,
        {"from": "winterfell", "moves": {}, "leave_power_token": "yes"}, {"for": 3}, "keep", "bottom", "peek"]


def test_junk_actions_are_engine_errors():
    rnd = random.Random(1)
    for players in (3, 6):
        state = R.new_game(R.seat_names(players), {}, players)
        steps = 0
        while not R.is_over(state) and steps < 400:
            pending = R.pending(state)
            before = json.dumps(state, sort_keys=True)
            for seat in [*state["seats"], "nobody"]:
                kind = pending.get(seat) or rnd.choice(["march", "raid", "place_orders", "raven", "bid"])
                for junk in rnd.sample(JUNK, 6):
                    try:
                        R.apply(state, seat, {kind: junk})
                    except EngineError as e:
                        assert e.code in ("bad_action", "illegal_action", "not_your_turn")
                try:
                    R.apply(state, seat, {"fly": 1})
                except EngineError as e:
                    assert e.code in ("bad_action", "not_your_turn")
            assert json.dumps(state, sort_keys=True) == before
            seat = rnd.choice(sorted(pending))
            state, _ = R.apply(state, seat, R.random_action(state, seat, rnd))
            steps += 1


def test_blade_answers_a_blade_redraw_decision_only():
    """SCENARIOS.md: {blade: true|false} answers `blade` and the Tides `blade_redraw` decision."""
    from games.engine.agot import ANSWERS

    assert ANSWERS["blade"] == ("blade", "blade_redraw")
    state = R.new_game(R.seat_names(3), {}, 1)
    try:
        R.apply(state, "stark", {"blade": True})
    except EngineError as e:
        assert e.code == "not_your_turn"


def refusal(state, seat, action) -> EngineError:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(EngineError) as info:
        R.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before
    return info.value


def special_consolidate():
    """Lannister's special Consolidate Power in Lannisport: power or a muster (R182)."""
    quiet = {"westeros_1": ["last_days_of_summer"], "westeros_2": ["last_days_of_summer"],
             "westeros_3": ["web_of_lies"]}
    return game({"units": {"lannisport": {"lannister": ["footman"]}, "winterfell": {"stark": ["footman"]}},
                 "neutral_forces": {}, "decks": quiet, "orders": {"lannisport": {"lannister": "consolidate*"}}})


@pytest.mark.parametrize("item", [{"recruit": {}}, {"recruit": []}, {"recruit": ["knight"]}, {"recruit": None},
                                  {"upgrade": [], "to": "knight"}, {"upgrade": "footman", "to": {}},
                                  {"recruit": "ship", "to": []}, {"recruit": "ship", "to": {"a": 1}}])
def test_a_muster_item_names_units_and_areas(item):
    """{"recruit": {}} was a TypeError (a dict looked up in the unit costs): a 500 over the API."""
    error = refusal(special_consolidate(), "lannister", {"consolidate": {"from": "lannisport", "muster": [item]}})
    assert error.code == "bad_action", error.reason


def test_a_muster_card_item_names_units_too():
    setup = {"round": 2, "units": {"sunspear": {"martell": ["footman"]}}, "supply": {"martell": 5},
             "tracks": {"iron_throne": ["martell", "tyrell", "baratheon", "lannister", "stark", "greyjoy"]},
             "decks": {"westeros_1": ["mustering"], "westeros_2": ["last_days_of_summer"],
                       "westeros_3": ["rains_of_autumn"]}}
    state = game(setup, seats=SIX, start="westeros", seed=16)
    assert R.pending(state)["martell"] == "muster"
    for item in ({"recruit": {}}, {"recruit": []}, {"upgrade": {}, "to": "knight"}):
        assert refusal(state, "martell", {"muster": {"sunspear": [item]}}).code == "bad_action"
    R.apply(state, "martell", {"muster": {"sunspear": [{"recruit": "footman"}]}})  # the legal one still is


def test_an_ability_choice_is_one_of_its_options_as_json():
    """Tyrion's options are [true, false]: 0 and 1 equal them in Python, not in JSON."""
    from tests.engine.test_agot_cards import battle, play

    state = play(battle("lannister", "stark"), ("lannister", {"house_card": "tyrion_lannister"}),
                 ("stark", {"house_card": "eddard_stark"}))
    assert R.legal_actions(state, "lannister") == [{"choose": True}, {"choose": False}]
    for value in (0, 1, 0.0, "true", [True], None):
        assert refusal(state, "lannister", {"choose": value}).code == "illegal_action"
    R.apply(state, "lannister", {"choose": False})


@pytest.mark.parametrize("action", [
    {"raid": {"from": 10**400}}, {"march": {"from": "x" * 100_000}}, {"bid": 10**400}, {"bid": float("inf")},
    {"place_orders": {"winterfell": "march+0", "x" * 300: "raid"}}, {"x" * 300: 1},
    {"march": {"from": [[[[[[[[[[[]]]]]]]]]]]}}, {"reduce": {"winterfell": ["footman"] * 1000}},
])
def test_huge_or_deep_values_are_refused_without_being_repeated(action):
    state = R.new_game(R.seat_names(3), {}, 3)
    seat = sorted(R.pending(state))[0]
    error = refusal(state, seat, action)
    assert error.code == "bad_action"
    assert len(error.reason) < 200 and "0000000000" not in error.reason and "xxxxxxxxxx" not in error.reason
