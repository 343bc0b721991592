"""A small deterministic generator whose whole state is one JSON integer.

SplitMix64 (Steele, Lea, Flood 2014): the state is a 64-bit counter advanced by a fixed odd constant
and each output is a mix of it. It is pure Python, fast enough for shuffles, and its state lives in
the game state (`state["rng"]`), so the same seed and the same actions always give the same game.
Every function takes the game state (any dict with an "rng" key) and advances state["rng"] in place.
"""
from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a seed (any int; negative and huge seeds are folded to 64 bits)."""
    return (int(seed) * 0x2545F4914F6CDD1D + 0x632BE59BD9B4E019) & _MASK


def next_u64(holder: dict[str, Any]) -> int:
    s = (holder["rng"] + _GAMMA) & _MASK
    holder["rng"] = s
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def randbelow(holder: dict[str, Any], n: int) -> int:
    """Uniform integer in [0, n) without modulo bias (rejection sampling)."""
    if n <= 0:
        raise ValueError("randbelow needs n > 0")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        v = next_u64(holder)
        if v < limit:
            return v % n


def randint(holder: dict[str, Any], lo: int, hi: int) -> int:
    """Uniform integer in [lo, hi], both ends included."""
    return lo + randbelow(holder, hi - lo + 1)


def choice(holder: dict[str, Any], seq: Sequence[T]) -> T:
    return seq[randbelow(holder, len(seq))]


def shuffle(holder: dict[str, Any], items: MutableSequence[Any], start: int = 0) -> None:
    """Fisher-Yates shuffle of items[start:] in place (items before `start` keep their places)."""
    for i in range(len(items) - 1, start, -1):
        j = start + randbelow(holder, i - start + 1)
        items[i], items[j] = items[j], items[i]
