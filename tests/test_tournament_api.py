"""The tournament REST API, the pages and the websocket."""
from __future__ import annotations

import uuid

import pytest
import yaml
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from games.models import GameSeat
from tests.factories import api_client_for, make_user
from tournaments import services
from tournaments.models import Registration, Table, Tournament
from tournaments.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db

CREATE = {"name": "Winter cup", "format": "swiss", "rounds": 2, "seats_per_table": 3, "time_limit": 3600,
          "tiebreakers": ["wins", "castles", "head_to_head"], "scoring": "league", "win_bonus": 5}


def create(client, **overrides):
    return client.post("/api/v1/tournaments", {**CREATE, **overrides}, format="json")


def test_create_register_start_and_follow_an_event_through_the_api():
    organizer = make_user()
    org = api_client_for(organizer)
    response = create(org)
    assert response.status_code == 201, response.json()
    body = response.json()
    tid = body["id"]
    assert body["organizer"] == organizer.username and body["status"] == "registration"
    assert body["tiebreakers"] == ["wins", "castles", "head_to_head"] and body["lock_votes"] is True
    players = [make_user() for _ in range(6)]
    for p in players:
        response = api_client_for(p).post(f"/api/v1/tournaments/{tid}/register")
        assert response.status_code == 201 and response.json()["status"] == "registered"
    assert api_client_for(players[0]).post(f"/api/v1/tournaments/{tid}/register").json()["error"] == "already_registered"
    # Not the organizer: 403 in the one error format.
    response = api_client_for(players[0]).post(f"/api/v1/tournaments/{tid}/start")
    assert response.status_code == 403 and set(response.json()) >= {"error", "detail"}
    response = org.post(f"/api/v1/tournaments/{tid}/start")
    assert response.status_code == 200 and response.json()["status"] == "running"
    assert response.json()["current_round"] == 1
    rounds = org.get(f"/api/v1/tournaments/{tid}/rounds").json()
    assert len(rounds) == 1 and len(rounds[0]["tables"]) == 2
    table = rounds[0]["tables"][0]
    assert len(table["seats"]) == 3 and table["game"] and table["status"] == "playing"
    # A second round cannot start while the first is played.
    response = org.post(f"/api/v1/tournaments/{tid}/start-round")
    assert response.status_code == 409 and response.json()["error"] == "round_in_progress"
    # Adjudicate: a bad ranking is refused with the field named; a good one ends the game.
    url = f"/api/v1/tournaments/{tid}/tables/{table['id']}/adjudicate"
    response = org.post(url, {"ranking": ["stark"]}, format="json")
    assert response.status_code == 400 and "ranking" in response.json()["fields"]
    seats = [s["seat"] for s in table["seats"]]
    response = org.post(url, {"ranking": seats}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "adjudicated"
    assert [s["place"] for s in response.json()["seats"]] == [1, 2, 3]
    standings = api_client_for(players[0]).get(f"/api/v1/tournaments/{tid}/standings").json()
    assert len(standings) == 6
    assert standings[0]["user"] == table["seats"][0]["user"] and standings[0]["wins"] == 1
    assert standings[0]["points"] == 5 + standings[0]["castles"]  # league points
    registrations = org.get(f"/api/v1/tournaments/{tid}/registrations").json()
    assert sorted(r["seed_rank"] for r in registrations) == [1, 2, 3, 4, 5, 6]
    # The organizer ends the event: the other table is adjudicated by position.
    response = org.post(f"/api/v1/tournaments/{tid}/end")
    assert response.status_code == 200 and response.json()["status"] == "finished"
    assert not Table.objects.filter(round__tournament_id=tid, status=Table.Status.PLAYING).exists()
    listed = api_client_for(players[1]).get("/api/v1/tournaments?status=finished").json()["results"]
    assert [t["id"] for t in listed] == [tid]


def test_invalid_settings_answer_in_the_error_format():
    client = api_client_for(make_user())
    response = create(client, tiebreakers=["luck"])
    assert response.status_code == 400 and "tiebreakers" in response.json()["fields"]
    response = create(client, seats_per_table=9)
    assert response.status_code == 400 and response.json()["error"] == "invalid"
    assert "seats_per_table" in response.json()["fields"]


def test_anonymous_may_read_but_not_write():
    t = services.do_create_tournament(make_user(), services.TournamentSettings(name="Open"))
    from rest_framework.test import APIClient

    client = APIClient()
    assert client.get(f"/api/v1/tournaments/{t.pk}").status_code == 200
    assert client.get(f"/api/v1/tournaments/{t.pk}/standings").status_code == 200
    assert client.post(f"/api/v1/tournaments/{t.pk}/register").status_code in (401, 403)
    assert client.get("/api/v1/tournaments/999999").status_code == 404


def test_co_organizers_replace_and_drop_through_the_api():
    organizer, co = make_user(), make_user()
    org = api_client_for(organizer)
    tid = create(org, auto_advance=False).json()["id"]
    assert org.post(f"/api/v1/tournaments/{tid}/co-organizers", {"user": co.username}, format="json").json()[
        "co_organizers"] == [co.username]
    players = [make_user() for _ in range(3)]
    for p in players:
        services.do_register(tid, p)
    assert api_client_for(co).post(f"/api/v1/tournaments/{tid}/start").status_code == 200
    newcomer = make_user()
    response = api_client_for(co).post(f"/api/v1/tournaments/{tid}/replace",
                                       {"old": players[0].username, "new": newcomer.username}, format="json")
    assert response.status_code == 200 and response.json()["replaces"] == players[0].username
    assert GameSeat.objects.filter(user=newcomer, game__tournament_table__round__tournament_id=tid).exists()
    response = org.post(f"/api/v1/tournaments/{tid}/drop", {"user": players[1].username}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "dropped"
    response = org.post(f"/api/v1/tournaments/{tid}/co-organizers/remove", {"user": co.username}, format="json")
    assert response.json()["co_organizers"] == []


def test_schema_documents_the_tournament_endpoints(client):
    schema = yaml.safe_load(client.get(reverse("api-schema")).content)
    paths = set(schema["paths"])
    assert {"/api/v1/tournaments", "/api/v1/tournaments/{tournament_id}/standings",
            "/api/v1/tournaments/{tournament_id}/tables/{table_id}/adjudicate"} <= paths


def test_pages_list_event_and_register(logged_in, user):
    organizer = make_user()
    t = services.do_create_tournament(organizer, services.TournamentSettings(
        name="Page cup", seats_per_table=3, rounds=1, auto_advance=False))
    response = logged_in.get(reverse("tournaments"))
    assert response.status_code == 200 and b"Page cup" in response.content
    response = logged_in.get(reverse("tournament", args=[t.pk]))
    assert response.status_code == 200 and b"Register" in response.content
    response = logged_in.post(reverse("tournament-action", args=[t.pk, "register"]))
    assert response.status_code == 302
    assert Registration.objects.get(tournament=t, user=user).is_active()
    for _ in range(2):
        services.do_register(t.pk, make_user())
    services.do_start(t.pk, organizer)
    response = logged_in.get(reverse("tournament", args=[t.pk]))
    assert response.status_code == 200
    assert b"Round 1" in response.content and b"Standings" in response.content and b"Table 1" in response.content
    # An error comes back as a message, not a crash.
    response = logged_in.post(reverse("tournament-action", args=[t.pk, "start-round"]), follow=True)
    assert response.status_code == 200 and b"organizers" in response.content
    assert logged_in.post(reverse("tournament-action", args=[t.pk, "nonsense"])).status_code == 404


@pytest.fixture
def own_channel_layer(settings):
    """A channel layer prefix of this test's own: Redis is shared by parallel workers whose
    tournaments have the same ids."""
    layers = {name: {**config, "CONFIG": {**config.get("CONFIG", {}), "prefix": f"t{uuid.uuid4().hex}"}}
              if "Redis" in config["BACKEND"] else config for name, config in settings.CHANNEL_LAYERS.items()}
    settings.CHANNEL_LAYERS = layers


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_websocket_sends_tournament_updates(own_channel_layer):
    from asgiref.sync import sync_to_async

    t = await sync_to_async(lambda: services.do_create_tournament(
        make_user(), services.TournamentSettings(name="Live cup")))()
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tournaments/{t.pk}/")
    connected, _ = await communicator.connect()
    assert connected
    hello = await communicator.receive_json_from(timeout=5)
    assert hello == {"type": "hello", "tournament": t.pk, "status": "registration"}
    await sync_to_async(lambda: services.do_register(t.pk, make_user()))()
    update = await communicator.receive_json_from(timeout=5)
    assert update["type"] == "update" and update["kind"] == "registration"
    await communicator.disconnect()
    missing = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/tournaments/999999/")
    connected, _ = await missing.connect()
    assert not connected
    assert await sync_to_async(Tournament.objects.filter(pk=t.pk).exists)()


def test_organize_page_creates_a_tournament_and_reports_errors(logged_in, user):
    assert logged_in.get(reverse("tournament-new")).status_code == 200
    data = {"name": "Form cup", "format": "swiss", "rounds": 2, "seats_per_table": 3, "min_seats_per_table": 3,
            "advance_per_table": 2, "division_size": 10, "scoring": "placement", "win_bonus": 10,
            "tiebreaker_1": "wins", "tiebreaker_2": "supply", "time_limit_0": 1, "time_limit_1": "hours",
            "auto_advance": "on"}
    response = logged_in.post(reverse("tournament-new"), data)
    assert response.status_code == 302
    t = Tournament.objects.get(name="Form cup")
    assert t.organizer == user and t.tiebreakers == ["wins", "supply"] and t.min_seats_per_table == 3
    assert t.time_limit == 3600
    response = logged_in.post(reverse("tournament-new"), {**data, "name": "Bad cup", "tiebreaker_2": "luck"})
    assert response.status_code == 200 and b"Choose one of the tie-breakers in the list." in response.content
    assert not Tournament.objects.filter(name="Bad cup").exists()


def test_organizer_tools_on_the_event_page(logged_in, user):
    t = services.do_create_tournament(user, services.TournamentSettings(
        name="Tools cup", seats_per_table=3, rounds=1, auto_advance=False))
    players = [make_user() for _ in range(3)]
    for p in players:
        services.do_register(t.pk, p)
    services.do_start(t.pk, user)
    page = logged_in.get(reverse("tournament", args=[t.pk]))
    assert b"Decide the result of table 1" in page.content and b"Replace" in page.content
    newcomer = make_user()
    logged_in.post(reverse("tournament-action", args=[t.pk, "replace"]), {"old": players[0].username,
                                                                          "new": newcomer.username})
    assert Registration.objects.get(tournament=t, user=newcomer).replaces.user == players[0]
    table = Table.objects.get(round__tournament=t)
    ranking = [s.seat for s in table.seats.all()]  # one choice per place, as the page posts them
    logged_in.post(reverse("tournament-action", args=[t.pk, "adjudicate"]), {"table": table.pk, "ranking": ranking})
    table.refresh_from_db()
    assert table.status == Table.Status.ADJUDICATED
    response = logged_in.post(reverse("tournament-action", args=[t.pk, "drop"]), {"user": "nobody-at-all"},
                              follow=True)
    assert b"No user named" in response.content


def test_the_list_counts_each_events_registrations_without_the_withdrawn():
    """GET /tournaments counts each row's registrations for the page's rows alone (a subquery, issue
    27): an event without any says 0, a withdrawal is not counted."""
    org = api_client_for(make_user())
    empty, busy = create(org, name="Empty cup").json()["id"], create(org, name="Busy cup").json()["id"]
    players = [make_user() for _ in range(4)]
    for player in players:
        assert api_client_for(player).post(f"/api/v1/tournaments/{busy}/register").status_code == 201
    services.do_withdraw(busy, players[0])
    listed = {t["id"]: t["registered"] for t in org.get("/api/v1/tournaments").json()["results"]}
    assert listed[empty] == 0 and listed[busy] == 3
