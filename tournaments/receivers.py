"""The hook into games: tournaments.services.on_game_finished runs on games.signals.game_finished,
inside the game's transaction, in a savepoint: a failure here is logged and never undoes the move
(the organizer can still adjudicate the table)."""
from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from games.signals import game_finished, vote_check

log = logging.getLogger(__name__)


def on_game_finished(sender: Any, *, game, **kwargs: Any) -> None:
    from tournaments.services import on_game_finished as record

    try:
        with transaction.atomic():
            record(game)
    except Exception:
        log.exception("could not record the tournament result of game %s", game.pk)


def veto_locked_votes(sender: Any, *, game, **kwargs: Any) -> str | None:
    """Tournament games with lock_votes refuse in-game votes (pausing) that could spoil results."""
    from tournaments.services import votes_locked

    if votes_locked(game):
        return "This is a tournament game: its organizer locked in-game votes."
    return None


def connect() -> None:
    game_finished.connect(on_game_finished, dispatch_uid="tournaments.game_finished")
    vote_check.connect(veto_locked_votes, dispatch_uid="tournaments.vote_check")
