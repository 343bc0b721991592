"""The hook into games: notifications.services.game_changed runs on games.signals.game_changed,
inside the game's transaction, in a savepoint: a failure here is logged and never undoes the move."""
from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from games.models import GameAction
from games.signals import game_changed

log = logging.getLogger(__name__)


def on_game_changed(sender: Any, *, game, pending_before: set[str], records: list[GameAction],
                    started: bool = False, seats=None, **kwargs: Any) -> None:
    from notifications.services import game_changed as decide

    try:
        with transaction.atomic():
            decide(game, set(pending_before), list(records), started=started, seats=seats)
    except Exception:
        log.exception("could not decide the notifications of game %s", game.pk)


def connect() -> None:
    game_changed.connect(on_game_changed, dispatch_uid="notifications.game_changed")
