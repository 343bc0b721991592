"""Websocket notifications, sent after the transaction commits.

Each seat listens on its own group and spectators on another, so a message carrying one seat's
secret is never even delivered to another seat's connection: the events are filtered here, per
viewer, by the engine's `event_view`."""
from __future__ import annotations

import logging
from collections.abc import Iterable

from channels.layers import get_channel_layer
from django.db import transaction

from games.engine import get_ruleset
from games.models import Game, GameAction
from westeros import live

log = logging.getLogger(__name__)


def seat_group(game_id: int, seat: str) -> str:
    return f"game.{game_id}.seat.{seat}"


def spectator_group(game_id: int) -> str:
    return f"game.{game_id}.spectators"


def table_group(game_id: int) -> str:
    """Everyone connected to the game (presence and table-wide notices)."""
    return f"game.{game_id}.table"


def events_for(ruleset: str, records: Iterable[GameAction], viewer: str | None, view=None) -> list[dict]:
    """The events of `records` as `viewer` reads them: the engine's event_view, or `view` (an event
    filter of the reader's own: a delayed spectator's, games/spectators.py)."""
    engine = get_ruleset(ruleset)
    visible = []
    for record in records:
        for event in record.events:
            shown = engine.event_view(event, viewer) if view is None else view(event)
            if shown is not None:
                visible.append({**shown, "version": record.version})
    return visible


def fan_out(game_id: int, ruleset: str, records: list[GameAction], seats: list[str],
            delayed: bool = False) -> list[tuple[str, list[dict]]]:
    """(group, events) pairs to send: one message to the whole table when every seat sees exactly
    what a spectator sees (nothing hidden in these events: most changes), otherwise one per seat
    and one for the spectators, each filtered by the engine's `event_view`. One group_send instead
    of seven for a six-player table keeps the channel layer's queues short under load. `delayed`: the
    spectators watch with a delay (games/spectators.py): they never get the live events, only an
    update without events (their page re-fetches the delayed game), and nothing goes to the table."""
    views = [(seat_group(game_id, seat), events_for(ruleset, records, seat)) for seat in seats]
    if delayed:
        return [*views, (spectator_group(game_id), [])]
    public = events_for(ruleset, records, None)
    if all(events == public for _, events in views):
        return [(table_group(game_id), public)]
    return [*views, (spectator_group(game_id), public)]


def after_commit(game: Game, records: list[GameAction], *, seats_changed: bool = False,
                 seat_names: list[str] | None = None) -> None:
    """Send the change to every connection once the transaction commits. `records` are all the
    actions appended in it (contiguous versions), so the message spans from_version -> version;
    from_version == version when only the seats or the status changed. Commits of different requests
    send concurrently, so messages can cross: the consumer puts them back in version order."""
    from games.spectators import delay_rounds

    game_id, ruleset, version, status = game.pk, game.ruleset, game.version, game.status
    delayed = delay_rounds(game) > 0  # the spectators' delay: never the live events, even at the end
    seats = game.seat_names() if seat_names is None else list(seat_names)
    records = list(records)
    from_version = records[0].version - 1 if records else version

    def send() -> None:
        messages = [
            # `viewer`: the seat the events were filtered for (None: the public view), so that a socket
            # whose player no longer holds that seat (a substitute took it over) drops them
            (group, {"type": "game.update", "from_version": from_version, "version": version, "status": status,
                     "events": events, "seats_changed": seats_changed,
                     "viewer": group.split(".seat.", 1)[1] if ".seat." in group else None})
            for group, events in fan_out(game_id, ruleset, records, seats, delayed)
        ]
        live.send_in_order(get_channel_layer(), messages, log, f"game {game_id} at version {version}")

    if records or seats_changed:
        transaction.on_commit(send)
