"""What a finished game leaves in the database, and what keeps games_game from bloating (issue 20).

A game is stored as one row (its snapshot, rewritten by every action) and an append-only log of one
row per action (README, "Performance"; benchmarks/db_growth.py measures the bytes). On PostgreSQL
every rewrite leaves a dead row version and dead TOAST chunks until VACUUM; migration 0007 makes
autovacuum take games_game and its TOAST table after a fixed number of dead versions rather than
after 20% of the table, so the dead space stays bounded however many games are stored.
"""
from __future__ import annotations

import pytest
from django.db import connection

from games.engine import get_ruleset
from games.models import Game, GameAction, GameSeat
from games.services.play import do_create_game, do_submit_action
from tests.factories import make_user

ENGINE = get_ruleset("agot")


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="storage parameters (autovacuum, TOAST) exist on PostgreSQL only: SQLite run")
def test_autovacuum_takes_games_by_a_fixed_count_of_dead_versions():
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.reloptions, t.reloptions FROM pg_class c JOIN pg_class t ON t.oid = c.reltoastrelid "
                       "WHERE c.relname = 'games_game'")
        own, toast = cursor.fetchone()
    assert set(own) == {"autovacuum_vacuum_scale_factor=0.0", "autovacuum_vacuum_threshold=500"}
    assert set(toast) == {"autovacuum_vacuum_scale_factor=0.0", "autovacuum_vacuum_threshold=1000"}


@pytest.mark.django_db
def test_a_finished_game_is_one_row_and_one_log_row_per_action():
    seats = ENGINE.seat_names(6)
    users = {seat: make_user() for seat in seats}
    game = do_create_game(ruleset="agot", seating=users, seed=5)
    submitted = 0
    while game.is_active():
        seat = sorted(ENGINE.pending(game.state))[0]
        do_submit_action(game.pk, users[seat], action=ENGINE.bot_action(game.state, seat), version=game.version)
        submitted += 1
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    # the snapshot is rewritten in place: one row, whatever the number of actions
    assert Game.objects.count() == 1 and GameSeat.objects.filter(game=game).count() == 6
    # the log: exactly one row per action, versions 1..N
    versions = list(GameAction.objects.filter(game=game).values_list("version", flat=True))
    assert versions == list(range(1, game.version + 1)) and game.version == submitted
