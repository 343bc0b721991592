"""AGoT engine benchmark (not a test): `.venv/bin/python benchmarks/agot_engine.py [games] [--tides]`.

Reports the median time of a full random 6-player game (random bots, no invariant checks), the
replay speed in actions per second (re-applying a recorded game's actions from the seed), and the
snapshot size (JSON of the state, largest seen during the games). The games use the default
options: Tides of Battle is off unless `--tides` is given (the output says which)."""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import get_ruleset
from games.engine.agot import bot


def main(games: int = 50, tides: bool = False) -> None:
    r = get_ruleset("agot")
    options = {"tides_of_battle": tides}
    times, logs = [], []
    for seed in range(1, games + 1):
        res = bot.play_random_game(6, seed, check=False, log=True, options=options)
        times.append(res["seconds"])
        logs.append((seed, res["log"]))
    actions = sum(len(log) for _, log in logs)
    t0 = time.perf_counter()
    biggest = 0
    for seed, log in logs:
        state = r.new_game(r.seat_names(6), options, seed)
        for seat, action in log:
            state, _ = r.apply(state, seat, action)
    replay = time.perf_counter() - t0
    for seed, log in logs[:10]:
        state = r.new_game(r.seat_names(6), options, seed)
        for seat, action in log:
            state, _ = r.apply(state, seat, action)
            biggest = max(biggest, len(json.dumps(state, separators=(",", ":"))))
    print(f"agot 6 players, Tides of Battle {'on' if tides else 'off'}, {games} random games, {actions} actions "
          f"({actions / games:.0f} per game)")
    print(f"median full game: {statistics.median(times) * 1000:.1f} ms (max {max(times) * 1000:.1f} ms)")
    print(f"replay: {actions / replay:,.0f} actions/s")
    print(f"largest snapshot: {biggest / 1024:.1f} KB (compact JSON)")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="?", type=int, default=50, help="random games, seeds 1..games (50)")
    parser.add_argument("--tides", action="store_true", help="play with Tides of Battle on")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    main(args.games, tides=args.tides)
