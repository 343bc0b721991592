"""Card game (lcg) figures: `python benchmarks/lcg.py`.

- the engine's player (bot_action) against the random one over 200 seeded games (issue 16: >= 70%);
- the median time of a whole random game (target 0.3 s) and replay speed (target 5,000 actions/s).
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "westeros.settings")

from games.engine import get_ruleset
from games.engine.lcg import bot

DECKS = ("the_old_ways", "secrets_and_schemes")


def main() -> None:
    R = get_ruleset("lcg")
    wins = 0
    for i in range(200):
        smart = "p1" if i % 2 == 0 else "p2"
        players = {"p1": "random", "p2": "random", smart: "smart"}
        res = bot.play_game(5000 + i, DECKS if i % 4 < 2 else DECKS[::-1], players, check=False)
        wins += res["state"]["winner"] == smart
    print(f"bot_action against the random player: {wins}/200 = {wins / 2:.1f}% won")
    times, logs = [], []
    for i in range(30):
        state = R.new_game(["p1", "p2"], {"decks": list(DECKS)}, 700 + i)
        rnd = random.Random(i)
        log = []
        t0 = time.perf_counter()
        while not state["over"]:
            seat = sorted(R.pending(state))[0]
            act = R.random_action(state, seat, rnd)
            log.append((seat, act))
            state, _ = R.apply(state, seat, act)
        times.append(time.perf_counter() - t0)
        logs.append((700 + i, log))
    print(f"a random game (every_window on): median {statistics.median(times):.3f} s")
    n, t0 = 0, time.perf_counter()
    for seed, log in logs[:10]:
        state = R.new_game(["p1", "p2"], {"decks": list(DECKS)}, seed)
        for seat, act in log:
            state, _ = R.apply(state, seat, act)
            n += 1
    print(f"replay: {n / (time.perf_counter() - t0):.0f} actions/second")


if __name__ == "__main__":
    main()
