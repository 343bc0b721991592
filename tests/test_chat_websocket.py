"""Chat over the game websocket: a message reaches exactly its channel's members' sockets (after the
commit), refusals come back on the sender's socket as {"type": "error", ...}, and the game socket's
other messages keep working. Runs on the in-memory layer, and on channels-redis when REDIS_URL is set."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from chat import services as chat
from chat.models import ChatMessage
from games.models import Game
from tests.factories import make_game, make_user
from tests.sockets import open_game_socket as connect
from westeros.asgi import websocket_application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def app(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    return websocket_application()


async def next_of_type(communicator, kind: str, timeout: float = 30) -> dict:
    """The next message of type `kind` (the others skipped); `timeout` is a ceiling for a loaded
    machine, not an expected delay."""
    while True:
        message = await communicator.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


async def chat_messages(communicator, wait: float = 0.4) -> list[dict]:
    """Every chat message that arrives until nothing came for `wait` seconds (presence and the rest
    skipped). receive_nothing, not a receive timeout: the latter cancels the application. Says that
    nothing (more) came: a message expected is awaited first (only_chat)."""
    received = []
    while not await communicator.receive_nothing(timeout=wait):
        message = await communicator.receive_json_from()
        if message["type"] == "chat":
            received.append(message)
    return received


async def only_chat(communicator) -> dict:
    """The next chat message, however long it takes to come, and then no other."""
    message = await next_of_type(communicator, "chat")
    assert await chat_messages(communicator) == []
    return message


async def table(app, game: Game, *, spectators: int = 1) -> tuple[dict, list]:
    users = await sync_to_async(lambda: {s.seat: s.user for s in game.seats.select_related("user")})()
    sockets = {seat: await connect(app, game.pk, user) for seat, user in users.items()}
    watchers = [await connect(app, game.pk, await sync_to_async(make_user)()) for _ in range(spectators)]
    return sockets, watchers


async def close(*communicators) -> None:
    for communicator in communicators:
        await communicator.disconnect()


async def test_a_table_message_reaches_every_seat_and_the_spectators(app):
    game = await sync_to_async(make_game)()
    sockets, watchers = await table(app, game)
    first = (await sync_to_async(game.seat_names)())[0]
    await sockets[first].send_json_to({"type": "chat", "channel": "table", "text": "<i>Hear me roar</i>"})
    for communicator in [*sockets.values(), *watchers]:
        message = await next_of_type(communicator, "chat")
        assert message["channel"] == "table" and message["seat"] == first
        assert message["text"] == "<i>Hear me roar</i>"
        assert message["html"] == "&lt;i&gt;Hear me roar&lt;/i&gt;"
    assert await sync_to_async(ChatMessage.objects.filter(game=game, channel="table").count)() == 1
    await close(*sockets.values(), *watchers)


async def test_a_private_message_reaches_only_its_two_seats(app):
    game = await sync_to_async(make_game)()
    sockets, watchers = await table(app, game)
    a, b, c = (await sync_to_async(game.seat_names)())
    await sockets[b].send_json_to({"type": "chat", "channel": f"{b}-{a}", "text": "The north remembers"})
    for seat in (a, b):
        message = await only_chat(sockets[seat])
        assert (message["channel"], message["text"]) == ("-".join(sorted((a, b))), "The north remembers")
    assert await chat_messages(sockets[c]) == []
    assert await chat_messages(watchers[0]) == []
    await close(*sockets.values(), *watchers)


async def test_spectators_get_no_table_chat_when_the_game_forbids_it(app):
    game = await sync_to_async(make_game)()
    await sync_to_async(Game.objects.filter(pk=game.pk).update)(spectator_chat=False)
    sockets, watchers = await table(app, game)
    await sockets[(await sync_to_async(game.seat_names)())[0]].send_json_to({"type": "chat", "channel": "table", "text": "players only"})
    for communicator in sockets.values():
        assert (await only_chat(communicator))["text"] == "players only"
    assert await chat_messages(watchers[0]) == []
    await close(*sockets.values(), *watchers)


async def test_refusals_come_back_on_the_senders_socket_only(app, monkeypatch):
    game = await sync_to_async(make_game)()
    await sync_to_async(Game.objects.filter(pk=game.pk).update)(private_chat=False)
    sockets, watchers = await table(app, game)
    a, b, c = (await sync_to_async(game.seat_names)())
    sender = sockets[a]

    await sender.send_json_to({"type": "chat", "channel": f"{a}-{b}", "text": "secret", "ref": 7})
    error = await next_of_type(sender, "error")
    assert error == {"type": "error", "error": "forbidden", "detail": "Private chat is disabled in this game.",
                     "fields": {}, "ref": 7}
    await sender.send_json_to({"type": "chat", "channel": "table", "text": "x" * 1001})
    error = await next_of_type(sender, "error")
    assert error["error"] == "invalid" and "text" in error["fields"]
    await sender.send_json_to({"type": "chat", "channel": "nowhere", "text": "hi"})
    assert "channel" in (await next_of_type(sender, "error"))["fields"]
    await sender.send_json_to({"type": "chat", "channel": "table", "text": {"not": "a string"}})
    assert (await next_of_type(sender, "error"))["fields"]["text"] == ["A string is required."]

    await watchers[0].send_json_to({"type": "chat", "channel": "table", "text": "let me speak"})
    assert (await next_of_type(watchers[0], "error"))["error"] == "forbidden"
    anonymous = await connect(app, game.pk)
    await anonymous.send_json_to({"type": "chat", "channel": "table", "text": "hi"})
    assert (await next_of_type(anonymous, "error"))["error"] == "not_authenticated"

    for communicator in [*sockets.values(), *watchers, anonymous]:
        assert await chat_messages(communicator, wait=0.2) == []
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await close(*sockets.values(), *watchers, anonymous)


async def test_the_socket_is_rate_limited(app, monkeypatch):
    monkeypatch.setattr(chat, "_clock", lambda: 2_000_000.0)
    game = await sync_to_async(make_game)()
    a = (await sync_to_async(game.seat_names)())[0]
    user = await sync_to_async(lambda: game.seats.get(seat=a).user)()
    sender = await connect(app, game.pk, user)
    for i in range(5):
        await sender.send_json_to({"type": "chat", "channel": "table", "text": f"m{i}"})
        assert (await next_of_type(sender, "chat"))["text"] == f"m{i}"
    await sender.send_json_to({"type": "chat", "channel": "table", "text": "m5"})
    error = await next_of_type(sender, "error")
    assert error["error"] == "rate_limited" and error["retry_after"] == 5
    await close(sender)


async def test_a_rest_post_is_delivered_on_the_socket_too(app):
    game = await sync_to_async(make_game)()
    sockets, watchers = await table(app, game, spectators=0)
    a, b, _ = (await sync_to_async(game.seat_names)())
    user = await sync_to_async(lambda: game.seats.get(seat=a).user)()
    await sync_to_async(chat.do_send_message)(game.pk, user, f"{a}-{b}", "via REST")
    assert (await only_chat(sockets[b]))["text"] == "via REST"
    await close(*sockets.values())


async def test_ping_still_answers_and_unknown_types_still_get_bad_message(app):
    game = await sync_to_async(make_game)()
    communicator = await connect(app, game.pk)
    await communicator.send_json_to({"type": "ping"})
    assert (await next_of_type(communicator, "pong"))["version"] == 0
    await communicator.send_json_to(["not", "an", "object"])
    assert (await next_of_type(communicator, "error"))["error"] == "bad_message"
    await close(communicator)


async def test_a_server_error_is_answered_and_the_socket_stays_open(app, monkeypatch):
    def broken(*args):
        raise RuntimeError("database down")

    game = await sync_to_async(make_game)()
    user = await sync_to_async(lambda: game.seats.first().user)()
    communicator = await connect(app, game.pk, user)
    monkeypatch.setattr(chat, "do_send_message", broken)
    await communicator.send_json_to({"type": "chat", "channel": "table", "text": "hi"})
    assert (await next_of_type(communicator, "error"))["error"] == "server_error"
    await communicator.send_json_to({"type": "ping"})
    assert (await next_of_type(communicator, "pong"))["type"] == "pong"
    await close(communicator)
