"""Rules engines: pure Python, no Django import.

`get_ruleset(id)` returns the ruleset object for a game id (agot, later btwixt...).
"""
from __future__ import annotations

from games.engine.base import EngineError, Ruleset, get_ruleset, register, ruleset_ids

__all__ = ["EngineError", "Ruleset", "get_ruleset", "register", "ruleset_ids"]
