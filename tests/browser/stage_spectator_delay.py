"""A fogged board game with the spectators' delay (issue 34, games/spectators.py), played at random through
the site's services by its three players to round `until`, for tests/browser/test_agot_spectator_delay_in_browser.py."""
from __future__ import annotations

import random

from games.engine import get_ruleset
from games.models import Game


def delayed_game(names: list[str], password: str, delay: int = 1, until: int = 3, seed: int = 3) -> None:
    from accounts.models import User
    from games.services.play import do_create_game, do_submit_action

    users = [User.objects.create_user(username=n, email=f"{n}@example.com", password=password) for n in names]
    engine = get_ruleset("agot")
    seats = engine.seat_names(3)
    game = do_create_game(ruleset="agot", seating=dict(zip(seats, users, strict=True)),
                          options={"fog_of_war": True, "spectator_delay": delay})
    rng = random.Random(seed)
    while game.is_active() and game.state["round"] < until:
        seat = rng.choice(sorted(engine.pending(game.state)))
        user = game.seats.get(seat=seat).user
        do_submit_action(game.pk, user, action=engine.random_action(game.state, seat, rng), version=game.version)
        game = Game.objects.get(pk=game.pk)
    print(f"game {game.pk} round {game.state['round']}")
