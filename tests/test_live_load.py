"""Live updates at load (issue 20): one message per table when nothing in it is hidden, per-seat
messages otherwise; a channel layer roomy enough for one Daphne process's sockets; a socket whose
group_discard fails (MaxConnectionsError when a thousand sockets close at once) still leaves no
presence behind."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from games.models import GameAction, Presence
from games.services.notify import fan_out, seat_group, spectator_group, table_group
from tests.factories import make_game
from westeros.asgi import websocket_application

HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
SEATS = ["stark", "lannister", "baratheon"]


def test_public_events_go_to_the_table_in_one_message():
    records = [GameAction(version=4, seat="stark", events=[{"type": "orders_revealed"}])]
    assert fan_out(9, "agot", records, SEATS) == [(table_group(9), [{"type": "orders_revealed", "version": 4}])]


def test_a_change_with_a_private_event_goes_to_each_seat_and_the_spectators_apart():
    secret = {"type": "card_drawn", "only": ["stark"], "card": "Ser Rodrik"}
    records = [GameAction(version=4, seat="stark", events=[{"type": "orders_revealed"}, secret])]
    messages = dict(fan_out(9, "agot", records, SEATS))
    assert table_group(9) not in messages
    assert set(messages) == {seat_group(9, s) for s in SEATS} | {spectator_group(9)}
    assert {**secret, "version": 4} in messages[seat_group(9, "stark")]
    for group in (seat_group(9, "lannister"), seat_group(9, "baratheon"), spectator_group(9)):
        assert messages[group] == [{"type": "orders_revealed", "version": 4}]


def test_a_status_only_change_is_one_message():
    assert fan_out(9, "agot", [], SEATS) == [(table_group(9), [])]


def test_the_redis_layer_holds_more_than_the_default_hundred_messages():
    from django.conf import settings as live

    if "Redis" not in live.CHANNEL_LAYERS["default"]["BACKEND"]:
        pytest.skip("REDIS_URL not set: the in-memory layer")
    config = live.CHANNEL_LAYERS["default"]["CONFIG"]
    assert config["capacity"] >= 1000 and config["expiry"] >= 10


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_failing_group_discard_still_removes_the_presence(settings, monkeypatch):
    settings.ALLOWED_HOSTS = ["testserver"]
    app = websocket_application()
    game = await sync_to_async(make_game)()
    users = await sync_to_async(lambda: [s.user for s in game.seats.order_by("position")])()
    sockets = []
    for user in users[:2]:
        communicator = WebsocketCommunicator(app, f"/ws/games/{game.id}/", headers=HEADERS)
        communicator.scope["user"] = user
        assert (await communicator.connect())[0]
        sockets.append(communicator)
    assert await sync_to_async(Presence.objects.filter(game=game).count)() == 2
    while True:  # the first socket's presence messages so far
        message = await sockets[0].receive_json_from(timeout=20)
        if message["type"] == "presence" and len(message["connected"]) == 2:
            break

    layer = get_channel_layer()

    async def overloaded(group, channel):
        raise ConnectionError("Too many connections")  # what MaxConnectionsError is

    monkeypatch.setattr(layer, "group_discard", overloaded)
    await sockets[1].disconnect()
    monkeypatch.undo()
    assert await sync_to_async(Presence.objects.filter(game=game).count)() == 1
    while True:
        message = await sockets[0].receive_json_from(timeout=20)
        if message["type"] == "presence":
            assert message["connected"] == [users[0].username]
            break
    await sockets[0].disconnect()
