"""Engines registered before the site can show them (the miniatures game, minis: its table page is
still to come) cannot be chosen for a lobby or a tournament: a clear
400 in the API's error shape, nothing created. The games open on the site still can."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine import ruleset_ids
from games.models import Lobby
from tests.factories import api_client_for, make_user
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
LOBBY = {"name": "Friday", "seats": 2, "time_limit": 3600}
TOURNAMENT = {"name": "Cup", "format": "swiss", "rounds": 2, "seats_per_table": 2}


@pytest.mark.parametrize("ruleset", ["minis"])
def test_a_registered_engine_without_a_page_is_refused_for_lobbies_and_tournaments(ruleset):
    assert ruleset in ruleset_ids()  # the engine is there: scenarios, simulations and replays use it
    client = api_client_for(make_user())
    response = client.post(reverse("api-lobbies"), {**LOBBY, "ruleset": ruleset}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid"
    name = {"minis": "The miniatures game"}[ruleset]
    assert body["fields"]["ruleset"][0].startswith(f"{name} ({ruleset}) is not open for play on the site yet; choose one of: agot, btwixt, lcg")
    response = client.post("/api/v1/tournaments", {**TOURNAMENT, "ruleset": ruleset}, format="json")
    assert response.status_code == 400 and "not open for play on the site yet" in response.json()["fields"]["ruleset"][0]
    assert not Lobby.objects.exists() and not Tournament.objects.exists()


def test_an_unknown_ruleset_names_only_the_open_games():
    response = api_client_for(make_user()).post(reverse("api-lobbies"), {**LOBBY, "ruleset": "chess"}, format="json")
    assert response.status_code == 400
    # (a test may have registered an example ruleset of its own on this worker: it would be listed too)
    said = response.json()["fields"]["ruleset"][0]
    assert said.startswith("Unknown ruleset; choose one of: agot, btwixt, lcg") and "minis" not in said


@pytest.mark.parametrize("ruleset,seats", [("agot", 3), ("btwixt", 3), ("lcg", 2)])
def test_the_open_games_can_still_be_chosen(ruleset, seats):
    response = api_client_for(make_user()).post(reverse("api-lobbies"), {**LOBBY, "ruleset": ruleset, "seats": seats},
                                                format="json")
    assert response.status_code == 201, response.json()
