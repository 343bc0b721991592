"""Connections to games.signals (made in RatingsConfig.ready): games/ never imports ratings."""
from __future__ import annotations

from games.signals import game_finished
from ratings.services import record_finished_game


def on_game_finished(sender, game, **kwargs) -> None:
    """Sent inside the transaction that ended the game, with the game row locked and saved: the rating
    changes commit or roll back with the game. Ranked games with a ranking only; idempotent."""
    record_finished_game(game)


def connect() -> None:
    game_finished.connect(on_game_finished, dispatch_uid="ratings.record_finished_game")
