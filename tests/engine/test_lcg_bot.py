"""The engine's own player (bot_action = bot.smart_action) against the random player: it must win
at least 70% of seeded games (issue 16); 40 here, 200 in benchmarks/lcg.py. Invariants are checked
after every action (L219, L229, L162)."""
from __future__ import annotations

from games.engine import get_ruleset
from games.engine.lcg import bot

R = get_ruleset("lcg")
DECKS = ("the_old_ways", "secrets_and_schemes")


def test_bot_action_beats_the_random_player_in_70_percent_of_40_games():
    wins = 0
    for i in range(40):
        smart = "p1" if i % 2 == 0 else "p2"
        players = {"p1": "random", "p2": "random", smart: "smart"}
        decks = DECKS if i % 4 < 2 else DECKS[::-1]
        res = bot.play_game(3000 + i, decks, players, check=True, every_window=bool(i % 3 == 0))
        wins += res["state"]["winner"] == smart
    assert wins >= 28, wins


def test_bot_action_is_always_legal_when_the_engine_lists_the_options():
    state = R.new_game(["p1", "p2"], {}, 11)
    steps = 0
    while not R.is_over(state) and steps < 600:
        seat = sorted(R.pending(state))[0]
        act = R.bot_action(state, seat)
        legal = R.legal_actions(state, seat)
        if legal is not None and state["decision"]["kind"] not in ("challenge", "defenders", "setup"):
            assert act in legal, (act, legal)
        state, _ = R.apply(state, seat, act)
        steps += 1
