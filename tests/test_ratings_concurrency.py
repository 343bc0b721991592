"""record_finished_game under concurrency (issue 7, "Ratings"): the game row and the players' Rating
rows are locked in one transaction, so a game recorded by several workers at once counts once, and
games sharing players that finish at the same moment lose no update. Needs PostgreSQL row locks."""
from __future__ import annotations

import os
import threading
from collections.abc import Callable

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game
from ratings import services
from ratings.models import Rating, RatingChange
from tests.factories import make_game, make_user

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="row locks need PostgreSQL (DATABASE_URL)"),
]


def finished(users, seed: int) -> Game:
    game = make_game(len(users), users=users, ranked=True, seed=seed)
    game.status, game.ranking, game.finished_at = Game.Status.FINISHED, game.seat_names(), timezone.now()
    game.save()
    return game


def run_together(jobs: list[Callable[[], None]]) -> None:
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job) -> None:
        try:
            barrier.wait()
            job()
        except BaseException as error:  # reported below; a thread must not die silently
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors


def test_one_game_recorded_by_four_workers_at_once_counts_once():
    users = [make_user() for _ in range(3)]
    game = finished(users, seed=1)
    run_together([lambda: services.record_finished_game(Game.objects.get(pk=game.pk)) for _ in range(4)])
    assert RatingChange.objects.filter(game=game).count() == 3
    assert sorted(Rating.objects.values_list("rating", "games")) == [(1468.0, 1), (1500.0, 1), (1532.0, 1)]


def test_games_sharing_players_finishing_together_lose_no_update():
    """Eight games over five players recorded at the same moment: every player's games count is
    right and each history entry starts where the previous one ended (no lost update)."""
    users = [make_user() for _ in range(5)]
    games = [finished([users[(n + i) % 5] for i in range(3)], seed=n) for n in range(8)]
    run_together([lambda g=g: services.record_finished_game(g) for g in games])
    for user in users:
        changes = list(RatingChange.objects.filter(user=user).order_by("id"))
        assert Rating.objects.get(user=user).games == len(changes) > 0
        assert changes[0].before == 1500.0
        for earlier, later in zip(changes, changes[1:], strict=False):
            assert later.before == earlier.after
        assert Rating.objects.get(user=user).rating == changes[-1].after
