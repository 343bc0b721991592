"""Supply limits (R63-R67, R161, R238d): armies are 2+ units of one house in one area (ports included).

`fits(state, house, delta)` answers "would the house's armies fit its supply level if the unit
counts per area changed by `delta`?" without touching the state. combat.py uses it for retreats.
"""
from __future__ import annotations

from typing import Any

from games.engine.agot.data import supply_table

State = dict[str, Any]


def army_sizes(state: State, house: str, delta: dict[str, int] | None = None) -> list[int]:
    """Sizes of the house's armies (2+ units in an area), largest first, after `delta` {area: +-n}."""
    counts: dict[str, int] = {}
    for area, by_house in state["units"].items():
        n = len(by_house.get(house, ()))
        if n:
            counts[area] = n
    if delta:
        for area, d in delta.items():
            counts[area] = counts.get(area, 0) + d
    return sorted((n for n in counts.values() if n >= 2), reverse=True)


def allowed(level: int) -> tuple[int, ...]:
    return supply_table()[max(0, min(6, level))]


def sizes_fit(sizes: list[int], level: int) -> bool:
    """R65: no more armies than slots and the i-th largest army within the i-th largest slot."""
    slots = allowed(level)
    if len(sizes) > len(slots):
        return False
    return all(a <= c for a, c in zip(sizes, slots, strict=False))


def fits(state: State, house: str, delta: dict[str, int] | None = None) -> bool:
    return sizes_fit(army_sizes(state, house, delta), state["supply"][house])


def max_army(state: State, house: str) -> int:
    return allowed(state["supply"][house])[0]
