"""Verify a finished game's published replay (GET /api/v1/games/<id>/fairness saved to a file): the seed
matches its commitment, the actions replay from it, and the replay ends at the published
`final_version` with the published `final_state_sha256`. Exits 1 with "NOT VERIFIED: <reason>" on
stderr otherwise (a truncated, reordered or altered action list)."""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.replay import verify_published


class Command(BaseCommand):
    help = ("Check that a published seed matches its commitment and that the actions replay from it to the "
            "published final version and final state hash.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="a JSON file with the fairness payload of a finished game")

    def handle(self, *args, path: str, **options) -> None:
        try:
            with open(path) as handle:
                replay = json.load(handle)
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read {path}: {error}") from None
        verdict = verify_published(replay)
        if not verdict.ok:
            raise CommandError(f"NOT VERIFIED: {verdict.message}")
        self.stdout.write(f"VERIFIED: {verdict.message}")
