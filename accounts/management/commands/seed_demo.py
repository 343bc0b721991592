"""Create the demo account and a demo game (idempotent) and print how to log in."""
from __future__ import annotations

from django.core.management.base import BaseCommand

from accounts.models import User
from games.engine import get_ruleset
from games.models import Game
from games.services.play import do_create_game

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "westeros-demo"  # printed on purpose: a local demo account
DEMO_TIME_LIMIT = 24 * 60 * 60


class Command(BaseCommand):
    help = "Create the demo account and a 3-player AGoT game against two bots, unless they exist."

    def handle(self, *args, **options) -> None:
        user, created = User.objects.get_or_create(username=DEMO_USERNAME, defaults={"email": "demo@westeros.local"})
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        state = "created" if created else "already there"
        self.stdout.write(f"Demo account {state}: username '{DEMO_USERNAME}', password '{DEMO_PASSWORD}'")

        game = Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE).first()
        if game is None:
            seats = get_ruleset("agot").seat_names(3)
            # The demo plays the first house; the engine's default player takes the others.
            seating = {seat: (user if i == 0 else None) for i, seat in enumerate(seats)}
            game = do_create_game(ruleset="agot", seating=seating, time_limit=DEMO_TIME_LIMIT)
            self.stdout.write(f"Demo game {game.pk} created: you play {seats[0]} against two bots")
        else:
            self.stdout.write(f"Demo game {game.pk} already there")
        self.stdout.write(f"  GET /api/v1/games/{game.pk} (log in first, or use a token)")
