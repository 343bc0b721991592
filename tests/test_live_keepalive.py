"""A game socket learns of an update it never received, without another move (issue 28): the channel
layer may drop a message (channels-redis expires what waited too long under overload), so the server
sends each game socket a keep-alive carrying the game's version (games/consumers.py, Keepalive), and
a client that is behind re-fetches. Runs on SQLite and the in-memory layer, and on PostgreSQL and
Redis when DATABASE_URL and REDIS_URL are set."""
from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import consumers
from games.engine import get_ruleset
from games.models import Game
from games.services import notify
from games.services.play import do_submit_action
from tests.factories import make_game, make_user
from westeros import live
from westeros.asgi import websocket_application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
AGOT = get_ruleset("agot")
HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
WAIT = 20  # seconds: a ceiling for a loaded machine; every wait ends on its condition


@pytest.fixture
def app(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.LIVE_KEEPALIVE_SECONDS = 1
    return websocket_application()


async def connect(app, game_id: int, user) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(app, f"/ws/games/{game_id}/", headers=HEADERS)
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from(timeout=WAIT))["type"] == "hello"
    return communicator


async def next_of_type(communicator, kind: str | tuple[str, ...], *, until=lambda message: True) -> dict:
    """The next message of `kind` (or of one of the kinds) for which `until` holds, the others passed
    over, within WAIT seconds in all: keep-alives keep coming, so a wait per message would never end."""
    async with asyncio.timeout(WAIT):
        while True:
            message = await communicator.receive_json_from(timeout=WAIT)
            if message["type"] in ((kind,) if isinstance(kind, str) else kind) and until(message):
                return message


def act(game: Game, seat: str) -> int:
    """`seat` places its default orders; returns the game's new version."""
    game.refresh_from_db()
    user = game.seats.get(seat=seat).user
    do_submit_action(game.id, user, action=AGOT.default_action(game.state, seat), version=game.version)
    return Game.objects.get(pk=game.id).version


def act_without_live_update(game: Game, seat: str, monkeypatch) -> int:
    """`act`, but the update the commit sends never reaches the layer (as a message channels-redis
    dropped)."""
    dropped = []
    with monkeypatch.context() as patched:
        patched.setattr(live, "send_in_order", lambda layer, messages, *args: dropped.extend(messages))
        version = act(game, seat)
    assert any(message["type"] == "game.update" for _, message in dropped), "the commit sent no update to drop"
    return version


async def test_a_socket_whose_update_was_dropped_gets_the_new_version_from_the_keepalive(app, monkeypatch):
    game = await sync_to_async(make_game)()
    stark_user = await sync_to_async(lambda: game.seats.get(seat="stark").user)()
    stark = await connect(app, game.id, stark_user)
    watcher = await connect(app, game.id, await sync_to_async(make_user)())

    version = await sync_to_async(act_without_live_update)(game, "lannister", monkeypatch)
    assert version > 0

    got = [await next_of_type(socket, "keepalive", until=lambda m: m["version"] == version)
           for socket in (stark, watcher)]
    # the version and nothing else, the same for a seat and a spectator: no hidden information
    assert got == [{"type": "keepalive", "version": version}] * 2
    # the socket's updates go on from that version: the next commit's update reaches it at once,
    # not after a wait for the update it never got and a gap notice
    await sync_to_async(act)(game, "baratheon")
    update = await next_of_type(stark, ("update", "gap"))
    assert update["type"] == "update" and update["from_version"] == version, update
    await stark.disconnect()
    await watcher.disconnect()


async def test_an_idle_socket_gets_a_keepalive_with_the_version_it_has(app):
    game = await sync_to_async(make_game)()
    socket = await connect(app, game.id, await sync_to_async(make_user)())
    assert await next_of_type(socket, "keepalive") == {"type": "keepalive", "version": 0}
    await socket.disconnect()


async def test_the_keepalive_is_off_at_zero(app, settings):
    settings.LIVE_KEEPALIVE_SECONDS = 0
    game = await sync_to_async(make_game)()
    socket = await connect(app, game.id, await sync_to_async(make_user)())
    assert consumers.keepalive_of_this_loop().sockets == {}
    await socket.disconnect()


class Recorder:
    """A stand-in socket for the ticker: what it was given."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.calls: list[int] = []

    async def keepalive(self, version: int, now: float, interval: float) -> None:
        self.calls.append(version)


async def test_one_query_per_tick_reads_every_game_whatever_the_number_of_sockets(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 3600  # the ticker's own task sleeps; the test ticks by hand
    games = [await sync_to_async(make_game)(seed=n) for n in range(3)]
    keepalive = consumers.Keepalive()
    sockets = [Recorder(game.id) for game in games for _ in range(40)]
    for socket in sockets:
        keepalive.add(socket)
    await sync_to_async(Game.objects.filter(pk=games[1].pk).update)(version=7)

    def tick():
        with CaptureQueriesContext(connection) as queries:
            consumers.versions_of(list(keepalive.sockets))
        return len(queries)

    assert await sync_to_async(tick, thread_sensitive=False)() == 1
    await keepalive.tick(1.0)
    assert [s.calls for s in sockets if s.game_id == games[1].pk] == [[7]] * 40
    assert [s.calls for s in sockets if s.game_id == games[0].pk] == [[0]] * 40
    for socket in sockets:
        keepalive.discard(socket)
    assert keepalive.sockets == {}
    keepalive.task.cancel()


async def ticked_by_hand(app, monkeypatch, settings):
    """A spectator's socket on a new game, its consumer and the keep-alive's clock (`now[0]`), driven by hand:
    the process's own ticker sleeps."""
    settings.LIVE_KEEPALIVE_SECONDS = 3600
    now = [1000.0]
    monkeypatch.setattr(consumers, "clock", lambda: now[0])
    game = await sync_to_async(make_game)()
    socket = await connect(app, game.id, await sync_to_async(make_user)())
    consumer = next(iter(consumers.keepalive_of_this_loop().sockets[game.id]))
    await next_of_type(socket, "presence")
    return game, socket, consumer, now


async def test_a_socket_behind_for_a_whole_interval_is_told_at_once_and_a_busy_one_only_when_idle(app, monkeypatch,
                                                                                                   settings):
    """The scheduling, on the real consumer with a hand-driven clock: a socket that was just sent
    something gets no keep-alive; one that the game has been ahead of for a whole interval gets it
    (a shorter lag may be an update still on its way), however busy it is."""
    game, socket, consumer, now = await ticked_by_hand(app, monkeypatch, settings)
    interval = 2.0

    await consumer.keepalive(0, now[0] + 0.5, interval)  # sent to half a second ago: not idle
    assert await socket.receive_nothing(timeout=0.2)
    await consumer.keepalive(3, now[0] + 0.5, interval)  # behind, first seen: perhaps in flight
    assert await socket.receive_nothing(timeout=0.2)
    await consumer.keepalive(3, now[0] + 1.5, interval)  # a second later: perhaps still in flight
    assert await socket.receive_nothing(timeout=0.2)
    consumer.last_sent = now[0] + 2.4  # busy: something else was just sent
    await consumer.keepalive(3, now[0] + 2.5, interval)  # behind for the whole interval: told now
    assert await socket.receive_json_from(timeout=WAIT) == {"type": "keepalive", "version": 3}
    assert consumer.delivered == 3
    # an update from the version it was told goes straight out; an older one is covered
    layer = get_channel_layer()
    group = notify.spectator_group(game.id)
    await layer.group_send(group, {"type": "game.update", "from_version": 2, "version": 3, "status": "active",
                                   "events": [], "seats_changed": False})
    await layer.group_send(group, {"type": "game.update", "from_version": 3, "version": 4, "status": "active",
                                   "events": [], "seats_changed": False})
    assert (await next_of_type(socket, "update"))["from_version"] == 3
    now[0] += 10  # idle for longer than the interval: a keep-alive with what it has
    await consumer.keepalive(4, now[0], interval)
    assert await socket.receive_json_from(timeout=WAIT) == {"type": "keepalive", "version": 4}
    await socket.disconnect()
    await asyncio.sleep(0)
    assert game.id not in consumers.keepalive_of_this_loop().sockets


async def test_an_idle_socket_whose_update_is_on_its_way_still_gets_it(app, monkeypatch, settings):
    """An idle socket's keep-alive that falls between a commit and its update's arrival says the version the
    socket has, not the game's: the update then arrives and goes out (before, the keep-alive told the newer
    version and the update that followed was dropped as older: a game's first update, lost on most of its
    sockets, in the fan-out benchmark). Still not there a whole interval later, the socket is told."""
    game, socket, consumer, now = await ticked_by_hand(app, monkeypatch, settings)
    interval = 2.0
    now[0] += 10  # idle for longer than the interval

    await consumer.keepalive(1, now[0], interval)  # the game at 1, its update still on its way
    assert await socket.receive_json_from(timeout=WAIT) == {"type": "keepalive", "version": 0}
    layer = get_channel_layer()
    group = notify.spectator_group(game.id)
    await layer.group_send(group, {"type": "game.update", "from_version": 0, "version": 1, "status": "active",
                                   "events": [{"type": "orders_placed", "house": "lannister"}], "seats_changed": False})
    update = await next_of_type(socket, ("update", "gap"))
    assert update["type"] == "update" and (update["from_version"], update["version"]) == (0, 1), update
    assert consumer.delivered == 1

    await consumer.keepalive(2, now[0] + 0.5, interval)  # the next update never comes: told once it is late
    await consumer.keepalive(2, now[0] + 2.6, interval)
    assert await next_of_type(socket, "keepalive", until=lambda m: m["version"] == 2) == {"type": "keepalive",
                                                                                          "version": 2}
    assert consumer.delivered == 2
    await socket.disconnect()


async def test_a_tick_lets_the_loop_run_between_batches_of_sockets(settings):
    """A tick telling 1,200 idle sockets held the server's loop for 100-170 ms, and every update arriving
    meanwhile waited (the fan-out benchmark's slowest samples): it lets other work run every
    KEEPALIVES_AT_ONCE sockets."""
    settings.LIVE_KEEPALIVE_SECONDS = 3600  # the ticker's own task sleeps; the test ticks by hand
    game = await sync_to_async(make_game)()
    order: list[str] = []

    class Told(Recorder):
        async def keepalive(self, version: int, now: float, interval: float) -> None:
            order.append("socket")

    keepalive = consumers.Keepalive()
    sockets = [Told(game.id) for _ in range(consumers.KEEPALIVES_AT_ONCE * 3)]
    for socket in sockets:
        keepalive.add(socket)
    ticking = True

    async def other_work() -> None:
        while ticking:
            order.append("other")
            await asyncio.sleep(0)

    other = asyncio.get_running_loop().create_task(other_work())
    await asyncio.sleep(0)
    await keepalive.tick(1.0)
    ticking = False
    await other
    told = [i for i, what in enumerate(order) if what == "socket"]
    assert len(told) == len(sockets)
    between = order[told[0]:told[-1]].count("other")
    assert between >= 2, order  # the loop ran between the batches, not only after the tick
    for socket in sockets:
        keepalive.discard(socket)
    keepalive.task.cancel()
