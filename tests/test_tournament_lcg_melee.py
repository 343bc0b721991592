"""Tournaments of card-game melee tables (issue 31): an event of the card game with 3 to 6 seats a table is
paired into tables as A Game of Thrones' are (tournaments/services.py), each table a melee with titles; a
table played to its end places its players by the engine's ranking (the winner, then by power), and the
event goes on to its next round; an ended event adjudicates an unfinished melee table by power."""
from __future__ import annotations

import pytest

from games.engine import get_ruleset
from games.models import Game
from tests.factories import api_client_for, make_user
from tests.platform_helpers import round_tables
from tournaments.models import TableSeat, Tournament

LCG = get_ruleset("lcg")
pytestmark = pytest.mark.django_db


def melee_event(players: int, seats: int, **fields) -> tuple[int, object]:
    org = api_client_for(make_user())
    response = org.post("/api/v1/tournaments", {"name": "Melee cup", "ruleset": "lcg", "format": "swiss",
                                                "seats_per_table": seats, "time_limit": 600, **fields}, format="json")
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    for user in [make_user() for _ in range(players)]:
        assert api_client_for(user).post(f"/api/v1/tournaments/{tid}/register").status_code == 201
    assert org.post(f"/api/v1/tournaments/{tid}/start").json()["status"] == "running"
    return tid, org


def play_to_the_end(game: Game) -> None:
    """Every seat's decision as the engine's player takes it, sent through the API, until the game ends."""
    users = {s.seat: s.user for s in game.seats.all()}
    for _ in range(5000):
        game.refresh_from_db()
        if not game.is_active():
            return
        seat = sorted(LCG.pending(game.state))[0]
        r = api_client_for(users[seat]).post(f"/api/v1/games/{game.pk}/actions", {
            "version": game.version, "action": LCG.bot_action(game.state, seat)}, format="json")
        assert r.status_code == 200, r.json()
    raise AssertionError("the melee did not end")


@pytest.mark.slow_once  # whole games: long; the shorter tests here cover their database paths on both CI passes
def test_an_event_of_four_seat_melee_tables_is_paired_played_and_placed_by_power():
    tid, org = melee_event(8, 4, rounds=2)
    first = round_tables(tid, 1)
    assert len(first) == 2
    for table in first:
        game = table.game
        assert sorted(game.seat_names()) == ["p1", "p2", "p3", "p4"] and "melee" in game.state
        assert game.state["melee"]["titles"] == {}  # chosen at each round's step 1.4
    play_to_the_end(first[0].game)
    table = first[0]
    table.refresh_from_db()
    game = Game.objects.get(pk=table.game_id)
    assert game.status == Game.Status.FINISHED
    places = {s.seat: s.place for s in TableSeat.objects.filter(table=table)}
    assert places[game.ranking[0]] == 1 and sorted(places) == ["p1", "p2", "p3", "p4"]
    # the organizer ends the event: the other table, unfinished, is placed by power
    other = first[1].game
    other.state["players"]["p3"]["faction_power"] = 9
    other.save(update_fields=["state"])
    assert org.post(f"/api/v1/tournaments/{tid}/end").json()["status"] == "finished"
    other.refresh_from_db()
    assert other.ranking[0] == "p3"
    assert TableSeat.objects.get(table=first[1], seat="p3").place == 1
    assert Tournament.objects.get(pk=tid).status == Tournament.Status.FINISHED


def test_an_event_of_the_card_game_refuses_seven_seats_a_table():
    org = api_client_for(make_user())
    response = org.post("/api/v1/tournaments", {"name": "Too big", "ruleset": "lcg", "seats_per_table": 7,
                                                "time_limit": 600}, format="json")
    assert response.status_code == 400 and "seats_per_table" in response.json()["fields"]
