"""Errors the game services raise. They are DRF exceptions, so the API answers them in the one
error format ({"error", "detail", "fields"}), with the game's current version where it helps."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException

from games.engine import EngineError

ENGINE_STATUS = {
    "bad_action": status.HTTP_400_BAD_REQUEST,
    "illegal_action": status.HTTP_400_BAD_REQUEST,
    "not_your_turn": status.HTTP_409_CONFLICT,
    "game_over": status.HTTP_409_CONFLICT,
}


class GameError(APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid"

    def __init__(self, code: str, detail: str, *, status_code: int = 400, fields: dict | None = None, **extra: Any):
        super().__init__(detail=detail, code=code)
        self.status_code = status_code
        self.fields = fields or {}
        self.extra = extra


def from_engine(error: EngineError, version: int) -> GameError:
    """The engine's refusal in the API's shape; the rule ids behind it, when the engine gives them, in
    `rules` (for programs: the sentence in `detail` names no rule)."""
    extra = {"rules": list(error.rules)} if getattr(error, "rules", ()) else {}
    return GameError(error.code, error.reason, status_code=ENGINE_STATUS[error.code], version=version, **extra)


# One whole sentence per thing that may be missing (the Spanish word's gender changes the sentence).
NOT_FOUND = {
    "game": gettext_lazy("No such game, or you may not see it."),
    "lobby": gettext_lazy("No such lobby, or you may not see it."),
    "seat": gettext_lazy("No such seat, or you may not see it."),
    "tournament": gettext_lazy("No such tournament, or you may not see it."),
    "table": gettext_lazy("No such table, or you may not see it."),
    "registration": gettext_lazy("No such registration, or you may not see it."),
    "user": gettext_lazy("No such user, or you may not see it."),
    "chat channel": gettext_lazy("No such chat channel, or you may not see it."),
    "challenge": gettext_lazy("No such challenge, or you may not see it."),
}


def not_found(what: str = "game") -> GameError:
    """404 in the request's language (messages are built when raised, inside the request)."""
    detail = NOT_FOUND.get(what)
    text = str(detail) if detail is not None else gettext("No such %(what)s, or you may not see it.") % {"what": what}
    return GameError("not_found", text, status_code=404)


def forbidden(detail: str) -> GameError:
    return GameError("forbidden", detail, status_code=403)


def conflict(code: str, detail: str, **extra: Any) -> GameError:
    return GameError(code, detail, status_code=409, **extra)


# A game's status in the refusals' words ("This game is finished."), in the reader's language.
GAME_STATUS_WORDS = {"active": pgettext_lazy("a game", "active"), "finished": pgettext_lazy("a game", "finished"),
                     "abandoned": pgettext_lazy("a game", "abandoned")}


def game_over(game: Any) -> GameError:
    """409 game_over: "This game is finished." (or abandoned), with the game's version."""
    status = str(GAME_STATUS_WORDS.get(game.status, game.status))
    return conflict("game_over", gettext("This game is %(status)s.") % {"status": status}, version=game.version)
