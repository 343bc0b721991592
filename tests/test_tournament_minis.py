"""Tournaments of two-seat tables for the miniatures game (minis, issue 19): a Swiss event through
the API whose tables are Stark against Lannister with the event's options, rounds advancing as
the games end, byes for an odd field, ratings per ruleset; a table still playing when the event
ends is adjudicated by position, which for this game is victory points (then seat order); the
organize page and the event page speak of the game by name; the simulation plays an event. The
pairing of pairs itself (no rematch, by standing) is tested in test_tournament_lcg.py."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.engine import get_ruleset
from games.models import Game, GameSeat
from ratings.models import RatingChange
from tests.factories import api_client_for, make_user
from tests.platform_helpers import finish_by_deadlines, organize_event, players_of, round_tables, start_event
from tournaments.models import Round, Table, TableSeat, Tournament

pytestmark = pytest.mark.django_db
MINIS = get_ruleset("minis")
NAME = "A Song of Ice and Fire: Tabletop Miniatures"


def test_a_swiss_event_of_minis_tables_runs_through_the_api_and_ends_by_victory_points():
    organizer = make_user()
    org = api_client_for(organizer)
    tid = start_event(org, "minis", 3, name="Battle of the Green Fork", rounds=2, time_limit=600, ranked=True,
                      max_consecutive_timeouts=0, max_no_shows=0, options={"terrain": "random"})

    (first,) = round_tables(tid, 1)
    rounds = org.get(f"/api/v1/tournaments/{tid}/rounds").json()
    assert len(rounds[0]["byes"]) == 1
    game = first.game
    assert game.ruleset == "minis" and game.ranked and game.time_limit == 600
    assert game.options == {"terrain": "random"} and game.state["terrain"]
    assert game.state["options"]["reaction_prompts"] == "all"  # the live default
    assert sorted(s.seat for s in first.seats.all()) == ["lannister", "stark"]
    assert {(s.seat, s.user) for s in GameSeat.objects.filter(game=game)} == \
           {(s.seat, s.registration.user) for s in first.seats.all()}

    # Round 1's game ends by its deadlines; round 2 starts on its own.
    finish_by_deadlines(game)
    t = Tournament.objects.get(pk=tid)
    assert t.current_round == 2 and Round.objects.get(tournament=t, number=1).status == Round.Status.FINISHED
    (first,) = round_tables(tid, 1)
    winner = first.game.ranking[0]
    loser = next(s for s in ("stark", "lannister") if s != winner)
    assert {s.seat: s.points for s in first.seats.all()} == {winner: 1.0, loser: 0.0}
    assert RatingChange.objects.filter(game=first.game, ruleset="minis").count() == 2

    (second,) = round_tables(tid, 2)
    rounds = org.get(f"/api/v1/tournaments/{tid}/rounds").json()
    assert rounds[1]["byes"] != rounds[0]["byes"] and players_of(second) != players_of(first)  # no rematch

    # The organizer ends the event while round 2 is playing: Lannister leads on victory points,
    # so Lannister wins the table, though Stark comes first in seat order.
    game = second.game
    game.state["vp"] = {"stark": 2, "lannister": 5}
    game.save(update_fields=["state"])
    assert MINIS.summary(game.state)["vp"] == {"stark": 2, "lannister": 5}
    assert list(GameSeat.objects.filter(game=game).order_by("position").values_list("seat", flat=True))[0] == "stark"
    assert org.post(f"/api/v1/tournaments/{tid}/end").json()["status"] == "finished"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.ranking == ["lannister", "stark"]
    assert {s.seat: (s.place, s.points) for s in TableSeat.objects.filter(table=second)} == \
           {"lannister": (1, 1.0), "stark": (2, 0.0)}
    final = org.get(f"/api/v1/tournaments/{tid}/standings").json()
    assert len(final) == 3 and sum(row["byes"] for row in final) == 2
    assert sum(row["points"] for row in final) == 2 + 2  # two games won, two byes


def test_the_organize_page_offers_the_miniatures_game_and_the_event_page_shows_its_tables(client):
    t, page = organize_event(client, "minis", NAME, "Whispering Wood", rounds=2, players=2)
    (table,) = round_tables(t.pk, 1)
    assert NAME in page and f'href="/games/{table.game_id}/"' in page
    assert "<td>Stark</td>" in page and "<td>Lannister</td>" in page
    assert "Castles" not in page and "Supply" not in page  # the board game's measures only


def test_simulate_tournament_runs_a_minis_event():
    out = StringIO()
    call_command("simulate_tournament", "--ruleset", "minis", "--players", "2", "--rounds", "1", "--seed", "5",
                 stdout=out)
    t = Tournament.objects.get(ruleset="minis")
    assert t.status == Tournament.Status.FINISHED and t.seats_per_table == 2
    (table,) = Table.objects.filter(round__tournament=t).select_related("game")
    assert table.game.ruleset == "minis" and table.game.status == "finished" and table.game.state["over"]
    assert sorted(table.game.ranking) == ["lannister", "stark"]
    assert f"Tournament #{t.pk}" in out.getvalue() and "finished, 1 rounds, 1 games" in out.getvalue()
