"""No view, log entry or websocket message sent to one seat holds another seat's secret.

Non-interference: two games with the same seed differ only in what one house chose in secret.
Everything another seat or a spectator is sent (REST view, log, websocket) must be identical in
both. If any part of the secret leaked, some viewer would see a difference. Checked on orders
before the reveal over many random games, through the real API and sockets."""
from __future__ import annotations

import random

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from games.engine import get_ruleset
from games.models import Game
from games.services.notify import events_for
from tests.factories import api_client_for, make_game, make_user, whole_log
from westeros.asgi import websocket_application

AGOT = get_ruleset("agot")
VOLATILE = {"id", "created_at", "finished_at", "deadline_at", "seed_hash", "seats", "applied_version", "repeated"}


def public_payload(game_id: int, client) -> dict:
    body = client.get(reverse("api-game", args=[game_id])).json()
    log = whole_log(lambda path: client.get(path).json(), game_id)
    for entry in log["entries"]:
        entry.pop("at")
    return {"game": {k: v for k, v in body.items() if k not in VOLATILE}, "log": log["entries"]}


def two_random_orders(state: dict, seat: str, rng: random.Random) -> tuple[dict, dict] | None:
    first = AGOT.random_action(state, seat, rng)
    for _ in range(20):
        second = AGOT.random_action(state, seat, rng)
        if second != first:
            return first, second
    return None


@pytest.mark.django_db
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_orders_placed_in_secret_change_nothing_another_seat_or_a_spectator_receives(players):
    rng = random.Random(players)
    for trial in range(4):
        seed = rng.randrange(10**6)
        users = [make_user() for _ in range(players)]
        twins = [make_game(players, seed=seed, users=users) for _ in range(2)]
        seats = twins[0].seat_names()
        secret_seat = rng.choice(seats)
        choices = two_random_orders(twins[0].state, secret_seat, rng)
        assert choices is not None, f"{secret_seat} had a single legal set of orders"
        user = twins[0].seats.get(seat=secret_seat).user
        for game, orders in zip(twins, choices, strict=True):
            response = api_client_for(user).post(reverse("api-game-actions", args=[game.id]),
                                                 {"version": 0, "action": orders}, format="json")
            assert response.status_code == 200, response.json()
        viewers = [api_client_for(u) for u, s in zip(users, seats, strict=True) if s != secret_seat]
        viewers.append(api_client_for(make_user()))  # a spectator
        for client in viewers:
            one, other = (public_payload(g.id, client) for g in twins)
            assert one == other, f"trial {trial}: {secret_seat}'s secret orders leaked"
        # and the seat itself does see its own orders
        own = [public_payload(g.id, api_client_for(user))["game"]["view"] for g in twins]
        assert own[0] != own[1]


@pytest.mark.django_db(transaction=True)  # notifications go out on commit
def test_the_websocket_update_for_other_seats_is_the_same_whatever_the_secret(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    rng = random.Random(11)
    users = [make_user() for _ in range(4)]
    twins = [make_game(4, seed=99, users=users) for _ in range(2)]
    orders = two_random_orders(twins[0].state, "greyjoy", rng)

    async def both() -> list[dict]:
        # one event loop for both twins: the channel layer's locks belong to the loop that made them,
        # and a receive left over from a first loop would still hold one
        return [await _submit_and_listen(game, action) for game, action in zip(twins, orders, strict=True)]

    received = async_to_sync(both)()
    assert received[0] == received[1]


async def _submit_and_listen(game: Game, action: dict) -> dict:
    app = websocket_application()
    seats = await sync_to_async(lambda: {s.seat: s.user for s in game.seats.all()})()
    sockets = {}
    for seat, user in seats.items():
        if seat == "greyjoy":
            continue
        communicator = WebsocketCommunicator(app, f"/ws/games/{game.id}/",
                                             headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
        communicator.scope["user"] = user
        assert (await communicator.connect())[0]
        sockets[seat] = communicator
    await api_submit(game.id, seats["greyjoy"], action)
    out = {}
    for seat, communicator in sockets.items():
        while True:
            message = await communicator.receive_json_from(timeout=20)
            if message["type"] == "update":
                out[seat] = message
                break
        await communicator.disconnect()
    return out


@sync_to_async
def api_submit(game_id: int, user, action: dict) -> None:
    response = api_client_for(user).post(reverse("api-game-actions", args=[game_id]),
                                         {"version": 0, "action": action}, format="json")
    assert response.status_code == 200


@pytest.mark.django_db
def test_events_marked_private_reach_only_their_seats():
    game = make_game(3)
    action = AGOT.default_action(game.state, "stark")
    state, events = AGOT.apply(game.state, "stark", action)
    private = [e for e in events if e.get("only")]
    assert private, "placing orders should produce a private event for the placing house"

    class Record:
        version = 1

    Record.events = events
    assert any(e.get("only") for e in events_for("agot", [Record], "stark"))
    for viewer in ("lannister", "baratheon", None):
        assert not any(e.get("only") for e in events_for("agot", [Record], viewer))


@pytest.mark.django_db
def test_the_api_summary_is_the_viewers_summary_with_secrets_hidden():
    game = make_game(3)
    stark = game.seats.get(seat="stark").user
    action = AGOT.default_action(game.state, "stark")
    api_client_for(stark).post(reverse("api-game-actions", args=[game.id]), {"version": 0, "action": action},
                               format="json")
    game.refresh_from_db()
    mine = api_client_for(stark).get(reverse("api-game", args=[game.id])).json()["summary"]
    theirs = api_client_for(game.seats.get(seat="lannister").user).get(reverse("api-game", args=[game.id])).json()
    watcher = api_client_for(make_user()).get(reverse("api-game", args=[game.id])).json()["summary"]
    assert mine == AGOT.summary(game.state, "stark")
    assert theirs["summary"] == AGOT.summary(game.state, "lannister")
    assert watcher == AGOT.summary(game.state, None)
    assert watcher["decks"] != AGOT.summary(game.state)["decks"]  # the referee's deck order stays hidden
