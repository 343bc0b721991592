"""Schema-driven fuzzing with schemathesis (issue 14): every operation of the OpenAPI schema gets
requests generated from the schema itself, against the Django WSGI app in this process,
authenticated with a token. No answer may be a server error, and every answer must be documented:
its status code, its content type and its body's shape (errors: the `Error` component).

Bounded: MAX_EXAMPLES generated requests per operation (about 45 operations), a deterministic
derandomized run, so the whole file takes well under two minutes. Path ids are half the time real
ones (the user's game, lobby, token, tournament), half generated."""
from __future__ import annotations

import itertools

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.test import override_settings
from hypothesis import HealthCheck, Phase, settings
from schemathesis import checks

from tests.factories import make_game, make_lobby, make_token, make_user

MAX_EXAMPLES = 12
CHECKS = [checks.not_a_server_error, checks.status_code_conformance, checks.content_type_conformance,
          checks.response_schema_conformance]


# Loaded when the tests are collected (generating the schema reads no database). Not
# schemathesis.pytest.from_fixture: its lazy loading fails on pytest 9 (no Function._nodeid).
# Schemathesis calls the app as http://localhost/.
with override_settings(ALLOWED_HOSTS=["localhost"]):
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
# The event stream never ends (NDJSON until the client goes away) and is served only under ASGI:
# tests/test_event_stream.py covers it.
schema = schema.exclude(path="/api/v1/stream/events")


@pytest.fixture(autouse=True)
def localhost_allowed(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost"]


@pytest.fixture(autouse=True)
def connection_kept_across_requests():
    """Schemathesis calls the bare WSGI handler, which closes the database connection after each
    request (DB_CONN_MAX_AGE=0): that would close the test's transaction. Django's test client
    disconnects the same signal handlers."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def world(db):
    user = make_user()
    game = make_game(users=[user, make_user(), make_user()])
    lobby = make_lobby(creator=make_user())
    token, key = make_token(user)
    from tournaments.services import TournamentSettings, do_create_tournament

    tournament = do_create_tournament(user, TournamentSettings(name="Fuzz cup"))
    real = {"game_id": game.pk, "lobby_id": lobby.pk, "token_id": token.pk, "tournament_id": tournament.pk,
            "ruleset": "agot", "username": user.username}
    return {"key": key, "real": real, "turn": itertools.count()}


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
          phases=[Phase.explicit, Phase.generate],
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented_and_never_fails(case, world):
    if next(world["turn"]) % 2 == 0 and case.path_parameters:
        for name in case.path_parameters:
            if name in world["real"]:
                case.path_parameters[name] = world["real"][name]
    case.call_and_validate(headers={"Authorization": f"Token {world['key']}"}, checks=CHECKS)


# --- what the fuzzing found, pinned down -------------------------------------------------------------

@pytest.mark.django_db
def test_my_games_is_documented_as_the_page_it_returns(world):
    operation = schema["/api/v1/me/games"]["GET"]
    response = operation.Case().call(headers={"Authorization": f"Token {world['key']}"})
    assert response.status_code == 200 and isinstance(response.json()["results"], list) and response.json()["results"]
    operation.Case().validate_response(response, checks=[checks.response_schema_conformance])


@pytest.mark.django_db
def test_every_operation_documents_its_errors_in_the_error_shape():
    raw = schema.raw_schema
    assert set(raw["components"]["schemas"]["Error"]["required"]) == {"error", "detail", "fields"}
    for path, item in raw["paths"].items():
        for method, operation in item.items():
            statuses = set(operation["responses"])
            assert {"400", "401", "503"} <= statuses, (method, path, statuses)
            if "{" in path:
                assert "404" in statuses, (method, path)
            if method != "get":
                assert {"403", "409", "413"} <= statuses, (method, path)
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")):
                    ref = response["content"]["application/json"]["schema"]
                    assert ref == {"$ref": "#/components/schemas/Error"}, (method, path, status)
    assert "422" in raw["paths"]["/api/v1/games/{game_id}/actions"]["post"]["responses"]
    assert "429" in raw["paths"]["/api/v1/auth/token"]["post"]["responses"]


@pytest.mark.django_db
def test_the_tournament_format_filter_is_not_taken_for_a_renderer(client):
    from tournaments.services import TournamentSettings, do_create_tournament

    do_create_tournament(make_user(), TournamentSettings(name="Swiss cup"))
    response = client.get("/api/v1/tournaments", {"format": "swiss"})
    assert response.status_code == 200 and [t["name"] for t in response.json()["results"]] == ["Swiss cup"]
    assert client.get("/api/v1/tournaments", {"format": "elimination"}).json()["results"] == []


@pytest.mark.django_db
def test_a_post_to_no_endpoint_is_a_json_404_not_a_csrf_page():
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user())
    response = client.post("/api/v1/games/abc/concede")
    assert response.status_code == 404 and response.json()["error"] == "not_found"
