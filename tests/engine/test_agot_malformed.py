"""Malformed or out-of-turn actions are refused with an EngineError code (bad_action,
illegal_action, not_your_turn), never with a Python error, and leave the state unchanged."""
from __future__ import annotations

import json
import random

from games.engine import EngineError
from tests.engine.agot_helpers import R

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
