"""The texts of the 42 house cards (R218-R227; data/house_cards.yaml), one entry per card with its
timing key, resolved by combat.py at the points the timing names.

Timings (house_cards.yaml, header notes; R221, R222):

- `immediately`: right after both cards are revealed (combat step 3), cancel abilities first (Tyrion
  Lannister) then the others, each group in Iron Throne order; one card's text is carried out
  completely before the next (R222). A card revealed in place of another (Tyrion, Aeron) has its own
  immediate text resolved too; a text that already resolved never resolves twice.
- `combat`: modifiers read whenever the strengths and icons are computed (steps 3-6): see
  `card_strength`, `icon_bonus`, `unit_value`, `defense_multiplier`, `immune`.
- `on_result`: once the victor is known and casualties are taken, in Iron Throne order (R222.3):
  Tywin, Cersei, Renly here; Robb (retreat), Arianne, Loras, Roose act at their own points of the
  combat's end (combat.py) because that is where their effect lands.
- `after_combat`: at the end of the combat clean-up, after both played cards are discarded
  (Patchface).

Abilities that ask for a choice are `choose` decisions owned by combat (`decision.owner = "combat"`,
`decision.ability = card id`), listed by `options`; D21 defaults: a "may" ability is declined
(`false`), a mandatory one takes its first listed option (area/unit ids in order). A mandatory
choice with a single option is taken by the engine (project decision: forced decisions).
Readings of ambiguous texts are listed in docs/rules-decisions.md ("Issue 5").
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine.agot import board as B
from games.engine.agot.data import TRACKS, house_cards, unit_limits

State = dict[str, Any]
Cur = dict[str, Any]
Event = dict[str, Any]

ATTACKER = "attacker"
DEFENDER = "defender"
CANCEL = frozenset({"tyrion_lannister"})  # R222.1: the only "cancel/ignore" text of the base game


# =========================================================================== small helpers


def card_of(cur: Cur, house: str | None) -> str | None:
    if house is None:
        return None
    return (cur.get("cards") or {}).get(house)


def opponent(cur: Cur, house: str) -> str | None:
    return cur["defender"] if house == cur["attacker"] else cur["attacker"]


def timing(card: str | None) -> str | None:
    return house_cards()[card].get("timing") if card else None


def _plays(cur: Cur, house: str | None, card: str) -> bool:
    return house is not None and card_of(cur, house) == card


def _it_rank(state: State, house: str) -> int:
    return state["tracks"]["iron_throne"].index(house)


def _event(events: list[Event], house: str, card: str, **details: Any) -> None:
    events.append({"type": "card_ability", "house": house, "card": card, **details})


# =========================================================================== combat-time modifiers


def printed_strength(cur: Cur, house: str) -> int:
    """The card's printed strength; Balon Greyjoy makes the opponent's count 0 (icons and text stay)."""
    card = card_of(cur, house)
    if card is None:
        return 0
    if _plays(cur, opponent(cur, house), "balon_greyjoy"):
        return 0
    return int(house_cards()[card]["strength"])


def card_strength(state: State, cur: Cur, house: str) -> int:
    """Printed strength plus the +1 of Stannis (opponent higher on the Iron Throne track), Theon
    (defending a castle/stronghold area) and Davos (Stannis in the discard pile)."""
    total = printed_strength(cur, house)
    card = card_of(cur, house)
    if card == "stannis_baratheon":
        other = opponent(cur, house)
        if other is not None and _it_rank(state, other) < _it_rank(state, house):
            total += 1
    elif card == "ser_davos_seaworth" and _davos_active(state, house):
        total += 1
    elif card == "theon_greyjoy" and _theon_active(cur, house):
        total += 1
    return total


def _davos_active(state: State, house: str) -> bool:
    return "stannis_baratheon" in state["discards"].get(house, [])


def _theon_active(cur: Cur, house: str) -> bool:
    return house == cur["defender"] and B.has_castle(cur["area"])


def icon_bonus(state: State, cur: Cur, house: str, icon: str) -> int:
    """Icons a card's text adds: Theon (+1 sword), Davos (+1 sword), Asha unsupported (2 swords,
    1 fortification), Nymeria (1 fortification defending, 1 sword attacking)."""
    card = card_of(cur, house)
    if card == "theon_greyjoy" and _theon_active(cur, house):
        return 1 if icon == "swords" else 0
    if card == "ser_davos_seaworth" and _davos_active(state, house):
        return 1 if icon == "swords" else 0
    if card == "asha_greyjoy" and house not in cur.get("supported", []):
        return {"swords": 2, "fortifications": 1}.get(icon, 0)
    if card == "nymeria_sand":
        wanted = "fortifications" if house == cur["defender"] else "swords"
        return 1 if icon == wanted else 0
    return 0


def unit_value(cur: Cur, side_house: str, owner: str, unit: str, base: int) -> int:
    """A unit's contribution to `side_house`'s strength once card texts apply.
    Kevan/Victarion: the attacker's own footmen/ships (attacking or supporting it) count 2.
    Salladhor Saan: when its owner is supported, every non-Baratheon ship counts 0."""
    kind = B.base_unit(unit)
    if kind == "ship" and owner != "baratheon":
        for house in (cur["attacker"], cur["defender"]):
            if _plays(cur, house, "salladhor_saan") and house in cur.get("supported", []):
                return 0
    if B.is_routed(unit) or side_house != cur["attacker"] or owner != side_house:
        return base
    card = card_of(cur, side_house)
    if (card == "ser_kevan_lannister" and kind == "footman") or (card == "victarion_greyjoy" and kind == "ship"):
        return 2
    return base


def defense_multiplier(cur: Cur, house: str | None) -> int:
    """Catelyn Stark: the owner's Defense order in the embattled area counts double."""
    return 2 if _plays(cur, house, "catelyn_stark") else 1


def immune(cur: Cur, house: str | None) -> bool:
    """The Blackfish: no casualties from card texts, swords or Tides of Battle skulls."""
    return _plays(cur, house, "the_blackfish")


# =========================================================================== abilities with a choice


@dataclass(frozen=True)
class Ability:
    timing: str
    may: bool
    options: Callable[[State, Cur, str], list[Any]]
    apply: Callable[[State, Cur, str, Any, list[Event]], None]


# ------------------------------------------------------------------ immediately


def _tyrion_options(state: State, cur: Cur, house: str) -> list[Any]:
    return [True] if card_of(cur, opponent(cur, house)) is not None else []


def _tyrion(state: State, cur: Cur, house: str, value: Any, events: list[Event]) -> None:
    """The opponent's card goes back to its hand; it must reveal a different one (none: no card)."""
    other = opponent(cur, house)
    assert other is not None
    card = cur["cards"][other]
    state["hands"][other].append(card)
    state["hands"][other].sort()
    cur["cards"][other] = None
    cur["replace"] = {"house": other, "exclude": [card]}
    _event(events, house, "tyrion_lannister", cancelled=card, opponent=other)


def _aeron_options(state: State, cur: Cur, house: str) -> list[Any]:
    return [True] if state["power"][house] >= 2 and state["hands"][house] else []


def _aeron(state: State, cur: Cur, house: str, value: Any, events: list[Event]) -> None:
    """Pay 2 power, discard Aeron, and reveal another card from the hand instead."""
    B.discard_power(state, house, 2)
    state["discards"][house].append("aeron_damphair")
    cur["cards"][house] = None
    cur["replace"] = {"house": house, "exclude": ["aeron_damphair"]}
    _event(events, house, "aeron_damphair", paid=2)


def mace_targets(state: State, cur: Cur, house: str) -> list[str]:
    """The opponent's footmen attacking or defending (not supporting, not routed)."""
    other = opponent(cur, house)
    if other is None:
        return []
    units = cur["units"] if other == cur["attacker"] else B.house_units(state, cur["area"], other)
    return ["footman"] if "footman" in units else []


def _mace_options(state: State, cur: Cur, house: str) -> list[Any]:
    return [{cur["area"]: ["footman"]}] if mace_targets(state, cur, house) else []


def _mace(state: State, cur: Cur, house: str, value: Any, events: list[Event]) -> None:
    other = opponent(cur, house)
    assert other is not None
    if immune(cur, other):
        _event(events, house, "mace_tyrell", prevented_by="the_blackfish")
        return
    if other == cur["attacker"]:
        cur["units"].remove("footman")
    else:
        B.remove_units(state, cur["area"], other, ["footman"])
    events.append({"type": "units_destroyed", "house": other, "area": cur["area"], "units": ["footman"],
                   "reason": "mace_tyrell"})


def _qot_options(state: State, cur: Cur, house: str) -> list[Any]:
    other = opponent(cur, house)
    out = []
    for area in sorted(B.adjacent(cur["area"])):
        order = state["orders"].get(area)
        if not order or order["house"] != other:
            continue
        if other == cur["attacker"] and area == cur["origin"]:
            continue  # the March order that started this combat
        out.append(area)
    return out


def _qot(state: State, cur: Cur, house: str, value: Any, events: list[Event]) -> None:
    order = state["orders"].pop(value)
    events.append({"type": "order_removed", "house": order["house"], "area": value, "token": order["token"],
                   "by": "queen_of_thorns"})


def _doran_options(state: State, cur: Cur, house: str) -> list[Any]:
    other = opponent(cur, house)
    if other is None:
        return []
    # first the tracks where the opponent is not already last (the D21 default takes the first)
    return sorted(TRACKS, key=lambda t: (state["tracks"][t][-1] == other, TRACKS.index(t)))


def _doran(state: State, cur: Cur, house: str, value: Any, events: list[Event]) -> None:
    """R286, R287: the opponent goes last; the others move up; a dominance token follows position 1
    in its current state (derived from the tracks, `used` is kept per token)."""
    other = opponent(cur, house)
    track = state["tracks"][value]
    track.remove(other)
    track.append(other)
    _event(events, house, "doran_martell", track=value, moved=other)


# ------------------------------------------------------------------ on the result


def _tywin_options(state: State, cur: Cur, house: str) -> list[Any]:
    return [True] if cur.get("winner") == house else []


def _tywin(state: State, cur: Cur, house: str, value: Any, events: list[Event]) -> None:
    got = B.gain_power(state, house, 2)
    _event(events, house, "tywin_lannister", power=got)


def cersei_targets(state: State, cur: Cur, house: str) -> list[str]:
    loser = cur.get("loser")
    if cur.get("winner") != house or loser is None:
        return []
    skip = {cur["area"], cur["origin"]}  # the orders of this combat go anyway (R244)
    return sorted(a for a, o in state["orders"].items() if o["house"] == loser and a not in skip)


def _cersei(state: State, cur: Cur, house: str, value: Any, events: list[Event]) -> None:
    order = state["orders"].pop(value)
    events.append({"type": "order_removed", "house": order["house"], "area": value, "token": order["token"],
                   "by": "cersei_lannister"})


def renly_targets(state: State, cur: Cur, house: str) -> list[Any]:
    """Footmen of the winner that took part (in the embattled area) or supported it from an area
    with a Baratheon Support order; a Knight must be left in the house's supply (R9)."""
    from games.engine.agot import combat

    if cur.get("winner") != house:
        return []
    knights = B.unit_counts(state, house).get("knight", 0)
    if house == cur["attacker"]:
        knights += cur["units"].count("knight")  # the attacking units are off the board until the end
    if knights >= unit_limits()["knight"]:
        return []
    out: list[Any] = []
    fighting = cur["units"] if house == cur["attacker"] else B.house_units(state, cur["area"], house)
    if "footman" in fighting:
        out.append({cur["area"]: ["footman"]})
    if cur["supports"].get(house) is not None and house not in cur["refused"]:
        for area in combat.support_areas(state, house, cur["area"]):
            if "footman" in B.house_units(state, area, house):
                out.append({area: ["footman"]})
    return out


def _renly(state: State, cur: Cur, house: str, value: Any, events: list[Event]) -> None:
    (area, _units), = value.items()
    if area == cur["area"] and house == cur["attacker"]:
        cur["units"].remove("footman")
        cur["units"].append("knight")
        cur["units"].sort()
    else:
        B.remove_units(state, area, house, ["footman"])
        B.add_units(state, area, house, ["knight"])
    _event(events, house, "renly_baratheon", area=area, upgraded="footman", to="knight")


# ------------------------------------------------------------------ after combat


def _patchface_options(state: State, cur: Cur, house: str) -> list[Any]:
    other = opponent(cur, house)
    return sorted(state["hands"].get(other, [])) if other else []


def _patchface(state: State, cur: Cur, house: str, value: Any, events: list[Event]) -> None:
    """Discard one card of the opponent's hand. Reading: when that empties the hand, the other cards
    of its discard pile come back, as after a 7th card (R224)."""
    other = opponent(cur, house)
    assert other is not None
    state["hands"][other].remove(value)
    state["discards"][other].append(value)
    _event(events, house, "patchface", discarded=value, opponent=other)
    if not state["hands"][other]:
        state["hands"][other] = sorted(c for c in state["discards"][other] if c != value)
        state["discards"][other] = [value]
        events.append({"type": "hand_refreshed", "house": other})


ABILITIES: dict[str, Ability] = {
    "tyrion_lannister": Ability("immediately", True, _tyrion_options, _tyrion),
    "aeron_damphair": Ability("immediately", True, _aeron_options, _aeron),
    "mace_tyrell": Ability("immediately", False, _mace_options, _mace),
    "queen_of_thorns": Ability("immediately", False, _qot_options, _qot),
    "doran_martell": Ability("immediately", False, _doran_options, _doran),
    "tywin_lannister": Ability("on_result", False, _tywin_options, _tywin),
    "cersei_lannister": Ability("on_result", True, cersei_targets, _cersei),
    "renly_baratheon": Ability("on_result", True, renly_targets, _renly),
    "patchface": Ability("after_combat", True, _patchface_options, _patchface),
}


# =========================================================================== the queue of abilities


def next_ability(state: State, cur: Cur, when: str) -> tuple[str, str] | None:
    """The next unresolved ability of timing `when` among the revealed cards: cancel texts first,
    then Iron Throne order (R222), read from the tracks as they are now (Doran may move them)."""
    done = cur.setdefault("resolved", [])
    todo = []
    for house, card in (cur.get("cards") or {}).items():
        if card is None or card not in ABILITIES or ABILITIES[card].timing != when:
            continue
        if f"{house}:{card}" in done:
            continue
        todo.append((0 if card in CANCEL else 1, _it_rank(state, house), house, card))
    if not todo:
        return None
    _c, _r, house, card = min(todo)
    return house, card


def start(state: State, cur: Cur, house: str, card: str, events: list[Event]) -> dict[str, Any] | None:
    """Resolve `card`'s ability, or return what to ask its owner ({house, card, options})."""
    cur.setdefault("resolved", []).append(f"{house}:{card}")
    ability = ABILITIES[card]
    options = ability.options(state, cur, house)
    if not options:
        return None
    if ability.may or len(options) > 1:
        return {"house": house, "card": card, "options": options + ([False] if ability.may else [])}
    ability.apply(state, cur, house, options[0], events)
    return None


def choose(state: State, cur: Cur, ask: dict[str, Any], value: Any, events: list[Event]) -> None:
    """Apply the owner's answer to a pending ability choice (validated against its options)."""
    if value not in ask["options"]:
        raise ValueError(value)
    if value is False:
        _event(events, ask["house"], ask["card"], declined=True)
        return
    ABILITIES[ask["card"]].apply(state, cur, ask["house"], value, events)


def default_choice(ask: dict[str, Any]) -> Any:
    """D21: decline a "may" ability; else the first legal option."""
    return False if False in ask["options"] else ask["options"][0]


# =========================================================================== passive result texts


def robb_chooses_retreat(cur: Cur) -> bool:
    """Robb Stark: the winner chooses the defeated defender's retreat (fewest losses)."""
    return _plays(cur, cur.get("winner"), "robb_stark") and cur.get("loser") == cur["defender"]


def arianne_holds(cur: Cur) -> bool:
    """Arianne Martell: a defeated defender keeps the attacker out; its units go back home."""
    return cur.get("loser") == cur["defender"] and _plays(cur, cur["defender"], "arianne_martell")


def loras_moves_march(cur: Cur) -> bool:
    return cur.get("winner") == cur["attacker"] and _plays(cur, cur["attacker"], "ser_loras_tyrell")


def roose_returns(cur: Cur) -> str | None:
    loser = cur.get("loser")
    return loser if _plays(cur, loser, "roose_bolton") else None
