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
# Six players, the newcomer as Baratheon: between Lannister and the Reach, Baratheon is attacked in
# the first two rounds in most games (docs/agot-bot.md measures it), so the demo teaches defending
# too; as Stark, in the quiet north, it almost never is.
DEMO_PLAYERS = 6
DEMO_SEAT = "baratheon"


class Command(BaseCommand):
    help = "Create the demo account and a 6-player AGoT game (Baratheon) against five bots, unless they exist."

    def handle(self, *args, **options) -> None:
        user, created = User.objects.get_or_create(username=DEMO_USERNAME, defaults={"email": "demo@westeros.local"})
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        state = "created" if created else "already there"
        self.stdout.write(f"Demo account {state}: username '{DEMO_USERNAME}', password '{DEMO_PASSWORD}'")

        game = Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE).first()
        if game is None:
            # The engine's player (the smart bot) takes every other seat.
            seating = {seat: (user if seat == DEMO_SEAT else None) for seat in get_ruleset("agot").seat_names(DEMO_PLAYERS)}
            game = do_create_game(ruleset="agot", seating=seating, time_limit=DEMO_TIME_LIMIT)
            self.stdout.write(f"Demo game {game.pk} created: you play {DEMO_SEAT.title()} against five bots")
        else:
            self.stdout.write(f"Demo game {game.pk} already there")
        self.stdout.write(f"  GET /api/v1/games/{game.pk} (log in first, or use a token)")
