"""The hook into games: after every change (games.signals.game_changed, inside the transaction,
sent by games.services.play.settle with the seats it read), the stream events are decided from
memory and sent after the commit. No query is added to the action path."""
from __future__ import annotations

import logging
from typing import Any

from games.signals import game_changed

log = logging.getLogger(__name__)


def on_game_changed(sender: Any, *, game, pending_before, records, started: bool = False, seats=None,
                    **kwargs: Any) -> None:
    from events.services import events_for_change, send_after_commit

    try:
        if seats is None:
            seats = list(game.seats.all())
        send_after_commit(events_for_change(game, set(pending_before), list(records), started=started,
                                            seats=list(seats)))
    except Exception:  # a stream event is never worth undoing a move
        log.exception("could not decide the stream events of game %s", game.pk)


def connect() -> None:
    game_changed.connect(on_game_changed, dispatch_uid="events.game_changed")
