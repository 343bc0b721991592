"""No request can hurt others (issue 28): the site's Daphne (westeros/asgi_server.py, which the
systemd unit and `manage.py serve` run) bounds request bodies before reading them.

Found by fault injection: a 16 MB urlencoded POST froze a Daphne process for 15.7 s (Twisted parsed
the form in the event loop before Django's 413), a chunked 100 MB body was read whole and answered
400, and an oversized websocket message dropped the connection without a close code. Now:
- a body whose Content-Length is over REQUEST_BODY_MAX_SIZE is answered 413 before any of it is
  sent, and a chunked one as soon as it passes the limit;
- Twisted parses no form body (the in-process tests below feed a connection byte by byte);
- a body being sent slowly holds no one up, and a body at the limits is read (Django's own limit,
  DATA_UPLOAD_MAX_MEMORY_SIZE, is the one a request meets first);
- a websocket message over WEBSOCKET_MAX_MESSAGE_SIZE is closed with 1009.
Every wait is on a condition (an answer, a closed socket), under generous ceilings."""
from __future__ import annotations

import asyncio
import json
import select
import socket
import sys
import urllib.request

import pytest
import websockets
from django.conf import settings
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from tests.live_server import running_server
from westeros import asgi_server
from westeros.asgi_server import BoundedHTTPFactory, BoundedRequest, BoundedServer

LAUNCHER = [sys.executable, "-m", "westeros.asgi_server", "-e", "tcp:port={port}:interface=127.0.0.1",
            "westeros.asgi:application"]
SERVE = [sys.executable, "manage.py", "serve", "127.0.0.1:{port}", "--noreload"]
CEILING = 60  # seconds a socket waits for an answer that must come


# --------------------------------------------------------------------------- in process: what Twisted is fed

class HalfClosingTransport(StringTransport):
    write_closed = False

    def loseWriteConnection(self):
        self.write_closed = True


class Recorded(BoundedRequest):
    """A BoundedRequest that records that Daphne would have handed it to the application."""

    def process(self):
        self.channel.factory.processed.append(self)


@pytest.fixture
def connection(monkeypatch):
    """A server connection on a fake transport (nothing listens); the limit is 100 bytes."""
    clock = Clock()
    monkeypatch.setattr(asgi_server, "reactor", clock)
    server = BoundedServer(application=None, endpoints=["tcp:0"], request_body_max_size=100)
    server.connections = {}
    factory = BoundedHTTPFactory(server)
    factory.reactor = clock
    factory.processed = []
    channel = factory.buildProtocol(IPv4Address("TCP", "127.0.0.1", 40000))
    channel.requestFactory = Recorded
    transport = HalfClosingTransport()
    channel.makeConnection(transport)
    return channel, transport, factory.processed, clock


def test_twisted_leaves_a_form_body_unparsed_for_django(connection):
    channel, transport, processed, _ = connection
    channel.dataReceived(b"POST /lobbies/new HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                         b"Content-Length: 15\r\n\r\nseats=3&name=ab")
    [request] = processed
    assert request.args == {}  # Twisted's own Request would have parsed {b"seats": [b"3"], b"name": [b"ab"]}
    request.content.seek(0)
    assert request.content.read() == b"seats=3&name=ab"  # the body, for Django to parse
    assert transport.value() == b""


def test_a_body_announced_over_the_limit_is_refused_unread(connection):
    channel, transport, processed, clock = connection
    channel.dataReceived(b"POST /api/v1/lobbies HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Expect: 100-continue\r\nContent-Length: 101\r\n\r\n")
    answer = transport.value()
    assert answer.startswith(b"HTTP/1.1 413 Content Too Large\r\n") and b"100 Continue" not in answer
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"] == "too_large"  # the API's error shape
    channel.dataReceived(b"x" * 60)  # a client that sends it anyway: dropped, never handed on
    assert processed == [] and transport.value() == answer
    # Half-closed: the answer and a FIN go out, what still comes is read and dropped for a while...
    assert transport.write_closed and not transport.disconnecting
    clock.advance(asgi_server.LINGER_SECONDS)
    assert transport.disconnected  # ... LINGER_SECONDS at most (aborted)


def test_a_refused_connection_drops_at_most_another_limit_s_worth(connection):
    channel, transport, _, _ = connection
    channel.dataReceived(b"POST /lobbies/new HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n")
    channel.dataReceived(b"x" * 60)
    assert not transport.disconnected
    channel.dataReceived(b"x" * 60)  # 120 bytes dropped: more than the limit (100)
    assert transport.disconnected  # aborted


def test_a_chunked_body_is_refused_when_it_passes_the_limit(connection):
    channel, transport, processed, _ = connection
    channel.dataReceived(b"POST /lobbies/new HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
    channel.dataReceived(b"64\r\n" + b"x" * 100 + b"\r\n")  # 100 bytes: at the limit, still read
    assert transport.value() == b""
    channel.dataReceived(b"1\r\nx\r\n")
    assert transport.value().startswith(b"HTTP/1.1 413 ")
    assert b"text/plain" in transport.value()  # a page's path: Django's plain-text 413
    channel.dataReceived(b"0\r\n\r\n")
    assert processed == []


def test_a_body_at_the_limit_is_read(connection):
    channel, transport, processed, _ = connection
    channel.dataReceived(b"POST /api/v1/lobbies HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" + b"x" * 100)
    assert len(processed) == 1 and transport.value() == b""


# --------------------------------------------------------------------------- a real server process

def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP answer: status, headers (lower-case names), body (by Content-Length)."""
    sock.settimeout(CEILING)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed without an answer: {data!r}"
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in lines[1:])}
    chunked = headers.get("transfer-encoding") == "chunked"
    while (not body.endswith(b"0\r\n\r\n")) if chunked else len(body) < int(headers.get("content-length", 0)):
        chunk = sock.recv(65536)
        assert chunk, "closed in the middle of the answer"
        body += chunk
    if chunked:
        decoded = b""
        while not body.startswith(b"0\r\n"):
            size, rest = body.split(b"\r\n", 1)
            decoded, body = decoded + rest[: int(size, 16)], rest[int(size, 16) + 2:]
        body = decoded
    return int(lines[0].split()[1]), headers, body


def request_head(method: str, path: str, **headers: str | int) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1",
             *(f"{name.replace('_', '-')}: {value}" for name, value in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


@pytest.fixture(scope="module")
def server():
    with running_server(LAUNCHER) as live:
        live.manage("shell", "-c", "from accounts.models import User\n"
                                   "User.objects.create_user('alice', 'alice@example.com', 'alice-password')")
        yield live


def connect(server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=CEILING)


@pytest.mark.slow_once  # a server of its own on a SQLite file of its own: the same on both CI passes
@pytest.mark.parametrize("path, content_type", [("/api/v1/auth/token", "application/json"),
                                                ("/lobbies/new", "text/plain; charset=utf-8")])
def test_a_16_mb_post_is_answered_413_before_its_body_is_sent(server, path, content_type):
    with connect(server) as sock:
        sock.sendall(request_head("POST", path, Content_Type="application/x-www-form-urlencoded",
                                  Content_Length=16 * 2**20))
        status, headers, body = read_answer(sock)  # nothing of the body was sent
        assert status == 413 and headers["content-type"] == content_type, body
        assert b"at most 1048576 bytes" in body
        assert sock.recv(1) == b""  # and the connection is closed
    with connect(server) as sock:  # a client that asks first is told no, not "100 Continue"
        sock.sendall(request_head("POST", path, Expect="100-continue", Content_Length=16 * 2**20))
        assert read_answer(sock)[0] == 413
    assert "413 for POST" in server.output()


def chunks_past(limit: int) -> bytes:
    """A chunked body's chunks of 64 KiB until `limit` is passed by 64 KiB or more, without its end."""
    chunk = b"x" * 65536
    return b"%x\r\n%s\r\n" % (len(chunk), chunk) * (limit // len(chunk) + 2)


@pytest.mark.slow_once
def test_a_chunked_body_is_answered_413_once_it_passes_the_limit(server):
    with connect(server) as sock:
        sock.sendall(request_head("POST", "/api/v1/auth/token", Content_Type="application/json",
                                  Transfer_Encoding="chunked"))
        sock.sendall(chunks_past(settings.REQUEST_BODY_MAX_SIZE))  # and no end: the answer comes without it
        status, _, body = read_answer(sock)
    assert status == 413 and json.loads(body)["error"] == "too_large"
    assert "bytes of a body without Content-Length" in server.output()


@pytest.mark.slow_once
def test_a_get_is_answered_while_a_big_body_is_still_being_sent(server):
    body = b"pad=" + b"x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE - 4)
    with connect(server) as upload:
        upload.sendall(request_head("POST", "/api/v1/auth/token", Content_Type="application/x-www-form-urlencoded",
                                    Content_Length=len(body)))
        upload.sendall(body[: len(body) // 2])
        with urllib.request.urlopen(server.url + "/", timeout=CEILING) as answer:
            assert answer.status == 200
        # The upload is still open and unanswered: the server waits for the rest of its body.
        assert select.select([upload], [], [], 0)[0] == []
        upload.sendall(body[len(body) // 2:])
        status, _, answer = read_answer(upload)
    assert status == 400 and "username" in json.loads(answer)["fields"]  # read whole, and parsed by Django


@pytest.mark.slow_once
def test_bodies_at_the_limits_are_read(server):
    # A legitimate request as large as Django takes: JSON padded with spaces to DATA_UPLOAD_MAX_MEMORY_SIZE.
    credentials = json.dumps({"username": "alice", "password": "alice-password", "name": "big"}).encode()
    body = credentials + b" " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE - len(credentials))
    with connect(server) as sock:
        sock.sendall(request_head("POST", "/api/v1/auth/token", Content_Type="application/json",
                                  Content_Length=len(body)) + body)
        status, _, answer = read_answer(sock)
    assert status == 201 and json.loads(answer)["key"], answer
    # A body at the server's limit (over Django's) is read and handed to Django, which refuses it: the
    # answer comes through the application (Daphne names itself), in the same error shape.
    body = b" " * settings.REQUEST_BODY_MAX_SIZE
    with connect(server) as sock:
        sock.sendall(request_head("POST", "/api/v1/auth/token", Content_Type="application/json",
                                  Content_Length=len(body)) + body)
        status, headers, answer = read_answer(sock)
    assert status == 413 and headers.get("server") == "daphne", (headers, answer[:300])
    assert json.loads(answer)["error"] == "too_large", (headers, answer[:300])


@pytest.mark.slow_once
def test_a_websocket_message_over_the_limit_is_closed_with_1009(server):
    async def send_too_much() -> tuple[int | None, str]:
        async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/ping/", origin=server.url,
                                      open_timeout=CEILING) as ws:
            await ws.send(json.dumps({"type": "ping", "pad": "x" * 100}))
            assert json.loads(await asyncio.wait_for(ws.recv(), CEILING))["type"] == "pong"
            await ws.send("x" * (settings.WEBSOCKET_MAX_MESSAGE_SIZE + 1))
            try:
                await asyncio.wait_for(ws.recv(), CEILING)
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None, closed.rcvd.reason if closed.rcvd else ""
            raise AssertionError("the oversized message was answered")

    code, reason = asyncio.run(send_too_much())
    assert code == 1009 and "exceeds payload limit" in reason


@pytest.mark.slow_once
def test_manage_py_serve_refuses_a_body_over_the_limit_too():
    with running_server(SERVE) as live, socket.create_connection(("127.0.0.1", live.port), timeout=CEILING) as sock:
        sock.sendall(request_head("POST", "/api/v1/auth/token", Content_Length=16 * 2**20))
        assert read_answer(sock)[0] == 413


def test_the_limit_is_a_little_above_django_s():
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE < settings.REQUEST_BODY_MAX_SIZE
    assert settings.REQUEST_BODY_MAX_SIZE - settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 64 * 1024

