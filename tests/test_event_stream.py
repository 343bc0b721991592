"""The per-user event stream (issue 21): GET /api/v1/stream/events, NDJSON through Django's ASGI
application (the async view, as Daphne serves it), read line by line with an ApplicationCommunicator.
Authenticated by token; on every connect it first sends every game where it is your turn now (from
the database: a disconnect loses nothing), then live events after each commit (gameStart, yourTurn,
gameFinish, challenges); an empty line as keep-alive. Runs on the in-memory layer, and on
channels-redis when REDIS_URL is set (CI)."""
from __future__ import annotations

import asyncio
import inspect
import json
import time

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.core.asgi import get_asgi_application

from events import stream
from games.engine import get_ruleset
from games.models import Game
from games.services.play import do_concede, do_submit_action
from tests.factories import make_game, make_token, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
AGOT = get_ruleset("agot")
PATH = "/api/v1/stream/events"


@pytest.fixture
def app(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    return get_asgi_application()


class Stream:
    """One open stream: its start message and a reader of complete lines."""

    def __init__(self, communicator: ApplicationCommunicator, start: dict):
        self.communicator, self.start, self.buffer = communicator, start, b""

    @property
    def status(self) -> int:
        return self.start["status"]

    def header(self, name: str) -> str | None:
        return next((v.decode() for k, v in self.start["headers"] if k.decode().lower() == name.lower()), None)

    async def raw_line(self, timeout: float = 3) -> bytes:
        while b"\n" not in self.buffer:
            message = await self.communicator.receive_output(timeout)
            assert message["type"] == "http.response.body", message
            self.buffer += message.get("body", b"")
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    async def event(self, timeout: float = 3) -> dict:
        """The next event, skipping keep-alive lines."""
        while True:
            line = await self.raw_line(timeout)
            if line.strip():
                return json.loads(line)

    async def body(self) -> dict:
        message = await self.communicator.receive_output(3)
        return json.loads(message["body"])

    async def settled(self) -> None:
        """Wait until the first lines (read from the database) are out: the next keep-alive. SQLite's
        shared in-memory test database refuses a write while another connection reads."""
        while await self.raw_line(timeout=20) != b"":
            pass

    async def close(self) -> None:
        await self.communicator.send_input({"type": "http.disconnect"})
        await self.communicator.wait(5)


async def open_stream(app, key: str | None = None, header: str | None = None, method: str = "GET") -> Stream:
    headers = [(b"host", b"testserver")]
    if header or key:
        headers.append((b"authorization", (header or f"Token {key}").encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": PATH, "raw_path": PATH.encode(), "query_string": b"", "root_path": "", "headers": headers,
             "client": ("127.0.0.1", 40000), "server": ("testserver", 80)}
    communicator = ApplicationCommunicator(app, scope)
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(5)
    assert start["type"] == "http.response.start"
    return Stream(communicator, start)


def user_with_key():
    user = make_user()
    _, key = make_token(user)
    return user, key


def act(game_id: int, seat: str) -> Game:
    game = Game.objects.get(pk=game_id)
    user = game.seats.get(seat=seat).user
    do_submit_action(game_id, user, action=AGOT.default_action(game.state, seat), version=game.version)
    return Game.objects.get(pk=game_id)


async def test_the_stream_is_an_async_view():
    """Served on the event loop under Daphne: no thread is held per open stream."""
    assert inspect.iscoroutinefunction(stream.event_stream)


async def test_no_or_a_wrong_token_is_refused_in_the_error_shape(app):
    anonymous = await open_stream(app)
    assert anonymous.status == 401
    body = await anonymous.body()
    assert body["error"] == "not_authenticated" and set(body) >= {"error", "detail", "fields"}
    wrong = await open_stream(app, key="not-a-token")
    assert wrong.status == 401
    assert (await wrong.body())["error"] == "authentication_failed"
    malformed = await open_stream(app, header="Token a b")
    assert malformed.status == 401
    _, key = await sync_to_async(user_with_key)()
    posted = await open_stream(app, key, method="POST")
    assert posted.status == 405 and (await posted.body())["error"] == "method_not_allowed"


async def test_connecting_first_sends_every_game_where_it_is_your_turn(app):
    user, key = await sync_to_async(user_with_key)()
    game = await sync_to_async(make_game)(users=[user, await sync_to_async(make_user)(),
                                                  await sync_to_async(make_user)()])
    seat = await sync_to_async(lambda: game.seats.get(user=user).seat)()
    other = await sync_to_async(make_game)(seed=9)  # not the user's: never listed
    s = await open_stream(app, key)
    assert s.status == 200 and s.header("Content-Type") == "application/x-ndjson"
    event = await s.event()
    assert event == {"type": "yourTurn", "game": {
        "id": game.pk, "ruleset": "agot", "seat": seat, "version": 0, "decision": AGOT.pending(game.state)[seat],
        "deadline_at": event["game"]["deadline_at"]}}
    assert event["game"]["deadline_at"]  # the seat's deadline, as text
    await s.close()
    assert other.pk != game.pk


async def test_a_your_turn_missed_while_disconnected_is_sent_on_reconnect(app):
    """Resumable: the stream is closed while the table moves on; the reconnect starts with the game
    where it is now the user's turn, at the current version."""
    user, key = await sync_to_async(user_with_key)()
    others = [await sync_to_async(make_user)() for _ in range(2)]
    game = await sync_to_async(make_game)(users=[user, *others])
    seat = await sync_to_async(lambda: game.seats.get(user=user).seat)()
    first = await open_stream(app, key)
    assert (await first.event())["game"]["id"] == game.pk
    await first.close()  # (the first lines are all read: the database is free again)
    current = await sync_to_async(act)(game.pk, seat)
    assert seat not in AGOT.pending(current.state)
    while seat not in AGOT.pending(current.state):  # the others play on while the bot is away
        current = await sync_to_async(act)(game.pk, sorted(AGOT.pending(current.state))[0])
    again = await open_stream(app, key)
    event = await again.event()
    assert event["type"] == "yourTurn"
    assert event["game"]["id"] == game.pk and event["game"]["version"] == current.version
    assert event["game"]["decision"] == AGOT.pending(current.state)[seat]
    await again.close()


@pytest.fixture
def short_keepalive(monkeypatch):
    monkeypatch.setattr(stream, "KEEPALIVE_SECONDS", 0.2)


async def test_live_events_game_start_your_turn_and_game_finish(app, short_keepalive):
    user, key = await sync_to_async(user_with_key)()
    s = await open_stream(app, key)
    await s.settled()
    others = [await sync_to_async(make_user)() for _ in range(2)]
    game = await sync_to_async(make_game)(users=[user, *others])
    seat = await sync_to_async(lambda: game.seats.get(user=user).seat)()
    start = await s.event()
    assert start["type"] == "gameStart"
    assert start["game"]["id"] == game.pk and start["game"]["seat"] == seat and start["game"]["version"] == 0
    assert start["game"]["decision"] == AGOT.pending(game.state)[seat] and start["game"]["ranked"] is False
    current = await sync_to_async(act)(game.pk, seat)
    while seat not in AGOT.pending(current.state):
        current = await sync_to_async(act)(game.pk, sorted(AGOT.pending(current.state))[0])
    turn = await s.event()
    assert turn["type"] == "yourTurn" and turn["game"]["id"] == game.pk
    assert turn["game"]["version"] == current.version
    assert turn["game"]["decision"] == AGOT.pending(current.state)[seat]
    for player in [user, *others]:
        await sync_to_async(do_concede)(game.pk, player)
    finish = await s.event()
    assert finish["type"] == "gameFinish" and finish["game"]["id"] == game.pk
    assert finish["game"]["status"] == "abandoned" and finish["game"]["ranking"]
    await s.close()


async def test_other_players_moves_that_leave_you_thinking_send_nothing(app, short_keepalive):
    """Every seat decides at once at the start (orders): another seat's orders are not a new turn for
    this one, which has had its decision since gameStart."""
    user, key = await sync_to_async(user_with_key)()
    others = [await sync_to_async(make_user)() for _ in range(2)]
    game = await sync_to_async(make_game)(users=[user, *others])
    seats = await sync_to_async(lambda: {s.user_id: s.seat for s in game.seats.all()})()
    s = await open_stream(app, key)
    assert (await s.event())["type"] == "yourTurn"
    await s.settled()
    current = await sync_to_async(act)(game.pk, seats[others[0].pk])
    assert seats[user.pk] in AGOT.pending(current.state)
    assert await s.raw_line() == b""  # only keep-alives follow
    await s.close()


async def test_a_keep_alive_line_when_nothing_happens(app, monkeypatch):
    monkeypatch.setattr(stream, "KEEPALIVE_SECONDS", 0.1)
    _, key = await sync_to_async(user_with_key)()
    s = await open_stream(app, key)
    assert s.status == 200
    lines = [await s.raw_line(timeout=20) for _ in range(3)]
    assert lines == [b"", b"", b""]
    await s.close()


async def test_the_default_keep_alive_is_within_ten_seconds():
    assert 0 < stream.KEEPALIVE_SECONDS < 10


async def test_each_user_hears_only_of_their_own_games(app, short_keepalive):
    user, key = await sync_to_async(user_with_key)()
    s = await open_stream(app, key)
    await s.settled()
    await sync_to_async(make_game)(seed=3)  # three strangers
    mine = await sync_to_async(make_game)(users=[user, await sync_to_async(make_user)(),
                                                  await sync_to_async(make_user)()])
    event = await s.event()
    assert event["type"] == "gameStart" and event["game"]["id"] == mine.pk
    await s.close()


async def test_a_challenge_reaches_the_stream_live_and_on_reconnect(app, short_keepalive):
    from challenges.services import ChallengeRequest, do_create_challenge

    invitee, key = await sync_to_async(user_with_key)()
    challenger = await sync_to_async(make_user)()
    s = await open_stream(app, key)
    await s.settled()
    challenge = await sync_to_async(do_create_challenge)(
        challenger, ChallengeRequest(ruleset="lcg", users=[invitee.username], time_limit=3600))
    event = await s.event()
    assert event["type"] == "challenge" and event["challenge"]["id"] == challenge.pk
    assert event["challenge"]["challenger"] == challenger.username
    await s.close()
    again = await open_stream(app, key)
    assert (await again.event())["challenge"]["id"] == challenge.pk  # still waiting for an answer
    await again.close()


async def test_a_client_that_goes_away_leaves_the_group(app):
    from channels.layers import get_channel_layer

    from events.services import user_group

    user, key = await sync_to_async(user_with_key)()
    s = await open_stream(app, key)
    layer = get_channel_layer()
    if hasattr(layer, "groups"):  # the in-memory layer shows its members
        for _ in range(600):  # until the stream has joined (a condition; 30 s at most on a loaded machine)
            if layer.groups.get(user_group(user.pk)):
                break
            await asyncio.sleep(0.05)
        assert layer.groups.get(user_group(user.pk))
    await s.close()
    if hasattr(layer, "groups"):
        assert not layer.groups.get(user_group(user.pk))


async def test_a_user_holds_at_most_event_streams_per_user_streams_at_once(app, settings, short_keepalive):
    """One more is refused 429 in the error shape with Retry-After; another user is not counted; a
    closed stream frees its place at once."""
    settings.EVENT_STREAMS_PER_USER = 2
    user, key = await sync_to_async(user_with_key)()
    first, second = await open_stream(app, key), await open_stream(app, key)
    assert first.status == second.status == 200
    for s in (first, second):
        await s.settled()  # their first lines are read before the next user is written (SQLite)
    third = await open_stream(app, key)
    assert third.status == 429 and third.header("Retry-After") == "30"
    body = await third.body()
    assert body["error"] == "too_many_streams" and "2 event streams" in body["detail"]
    _, other_key = await sync_to_async(user_with_key)()
    other = await open_stream(app, other_key)
    assert other.status == 200
    await other.settled()
    await first.close()
    again = await open_stream(app, key)
    assert again.status == 200
    await again.settled()
    for s in (second, other, again):
        await s.close()


async def test_an_open_stream_keeps_its_place_and_a_lost_one_lets_it_go(app, settings, monkeypatch, short_keepalive):
    """A stream renews its place while it runs; the place of a stream whose server died (never
    released) frees itself SLOT_SECONDS after its last renewal. Waits on conditions: the running
    stream is asked about only once it has renewed its place past the time an unrenewed place lasts;
    the lost place is polled until it frees itself."""
    from events import slots

    monkeypatch.setattr(slots, "SLOT_SECONDS", 4)  # renewed every 0.2 s here (the keep-alive)
    renewals = []
    real_renew = slots.renew

    async def counted_renew(*args):
        await real_renew(*args)
        renewals.append(time.monotonic())

    monkeypatch.setattr(slots, "renew", counted_renew)
    settings.EVENT_STREAMS_PER_USER = 1
    user, key = await sync_to_async(user_with_key)()
    running = await open_stream(app, key)
    opened = time.monotonic()
    for _ in range(1200):  # until a renewal comes later than an unrenewed place would have lasted
        if renewals and renewals[-1] - opened > slots.SLOT_SECONDS + 1:
            break
        await asyncio.sleep(0.05)
    assert renewals[-1] - opened > slots.SLOT_SECONDS + 1
    assert (await open_stream(app, key)).status == 429
    await running.close()
    lost = time.monotonic()
    assert await slots.claim(user.pk, "a stream on a server that died", 1) == 0  # never released
    assert (await open_stream(app, key)).status == 429
    for _ in range(600):  # the lost place frees itself once it expires (polled; 60 s at most)
        late = await open_stream(app, key)
        if late.status == 200:
            break
        await asyncio.sleep(0.1)
    assert late.status == 200
    assert time.monotonic() - lost >= slots.SLOT_SECONDS - 0.5  # not before it expired
    await late.close()
