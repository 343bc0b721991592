"""The game websocket: per-seat updates after each commit with the new version, spectators get the
public view, presence goes to the whole table, private games refuse outsiders, tokens authenticate.
Runs on the in-memory layer, and on channels-redis when REDIS_URL is set (CI)."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.engine import get_ruleset
from games.errors import GameError
from games.services.play import do_submit_action
from tests.factories import make_game, make_token, make_user
from westeros.asgi import websocket_application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
AGOT = get_ruleset("agot")
HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


@pytest.fixture
def app(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    return websocket_application()


async def connect(app, game_id: int, *, user=None, query: str = ""):
    communicator = WebsocketCommunicator(app, f"/ws/games/{game_id}/{query}", headers=HEADERS)
    if user is not None:
        communicator.scope["user"] = user
    connected, code = await communicator.connect()
    return communicator, connected, code


async def next_of_type(communicator, kind: str, timeout: float = 2):
    while True:
        message = await communicator.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


def act(game, seat: str):
    game.refresh_from_db()
    user = game.seats.get(seat=seat).user
    action = AGOT.default_action(game.state, seat)
    return do_submit_action(game.id, user, action=action, version=game.version)


async def test_each_seat_and_spectators_get_the_update_with_the_new_version(app):
    game = await sync_to_async(make_game)()
    stark_user = await sync_to_async(lambda: game.seats.get(seat="stark").user)()
    stark, ok, _ = await connect(app, game.id, user=stark_user)
    assert ok
    hello = await stark.receive_json_from()
    assert hello == {"type": "hello", "game": game.id, "seat": "stark", "version": 0}
    watcher, ok, _ = await connect(app, game.id, user=await sync_to_async(make_user)())
    assert ok
    assert (await watcher.receive_json_from())["seat"] is None

    await sync_to_async(act)(game, "lannister")

    for communicator in (stark, watcher):
        update = await next_of_type(communicator, "update")
        assert update["version"] == 1 and update["status"] == "active"
    await stark.disconnect()
    await watcher.disconnect()


async def test_a_seat_never_receives_another_seats_private_event(app):
    game = await sync_to_async(make_game)()
    users = await sync_to_async(lambda: {s.seat: s.user for s in game.seats.all()})()
    sockets = {}
    for seat, user in users.items():
        sockets[seat], ok, _ = await connect(app, game.id, user=user)
        assert ok
    spectator, _, _ = await connect(app, game.id, user=None)
    result = await sync_to_async(act)(game, "lannister")
    logged = await sync_to_async(lambda: result.record.events)()
    for seat, communicator in sockets.items():
        update = await next_of_type(communicator, "update")
        expected = [e for e in (AGOT.event_view(ev, seat) for ev in logged) if e is not None]
        assert [{k: v for k, v in e.items() if k != "version"} for e in update["events"]] == expected
        for event in update["events"]:
            assert "only" not in event or seat in event["only"]
    spectator_update = await next_of_type(spectator, "update")
    assert all("only" not in e for e in spectator_update["events"])
    for communicator in [*sockets.values(), spectator]:
        await communicator.disconnect()


async def test_presence_is_broadcast_to_the_table(app):
    game = await sync_to_async(make_game)()
    users = await sync_to_async(lambda: [s.user for s in game.seats.all()])()
    first, _, _ = await connect(app, game.id, user=users[0])
    assert (await next_of_type(first, "presence"))["connected"] == [users[0].username]
    second, _, _ = await connect(app, game.id, user=users[1])
    assert (await next_of_type(first, "presence"))["connected"] == sorted([users[0].username, users[1].username])
    await second.disconnect()
    assert (await next_of_type(first, "presence"))["connected"] == [users[0].username]
    await first.disconnect()


async def test_private_games_refuse_outsiders_and_unknown_games_refuse_everyone(app):
    game = await sync_to_async(make_game)(private=True)
    _, ok, code = await connect(app, game.id, user=await sync_to_async(make_user)())
    assert not ok and code == 4404
    _, ok, code = await connect(app, 999999)
    assert not ok


async def test_an_api_token_authenticates_the_socket_and_a_bad_one_is_refused(app):
    game = await sync_to_async(make_game)()
    user = await sync_to_async(lambda: game.seats.get(seat="baratheon").user)()
    _token, key = await sync_to_async(make_token)(user)
    communicator, ok, _ = await connect(app, game.id, query=f"?token={key}")
    assert ok
    assert (await communicator.receive_json_from())["seat"] == "baratheon"
    await communicator.disconnect()
    _, ok, code = await connect(app, game.id, query="?token=wrong")
    assert not ok and code == 4401


async def test_ping_answers_with_the_current_version_and_other_messages_get_an_error(app):
    game = await sync_to_async(make_game)()
    communicator, _, _ = await connect(app, game.id)
    await communicator.receive_json_from()
    await communicator.send_json_to({"type": "ping"})
    assert await next_of_type(communicator, "pong") == {"type": "pong", "version": 0}
    await communicator.send_json_to({"type": "place_orders"})
    assert (await next_of_type(communicator, "error"))["error"] == "bad_message"
    await communicator.disconnect()


async def test_a_refused_action_sends_nothing(app):
    game = await sync_to_async(make_game)()
    communicator, _, _ = await connect(app, game.id)
    await communicator.receive_json_from()
    await next_of_type(communicator, "presence")
    user = await sync_to_async(lambda: game.seats.get(seat="stark").user)()
    with pytest.raises(GameError) as refused:
        await sync_to_async(do_submit_action)(game.id, user, action={"place_orders": {"sunspear": "raid"}}, version=0)
    assert refused.value.detail.code == "illegal_action"
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()
