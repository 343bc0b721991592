"""Core Set cards beyond the learn-to-play decks: their abilities as data (the shape of cards.py's
ABILITIES), with the conditions, selectors, ops and scripts they need registered in abilities.py's
MORE_CONDS, MORE_SELECTORS, OPS and SCRIPTS. Imported by games/engine/lcg/__init__.py."""
from __future__ import annotations

from typing import Any

from games.engine.lcg.cards import ABILITIES

CARDS: dict[str, list[dict[str, Any]]] = {}

ABILITIES.update(CARDS)
