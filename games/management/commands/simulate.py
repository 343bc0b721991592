"""`python manage.py simulate --game agot --players 6 --games 100 --seed 1`: random bots play whole
games, invariants checked after every action; prints games/second and every failure with its seed.
The work is done by the pure function games.engine.agot.bot.simulate."""
from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Play random games with invariant checks and report speed and failures (seed per game)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", default="agot", choices=["agot"])
        parser.add_argument("--players", type=int, default=6)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1, help="first seed; game i uses seed + i")
        parser.add_argument("--no-check", action="store_true", help="skip the invariant checks (speed only)")

    def handle(self, *args: Any, **options: Any) -> None:
        from games.engine.agot import bot

        res = bot.simulate(options["players"], options["games"], options["seed"], check=not options["no_check"])
        ok = res["games"] - len(res["failures"])
        self.stdout.write(
            f"agot: {res['games']} games of {options['players']} players, seeds {options['seed']}.."
            f"{options['seed'] + res['games'] - 1}: {ok} ok, {len(res['failures'])} failed, "
            f"{res['actions']} actions in {res['seconds']:.2f} s = {res['games_per_second']:.1f} games/second"
        )
        wins = ", ".join(f"{h} {n}" for h, n in sorted(res["winners"].items(), key=lambda kv: -kv[1]))
        self.stdout.write(f"winners: {wins}")
        for seed, msg in res["failures"]:
            self.stdout.write(f"FAIL seed {seed}: {msg}")
        self.stdout.flush()
        if res["failures"]:
            sys.exit(1)
