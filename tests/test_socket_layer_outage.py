"""A short Redis outage (a Sentinel failover takes seconds) does not close the sockets (issue 28):
the channel layer's receiving tries again while Redis is down (westeros/channel_layer.py), the game
socket stays open and its keep-alive still tells it the game's version (read from the database),
and once Redis is back the socket receives through the layer again. Past the grace the read fails
as before (the socket is then closed with 4503: tests/test_redis_down.py).

Each test starts its own redis-server on a free port (never the shared one) and stops it."""
from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db.models import F

from games.models import Game, Presence
from tests.celery_worker import PrivateRedis
from tests.celery_worker import private_redis as redis_server
from tests.factories import make_game
from westeros import channel_layer
from westeros.asgi import websocket_application

pytestmark = pytest.mark.asyncio
HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
WAIT = 30  # seconds a condition may take on a busy machine before the test fails


@pytest.fixture
def private_redis(settings) -> Iterator[PrivateRedis]:
    """The channel layer (the site's class) on a private redis-server, which the test stops and starts."""
    with redis_server() as server:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "westeros.channel_layer.RedisChannelLayer",
                                               "CONFIG": {"hosts": [{"address": server.url, "socket_timeout": None}]}}}
        settings.ALLOWED_HOSTS = ["testserver"]
        yield server


async def until(condition, what: str) -> None:
    """Wait (polling) until `condition()` holds; WAIT seconds is only the ceiling of a stuck test."""
    loop = asyncio.get_running_loop()
    stop_at = loop.time() + WAIT
    while not await condition():
        assert loop.time() < stop_at, f"never: {what}"
        await asyncio.sleep(0.05)


def reading(server: PrivateRedis) -> bool:
    """Whether a client of the server is blocked in the layer's read (BZPOPMIN)."""
    try:
        clients = redis.Redis.from_url(server.url, socket_timeout=2).client_list()
    except redis.exceptions.RedisError:
        return False
    return any(client.get("cmd") == "bzpopmin" for client in clients)


async def test_a_read_in_progress_goes_on_once_redis_is_back(private_redis):
    layer = get_channel_layer()
    assert isinstance(layer, channel_layer.RedisChannelLayer)
    channel = await layer.new_channel()
    receiving = asyncio.create_task(layer.receive(channel))
    await until(lambda: asyncio.to_thread(reading, private_redis), "the layer reads")

    await asyncio.to_thread(private_redis.stop)
    await until(lambda: asyncio.sleep(0, layer.failing_since is not None), "the read failed once")
    assert not receiving.done()  # still receiving, not failed
    await asyncio.to_thread(private_redis.start)
    await layer.send(channel, {"type": "test.message", "n": 1})

    assert await asyncio.wait_for(receiving, WAIT) == {"type": "test.message", "n": 1}
    assert layer.failing_since is None
    await layer.flush()


async def test_past_the_grace_the_read_fails(private_redis, settings):
    settings.CHANNEL_LAYER_RECEIVE_GRACE = 0
    layer = get_channel_layer()
    channel = await layer.new_channel()
    receiving = asyncio.create_task(layer.receive(channel))
    await until(lambda: asyncio.to_thread(reading, private_redis), "the layer reads")

    await asyncio.to_thread(private_redis.stop)

    with pytest.raises(redis.exceptions.ConnectionError):
        await asyncio.wait_for(receiving, WAIT)
    await layer.close_pools()  # Redis stays down: nothing to flush, the pools just let go


@pytest.mark.django_db(transaction=True)
async def test_a_game_socket_stays_open_through_a_redis_outage(private_redis, settings):
    """While Redis is down a version committed in the database reaches the open socket by its
    keep-alive; once Redis is back, a message sent to the socket's channel reaches it: it was never
    closed."""
    settings.LIVE_KEEPALIVE_SECONDS = 0.5
    game = await sync_to_async(make_game)()
    user = await sync_to_async(lambda: game.seats.get(seat="stark").user)()
    socket = WebsocketCommunicator(websocket_application(), f"/ws/games/{game.id}/", headers=HEADERS)
    socket.scope["user"] = user
    connected, _ = await socket.connect(timeout=WAIT)
    assert connected
    hello = await socket.receive_json_from(timeout=WAIT)
    assert hello["type"] == "hello"
    layer = get_channel_layer()
    await until(lambda: asyncio.to_thread(reading, private_redis), "the layer reads")

    await asyncio.to_thread(private_redis.stop)
    await until(lambda: asyncio.sleep(0, layer.failing_since is not None), "the layer's read failed")
    await sync_to_async(Game.objects.filter(pk=game.pk).update)(version=F("version") + 1)

    async def told(kind: str, check) -> dict:
        while True:
            message = await socket.receive_json_from(timeout=WAIT)
            assert message["type"] != "error", message  # not closed for the outage
            if message["type"] == kind and check(message):
                return message

    await told("keepalive", lambda m: m["version"] == hello["version"] + 1)
    await asyncio.to_thread(private_redis.start)
    channel = await sync_to_async(lambda: Presence.objects.get(game=game).channel_name)()
    await layer.send(channel, {"type": "table.presence", "connected": ["back"]})
    await told("presence", lambda m: m["connected"] == ["back"])
    assert layer.failing_since is None

    await socket.disconnect()
    await until(lambda: sync_to_async(lambda: not Presence.objects.filter(game=game).exists())(), "presence gone")


@pytest.mark.django_db(transaction=True)
async def test_a_game_socket_opens_while_redis_is_down_and_joins_its_groups_when_it_is_back(private_redis, settings):
    """A handshake during the outage is answered with the hello (not closed with 4503), the
    keep-alive tells it a newer version, and once Redis is back the socket is in the table's group:
    a broadcast to the table reaches it."""
    from games.services.notify import table_group

    settings.LIVE_KEEPALIVE_SECONDS = 0.5
    game = await sync_to_async(make_game)()
    user = await sync_to_async(lambda: game.seats.get(seat="stark").user)()
    layer = get_channel_layer()
    await asyncio.to_thread(private_redis.stop)

    socket = WebsocketCommunicator(websocket_application(), f"/ws/games/{game.id}/", headers=HEADERS)
    socket.scope["user"] = user
    connected, _ = await socket.connect(timeout=WAIT)
    assert connected
    hello = await socket.receive_json_from(timeout=WAIT)
    assert hello["type"] == "hello", hello
    await sync_to_async(Game.objects.filter(pk=game.pk).update)(version=F("version") + 1)

    async def told(kind: str, check) -> dict:
        while True:
            message = await socket.receive_json_from(timeout=WAIT)
            assert message["type"] != "error", message
            if message["type"] == kind and check(message):
                return message

    await told("keepalive", lambda m: m["version"] == hello["version"] + 1)
    await asyncio.to_thread(private_redis.start)
    group_key = layer._group_key(table_group(game.id))
    await until(lambda: asyncio.to_thread(lambda: bool(redis.Redis.from_url(private_redis.url).exists(group_key))),
                "the socket joined the table's group")
    await layer.group_send(table_group(game.id), {"type": "table.presence", "connected": ["back"]})
    await told("presence", lambda m: m["connected"] == ["back"])

    await socket.disconnect()
    await until(lambda: sync_to_async(lambda: not Presence.objects.filter(game=game).exists())(), "presence gone")


@pytest.mark.django_db(transaction=True)
async def test_a_socket_that_cannot_join_within_the_grace_is_closed_with_4503(private_redis, settings):
    settings.CHANNEL_LAYER_RECEIVE_GRACE = 0.5
    game = await sync_to_async(make_game)()
    user = await sync_to_async(lambda: game.seats.get(seat="stark").user)()
    await asyncio.to_thread(private_redis.stop)

    socket = WebsocketCommunicator(websocket_application(), f"/ws/games/{game.id}/", headers=HEADERS)
    socket.scope["user"] = user
    connected, _ = await socket.connect(timeout=WAIT)
    assert connected
    assert (await socket.receive_json_from(timeout=WAIT))["type"] == "hello"
    while True:
        output = await socket.receive_output(timeout=WAIT)
        if output["type"] == "websocket.close":
            break
    assert output == {"type": "websocket.close", "code": 4503}
    await socket.disconnect()  # the client's side of the close, as Daphne reports it
    await until(lambda: sync_to_async(lambda: not Presence.objects.filter(game=game).exists())(), "presence gone")
