"""Websocket consumers shared by the site: PooledConsumer (what a storm of handshakes needs, issue 28),
FrameLimits, the limits every socket's frames are held to (issue 28), and the /ws/ping/ health check."""
from __future__ import annotations

import asyncio
import logging
import time
import weakref
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from accounts.revocation import CLOSE_REVOKED, ClosesOnRevocation
from westeros.outages import scope_language
from westeros.parsers import SafeJsonFrames

log = logging.getLogger(__name__)

# Close codes. Daphne (autobahn) lets an application close with 1000 or 3000-4999 only, so these
# mirror RFC 6455's 1008 (policy violation) and 1009 (message too big) in the private range.
CLOSE_TOO_MANY_FRAMES = 4008
CLOSE_MESSAGE_TOO_BIG = 4009

clock = time.monotonic  # the token bucket's clock (tests replace it)


class PooledConsumer:
    """A websocket consumer mixin, first in its bases, for a consumer whose database work runs on the
    sockets' threads (westeros/socket_db.py) and never on asgiref's one sync thread:

    - Its messages are dispatched without Channels' `aclose_old_connections()` before each handler:
      that is a call on the sync thread per message (every update and presence message of every
      socket queued there, behind each other, in a storm), which closed connections that only that
      thread's calls held; the pool's calls close their own.
    - `client_gone()` tells connect() that the client went away while it was running (Daphne
      drops a handshake its application has not accepted within its connect timeout, 5 s, and the
      client may leave): the rest of the handshake is work for nobody, and a storm is made of them.
      While connect() runs, the client's next message (only a disconnect can come before the
      accept) is read ahead, and handed to the consumer afterwards in order.
    """

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        self._client_receive = receive
        self._read_ahead: asyncio.Future | None = None

        async def receive_in_order() -> dict:
            ahead, self._read_ahead = self._read_ahead, None
            return await (ahead if ahead is not None else receive())

        try:
            await super().__call__(scope, receive_in_order, send)
        finally:
            if self._read_ahead is not None:
                self._read_ahead.cancel()

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_connect(self, message: dict) -> None:
        if self._read_ahead is None:
            self._read_ahead = asyncio.ensure_future(self._client_receive())
        await super().websocket_connect(message)

    def client_gone(self) -> bool:
        ahead = getattr(self, "_read_ahead", None)
        if ahead is None or not ahead.done() or ahead.cancelled() or ahead.exception() is not None:
            return False
        return ahead.result().get("type") == "websocket.disconnect"


# Group joins and leaves of a process's sockets in flight at once: channels-redis' connection pool
# (redis-py's, 100 connections) refuses the 101st call with "Too many connections", which a storm
# of sockets arriving or leaving together reached; beyond this many, a call waits its turn instead.
GROUP_CALLS_AT_ONCE = 48
_group_calls: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()


async def group_call(method: Any, group: str, channel: str) -> Any:
    """The channel layer's group_add or group_discard `method` of (group, channel), in its turn."""
    loop = asyncio.get_running_loop()
    turns = _group_calls.get(loop)
    if turns is None:
        turns = _group_calls[loop] = asyncio.Semaphore(GROUP_CALLS_AT_ONCE)
    async with turns:
        return await method(group, channel)


class FrameLimits:
    """Per-socket limits on the frames a client sends; first in a consumer's bases, before
    SafeJsonFrames. A frame is checked before anything reads it:

    - Size: a message over WEBSOCKET_MAX_MESSAGE_SIZE bytes. Daphne itself closes the socket with 1009
      before reading such a message whole (westeros/asgi_server.py and `manage.py serve` give it
      the setting); one that a server let through is closed here with 4009 and the same reason.
    - Rate: a token bucket of WEBSOCKET_FRAME_BURST frames, refilled at WEBSOCKET_FRAME_RATE a
      second. A frame that finds it empty is dropped unread; the first one dropped is answered with
      {"type": "error", "error": "rate_limited", "detail", "fields": {}}, once until the bucket is full
      again. A socket that has had another burst's worth dropped meanwhile is told
      {"type": "error", "error": "too_many_frames", ...} and closed with 4008; frames that still
      arrive before the close completes are dropped too.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.frame_rate = settings.WEBSOCKET_FRAME_RATE
        self.frame_burst = settings.WEBSOCKET_FRAME_BURST
        self.max_message_size = settings.WEBSOCKET_MAX_MESSAGE_SIZE
        self.frame_tokens = float(self.frame_burst)
        self.frame_clock = clock()
        self.frames_dropped = 0  # since the bucket was last full
        self.frames_refused = False  # the socket is being closed: nothing more is read

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if self.frames_refused:
            return
        if self._too_big(text_data, bytes_data):
            self.frames_refused = True
            log.warning("websocket %s closed: a message over %d bytes", self.scope.get("path"), self.max_message_size)
            await self.close(code=CLOSE_MESSAGE_TOO_BIG, reason="message too big")
            return
        if self._take_token():
            await super().receive(text_data=text_data, bytes_data=bytes_data, **kwargs)
            return
        self.frames_dropped += 1
        if self.frames_dropped == 1:
            with translation.override(scope_language(self.scope)):  # the socket's language
                detail = gettext("Too many messages: at most %(rate)s a second (bursts of %(burst)s). Messages over "
                                 "it are dropped.") % {"rate": self.frame_rate, "burst": self.frame_burst}
            await self.send_json(rate_error("rate_limited", detail))
        elif self.frames_dropped >= self.frame_burst:
            self.frames_refused = True
            log.warning("websocket %s closed: %d frames dropped in a flood", self.scope.get("path"),
                        self.frames_dropped)
            with translation.override(scope_language(self.scope)):
                detail = gettext("Too many messages: the socket is closed (4008).")
            await self.send_json(rate_error("too_many_frames", detail))
            await self.close(code=CLOSE_TOO_MANY_FRAMES, reason="too many messages")

    def _take_token(self) -> bool:
        now = clock()
        self.frame_tokens = min(float(self.frame_burst), self.frame_tokens + (now - self.frame_clock) * self.frame_rate)
        self.frame_clock = now
        if self.frame_tokens >= self.frame_burst:
            self.frames_dropped = 0  # calm again: a later flood is warned about anew
        if self.frame_tokens >= 1:
            self.frame_tokens -= 1
            return True
        return False

    def _too_big(self, text_data: str | None, bytes_data: bytes | None) -> bool:
        limit = self.max_message_size
        if not limit:
            return False
        if bytes_data is not None and len(bytes_data) > limit:
            return True
        # UTF-8 takes at most 4 bytes a character: only a long text is encoded to be measured.
        return text_data is not None and len(text_data) * 4 > limit and len(text_data.encode("utf-8", "surrogatepass")) > limit


def rate_error(code: str, detail: str) -> dict[str, Any]:
    return {"type": "error", "error": code, "detail": detail, "fields": {}}


class PingConsumer(PooledConsumer, FrameLimits, ClosesOnRevocation, SafeJsonFrames, AsyncJsonWebsocketConsumer):
    """A health check for the websocket stack: answers every message with who the server sees (a
    frame that is not JSON gets a bad_message error; the socket stays open)."""

    async def connect(self) -> None:
        if not await self.watch_credential():  # revoked since the handshake authenticated it
            await self.close(code=CLOSE_REVOKED)
            return
        await self.accept()

    async def receive_json(self, content, **kwargs) -> None:
        user = self.scope.get("user")
        username = user.username if user is not None and user.is_authenticated else None
        await self.send_json({"type": "pong", "user": username, "echo": content})
