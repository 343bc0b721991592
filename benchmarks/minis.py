"""Miniatures game (minis) figures: `python benchmarks/minis.py [games]`.

- the engine's player (bot_action) against the random one over 200 seeded games, seats alternating
  (issue 18: >= 70%);
- the median time of a whole random game (target 1 s, invariants not checked) and of a move check
  (`check` of a proposed Maneuver, target 5 ms).
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
from games.engine.minis import bot

SEATS = ("stark", "lannister")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    R = get_ruleset("minis")
    wins = draws = 0
    for i in range(games):
        seat = SEATS[i % 2]
        res = bot.play_game(5000 + i, {seat: "bot"}, check=False)
        wins += res["state"]["winner"] == seat
        draws += res["state"]["winner"] is None
    print(f"bot_action against the random player: {wins}/{games} = {100 * wins / games:.1f}% won ({draws} drawn)")
    times = []
    for i in range(30):
        t0 = time.perf_counter()
        bot.play_game(700 + i, {}, check=False)
        times.append(time.perf_counter() - t0)
    print(f"random game: median {statistics.median(times):.3f} s over 30 games (target 1 s)")
    checks = []
    for i in range(5):
        rnd = random.Random(i)
        state = R.new_game(list(SEATS), {}, 900 + i)
        while not R.is_over(state) and len(checks) < 200 * (i + 1):
            seat = rnd.choice(sorted(R.pending(state)))
            d = state["decision"]
            if d["kind"] == "action" and not state["act"]["ncu"]:
                mv = {"maneuver": {"face": round(rnd.uniform(0, 360), 2), "forward": round(rnd.uniform(0, 6), 2),
                                   "end_face": round(rnd.uniform(0, 360), 2)}}
                t0 = time.perf_counter()
                R.check(state, seat, mv)
                checks.append(time.perf_counter() - t0)
            state, _ = R.apply(state, seat, R.random_action(state, seat, rnd))
    print(f"move check: median {1000 * statistics.median(checks):.2f} ms over {len(checks)} checks (target 5 ms)")


if __name__ == "__main__":
    main()
