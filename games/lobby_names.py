"""A lobby's name as a reader sees it, in the reader's language (issue 29).

A lobby the site makes for someone ("Play now against the computer", "Rematch") is stored without a
name: its name is worded when shown, from what the lobby is, so each reader gets it in their own
language. A name someone gave their lobby is shown as they wrote it. Lobbies made before this stored
the English words ("tyrion against the computer", "Rematch of game 12"): those are recognised and
worded the same way.
"""
from __future__ import annotations

import re

from django.utils.translation import gettext

STORED_REMATCH = re.compile(r"Rematch of game (\d+)")
STORED_COMPUTER = " against the computer"


def lobby_title(name: str, creator: str, *, computer_seats: int = 0, seat_count: int = 0,
                rematch_of: int | None = None) -> str:
    """The name to show: the lobby's own, else what it is ("Rematch of game 12", "tyrion against the
    computer", "tyrion's lobby"), in the active language."""
    if name:
        stored = STORED_REMATCH.fullmatch(name)
        if stored:
            return gettext("Rematch of game %(number)s") % {"number": stored[1]}
        if name == creator + STORED_COMPUTER:
            return gettext("%(creator)s against the computer") % {"creator": creator}
        return name
    if rematch_of:
        return gettext("Rematch of game %(number)s") % {"number": rematch_of}
    if seat_count > 1 and computer_seats >= seat_count - 1:  # everyone else is the computer
        return gettext("%(creator)s against the computer") % {"creator": creator}
    return gettext("%(creator)s's lobby") % {"creator": creator}


def title_of(lobby) -> str:
    """`lobby_title` of a Lobby row."""
    return lobby_title(lobby.name, lobby.creator.username, computer_seats=lobby.computer_seats,
                       seat_count=lobby.seat_count, rematch_of=lobby.rematch_of_id)


def own_name(name: str) -> str:
    """The name someone gave the lobby ("" for none, and for the English words the site stored before)."""
    if STORED_REMATCH.fullmatch(name) or name.endswith(STORED_COMPUTER):
        return ""
    return name
