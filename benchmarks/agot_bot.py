"""AGoT engine's player benchmark (not a test): `.venv/bin/python benchmarks/agot_bot.py [games]`.

Plays 6-player games (seeds 1..games, no Tides of Battle) and reports:
1. smart vs smart (all six seats the smart bot): battles per game (combats between two houses,
   a lone garrison included; neutral forces do not exist with six players), games with a battle in
   rounds 1-2, and the round of the first battle;
2. one smart seat against 5 random seats: the smart seat's win rate (the seat rotates with the
   seed through the six houses, so every house is played equally often);
3. 3 smart seats against 3 random seats: how often one of the smart seats wins (seats alternate
   with the seed: stark, greyjoy, baratheon or lannister, tyrell, martell);
4. the new smart bot against the frozen pre-issue-15 version (smart_bot_v1.py): one new seat
   against 5 v1 seats (rotating), then 3 against 3 as in 3.
The random bot uses random.Random(seed); the smart bots are deterministic. The seat that acts when
several are pending is the alphabetically first. A failed game (an exception) is counted and listed,
never hidden. Win rates are "games won / games finished".
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import get_ruleset
from games.engine.agot import smart_bot, smart_bot_v1

Policy = Callable[[dict[str, Any], str], dict[str, Any]] | None  # None: the random bot


def play(seed: int, policies: dict[str, Policy], players: int = 6, max_actions: int = 20_000) -> dict[str, Any]:
    """One game; returns {winner, battles, first_battle_round, rounds, actions}."""
    rs = get_ruleset("agot")
    rnd = random.Random(seed)
    state = rs.new_game(rs.seat_names(players), {}, seed)
    battles, attacker_won, first, n = 0, 0, None, 0
    attacker = None
    early_defenders: set[str] = set()
    while not rs.is_over(state):
        seat = sorted(rs.pending(state))[0]
        policy = policies.get(seat)
        act = policy(state, seat) if policy is not None else rs.random_action(state, seat, rnd)
        state, events = rs.apply(state, seat, act)
        for e in events:
            if e["type"] == "combat_started" and e.get("defender"):
                battles += 1
                first = first or state["round"]
                attacker = e["attacker"]
                if state["round"] <= 2:
                    early_defenders.add(e["defender"])
            elif e["type"] == "combat_won" and attacker is not None:
                attacker_won += e["winner"] == attacker
                attacker = None
        n += 1
        if n > max_actions:
            raise RuntimeError("game too long")
    return {"winner": state["winner"], "battles": battles, "attacker_won": attacker_won, "first_battle_round": first,
            "early_defenders": early_defenders,
            "rounds": state["round"], "actions": n}


def series(name: str, games: int, seats_for: Callable[[int, list[str]], dict[str, Policy]],
           counted: Callable[[int, list[str]], set[str]] | None, players: int = 6,
           watch: str | None = None) -> dict[str, Any]:
    """Play seeds 1..games; `counted`: the seats whose wins make the win rate (None: print the
    winners by house instead, for games of one kind of player); `watch`: a house whose defences in
    rounds 1-2 are counted (the demo's newcomer)."""
    rs = get_ruleset("agot")
    houses = rs.seat_names(players)
    wins, done, battles, early, attacker_won, failures = 0, 0, 0, 0, 0, []
    winners: dict[str, int] = {}
    watched = 0
    firsts: list[int] = []
    t0 = time.perf_counter()
    for seed in range(1, games + 1):
        try:
            res = play(seed, seats_for(seed, houses), players)
        except Exception as e:  # reported, never hidden
            failures.append((seed, f"{type(e).__name__}: {e}"))
            continue
        done += 1
        wins += counted is not None and res["winner"] in counted(seed, houses)
        winners[res["winner"]] = winners.get(res["winner"], 0) + 1
        battles += res["battles"]
        attacker_won += res["attacker_won"]
        watched += watch in res["early_defenders"]
        if res["first_battle_round"]:
            firsts.append(res["first_battle_round"])
            early += res["first_battle_round"] <= 2
    dt = time.perf_counter() - t0
    rate = wins / done if done else 0.0
    result = (f"wins {wins}/{done} = {rate:.0%}" if counted is not None else
              "winners " + ", ".join(f"{h} {n}" for h, n in sorted(winners.items(), key=lambda x: (-x[1], x[0]))))
    print(f"{name}: {done} games (seeds 1-{games}), {result}; "
          f"battles {battles} ({battles / max(done, 1):.1f} per game, attacker won {attacker_won}), "
          f"games with a battle in rounds 1-2: {early}/{done}, "
          f"first battle median round {sorted(firsts)[len(firsts) // 2] if firsts else '-'}; {dt:.1f} s")
    if watch:
        print(f"  {watch} (the random seat) was attacked in rounds 1-2 in {watched}/{done} games")
    for seed, err in failures:
        print(f"  FAILED seed {seed}: {err}")
    return {"wins": wins, "games": done, "battles": battles, "early": early, "failures": failures}


def main(games: int = 30) -> None:
    new, old = smart_bot.smart_action, smart_bot_v1.smart_action

    def one(seed: int, houses: list[str]) -> str:
        return houses[seed % 6]

    def three(seed: int, houses: list[str]) -> set[str]:
        return set(houses[seed % 2::2])

    series("6 smart (new)", games, lambda s, h: dict.fromkeys(h, new), None)
    series("6 smart_v1 (old)", games, lambda s, h: dict.fromkeys(h, old), None)
    series("1 smart vs 5 random", games, lambda s, h: {one(s, h): new}, lambda s, h: {one(s, h)})
    series("3 smart vs 3 random", games, lambda s, h: dict.fromkeys(three(s, h), new), three)
    series("1 smart_v1 vs 5 random", games, lambda s, h: {one(s, h): old}, lambda s, h: {one(s, h)})
    series("1 new vs 5 smart_v1", games, lambda s, h: {x: (new if x == one(s, h) else old) for x in h},
           lambda s, h: {one(s, h)})
    series("3 new vs 3 smart_v1", games, lambda s, h: {x: (new if x in three(s, h) else old) for x in h}, three)
    # the demo's table: a newcomer (here the random bot) as Stark against smart bots
    series("3 players: random stark vs 2 smart", games, lambda s, h: {x: new for x in h if x != "stark"},
           lambda s, h: {"stark"}, players=3, watch="stark")
    series("6 players: random stark vs 5 smart", games, lambda s, h: {x: new for x in h if x != "stark"},
           lambda s, h: {"stark"}, watch="stark")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="?", type=int, default=30, help="games a series, seeds 1..games (30)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    main(parse_args().games)
