"""Six players submit their orders at the same moment on many games at once: every submission is
applied exactly once, in some order, with contiguous versions, and the log rebuilds each game.
The game row lock (select_for_update) is what makes this hold; it needs a real database server."""
from __future__ import annotations

import os
import threading

import pytest
from django.db import connection

from games.engine import get_ruleset
from games.models import Game, GameAction
from games.services.play import do_submit_action
from games.services.replay import snapshot_matches_log
from tests.factories import make_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="row locks need PostgreSQL (DATABASE_URL)"),
]
AGOT = get_ruleset("agot")
GAMES = 12


def test_six_threads_on_many_games_lose_and_double_nothing():
    games = [make_game(6, seed=100 + n) for n in range(GAMES)]
    seats = games[0].seat_names()
    # Each thread plays one house in every game, submitting against version 0 as a client would
    # that fetched the game when it started; each also retries once with the same Idempotency-Key.
    plan = {seat: [(g.id, g.seats.get(seat=seat).user, AGOT.default_action(g.state, seat)) for g in games]
            for seat in seats}
    barrier = threading.Barrier(len(seats))
    errors: list[BaseException] = []

    def play(seat: str) -> None:
        try:
            barrier.wait()
            for game_id, user, action in plan[seat]:
                for _attempt in range(2):
                    do_submit_action(game_id, user, action=action, version=0, idempotency_key=f"{seat}-{game_id}")
        except BaseException as error:  # reported below; a thread must not die silently
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=play, args=(seat,)) for seat in seats]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors

    for game in Game.objects.filter(pk__in=[g.id for g in games]):
        players = GameAction.objects.filter(game=game, source="player")
        assert sorted(players.values_list("seat", flat=True)) == sorted(seats)
        versions = list(GameAction.objects.filter(game=game).order_by("version").values_list("version", flat=True))
        assert versions == list(range(1, game.version + 1))
        assert "place_orders" not in AGOT.pending(game.state).values()
        assert snapshot_matches_log(game)
