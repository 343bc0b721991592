"""The last games of a round end at the same moment in different transactions: each result is
recorded once and the next round starts exactly once. The tournament row lock (taken after the
game's, the order settle imposes) is what makes this hold; it needs a real database server."""
from __future__ import annotations

import os
import threading

import pytest
from django.db import connection

from games.models import GameSeat
from games.services.play import do_concede
from tests.factories import make_user
from tournaments import services
from tournaments.models import Round, Table, TableSeat

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="row locks need PostgreSQL (DATABASE_URL)"),
]


def test_tables_ending_together_start_the_next_round_once():
    organizer = make_user()
    t = services.do_create_tournament(organizer, services.TournamentSettings(
        name="Race cup", seats_per_table=3, rounds=2, time_limit=3600, max_no_shows=0))
    for _ in range(12):
        services.do_register(t.pk, make_user())
    services.do_start(t.pk, organizer)
    tables = list(Table.objects.filter(round__number=1, round__tournament=t).order_by("number"))
    assert len(tables) == 4
    # Everyone but the last player of each table leaves first; the last ones leave together.
    last = {}
    for table in tables:
        seats = list(GameSeat.objects.filter(game_id=table.game_id).select_related("user"))
        for seat in seats[:-1]:
            do_concede(table.game_id, seat.user)
        last[table.game_id] = seats[-1].user
    barrier = threading.Barrier(len(last))
    errors: list[BaseException] = []

    def leave(game_id: int) -> None:
        try:
            barrier.wait()
            do_concede(game_id, last[game_id])
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=leave, args=(game_id,)) for game_id in last]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert not Table.objects.filter(round__number=1, round__tournament=t, status=Table.Status.PLAYING).exists()
    assert TableSeat.objects.filter(table__round__number=1, table__round__tournament=t, place__isnull=True).count() == 0
    assert Round.objects.filter(tournament=t).count() == 2
    assert Round.objects.get(tournament=t, number=2).tables.count() == 4
