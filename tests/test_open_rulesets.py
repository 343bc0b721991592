"""Every registered engine is open on the site since the miniatures game (minis) got its page
(issue 19). The gate stays for an engine registered before its page exists (games/rulesets.py
NOT_YET_ON_SITE): such a ruleset cannot be chosen for a lobby or a tournament, a clear 400 in the
API's error shape, nothing created."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games import rulesets
from games.engine import ruleset_ids
from games.models import Lobby
from tests.factories import api_client_for, make_user
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
LOBBY = {"name": "Friday", "seats": 2, "time_limit": 3600}
TOURNAMENT = {"name": "Cup", "format": "swiss", "rounds": 2, "seats_per_table": 2}


def test_every_registered_engine_of_the_project_is_open():
    assert rulesets.NOT_YET_ON_SITE == {}
    assert {"agot", "btwixt", "lcg", "minis"} <= set(rulesets.open_ruleset_ids())


def test_a_registered_engine_without_a_page_is_refused_for_lobbies_and_tournaments(monkeypatch):
    # the gate, as it would hold an engine whose page is still to come
    monkeypatch.setattr(rulesets, "NOT_YET_ON_SITE", {"minis": "The miniatures game"})
    assert "minis" in ruleset_ids()  # the engine is there: scenarios, simulations and replays use it
    client = api_client_for(make_user())
    response = client.post(reverse("api-lobbies"), {**LOBBY, "ruleset": "minis"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid"
    assert body["fields"]["ruleset"][0].startswith(
        "The miniatures game (minis) is not open for play on the site yet; choose one of: agot, btwixt, lcg")
    response = client.post("/api/v1/tournaments", {**TOURNAMENT, "ruleset": "minis"}, format="json")
    assert response.status_code == 400 and "not open for play on the site yet" in response.json()["fields"]["ruleset"][0]
    assert not Lobby.objects.exists() and not Tournament.objects.exists()


def test_an_unknown_ruleset_names_the_open_games():
    response = api_client_for(make_user()).post(reverse("api-lobbies"), {**LOBBY, "ruleset": "chess"}, format="json")
    assert response.status_code == 400
    # (a test may have registered an example ruleset of its own on this worker: it would be listed too)
    said = response.json()["fields"]["ruleset"][0]
    assert said.startswith("Unknown ruleset; choose one of: agot, btwixt, lcg, minis")


@pytest.mark.parametrize("ruleset,seats", [("agot", 3), ("btwixt", 3), ("lcg", 2), ("minis", 2)])
def test_the_open_games_can_be_chosen(ruleset, seats):
    response = api_client_for(make_user()).post(reverse("api-lobbies"), {**LOBBY, "ruleset": ruleset, "seats": seats},
                                                format="json")
    assert response.status_code == 201, response.json()
    response = api_client_for(make_user()).post(
        "/api/v1/tournaments", {**TOURNAMENT, "ruleset": ruleset, "seats_per_table": seats}, format="json")
    assert response.status_code == 201, response.json()
