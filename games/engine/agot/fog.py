"""Fog of war (issue 34, docs/rules-decisions.md "AGoT variants"): with the `fog_of_war` option a seat
sees only the areas it controls or has units or orders in, and the areas next to them (by land, sea
and port), plus what the rules make public (tracks, supply, power tokens held, house cards, Westeros
and wildling cards, the victory count, combats it takes part in or which happen in an area it sees).
Everything else of the other houses is absent from its view (not blurred); a spectator sees no area
at all; the fog lifts for everyone when the game is over.

The filtering happens here, on the server: `view`/`summary` (summary.py) call `fog_view` /
`fog_summary`, and `mark` stamps every event of an action with the seats that saw it (`seen`), which
`summary.event_view` honours. Pure functions, no Django.
"""
from __future__ import annotations

from functools import cache
from typing import Any

from games.engine.agot.data import board

State = dict[str, Any]
Event = dict[str, Any]

# Area-keyed parts of the state and of the referee summary: a fogged area is absent from them.
AREA_KEYED = ("units", "power_tokens", "garrisons", "neutral_forces", "orders", "control")
# Event types that belong to the combat in progress even when they name no area.
COMBAT_EVENTS = frozenset({
    "combat_started", "support_declared", "support_refused", "neutral_force_destroyed", "neutral_force_holds",
    "house_card_chosen", "house_card_forced", "house_card_replaced", "house_cards_revealed", "tides_drawn",
    "blade_redraw", "tides_revealed", "blade_used", "combat_won", "casualties", "retreat", "garrison_removed",
    "units_destroyed", "card_ability", "order_lost", "hand_refreshed", "combat_over", "cards_discarded",
})


def enabled(state: State) -> bool:
    """Whether the fog is down: the option is on and the game is not over."""
    return bool((state.get("options") or {}).get("fog_of_war")) and state.get("phase") != "over"


@cache
def neighbours() -> dict[str, frozenset[str]]:
    """Every area's neighbours by land, sea and port: the board's adjacency plus a port's land and sea
    areas (and the other way round)."""
    b = board()
    out: dict[str, set[str]] = {a: set(b.adjacent[a]) for a in b.ids}
    for port in b.ports:
        for other in (b.port_land[port], b.port_sea[port]):
            out[port].add(other)
            out[other].add(port)
    return {a: frozenset(n) for a, n in out.items()}


def own_areas(state: State) -> dict[str, set[str]]:
    """For every seat, the areas it controls (units, power token, home shield) or has units or orders
    in (one pass over the board for all seats)."""
    seats = state["seats"]
    out: dict[str, set[str]] = {h: set() for h in seats}
    units = state["units"]
    for a, by_house in units.items():
        for h, us in by_house.items():
            if us and h in out:
                out[h].add(a)
    b = board()
    for a, h in state["power_tokens"].items():
        if h in out and not units.get(a):
            out[h].add(a)
    for a, h in (state["homes"] if "homes" in state else b.home_of).items():
        if h in out and not units.get(a) and state["power_tokens"].get(a) in (None, h):
            out[h].add(a)  # R164, A25: the printed home shield of a house in play
    for a, o in state["orders"].items():
        if o.get("house") in out:
            out[o["house"]].add(a)
    for h in seats:
        out[h].update((state["secret"].get(h) or {}).get("orders", {}))
    return out


def visible_all(state: State) -> dict[str, frozenset[str]]:
    """Every seat's visible areas (see visible_areas)."""
    b = board()
    if not enabled(state):
        return {h: frozenset(b.ids) for h in state["seats"]}
    near = neighbours()
    cur = (state.get("combat") or {}).get("_current")
    march = (state.get("action") or {}).get("march") or {}
    result: dict[str, frozenset[str]] = {}
    for h, own in own_areas(state).items():
        seen = set(own)
        for a in own:
            seen |= near[a]
        if cur and h in participants(cur):
            seen.add(cur["area"])
        if march.get("house") == h and march.get("area"):
            seen.add(march["area"])
        result[h] = frozenset(seen)
    return result


def visible_areas(state: State, seat: str | None) -> frozenset[str]:
    """The areas `seat` sees (None or a non-seat: none). Without fog: every area."""
    if not enabled(state):
        return frozenset(board().ids)
    if seat is None or seat not in state["seats"]:
        return frozenset()
    return visible_all(state)[seat]


def participants(combat: dict[str, Any]) -> set[str]:
    """The houses taking part in a combat: attacker, defender and the houses that declared support."""
    out = {h for h in (combat.get("attacker"), combat.get("defender")) if h}
    out.update(h for h, target in (combat.get("supports") or {}).items() if target is not None)
    return out


def combat_seen(combat: dict[str, Any] | None, seat: str | None, vis: frozenset[str]) -> bool:
    if not combat:
        return False
    return (seat is not None and seat in participants(combat)) or combat.get("area") in vis


# ----------------------------------------------------------------------------- views


def _areas_in(x: Any, known: dict[str, Any], out: set[str]) -> None:
    if isinstance(x, str):
        if x in known:
            out.add(x)
    elif isinstance(x, dict):
        for k, v in x.items():
            _areas_in(k, known, out)
            _areas_in(v, known, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _areas_in(v, known, out)


def areas_named(x: Any) -> set[str]:
    """Every area id named anywhere in `x` (keys and values, however deep)."""
    out: set[str] = set()
    _areas_in(x, board().areas, out)
    return out


def _filter_area_keyed(part: dict[str, Any], vis: frozenset[str]) -> None:
    """Cut the area-keyed parts to the visible areas; impassable areas are the board's layout for the
    player count (R33), known to all, and stay."""
    for key in AREA_KEYED:
        if isinstance(part.get(key), dict):
            part[key] = {a: v for a, v in part[key].items() if a in vis or (key == "neutral_forces" and v == "impassable")}


def _public_decision(decision: dict[str, Any] | None, seat: str | None, combat: dict[str, Any] | None,
                     vis: frozenset[str]) -> dict[str, Any] | None:
    """Another house's decision: its kind and who decides; its context only when it names no area
    the viewer does not see, or belongs to the combat the viewer sees (`combat`, None when it sees
    none) and names no area beyond the combat's own (its area and the attacker's origin), unless the
    viewer takes part in it (a house card ability's options may name a supporter's area)."""
    if not decision or (seat is not None and seat in decision.get("seats", ())):
        return decision
    if combat is not None and decision.get("kind") in ("support", "accept_support", "house_card", "blade",
                                                       "blade_redraw", "casualties", "retreat", "choose"):
        if decision.get("kind") != "choose" or decision.get("owner") == "combat":
            known = vis | {a for a in (combat.get("area"), combat.get("origin")) if a}
            if seat in participants(combat) or areas_named(decision) <= known:
                return decision
    if areas_named(decision) <= vis:
        return decision
    return {"kind": decision["kind"], "seats": list(decision["seats"])}


def fog_view(state: State, out: State, seat: str | None) -> None:
    """Lay the fog over `out` (a copy of `state` already stripped of secrets) for `seat`."""
    vis = visible_areas(state, seat)
    _filter_area_keyed(out, vis)
    combat = out.get("combat")
    combat_visible = False
    if combat:
        cur = combat.get("_current")
        if cur is not None and not combat_seen(cur, seat, vis):
            combat.pop("_current")
        combat_visible = "_current" in combat
        last = {k: v for k, v in combat.items() if not k.startswith("_")}
        if last and not combat_seen(last, seat, vis):
            for k in last:
                combat.pop(k)
        if combat.get("_current"):
            _prune_combat(combat["_current"], seat, vis)
        _prune_combat(combat, seat, vis)
        if not combat:
            out["combat"] = None
    act = out.get("action")
    if act:
        march = act.get("march")
        if march and march.get("house") != seat and not (areas_named(march) <= vis or combat_visible):
            act["march"] = None
        if act.get("captures"):
            act["captures"] = [c for c in act["captures"] if c.get("house") == seat or c.get("port") in vis]
    out["decision"] = _public_decision(out.get("decision"), seat, combat.get("_current") if combat_visible else None,
                                       vis)
    west = out.get("westeros")
    if west and west.get("current") and not areas_named(west["current"]) <= vis:
        cur_task = west["current"]
        west["current"] = {k: v for k, v in cur_task.items() if not areas_named(v) - vis}
    if west and west.get("queue"):
        west["queue"] = [t if areas_named(t) <= vis else {k: v for k, v in t.items() if not areas_named(v) - vis}
                         for t in west["queue"]]
    out["fog"] = {"visible": sorted(vis)}


def fog_summary(state: State, out: dict[str, Any], seat: str | None) -> None:
    """The referee summary as `seat` may read it under the fog."""
    vis = visible_areas(state, seat)
    _filter_area_keyed(out, vis)
    combat = out.get("combat")
    if combat:
        last = {k: v for k, v in combat.items() if not k.startswith("_")}
        if not combat_seen(last, seat, vis):
            out["combat"] = None
        else:
            _prune_combat(combat, seat, vis)
    out["fog"] = {"visible": sorted(vis)}


# ----------------------------------------------------------------------------- events


def _partial(ev: Event, vis: frozenset[str]) -> Event | None:
    """The part of an event a seat sees when it sees only some of the areas it names: its area-keyed
    mappings cut to the visible areas, when every other area it names is visible."""
    out: Event = {}
    cut = False
    for k, v in ev.items():
        if isinstance(v, dict) and v and all(isinstance(a, str) and a in board().areas for a in v):
            kept = {a: x for a, x in v.items() if a in vis and not (areas_named(x) - vis)}
            cut = cut or kept != v
            if not kept:
                return None
            out[k] = kept
        elif areas_named(v) - vis:
            return None
        else:
            out[k] = v
    return out if cut else None


def mark(before: State, after: State, events: list[Event]) -> list[Event]:
    """Stamp each public event of one action with `seen`: the seats that saw it. A seat sees an event
    that names no area (spectators too), an event all of whose areas it saw before or after the
    action, and every event of a combat it takes part in or whose area it sees; an event it sees only
    in part (the orders revealed across the board) comes again, cut to what it sees, for it alone (marked
    `cut`, so that the events as they were before the marking can be told apart: `unfogged_event`)."""
    if not enabled(before):
        return events
    seats = before["seats"]
    vb, va = visible_all(before), visible_all(after)
    vis = {s: vb[s] | va[s] for s in seats}
    cur = (before.get("combat") or {}).get("_current")
    combat: dict[str, Any] | None = dict(cur) if cur else None
    out: list[Event] = []
    for ev in events:
        if "only" in ev or "seen" in ev:
            out.append(ev)
            continue
        t = ev.get("type")
        if t == "combat_started":
            combat = {"attacker": ev.get("attacker"), "defender": ev.get("defender"), "area": ev.get("area"),
                      "origin": ev.get("origin"), "supports": {}}
        if combat is not None and t == "support_declared" and ev.get("for") is not None:
            combat.setdefault("supports", {})[ev.get("house")] = ev.get("for")
        named = areas_named(ev)
        if combat is not None and t in COMBAT_EVENTS:
            where = {a for a in (combat.get("area"), combat.get("origin")) if a}
            seen = [s for s in seats if combat_seen(combat, s, vis[s]) and (
                s in participants(combat) or named <= vis[s] | where)]
            out.append({**ev, "seen": seen})
        elif not named:
            out.append(ev)
        else:
            seen = [s for s in seats if named <= vis[s]]
            out.append({**ev, "seen": seen})
            for s in seats:
                if s not in seen and (part := _partial(ev, vis[s])) is not None:
                    out.append({**part, "seen": [s], "cut": True})  # `cut`: a copy, not an event of its own
        if t == "combat_over":
            combat = None
    return out


# ----------------------------------------------------------------------------- the spectators' delay


def unfogged(state: State) -> State:
    """`state` as a game without the fog of war (a shallow copy): what a spectator with the
    `spectator_delay` option sees of an earlier state (views and summaries copy what they keep)."""
    return {**state, "options": {**(state.get("options") or {}), "fog_of_war": False}}


def unfogged_event(event: Event) -> Event | None:
    """A stored event as a spectator of the same game without the fog of war would read it: the
    `seen` stamp taken off, the cut copies for single seats dropped, private events (`only`) still
    never shown."""
    if event.get("cut") or event.get("only") is not None:
        return None
    return {k: v for k, v in event.items() if k != "seen"}


# ----------------------------------------------------------------------------- the leak scanner


def leaked_areas(shown: dict[str, Any], seat: str | None, vis: frozenset[str]) -> set[str]:
    """The areas a view or summary shown to `seat` names although `seat` does not see them: read from
    everything in it but the list of visible areas itself, the seat's own decision (what it is asked
    about is its own), the impassable areas (the board's layout, R33) and the home areas dealt by
    random start positions (public, as the printed shields are)."""
    rest = {k: v for k, v in shown.items() if k not in ("fog", "decision", "neutral_forces", "homes")}
    named = areas_named(rest)
    decision = shown.get("decision")
    if decision and not (seat is not None and seat in decision.get("seats", ())):
        named |= areas_named(decision)
    named |= {a for a, v in (shown.get("neutral_forces") or {}).items() if v != "impassable"}
    # a combat shown is one the seat takes part in or whose area it sees: then where the attacker
    # came from is part of it (the units left in that area are not)
    combat = shown.get("combat") or {}
    known = set(vis)
    for c in (combat.get("_current"), {k: v for k, v in combat.items() if not k.startswith("_")}):
        if c and combat_seen(c, seat, vis):
            known.update(a for a in (c.get("area"), c.get("origin")) if a)
            if seat in participants(c):
                known.update(areas_named(c))  # a house taking part in a combat sees all of it
    return named - known


def _prune_combat(c: dict[str, Any], seat: str | None, vis: frozenset[str]) -> None:
    """A combat seen from outside (its area is visible, the seat takes no part): whatever in it names
    an area the seat does not see, beyond the attacker's origin, is absent (the loser's retreat
    options, for instance)."""
    if seat is not None and seat in participants(c):
        return
    known = vis | {a for a in (c.get("area"), c.get("origin")) if a}
    for k in [k for k, v in c.items() if k != "_current" and areas_named(v) - known]:
        c.pop(k)


def check(state: State) -> None:
    """Raise AssertionError when any seat's or a spectator's view or summary names an area it does not
    see (bot.check_invariants runs this with the option on)."""
    from games.engine.agot import summary

    if not enabled(state):
        return
    for seat in [*state["seats"], None]:
        vis = visible_areas(state, seat)
        for what, shown in (("view", summary.view(state, seat)), ("summary", summary.summary(state, seat))):
            leak = leaked_areas(shown, seat, vis)
            if leak:
                raise AssertionError(f"fog of war: the {what} for {seat or 'a spectator'} names {sorted(leak)}")
