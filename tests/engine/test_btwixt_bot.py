"""The engine's own player (bot_action): always legal, deterministic, and better than kneeling."""
from __future__ import annotations

import random

import pytest

from games.engine import get_ruleset
from games.engine.btwixt import bot

R = get_ruleset("btwixt")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_bot_action_is_legal_and_deterministic(players):
    state = R.new_game(R.seat_names(players), {"advanced": True}, players)
    rnd = random.Random(players)
    while not R.is_over(state):
        seat = rnd.choice(sorted(R.pending(state)))
        act = R.bot_action(state, seat)
        assert act == R.bot_action(state, seat)
        assert act in R.legal_actions(state, seat)
        state, _ = R.apply(state, seat, act)
        bot.check_invariants(state)


def test_bot_beats_seats_that_always_kneel():
    wins = 0
    for seed in range(20):
        state = R.new_game(R.seat_names(4), {}, seed)
        while not R.is_over(state):
            seat = sorted(R.pending(state))[0]
            act = R.bot_action(state, seat) if seat == "cersei" else R.default_action(state, seat)
            state, _ = R.apply(state, seat, act)
        wins += "cersei" in state["winners"]
    assert wins >= 10
