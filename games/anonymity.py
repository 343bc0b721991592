"""Anonymous players (issue 34, Swords and Ravens' "faceless"; docs/rules-decisions.md "AGoT variants"):
with the board game's `anonymous` option, the players' names are hidden from everyone while the game
runs; each seat's own player still sees their own name. Once the game is over (finished or abandoned)
the names show as in any game, and ratings apply as usual. Pure helpers: the API's seats
(queries.seat_rows), the log's names (queries.seat_player_names), who is connected (consumers.connected_to)
and the chat's authors (chat/serializers.py) ask here."""
from __future__ import annotations

from django.utils.translation import gettext

from games.models import Game


def hides_names(game: Game) -> bool:
    """Whether the game's players' names are hidden now: the option is on and the game still runs."""
    return bool((game.options or {}).get("anonymous")) and game.status == Game.Status.ACTIVE


def faceless() -> str:
    """How a hidden player is named, in the reader's language."""
    return gettext("a faceless player")


def presence_token(seat: str) -> str:
    """What a presence message carries for a connected player of a game that hides names: its seat."""
    return f"seat:{seat}"
