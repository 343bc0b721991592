"""Rebuild games from their seed and action log and compare with the stored snapshot."""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.services.replay import snapshot_matches_log


class Command(BaseCommand):
    help = "Replay each game's log from its seed and check that it gives the stored state (exit 1 if not)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int)
        parser.add_argument("--all", action="store_true", help="check every game")

    def handle(self, *args, game_ids: list[int], all: bool, **options) -> None:
        games = Game.objects.all() if all else Game.objects.filter(pk__in=game_ids)
        if not all and not game_ids:
            raise CommandError("name game ids or pass --all")
        missing = set(game_ids) - set(games.values_list("pk", flat=True))
        if missing:
            raise CommandError(f"no such game: {', '.join(map(str, sorted(missing)))}")
        bad = 0
        for game in games.order_by("pk"):
            if snapshot_matches_log(game):
                self.stdout.write(f"OK game {game.pk} (version {game.version})")
            else:
                bad += 1
                self.stdout.write(f"MISMATCH game {game.pk}: the log does not rebuild the stored state")
        if bad:
            raise CommandError(f"{bad} game(s) do not match their log")
