"""Card game (lcg): the same results before and after an engine change made for speed.

    python benchmarks/lcg_replay_check.py record 24 /tmp/lcg_before.json   # with the old code
    python benchmarks/lcg_replay_check.py verify /tmp/lcg_before.json      # with the new code

`record` plays N seeded games (random pairs of every deck the engine plays, with and without the
players' action windows, open deck lists and `every_window`; the engine's player in some seats, the
random player elsewhere) and keeps each game's actions and, after every action, a digest of the new
state, its events, who was pending and the acting seat's legal actions (JSON, keys sorted). `verify`
replays the same actions from the same seeds and compares every digest: exit status 1 and the first
differing action of each game when anything differs.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "westeros.settings")

from games.engine import get_ruleset
from games.engine.lcg import bot, data, prompts

R = get_ruleset("lcg")


def digest(value) -> str:
    return hashlib.sha1(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def game_setup(i: int) -> tuple[dict, int]:
    decks = list(data.deck_ids())
    rnd = random.Random(1000 + i)
    opts: dict = {"decks": [rnd.choice(decks), rnd.choice(decks)]}
    if i % 3 == 1:
        opts["action_windows"] = {s: list(prompts.DEFAULT_ACTION_WINDOWS) for s in ("p1", "p2")}
    if i % 4 == 2:
        opts["open_decklists"] = True
    if i % 5 == 3:
        opts["every_window"] = False
    return opts, 4242 + i


def record(n: int, path: str) -> None:
    games = []
    for i in range(n):
        opts, seed = game_setup(i)
        state = R.new_game(["p1", "p2"], opts, seed)
        rnd = random.Random(i)
        smart = {"p1": i % 6 == 0, "p2": i % 7 == 0}
        log, digests = [], [digest(state)]
        while not state["over"]:
            pending = R.pending(state)
            seat = sorted(pending)[0]
            legal = R.legal_actions(state, seat)
            act = bot.smart_action(state, seat) if smart[seat] else R.random_action(state, seat, rnd)
            state, events = R.apply(state, seat, act)
            log.append([seat, act])
            digests.append(digest([state, events, pending, legal]))
        games.append({"options": opts, "seed": seed, "log": log, "digests": digests})
        print(f"game {i}: {' v '.join(opts['decks'])}, {len(log)} actions", flush=True)
    with open(path, "w") as f:
        json.dump(games, f)


def verify(path: str) -> int:
    with open(path) as f:
        games = json.load(f)
    differ = actions = 0
    for g in games:
        state = R.new_game(["p1", "p2"], g["options"], g["seed"])
        if digest(state) != g["digests"][0]:
            print(f"seed {g['seed']}: the new game differs")
            differ += 1
            continue
        for k, (seat, act) in enumerate(g["log"]):
            pending = R.pending(state)
            legal = R.legal_actions(state, seat)
            state, events = R.apply(state, seat, act)
            actions += 1
            if digest([state, events, pending, legal]) != g["digests"][k + 1]:
                print(f"seed {g['seed']}: action {k} differs")
                differ += 1
                break
    print(f"{len(games)} games, {actions} actions replayed, {differ} games differ")
    return differ


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, metavar="{record,verify}")
    rec = commands.add_parser("record", help="play N games and write their actions and digests to PATH")
    rec.add_argument("n", type=int, metavar="N", help="games to play")
    rec.add_argument("path", metavar="PATH", help="the JSON file to write")
    ver = commands.add_parser("verify", help="replay PATH's games; exit status 1 when anything differs")
    ver.add_argument("path", metavar="PATH", help="the JSON file `record` wrote")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    if args.command == "record":
        record(args.n, args.path)
    else:
        sys.exit(1 if verify(args.path) else 0)
