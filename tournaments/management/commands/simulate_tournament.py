"""Simulate a whole tournament played by bots and print the final standings:

    python manage.py simulate_tournament --players 24 --format swiss --rounds 3 --seed 1
    python manage.py simulate_tournament --ruleset lcg --players 9 --rounds 4   # tables of two
    python manage.py simulate_tournament --ruleset minis --teams --players 8 --rounds 2   # two against two
"""
from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import GameError
from games.rulesets import refusal, tournament_seats
from tournaments import services
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Simulate a tournament with bot players, from registration to the final standings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=24)
        parser.add_argument("--format", choices=Tournament.Format.values, default=Tournament.Format.SWISS)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--seats", type=int, default=None,
                            help="seats per table (default: the most the ruleset seats, 6 for agot, 2 for lcg)")
        parser.add_argument("--ruleset", default="agot")
        parser.add_argument("--scoring", choices=Tournament.Scoring.values, default=Tournament.Scoring.PLACEMENT)
        parser.add_argument("--teams", action="store_true",
                            help="the miniatures game: two against two (four seats a table, teams drawn at the start)")
        parser.add_argument("--tiebreakers", default="wins,castles",
                            help="comma-separated, from: " + ", ".join(services.P.TIEBREAKERS))

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        if why := refusal(options["ruleset"]):
            raise CommandError(why)
        # the full table by default; the card game's is its joust (a melee: --seats 3 to 6)
        low, high = tournament_seats(options["ruleset"])
        seats = options["seats"] or (low if options["ruleset"] == "lcg" else high)
        extra = {}
        if options["teams"]:  # M130: two against two
            seats, extra = 4, {"multiplayer": "teams"}
        try:
            result = services.simulate(
                options["players"], fmt=options["format"], rounds=options["rounds"], seed=options["seed"],
                seats_per_table=seats, ruleset=options["ruleset"], scoring=options["scoring"],
                tiebreakers=[x for x in options["tiebreakers"].split(",") if x], options=extra,
            )
        except GameError as error:  # settings the event refuses: say which, as the API would
            fields = "; ".join(f"{name}: {' '.join(messages)}" for name, messages in (error.fields or {}).items())
            raise CommandError(fields or error.detail) from None
        t = result.tournament
        rounds = t.round_set.count()
        tables = sum(r.tables.count() for r in t.round_set.all())
        self.stdout.write(f"Tournament #{t.pk} {t.name}: {t.status}, {rounds} rounds, {tables} games "
                          f"({time.monotonic() - started:.1f} s)")
        self.stdout.write(f"{'rank':>4} {'div':>3}  {'player':<16} {'points':>7} {'games':>5} {'wins':>4} "
                          f"{'castles':>7} {'supply':>6} {'byes':>4}")
        for s in result.standings:
            line = s.line
            self.stdout.write(f"{s.rank:>4} {s.division or '':>3}  {s.registration.user.username:<16} "
                              f"{line.points:>7g} {line.games:>5} {line.wins:>4} {line.castles:>7} "
                              f"{line.supply:>6} {line.byes:>4}")
