"""Handshakes in a storm (issue 28): the sockets' database work runs on a pool of threads of its own
(westeros/socket_db.py), so one socket's slow call does not hold up another's handshake; a few
handshakes proceed at a time, in the order they came (HandshakeGate), and one whose client left while
it waited is never started, nor the rest of one whose client left during its connect; a burst of
presence changes reaches the table as one broadcast with the final state."""
from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from games import consumers
from games.models import Presence
from games.services.notify import seat_group, table_group
from tests.factories import make_game, make_user
from westeros.asgi import websocket_application
from westeros.socket_db import HandshakeGate

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
WAIT = 30  # seconds a condition may take on a busy machine before the test fails


@pytest.fixture
def app(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    return websocket_application()


def socket(app, game_id: int, user) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(app, f"/ws/games/{game_id}/", headers=HEADERS)
    communicator.scope["user"] = user
    return communicator


class Held:
    """Blocks the game socket's viewer check (run in a socket thread) for one user until released."""

    def __init__(self, monkeypatch, user) -> None:
        self.user_id = user.pk
        self.entered = threading.Event()
        self.release = threading.Event()
        self.threads: list[str] = []
        can_view = consumers.queries.can_view

        def held_can_view(game, viewer, invite=None):
            self.threads.append(threading.current_thread().name)
            if getattr(viewer, "pk", None) == self.user_id:
                self.entered.set()
                assert self.release.wait(WAIT), "never released"
            return can_view(game, viewer, invite)

        monkeypatch.setattr(consumers.queries, "can_view", held_can_view)

    async def wait_entered(self) -> None:
        assert await asyncio.to_thread(self.entered.wait, WAIT), "the held socket never reached its database call"


async def until(condition) -> None:
    """Yield to the event loop until `condition()` holds (each turn lets a queued message move on)."""
    for _ in range(10_000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")


async def test_a_socket_whose_database_call_is_blocked_does_not_hold_up_another_handshake(app, monkeypatch):
    game = await sync_to_async(make_game)()
    seats = await sync_to_async(lambda: [(s.seat, s.user) for s in game.seats.order_by("position")])()
    (first_seat, first_user), (second_seat, second_user) = seats[:2]
    held = Held(monkeypatch, first_user)
    first, second = socket(app, game.id, first_user), socket(app, game.id, second_user)
    first_connecting = asyncio.create_task(first.connect(timeout=WAIT))
    await held.wait_entered()

    connected, _ = await second.connect(timeout=WAIT)  # one sync thread for every socket: never returned
    assert connected
    assert (await second.receive_json_from(timeout=WAIT))["seat"] == second_seat
    assert not first_connecting.done()  # still held, while the second socket is in

    held.release.set()
    assert (await first_connecting)[0]
    assert (await first.receive_json_from(timeout=WAIT))["seat"] == first_seat
    assert all(name.startswith("socket-db") for name in held.threads)  # the sockets' pool, not asgiref's thread
    await first.disconnect()
    await second.disconnect()


async def test_a_handshake_whose_client_left_during_connect_stops_there(app, monkeypatch):
    game = await sync_to_async(make_game)()
    user = await sync_to_async(lambda: game.seats.get(seat="stark").user)()
    held = Held(monkeypatch, user)
    arrived = []

    async def arrive(*args):
        arrived.append(args)

    monkeypatch.setattr(consumers.GameConsumer, "_arrive", arrive)
    communicator = socket(app, game.id, user)
    await communicator.send_input({"type": "websocket.connect"})
    await held.wait_entered()
    await communicator.send_input({"type": "websocket.disconnect", "code": 1006})  # Daphne dropped it
    await until(communicator.input_queue.empty)  # read ahead while connect() waits on the database
    for _ in range(10):  # the read-ahead hands the message on in a few loop turns
        await asyncio.sleep(0)

    held.release.set()
    await communicator.wait(timeout=WAIT)  # the consumer ended
    assert arrived == []  # neither presence nor version read: work for nobody
    assert await sync_to_async(Presence.objects.filter(game=game).count)() == 0
    layer = get_channel_layer()
    if hasattr(layer, "groups"):  # the in-memory layer: the groups it joined were left
        assert not any(layer.groups.get(name) for name in (table_group(game.id), seat_group(game.id, "stark")))
    assert communicator.output_queue.empty()  # never accepted


class Recorder:
    """An ASGI websocket application that records the handshakes it sees and accepts each when told."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.go: dict[str, asyncio.Event] = {}

    async def __call__(self, scope, receive, send) -> None:
        name = scope["path"]
        assert (await receive())["type"] == "websocket.connect"
        self.seen.append(name)
        await self.go.setdefault(name, asyncio.Event()).wait()
        await send({"type": "websocket.accept"})
        while (await receive())["type"] != "websocket.disconnect":
            pass

    def let(self, name: str) -> None:
        self.go.setdefault(name, asyncio.Event()).set()


async def test_handshakes_take_their_turn_in_order_and_one_whose_client_left_is_never_started(settings):
    settings.WEBSOCKET_DB_THREADS = 1  # two handshakes at a time
    import westeros.socket_db as socket_db

    socket_db._gates.clear()
    recorder = Recorder()
    gate = HandshakeGate(recorder)
    clients = {name: WebsocketCommunicator(gate, name) for name in ("/a/", "/b/", "/c/", "/d/", "/e/")}
    connecting = {}
    for name, client in clients.items():
        connecting[name] = asyncio.create_task(client.connect(timeout=WAIT))
        await until(client.input_queue.empty)  # the gate has it: the next one comes after
    await until(lambda: len(recorder.seen) == 2)
    assert recorder.seen == ["/a/", "/b/"]  # the others wait for a slot

    await clients["/c/"].send_input({"type": "websocket.disconnect", "code": 1006})  # c's client leaves
    await clients["/c/"].wait(timeout=WAIT)
    recorder.let("/a/")
    assert (await connecting["/a/"])[0]
    await until(lambda: len(recorder.seen) == 3)
    recorder.let("/b/")
    await until(lambda: len(recorder.seen) == 4)
    assert recorder.seen == ["/a/", "/b/", "/d/", "/e/"]  # in the order they came; c never started
    for name in ("/d/", "/e/"):
        recorder.let(name)
        assert (await connecting[name])[0]
    for name in ("/a/", "/b/", "/d/", "/e/"):
        await clients[name].disconnect()
    connecting["/c/"].cancel()


async def test_a_burst_of_arrivals_reaches_the_table_as_one_presence_with_everyone(app, monkeypatch):
    window_over = asyncio.Event()

    async def window_passes():
        await window_over.wait()

    monkeypatch.setattr(consumers, "window_passes", window_passes)
    game = await sync_to_async(make_game)(players=4)
    users = await sync_to_async(lambda: [s.user for s in game.seats.order_by("position")])()
    spectator = await sync_to_async(make_user)()
    first = socket(app, game.id, users[0])
    assert (await first.connect(timeout=WAIT))[0]
    presences = []
    while not presences:
        message = await first.receive_json_from(timeout=WAIT)
        if message["type"] == "presence":
            presences.append(message["connected"])
    assert presences == [[users[0].username]]  # the first change goes out at once
    others = [socket(app, game.id, user) for user in [*users[1:], spectator]]
    for other in others:
        assert (await other.connect(timeout=WAIT))[0]
    assert await sync_to_async(Presence.objects.filter(game=game).count)() == 5

    window_over.set()  # the window ends: one broadcast, read now
    everyone = sorted(u.username for u in [*users, spectator])
    while presences[-1] != everyone:
        message = await first.receive_json_from(timeout=WAIT)
        if message["type"] == "presence":
            presences.append(message["connected"])
    assert presences == [[users[0].username], everyone]  # not one broadcast per arrival
    for communicator in [first, *others]:
        await communicator.disconnect()


# --- a read asked again when SQLite's shared cache finds its table locked -------------------------


async def test_a_read_is_asked_again_while_its_table_is_locked_and_other_errors_pass_at_once(monkeypatch):
    from django.db import OperationalError

    from westeros import socket_db

    waits: list[float] = []
    monkeypatch.setattr(socket_db.time, "sleep", waits.append)  # the waits written down, not waited
    answers = iter([OperationalError("database table is locked: django_session")] * 2 + ["valid"])

    def read():
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert socket_db.read_again_when_locked(read)() == "valid"
    assert waits == [0.01, 0.02]

    def broken():
        raise OperationalError("no such table: django_session")

    waits.clear()
    with pytest.raises(OperationalError, match="no such table"):
        socket_db.read_again_when_locked(broken)()
    assert waits == []  # not a lock: said at once

    calls = []

    def always_locked():
        calls.append(1)
        raise OperationalError("database table is locked")

    with pytest.raises(OperationalError, match="locked"):
        socket_db.read_again_when_locked(always_locked)()
    assert len(calls) == socket_db.READ_ATTEMPTS  # then it gives up and says so
