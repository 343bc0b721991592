"""The per-user event stream's events (GET /api/v1/stream/events, events/stream.py; docs/bots.md).

Every user has a channel-layer group, `user.<id>`; each open stream of theirs listens on it. Events
are decided where the change happens and sent after its transaction commits (never for a change
that rolls back), in the stream's line shape:

    {"type": "gameStart",  "game": {"id", "ruleset", "seat", "version", "status", "ranked", "decision"}}
    {"type": "yourTurn",   "game": {"id", "ruleset", "seat", "version", "decision", "deadline_at"}}
    {"type": "gameFinish", "game": {"id", "ruleset", "seat", "version", "status", "ranking"}}
    {"type": "challenge" | "challengeAccepted" | "challengeDeclined" | "challengeCanceled",
     "challenge": {...}}  (challenges/services.py)

A lost message loses nothing that matters: every (re)connect first sends, from the database, every
game where it is the user's turn now (`initial_events`), then the live events."""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from channels.layers import get_channel_layer
from django.db import transaction

from games.engine import get_ruleset
from games.models import Game, GameAction, GameSeat
from westeros import live

log = logging.getLogger(__name__)
MESSAGE_TYPE = "stream.event"

# Callables user -> list of events, sent first on every connect (the challenges app adds the
# challenges waiting for the user's answer).
INITIAL_PROVIDERS: list[Callable[[Any], list[dict]]] = []


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def _iso(moment) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment is not None else None


def game_ref(game: Game, seat: GameSeat, **extra: Any) -> dict[str, Any]:
    return {"id": game.pk, "ruleset": game.ruleset, "seat": seat.seat, "version": game.version, **extra}


def your_turn(game: Game, seat: GameSeat, decision: str) -> dict[str, Any]:
    return {"type": "yourTurn",
            "game": game_ref(game, seat, decision=decision, deadline_at=_iso(seat.deadline_at))}


def events_for_change(game: Game, pending_before: set[str], records: list[GameAction], *, started: bool,
                      seats: list[GameSeat]) -> list[tuple[int, dict]]:
    """(user id, event) pairs for one change of a game, from what settle holds in memory (no query).

    gameStart to every player when the game is created; gameFinish to everyone who held a seat
    when it ends; otherwise yourTurn to each player's seat that is pending now and either was not
    before, acted in this change (its next decision), or timed out in it. A seat still thinking
    about the decision it already had is not told again."""
    if not game.is_active():  # everyone who held a seat, those who left too
        return [(s.user_id, {"type": "gameFinish",
                             "game": game_ref(game, s, status=game.status, ranking=game.ranking)})
                for s in seats if s.user_id is not None]
    players = [s for s in seats if s.user_id is not None and not s.is_bot]
    if not players:
        return []
    pending = get_ruleset(game.ruleset).pending(game.state)
    if started:
        return [(s.user_id, {"type": "gameStart",
                             "game": game_ref(game, s, status=game.status, ranked=game.ranked,
                                              decision=pending.get(s.seat))})
                for s in players]
    acted = {r.seat for r in records if r.source in (GameAction.Source.PLAYER, GameAction.Source.TIMEOUT)}
    return [(s.user_id, your_turn(game, s, pending[s.seat])) for s in players
            if s.seat in pending and (s.seat not in pending_before or s.seat in acted)]


def send_after_commit(events: Iterable[tuple[int, dict]]) -> None:
    """Send each (user id, event) to the user's streams once the transaction commits."""
    events = list(events)
    if events:
        transaction.on_commit(lambda: send_now(events))


def send_now(events: list[tuple[int, dict]]) -> None:
    """Send each (user id, event) to the user's streams (without waiting in the web server; the
    streams re-read the database when they reconnect)."""
    live.send_in_order(get_channel_layer(), [(user_group(user_id), {"type": MESSAGE_TYPE, "event": event})
                                             for user_id, event in events], log, f"{len(events)} stream event(s)")


def initial_events(user) -> list[dict]:
    """What a (re)connecting stream gets first, from the database: yourTurn for every active game
    where a decision of the user's is pending now, then each provider's (the challenges waiting)."""
    seats = (GameSeat.objects.filter(user=user, left_at__isnull=True, is_bot=False, game__status=Game.Status.ACTIVE)
             .select_related("game").order_by("game_id"))
    events = []
    for seat in seats:
        game = seat.game
        pending = get_ruleset(game.ruleset).pending(game.state)
        if seat.seat in pending and not game.is_paused():
            events.append(your_turn(game, seat, pending[seat.seat]))
    for provider in INITIAL_PROVIDERS:
        events.extend(provider(user))
    return events
