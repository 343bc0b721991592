"""Errors the game services raise. They are DRF exceptions, so the API answers them in the one
error format ({"error", "detail", "fields"}), with the game's current version where it helps."""
from __future__ import annotations

from typing import Any

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
    return GameError(error.code, error.reason, status_code=ENGINE_STATUS[error.code], version=version)


def not_found(what: str = "game") -> GameError:
    return GameError("not_found", f"No such {what}, or you may not see it.", status_code=404)


def forbidden(detail: str) -> GameError:
    return GameError("forbidden", detail, status_code=403)


def conflict(code: str, detail: str, **extra: Any) -> GameError:
    return GameError(code, detail, status_code=409, **extra)
