"""Seeded random games of the miniatures game (issue 18): every action keeps the table's invariants
(no two trays overlap, no tray leaves the table, wounds and ranks consistent with the card, VP only
from their sources: M92, M129, M123), games are deterministic from the seed, every decision has its
timeout default (rules/minis.md §5) and the game ends (M125-M128)."""
from __future__ import annotations

import json
import random

import pytest

from games.engine import get_ruleset
from games.engine.minis import bot

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]


def _play(seed: int, chooser: str = "random", limit: int = 3000):
    rnd = random.Random(seed)
    state = R.new_game(SEATS, {}, seed)
    kinds = set()
    for _ in range(limit):
        if R.is_over(state):
            break
        seat = rnd.choice(sorted(R.pending(state)))
        kinds.add(R.pending(state)[seat])
        if chooser == "random":
            action = R.random_action(state, seat, rnd)
        elif chooser == "default":
            action = R.default_action(state, seat)
        else:
            action = R.bot_action(state, seat) if seat == chooser else R.random_action(state, seat, rnd)
        before = json.dumps(state, sort_keys=True)
        state, _events = R.apply(state, seat, action)
        assert json.dumps(state, sort_keys=True) != before or action.get("pivot") == {}
        bot.check_invariants(state, _events)
    return state, kinds


@pytest.mark.parametrize("seed", range(6))
def test_random_games_keep_the_invariants_and_end(seed):
    state, kinds = _play(seed)
    assert R.is_over(state), "a game ends by round 6 at the latest (M127)"
    assert state["result"] in ("vp", "points", "draw", "elimination")
    assert {"deploy", "activate", "action"} <= kinds
    if state["result"] == "vp":
        w = state["winner"]
        assert state["vp"][w] > state["vp"][[s for s in SEATS if s != w][0]]


def test_a_seed_rebuilds_the_same_game():
    a, _ = _play(3)
    b, _ = _play(3)
    assert a == b


@pytest.mark.parametrize("seed", range(3))
def test_timeout_defaults_alone_play_a_whole_game(seed):
    """Every pending decision has a legal default (deploy on the grid facing the enemy, activate the
    first unit with no action, decline, discard nothing) and the game still ends."""
    state, kinds = _play(seed, chooser="default")
    assert R.is_over(state)
    # nobody moves, nobody fights: Here We Stand quadrants decide (M123, M127)
    assert not any(u["destroyed"] for u in state["units"].values())


def test_the_engines_player_plays_whole_games_legally():
    """bot_action (greedy: charge, attack, spread over the quadrants) only answers legally."""
    for seed in range(2):
        state, _ = _play(100 + seed, chooser=SEATS[seed % 2])
        assert R.is_over(state)


def test_check_resolves_a_move_without_applying_it():
    state = R.scenario_game(SEATS, {}, 1, {
        "hands": {"stark": [], "lannister": []},
        "units": {"swords": {"card": "10201", "at": [24, 10], "facing": 0},
                  "guards": {"card": "10101", "at": [24, 40], "facing": 180}}}, "activation")
    state, _ = R.apply(state, "stark", {"activate": "swords"})
    frozen = json.dumps(state, sort_keys=True)
    ok = R.check(state, "stark", {"maneuver": {"face": 90, "forward": 5, "end_face": 135}})
    assert ok == {"ok": True, "at": [30.7, 5.9], "facing": 135.0}
    too_far = R.check(state, "stark", {"march": {"forward": 10.02}})
    assert too_far["ok"] is False and "10" in too_far["reason"]
    assert R.check(state, "stark", {"march": {"forward": 10.01}})["ok"] is True  # tolerance 0.01 in
    off = R.check(state, "stark", {"maneuver": {"face": 180, "forward": 5.3}})
    assert off == {"ok": False, "error": "illegal_action", "reason": "maneuver: the move leaves the table"}
    assert json.dumps(state, sort_keys=True) == frozen
