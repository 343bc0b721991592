"""Create the demo account (idempotent) and print how to log in."""
from __future__ import annotations

from django.core.management.base import BaseCommand

from accounts.models import User

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "westeros-demo"


class Command(BaseCommand):
    help = "Create the demo account if it does not exist and print its credentials."

    def handle(self, *args, **options) -> None:
        user, created = User.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"email": "demo@westeros.local"}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        state = "created" if created else "already there"
        self.stdout.write(f"Demo account {state}: username '{DEMO_USERNAME}', password '{DEMO_PASSWORD}'")
