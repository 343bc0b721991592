"""The game websocket, /ws/games/<id>/.

On connecting a client gets {"type": "hello", "game", "seat", "version"}: the version it starts
from. After each commit every connection receives {"type": "update", "from_version", "version",
"status", "events", "seats_changed"}, the events filtered for its seat (spectators: the public
view). An update takes the game from `from_version` to `version` (several versions when bots acted
too; the same version when only the seats or the status changed), and a socket gets them in order:
each update's from_version is the version of the update before it (or of the hello). Commits send
their messages concurrently, so they can arrive crossed: one that comes before an older one waits
here at most REORDER_WAIT seconds for it. When the older one is lost or later than that, the socket
gets {"type": "gap", "version"} (re-fetch the game over REST) and the updates go on from `version`;
an update that comes after that is dropped. A client applies an update whose from_version is the
version it has, ignores one whose version is older than its own, and re-fetches the game on a gap
notice or when from_version is newer than its version. Presence (who is connected) is sent to the
whole table as {"type": "presence", "connected": [usernames]} when it changes: at once, and when
more changes follow within PRESENCE_WINDOW (0.5 s; a storm of sockets connecting), once more at the
window's end with who is connected then. The last presence message a socket gets is always the
table's state after the last change.

Chat (chat/services.py): a client sends {"type": "chat", "channel": "table" | "<seatA>-<seatB>",
"text": ...}; the message reaches only the channel's members as {"type": "chat", "id", "channel",
"sender", "seat", "text", "html", "created_at"} (`text` is raw: render it as text, or insert the
escaped `html`); a refusal comes back as {"type": "error", "error", "detail", "fields"}. A frame
that is not JSON, is binary, nests too deep or holds a NUL is answered {"type": "error", "error":
"bad_message", ...} and the socket stays open (westeros/parsers.py, SafeJsonFrames).

Limits (westeros/consumers.py, FrameLimits): a message over WEBSOCKET_MAX_MESSAGE_SIZE (64 KiB) closes
the socket with 1009 (Daphne's own limit; 4009 if a server lets one through). A socket may send
WEBSOCKET_FRAME_RATE (20) frames a second, in bursts of WEBSOCKET_FRAME_BURST (50): a frame beyond
it is dropped unanswered, the first with {"type": "error", "error": "rate_limited", ...}, and a
socket that goes on flooding (another burst's worth dropped) gets {"type": "error", "error":
"too_many_frames", ...} and is closed with 4008.

Credentials (accounts/revocation.py): a socket opened with a token that is then revoked, or with a
session that logs out or whose password changes, gets {"type": "error", "error": "credential_revoked",
...} and is closed with 4001. A bot account's browser session may watch but not chat (refused
`bot_api_only`, as over HTTP); its token may.

Keep-alive (issue 28): the channel layer may drop a message (channels-redis expires what waited too
long under overload) and nothing else would tell the socket. So this process sends each of its game
sockets {"type": "keepalive", "version"} (the same for every seat and spectator: nothing else): the
version the socket has when nothing was sent to it for LIVE_KEEPALIVE_SECONDS (2; 0: off), and the
game's current version at once when it has been ahead of what the socket was sent for that long (the
ticks come every half interval, so a lost update is told within about 1.5 intervals; a shorter lag
is an update on its way, which then arrives as usual). A client whose version is older re-fetches the
game, as on a gap notice; the socket's updates go on from that version. One query per tick reads the
versions of every game this process has sockets for (`Keepalive`), however many sockets watch them; a
tick lets the loop run every KEEPALIVES_AT_ONCE sockets.

Handshakes (issue 28): a reconnection storm brings hundreds of sockets to a process at once. A
connect reads the database twice (who the viewer is, before subscribing; then the credential, the
version, and the socket's presence written with who is connected, in one call), on the sockets' own
threads (westeros/socket_db.py): the sockets connect side by side, not one database call at a time
on asgiref's one thread. A handshake whose client went away (Daphne drops one it has not accepted
within 5 s) stops where it is (westeros/consumers.py, PooledConsumer).

Redis outages (issue 28): a Sentinel failover leaves the channel layer without Redis for a few
seconds. The site's layer keeps the open sockets receiving through it (westeros/channel_layer.py),
and a socket that connects meanwhile opens all the same, says hello with the database's version, is
kept up to date by its keep-alive, and joins its groups once Redis answers again (every
JOIN_RETRY_SECONDS); past the layer's grace it is closed with 4503, as at once with any other layer."""
from __future__ import annotations

import asyncio
import logging
import time
import weakref
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import translation
from django.utils.translation import gettext

from accounts.middleware import BOT_SESSION_MESSAGE
from accounts.revocation import CLOSE_REVOKED, ClosesOnRevocation, is_valid, socket_is_valid
from chat import services as chat
from games import queries
from games.anonymity import hides_names, presence_token
from games.errors import GameError
from games.models import Game, GameSeat, Presence
from games.services.notify import seat_group, spectator_group, table_group
from westeros.consumers import FrameLimits, PooledConsumer, group_call
from westeros.outages import REDIS_ERRORS, WEBSOCKET_UNAVAILABLE, scope_language
from westeros.parsers import SafeJsonFrames
from westeros.socket_db import socket_database

log = logging.getLogger(__name__)

# How long an update that came before an older one waits for it (seconds); then the gap is announced.
REORDER_WAIT = 0.3
# Presence changes of a table within this long after a broadcast make one more broadcast, at its end.
PRESENCE_WINDOW = 0.5
clock = time.monotonic  # the keep-alive's clock (tests replace it)
# A socket that opened while Redis was down tries to join its groups this often (seconds).
JOIN_RETRY_SECONDS = 0.25


def layer_rides_out(layer) -> bool:
    """Whether a socket opens while the channel layer cannot reach Redis: the site's layer rides out
    an outage of its receive_grace (westeros/channel_layer.py) unless this one has outlasted it
    already; another layer (a test's plain channels-redis one) closes the socket at once (4503)."""
    grace = getattr(layer, "receive_grace", 0)
    since = getattr(layer, "failing_since", None)
    return grace > 0 and (since is None or time.monotonic() - since < grace)


class GameConsumer(PooledConsumer, FrameLimits, ClosesOnRevocation, SafeJsonFrames, AsyncJsonWebsocketConsumer):
    groups: list[str]
    present = False  # this socket's Presence row may exist (written at connect, removed when it ends)

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.groups = []
        self.early: list[dict] = []  # updates that came before an older one, waiting for it
        self.waiting: asyncio.Task | None = None  # announces the gap if the older one is too late
        self.sending = asyncio.Lock()  # the waiting task and game_update send in turn
        user = self.scope.get("user")
        allowed, seat = await self._viewer(user, self._invite())
        if not allowed:
            await self.close(code=4404)
            return
        self.seat = seat
        if self.client_gone():
            return
        own = seat_group(self.game_id, seat) if seat else spectator_group(self.game_id)
        groups = [own, table_group(self.game_id), *self.credential_groups()]
        try:
            await self._join_groups(groups)
        except REDIS_ERRORS:
            if not layer_rides_out(self.channel_layer):
                raise  # closed with 4503 (westeros/outages.py)
            # Redis is down, perhaps for a failover's seconds: the socket opens all the same (its
            # keep-alive tells it the game's version) and joins its groups once Redis is back
            self.joining = asyncio.get_running_loop().create_task(self._join_later(groups))
        if self.client_gone():
            return
        # read once subscribed: a change committed meanwhile is in this version or in an update; the
        # credential too: a revocation since the handshake authenticated it was announced to nobody
        self.present = True
        arrived = await self._arrive(user, presence_of_this_loop().needs_names(self.game_id))
        if arrived is None:
            self.present = False
            await self.close(code=CLOSE_REVOKED)
            return
        self.delivered, connected = arrived  # the client has every change up to this version
        await self.accept()
        await self.send_json({"type": "hello", "game": self.game_id, "seat": seat, "version": self.delivered})
        self.behind_since: float | None = None  # since when the keep-alive ticks have seen the game ahead
        keepalive_of_this_loop().add(self)
        try:
            await presence_of_this_loop().changed(self.channel_layer, self.game_id, connected)
        except REDIS_ERRORS as error:  # the table learns of this socket at the next change
            log.warning("presence of game %s not sent (%s)", self.game_id, error)

    async def _join_later(self, groups: list[str]) -> None:
        """Join `groups` once the channel layer reaches Redis again, then check the credential again
        (a revocation announced before the socket was in its group reached nobody); when the outage
        outlasts the layer's grace, the socket is closed with 4503 as it would have been at once
        (the page reconnects)."""
        started = time.monotonic()
        while True:
            await asyncio.sleep(JOIN_RETRY_SECONDS)
            try:
                await asyncio.gather(*(group_call(self.channel_layer.group_add, group, self.channel_name)
                                       for group in groups))
            except REDIS_ERRORS as error:
                if time.monotonic() - started >= getattr(self.channel_layer, "receive_grace", 0):
                    log.warning("websocket of game %s closed: the channel layer is unavailable: %s", self.game_id, error)
                    await self.close(code=WEBSOCKET_UNAVAILABLE)
                    return
                continue
            if self.credential is not None and not await socket_is_valid(self.credential):
                await self.close(code=CLOSE_REVOKED)
            return

    async def _join_groups(self, groups: list[str]) -> None:
        """Subscribe to `groups` side by side (each a Redis round trip); each is left at disconnect,
        even when another failed."""
        self.groups.extend(groups)
        await asyncio.gather(*(group_call(self.channel_layer.group_add, group, self.channel_name) for group in groups))

    async def __call__(self, scope, receive, send) -> None:
        """When the channel layer fails (Redis down), Channels ends the consumer without calling
        disconnect(): the socket's Presence row is removed here, whatever ended it."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            keepalive_of_this_loop().discard(self)
            if getattr(self, "joining", None) is not None:
                self.joining.cancel()
            if self.present:
                self.present = False
                await self._leave()

    async def websocket_disconnect(self, message) -> None:
        """Channels' own version leaves the groups first and, when the layer refuses (Redis'
        MaxConnectionsError as a thousand sockets close at once), never reaches disconnect(): the
        presence would stay announced. disconnect() below leaves them itself, one failure at a
        time."""
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def disconnect(self, code) -> None:
        keepalive_of_this_loop().discard(self)
        if getattr(self, "joining", None) is not None:
            self.joining.cancel()
        if getattr(self, "waiting", None) is not None:
            self.waiting.cancel()
        for group in getattr(self, "groups", []):
            try:
                await group_call(self.channel_layer.group_discard, group, self.channel_name)
            except Exception as error:  # e.g. MaxConnectionsError when a thousand sockets close at once:
                # the membership expires with the layer's group_expiry; the presence must go now
                log.warning("could not leave group %s on disconnect (%s)", group, error)
        if self.present:
            connected = await self._leave(presence_of_this_loop().needs_names(self.game_id))
            self.present = False  # (when the database refused, __call__ tries again as the consumer ends)
            await presence_of_this_loop().changed(self.channel_layer, self.game_id, connected)

    async def receive_json(self, content, **kwargs) -> None:
        # refusals in the socket's language: the account's, else the handshake's cookie or browser
        with translation.override(scope_language(self.scope)):
            await self._receive(content)

    async def _receive(self, content) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong", "version": await self._version()})
        elif kind == "chat":
            await self._chat(content)
        else:
            await self.send_json({"type": "error", "error": "bad_message", "fields": {},
                                  "detail": gettext('Send {"type": "ping"} or {"type": "chat", "channel", "text"}; '
                                                    "actions go to POST /api/v1/games/<id>/actions.")})

    async def _chat(self, content: dict) -> None:
        user = self.scope.get("user")
        if getattr(user, "is_bot", False) and self.scope.get("api_token_id") is None:
            # a bot account's browser session cannot act, here as over HTTP (accounts/middleware.py)
            await self.send_json(chat.error_payload(GameError("bot_api_only", BOT_SESSION_MESSAGE, status_code=403),
                                                    content.get("ref")))
            return
        if not await self.credential_still_valid():  # a revocation message the layer lost
            return
        try:
            await socket_database(chat.do_send_message)(
                self.game_id, self.scope.get("user"), content.get("channel"), content.get("text"))
        except GameError as error:
            await self.send_json(chat.error_payload(error, content.get("ref")))
        except Exception:  # keep the socket open; the message was not stored
            log.exception("chat message refused by a server error in game %s", self.game_id)
            await self.send_json({"type": "error", "error": "server_error", "fields": {},
                                  "detail": gettext("The server failed; the message was not sent.")})

    async def chat_message(self, message) -> None:
        members = message.get("seats")
        if members is not None and self.seat not in members:  # delivery is by group; this is a second lock
            return
        await self.send_json({"type": "chat", **message["message"]})

    async def game_update(self, message) -> None:
        if message.get("seats_changed"):
            await self._follow_seat()
        if message.get("viewer") is not None and message["viewer"] != self.seat:
            # filtered for a seat this socket's user no longer holds (a substitute took it over, and
            # this message was queued before the socket left the seat's group): its events are not
            # for this viewer; the client re-fetches the game over REST instead
            message = {**message, "events": [], "seats_changed": True}
        async with self.sending:
            self.early.append(message)
            await self._deliver()

    async def send_json(self, content, close=False) -> None:
        self.last_sent = clock()  # what the keep-alive counts from
        await super().send_json(content, close=close)

    async def keepalive(self, version: int, now: float, interval: float) -> None:
        """A keep-alive tick (`Keepalive`): `version` is the game's version as just read. Sends
        {"type": "keepalive", "version"}: with the version the socket has when nothing was sent for
        `interval` seconds, and with `version` when the game has been ahead of this socket for
        `interval` seconds (an update lost, or stuck in the layer; a shorter lag is an update on its
        way): the socket's updates then go on from that version, as after a gap notice."""
        async with self.sending:
            behind = version > self.delivered
            if not behind:
                self.behind_since = None
            elif self.behind_since is None:
                self.behind_since = now
            lost = behind and now - self.behind_since >= interval
            if not (now - getattr(self, "last_sent", now) >= interval or lost):
                return
            if lost:
                self.behind_since = None
                self.delivered = version
            # An idle socket the game is only just ahead of is told the version it has: its update is most
            # likely on its way (a tick that read the version between the commit and the update's arrival
            # made the update "older" and dropped it: a game's first update, to most seats, under load).
            await self.send_json({"type": "keepalive", "version": self.delivered})
            if lost and self.early:
                await self._deliver()  # the waiting updates from this version on go out; older ones are covered

    async def _deliver(self, *, gap: bool = False) -> None:
        """Send the waiting updates that follow the client's version, in order. With `gap` (the wait
        is over) first skip to the oldest waiting update, telling the client to re-fetch."""
        self.early.sort(key=lambda m: (m["from_version"], m["version"]))
        if gap and self.early and self.early[0]["from_version"] > self.delivered:
            self.delivered = self.early[0]["from_version"]
            await self.send_json({"type": "gap", "version": self.delivered})
        while self.early and self.early[0]["from_version"] <= self.delivered:
            message = self.early.pop(0)
            if message["from_version"] == self.delivered:
                await self.send_json({"type": "update", "from_version": message["from_version"],
                                      "version": message["version"], "status": message["status"],
                                      "events": message["events"], "seats_changed": message["seats_changed"]})
                self.delivered = message["version"]
            elif message["from_version"] == message["version"]:
                # a change of seats or status overtaken by a later update: only a re-fetch shows it
                await self.send_json({"type": "gap", "version": self.delivered})
            # else: an older update, already covered by a gap notice (or by the hello version)
        if self.early and self.waiting is None:
            self.waiting = asyncio.create_task(self._announce_gap())
        elif not self.early and self.waiting is not None:
            self.waiting.cancel()
            self.waiting = None

    async def _follow_seat(self) -> None:
        """The seats changed: when this socket's user took a seat over (or no longer holds the one
        it had), move the socket to the group of what it now sees (a seat's, or the spectators')."""
        allowed, seat = await self._viewer(self.scope.get("user"), self._invite())
        if not allowed or seat == self.seat:
            return
        old = seat_group(self.game_id, self.seat) if self.seat else spectator_group(self.game_id)
        new = seat_group(self.game_id, seat) if seat else spectator_group(self.game_id)
        self.seat = seat
        await self.channel_layer.group_discard(old, self.channel_name)
        if old in self.groups:
            self.groups.remove(old)
        await self.channel_layer.group_add(new, self.channel_name)
        self.groups.append(new)

    async def _announce_gap(self) -> None:
        await asyncio.sleep(REORDER_WAIT)
        async with self.sending:
            self.waiting = None
            await self._deliver(gap=True)

    async def table_presence(self, message) -> None:
        await self.send_json({"type": "presence", "connected": message["connected"]})

    def _invite(self) -> str | None:
        from urllib.parse import parse_qs

        return parse_qs(self.scope.get("query_string", b"").decode()).get("invite", [None])[0]

    @socket_database
    def _viewer(self, user, invite) -> tuple[bool, str | None]:
        """(whether the user may watch the game, the user's seat)"""
        # only the columns needed (not the state, tens of kilobytes in a long game), and only the
        # user's own seats: every handshake of a storm runs this
        game = Game.objects.filter(pk=self.game_id).only("id", "private", "lobby_id").first()
        if game is None or not queries.can_view(game, user, invite):
            return False, None
        if user is None or not user.is_authenticated:
            return True, None
        return True, queries.viewer_seat(game, user, list(GameSeat.objects.filter(game_id=self.game_id, user_id=user.pk)))

    @socket_database
    def _version(self) -> int:
        return game_version(self.game_id)

    @socket_database
    def _arrive(self, user, names: bool) -> tuple[int, list[str] | None] | None:
        """Once subscribed, in one call: None when the credential was revoked meanwhile; else the
        version the client starts from, and (with `names`) who is connected once this socket's
        presence is written."""
        if self.credential is not None and not is_valid(self.credential):
            return None
        version = game_version(self.game_id)
        Presence.objects.create(game_id=self.game_id, channel_name=self.channel_name,
                                user=user if user is not None and user.is_authenticated else None)
        return version, connected_to(self.game_id) if names else None

    @socket_database
    def _leave(self, names: bool = False) -> list[str] | None:
        """This socket's presence removed; (with `names`) who is still connected."""
        Presence.objects.filter(channel_name=self.channel_name).delete()
        return connected_to(self.game_id) if names else None


def game_version(game_id: int) -> int:
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first() or 0


def connected_to(game_id: int) -> list[str]:
    """The usernames connected to the game (anonymous spectators are not named). A game that hides its
    players' names (games/anonymity.py) names its connected players by their seats ("seat:stark"), and
    connected spectators not at all."""
    game = Game.objects.filter(pk=game_id).only("options", "status").first()
    if game is not None and hides_names(game):
        seats = GameSeat.objects.filter(game_id=game_id, user__presence__game_id=game_id).values_list("seat", flat=True)
        return sorted({presence_token(seat) for seat in seats})
    names = Presence.objects.filter(game_id=game_id, user__isnull=False).values_list("user__username", flat=True)
    return sorted(set(names))


class PresenceBroadcasts:
    """The presence broadcasts of one event loop's game sockets, by game. A change is sent to the
    table at once (with who was connected just after it) and opens a window of PRESENCE_WINDOW
    seconds; changes within it are not sent one by one (a storm of 200 sockets connecting made
    200 broadcasts, each to every socket of its table) but once, when the window ends, with who is
    connected then, read after the last of them; that broadcast opens the next window. So the last
    broadcast always follows the last change."""

    def __init__(self) -> None:
        self.windows: dict[int, bool] = {}  # game id -> changed since the window opened

    def needs_names(self, game_id: int) -> bool:
        """Whether a change of the game's presence now would be sent at once (so the socket reads
        who is connected in the same call as its change); within a window, the window's end reads it."""
        return game_id not in self.windows

    async def changed(self, layer, game_id: int, connected: list[str] | None) -> None:
        """The game's presence changed; `connected`: who is connected just after, or None when not read."""
        if game_id in self.windows:
            self.windows[game_id] = True  # the window's end reads and sends it
            return
        self.windows[game_id] = False  # opened before reading: a change meanwhile is read at its end
        asyncio.get_running_loop().create_task(self._window(layer, game_id))
        if connected is None:  # the window closed while this socket's change was being written
            connected = await _connected_to(game_id)
        await send_presence(layer, game_id, connected)

    async def _window(self, layer, game_id: int) -> None:
        try:
            while True:
                await window_passes()
                if not self.windows.get(game_id):
                    return
                self.windows[game_id] = False  # a change from now on is read by the next round
                await send_presence(layer, game_id, await _connected_to(game_id))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # Redis or the database failing: the next change sends anew
            log.warning("presence of game %s not sent (%s)", game_id, error)
        finally:
            self.windows.pop(game_id, None)


_connected_to = socket_database(connected_to)


async def window_passes() -> None:
    """A presence window's wait (tests replace it)."""
    await asyncio.sleep(PRESENCE_WINDOW)


async def send_presence(layer, game_id: int, connected: list[str]) -> None:
    await layer.group_send(table_group(game_id), {"type": "table.presence", "connected": connected})


_presences: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, PresenceBroadcasts] = weakref.WeakKeyDictionary()


def of_this_loop(registry: weakref.WeakKeyDictionary, make):
    """The one object of `registry` for the running event loop (a server process's, or a test's),
    made by `make()` on first use; it goes with its loop."""
    loop = asyncio.get_running_loop()
    found = registry.get(loop)
    if found is None:
        found = registry[loop] = make()
    return found


def presence_of_this_loop() -> PresenceBroadcasts:
    return of_this_loop(_presences, PresenceBroadcasts)


def keepalive_seconds() -> float:
    return float(getattr(settings, "LIVE_KEEPALIVE_SECONDS", 0) or 0)


class Keepalive:
    """The game sockets of one event loop (a server process's, or a test's), by game, and the task
    that sends them their keep-alives: every half LIVE_KEEPALIVE_SECONDS it reads the version of every
    game that has a socket here in one query (in a thread of its own, so a queue of requests in
    Django's thread never delays it), then gives each socket its game's version
    (GameConsumer.keepalive). The task ends when the last socket leaves."""

    def __init__(self) -> None:
        self.sockets: dict[int, set[GameConsumer]] = {}
        self.task: asyncio.Task | None = None
        self.failing = False

    def add(self, consumer: GameConsumer) -> None:
        if keepalive_seconds() <= 0:
            return
        self.sockets.setdefault(consumer.game_id, set()).add(consumer)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    def discard(self, consumer: GameConsumer) -> None:
        watching = self.sockets.get(getattr(consumer, "game_id", None))
        if watching is not None:
            watching.discard(consumer)
            if not watching:
                del self.sockets[consumer.game_id]

    async def _run(self) -> None:
        while self.sockets:
            interval = keepalive_seconds()
            if interval <= 0:
                return
            await asyncio.sleep(interval / 2)
            try:
                await self.tick(interval)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database restarting: the next tick tries again
                if not self.failing:
                    log.warning("keep-alive: could not read the games' versions (%s)", error)
                self.failing = True
            else:
                self.failing = False

    async def tick(self, interval: float) -> None:
        if not self.sockets:
            return
        versions = await _read_versions(list(self.sockets))
        now = clock()
        told = 0
        for game_id, watching in list(self.sockets.items()):
            version = versions.get(game_id)
            if version is None:  # the game is gone
                continue
            for consumer in list(watching):
                try:
                    await consumer.keepalive(version, now, interval)
                except Exception as error:  # a socket closing meanwhile: it leaves by itself
                    log.debug("keep-alive not sent to a socket of game %s (%s)", game_id, error)
                told += 1
                if told % KEEPALIVES_AT_ONCE == 0:
                    # let the loop run between batches: a tick telling 1,200 idle sockets held it for 100-170 ms,
                    # and every update arriving meanwhile waited (the fan-out benchmark's slowest samples)
                    await asyncio.sleep(0)


KEEPALIVES_AT_ONCE = 50  # sockets a tick goes through before it lets the loop run others
_keepalives: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Keepalive] = weakref.WeakKeyDictionary()
# One thread for the keep-alive's reads in each process: never queued behind the views in Django's
# own thread (under overload that queue is seconds long, the moment the keep-alive matters most).
_reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-keepalive")
VERSIONS_PER_QUERY = 1000


def keepalive_of_this_loop() -> Keepalive:
    return of_this_loop(_keepalives, Keepalive)


def versions_of(game_ids: list[int]) -> dict[int, int]:
    """{game id: version} for `game_ids`, by primary key, a thousand per query."""
    close_old_connections()
    try:
        versions: dict[int, int] = {}
        for start in range(0, len(game_ids), VERSIONS_PER_QUERY):
            chunk = game_ids[start:start + VERSIONS_PER_QUERY]
            versions.update(Game.objects.filter(pk__in=chunk).values_list("pk", "version"))
        return versions
    finally:
        connection.close()  # back to the pool, or closed: this thread holds none between ticks


async def _read_versions(game_ids: list[int]) -> dict[int, int]:
    return await sync_to_async(versions_of, thread_sensitive=False, executor=_reader)(game_ids)
