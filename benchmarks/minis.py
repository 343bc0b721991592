"""Miniatures game (minis) figures: `python benchmarks/minis.py [games] [player games]`.

- the engine's player (bot_action) against the random one over 200 seeded games, seats alternating
  (issue 18: >= 70%);
- issue 32: the engine's player against the player before it (bot_v1.py, frozen), seats
  alternating, `player games` games (200 by default; goal >= 70% won), with its attacks and charges
  per game; and against itself: attacks and charges per game (goal >= 1 charge a game);
- the median time of a whole random game (target 1 s, invariants not checked) and of a move check
  (`check` of a proposed Maneuver, target 5 ms).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "westeros.settings")

from games.engine import get_ruleset
from games.engine.minis import bot, bot_v1

SEATS = ("stark", "lannister")


def fight(seed: int, players: dict[str, str]) -> tuple[dict, dict[str, dict[str, int]]]:
    """One seeded game between `players` ("bot" or "bot_v1" a seat); the attacks and charges each
    seat made (the events)."""
    R = get_ruleset("minis")
    rnd = random.Random(seed)
    state = R.new_game(list(SEATS), {}, seed)
    made = {s: {"attack": 0, "charge": 0} for s in SEATS}
    while not R.is_over(state):
        seat = rnd.choice(sorted(R.pending(state)))
        player = bot_v1.bot_action if players[seat] == "bot_v1" else R.bot_action
        state, events = R.apply(state, seat, player(state, seat))
        for e in events:
            if e.get("type") in ("attack", "charge"):
                unit = e.get("attacker") or e.get("unit")
                made[state["units"][unit]["seat"]][e["type"]] += 1
    return state, made


def players_figures(games: int) -> None:
    won = drawn = attacks = charges = 0
    for i in range(games):
        seat = SEATS[i % 2]
        state, made = fight(6000 + i, {seat: "bot", SEATS[1 - i % 2]: "bot_v1"})
        won += state["winner"] == seat
        drawn += state["winner"] is None
        attacks += made[seat]["attack"]
        charges += made[seat]["charge"]
    print(f"bot_action against bot_v1 (the player before issue 32): {won}/{games} = {100 * won / games:.1f}% won "
          f"({drawn} drawn); its attacks {attacks / games:.2f} and charges {charges / games:.2f} a game (goal 70%)")
    n = max(1, games // 4)
    attacks = charges = without = 0
    for i in range(n):
        state, made = fight(7000 + i, {s: "bot" for s in SEATS})
        c = sum(m["charge"] for m in made.values())
        attacks += sum(m["attack"] for m in made.values())
        charges += c
        without += c == 0
    print(f"bot_action against itself, {n} games: attacks {attacks / n:.2f}, charges {charges / n:.2f} a game, "
          f"{without} games without a charge (goal >= 1 charge a game)")


def main(games: int = 200, player_games: int = 200) -> None:
    players_figures(player_games)
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


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="?", type=int, default=200,
                        help="games of the engine's player against the random one (200)")
    parser.add_argument("player_games", nargs="?", type=int, default=200, metavar="player games",
                        help="games of the engine's player against bot_v1 (200; a quarter as many against itself)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    main(args.games, args.player_games)
