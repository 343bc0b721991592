"""Shared helpers for the agot engine tests (pure Python, no database)."""
from __future__ import annotations

from typing import Any

import pytest

from games.engine import EngineError, get_ruleset

R = get_ruleset("agot")
THREE = ["stark", "lannister", "baratheon"]
SIX = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]


def game(setup: dict[str, Any], seats: list[str] | None = None, start: str = "action", seed: int = 1,
         options: dict[str, Any] | None = None) -> dict[str, Any]:
    return R.scenario_game(seats or THREE, options or {}, seed, setup, start)


def act(state: dict[str, Any], seat: str, action: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return R.apply(state, seat, action)


def refused(state: dict[str, Any], seat: str, action: dict[str, Any], code: str = "illegal_action") -> EngineError:
    with pytest.raises(EngineError) as info:
        R.apply(state, seat, action)
    assert info.value.code == code, info.value.reason
    return info.value


def summ(state: dict[str, Any], viewer: Any = "referee") -> dict[str, Any]:
    return R.summary(state, viewer)
