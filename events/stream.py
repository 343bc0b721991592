"""GET /api/v1/stream/events: the user's events as NDJSON, one JSON object a line (lichess's
/api/stream/event). Served asynchronously under Daphne: the view returns a StreamingHttpResponse
over an async generator that waits on the channel layer; no thread is held while a stream is open.

On every (re)connect the stream first sends, from the database, every game where it is the user's
turn now and the challenges waiting for their answer, then the live events (events/services.py).
An empty line is sent when nothing else was for KEEPALIVE_SECONDS, so proxies keep the connection
and clients notice a dead one. The stream subscribes before it reads the database, so an event
committed in between is sent twice at worst, never lost. A user holds at most EVENT_STREAMS_PER_USER
streams at once (events/slots.py): one more is refused 429 with Retry-After.

A stream lasts as long as its credential (accounts/revocation.py): when its token is revoked, its
session logs out or the password changes, it sends {"type": "credentialRevoked", "reason"} and
ends, at once on the revocation's message, and at the latest at the next keep-alive tick (it checks
its credential then)."""
from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import JsonResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt

from accounts import revocation
from events import auth, services, slots
from westeros.api_errors import error_body
from westeros.outages import RETRY_AFTER_SECONDS

log = logging.getLogger(__name__)
KEEPALIVE_SECONDS = 7.0  # at least every 10 s (the issue); tests shorten it
GROUP_RENEW_SECONDS = 3600.0  # channel layers forget group members after a day (group_expiry)
CONTENT_TYPE = "application/x-ndjson"


def line(event: dict) -> bytes:
    return (json.dumps(event, separators=(",", ":"), default=str) + "\n").encode()


@csrf_exempt  # it changes nothing; another method is a 405 in the error shape, not the CSRF page
async def event_stream(request):
    if request.method not in ("GET", "HEAD"):
        response = _refuse(405, "method_not_allowed", f'Method "{request.method}" not allowed.')
        response["Allow"] = "GET"
        return response
    try:
        user, credential = await auth.authenticate_credential(request)
    except auth.BadCredentials as bad:
        return _refuse(401, "authentication_failed", str(bad))
    if user is None:
        return _refuse(401, "not_authenticated", "Authentication credentials were not provided.")
    layer = get_channel_layer()
    if layer is None:
        return _refuse(503, "unavailable", "Live events are unavailable.", retry=True)
    limit = settings.EVENT_STREAMS_PER_USER
    stream_id = uuid.uuid4().hex
    try:
        slot = await slots.claim(user.pk, stream_id, limit)
        if slot is None:
            return _refuse(429, "too_many_streams", f"You already have {limit} event streams open: close one first "
                           f"(a stream you lost is let go within {int(slots.SLOT_SECONDS)} seconds).",
                           retry_after=int(slots.SLOT_SECONDS))
        channel = await layer.new_channel()
        group = services.user_group(user.pk)
        await layer.group_add(group, channel)
        await layer.group_add(credential.group, channel)
    except Exception as error:  # Redis down: the REST API still works
        log.warning("event stream refused: the channel layer is unavailable (%s)", error)
        return _refuse(503, "unavailable", "Live events are unavailable; retry shortly.", retry=True)
    held = (user.pk, slot, stream_id)
    response = StreamingHttpResponse(_lines(user, layer, channel, group, held, credential), content_type=CONTENT_TYPE)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


def _refuse(status: int, code: str, detail: str, *, retry: bool = False, retry_after: int | None = None) -> JsonResponse:
    response = JsonResponse(error_body(code, detail), status=status)
    if status == 401:
        response["WWW-Authenticate"] = 'Token realm="api"'
    if retry or retry_after is not None:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS if retry_after is None else retry_after)
    return response


def _revoked(reason: str) -> bytes:
    return line({"type": "credentialRevoked", "reason": reason,
                 "detail": revocation.REASONS.get(reason, revocation.REASONS["invalid"])})


async def _lines(user, layer, channel: str, group: str, held: tuple[int, int, str], credential):
    receiving: asyncio.Future | None = None
    try:
        reason = await revocation.awhy_invalid(credential)
        if reason:  # revoked before the stream joined its group
            yield _revoked(reason)
            return
        for event in await sync_to_async(services.initial_events)(user):
            yield line(event)
        renewed = slot_renewed = time.monotonic()
        while True:
            if time.monotonic() - slot_renewed > min(KEEPALIVE_SECONDS, slots.SLOT_SECONDS / 3):
                await slots.renew(*held)
                slot_renewed = time.monotonic()
            if receiving is None:
                receiving = asyncio.ensure_future(layer.receive(channel))
            done, _ = await asyncio.wait({receiving}, timeout=KEEPALIVE_SECONDS)
            if not done:
                reason = await revocation.awhy_invalid(credential)
                if reason:  # revoked, and its message lost by the layer or not here yet
                    yield _revoked(reason)
                    return
                yield b"\n"
            else:
                message, receiving = receiving.result(), None
                if message.get("type") == services.MESSAGE_TYPE:
                    yield line(message["event"])
                elif message.get("type") == revocation.MESSAGE_TYPE and await revocation.revokes(credential, message):
                    yield _revoked(message.get("reason", "invalid"))
                    return
            if time.monotonic() - renewed > GROUP_RENEW_SECONDS:
                await layer.group_add(group, channel)
                await layer.group_add(credential.group, channel)
                renewed = time.monotonic()
    finally:  # the client went away (the task is cancelled) or the layer failed
        if receiving is not None:
            receiving.cancel()
        for joined in (group, credential.group):
            try:
                await layer.group_discard(joined, channel)
            except Exception:
                pass
        try:
            await slots.release(*held)
        except Exception:  # the cache is down: the slot expires by itself
            pass
