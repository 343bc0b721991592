"""Live updates reach each socket in version order (issue 13, item 9). Each commit sends its
message after committing, so the messages of commits made at the same moment can cross; the game
consumer puts them back in order, waits a bounded time for a missing one, and sends a gap notice
(re-fetch) when it does not come. Runs on SQLite and the in-memory layer, and on PostgreSQL and
Redis when DATABASE_URL and REDIS_URL are set."""
from __future__ import annotations

import asyncio
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import OperationalError, connection

from games import consumers
from games.engine import get_ruleset
from games.models import Game, GameAction
from games.services.notify import events_for, seat_group, table_group
from games.services.play import do_submit_action
from tests.factories import make_game
from westeros.asgi import websocket_application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
AGOT = get_ruleset("agot")
HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
GAMES = 4
WAIT = 5  # seconds: a bound on each wait for a message, far above what any step needs


@pytest.fixture
def app(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    return websocket_application()


async def connect(app, game_id: int, user) -> tuple[WebsocketCommunicator, int]:
    communicator = WebsocketCommunicator(app, f"/ws/games/{game_id}/", headers=HEADERS)
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    hello = await communicator.receive_json_from(timeout=WAIT)
    assert hello["type"] == "hello"
    return communicator, hello["version"]


async def live(communicator, timeout: float = WAIT) -> dict:
    """The next update or gap notice (presence and chat are not ordered by version)."""
    while True:
        message = await communicator.receive_json_from(timeout=timeout)
        if message["type"] in ("update", "gap"):
            return message


def update(start: int, end: int, *, seats_changed: bool = False) -> dict:
    """A group message as games/services/notify.py sends it, with one event per version."""
    return {"type": "game.update", "from_version": start, "version": end, "status": "active",
            "events": [{"type": "marker", "version": v} for v in range(start + 1, end + 1)],
            "seats_changed": seats_changed}


def seen(message: dict) -> tuple:
    if message["type"] == "gap":
        return ("gap", message["version"])
    return (message["from_version"], message["version"], [e["version"] for e in message["events"]])


async def test_crossed_updates_are_put_in_order_and_a_missing_one_becomes_a_gap_notice(app):
    game = await sync_to_async(make_game)()
    user = await sync_to_async(lambda: game.seats.get(seat="stark").user)()
    socket, version = await connect(app, game.id, user)
    assert version == 0
    layer, group = get_channel_layer(), seat_group(game.id, "stark")

    # commits 0->1, 1->3 (a bot acted too), a seat change at 3 and 3->4, sent in a crossed order
    for start, end in [(3, 4), (1, 3), (3, 3), (0, 1)]:
        await layer.group_send(group, update(start, end, seats_changed=start == end))
    assert [seen(await live(socket)) for _ in range(4)] == [
        (0, 1, [1]), (1, 3, [2, 3]), (3, 3, []), (3, 4, [4])]

    # 4->5 never comes: after a bounded wait the socket is told, then gets what came after it
    await layer.group_send(group, update(5, 6))
    await layer.group_send(group, update(6, 7))
    assert seen(await live(socket, timeout=consumers.REORDER_WAIT + WAIT)) == ("gap", 5)
    assert [seen(await live(socket)) for _ in range(2)] == [(5, 6, [6]), (6, 7, [7])]

    # too late now: dropped, as is anything older than what the socket has; the next one goes through
    await layer.group_send(group, update(4, 5))
    await layer.group_send(group, update(2, 3))
    await layer.group_send(group, update(7, 8))
    assert seen(await live(socket)) == (7, 8, [8])

    # a seat change overtaken by the next commit cannot be put back in its place: re-fetch
    await layer.group_send(group, update(8, 9))
    await layer.group_send(group, update(8, 8, seats_changed=True))
    assert [seen(await live(socket)) for _ in range(2)] == [(8, 9, [9]), ("gap", 9)]
    assert await socket.receive_nothing(timeout=consumers.REORDER_WAIT + 0.2)
    await socket.disconnect()


async def test_seats_acting_at_once_each_socket_gets_every_version_in_order(app, monkeypatch):
    # However slow the machine, no wait may end in a gap notice for an update that reached the socket.
    monkeypatch.setattr(consumers, "REORDER_WAIT", 30)
    layer = get_channel_layer()
    sent: dict[str, list[tuple[int, int]]] = {}  # group -> (from_version, version) of every update sent to it
    reached: dict[tuple, list[tuple[int, int]]] = {}  # (game, seat) -> the updates the layer handed its socket
    send, handle = layer.group_send, consumers.GameConsumer.game_update

    async def spy_send(group, message):
        if message["type"] == "game.update":
            sent.setdefault(group, []).append((message["from_version"], message["version"]))
        await send(group, message)

    async def spy_handle(consumer, message):
        reached.setdefault((consumer.game_id, consumer.seat), []).append((message["from_version"], message["version"]))
        await handle(consumer, message)

    monkeypatch.setattr(layer, "group_send", spy_send)
    monkeypatch.setattr(consumers.GameConsumer, "game_update", spy_handle)
    games = [await sync_to_async(make_game)(6, seed=20 + n) for n in range(GAMES)]
    seating = await sync_to_async(lambda: [{s.seat: s.user for s in g.seats.all()} for g in games])()
    sockets = {}
    for game, users in zip(games, seating, strict=True):
        for seat, user in users.items():
            sockets[game.id, seat], version = await connect(app, game.id, user)
            assert version == 0
    # Each thread plays one house in every game, all starting at the same moment, against version 0
    # as a client would that fetched the game when it started; each commit notifies from its thread.
    plan = {seat: [(g.id, users[seat], AGOT.default_action(g.state, seat)) for g, users in zip(games, seating, strict=True)]
            for seat in seating[0]}
    barrier = threading.Barrier(len(plan))

    def play(seat: str) -> None:
        try:
            barrier.wait(timeout=WAIT)
            for game_id, user, action in plan[seat]:
                while True:
                    try:
                        do_submit_action(game_id, user, action=action, version=0)
                        break
                    except OperationalError as error:
                        # SQLite's in-memory test database refuses a second writer at once ("database
                        # table is locked") where a file or PostgreSQL would make it wait: try again
                        if "locked" not in str(error):
                            raise
                        time.sleep(0.001)
        finally:
            connection.close()

    with ThreadPoolExecutor(len(plan)) as pool:  # every call has ended (they need this loop to notify)
        results = await asyncio.gather(
            *(sync_to_async(play, thread_sensitive=False, executor=pool)(seat) for seat in plan), return_exceptions=True)
    assert all(result is None for result in results), results

    lost_by_layer = []
    for (game_id, seat), socket in sockets.items():
        final, records = await sync_to_async(
            lambda game_id=game_id: (Game.objects.get(pk=game_id).version,
                                     list(GameAction.objects.filter(game=game_id).order_by("version"))))()
        assert final >= len(plan)
        # As long as the consumer may hold an early update (REORDER_WAIT above): under a loaded CI
        # machine an older commit's message can trail a newer one by seconds.
        received, open_ = [], True
        while open_ and (not received or received[-1]["version"] < final):
            try:
                received.append(await live(socket, timeout=35))
            except TimeoutError:  # the last update never reached the socket (checked below); the
                open_ = False  # test communicator has stopped the consumer
        # The server sent every version to the socket's groups (its seat's, or the whole table's)
        to_socket = sorted(sent.get(seat_group(game_id, seat), []) + sent.get(table_group(game_id), []))
        assert [start for start, _ in to_socket] == [0] + [end for _, end in to_socket[:-1]], (seat, to_socket)
        assert to_socket[-1][1] == final, (seat, to_socket, {g: v for g, v in sent.items() if f".{game_id}." in g})
        # Channel layers deliver at most once (Channels' documentation), and under load channels-redis
        # has been seen to drop one message in a few hundred. The consumer's part: put what reached
        # it in order, and announce a gap (the page re-fetches) only for what did not.
        missing = sorted(set(to_socket) - set(reached.get((game_id, seat), [])))
        lost_by_layer += [(game_id, seat, update) for update in missing]
        expected, skipped = [], False
        for start, end in to_socket:
            if (start, end) in missing:
                skipped = True
                continue
            expected += [("gap", None, start)] if skipped else []
            expected.append(("update", start, end))
            skipped = False
        steps = [(m["type"], m.get("from_version"), m["version"]) for m in received]
        assert steps == expected, (seat, steps, missing)
        shown = [e for m in received for e in m.get("events", [])]
        assert shown == [e for e in events_for("agot", records, seat)
                         if not any(start < e["version"] <= end for start, end in missing)]
        if open_:
            await socket.disconnect()
    if lost_by_layer:  # said, not hidden: benchmarks/server_live.py counts such losses under load
        warnings.warn(f"the channel layer lost {len(lost_by_layer)} of {sum(map(len, reached.values()))} "
                      f"updates: {lost_by_layer}", stacklevel=1)
