"""Rebuild every rating from the game history and say whether the numbers changed."""
from __future__ import annotations

from django.core.management.base import BaseCommand

from ratings.services import recompute_all


class Command(BaseCommand):
    help = "Recompute all Elo ratings from the ranked games, in the order they finished."

    def handle(self, *args, **options) -> None:
        result = recompute_all()
        self.stdout.write(f"Recomputed {result.ratings} ratings from {result.games} ranked games.")
        if result.changed:
            self.stdout.write(self.style.WARNING(f"{len(result.differences)} ratings changed:"))
            for line in result.differences:
                self.stdout.write(f"  {line}")
        else:
            self.stdout.write(self.style.SUCCESS("No rating changed: the stored numbers match the history."))
