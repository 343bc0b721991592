"""Orders (M103) and Tactics cards (M104-M105, M110-M113) on their triggers, with reaction windows.

A trigger opens a window (a `react` task on the work queue). Its seats are asked one after the
other, the active seat first (M105); each may answer once (M104): `play` a Tactics card, use an
`order`, `pass`, or `auto_pass` (pass every window until the end of this turn). A played card goes
face up to the discard pile (M112); the opponent may answer it at once (the `card_played` window:
Counterplot), then it resolves.

Who is asked (option `reaction_prompts`):
- `all` (the default of new games): every seat whose *public* content could answer this window
  (a card of its deck list, whatever is in the hand, or an Order of one of its units on the table)
  is asked, so a prompt never tells whether the seat holds a playable card;
- `playable` (scenarios, SCENARIOS.md "minis"): only a seat holding a card or an unspent Order
  that is legal now.

Windows and their context (`unit`: the unit that triggers, M111):
turn_start {seat}; unit_activates {unit}; ncu_activates {ncu}; melee_before {unit, target};
morale_before {unit, tid}; morale_rolled {unit, tid}; panic_failed {unit, wounds}; after_attack
{unit, target, kind}; card_played {seat, card}; zone_claimed {ncu, zone}; charge_declared {unit,
target}; charge_rolled {unit, target}; charge_success {unit, target, arc}; surge {unit}; unit_destroyed {unit} (before it is removed);
turn_end {seat} (M27 (4): the seat whose turn ends is asked first).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine import fields as F
from games.engine import rng
from games.engine.base import EngineError
from games.engine.minis import data
from games.engine.minis import geometry as G
from games.engine.minis import table as T
from games.engine.narration import gettext, term

State = dict[str, Any]
Events = list[dict[str, Any]]
Ctx = dict[str, Any]


def _flow():
    from games.engine.minis import flow

    return flow


def illegal(msg: str) -> EngineError:
    return EngineError("illegal_action", msg)


# ---------------------------------------------------------------------- helpers


def trigger_seat(state: State, ctx: Ctx) -> str:
    if "unit" in ctx:
        return state["units"][ctx["unit"]]["seat"]
    if "ncu" in ctx:
        return state["ncus"][ctx["ncu"]]["seat"]
    return ctx["seat"]


def controls(state: State, seat: str, zone: str) -> bool:
    nid = state["board"].get(zone)
    return bool(nid) and state["ncus"][nid]["seat"] == seat


def commander_unit(state: State, seat: str, commander: str) -> str | None:
    for n in T.live(state, seat):
        if state["units"][n]["attachment"] == commander:
            return n
    return None


def within(state: State, origin: str, target: str, reach: float) -> bool:
    """M109: range from `origin`'s front centre to any part of `target`'s tray; a unit is always in
    range of itself."""
    if origin == target:
        return True
    return G.le(G.point_distance(state["units"][origin]["at"], T.poly(state, target)), reach)


def highest_dice(state: State, name: str) -> None:
    la = state["last_attack"]
    if la.get("lowest"):
        return  # M100: the lowest value wins over the highest
    prof = next(a for a in T.ucard(state, name).get("attacks", []) if a["name"] == la["attack"])
    la["dice_count"] = max(la["dice_count"], max(int(x) for x in prof["dice"]))  # the largest printed value


def add_condition(state: State, name: str, cond: str, events: Events) -> None:
    u = state["units"][name]
    if u["destroyed"] or cond in u["conditions"]:
        return
    if cond == "weakened" and "Indomitable" in T.abilities(state, name):
        return
    u["conditions"].append(cond)
    events.append({"type": "condition", "unit": name, "condition": cond})


def _test(state: State, name: str, modifier: int, by: str, fail_extra: int = 0) -> dict[str, Any]:
    flow = _flow()
    task = {"t": "test", "unit": name, "kind": "panic", "modifier": modifier, "stage": "roll", "attack": False,
            "by": by, "fail_extra": fail_extra, "tid": flow.next_id(state)}
    return task


def suffer_hits(state: State, name: str, n: int, by: str | None, events: Events, source: str | None = None) -> None:
    """Hits that are not an attack (Hold the Line!, Counterstrike): the unit rolls Defense for each
    (M88), the enemy may spend its Vulnerable token on that roll (M102), no Panic test. A `hits` task,
    run before whatever is queued."""
    flow = _flow()
    if name not in T.live(state) or n <= 0:
        return
    flow.push(state, {"t": "hits", "unit": name, "n": n, "by": by, "source": source, "stage": "roll"})


def h_hits(state: State, task: dict[str, Any], events: Events) -> None:
    flow = _flow()
    name = task["unit"]
    if name not in T.live(state):
        flow.done(state, task)
        return
    if task["stage"] == "roll":
        task["save"] = int(T.ucard(state, name)["defense_save"])
        task["dice"] = [T.roll(state, 6) for _ in range(task["n"])]
        task["stage"] = "spend"
        if "vulnerable" in state["units"][name]["conditions"]:
            # M102: the enemy may spend Vulnerable after the unit's Defense roll (hits always allow one, M88)
            flow.ask(state, "spend", [T.opponent(state, state["units"][name]["seat"])], token="vulnerable",
                     unit=name, dice="defense", faces=list(task["dice"]))
        return
    flow.done(state, task)
    dice, save = task["dice"], task["save"]
    blocked = sum(1 for f in dice if f == 6 or (f != 1 and f >= save))
    ev = {"type": "hits", "unit": name, "hits": task["n"], "defense_dice": list(dice), "blocked": blocked}
    if task.get("source"):
        ev["source"] = task["source"]
    events.append(ev)
    flow.wound(state, name, task["n"] - blocked, events, source_seat=task["by"])


def start_retreat(state: State, seat: str, name: str, events: Events, may_reroll: bool = False,
                  weaken: bool = False) -> None:
    """A Retreat made by a card or an Order (M46-M49). `may_reroll`: the owner may re-roll the retreat
    die (Sudden Retreat for Robb's unit); `weaken`: every enemy it disengages from gains Weakened (Hit
    and Run for Robb's unit)."""
    flow = _flow()
    # revision 5: "makes one Retreat action" (Sudden Retreat, Swift Retreat, Hit and Run): on a Dangerous
    # piece, 1D3+1 wounds before it resolves (M78, seed 2130-2134); the callers found it legal
    if flow.free_action_dangerous(state, name, events):
        return  # destroyed before it retreats
    r = T.roll(state, 6)
    mx = T.speed(state, name) + r
    state["last_retreat"] = {"unit": name, "roll": r, "max": mx}
    events.append({"type": "retreat", "unit": name, "roll": r, "max": mx})
    task = {"t": "retreat", "unit": name, "max": mx, "seat": seat, "free": True}
    if may_reroll:
        task["may_reroll"] = True
    if weaken:
        task["weaken"] = True
    flow.push(state, task)


def robbs_unit(state: State, name: str) -> bool:
    """The unit Robb Stark, The Wolf Lord (the commander whose cards these are) is attached to."""
    return state["units"][name]["attachment"] == "20201"


def _shift(state: State, seat: str, p: dict[str, Any], limit: float, near: str | None, reach: float,
           maneuver: bool = False) -> tuple[str, list[float], float]:
    flow = _flow()
    name = p.get("unit")
    if name not in T.friendly(state, seat):
        raise illegal(gettext("choose one of your units on the table"))
    if near is not None and not within(state, near, name, reach):
        raise illegal(gettext("%(name)s is not within %(reach)s in of %(near)s") % {
            "name": name, "reach": f'{reach:g}', "near": near})
    mv = p.get("move") or {}
    if maneuver:
        at, facing = flow.check_maneuver(state, name, mv, budget=limit)
        return name, at, facing
    mv = flow._keys(mv, {"direction", "distance"}, "move")
    direction = mv.get("direction", "forward")
    if direction not in ("forward", "back", "left", "right"):
        raise EngineError("bad_action", gettext("direction is forward, back, left or right"))
    at, facing, _ = flow.resolve_moves(state, name, [("move", direction, flow._num(mv.get("distance"), "move: distance",
                                                                                    0.0))], limit, "shift")
    return name, at, facing


def _move(state: State, name: str, at: list[float], facing: float, kind: str, events: Events) -> None:
    start = T.poly(state, name)
    _flow().set_pose(state, name, at, facing)
    events.append({"type": "move", "unit": name, "kind": kind, "at": at, "facing": facing})
    _flow().entered_dangerous(state, name, start, events, since=3)  # M78 Dangerous: a card's shift or March


# ---------------------------------------------------------------------- the effects
# An effect: (window, side, can(state, seat, ctx, owner) -> bool, check(state, seat, ctx, params, owner) ->
# params, resolve(state, seat, ctx, params, owner, events)); side: "own" = the triggering seat's, "enemy" =
# the other's, "any". `owner`: the unit holding the Order (None for a card).


def _true(*_a: Any) -> bool:
    return True


def _same(_s: State, _seat: str, _ctx: Ctx, p: dict[str, Any], _o: Any) -> dict[str, Any]:
    return p


def _draw1(state, seat, ctx, p, o, events):
    _flow().draw(state, seat, 1, events)


# turn_start
def _swift_can(state, seat, ctx, o):
    return bool(T.friendly(state, seat))


def _swift_check(state, seat, ctx, p, o):
    horse = controls(state, seat, "horse")
    _shift(state, seat, p, 3.0 if horse else 2.0, None, 0, maneuver=horse)
    return p


def _swift_res(state, seat, ctx, p, o, events):
    horse = controls(state, seat, "horse")
    try:
        name, at, f = _shift(state, seat, p, 3.0 if horse else 2.0, None, 0, maneuver=horse)
    except EngineError:
        return  # no longer legal when it resolves: no effect
    # revision 5: the 3-inch Maneuver action (not the 2-inch shift, no action) on a Dangerous piece (M78)
    if horse and _flow().free_action_dangerous(state, name, events):
        return  # destroyed before it moves
    _move(state, name, at, f, "shift", events)


def _tacrep_can(state, seat, ctx, o):
    return o in T.live(state)


def _tacrep_check(state, seat, ctx, p, o):
    _shift(state, seat, p, 3.0, o, 6.0)
    return p


def _tacrep_res(state, seat, ctx, p, o, events):
    try:
        name, at, f = _shift(state, seat, p, 3.0, o, 6.0)
    except EngineError:
        return
    _move(state, name, at, f, "shift", events)


# unit_activates
def _subj_res(state, seat, ctx, p, o, events):
    flow = _flow()
    mod = -sum(1 for z in ("crown", "money") if controls(state, seat, z))
    test = _test(state, ctx["unit"], mod, seat)
    test["silence_on_fail"] = True
    flow.push(state, test)


def _infamy_can(state, seat, ctx, o):
    j = commander_unit(state, seat, "20115")
    return j is not None and within(state, j, ctx["unit"], 12.0)


def _infamy_res(state, seat, ctx, p, o, events):
    add_condition(state, ctx["unit"], "panicked", events)
    test = _test(state, ctx["unit"], 0, seat)
    test["weaken_on_fail"] = True
    _flow().push(state, test)


def _hold_can(state, seat, ctx, o):
    return ctx["unit"] == o and bool(T.engaged_with(state, o))


def _hold_check(state, seat, ctx, p, o):
    if p.get("target") not in T.engaged_with(state, o):
        raise illegal(gettext("Hold the Line!: choose an enemy engaged with the unit"))
    return p


def _hold_res(state, seat, ctx, p, o, events):
    if o in T.live(state) and p["target"] in T.engaged_with(state, o):
        suffer_hits(state, p["target"], 2 + T.ranks_left(state, o), seat, events, source="Order: Hold the Line!")


# ncu_activates
def _intrigue_check(state, seat, ctx, p, o):
    if controls(state, seat, "money") and T.enemies(state, seat):
        if p.get("unit") not in T.enemies(state, seat):
            raise illegal(gettext("choose an enemy combat unit to gain Weakened"))
    return p


def _intrigue_res(state, seat, ctx, p, o, events):
    state["ncus"][ctx["ncu"]]["silenced"] = state["round"]
    if controls(state, seat, "money") and p.get("unit") in T.live(state):
        add_condition(state, p["unit"], "weakened", events)


# melee_before
def _winters_might(state, seat, ctx, p, o, events):
    la = state["last_attack"]
    la["keywords"] = sorted(set(la["keywords"]) | {"sundering"})
    if T.ranks_left(state, la["attacker"]) == 1:
        la["reroll_any"] = True
    if controls(state, seat, "swords"):
        highest_dice(state, la["attacker"])


def _ferocity(state, seat, ctx, p, o, events):
    la = state["last_attack"]
    la["keywords"] = sorted(set(la["keywords"]) | {"vicious"})
    if T.ranks_left(state, la["attacker"]) == 1:
        la["panic_fail_extra"] = la.get("panic_fail_extra", 0) + 2
    if controls(state, seat, "swords"):
        add_condition(state, la["defender"], "panicked", events)


def _prowess_can(state, seat, ctx, o):
    return state["units"][ctx["unit"]]["attachment"] == "20115"


def _prowess(state, seat, ctx, p, o, events):
    la = state["last_attack"]
    highest_dice(state, la["attacker"])
    la["reroll_missed"] = True  # "may re-roll any missed dice": the dice that missed, not any die
    add_condition(state, la["defender"], "vulnerable", events)


def _price(state, seat, ctx, p, o, events):
    state["last_attack"]["auto_hit"] = True
    state["last_attack"]["price_of_failure"] = True


def _own_unit(state, seat, ctx, o):
    return ctx["unit"] == o


def _martial(state, seat, ctx, p, o, events):
    la = state["last_attack"]
    la["reroll_any"] = True
    add_condition(state, la["defender"], "vulnerable", events)


def _incite(state, seat, ctx, p, o, events):
    la = state["last_attack"]
    la["keywords"] = sorted(set(la["keywords"]) | {"vicious"})
    highest_dice(state, la["attacker"])


# morale_before
def _roar(state, seat, ctx, p, o, events):
    for t in state["work"]:
        if t.get("t") == "test" and t.get("tid") == ctx["tid"]:
            t["modifier"] -= 1 + T.ranks_lost(state, ctx["unit"])
            t["fail_extra"] = t.get("fail_extra", 0) + 1
            return


# panic_failed
def _fealty_check(state, seat, ctx, p, o):
    if p.get("unit") not in T.friendly(state, seat):
        raise illegal(gettext("choose a friendly unit"))
    if ctx["unit"] in T.live(state) and not within(state, ctx["unit"], p["unit"], 12.0):
        raise illegal(gettext("%(p_unit)s is not within Long range") % {"p_unit": p['unit']})
    return p


def _fealty_res(state, seat, ctx, p, o, events):
    flow = _flow()
    crown = controls(state, seat, "crown")
    n = min(ctx["wounds"] + (1 if crown else 0), 4 if crown else 3)
    if crown and ctx["unit"] in T.live(state):
        flow.wound(state, ctx["unit"], 1, events, source_seat=seat)
    if p.get("unit") in T.live(state):
        flow.heal(state, p["unit"], n, events)


# after_attack (ctx unit: the attacker, target: the defender)
def _supremacy_can(state, seat, ctx, o):
    return ctx["target"] == o and o in T.live(state) and ctx["unit"] in T.live(state)


def _supremacy_res(state, seat, ctx, p, o, events):
    if ctx["unit"] not in T.live(state):
        return
    r = T.ranks_left(state, o) if o in T.live(state) else 0
    _flow().push(state, _test(state, ctx["unit"], -r, seat, fail_extra=r))


def _defender_retreat_can(state, seat, ctx, o):
    d = ctx["target"]
    return ctx["kind"] == "melee" and d in T.live(state) and (o is None or o == d) and bool(
        T.engaged_with(state, d)) and _flow().can_retreat(state, d)  # M49: not when surrounded


def _defender_retreat(state, seat, ctx, p, o, events):
    d = ctx["target"]
    if d in T.live(state) and T.engaged_with(state, d):
        # Sudden Retreat (a card, o None): Robb's unit may re-roll the retreat distance die
        start_retreat(state, seat, d, events, may_reroll=o is None and robbs_unit(state, d))


def _lash_can(state, seat, ctx, o):
    return ctx["kind"] == "melee" and ctx["target"] in T.live(state) and ctx["unit"] in T.live(state)


def _lash_res(state, seat, ctx, p, o, events):
    d, a = ctx["target"], ctx["unit"]
    if a not in T.live(state) or d not in T.live(state):
        return
    _flow().wound(state, a, 2 * T.ranks_lost(state, d), events, source_seat=seat)
    abil = T.abilities(state, d)
    if state["units"][d]["card"] == "10203" or "Affiliation: House Umber" in abil:
        add_condition(state, a, "panicked", events)


def _hitrun_can(state, seat, ctx, o):
    a = ctx["unit"]
    return ctx["kind"] == "melee" and a in T.live(state) and bool(T.engaged_with(state, a)) \
        and _flow().can_retreat(state, a)  # M49: not when surrounded


def _hitrun_res(state, seat, ctx, p, o, events):
    a = ctx["unit"]
    if a in T.live(state) and T.engaged_with(state, a):
        start_retreat(state, seat, a, events, weaken=robbs_unit(state, a))


BRIBERY = "40104"
ATTACHED_FOR_THE_GAME = ("40102", "40204")  # A Lannister Pays His Debts, The North Remembers: tokens on the card


# card attached for the rest of the game (40102, 40204)
def _attach_check(state, seat, ctx, p, o):
    if p.get("unit") not in T.friendly(state, seat):
        raise illegal(gettext("choose a friendly combat unit to attach the card to"))
    return p


def _attach_res(state, seat, ctx, p, o, events):
    if p.get("unit") not in T.friendly(state, seat):
        return
    attach_card(state, seat, p.get("_card"), p["unit"])
    events.append({"type": "attach", "seat": seat, "card": p.get("_card"), "unit": p["unit"]})


def attach_card(state, seat, card, unit) -> None:
    """The played card lies attached to the unit, not on its owner's discard pile."""
    disc = state["players"][seat]["discards"]
    if card in disc:
        disc.remove(card)
    state.setdefault("attached", []).append({"card": card, "seat": seat, "unit": unit, "tokens": 0})


def end_bribery(state, name, events) -> None:
    """Bribery (40104) stops affecting the unit (it passed a Morale test, the money zone targeted it, or,
    revision 5, it was destroyed); from revision 5 the card comes off the unit onto its owner's discard
    pile ("attach this card ... until", card text)."""
    state["units"][name]["bribed"] = False
    events.append({"type": "detached", "unit": name, "card": BRIBERY})
    for att in list(state.get("attached", [])):
        if att["card"] == BRIBERY and att["unit"] == name:
            state["attached"].remove(att)
            state["players"][att["seat"]]["discards"].insert(0, BRIBERY)


# zone_claimed (instead of the zone's effect)
def _instead_of_zone(state, ctx):
    for t in state["work"]:
        if t.get("t") == "zone" and t.get("zone") == ctx["zone"] and not t.get("replaced"):
            t["replaced"] = True
            return


def _zone_effect_left(state, ctx):
    """Revision 4: the claimed zone's effect is still to come, so an effect "instead of the zone's
    effect" has something to replace (not after Repeating the Words took the zone's effect's place)."""
    return T.revision(state) < 4 or any(t.get("t") == "zone" and t.get("zone") == ctx["zone"]
                                        and not t.get("replaced") for t in state["work"])


def _instead_can(state, seat, ctx, o):
    return _zone_effect_left(state, ctx)


def _instead_unit_can(state, seat, ctx, o):
    return _zone_effect_left(state, ctx) and _swift_can(state, seat, ctx, o)


def _bribery_check(state, seat, ctx, p, o):
    if p.get("unit") not in T.enemies(state, seat):
        raise illegal(gettext("Bribery: choose an enemy combat unit"))
    return p


def _bribery_res(state, seat, ctx, p, o, events):
    _instead_of_zone(state, ctx)
    if p.get("unit") in T.live(state):
        state["units"][p["unit"]]["bribed"] = True
        if T.revision(state) >= 5:  # the card lies attached to the unit until it comes off (end_bribery)
            attach_card(state, seat, BRIBERY, p["unit"])
        events.append({"type": "attach", "seat": seat, "card": BRIBERY, "unit": p["unit"]})


def _assault_may_charge(state, seat, ctx, p, card):
    if card == "40207":
        return ctx["zone"] == "swords"
    return "Affiliation: House Clegane" in T.abilities(state, p.get("unit"))


def _assault_check(state, seat, ctx, p, o):
    flow = _flow()
    card = p.get("_card")
    name = p.get("unit")
    if name not in T.friendly(state, seat):
        raise illegal(gettext("Assault Orders: choose a friendly combat unit"))
    if p.get("charge") is not None:
        if not _assault_may_charge(state, seat, ctx, p, card):
            raise illegal(gettext("Assault Orders: a Charge only from the swords zone") if card == "40207" else
                          gettext("Assault Orders: a Charge only for a House Clegane unit"))
        ch = flow._keys(p["charge"], {"target", "face", "align", "arc"}, "charge")
        flow.charge_checks(state, name, ch.get("target"), None if ch.get("face") is None else flow._angle(
            ch["face"], "charge: face"))
        return p
    if p.get("target") not in T.engaged_with(state, name):
        raise illegal(gettext("Assault Orders: %(name)s is not engaged with %(p_get_target)s") % {
            "name": name, "p_get_target": p.get('target')})  # M57
    return p


def _assault_res(state, seat, ctx, p, o, events):
    flow = _flow()
    _instead_of_zone(state, ctx)
    name = p["unit"]
    try:
        _assault_check(state, seat, ctx, p, o)
    except EngineError:
        return
    # revision 5: "makes one Melee Attack action" / "one Charge action" on a Dangerous piece (M78)
    hurt = flow.free_action_dangerous(state, name, events)  # found legal just above
    if hurt:
        return  # destroyed before its action resolves
    if p.get("charge") is not None:
        flow.declare_charge(state, seat, name, p["charge"], events, free=True, dice_mode="lowest",
                            acted=hurt is not None)
    else:
        flow.declare_attack(state, seat, name, {"target": p["target"]}, events, charge=False,
                            ends_activation=False, dice_mode="lowest", acted=hurt is not None)


# charge_declared / charge_rolled / charge_success
def _charger(state, seat, ctx, o):
    return ctx["unit"] == o


def _reckless_res(state, seat, ctx, p, o, events):
    flow = _flow()
    if o not in T.live(state):
        return
    d3 = T.roll(state, 3)
    events.append({"type": "reckless_heroism", "unit": o, "d3": d3})
    flow.wound(state, o, d3, events, source_seat=None)
    if o in T.live(state):
        state["charging"]["as_six"] = True


def _superior_res(state, seat, ctx, p, o, events):
    t = ctx["target"]
    state["charging"]["superior"] = 5 if state["units"][t]["attachment"] == "20201" else 3


def _devastating_res(state, seat, ctx, p, o, events):
    c = state["charging"]
    c["devastating"] = True
    if controls(state, seat, "horse"):
        c["may_reroll"] = True


def _winter_check(state, seat, ctx, p, o):
    """"Pick one (both if you control the horse zone)": with the horse zone both effects apply (no
    pick to make); without it, one of them (default b)."""
    horse = controls(state, seat, "horse")
    pick = p.get("pick", "both" if horse else "b")
    if pick not in ("a", "b", "both"):
        raise EngineError("bad_action", gettext("pick takes a, b or both"))
    if pick == "both" and not horse:
        raise illegal(gettext("Winter Is Coming: both only while you control the horse zone"))
    if pick != "both" and horse:
        raise illegal(gettext("Winter Is Coming: with the horse zone both effects apply"))
    return dict(p, pick=pick)


def _winter_res(state, seat, ctx, p, o, events):
    if p["pick"] in ("a", "both") and ctx["target"] in T.live(state):
        state["units"][ctx["target"]]["shielded"] = state.get("turn_no")
    if p["pick"] in ("b", "both"):
        state["charging"]["dice_mode"] = "highest"


def _set_can(state, seat, ctx, o):
    return ctx["target"] == o and ctx.get("arc") in ("front", "flank") and T.engaged_with(state, o) == [ctx["unit"]]


def _set_res(state, seat, ctx, p, o, events):
    if o in T.live(state) and ctx["unit"] in T.engaged_with(state, o):
        # revision 5: "makes one Melee Attack action" on a Dangerous piece: 1D3+1 wounds first (M78)
        hurt = _flow().free_action_dangerous(state, o, events, lambda s: _flow().declare_attack(
            s, seat, o, {"target": ctx["unit"]}, [], charge=False, ends_activation=False))
        if hurt:
            return  # destroyed before its attack resolves
        _flow().declare_attack(state, seat, o, {"target": ctx["unit"]}, events, charge=False, ends_activation=False,
                               acted=hurt is not None)


# surge: Overrun (a Charge or a March instead of the Surge)
def _overrun_can(state, seat, ctx, o):
    return (o is None or ctx["unit"] == o) and ctx["unit"] in T.live(state)


def _overrun_check(state, seat, ctx, p, o):
    flow = _flow()
    name = ctx["unit"]
    if p.get("charge") is not None:
        ch = flow._keys(p["charge"], {"target", "face", "align", "arc"}, "charge")
        flow.charge_checks(state, name, ch.get("target"), None if ch.get("face") is None else flow._angle(
            ch["face"], "charge: face"))
    elif p.get("march") is not None:
        flow.check_march(state, name, p["march"])
    else:
        raise EngineError("bad_action", gettext("Overrun takes charge {target} or march {...}"))
    return p


def _overrun_res(state, seat, ctx, p, o, events):
    flow = _flow()
    name = ctx["unit"]
    try:
        _overrun_check(state, seat, ctx, p, o)
    except EngineError:
        return
    for t in state["work"]:
        if t.get("t") == "surge" and t.get("unit") == name:
            t["replaced"] = True
    if p.get("march") is not None:
        at, facing = flow.check_march(state, name, p["march"])
    # revision 5: "makes one Charge or March action" on a Dangerous piece: 1D3+1 wounds first (M78); a
    # March then entering a piece is damaged as the activation's March, a Charge only once
    hurt = flow.free_action_dangerous(state, name, events)  # found legal just above
    if hurt:
        return  # destroyed before its action resolves
    if p.get("march") is not None:
        _move(state, name, at, facing, "march", events)
        return
    clegane = o is None and "Affiliation: House Clegane" in T.abilities(state, name)
    flow.declare_charge(state, seat, name, p["charge"], events, free=True, may_reroll=clegane,
                        acted=hurt is not None)


# morale_rolled: Kingslayer's Renown (40108)
def _renown_can(state, seat, ctx, o):
    j = commander_unit(state, seat, "20115")
    return j is not None and within(state, j, ctx["unit"], 12.0)


def _renown_res(state, seat, ctx, p, o, events):
    for t in state["work"]:
        if t.get("t") == "test" and t.get("tid") == ctx["tid"]:
            t["force_pass"] = True
    if commander_unit(state, seat, "20115") == ctx["unit"]:
        _flow().heal(state, ctx["unit"], 2, events)


# melee_before: Berserker Tactics (40211)
PICKS = ("critical_blow", "sundering", "highest", "reroll")


def _berserker_check(state, seat, ctx, p, o):
    picks = p.get("picks", ["highest"])
    wounds = p.get("wounds", 0)
    if not isinstance(wounds, int) or isinstance(wounds, bool) or not 0 <= wounds <= 3:
        raise EngineError("bad_action", gettext("wounds is from 0 to 3"))
    if not isinstance(picks, list) or len(set(picks)) != len(picks) or any(x not in PICKS for x in picks):
        raise EngineError("bad_action", gettext("picks are distinct, among %(picks)s") % {"picks": ", ".join(PICKS)})
    if len(picks) != 1 + wounds:
        raise illegal(gettext("Berserker Tactics: one pick, and one more per wound taken"))
    if wounds >= state["units"][ctx["unit"]]["wounds"]:
        raise illegal(gettext("Berserker Tactics: the unit cannot take that many wounds"))
    return dict(p, picks=picks, wounds=wounds)


def _berserker_res(state, seat, ctx, p, o, events):
    la = state["last_attack"]
    a = la["attacker"]
    if p["wounds"]:
        _flow().wound(state, a, p["wounds"], events, source_seat=None)
    kw = set(la["keywords"])
    for x in p["picks"]:
        if x in ("critical_blow", "sundering"):
            kw.add(x)
        elif x == "highest":
            highest_dice(state, a)
        else:
            la["reroll_any"] = True
    la["keywords"] = sorted(kw)


# unit_destroyed: Last Stand (40213)
def standing_engaged(state: State, name: str) -> list[str]:
    """The enemies a destroyed unit would be engaged with, were it still on the table."""
    u = state["units"][name]
    if not u["destroyed"] or not u["on_table"] or u.get("standing"):
        return []
    u["standing"] = True
    try:
        return T.engaged_with(state, name)
    finally:
        u["standing"] = False


def _laststand_can(state, seat, ctx, o):
    name = ctx["unit"]
    melee = any(a["range"] == "melee" for a in T.ucard(state, name).get("attacks", []))
    return melee and bool(standing_engaged(state, name))


def _laststand_check(state, seat, ctx, p, o):
    engaged = standing_engaged(state, ctx["unit"])
    if p.get("target") is None and len(engaged) == 1:
        p = dict(p, target=engaged[0])
    if p.get("target") not in engaged:
        raise illegal(gettext("Last Stand: choose an enemy engaged with %(ctx_unit)s") % {
            "ctx_unit": ctx['unit']})  # M57
    return p


def _laststand_res(state, seat, ctx, p, o, events):
    """Before it is removed the destroyed unit makes one melee attack with its highest attack-dice
    value; a House Umber unit may re-roll any of its attack dice."""
    flow = _flow()
    name = ctx["unit"]
    if p["target"] not in standing_engaged(state, name):
        return
    u = state["units"][name]
    removal = next((t for t in state["work"] if t.get("t") == "removal" and t["unit"] == name), None)
    if removal is None:
        return  # already removed
    if any(t.get("t") == "attack" for t in state["work"]):
        removal["saved"] = state["last_attack"]  # the attack this one interrupts
    u["standing"] = True
    events.append({"type": "last_stand", "unit": name, "target": p["target"]})
    flow.declare_attack(state, seat, name, {"target": p["target"]}, events, charge=False, ends_activation=False,
                        dice_mode="highest")
    if u["card"] == "10203" or "Affiliation: House Umber" in T.abilities(state, name):
        state["last_attack"]["reroll_any"] = True


# card_played
def _counter_res(state, seat, ctx, p, o, events):
    crown, money = controls(state, seat, "crown"), controls(state, seat, "money")
    if crown and money:
        cancelled, roll = True, None
    else:
        roll = T.roll(state, 6)
        cancelled = roll >= (2 if crown or money else 3)
    events.append({"type": "counterplot", "seat": seat, "roll": roll, "cancelled": cancelled})
    if cancelled:
        for t in state["work"]:
            if t.get("t") == "resolve" and t.get("rid") == ctx["rid"]:
                t["cancelled"] = True


Effect = tuple[str, str, Callable, Callable, Callable]
PARAMS = ("unit", "target", "move", "pick", "picks", "wounds", "charge", "march")

# (card id, mode index) -> effect
CARD_EFFECTS: dict[tuple[str, int], Effect] = {
    ("40101", 0): ("ncu_activates", "enemy", _true, _intrigue_check, _intrigue_res),
    ("40102", 0): ("turn_start", "any", _swift_can, _attach_check, _attach_res),
    ("40104", 0): ("zone_claimed", "own", _instead_can, _bribery_check, _bribery_res),
    ("40108", 0): ("morale_rolled", "own", _renown_can, _same, _renown_res),
    ("40111", 0): ("surge", "own", _overrun_can, _overrun_check, _overrun_res),
    ("40112", 0): ("zone_claimed", "own", _instead_unit_can, _assault_check, _assault_res),
    ("40103", 0): ("morale_before", "enemy", _true, _same, _roar),
    ("40105", 0): ("card_played", "enemy", _true, _same, _counter_res),
    ("40106", 0): ("panic_failed", "enemy", _true, _fealty_check, _fealty_res),
    ("40107", 0): ("unit_activates", "enemy", _true, _same, _subj_res),
    ("40108", 1): ("turn_start", "any", _true, _same, _draw1),
    ("40109", 0): ("melee_before", "own", _prowess_can, _same, _prowess),
    ("40109", 1): ("turn_start", "any", _true, _same, _draw1),
    ("40110", 0): ("unit_activates", "enemy", _infamy_can, _same, _infamy_res),
    ("40110", 1): ("turn_start", "any", _true, _same, _draw1),
    ("40113", 0): ("melee_before", "own", _true, _same, _price),
    ("40201", 0): ("melee_before", "own", _true, _same, _winters_might),
    ("40202", 0): ("melee_before", "own", _true, _same, _ferocity),
    ("40203", 0): ("charge_rolled", "own", _true, _same, _devastating_res),
    ("40204", 0): ("turn_start", "any", _swift_can, _attach_check, _attach_res),
    ("40205", 0): ("charge_success", "own", _true, _winter_check, _winter_res),
    ("40207", 0): ("zone_claimed", "own", _instead_unit_can, _assault_check, _assault_res),
    ("40209", 0): ("charge_declared", "enemy", _true, _same, _superior_res),
    ("40206", 0): ("turn_start", "any", _swift_can, _swift_check, _swift_res),
    ("40208", 0): ("after_attack", "enemy", _defender_retreat_can, _same, _defender_retreat),
    ("40210", 0): ("after_attack", "own", _hitrun_can, _same, _hitrun_res),
    ("40211", 0): ("melee_before", "own", _true, _berserker_check, _berserker_res),
    ("40212", 0): ("after_attack", "enemy", _lash_can, _same, _lash_res),
    ("40213", 0): ("unit_destroyed", "own", _laststand_can, _laststand_check, _laststand_res),
}

# Order name -> effect (side relative to the triggering seat; `can` also gets the unit holding it)
ORDER_EFFECTS: dict[str, Effect] = {
    "Order: Tactical Reposition": ("turn_start", "enemy", _tacrep_can, _tacrep_check, _tacrep_res),
    "Order: Hold the Line!": ("unit_activates", "own", _hold_can, _hold_check, _hold_res),
    "Order: Martial Training": ("melee_before", "own", _own_unit, _same, _martial),
    "Order: Incite": ("melee_before", "own", _own_unit, _same, _incite),
    "Order: Lannister Supremacy": ("after_attack", "enemy", _supremacy_can, _same, _supremacy_res),
    "Order: Swift Retreat": ("after_attack", "enemy", _defender_retreat_can, _same, _defender_retreat),
    "Order: Set for Charge": ("charge_success", "enemy", _set_can, _same, _set_res),
    "Order: Reckless Heroism": ("charge_declared", "own", _charger, _same, _reckless_res),
    "Order: Overrun": ("surge", "own", _overrun_can, _overrun_check, _overrun_res),
}


def _side_ok(state: State, seat: str, ctx: Ctx, side: str) -> bool:
    if side == "any":
        return True
    own = trigger_seat(state, ctx) == seat
    if T.team_game(state):
        own = not T.is_enemy(state, seat, trigger_seat(state, ctx))  # M130: a teammate's effects are friendly
    return own if side == "own" else not own


def card_modes(state: State, seat: str, window: str, ctx: Ctx, card: str) -> list[int]:
    """The modes of `card` that `seat` may play now (M110-M111)."""
    out = []
    if shielded(state, seat, ctx.get("unit")) and _side_ok(state, seat, ctx, "own"):
        return out
    if T.revision(state) >= 4 and (subjugated(state, seat, ctx.get("unit")) or untargetable(
            state, seat, ctx.get("target"))):
        return out  # revision 4: a card on a trigger whose unit or target its side may not target
    for (cid, i), (w, side, can, _c, _r) in CARD_EFFECTS.items():
        if cid == card and w == window and _side_ok(state, seat, ctx, side) and can(state, seat, ctx, None):
            out.append(i)
    return out


def orders_now(state: State, seat: str, window: str, ctx: Ctx) -> list[tuple[str, str]]:
    """(unit, order) pairs usable now: each Order unspent this round (M103); a unit with two Orders
    (Guardsmen with a Guard Captain) spends them apart, its token placed on the ability used."""
    out = []
    for n in T.live(state, seat):
        u = state["units"][n]
        if shielded(state, seat, n):
            continue
        for ab in sorted(T.abilities(state, n)):
            if ab in u.get("orders_used", []):
                continue  # seed 1850-1852: the Order token goes on the ability used, not on the unit
            eff = ORDER_EFFECTS.get(ab)
            if eff and eff[0] == window and _side_ok(state, seat, ctx, eff[1]) and eff[2](state, seat, ctx, n):
                out.append((n, ab))
    return out


def shielded(state: State, seat: str, name: Any) -> bool:
    """Winter Is Coming (a): the charged unit cannot be the target of its own side's Orders or Tactics
    cards this turn."""
    u = state["units"].get(name) if isinstance(name, str) else None
    return bool(u) and u["seat"] == seat and u.get("shielded") is not None and u["shielded"] == state.get("turn_no")


def subjugated(state: State, seat: str, name: Any) -> bool:
    """Subjugation of Power (40107, revision 4): a unit that failed its Panic Test has no abilities and
    "cannot be targeted by its own side's Tactics cards" until the end of the turn: no card of `seat`
    names it or triggers on it when `seat` is its side (its owner, with teams a teammate too, M130)."""
    u = state["units"].get(name) if isinstance(name, str) else None
    return bool(u) and T.revision(state) >= 4 and u.get("silenced") is not None \
        and u["silenced"] == state.get("turn_no") and not T.is_enemy(state, seat, u["seat"])


def untargetable(state: State, seat: str, name: Any) -> bool:
    """No Tactics card of `seat` may name the unit or trigger on it now (Winter Is Coming (a), Subjugation
    of Power)."""
    return shielded(state, seat, name) or subjugated(state, seat, name)


def cards_blocked(state: State, seat: str) -> bool:
    nc = state.get("no_cards")
    return bool(nc) and nc[0] == seat and nc[1] == state.get("turn_no")


TYRION = "30104"
COUNTERPLOT = "40105"


def mastermind_sources(state: State, seat: str, window: str, ctx: Ctx) -> list[str]:
    """Tyrion Lannister's Tactical Mastermind, once per game: when the opponent plays a Tactics card,
    before it resolves, a Counterplot taken from the deck or the discard pile and played at once. The
    piles ("deck", "discards") holding one now; none once used, or while Tyrion is silenced."""
    key = next((k for k, x in state["ncus"].items() if T.ncu_card(k) == TYRION and x["seat"] == seat), TYRION)
    n = state["ncus"].get(key)
    if window != "card_played" or not n or n["seat"] != seat or TYRION in state["once_used"].get(seat, []):
        return []
    if n.get("silenced") == state["round"] or not card_modes(state, seat, window, ctx, COUNTERPLOT):
        return []
    p = state["players"][seat]
    return [src for src in ("deck", "discards") if COUNTERPLOT in p[src]]


def playable(state: State, seat: str, window: str, ctx: Ctx) -> bool:
    if orders_now(state, seat, window, ctx):
        return True
    if cards_blocked(state, seat):
        return False
    if mastermind_sources(state, seat, window, ctx):
        return True
    return any(card_modes(state, seat, window, ctx, c) for c in set(state["players"][seat]["hand"]))


def could_answer(state: State, seat: str, window: str, ctx: Ctx) -> bool:
    """Public: the seat's deck list or the Orders of its units on the table hold an answer to this
    kind of window from this side; the hand is not looked at."""
    deck = set(data.deck_for(T.faction_of(seat), state["players"][seat]["list"]["commander"]))
    for (cid, _i), (w, side, _can, _c, _r) in CARD_EFFECTS.items():
        if w == window and cid in deck and _side_ok(state, seat, ctx, side):
            return True
    for n in T.live(state, seat):
        for ab in T.abilities(state, n):
            eff = ORDER_EFFECTS.get(ab)
            if eff and eff[0] == window and _side_ok(state, seat, ctx, eff[1]):
                return True
    return False


# ---------------------------------------------------------------------- the window


def open_window(state: State, window: str, ctx: Ctx, seats: list[str] | None = None) -> None:
    """Push a reaction window (runs before whatever is queued after it)."""
    flow = _flow()
    if seats is None:
        act = state.get("turn") or state["first_player"]
        seats = _flow().window_seats(state, act)
    flow.push(state, {"t": "react", "window": window, "ctx": ctx, "seats": list(seats), "i": 0})


def _asks(state: State, seat: str, window: str, ctx: Ctx) -> bool:
    ap = state.get("auto_pass", {}).get(seat)
    if ap is not None and ap == state.get("turn_no"):
        return False
    if state["options"].get("reaction_prompts") == "all":
        return could_answer(state, seat, window, ctx)
    return playable(state, seat, window, ctx)


def h_react(state: State, task: dict[str, Any], events: Events) -> None:
    flow = _flow()
    while task["i"] < len(task["seats"]):
        seat = task["seats"][task["i"]]
        if _asks(state, seat, task["window"], task["ctx"]):
            flow.ask(state, "react", [seat], window=task["window"], ctx=dict(task["ctx"]))
            return
        task["i"] += 1
    flow.done(state, task)


def choices(state: State, seat: str) -> list[dict[str, Any]]:
    """The discrete answers of the pending react (a move's distance: the listed ones only)."""
    task = state["work"][0]
    w, ctx = task["window"], task["ctx"]
    out: list[dict[str, Any]] = [{"pass": True}, {"auto_pass": True}]
    cands: list[dict[str, Any]] = []
    if not cards_blocked(state, seat):
        for c in sorted(set(state["players"][seat]["hand"])):
            for i in card_modes(state, seat, w, ctx, c):
                cands += [{"play": dict(p, card=c, mode=i)} for p in _param_options(state, seat, w, ctx, (c, i), None)]
        cands += [{"play": {"card": COUNTERPLOT, "source": src}} for src in mastermind_sources(state, seat, w, ctx)]
    for n, ab in orders_now(state, seat, w, ctx):
        cands += [{"order": dict(p, unit=n, ability=ab)} for p in _param_options(state, seat, w, ctx, ab, n)]
    moved: set[tuple[str, str]] = set()
    for a in cands:
        v = a.get("play") or a.get("order")
        key = (str(v.get("card") or v.get("ability")), str(v.get("unit") if "card" in v else v.get("target")))
        if "move" in v and key in moved:
            continue  # one listed move per unit (any other legal move is accepted too)
        try:
            _validate(state, seat, a)
        except EngineError:
            continue
        if "move" in v:
            moved.add(key)
        out.append(a)
    return out


def _param_options(state: State, seat: str, w: str, ctx: Ctx, key: Any, owner: str | None) -> list[dict[str, Any]]:
    foes = T.enemies(state, seat)
    if key in (("40206", 0), "Order: Tactical Reposition"):
        horse = key == ("40206", 0) and controls(state, seat, "horse")
        out = []
        for n in T.friendly(state, seat):
            k = "unit" if owner is None else "target"
            if horse:
                out.append({k: n, "move": {"forward": 3}})
            else:
                out += [{k: n, "move": {"direction": d, "distance": 2 if key == ("40206", 0) else 3}}
                        for d in ("forward", "back", "left", "right")]
        return out
    if key == "Order: Hold the Line!":
        return [{"target": e} for e in T.engaged_with(state, owner)]
    if key == ("40101", 0) and controls(state, seat, "money"):
        return [{"unit": n} for n in foes]
    if key in (("40106", 0), ("40102", 0), ("40204", 0)):
        return [{"unit": n} for n in T.friendly(state, seat)]
    if key == ("40104", 0):
        return [{"unit": n} for n in foes]
    if key in (("40112", 0), ("40207", 0)):
        out = []
        for n in T.friendly(state, seat):
            out += [{"unit": n, "target": e} for e in T.engaged_with(state, n)]
            out += [{"unit": n, "charge": {"target": e}} for e in foes]
        return out
    if key in (("40111", 0), "Order: Overrun"):
        return [{"charge": {"target": e}} for e in foes]
    if key == ("40213", 0):
        return [{"target": e} for e in standing_engaged(state, ctx["unit"])]
    if key == ("40205", 0):
        return [{"pick": "both"}] if controls(state, seat, "horse") else [{"pick": x} for x in ("a", "b")]
    if key == ("40211", 0):
        return [{"picks": [x]} for x in PICKS]
    return [{}]


def _fields(v: dict[str, Any], kind: str) -> None:
    """The type of every field a `play` or an `order` may give (their values are checked by the
    card's or the Order's own check)."""
    for key in ("card", "unit", "target", "pick", "ability", "source"):
        F.name(v.get(key), f"{kind}: {key}", optional=True)
    F.whole(v.get("mode"), f"{kind}: mode", 0, 9, optional=True)
    F.whole(v.get("wounds"), f"{kind}: wounds", 0, 3, optional=True)
    if v.get("picks") is not None:
        F.names(v["picks"], f"{kind}: picks")
    for key in ("move", "charge", "march"):
        if v.get(key) is not None:
            F.mapping(v[key], f"{kind}: {key}")


def _validate(state: State, seat: str, action: dict[str, Any]) -> tuple[Effect, dict[str, Any], str | None, Any]:
    flow = _flow()
    task = state["work"][0]
    w, ctx = task["window"], task["ctx"]
    kind, value = next(iter(action.items()))
    if kind == "play":
        v = flow._keys(value, {"card", "mode", "unit", "target", "move", "pick", "picks", "wounds", "charge",
                                "march", "source"}, "play")
        _fields(v, "play")
        card = v.get("card")
        source = v.get("source")
        if source is not None:
            if source not in ("deck", "discards"):
                raise EngineError("bad_action", gettext("source is deck or discards"))
            if card != COUNTERPLOT or source not in mastermind_sources(state, seat, w, ctx):
                raise illegal(gettext("Tactical Mastermind: once per game, a Counterplot from your deck or "
                                      "discard pile when the opponent plays a Tactics card"))
        elif card not in state["players"][seat]["hand"]:
            raise illegal(gettext("%(card)s is not in your hand") % {"card": card})
        if cards_blocked(state, seat):
            raise illegal(gettext("no Tactics cards for the rest of this turn after a Disorderly Charge"))  # M69
        modes = card_modes(state, seat, w, ctx, card)
        if not modes:
            raise illegal(gettext("%(card)s has no trigger in this window") % {
                "card": term("minis", data.card(card)["name"])})  # M110-M111
        mode = v.get("mode", modes[0])
        if mode not in modes:
            raise illegal(gettext("mode %(mode)s of %(card)s does not apply now") % {
                "mode": mode, "card": term("minis", data.card(card)["name"])})
        eff = CARD_EFFECTS[(card, mode)]
        params = {k: v[k] for k in PARAMS if k in v}
        params["_card"] = card
        if source is not None:
            params["_source"] = source
        if shielded(state, seat, params.get("unit")) or shielded(state, seat, params.get("target")):
            raise illegal(gettext("%(unit)s cannot be the target of your cards this turn (Winter Is Coming)")
                          % {"unit": params.get("unit") or params.get("target")})
        if subjugated(state, seat, params.get("unit")) or subjugated(state, seat, params.get("target")):
            raise illegal(gettext("%(unit)s cannot be the target of your cards this turn (Subjugation of Power)")
                          % {"unit": params.get("unit") if subjugated(state, seat, params.get("unit"))
                             else params.get("target")})
        return eff, eff[3](state, seat, ctx, params, None), None, (card, mode)
    v = flow._keys(value, {"unit", "ability", "target", "move", "charge", "march"}, "order")
    _fields(v, "order")
    unit = v.get("unit")
    usable = orders_now(state, seat, w, ctx)
    mine = [ab for n, ab in usable if n == unit]
    if not mine:
        raise illegal(gettext("%(unit)s has no unspent Order for this trigger") % {"unit": unit})  # M103
    ab = v.get("ability", mine[0])
    if ab not in mine:
        raise illegal(gettext("%(ab)s does not apply now") % {"ab": ab})
    eff = ORDER_EFFECTS[ab]
    params = {k: v[k] for k in ("target", "move", "charge", "march") if k in v}
    if ab == "Order: Tactical Reposition":
        params["unit"] = v.get("target")
    return eff, eff[3](state, seat, ctx, params, unit), unit, ab


def answer(state: State, seat: str, kind: str, value: Any, events: Events) -> None:
    flow = _flow()
    task = state["work"][0]
    if kind in ("pass", "auto_pass"):
        if value is not True:
            raise EngineError("bad_action", gettext("%(kind)s takes true") % {"kind": kind})
        if kind == "auto_pass":
            state.setdefault("auto_pass", {})[seat] = state.get("turn_no")
        state["decision"] = None
        task["i"] += 1
        events.append({"type": "react_pass", "seat": seat, "window": task["window"]})
        return
    eff, params, unit, key = _validate(state, seat, {kind: value})
    state["decision"] = None
    task["i"] += 1
    rid = flow.next_id(state)
    res = {"t": "resolve", "rid": rid, "seat": seat, "ctx": dict(task["ctx"]), "params": params, "owner": unit,
           "key": list(key) if isinstance(key, tuple) else key, "cancelled": False}
    if kind == "order":
        state["units"][unit]["order_used"] = True  # the unit holds an Order token (on `key`)
        state["units"][unit].setdefault("orders_used", []).append(key)
        events.append({"type": "order", "seat": seat, "unit": unit, "ability": key})
        _declare(state, task, res)
        return
    card = key[0]
    p = state["players"][seat]
    source = params.pop("_source", None)
    if source is not None:
        # Tactical Mastermind: the Counterplot comes from the deck or the discard pile; then the deck
        # is shuffled, and the ability is spent for the game
        p[source].remove(card)
        rng.shuffle(state, p["deck"])
        state["once_used"].setdefault(seat, []).append(TYRION)
    else:
        p["hand"].remove(card)
    p["discards"].insert(0, card)
    ev = {"type": "play", "seat": seat, "card": card, "mode": key[1], "window": task["window"]}
    if source is not None:
        ev["source"] = source
    events.append(ev)
    _declare(state, task, res)
    if task["window"] != "card_played":
        open_window(state, "card_played", {"seat": seat, "card": card, "rid": rid}, T.enemy_seats(state, seat) if not T.multi(state)
                    else [s for s in T.clockwise(state, seat) if s in T.in_game(state) and T.is_enemy(state, seat, s)])


def _declare(state: State, task: dict[str, Any], res: dict[str, Any]) -> None:
    """Seed 1776-1779: the effects of one trigger are all declared first (the active seat first), then
    resolved in that order, the active seat's first: the resolution waits behind the window, after
    the ones declared before it. A card's `card_played` window (Counterplot) still comes at once, and
    the Counterplot resolves as that window closes, before the card it answers. Revision 1: each
    resolved as soon as it was declared."""
    flow = _flow()
    if T.revision(state) < 2:
        flow.push(state, res)
        return
    i = state["work"].index(task) + 1 + task.get("declared", 0)
    state["work"].insert(i, res)
    task["declared"] = task.get("declared", 0) + 1


def h_resolve(state: State, task: dict[str, Any], events: Events) -> None:
    flow = _flow()
    flow.done(state, task)
    if task["cancelled"]:
        events.append({"type": "cancelled", "seat": task["seat"]})
        return
    key = task["key"]
    eff = ORDER_EFFECTS[key] if isinstance(key, str) else CARD_EFFECTS[(key[0], key[1])]
    eff[4](state, task["seat"], task["ctx"], task["params"], task["owner"], events)


# ---------------------------------------------------------------------- NCU abilities (revision 4)
# An NCU's triggered ability, read from its card's ability names: name -> [(moment, can(state, nid, moment),
# options(state, nid, moment), check(state, nid, moment, value) -> value, resolve(state, task, value, events))].
# Moments: "activates" (as the NCU activates, before the `ncu_activates` window: M105, its owner is the
# active seat, so its effect resolves before the enemy's answer) and "claim" (as it claims a zone, after an
# Influence, before the `zone_claimed` window and the zone's effect). `can` reads public facts only (so
# that being asked tells nothing of a hand or a deck); the owner is asked `choose` (`what: ncu_ability`) and
# may always decline (`null`: the abilities say "you may"). Not while the NCU has no abilities (Intrigue and
# Subterfuge, 40101).
HEAR_ME_ROAR, SUBJUGATION = "40103", "40107"
PLAYING_THE_GAME = (("crown", HEAR_ME_ROAR), ("money", SUBJUGATION))
PILES = ("discards", "deck")


def ncu_seat(state: State, nid: str) -> str:
    return state["ncus"][nid]["seat"]


def order_tokens_left(state: State, nid: str) -> int:
    """The Order tokens left on an NCU's card (Cersei starts the game with 2, seed 745-746; they are not
    put back in Cleanup); a scenario's `card_tokens` names them by the NCU's id."""
    start = int(data.card(T.ncu_card(nid)).get("order_tokens") or 0)
    return int((state.get("card_tokens") or {}).get(nid, start))


def _ptg_cards(state: State, seat: str) -> list[str]:
    return [cid for zone, cid in PLAYING_THE_GAME if controls(state, seat, zone)]


def _ptg_can(state: State, nid: str, moment: str) -> bool:
    return order_tokens_left(state, nid) > 0 and bool(_ptg_cards(state, ncu_seat(state, nid)))


def _ptg_options(state: State, nid: str, moment: str) -> list[dict[str, Any]]:
    """Spend a token; each card searched for comes from a pile holding one (the owner's pick when both do;
    a card in neither pile is not found). Listed to the owner only (it names the deck's content)."""
    p = state["players"][ncu_seat(state, nid)]
    out: list[dict[str, Any]] = [{"spend": True, "from": {}}]
    for cid in _ptg_cards(state, ncu_seat(state, nid)):
        piles = [src for src in PILES if cid in p[src]]
        if piles:
            out = [{"spend": True, "from": {**o["from"], cid: src}} for o in out for src in piles]
    return out


def _ptg_check(state: State, nid: str, moment: str, value: Any) -> dict[str, Any]:
    v = _flow()._keys(value, {"spend", "from"}, "choose")
    if v.get("spend") is not True:
        raise EngineError("bad_action", gettext("Playing The Game: spend takes true (or choose null to keep the token)"))
    src = v.get("from") or {}
    F.mapping(src, "choose: from")
    p = state["players"][ncu_seat(state, nid)]
    wanted = _ptg_cards(state, ncu_seat(state, nid))
    out: dict[str, str] = {}
    for cid, pile in src.items():
        if pile not in PILES:
            raise EngineError("bad_action", gettext("from: each card comes from deck or discards"))
        if cid not in wanted:
            raise illegal(gettext("Playing The Game does not search for that card now"))
        if cid not in p[pile]:
            raise illegal(gettext("there is no %(card)s in that pile") % {"card": term("minis", data.card(cid)["name"])})
        out[cid] = pile
    for cid in wanted:
        if cid not in out:
            found = [pile for pile in PILES if cid in p[pile]]
            if found:
                out[cid] = found[0]  # not named: the discard pile first
    return {"spend": True, "from": out}


def _ptg_res(state: State, task: dict[str, Any], value: dict[str, Any], events: Events) -> None:
    """Playing The Game (Cersei Lannister, Queen Regent): one of her Order tokens spent; with the crown zone
    controlled a Hear Me Roar!, with the money zone a Subjugation of Power, from the deck or the discard
    pile into the hand; then the deck is shuffled."""
    nid, seat = task["ncu"], task["seat"]
    p = state["players"][seat]
    state.setdefault("card_tokens", {})[nid] = order_tokens_left(state, nid) - 1
    taken, sources = [], []
    for cid, pile in value["from"].items():
        p[pile].remove(cid)
        p["hand"].append(cid)
        taken.append(cid)
        sources.append(pile)
    rng.shuffle(state, p["deck"])
    events.append({"type": "ncu_ability", "seat": seat, "ncu": nid, "ability": task["ability"], "cards": taken,
                   "sources": sources, "tokens": state["card_tokens"][nid]})
    if len(p["hand"]) > _flow().HAND_MAX:
        _flow().push(state, {"t": "hand_limit", "seat": seat})  # M32: at once


def _rtw_can(state: State, nid: str, moment: str) -> bool:
    seat = ncu_seat(state, nid)
    if moment == "activates" and nid in state["once_used"].get(seat, []):
        return False  # once per game as she activates; each time she claims a zone
    return bool(state["players"][seat]["discards"])


def _rtw_options(state: State, nid: str, moment: str) -> list[dict[str, Any]]:
    disc = state["players"][ncu_seat(state, nid)]["discards"]
    return [{"card": c} for c in dict.fromkeys(disc)]


def _rtw_check(state: State, nid: str, moment: str, value: Any) -> dict[str, Any]:
    v = _flow()._keys(value, {"card"}, "choose")
    cid = F.name(v.get("card"), "choose: card")
    if cid not in state["players"][ncu_seat(state, nid)]["discards"]:
        raise illegal(gettext("choose a Tactics card of your discard pile"))
    return {"card": cid}


def _rtw_res(state: State, task: dict[str, Any], value: dict[str, Any], events: Events) -> None:
    """Repeating the Words (Sansa Stark, Little Bird): a Tactics card of the discard pile goes back to the
    hand, once per game as she activates, and each time she claims a zone instead of the zone's effect."""
    nid, seat = task["ncu"], task["seat"]
    p = state["players"][seat]
    p["discards"].remove(value["card"])
    p["hand"].append(value["card"])
    ev = {"type": "ncu_ability", "seat": seat, "ncu": nid, "ability": task["ability"], "cards": [value["card"]],
          "sources": ["discards"]}
    if task["moment"] == "claim":
        _instead_of_zone(state, {"zone": task["zone"]})
        ev["instead"] = task["zone"]
    else:
        state["once_used"].setdefault(seat, []).append(nid)
    events.append(ev)
    if len(p["hand"]) > _flow().HAND_MAX:
        _flow().push(state, {"t": "hand_limit", "seat": seat})  # M32: at once


NcuEffect = tuple[str, Callable, Callable, Callable, Callable]
NCU_EFFECTS: dict[str, list[NcuEffect]] = {
    "Playing The Game": [("claim", _ptg_can, _ptg_options, _ptg_check, _ptg_res)],
    "Repeating the Words": [("activates", _rtw_can, _rtw_options, _rtw_check, _rtw_res),
                            ("claim", _rtw_can, _rtw_options, _rtw_check, _rtw_res)],
}


def _ncu_effect(ability: str, moment: str) -> NcuEffect | None:
    return next((e for e in NCU_EFFECTS.get(ability, []) if e[0] == moment), None)


def ncu_moment(state: State, nid: str, moment: str, zone: str | None = None) -> None:
    """Queue the NCU's abilities that trigger at `moment` (revision 4), before whatever is queued."""
    if T.revision(state) < 4:
        return
    flow = _flow()
    for ab in sorted(data.ability_names(data.card(T.ncu_card(nid))), reverse=True):
        if _ncu_effect(ab, moment):
            task = {"t": "ncu_ability", "ncu": nid, "seat": ncu_seat(state, nid), "moment": moment, "ability": ab}
            if zone is not None:
                task["zone"] = zone
            flow.push(state, task)


def h_ncu_ability(state: State, task: dict[str, Any], events: Events) -> None:
    flow = _flow()
    nid = task["ncu"]
    eff = _ncu_effect(task["ability"], task["moment"])
    if eff is None or state["ncus"][nid].get("silenced") == state["round"] or not eff[1](state, nid, task["moment"]) \
            or not eff[2](state, nid, task["moment"]):
        flow.done(state, task)
        return
    flow.ask(state, "choose", [task["seat"]], what="ncu_ability", ncu=nid, ability=task["ability"],
             moment=task["moment"])


def ncu_choices(state: State) -> list[dict[str, Any]]:
    """The pending NCU ability's answers other than declining."""
    task = state["work"][0]
    eff = _ncu_effect(task["ability"], task["moment"])
    return eff[2](state, task["ncu"], task["moment"]) if eff else []


def answer_ncu_ability(state: State, seat: str, value: Any, events: Events) -> None:
    flow = _flow()
    task = state["work"][0]
    eff = _ncu_effect(task["ability"], task["moment"])
    if value is not None:
        value = eff[3](state, task["ncu"], task["moment"], value)
    state["decision"] = None
    flow.done(state, task)
    if value is not None:
        eff[4](state, task, value, events)
