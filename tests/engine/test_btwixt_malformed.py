"""Malformed B'Twixt actions are refused with EngineError(bad_action) and a sentence, never a Python
error, and the state is left as it was (issue 28). What no action of any ruleset holds (numbers
beyond +-1,000,000 or not finite, texts over 64 characters, lists over 200 items, nesting deeper
than 8) is refused by the reading every ruleset shares (games/engine/fields.py) before the engine
looks at the action, with the field's place in the action; the sentence never repeats it."""
from __future__ import annotations

import json

import pytest

from games.engine import EngineError, get_ruleset

B = get_ruleset("btwixt")


@pytest.fixture(scope="module")
def turn():
    state = B.new_game(B.seat_names(4), {}, 3)
    assert B.pending(state) == {"cersei": "turn"}
    return state


def deep(n: int):
    value: list = []
    for _ in range(n):
        value = [value]
    return value


@pytest.mark.parametrize("action, says", [
    ({"play": 10**400}, "play: numbers in an action are from -1,000,000 to 1,000,000"),
    ({"play": float("nan")}, "play: numbers in an action are finite"),
    ({"play": "ambush", "target": {"seat": 1e308}}, "target.seat: numbers in an action are finite"),
    ({"play": "a" * 65}, "play: texts in an action are at most 64 characters long"),
    ({"play": "ambush", "target": {"b" * 65: "x"}}, "target: keys in an action are at most 64 characters long"),
    ({"reorder_dead": ["x"] * 201}, "reorder_dead: lists in an action hold at most 200 items"),
    ({"reorder_dead": deep(20)}, "an action nests at most 8 lists or objects deep"),
    ({"kneel": (1, 2)}, "kneel: an action holds only JSON values"),
    ({"choose": {"seat": {"x": [[-10**400]]}}}, "choose.seat.x[0][0]: numbers in an action are from"),
])
def test_what_no_action_holds_is_refused_with_where_it_is(turn, action, says):
    before = json.dumps(turn, sort_keys=True)
    with pytest.raises(EngineError) as info:
        B.apply(turn, "cersei", action)
    assert info.value.code == "bad_action"
    assert says in info.value.reason, info.value.reason
    assert "0000000" not in info.value.reason and "aaaaaaa" not in info.value.reason
    assert json.dumps(turn, sort_keys=True) == before


@pytest.mark.parametrize("action", [
    {"play": []}, {"play": {}}, {"play": True}, {"play": "ambush", "target": []}, {"play": "ambush", "target": 5},
    {"claim": {}}, {"token": []}, {"keep": None}, {"kneel": 1}, {"reorder_dead": "x"}, {"choose": {"allies": [1]}},
])
def test_wrong_types_are_bad_actions(turn, action):
    with pytest.raises(EngineError) as info:
        B.apply(turn, "cersei", action)
    assert info.value.code in ("bad_action", "not_your_turn"), info.value.reason


def test_legal_actions_stay_legal(turn):
    for action in B.legal_actions(turn, "cersei"):
        new, events = B.apply(turn, "cersei", action)
        json.dumps([new, events], allow_nan=False)
