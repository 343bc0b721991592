"""How a card module changes a framework rule without editing the framework: `wrap(module, name)`
replaces `module.name` by the decorated function, which reaches the one it replaced as `fn.orig`
(cards_baratheon_targaryen.py and cards_martell_watch.py list their hooks in their docstrings)."""
from __future__ import annotations

from typing import Any


def wrap(module: Any, name: str):
    orig = getattr(module, name)

    def deco(fn):
        fn.orig = orig
        setattr(module, name, fn)
        return fn
    return deco
