"""Action phase (R131-R188): raids, marches (moves, transport, ports, control, neutral forces),
consolidate power, clean-up; control changes, the Victory track and the instant win.

Each loop goes round the Iron Throne order one order at a time (R132). `advance()` drives it: it finds
the next house with an order of the current kind, takes a forced decision itself (SCENARIOS.md
"Decisions") or sets state["decision"] and returns. Every handler mutates the working copy it is given.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import fields as F
from games.engine.agot import board as B
from games.engine.agot import names as NM
from games.engine.agot import supply
from games.engine.agot.data import LAND_UNITS, board, token_bonus, token_kind, token_special, unit_limits
from games.engine.base import EngineError
from games.engine.narration import gettext

State = dict[str, Any]
Event = dict[str, Any]
LOOPS = ("raid", "march", "consolidate")
STRENGTH = {"footman": 1, "knight": 2, "ship": 1, "siege_engine": 0}


def _combat_module() -> Any:
    # Imported here: combat.py imports this module (after_combat, transport_reach).
    from games.engine.agot import combat

    return combat


# ------------------------------------------------------------------ the loop driver


def start_action(state: State, events: list[Event]) -> None:
    state["phase"] = "action"
    state["step"] = "raid"
    state["decision"] = None
    state["action"] = {"loop": "raid", "next": 0, "march": None, "captures": []}
    events.append({"type": "action_phase"})
    advance(state, events)


def orders_of(state: State, house: str, kind: str) -> list[str]:
    """Areas holding the house's orders of a kind, sorted by area id."""
    return sorted(a for a, o in state["orders"].items() if o["house"] == house and token_kind(o["token"]) == kind)


def advance(state: State, events: list[Event]) -> None:
    """Run the Action phase until a seat must decide, the phase ends or the game ends."""
    while state["phase"] == "action" and state["decision"] is None and state["winner"] is None:
        cur = state["action"]
        if cur["march"] is not None or cur["captures"]:
            return  # a combat or a port capture is under way: its module calls back
        loop = cur["loop"]
        order = B.turn_order(state)
        n = len(order)
        house = None
        for k in range(n):
            h = order[(cur["next"] + k) % n]
            if orders_of(state, h, loop):
                house = h
                break
        if house is None:
            i = LOOPS.index(loop)
            if i + 1 < len(LOOPS):
                cur["loop"] = LOOPS[i + 1]
                cur["next"] = 0
                state["step"] = LOOPS[i + 1]
                continue
            cleanup(state, events)
            return
        cur["next"] = (order.index(house) + 1) % n
        _turn(state, house, loop, events)


def _turn(state: State, house: str, loop: str, events: list[Event]) -> None:
    if loop == "raid":
        raids = orders_of(state, house, "raid")
        if not any(raid_targets(state, a) for a in raids):
            # R139: no legal target anywhere: the engine removes one (lowest area id), logged with why.
            _remove_order(state, raids[0], events, "raid_removed", forced=True,
                          reason=_no_raid_reason(state, raids[0]))
            return
        state["decision"] = {"kind": "raid", "seats": [house]}
    elif loop == "march":
        marches = orders_of(state, house, "march")
        if not any(can_move(state, house, a) for a in marches):
            routed = not any(not B.is_routed(u) for u in B.house_units(state, marches[0], house))
            _remove_order(state, marches[0], events, "march_removed", forced=True,
                          reason="routed" if routed else "no_move")
            return
        state["decision"] = {"kind": "march", "seats": [house]}
    else:
        cps = orders_of(state, house, "consolidate")
        if any(can_cp_muster(state, house, a) for a in cps):
            # R182: a special order in a castle area may muster instead: a real choice, asked.
            state["decision"] = {"kind": "consolidate", "seats": [house]}
            return
        # R179-R183: the gain is fixed by the rules: the engine takes it (lowest area id first).
        consolidate_power(state, house, cps[0], events, forced=True)


def _remove_order(state: State, area: str, events: list[Event], kind: str, forced: bool = False,
                  reason: str | None = None) -> None:
    """Take the order off the board and log it; a forced removal says why (`reason`, a code
    narrate.py puts in words): `no_target`, `only_defense` (raids), `routed`, `no_move` (marches)."""
    o = state["orders"].pop(area)
    ev: Event = {"type": kind, "house": o["house"], "area": area, "token": o["token"]}
    if forced:
        ev["forced"] = True
    if reason is not None:
        ev["reason"] = reason
    events.append(ev)


def _no_raid_reason(state: State, area: str) -> str:
    """Why the raid in `area` has no target (R139): `only_defense` when an enemy Defense order lies
    where the raid could reach it but only a special Raid removes Defense orders (R141), else
    `no_target`."""
    o = state["orders"][area]
    b = board()
    for t in b.adjacent[area]:
        tgt = state["orders"].get(t)
        if not tgt or tgt["house"] == o["house"] or token_kind(tgt["token"]) != "defense":
            continue
        if (b.type[area] == "land" and b.type[t] != "land") or (b.type[area] == "port" and b.type[t] != "sea"):
            continue
        return "only_defense"
    return "no_target"


# ------------------------------------------------------------------ raids (R134-R145)


def raid_targets(state: State, area: str) -> list[str]:
    """Adjacent areas holding an enemy order this raid may remove, sorted (R134, R137, R141, R142)."""
    o = state["orders"][area]
    house = o["house"]
    special = token_special(o["token"])
    b = board()
    kinds = ("support", "raid", "consolidate", "defense") if special else ("support", "raid", "consolidate")
    src_type = b.type[area]
    out = []
    for t in b.adjacent[area]:
        tgt = state["orders"].get(t)
        if not tgt or tgt["house"] == house or token_kind(tgt["token"]) not in kinds:
            continue
        ttype = b.type[t]
        if src_type == "land" and ttype != "land":
            continue  # R137, R142: land raids never reach seas or ports
        if src_type == "port" and ttype != "sea":
            continue  # R142: a port raids only its sea
        out.append(t)
    return out


def do_raid(state: State, house: str, value: Any, events: list[Event]) -> None:
    if not isinstance(value, dict) or set(value) - {"from", "target"} or "from" not in value:
        raise EngineError("bad_action", gettext("raid takes {from: area, target: area or null}"))
    area, target = value["from"], value.get("target")
    o = state["orders"].get(area) if isinstance(area, str) else None
    if not o or o["house"] != house or token_kind(o["token"]) != "raid":
        raise EngineError("illegal_action", gettext("%(house)s has no raid order in %(area)s") % {"house": NM.house(house), "area": NM.area(F.shown(area))})
    if target is not None and target not in raid_targets(state, area):
        raise EngineError("illegal_action",
                          gettext("the raid in %(area)s cannot target %(target)s") % {
                              "area": NM.area(area), "target": NM.area(F.shown(target))}, rules=("R134", "R137", "R141", "R142"))
    state["decision"] = None
    _remove_order(state, area, events, "raid")
    if target is not None:
        victim = state["orders"].pop(target)
        events.append({"type": "raided", "area": target, "house": victim["house"], "token": victim["token"]})
        if token_kind(victim["token"]) == "consolidate":
            # R136: pillage: the raider gains 1 even if the victim has none (R10 caps the gain).
            gained = B.gain_power(state, house, 1)
            lost = B.discard_power(state, victim["house"], 1)
            events.append({"type": "pillage", "house": house, "gained": gained, "victim": victim["house"], "lost": lost})
    advance(state, events)


# ------------------------------------------------------------------ marches (R146-R178, R247-R272)


def neutral_at(state: State, area: str) -> int | str | None:
    return state["neutral_forces"].get(area)


def garrison_owner(state: State, area: str) -> str | None:
    if area not in state["garrisons"]:
        return None
    return B.home_of(state, area)


def is_combat_area(state: State, house: str, area: str) -> bool:
    """Entering this area starts a combat: enemy units, an enemy garrison or a neutral force (R150, R160, R283)."""
    if any(h != house for h in state["units"].get(area, {})):
        return True
    g = garrison_owner(state, area)
    if g is not None and g != house:
        return True
    n = neutral_at(state, area)
    return isinstance(n, int)


def transport_reach(state: State, house: str, origin: str) -> set[str]:
    """Land areas a land unit in `origin` reaches by ship transport (R259-R265): chains of sea areas
    each holding a friendly ship (routed ones too, R263)."""
    b = board()
    seen: set[str] = set()
    frontier = [s for s in b.seas_next_to[origin] if state["units"].get(s, {}).get(house)]
    seen.update(frontier)
    while frontier:
        s = frontier.pop()
        for t in b.adjacent[s]:
            if t not in seen and b.type[t] == "sea" and state["units"].get(t, {}).get(house):
                seen.add(t)
                frontier.append(t)
    reach: set[str] = set()
    for s in seen:
        reach.update(b.land_next_to[s])
    reach.discard(origin)
    return reach


def _unit_strength(unit: str, castle: bool) -> int:
    if B.is_routed(unit):
        return 0
    if unit == "siege_engine":
        return 4 if castle else 0
    return STRENGTH[unit]


def max_support(state: State, area: str) -> int:
    """The most support the attacker of `area` could receive from every adjacent Support order (R199-R214).
    Used only for the A14 refusal of a march into a neutral force."""
    b = board()
    dest_type = b.type[area]
    castle = B.has_castle(area)
    total = 0
    for s in b.adjacent[area]:
        o = state["orders"].get(s)
        if not o or token_kind(o["token"]) != "support":
            continue
        st = b.type[s]
        if st == "port" and dest_type != "sea":
            continue  # R213
        units = state["units"].get(s, {}).get(o["house"], [])
        if dest_type == "sea":
            units = [u for u in units if B.base_unit(u) == "ship"]  # R208
        total += sum(_unit_strength(u, castle) for u in units) + token_bonus(o["token"])
    return total


def check_march(state: State, house: str, value: Any) -> tuple[str, dict[str, list[str]], bool]:
    """Validate a march action; returns (origin, moves without empty entries, leave_power_token)."""
    if not isinstance(value, dict) or "from" not in value or set(value) - {"from", "moves", "leave_power_token"}:
        raise EngineError("bad_action", gettext("march takes {from, moves, leave_power_token}"))
    area = value["from"]
    moves = value.get("moves", {})
    leave = value.get("leave_power_token", False)
    if not isinstance(moves, dict) or not isinstance(leave, bool):
        raise EngineError("bad_action", gettext("moves is {area: [units]}, leave_power_token true or false"))
    o = state["orders"].get(area) if isinstance(area, str) else None
    if not o or o["house"] != house or token_kind(o["token"]) != "march":
        raise EngineError("illegal_action", gettext("%(house)s has no march order in %(area)s") % {"house": NM.house(house), "area": NM.area(F.shown(area))})
    b = board()
    clean: dict[str, list[str]] = {}
    for dest, units in moves.items():
        if not isinstance(dest, str) or dest not in b.areas:
            raise EngineError("bad_action", gettext("unknown area %(area)s") % {"area": F.shown(dest)})
        if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
            raise EngineError("bad_action", gettext("moves.%(area)s must be a list of units") % {"area": dest})
        if units:
            clean[dest] = list(units)
    check_moves(state, house, area, clean)
    if leave:
        moving = sum(len(v) for v in clean.values())
        if b.type[area] != "land":
            raise EngineError("illegal_action", gettext("control can never be established on a sea area"), rules=("R165",))
        if moving < len(B.house_units(state, area, house)):
            raise EngineError("illegal_action", gettext("a power token is left only when the area is vacated"), rules=("R154", "R165"))
        if state["power"][house] < 1:
            raise EngineError("illegal_action", gettext("%(house)s has no available power") % {"house": NM.house(house)}, rules=("R170",))
        if state["power_tokens"].get(area) == house or B.home_of(state, area) == house:
            raise EngineError("illegal_action", gettext("%(house)s already keeps control of %(area)s") % {
                "house": NM.house(house), "area": NM.area(area)}, rules=("R166", "R172"))
    return area, clean, leave


def check_moves(state: State, house: str, area: str, moves: dict[str, list[str]]) -> None:
    """R146-R163, R248, R251, R259-R272, R280-R281 (A14) for the moves of one march."""
    b = board()
    have = Counter(u for u in B.house_units(state, area, house) if not B.is_routed(u))
    want: Counter[str] = Counter()
    combats = []
    delta: dict[str, int] = {}
    reach: set[str] | None = None
    for dest, units in moves.items():
        if dest == area:
            raise EngineError("illegal_action", gettext("units that stay are simply not moved"))
        for u in units:
            if B.is_routed(u):
                raise EngineError("illegal_action", gettext("routed units cannot move"), rules=("R162",))
            if u not in STRENGTH:
                raise EngineError("bad_action", gettext("unknown unit %(unit)s") % {"unit": F.shown(u)})
            want[u] += 1
        dtype = b.type[dest]
        if neutral_at(state, dest) == "impassable":
            raise EngineError("illegal_action", gettext("%(area)s is impassable") % {"area": NM.area(dest)}, rules=("R33", "R284"))
        land = [u for u in units if u in LAND_UNITS]
        ships = [u for u in units if u == "ship"]
        if land:
            if dtype != "land":
                raise EngineError("illegal_action", gettext("footmen, knights and siege engines never enter seas or ports"), rules=("R149",))
            if dest not in b.adj_set[area]:
                if reach is None:
                    reach = transport_reach(state, house, area)
                if dest not in reach:
                    raise EngineError("illegal_action", gettext(
                        "%(dest)s is not adjacent to %(area)s nor reachable by ship transport") % {
                        "dest": NM.area(dest), "area": NM.area(area)}, rules=("R148", "R259"))
        if ships:
            if dtype == "land":
                raise EngineError("illegal_action", gettext("ships never enter land areas"), rules=("R149",))
            if dest not in b.adj_set[area]:
                raise EngineError("illegal_action", gettext("%(dest)s is not adjacent to %(area)s; ships never use transport") % {
                    "dest": NM.area(dest), "area": NM.area(area)}, rules=("R163",))
            if dtype == "port":
                if B.port_owner(state, dest) != house:
                    raise EngineError("illegal_action", gettext("ships may enter only a friendly port: %(area)s") % {"area": NM.area(dest)}, rules=("R149", "R251"))
                if any(h != house for h in state["units"].get(dest, {})):
                    raise EngineError("illegal_action", gettext("ports cannot be attacked: %(area)s") % {"area": NM.area(dest)}, rules=("R250",))
                inside = sum(len(v) for v in state["units"].get(dest, {}).values())
                if inside + len(ships) > 3:
                    raise EngineError("illegal_action", gettext("a port holds at most 3 ships: %(area)s") % {"area": NM.area(dest)}, rules=("R248",))
        if is_combat_area(state, house, dest):
            combats.append(dest)
        delta[dest] = delta.get(dest, 0) + len(units)
    if want - have:
        raise EngineError("illegal_action", gettext("%(house)s has no such movable units in %(area)s: %(units)s") % {
            "house": NM.house(house), "area": NM.area(area), "units": NM.units(sorted((want - have).elements()))})
    if len(combats) > 1:
        raise EngineError("illegal_action", gettext("a march may move into at most one area that starts a combat"), rules=("R150",))
    if combats:
        dest = combats[0]
        n = neutral_at(state, dest)
        if isinstance(n, int) and not any(h != house for h in state["units"].get(dest, {})):
            castle = B.has_castle(dest)
            best = sum(_unit_strength(u, castle) for u in moves[dest]) + token_bonus(state["orders"][area]["token"])
            best += max_support(state, dest)
            if best < n:
                raise EngineError(
                    "illegal_action",
                    gettext("even with every possible support, strength %(best)s cannot beat the neutral force %(force)s in %(area)s") % {"best": best, "force": n, "area": NM.area(dest)},
                rules=("R280", "A14"))
    delta[area] = -sum(want.values())
    if want and not supply.fits(state, house, delta):
        raise EngineError("illegal_action", gettext("the move would exceed %(house)s's supply limit") % {"house": NM.house(house)}, rules=("R161", "R66d"))


def can_move(state: State, house: str, area: str) -> bool:
    """Has this march at least one legal non-empty move (else resolving it is a forced removal)?"""
    units = sorted({u for u in B.house_units(state, area, house) if not B.is_routed(u)})
    if not units:
        return False
    b = board()
    for u in units:
        if u in LAND_UNITS:
            dests = set(b.land_next_to[area]) | transport_reach(state, house, area)
        else:
            dests = {d for d in b.adjacent[area] if b.type[d] != "land"}
        for d in sorted(dests):
            try:
                check_moves(state, house, area, {d: [u]})
            except EngineError:
                continue
            return True
    return False


def do_march(state: State, house: str, value: Any, events: list[Event]) -> None:
    area, moves, leave = check_march(state, house, value)
    state["decision"] = None
    token = state["orders"][area]["token"]
    combat_dest = next((d for d in sorted(moves) if is_combat_area(state, house, d)), None)
    for units in moves.values():
        B.remove_units(state, area, house, units)
    events.append({"type": "march", "house": house, "from": area, "token": token, "moves": moves,
                   "leave_power_token": leave})
    cur = state["action"]
    # R152: every move that starts no combat is made first.
    for dest in sorted(moves):
        if dest == combat_dest:
            continue
        before = B.controller(state, dest)
        tok = state["power_tokens"].get(dest)
        if tok and tok != house:
            del state["power_tokens"][dest]  # R157, R167: back to the pool
            events.append({"type": "power_token_removed", "area": dest, "house": tok})
        B.add_units(state, dest, house, moves[dest])
        _note_capture(state, house, dest, before)
    # R154, R155: control is kept by a token decided before the combat.
    if leave:
        state["power"][house] -= 1
        state["power_tokens"][area] = house
        events.append({"type": "power_token_placed", "area": area, "house": house})
    if combat_dest is None:
        _remove_order(state, area, events, "march_done")
        finish_march(state, events)  # R37: checks the instant win first
        return
    if _victory_check(state, events):
        # R37: the moves made before the combat won the game; the March is over with it.
        _remove_order(state, area, events, "march_done")
        return
    cur["march"] = {"house": house, "from": area, "area": combat_dest, "units": moves[combat_dest]}
    combat = _combat_module()
    combat.start_combat(state, events, attacker=house, origin=area, area=combat_dest, units=list(moves[combat_dest]))
    # combat.py calls after_combat() when it is over (possibly already, within start_combat).


def _note_capture(state: State, house: str, land: str, before: str | None) -> None:
    """R258 / A23: control of a land area with a port passes to `house`: enemy ships there are captured."""
    b = board()
    port = b.port_of_land.get(land)
    if not port or before == house or B.controller(state, land) != house:
        return
    if any(h != house for h in state["units"].get(port, {})):
        state["action"]["captures"].append({"house": house, "port": port})


def after_combat(state: State, events: list[Event], winner: str | None, area: str) -> None:
    """Called by combat.py once a combat started by a march is over (docs/engine-agot-state.md).

    `winner` is the house that won, or None when a neutral force held (A14: the move was cancelled).
    The winner's units are in `area`, the loser's retreated or destroyed. Here: the March order is
    removed (R244) unless the combat moved it (Loras), an attacker's win removes the defender's order
    and power token there (R178, R244), ports are captured (R258), victory is updated (R39, R37b), and
    the Action phase goes on.
    """
    cur = state["action"]
    m = cur["march"] or {}
    attacker, origin = m.get("house"), m.get("from")
    cur["march"] = None
    o = state["orders"].get(origin) if origin else None
    if o and o["house"] == attacker and token_kind(o["token"]) == "march":
        _remove_order(state, origin, events, "march_done")
    if winner is not None and winner == attacker:
        d = state["orders"].get(area)
        if d and d["house"] != attacker:
            _remove_order(state, area, events, "order_lost")
        tok = state["power_tokens"].get(area)
        if tok and tok != attacker:
            del state["power_tokens"][area]
            events.append({"type": "power_token_removed", "area": area, "house": tok})
        _note_capture(state, attacker, area, None)
    if _victory_check(state, events):
        return
    finish_march(state, events)


def finish_march(state: State, events: list[Event]) -> None:
    """Port captures (R258), then the next turn."""
    if _victory_check(state, events):
        return
    caps = state["action"]["captures"]
    while caps:
        cap = caps[0]
        house, port = cap["house"], cap["port"]
        enemies = [(h, us) for h, us in state["units"].get(port, {}).items() if h != house]
        if not enemies or B.port_owner(state, port) != house:
            caps.pop(0)
            continue
        mx = max_replace(state, house, port)
        if mx == 0:
            caps.pop(0)
            _replace(state, house, port, 0, events, forced=True)
            continue
        state["decision"] = {"kind": "replace_ships", "seats": [house], "port": port, "max": mx}
        return
    advance(state, events)


def max_replace(state: State, house: str, port: str) -> int:
    """R258: up to the enemy ships there, limited by available ships and supply."""
    enemy = sum(len(us) for h, us in state["units"].get(port, {}).items() if h != house)
    avail = unit_limits()["ship"] - B.unit_counts(state, house)["ship"]
    k = min(enemy, avail)
    while k > 0 and not supply.fits(state, house, {port: k}):
        k -= 1
    return k


def _replace(state: State, house: str, port: str, k: int, events: list[Event], forced: bool = False) -> None:
    for h in [h for h in state["units"].get(port, {}) if h != house]:
        removed = list(state["units"][port][h])
        B.remove_units(state, port, h, removed)
        events.append({"type": "ships_destroyed", "area": port, "house": h, "units": removed})
    o = state["orders"].get(port)
    if o and o["house"] != house:
        _remove_order(state, port, events, "order_lost")  # its ships are gone
    B.add_units(state, port, house, ["ship"] * k)
    ev: Event = {"type": "ships_replaced", "area": port, "house": house, "count": k}
    if forced:
        ev["forced"] = True
    events.append(ev)


def do_replace_ships(state: State, house: str, value: Any, events: list[Event]) -> None:
    d = state["decision"]
    if not isinstance(value, int) or isinstance(value, bool):
        raise EngineError("bad_action", gettext("replace_ships takes a number"))
    if not 0 <= value <= d["max"]:
        raise EngineError("illegal_action", gettext("replace between 0 and %(count)s ships") % {"count": d["max"]}, rules=("R258",))
    state["decision"] = None
    state["action"]["captures"].pop(0)
    _replace(state, house, d["port"], value, events)
    finish_march(state, events)


# ------------------------------------------------------------------ consolidate power (R179-R184)


def consolidate_gain(state: State, area: str) -> int:
    b = board()
    t = b.type[area]
    house = state["orders"][area]["house"]
    if t == "sea":
        return 0  # R180
    if t == "port":
        return 0 if B.enemy_ships_in(state, b.port_sea[area], house) else 1  # R181
    return 1 + b.power[area]  # R179


def consolidate_power(state: State, house: str, area: str, events: list[Event], forced: bool = False) -> None:
    gain = consolidate_gain(state, area)
    _remove_order(state, area, events, "consolidate", forced=forced)
    got = B.gain_power(state, house, gain)
    events.append({"type": "power_gained", "house": house, "area": area, "gained": got})


def can_cp_muster(state: State, house: str, area: str) -> bool:
    """R182: a special Consolidate Power order in a castle/stronghold area (never a port) may muster there."""
    from games.engine.agot import mustering

    o = state["orders"][area]
    if not token_special(o["token"]) or board().type[area] != "land" or not B.has_castle(area):
        return False
    return mustering.can_muster(state, house, [area])


def do_consolidate(state: State, house: str, value: Any, events: list[Event]) -> None:
    from games.engine.agot import mustering

    if not isinstance(value, dict) or set(value) - {"from", "muster"} or "from" not in value:
        raise EngineError("bad_action", gettext("consolidate takes {from: area} or {from: area, muster: [items]}"))
    area = value["from"]
    o = state["orders"].get(area) if isinstance(area, str) else None
    if not o or o["house"] != house or token_kind(o["token"]) != "consolidate":
        raise EngineError("illegal_action", gettext("%(house)s has no consolidate power order in %(area)s") % {
            "house": NM.house(house), "area": NM.area(F.shown(area))})
    if "muster" in value:
        if not token_special(o["token"]) or board().type[area] != "land" or not B.has_castle(area):
            raise EngineError("illegal_action", gettext("only a special Consolidate Power order in a castle or stronghold area musters"), rules=("R182",))
        plan = mustering.check_muster(state, house, mustering.cp_to_muster(area, value["muster"]), [area])
        state["decision"] = None
        _remove_order(state, area, events, "consolidate")
        mustering.apply_plan(state, house, plan, events, "consolidate")
        advance(state, events)
        return
    state["decision"] = None
    consolidate_power(state, house, area, events)
    advance(state, events)


# ------------------------------------------------------------------ clean-up, victory, game end


def cleanup(state: State, events: list[Event]) -> None:
    """R185-R188."""
    from games.engine.agot import rounds

    state["step"] = "cleanup"
    state["orders"] = {}
    for by_house in state["units"].values():
        for h, units in by_house.items():
            if any(B.is_routed(u) for u in units):
                by_house[h] = [B.base_unit(u) for u in units]
    state["used"]["valyrian_steel_blade"] = False
    state["used"]["messenger_raven"] = False
    for h in state["seats"]:
        state["secret"][h].pop("peeked", None)
    state["restrictions"] = []
    state["action"] = None
    events.append({"type": "cleanup", "round": state["round"]})
    if state["round"] >= rounds.last_round(state):
        rounds.end_game(state, events)
        return
    state["round"] += 1
    rounds.begin_round(state, events)


def _victory_check(state: State, events: list[Event]) -> bool:
    """Keep the Victory track current (R39) and end the game at 7 castle/stronghold areas (R37b)."""
    from games.engine.agot import rounds

    return rounds.victory_check(state, events)
