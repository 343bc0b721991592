"""Ability texts of Core Set cards beyond the learn-to-play decks (games/engine/lcg/data/core_set.yaml's
`ability`), marked for translation as web/lcg_texts.py's are; that module adds them to its TEXTS."""
from __future__ import annotations

from django.utils.translation import gettext_noop

TEXTS: tuple[str, ...] = (
)
