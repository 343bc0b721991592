"""Websocket frames are limited per socket (issue 28, westeros/consumers.py FrameLimits): a token bucket
of WEBSOCKET_FRAME_BURST (50) frames refilled at WEBSOCKET_FRAME_RATE (20) a second, and a message
size. Found by fault injection: 10,000 frames on one socket were each handled, with a database round
trip each.

The bucket's clock is the test's (westeros.consumers.clock): a burst is frames sent while it stands
still, a person's pace is the clock moved on between frames, so nothing depends on how fast this
machine is. Daphne's own size limit (a close frame 1009) is tested against a real server in
tests/test_body_limits.py; here, the consumer's, for a server that lets a large message through."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.consumers import GameConsumer
from games.engine import get_ruleset
from games.services.play import do_submit_action
from tests.factories import make_game
from westeros import consumers
from westeros.asgi import websocket_application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
WAIT = 30  # seconds an expected message may take (a ceiling, not a measure)
BURST, RATE = 50, 20


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(consumers, "clock", clock)
    return clock


@pytest.fixture
def app(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    assert (settings.WEBSOCKET_FRAME_BURST, settings.WEBSOCKET_FRAME_RATE) == (BURST, RATE)  # the defaults
    return websocket_application()


async def open_socket(app, path: str, user=None) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(app, path, headers=HEADERS)
    if user is not None:
        communicator.scope["user"] = user
    connected, code = await communicator.connect(timeout=WAIT)
    assert connected, code
    return communicator


async def game_socket(app, game, seat: str | None = None) -> WebsocketCommunicator:
    user = await sync_to_async(lambda: game.seats.get(seat=seat).user)() if seat else None
    communicator = await open_socket(app, f"/ws/games/{game.id}/", user)
    assert (await communicator.receive_json_from(timeout=WAIT))["type"] == "hello"
    assert (await communicator.receive_json_from(timeout=WAIT))["type"] == "presence"
    return communicator


async def until_closed(communicator) -> tuple[list[dict], int]:
    """Every message the socket sends until it closes, and the close code."""
    import json

    messages = []
    while True:
        output = await communicator.receive_output(timeout=WAIT)
        if output["type"] == "websocket.close":
            return messages, output.get("code")
        messages.append(json.loads(output["text"]))


def counting(monkeypatch, consumer_class, method: str) -> list[int]:
    """Count the calls of a consumer's handler (the part of a frame that does work)."""
    calls = []
    original = getattr(consumer_class, method)

    async def counted(self, *args, **kwargs):
        calls.append(1)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(consumer_class, method, counted)
    return calls


async def test_a_burst_of_1000_frames_does_a_bucket_s_worth_of_work_and_ends_in_4008(app, clock, monkeypatch):
    game = await sync_to_async(make_game)()
    socket = await game_socket(app, game)
    handled = counting(monkeypatch, GameConsumer, "receive_json")  # each ping reads the game's version
    for _ in range(1000):
        await socket.send_json_to({"type": "ping"})
    messages, code = await until_closed(socket)
    assert code == consumers.CLOSE_TOO_MANY_FRAMES == 4008
    kinds = [m["type"] if m["type"] != "error" else m["error"] for m in messages]
    # 50 frames handled, one warning when the first was dropped, one notice when another 50 were: closed.
    assert kinds == ["pong"] * BURST + ["rate_limited", "too_many_frames"], kinds
    assert "20 a second" in messages[BURST]["detail"]
    assert len(handled) == BURST  # the database was read for those 50 only
    await socket.disconnect()
    assert len(handled) == BURST  # the 900 frames still queued when it closed were dropped unread


async def test_a_person_s_pace_is_never_limited_and_a_pause_refills_the_bucket(app, clock):
    game = await sync_to_async(make_game)()
    socket = await game_socket(app, game, "stark")
    for _ in range(300):  # 15 s of pings at 20 a second: every one answered
        clock.now += 1 / RATE
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_json_from(timeout=WAIT) == {"type": "pong", "version": 0}
    for _ in range(2):  # a pause (the bucket fills up again), then a burst of 50: twice
        clock.now += BURST / RATE
        for _ in range(BURST):
            await socket.send_json_to({"type": "ping"})
        for _ in range(BURST):
            assert (await socket.receive_json_from(timeout=WAIT))["type"] == "pong"
    # A frame over the bucket is dropped with a warning, and the socket stays open: a pause, and on.
    clock.now += BURST / RATE
    for _ in range(BURST + 1):
        await socket.send_json_to({"type": "ping"})
    answers = [await socket.receive_json_from(timeout=WAIT) for _ in range(BURST + 1)]
    assert [a["type"] for a in answers].count("pong") == BURST
    assert answers[-1]["error"] == "rate_limited"
    clock.now += 1
    await socket.send_json_to({"type": "ping"})
    assert (await socket.receive_json_from(timeout=WAIT))["type"] == "pong"
    await socket.disconnect()


async def test_play_over_a_socket_is_unaffected(app, clock):
    """Updates of actions, chat in both directions and pings, at the pace of a table."""
    game = await sync_to_async(make_game)()
    stark = await game_socket(app, game, "stark")
    lannister = await game_socket(app, game, "lannister")

    def act(seat: str):
        game.refresh_from_db()
        user = game.seats.get(seat=seat).user
        action = get_ruleset("agot").default_action(game.state, seat)
        return do_submit_action(game.id, user, action=action, version=game.version)

    for seat in ("lannister", "stark", "baratheon"):
        clock.now += 1
        await sync_to_async(act)(seat)
        await stark.send_json_to({"type": "chat", "channel": "table", "text": f"{seat} has ordered"})
        for socket in (stark, lannister):
            seen = set()
            while not {"update", "chat"} <= seen:
                message = await socket.receive_json_from(timeout=WAIT)
                assert message["type"] not in ("error",), message
                seen.add(message["type"])
    await stark.send_json_to({"type": "ping"})
    assert (await stark.receive_json_from(timeout=WAIT))["version"] >= 3
    for socket in (stark, lannister):
        await socket.disconnect()


@pytest.mark.parametrize("path", ["/ws/ping/", "/ws/games/{game}/", "/ws/tournaments/{tournament}/"])
async def test_every_socket_is_held_to_the_limits(app, clock, path):
    from tests.factories import make_user
    from tournaments.services import TournamentSettings, do_create_tournament

    game = await sync_to_async(make_game)()
    tournament = await sync_to_async(lambda: do_create_tournament(make_user(), TournamentSettings(name="Cup")))()
    socket = await open_socket(app, path.format(game=game.id, tournament=tournament.id))
    greeting = 0 if path == "/ws/ping/" else 2 if "games" in path else 1  # hello (and presence)
    for _ in range(greeting):
        await socket.receive_json_from(timeout=WAIT)
    for _ in range(200):
        await socket.send_to(text_data='{"type": "ping"}')
    messages, code = await until_closed(socket)
    assert code == 4008
    assert len(messages) == BURST + 2 and messages[-1]["error"] == "too_many_frames"
    await socket.disconnect()


@pytest.mark.parametrize("text, refused", [
    ("x" * (64 * 1024), False),  # at the limit: read (and answered: not JSON)
    ("x" * (64 * 1024 + 1), True),
    ("é" * (32 * 1024), False),  # 64 KiB in UTF-8
    ("€" * 22000, True),  # 22,000 characters but 66,000 bytes: bytes are what count
])
async def test_a_message_over_the_size_limit_closes_the_socket(app, clock, text, refused):
    socket = await open_socket(app, "/ws/ping/")
    await socket.send_to(text_data=text)
    if refused:
        messages, code = await until_closed(socket)
        assert messages == [] and code == consumers.CLOSE_MESSAGE_TOO_BIG == 4009
    else:
        assert (await socket.receive_json_from(timeout=WAIT))["error"] == "bad_message"
    await socket.disconnect()


async def test_a_binary_message_over_the_size_limit_closes_the_socket(app, clock):
    socket = await open_socket(app, "/ws/ping/")
    await socket.send_to(bytes_data=b"\0" * (64 * 1024 + 1))
    assert (await until_closed(socket))[1] == 4009
    await socket.disconnect()
