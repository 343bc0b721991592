"""The database goes away right after a change is committed: the answer must not say that nothing
was changed (the client would send it again), but what was committed: 200 with `partial: true`,
the applied version and what the service left in memory. A failure before anything is known gets
a 503 that says the request may not have been completed, never that nothing changed.

The fault is injected below Django's query layer (an execute wrapper that fails every query like a
dropped connection), installed the moment the service returns, so every re-read the view makes
fails whichever query it is."""
from __future__ import annotations

import json

import pytest
from django.db import OperationalError, connection
from django.urls import reverse

from games.engine import get_ruleset
from games.models import Game, GameAction, LobbyMember
from games.services import deadlines, lobbies, pause, play
from tests.factories import api_client_for, make_game, make_lobby, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def _database_gone(execute, sql, params, many, context):
    raise OperationalError("server closed the connection unexpectedly")


@pytest.fixture
def outage_after(monkeypatch):
    """`outage_after(module, "service")`: the database is unreachable from the moment that service
    first returns (its transaction committed) until the test calls back_up()."""

    def install(module, name: str) -> None:
        service = getattr(module, name)
        calls = []

        def committed_then_gone(*args, **kwargs):
            result = service(*args, **kwargs)
            if not calls:
                connection.execute_wrappers.append(_database_gone)
            calls.append(1)
            return result

        monkeypatch.setattr(module, name, committed_then_gone)

    yield install
    while _database_gone in connection.execute_wrappers:
        connection.execute_wrappers.remove(_database_gone)


def back_up() -> None:
    connection.execute_wrappers.remove(_database_gone)


def assert_committed_answer(response, code: int = 200) -> dict:
    text = response.content.decode()
    assert response.status_code == code, text
    assert "nothing was changed" not in text
    body = json.loads(text)
    assert body["partial"] is True and "saved" in body["detail"] and "re-fetch" in body["detail"]
    return body


def player(game: Game, seat: str):
    return game.seats.get(seat=seat).user


def test_an_action_committed_before_the_database_went_away_is_answered_with_its_version(outage_after):
    game = make_game()
    stark = player(game, "stark")
    orders = get_ruleset("agot").default_action(game.state, "stark")
    outage_after(play, "do_submit_action")

    response = api_client_for(stark).post(reverse("api-game-actions", args=[game.id]),
                                          {"version": 0, "action": orders}, format="json", HTTP_IDEMPOTENCY_KEY="k1")

    body = assert_committed_answer(response)
    assert body["applied_version"] == 1 and body["version"] == 1 and body["repeated"] is False
    assert body["id"] == game.id and body["status"] == "active"
    back_up()
    record = GameAction.objects.get(game=game, seat="stark")
    assert (record.version, record.action) == (1, orders)
    # The client that re-sends anyway (same Idempotency-Key) gets the same version, not a second action.
    retry = api_client_for(stark).post(reverse("api-game-actions", args=[game.id]),
                                       {"version": 0, "action": orders}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert retry.status_code == 200 and retry.json()["repeated"] is True and retry.json()["applied_version"] == 1
    assert GameAction.objects.filter(game=game, seat="stark").count() == 1


def test_an_extension_committed_before_the_outage_answers_the_new_deadline(outage_after):
    game = make_game()
    before = game.seats.get(seat="stark").deadline_at
    outage_after(deadlines, "do_extend")

    response = api_client_for(player(game, "stark")).post(reverse("api-game-extend", args=[game.id]))

    body = assert_committed_answer(response)
    back_up()
    seat = game.seats.get(seat="stark")
    assert seat.extension_used and seat.deadline_at > before
    assert body["version"] == 0 and body["deadline_at"] is not None


def test_a_pause_vote_committed_before_the_outage_answers_the_votes(outage_after):
    game = make_game()
    outage_after(pause, "do_vote_pause")

    response = api_client_for(player(game, "stark")).post(reverse("api-game-pause", args=[game.id]), {"pause": True},
                                                          format="json")

    body = assert_committed_answer(response)
    assert body["pause_votes"] == ["stark"]
    back_up()
    assert Game.objects.get(pk=game.pk).pause_votes == ["stark"]


def test_conceding_committed_before_the_outage_is_not_reported_as_unchanged(outage_after):
    game = make_game()
    outage_after(play, "do_concede")

    response = api_client_for(player(game, "stark")).post(reverse("api-game-concede", args=[game.id]))

    assert_committed_answer(response)
    back_up()
    assert game.seats.get(seat="stark").has_left()


def test_joining_a_lobby_committed_before_the_outage_is_not_reported_as_unchanged(outage_after):
    lobby = make_lobby()
    joiner = make_user()
    outage_after(lobbies, "do_join_lobby")

    response = api_client_for(joiner).post(reverse("api-lobby-join", args=[lobby.id]), {}, format="json")

    body = assert_committed_answer(response)
    assert body["id"] == lobby.id
    back_up()
    assert LobbyMember.objects.filter(lobby=lobby, user=joiner).exists()


def test_a_write_that_fails_before_anything_is_known_does_not_claim_nothing_changed(monkeypatch):
    game = make_game()
    client = api_client_for(player(game, "stark"))

    def gone_before(*args, **kwargs):
        connection.execute_wrappers.append(_database_gone)
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(play, "do_concede", gone_before)
    try:
        response = client.post(reverse("api-game-concede", args=[game.id]))
    finally:
        back_up()
    assert response.status_code == 503 and response["Retry-After"] == "5"
    body = response.json()
    assert body["error"] == "unavailable" and body["fields"] == {}
    assert "nothing was changed" not in body["detail"] and "may not have been completed" in body["detail"]
