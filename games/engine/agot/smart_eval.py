"""Strength estimates for the smart bot (docs/agot-bot.md): what an attack or a defence is worth,
read only from what a seat may see (the board, revealed orders, public hands and discards).

Two kinds of estimate:
- planning (orders still face down): every Support order that *could* be placed is assumed, for
  the defender too, and the defender is assumed to place a Defense order (+1) on its units;
- action phase (orders revealed): the real March, Defense and Support orders (R196-R215).
House cards are public (R219 hides only the card being chosen), so a fight is judged with both
sides' strongest card in hand: the conservative estimate (the opponent's best card against ours).
"""
from __future__ import annotations

from typing import Any

from games.engine.agot import board as B
from games.engine.agot.combat import unit_strength
from games.engine.agot.data import board, house_cards, token_bonus, token_kind, token_special

State = dict[str, Any]

# What an area is worth taking: castles and strongholds win the game (R39), an enemy home most of all.
CASTLE_VALUE = {"stronghold": 6, "castle": 4}


def cards_of(state: State, house: str | None) -> list[int]:
    """Strengths of the house cards in the house's hand (public), highest first."""
    if house is None:
        return []
    cards = house_cards()
    return sorted((int(cards[c]["strength"]) for c in state["hands"].get(house, [])), reverse=True)


def best_card(state: State, house: str | None) -> int:
    return max(cards_of(state, house), default=0)


def wins_ties(state: State, house: str, other: str | None) -> bool:
    """R216: a tie goes to the house higher on the Fiefdoms track."""
    if other is None:
        return True
    fief = state["tracks"]["fiefdoms"]
    return fief.index(house) < fief.index(other)


def area_value(state: State, seat: str, area: str) -> int:
    """How much the seat wants to hold `area`: castles/strongholds (R39), an enemy home, power
    crowns and supply barrels; nothing for seas."""
    b = board()
    if b.type[area] == "sea":
        # a sea carries transport and support, and shields the coast next to it
        return 2 + sum(1 for t in b.land_next_to[area] if B.controller(state, t) == seat)
    if b.type[area] != "land":
        return 0
    value = CASTLE_VALUE.get(b.structure[area], 0) + b.power[area] + b.supply[area]
    home = B.home_of(state, area)
    if home and home != seat and home in state["seats"]:
        value += 3
    return value + 1


def land_units(state: State, area: str, house: str) -> list[str]:
    return [u for u in B.house_units(state, area, house) if not B.is_routed(u) and B.base_unit(u) != "ship"]


def units_strength(units: list[str], *, attacking: bool, castle: bool) -> int:
    return sum(unit_strength(u, attacking=attacking, castle=castle) for u in units)


def can_support(source: str, target: str) -> bool:
    """R198, R208, R213: land combats take support from land and sea areas, sea combats from seas and ports."""
    b = board()
    if source not in b.adj_set[target]:
        return False
    if b.type[target] == "land":
        return b.type[source] != "port"
    return b.type[source] != "land"


def potential_support(state: State, house: str, target: str, *, attacking: bool, exclude: set[str]) -> int:
    """Planning estimate: what `house` could add to a combat in `target` if it put Support orders on
    every adjacent area it holds (except `exclude`)."""
    castle = B.has_castle(target)
    total = 0
    for area in board().adjacent[target]:
        if area in exclude or not can_support(area, target):
            continue
        units = B.house_units(state, area, house)
        if board().type[target] != "land":
            units = [u for u in units if B.base_unit(u) == "ship"]
        total += units_strength(units, attacking=attacking, castle=castle)
    return total


def revealed_support(state: State, house: str, target: str, *, attacking: bool) -> int:
    """Action-phase value: what the house's revealed Support orders adjacent to `target` add (R201-R212)."""
    castle = B.has_castle(target)
    total = 0
    for area in board().adjacent[target]:
        order = state["orders"].get(area)
        if not order or order["house"] != house or token_kind(order["token"]) != "support":
            continue
        if not can_support(area, target):
            continue
        units = B.house_units(state, area, house)
        if board().type[target] != "land":
            units = [u for u in units if B.base_unit(u) == "ship"]
        if not units:
            continue
        total += units_strength(units, attacking=attacking, castle=castle) + (1 if token_special(order["token"]) else 0)
    return total


def defender_of(state: State, seat: str, target: str) -> str | None:
    """Who would defend `target` against the seat: the house with units there, else the home house of
    an enemy garrison (R275, A32); None for a neutral force or an empty area."""
    for house, units in B.units_in(state, target).items():
        if house != seat and units:
            return house
    home = B.home_of(state, target)
    if state["garrisons"].get(target) and home and home != seat and home in state["seats"]:
        return home
    return None


def defence_strength(state: State, seat: str, target: str, *, planning: bool) -> int:
    """The defender's strength before house cards (R215) as the seat estimates it."""
    defender = defender_of(state, seat, target)
    if defender is None:
        n = state["neutral_forces"].get(target)
        return n if isinstance(n, int) else 0
    castle = B.has_castle(target)
    units = B.house_units(state, target, defender)
    total = units_strength(units, attacking=False, castle=castle)
    if board().home_of.get(target) == defender:
        total += int(state["garrisons"].get(target) or 0)
    if planning:
        total += 1 if units else 0  # a Defense +1 is likely on a threatened army
        total += potential_support(state, defender, target, attacking=False, exclude=set())
    else:
        order = state["orders"].get(target)
        if order and order["house"] == defender and token_kind(order["token"]) == "defense":
            total += token_bonus(order["token"])
        total += revealed_support(state, defender, target, attacking=False)
    return total


def attack_margin(state: State, seat: str, target: str, attack: int) -> int:
    """Our strength minus theirs once both play their strongest card (a neutral force plays none,
    R281); > 0 (or 0 with the Fiefdoms tie-break, R216) means the attack should win."""
    defender = defender_of(state, seat, target)
    theirs = defence_strength(state, seat, target, planning=False)
    if defender is None:
        return attack - theirs  # a neutral force is beaten by equal strength (R280)
    margin = attack + best_card(state, seat) - theirs - best_card(state, defender)
    return margin if margin != 0 or not wins_ties(state, seat, defender) else 1


def planned_margin(state: State, seat: str, target: str, attack: int) -> int:
    """attack_margin with the planning estimate of the defence (unknown orders)."""
    defender = defender_of(state, seat, target)
    theirs = defence_strength(state, seat, target, planning=True)
    if defender is None:
        return attack - theirs
    margin = attack + best_card(state, seat) - theirs - best_card(state, defender)
    return margin if margin != 0 or not wins_ties(state, seat, defender) else 1


def threat_to(state: State, seat: str, area: str, transport: bool = True) -> int:
    """The strongest enemy army (one house's land units in one area) that could march into `area`:
    from a land area next to it, or (`transport`) by ship transport along that house's ships (R259)."""
    b = board()
    best = 0
    castle = B.has_castle(area)
    for other in b.land_next_to.get(area, ()):
        for house, units in B.units_in(state, other).items():
            if house != seat:
                best = max(best, units_strength(units, attacking=True, castle=castle))
    for sea in b.seas_next_to.get(area, ()) if transport else ():
        for house in B.units_in(state, sea):
            if house == seat:
                continue
            for other in _transport_sources(state, house, sea):
                if other != area:
                    units = B.house_units(state, other, house)
                    best = max(best, units_strength(units, attacking=True, castle=castle))
    return best


def _transport_sources(state: State, house: str, sea: str) -> set[str]:
    """Land areas next to the chain of the house's ships that includes `sea` (R259-R265)."""
    b = board()
    seen, frontier = {sea}, [sea]
    while frontier:
        s = frontier.pop()
        for t in b.adjacent[s]:
            if t not in seen and b.type[t] == "sea" and B.house_units(state, t, house):
                seen.add(t)
                frontier.append(t)
    return {land for s in seen for land in b.land_next_to[s] if B.house_units(state, land, house)}


def leader(state: State, exclude: str | None = None) -> str | None:
    """The house with the most castles and strongholds (R39), ties: the Iron Throne order."""
    counts = B.victory_counts(state)
    best = None
    for house in B.turn_order(state):
        if house != exclude and (best is None or counts[house] > counts[best]):
            best = house
    return best
