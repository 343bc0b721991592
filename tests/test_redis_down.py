"""Redis down: no 500 anywhere. Log-ins (the token endpoint and the form) are refused with 503
because the throttle cannot be checked (fail closed, accounts/throttle.py); chat stores the message
and says live delivery is unavailable, still rate-limited per process; websockets are accepted and
closed with 4503 instead of failing the handshake, and an open one is closed the same way.

Each test starts its own redis-server on a free port, points the cache and the channel layer at it,
checks the feature works, then kills it. The shared Redis is never touched, so these run the same
on SQLite without REDIS_URL and in CI (a missing redis-server fails them: tests/celery_worker.py)."""
from __future__ import annotations

import json
import os
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import close_old_connections
from django.test import RequestFactory
from django.urls import reverse

from accounts.models import ApiToken
from chat.models import ChatMessage
from games.models import Presence
from tests.celery_worker import PrivateRedis, free_port
from tests.celery_worker import private_redis as redis_server
from tests.factories import DEFAULT_PASSWORD, api_client_for, make_game, make_user
from tests.live_server import stop_process
from westeros.asgi import websocket_application
from westeros.middleware import DatabaseUnavailableMiddleware

ROOT = Path(__file__).resolve().parent.parent
HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


@pytest.fixture
def private_redis(settings) -> Iterator[PrivateRedis]:
    """The cache and the channel layer on a private redis-server (killed by the test)."""
    with redis_server() as server:
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                       "LOCATION": server.url}}
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                               "CONFIG": {"hosts": [server.url]}}}
        settings.ALLOWED_HOSTS = ["testserver"]
        yield server


def assert_unavailable(response) -> dict:
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == "5"
    body = response.json()
    assert set(body) == {"error", "detail", "fields"} and body["error"] == "unavailable"
    return body


@pytest.mark.django_db
def test_the_token_endpoint_refuses_log_ins_with_503_when_the_throttle_cannot_be_checked(api, private_redis):
    user = make_user()
    url = reverse("api-password-token")
    wrong = api.post(url, {"username": user.username, "password": "wrong", "name": "bot"}, format="json")
    assert wrong.status_code == 401
    assert api.post(url, {"username": user.username, "password": DEFAULT_PASSWORD, "name": "bot"},
                    format="json").status_code == 201

    private_redis.stop()

    for password in (DEFAULT_PASSWORD, "wrong"):
        response = api.post(url, {"username": user.username, "password": password, "name": "bot"}, format="json")
        assert "temporarily unavailable" in assert_unavailable(response)["detail"]
    assert ApiToken.objects.filter(user=user).count() == 1  # the one issued while Redis was up


@pytest.mark.django_db
def test_a_redis_that_hangs_makes_a_log_in_wait_seconds_not_forever(api, settings):
    """A Redis that accepts connections but never answers (stuck, or a black-holed network): the
    cache's socket timeouts (settings) turn it into the same 503 after a bounded wait."""
    from django.conf import settings as configured

    with socket.create_server(("127.0.0.1", 0)) as silent:
        port = silent.getsockname()[1]
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                       "LOCATION": f"redis://127.0.0.1:{port}/0",
                                       "OPTIONS": configured.REDIS_CACHE_OPTIONS}}
        user = make_user()
        response = api.post(reverse("api-password-token"),
                            {"username": user.username, "password": DEFAULT_PASSWORD, "name": "bot"}, format="json")
    assert "temporarily unavailable" in assert_unavailable(response)["detail"]


@pytest.mark.django_db
def test_the_log_in_form_says_log_in_is_temporarily_unavailable(client, private_redis):
    user = make_user()
    private_redis.stop()

    response = client.post(reverse("login"), {"username": user.username, "password": DEFAULT_PASSWORD})

    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "Log-in is temporarily unavailable" in response.content.decode()
    assert client.get(reverse("profile")).status_code == 302  # not logged in


@pytest.mark.django_db(transaction=True)
def test_chat_stores_the_message_and_says_live_delivery_is_unavailable(private_redis, settings):
    settings.CHAT_RATE_MESSAGES, settings.CHAT_RATE_SECONDS = 2, 60
    game = make_game()
    client = api_client_for(game.seats.get(seat="stark").user)
    url = reverse("api-game-chat", args=[game.pk])
    up = client.post(url, {"channel": "table", "text": "before"}, format="json")
    assert up.status_code == 201 and "notice" not in up.json()

    private_redis.stop()

    down = client.post(url, {"channel": "table", "text": "during"}, format="json")
    assert down.status_code == 201, down.content
    assert down.json()["text"] == "during" and "live delivery is unavailable" in down.json()["notice"]
    assert list(ChatMessage.objects.filter(game=game).values_list("text", flat=True)) == ["before", "during"]
    # The rate limit goes on in this process (a fresh count: the shared one is out of reach).
    assert client.post(url, {"channel": "table", "text": "again"}, format="json").status_code == 201
    limited = client.post(url, {"channel": "table", "text": "spam"}, format="json")
    assert limited.status_code == 429 and limited.json()["error"] == "rate_limited"
    assert ChatMessage.objects.filter(game=game).count() == 3


def test_the_middleware_answers_a_redis_failure_with_503_in_the_error_shape():
    request = RequestFactory().post("/api/v1/anything")
    response = DatabaseUnavailableMiddleware(lambda r: None).process_exception(
        request, redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused."))
    assert response is not None and response.status_code == 503 and response["Retry-After"] == "5"
    assert b'"error": "unavailable"' in response.content and b"nothing was changed" not in response.content


async def _closed_for_unavailable(communicator: WebsocketCommunicator) -> None:
    """The socket's last words: an error in the API's shape, then close code 4503. The table's presence,
    broadcast when the socket joined, may come before them (the layer delivers it while it can)."""
    error = await communicator.receive_json_from(timeout=5)
    while error["type"] == "presence":
        error = await communicator.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["error"] == "unavailable" and error["fields"] == {}
    closing = await communicator.receive_output(timeout=5)
    assert closing == {"type": "websocket.close", "code": 4503}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_game_websocket_is_closed_with_4503_not_a_500(private_redis):
    app = websocket_application()
    game = await database_sync_to_async(make_game)()
    user = await database_sync_to_async(lambda: game.seats.get(seat="stark").user)()

    open_socket = WebsocketCommunicator(app, f"/ws/games/{game.id}/", headers=HEADERS)
    open_socket.scope["user"] = user
    connected, _ = await open_socket.connect(timeout=5)
    assert connected
    assert (await open_socket.receive_json_from(timeout=5))["type"] == "hello"

    await sync_to_async(private_redis.stop)()

    await _closed_for_unavailable(open_socket)  # the socket that was open
    new_socket = WebsocketCommunicator(app, f"/ws/games/{game.id}/", headers=HEADERS)
    new_socket.scope["user"] = user
    connected, _ = await new_socket.connect(timeout=5)
    assert connected  # the handshake completes (an exception here would be Daphne's HTTP 500)
    await _closed_for_unavailable(new_socket)
    for communicator in (open_socket, new_socket):
        await communicator.wait(timeout=5)  # both applications have ended, no exception
    # Nobody is shown as present on a socket that was closed (disconnect() never ran).
    assert not await database_sync_to_async(Presence.objects.filter(game=game).exists)()
    # The consumers' database thread may still hold a connection the crash left open: close it, or
    # PostgreSQL refuses to drop the test database at the end of the run.
    await database_sync_to_async(close_old_connections)()


@pytest.mark.asyncio
async def test_the_ping_websocket_is_closed_with_4503_not_a_500(private_redis):
    private_redis.stop()
    communicator = WebsocketCommunicator(websocket_application(), "/ws/ping/", headers=HEADERS)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    await _closed_for_unavailable(communicator)


def _read_frame(stream) -> tuple[int, bytes]:
    """One unmasked server frame from a buffered socket file: (opcode, payload)."""
    def exactly(n: int) -> bytes:
        data = stream.read(n)
        assert len(data) == n, "the server closed the TCP connection without a close frame"
        return data

    first, second = exactly(2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack("!H", exactly(2))[0]
    return first & 0x0F, exactly(length)


def test_daphne_completes_the_handshake_and_closes_with_4503(private_redis, tmp_path):
    """The real server. Without the wrapper Daphne answers the crash during the handshake with an
    HTTP 500 or drops the connection; and it refuses close codes other than 1000 and 3000-4999 (so
    1013 cannot be sent). Redis is down from the start and the sockets' grace is 0, so the first failed
    read closes it (tests/test_socket_layer_outage.py covers the grace)."""
    private_redis.stop()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DB_", "DATABASE_", "REDIS_"))}
    env.update(CHANNEL_LAYER_RECEIVE_GRACE="0", REDIS_URL=private_redis.url, DATABASE_URL=f"sqlite:///{tmp_path}/unused.sqlite3", DEBUG="false",
               SECRET_KEY="x" * 50, ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="false", LOG_LEVEL="ERROR")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "westeros.asgi:application"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=10)
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "Daphne did not start within 30 s"
                time.sleep(0.2)
        with sock:
            sock.sendall(
                f"GET /ws/ping/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode())
            stream = sock.makefile("rb")
            status_line = stream.readline()
            assert status_line.split()[1:2] == [b"101"], status_line
            while stream.readline() not in (b"\r\n", b""):
                pass
            frames = [_read_frame(stream) for _ in range(2)]
        (text_op, text), (close_op, close) = frames
        assert text_op == 0x1 and json.loads(text)["error"] == "unavailable"
        assert close_op == 0x8 and struct.unpack("!H", close[:2])[0] == 4503
    finally:
        stop_process(server)


@pytest.mark.django_db
def test_an_action_commits_and_logs_one_line_when_its_live_update_cannot_be_sent(monkeypatch, caplog,
                                                                                 django_capture_on_commit_callbacks):
    from games.engine import get_ruleset
    from games.services import notify
    from games.services.play import do_submit_action

    class DownLayer:
        async def group_send(self, group, message):
            raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(notify, "get_channel_layer", lambda: DownLayer())
    game = make_game()
    stark = game.seats.get(seat="stark")
    with django_capture_on_commit_callbacks(execute=True), caplog.at_level("WARNING", logger="games.services.notify"):
        done = do_submit_action(game.pk, stark.user, version=game.version,
                                action=get_ruleset("agot").default_action(game.state, "stark"))
    assert done.record.version == game.version + 1
    (record,) = [r for r in caplog.records if r.name == "games.services.notify"]
    assert "channel layer is unavailable" in record.getMessage() and record.exc_info is None
