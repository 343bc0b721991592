"""Game chat: a public table channel and a private channel for each pair of seats.

Membership
- "table": every seat writes and reads; spectators (anyone who may view the game) read it when the
  game allows (`Game.spectator_chat`) and never write.
- "<seatA>-<seatB>" (either order; stored alphabetically): only the players of those two seats, and
  only when the game allows private chat (`Game.private_chat`). Nobody else, staff included.

Sending (`do_send_message`, the websocket and the REST POST both call it) cleans the text, checks
membership, length and the per-user rate limit, stores the message, and once the transaction commits
delivers it to the members' sockets only: each seat's own group (and the spectators' group for the
table channel when they may read it), never a group a non-member listens on.

Redis down (README, "When Redis is down"): the rate limit is counted in this process instead of
the shared cache (a warning is logged), and the message is stored but cannot be delivered live:
`ChatMessage.live_delivery_failed` is set and the REST answer says so.

Text: stored raw (control and bidirectional-override characters removed, newlines kept). Every JSON
payload carries `text` (raw: clients must render it as text, e.g. `textContent`, never as HTML) and
`html` (the same, HTML-escaped, newlines as <br>: safe to insert as HTML). Templates autoescape.
"""
from __future__ import annotations

import logging
import math
import time
import unicodedata
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.db import transaction
from django.db.models import QuerySet
from django.utils.html import escape
from django.utils.translation import gettext, ngettext

from chat import conf
from chat.models import TABLE, ChatMessage
from games import queries
from games.errors import GameError, forbidden, not_found
from games.models import Game
from games.services.notify import seat_group, spectator_group
from westeros.outages import REDIS_ERRORS

log = logging.getLogger(__name__)

# The rate limit's counts while the shared cache is unavailable: per process, weaker but not off.
_local_rate_counts = LocMemCache("chat-rate-fallback", {})

# Bidirectional overrides and isolates can make a message display as something else than it says.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


# Characters that show nothing by themselves, beyond whitespace and the format characters (Cf:
# zero-width space and joiners, direction marks, word joiner, BOM, tags...): Hangul fillers, the
# braille blank, the combining grapheme joiner and the variation selectors.
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u180e") | frozenset(
    chr(c) for c in [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])


def _invisible(ch: str) -> bool:
    return ch.isspace() or ch in _BLANK_LOOKING or unicodedata.category(ch) in {"Cf", "Zs", "Zl", "Zp", "Cc"}


def _clock() -> float:
    """The rate limiter's clock (tests replace it)."""
    return time.time()


def invalid(field: str, message: str) -> GameError:
    return GameError("invalid", gettext("Some fields are not valid."), fields={field: [message]})


def _too_long(limit: int) -> str:
    return ngettext("Ensure this field has no more than %(limit)d character.",
                    "Ensure this field has no more than %(limit)d characters.", limit) % {"limit": limit}


def clean_text(raw: Any) -> str:
    """The text as stored: line breaks normalised, control characters (but newline and tab) and
    bidirectional controls removed, surrounding whitespace stripped; 1 to CHAT_MAX_LENGTH characters,
    at least one of them visible (not only whitespace, zero-width or other invisible characters)."""
    limit = conf.get("CHAT_MAX_LENGTH")
    if not isinstance(raw, str):
        raise invalid("text", gettext("A string is required."))
    if len(raw) > 4 * limit:  # do not even clean a huge payload
        raise invalid("text", _too_long(limit))
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(
        ch for ch in text
        if ch in "\n\t" or (unicodedata.category(ch) not in {"Cc", "Cs"} and ch not in _BIDI_CONTROLS)
    ).strip()
    if not text:
        raise invalid("text", gettext("Write something."))
    if all(_invisible(ch) for ch in text):  # zero-width, bidi marks, fillers: a message that shows nothing
        raise invalid("text", gettext("Write something visible: this message is only invisible characters."))
    if len(text) > limit:
        raise invalid("text", _too_long(limit))
    return text


def to_html(text: str) -> str:
    """The message as safe HTML: escaped, newlines as <br>."""
    return str(escape(text)).replace("\n", "<br>")


def parse_channel(game: Game, raw: Any) -> tuple[str, tuple[str, ...]]:
    """(canonical channel name, its member seats); the table's members are () meaning everyone."""
    if raw == TABLE:
        return TABLE, ()
    seats = game.seat_names()
    if isinstance(raw, str):
        for first in seats:
            if raw.startswith(first + "-") and (second := raw[len(first) + 1:]) in seats and second != first:
                pair = tuple(sorted((first, second)))
                return "-".join(pair), pair
    raise invalid("channel", gettext('A channel is "%(table)s" or two different seats of this game, e.g. '
                                     '"%(example)s".') % {"table": TABLE, "example": "-".join(sorted(seats[:2]))})


def _viewer_seat(game: Game, user) -> str | None:
    seat = game.seat_for(user)
    return seat.seat if seat is not None else None


def may_read(game: Game, seat: str | None, channel: str, members: tuple[str, ...]) -> bool:
    """Whether the holder of `seat` (None: a spectator who may view the game) reads `channel`."""
    if channel == TABLE:
        return seat is not None or game.spectator_chat
    return game.private_chat and seat is not None and seat in members


def readable_channels(game: Game, user) -> list[dict[str, Any]]:
    """The channels the user may read, with whether they may write in each."""
    seat = _viewer_seat(game, user)
    channels = []
    if may_read(game, seat, TABLE, ()):
        channels.append({"channel": TABLE, "seats": game.seat_names(), "can_write": seat is not None})
    if seat is not None and game.private_chat:
        for other in game.seat_names():
            if other != seat:
                pair = sorted((seat, other))
                channels.append({"channel": "-".join(pair), "seats": pair, "can_write": True})
    return channels


def _load_game(game_id: int, user, invite: str | None) -> Game:
    # the chat reads nothing of the game's state (a card game's is tens of kilobytes of JSON; issue 27); the
    # game and its seats read as every game read is, by queries compiled once per process (tenth round)
    return queries.get_visible_game(user, game_id, invite, state=False)


def _refuse_channel(game: Game, seat: str | None, channel: str) -> GameError:
    if channel != TABLE and not game.private_chat:
        return forbidden(gettext("Private chat is disabled in this game.")) if seat else not_found("chat channel")
    if channel == TABLE:
        return forbidden(gettext("Spectators may not read this game's chat."))
    return not_found("chat channel")  # another pair's channel: as if it did not exist


HISTORY_COLUMNS = ("id", "channel", "sender_id", "sender__username", "sender_seat", "text", "created_at")


def history_rows(game_id: int, user, raw_channel: Any, invite: str | None = None) -> tuple[Game, QuerySet]:
    """The game and the channel's messages the user may read (newest first) as rows of HISTORY_COLUMNS
    (chat.serializers.message_rows writes them), or GameError. Every message is of this game: its game
    (whether it hides its players' names) is the one read here, not read again with each message (issue 27)."""
    game = _load_game(game_id, user, invite)
    channel, members = parse_channel(game, raw_channel)
    seat = _viewer_seat(game, user)
    if not may_read(game, seat, channel, members):
        raise _refuse_channel(game, seat, channel)
    return game, ChatMessage.objects.filter(game=game, channel=channel).order_by("-id").values(*HISTORY_COLUMNS)


def channels_for(game_id: int, user, invite: str | None = None) -> dict[str, Any]:
    game = _load_game(game_id, user, invite)
    return {"game": game.pk, "your_seat": _viewer_seat(game, user), "private_chat": game.private_chat,
            "spectator_chat": game.spectator_chat, "channels": readable_channels(game, user)}


def _take_rate_token(user_id: int) -> int | None:
    """Count one message against the user's fixed window; the seconds to wait when over the limit."""
    limit, window = conf.get("CHAT_RATE_MESSAGES"), conf.get("CHAT_RATE_SECONDS")
    if limit <= 0 or window <= 0:
        return None
    now = _clock()
    bucket = int(now // window)
    key = f"chat-rate:{user_id}:{bucket}"
    try:
        count = _count(cache, key, window + 1)
    except REDIS_ERRORS as error:
        log.warning("chat rate limit counted in this process only: the cache is unavailable: %s", error)
        count = _count(_local_rate_counts, key, window + 1)
    if count > limit:
        return max(1, math.ceil((bucket + 1) * window - now))
    return None


def _count(store: BaseCache, key: str, timeout: int) -> int:
    store.add(key, 0, timeout=timeout)
    try:
        return store.incr(key)
    except ValueError:  # expired between add and incr
        store.set(key, 1, timeout=timeout)
        return 1


def do_send_message(game_id: int, user, raw_channel: Any, raw_text: Any) -> ChatMessage:
    """Store a message from the user's seat and deliver it to the channel's members after commit."""
    if user is None or not user.is_authenticated:
        raise GameError("not_authenticated", gettext("Log in to chat."), status_code=401)
    game = _load_game(game_id, user, None)
    seat = _viewer_seat(game, user)
    channel, members = parse_channel(game, raw_channel)
    if seat is None:
        raise forbidden(gettext("Only the players of this game may write in its chat."))
    if not may_read(game, seat, channel, members):
        raise _refuse_channel(game, seat, channel)
    text = clean_text(raw_text)
    wait = _take_rate_token(user.pk)
    if wait is not None:
        raise GameError("rate_limited", gettext("Too many messages: wait %(wait)s s.") % {"wait": wait}, status_code=429,
                        retry_after=wait)
    with transaction.atomic():
        message = ChatMessage.objects.create(game=game, channel=channel, sender=user, sender_seat=seat, text=text)
        _deliver_after_commit(game, message, members)
    return message


def message_payload(message: ChatMessage) -> dict[str, Any]:
    """The JSON shape of a message, the same on the socket and over REST."""
    from chat.serializers import ChatMessageSerializer

    return dict(ChatMessageSerializer(message).data)


def recipient_groups(game: Game, members: tuple[str, ...]) -> list[str]:
    if members:
        return [seat_group(game.pk, seat) for seat in members]
    groups = [seat_group(game.pk, seat) for seat in game.seat_names()]
    if game.spectator_chat:
        groups.append(spectator_group(game.pk))
    return groups


def _deliver_after_commit(game: Game, message: ChatMessage, members: tuple[str, ...]) -> None:
    groups = recipient_groups(game, members)
    event = {"type": "chat.message", "seats": list(members) or None, "message": message_payload(message)}

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            for group in groups:
                async_to_sync(layer.group_send)(group, event)
        except REDIS_ERRORS as error:  # stored; the others read it in the history
            message.live_delivery_failed = True
            log.warning("chat message %s stored but not delivered live: %s", message.pk, error)
        except Exception:  # the message is stored; clients that miss it read the history
            message.live_delivery_failed = True
            log.exception("could not deliver chat message %s", event["message"]["id"])

    transaction.on_commit(send)


def error_payload(error: GameError, ref: Any = None) -> dict[str, Any]:
    """A refused chat message as the socket answers it (the API error format, type "error")."""
    payload = {"type": "error", "error": error.detail.code, "detail": str(error.detail), "fields": error.fields,
               **error.extra}
    if isinstance(ref, str | int) and not isinstance(ref, bool):
        payload["ref"] = ref
    return payload
