"""Accounts and sessions that cannot be abused (issue 28, "Accounts and tokens").

Revocation closes live connections at once (accounts/revocation.py): a revoked API token, a
logged-out session or a changed password closes the websockets (games, tournaments, ping) and event
streams opened with it, while a connection of another credential of the same user stays open. A bot
account's browser session cannot chat over the websocket (its token can). Runs on the in-memory
channel layer, and on channels-redis when REDIS_URL is set."""
from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.core.asgi import get_asgi_application
from django.test import Client

from accounts import revocation
from accounts.services import do_revoke_token
from tests.factories import DEFAULT_PASSWORD, make_game, make_token, make_user
from tests.test_event_stream import open_stream
from westeros.asgi import websocket_application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


@pytest.fixture
def ws_app(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    return websocket_application()


@pytest.fixture
def http_app(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    return get_asgi_application()


def logged_in_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def session_cookie(client: Client) -> tuple[bytes, bytes]:
    name = django_settings.SESSION_COOKIE_NAME
    return b"cookie", f"{name}={client.cookies[name].value}".encode()


async def open_socket(app, path: str, *, key: str | None = None, client: Client | None = None):
    headers = list(HEADERS)
    if client is not None:
        headers.append(session_cookie(client))
    if key is not None:
        path = f"{path}?token={key}"
    communicator = WebsocketCommunicator(app, path, headers=headers)
    connected, code = await communicator.connect(timeout=5)
    assert connected, code
    return communicator


async def closed_with(communicator, timeout: float = 5) -> tuple[list[dict], dict]:
    """The messages up to the close, and the close."""
    messages = []
    while True:
        output = await communicator.receive_output(timeout)
        if output["type"] == "websocket.close":
            return messages, output
        messages.append(json.loads(output["text"]))


async def still_answers(communicator) -> None:
    """The socket is open: a ping is answered (other messages in between are skipped)."""
    await communicator.send_json_to({"type": "ping"})
    while True:
        output = await communicator.receive_output(5)
        assert output["type"] != "websocket.close", output
        if json.loads(output["text"])["type"] == "pong":
            return


def assert_revoked(messages: list[dict], close: dict, reason: str) -> None:
    assert close["code"] == revocation.CLOSE_REVOKED
    assert close.get("reason") == reason.replace("_", " ")
    assert messages[-1]["type"] == "error" and messages[-1]["error"] == "credential_revoked"


def game_with_player():
    game = make_game()
    return game, game.seats.get(seat="stark").user


async def test_a_revoked_token_closes_its_game_socket_and_another_token_of_the_user_stays_open(ws_app):
    game, user = await sync_to_async(game_with_player)()
    revoked, revoked_key = await sync_to_async(make_token)(user, "old")
    _, kept_key = await sync_to_async(make_token)(user, "new")
    doomed = await open_socket(ws_app, f"/ws/games/{game.id}/", key=revoked_key)
    kept = await open_socket(ws_app, f"/ws/games/{game.id}/", key=kept_key)
    assert (await doomed.receive_json_from())["seat"] == "stark"

    await sync_to_async(do_revoke_token)(user, revoked.pk)

    messages, close = await closed_with(doomed)
    assert_revoked(messages, close, "token_revoked")
    await still_answers(kept)
    await kept.disconnect()


async def test_a_revoked_token_closes_its_tournament_and_ping_sockets(ws_app):
    from tournaments.models import Tournament

    user = await sync_to_async(make_user)()
    token, key = await sync_to_async(make_token)(user)
    tournament = await sync_to_async(Tournament.objects.create)(name="Cup", organizer=user)
    ping = await open_socket(ws_app, "/ws/ping/", key=key)
    cup = await open_socket(ws_app, f"/ws/tournaments/{tournament.id}/", key=key)
    assert (await cup.receive_json_from())["type"] == "hello"

    await sync_to_async(do_revoke_token)(user, token.pk)

    for communicator in (ping, cup):
        messages, close = await closed_with(communicator)
        assert_revoked(messages, close, "token_revoked")


async def test_the_token_api_revocation_closes_the_socket_too(ws_app):
    from tests.factories import api_client_for

    user = await sync_to_async(make_user)()
    token, key = await sync_to_async(make_token)(user)
    socket = await open_socket(ws_app, "/ws/ping/", key=key)
    response = await sync_to_async(lambda: api_client_for(user).delete(f"/api/v1/me/tokens/{token.pk}"))()
    assert response.status_code == 204
    messages, close = await closed_with(socket)
    assert_revoked(messages, close, "token_revoked")


async def test_logging_out_closes_that_sessions_sockets_and_not_another_sessions(ws_app):
    game, user = await sync_to_async(game_with_player)()
    leaving = await sync_to_async(logged_in_client)(user)
    staying = await sync_to_async(logged_in_client)(user)
    doomed = await open_socket(ws_app, f"/ws/games/{game.id}/", client=leaving)
    kept = await open_socket(ws_app, f"/ws/games/{game.id}/", client=staying)
    assert (await doomed.receive_json_from())["seat"] == "stark"  # the session did authenticate it

    response = await sync_to_async(leaving.post)("/accounts/logout/")
    assert response.status_code == 302

    messages, close = await closed_with(doomed)
    assert_revoked(messages, close, "logged_out")
    await still_answers(kept)
    await kept.disconnect()


async def test_a_password_change_closes_the_sessions_made_before_it_but_not_the_tokens(ws_app):
    game, user = await sync_to_async(game_with_player)()
    changer = await sync_to_async(logged_in_client)(user)
    elsewhere = await sync_to_async(logged_in_client)(user)
    _, key = await sync_to_async(make_token)(user)
    other_session = await open_socket(ws_app, f"/ws/games/{game.id}/", client=elsewhere)
    own_session = await open_socket(ws_app, "/ws/ping/", client=changer)
    script = await open_socket(ws_app, f"/ws/games/{game.id}/", key=key)

    response = await sync_to_async(changer.post)("/accounts/password/change/", {
        "old_password": DEFAULT_PASSWORD, "new_password1": "a-new-long-passphrase-7", "new_password2":
        "a-new-long-passphrase-7"})
    assert response.status_code == 302, response.content[:500]

    for communicator in (other_session, own_session):  # the changing tab's session key changed too
        messages, close = await closed_with(communicator)
        assert_revoked(messages, close, "password_changed")
    await still_answers(script)
    await script.disconnect()
    # the changing browser is still logged in, and a socket it opens now stays open
    fresh = await open_socket(ws_app, "/ws/ping/", client=changer)
    await fresh.send_json_to({"type": "ping"})
    assert (await fresh.receive_json_from())["user"] == user.username
    await fresh.disconnect()


async def test_a_revoked_session_missed_by_the_layer_cannot_chat(ws_app, monkeypatch):
    game, user = await sync_to_async(game_with_player)()
    client = await sync_to_async(logged_in_client)(user)
    socket = await open_socket(ws_app, f"/ws/games/{game.id}/", client=client)
    monkeypatch.setattr(revocation, "announce", lambda *args, **kwargs: None)  # the message is lost
    await sync_to_async(client.post)("/accounts/logout/")

    await socket.send_json_to({"type": "chat", "channel": "table", "text": "still here?"})
    messages, close = await closed_with(socket)
    assert_revoked(messages, close, "logged_out")  # found by asking, the same reason the message gives
    assert not [m for m in messages if m["type"] == "chat"]


async def test_a_bot_accounts_session_cannot_chat_over_the_websocket_but_its_token_can(ws_app):
    game, user = await sync_to_async(game_with_player)()
    user.is_bot = True
    await sync_to_async(user.save)(update_fields=["is_bot"])
    client = await sync_to_async(logged_in_client)(user)
    _, key = await sync_to_async(make_token)(user)
    browser = await open_socket(ws_app, f"/ws/games/{game.id}/", client=client)
    script = await open_socket(ws_app, f"/ws/games/{game.id}/", key=key)

    await browser.send_json_to({"type": "chat", "channel": "table", "text": "hello", "ref": 1})
    while (refusal := await browser.receive_json_from(5))["type"] != "error":
        pass
    assert refusal["error"] == "bot_api_only" and refusal["ref"] == 1

    await script.send_json_to({"type": "chat", "channel": "table", "text": "hello from the token"})
    while (said := await script.receive_json_from(5))["type"] != "chat":
        assert said["type"] != "error", said
    assert said["text"] == "hello from the token"
    await browser.disconnect()
    await script.disconnect()


# The event stream (events/stream.py)

@pytest.fixture
def short_keepalive(monkeypatch):
    from events import stream

    monkeypatch.setattr(stream, "KEEPALIVE_SECONDS", 0.2)


async def stream_ended(s) -> dict:
    """The stream's last event, after which the response ends."""
    last = None
    while True:
        message = await s.communicator.receive_output(5)
        assert message["type"] == "http.response.body"
        s.buffer += message.get("body", b"")
        if not message.get("more_body", False):
            break
    for raw in s.buffer.split(b"\n"):
        if raw.strip():
            last = json.loads(raw)
    return last


async def test_a_revoked_token_ends_its_event_stream_and_another_tokens_stays(http_app, short_keepalive):
    user = await sync_to_async(make_user)()
    revoked, revoked_key = await sync_to_async(make_token)(user, "old")
    _, kept_key = await sync_to_async(make_token)(user, "new")
    doomed = await open_stream(http_app, revoked_key)
    kept = await open_stream(http_app, kept_key)
    await doomed.settled()
    await kept.settled()

    await sync_to_async(do_revoke_token)(user, revoked.pk)

    last = await stream_ended(doomed)
    assert last["type"] == "credentialRevoked" and last["reason"] == "token_revoked"
    for _ in range(3):  # keep-alive ticks go on: the stream checked its token and it is valid
        assert await kept.raw_line() == b""
    await kept.close()


async def test_logging_out_ends_the_sessions_event_stream(http_app, short_keepalive):
    from asgiref.testing import ApplicationCommunicator

    from tests.test_event_stream import PATH, Stream

    user = await sync_to_async(make_user)()
    client = await sync_to_async(logged_in_client)(user)
    name, value = session_cookie(client)
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": PATH, "raw_path": PATH.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"testserver"), (name, value)], "client": ("127.0.0.1", 40000),
             "server": ("testserver", 80)}
    communicator = ApplicationCommunicator(http_app, scope)
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(5)
    assert start["status"] == 200
    s = Stream(communicator, start)
    await s.settled()

    await sync_to_async(client.post)("/accounts/logout/")

    last = await stream_ended(s)
    assert last["type"] == "credentialRevoked" and last["reason"] == "logged_out"


async def test_a_stream_whose_revocation_message_was_lost_ends_at_its_next_check(http_app, short_keepalive,
                                                                                   monkeypatch):
    user = await sync_to_async(make_user)()
    token, key = await sync_to_async(make_token)(user)
    s = await open_stream(http_app, key)
    await s.settled()
    monkeypatch.setattr(revocation, "announce", lambda *args, **kwargs: None)  # the message is lost

    await sync_to_async(token.revoke)()

    last = await stream_ended(s)  # found by asking: the same reason the lost message would have given
    assert last["type"] == "credentialRevoked" and last["reason"] == "token_revoked"
