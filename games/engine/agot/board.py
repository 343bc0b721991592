"""Helpers over the game state: who is where, who controls what, power, victory.

All functions read (and the `add_*`/`remove_*`/`gain_*` ones mutate) the plain-data state described
in docs/engine-agot-state.md. combat.py uses these too; keep their signatures stable.
"""
from __future__ import annotations

from typing import Any

from games.engine.agot.data import POWER_PER_HOUSE, board

State = dict[str, Any]
ROUTED = "routed_"


def adjacent(area: str) -> tuple[str, ...]:
    """Areas adjacent on the board (rivers already removed, R268; transport NOT included, R266)."""
    return board().adjacent[area]


def area_type(area: str) -> str:
    """'land' | 'sea' | 'port'."""
    return board().type[area]


def home_of(state: State, area: str) -> str | None:
    """The house whose home area `area` is: its printed home shield, or under random start positions
    (issue 34, state["homes"]) the house dealt that start. May name a house not in play (callers check)."""
    homes = state.get("homes")
    if homes is not None:
        return homes.get(area)
    return board().home_of.get(area)


def home_area(state: State, house: str) -> str | None:
    """The home area of `house` (home_of the other way round)."""
    homes = state.get("homes")
    if homes is not None:
        return next((a for a, h in homes.items() if h == house), None)
    return board().home.get(house)


def has_castle(area: str) -> bool:
    """Castle or stronghold (siege engines count 4 against it, R194)."""
    return board().structure[area] in ("castle", "stronghold")


def base_unit(unit: str) -> str:
    """'routed_knight' -> 'knight'."""
    return unit[len(ROUTED):] if unit.startswith(ROUTED) else unit


def is_routed(unit: str) -> bool:
    return unit.startswith(ROUTED)


def units_in(state: State, area: str) -> dict[str, list[str]]:
    """{house: [units]} in an area ({} when empty). The lists are the state's own: copy before editing."""
    return state["units"].get(area, {})


def house_units(state: State, area: str, house: str) -> list[str]:
    return state["units"].get(area, {}).get(house, [])


def occupant(state: State, area: str) -> str | None:
    """The house with units in the area (outside a combat there is at most one)."""
    for house in state["units"].get(area, {}):
        return house
    return None


def add_units(state: State, area: str, house: str, units: list[str]) -> None:
    if units:
        state["units"].setdefault(area, {}).setdefault(house, []).extend(units)


def remove_units(state: State, area: str, house: str, units: list[str]) -> None:
    """Remove these units (a multiset) from the area; raises ValueError if one is missing."""
    if not units:
        return
    have = state["units"][area][house]
    for u in units:
        have.remove(u)
    if not have:
        del state["units"][area][house]
        if not state["units"][area]:
            del state["units"][area]


def controller(state: State, area: str) -> str | None:
    """Who controls an area (R164, R172-R174, R256).

    Land: the house with units there, else the owner of the power token there, else the house whose
    printed home shield it is (only for houses in play, A25). Sea and port: the house with ships there.
    """
    for house in state["units"].get(area, {}):
        return house
    b = board()
    if b.type[area] != "land":
        return None
    token = state["power_tokens"].get(area)
    if token:
        return token
    home = home_of(state, area)
    if home and home in state["seats"]:
        return home
    return None


def port_owner(state: State, port: str) -> str | None:
    """The controller of a port's land area: the only house that may use the port (R247)."""
    return controller(state, board().port_land[port])


def pool(state: State, house: str) -> int:
    """Power tokens of the house in the Power Pool: 20 - available - on the board (R7-R10)."""
    on_board = sum(1 for h in state["power_tokens"].values() if h == house)
    return POWER_PER_HOUSE - state["power"][house] - on_board


def gain_power(state: State, house: str, n: int) -> int:
    """Take up to n tokens from the pool (a gain with no token left is lost, R10). Returns the gain."""
    got = max(0, min(n, pool(state, house)))
    state["power"][house] += got
    return got


def discard_power(state: State, house: str, n: int) -> int:
    """Return up to n available tokens to the pool. Returns how many were discarded."""
    lost = max(0, min(n, state["power"][house]))
    state["power"][house] -= lost
    return lost


def castles_controlled(state: State, house: str) -> int:
    return sum(1 for a in board().castle_areas if controller(state, a) == house)


def victory_counts(state: State) -> dict[str, int]:
    """Castle/stronghold areas each house controls (the Victory track, R39)."""
    counts = {h: 0 for h in state["seats"]}
    for a in board().castle_areas:
        c = controller(state, a)
        if c in counts:
            counts[c] += 1
    return counts


def supply_icons(state: State, house: str) -> int:
    """Barrels in the areas the house controls, capped at 6 (R47, R67)."""
    b = board()
    n = sum(b.supply[a] for a in b.land if b.supply[a] and controller(state, a) == house)
    return min(n, 6)


def turn_order(state: State) -> list[str]:
    """Iron Throne track order (R5)."""
    return state["tracks"]["iron_throne"]


def holder(state: State, token: str) -> str | None:
    """Holder of a dominance token: iron_throne, valyrian_steel_blade or messenger_raven (R24, R88).
    None only while the Influence-track draft (draft.py) has not filled the track's first place."""
    track = {"iron_throne": "iron_throne", "valyrian_steel_blade": "fiefdoms", "messenger_raven": "kings_court"}[token]
    order = state["tracks"][track]
    return order[0] if order else None


def stars_of(state: State, house: str) -> int:
    """Special orders allowed by the house's King's Court position (R99, R117)."""
    from games.engine.agot.data import stars

    pos = state["tracks"]["kings_court"].index(house)
    table = stars(len(state["seats"]))
    return table[pos] if pos < len(table) else 0


def unit_counts(state: State, house: str) -> dict[str, int]:
    """Units of the house on the board by type (routed counted as their type), for the R9 limits."""
    out = {"footman": 0, "knight": 0, "ship": 0, "siege_engine": 0}
    for by_house in state["units"].values():
        for u in by_house.get(house, ()):
            out[base_unit(u)] += 1
    return out


def enemy_ships_in(state: State, sea: str, house: str) -> bool:
    return any(h != house and us for h, us in state["units"].get(sea, {}).items())
