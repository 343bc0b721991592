"""The rules flow: activations (M25-M31), actions (M41-M71), combat and morale (M83-M103), the
Tactics Board (M34-M37), Cleanup, Here We Stand (M123) and the end of the game (M125-M129).

The game advances by a work queue (`state["work"]`, tasks as JSON): a task either asks a decision
(`state["decision"]`) and waits for its answer, or finishes and leaves the queue. `run` advances
until a decision is pending or the game is over.
"""
from __future__ import annotations

import copy
import math
from typing import Any

from games.engine import fields as F
from games.engine.base import EngineError
from games.engine.minis import cards, data
from games.engine.minis import geometry as G
from games.engine.minis import table as T
from games.engine.narration import gettext, pgettext

State = dict[str, Any]
Events = list[dict[str, Any]]

ROUNDS = 6
HAND_MAX = 5
KEYWORD_ABILITIES = {
    "Winter's Bite": ["critical_blow"],
    "Halberd": ["sundering"],
    "Marauder's Blades": ["critical_blow", "vicious"],
    "Tooth & Claw": ["sundering"],
}


def illegal(msg: str) -> EngineError:
    """A refusal a player reads, said in the reader's language (games.engine.narration's gettext:
    English without a host's words)."""
    return EngineError("illegal_action", msg)


def _said(word: Any) -> str:
    """An id a refusal names (a move, an arc, a zone, a condition token) in the reader's language;
    English keeps the id itself."""
    words = {
        "maneuver": pgettext("a move in a refusal", "maneuver"), "march": pgettext("a move in a refusal", "march"),
        "retreat": pgettext("a move in a refusal", "retreat"), "pivot": pgettext("a move in a refusal", "pivot"),
        "shift": pgettext("a move in a refusal", "shift"), "surge": pgettext("a move in a refusal", "surge"),
        "deploy": pgettext("a move in a refusal", "deploy"), "redeploy": pgettext("a move in a refusal", "redeploy"),
        "front": pgettext("an arc in a refusal", "front"), "flank": pgettext("an arc in a refusal", "flank"),
        "rear": pgettext("an arc in a refusal", "rear"),
        "crown": pgettext("a zone in a refusal", "crown"), "money": pgettext("a zone in a refusal", "money"),
        "letter": pgettext("a zone in a refusal", "letter"), "swords": pgettext("a zone in a refusal", "swords"),
        "horse": pgettext("a zone in a refusal", "horse"),
        "panicked": pgettext("a token in a refusal", "panicked"),
        "vulnerable": pgettext("a token in a refusal", "vulnerable"),
        "weakened": pgettext("a token in a refusal", "weakened"),
        "melee": pgettext("an attack in a refusal", "melee"), "ranged": pgettext("an attack in a refusal", "ranged"),
    }
    return words.get(word, word) if isinstance(word, str) else str(word)


def ask(state: State, kind: str, seats: list[str], **ctx: Any) -> None:
    state["decision"] = {"kind": kind, "seats": list(seats), **ctx}


def push(state: State, task: dict[str, Any], front: bool = True) -> None:
    if front:
        state["work"].insert(0, task)
    else:
        state["work"].append(task)


def done(state: State, task: dict[str, Any]) -> None:
    state["work"].remove(task)


def next_id(state: State) -> int:
    state["ids"] = state.get("ids", 0) + 1
    return state["ids"]


# ====================================================================== the loop


def run(state: State, events: Events) -> None:
    for _ in range(10000):
        if state["over"]:
            state["decision"] = None
            state["work"] = []
            return
        if state["decision"]:
            if T.revision(state) >= 2 and _take_forced(state, events):
                continue
            return
        if state["work"]:
            task = state["work"][0]
            HANDLERS[task["t"]](state, task, events)
            continue
        if state["phase"] == "activation":
            _next_turn(state, events)
        elif state["phase"] == "deployment":
            _next_deploy(state, events)
        else:
            return
    raise RuntimeError("minis flow did not settle")


def _take_forced(state: State, events: Events) -> bool:
    """SCENARIOS.md "Decisions" (revision 2): a decision with one legal value is taken by the engine
    as soon as it arises, and logged by the events its answer writes; `pending` never shows it. Such
    decisions: a zone's `choose` whose effect is not optional (crown, money, letter) with one legal
    answer; Catelyn's Influence with one answer; a `retreat_move` with no legal Retreat at all (M49:
    the unit stays). `activate` is always asked, even with one unit left (the public scenarios
    ask it: tests/scenarios/minis/03, 05)."""
    d = state["decision"]
    if len(d["seats"]) != 1:
        return False
    seat = d["seats"][0]
    if d["kind"] == "retreat_move":
        if any_retreat(state, d["unit"], d["max"], forward=retreat_forward_allowed(state, d["unit"])) is not None:
            return False
        answer_retreat_move(state, seat, {"distance": 0}, events)
        return True
    if d["kind"] == "choose" and d.get("what") == "influence":
        opts = influence_choices(state)
        if len(opts) != 1:
            return False
        answer_influence(state, seat, opts[0], events)
        return True
    if d["kind"] == "choose" and d.get("zone") and not d.get("what") and d["zone"] not in MAY_ZONES:
        opts = zone_choices(state, d["zone"], seat)
        if len(opts) != 1:
            return False
        answer_zone(state, seat, opts[0], events)
        return True
    return False


def activations_left(state: State, seat: str) -> list[str]:
    units = [n for n in T.live(state, seat) if not state["units"][n]["activated"]]
    ncus = [i for i, n in state["ncus"].items() if n["seat"] == seat and not n["activated"]]
    return units + ncus


def _next_turn(state: State, events: Events) -> None:
    seat = state["turn"]
    if T.revision(state) >= 4 and _empty_turn(state, seat, events):
        return
    if not activations_left(state, seat):
        if T.multi(state):
            # M29, M131: a seat with nothing to activate takes its turn empty; the next seat to its
            # left with something to activate plays on (M130: its teammate, else the next team)
            later = [s for s in _turn_order(state, seat)[1:] if activations_left(state, s)]
            if T.team_game(state):
                later.sort(key=lambda s: T.is_enemy(state, seat, s))
            if not later:
                start_cleanup(state, events)
                return
            state["turn"] = seat = later[0]
        else:
            other = T.opponent(state, seat)
            if not activations_left(state, other):
                start_cleanup(state, events)
                return
            # M29: a seat with nothing to activate takes its turn empty; the other seat plays on
            state["turn"] = seat = other
    if not state.get("turn_open"):
        # M27 (1): the start of the turn, a trigger window ("start of any turn")
        state["turn_open"] = True
        state["turn_no"] = state.get("turn_no", 0) + 1
        cards.open_window(state, "turn_start", {"seat": seat})
        return
    if T.team_game(state):
        # M130: in a team's turn its players choose one unit among all of theirs: each teammate with
        # something to activate is asked, the first to answer activates (the turn is then its)
        ask(state, "activate", [s for s in _turn_order(state, seat) if not T.is_enemy(state, seat, s)
                                and activations_left(state, s)])
        return
    ask(state, "activate", [seat])


def _empty_turn(state: State, seat: str, events: Events) -> bool:
    """M29 (revision 4; seed 269-272: "Una vez haya empezado uno de sus turnos, si a un jugador no le
    quedan unidades por activar, procede directamente con el paso de fin de turno"): a seat (with teams,
    M130: a team) with nothing left to activate still takes its turn while another has something left:
    the start of the turn (its `turn_start` window, M27 (1)), then straight to the end of the turn (the
    `turn_end` window, M27 (4)); the turn then passes as after an activation. So does a turn whose seat
    lost its last unit to activate during its own start-of-turn window. False (nothing done) when the
    seat has something to activate, a teammate does (the team's turn), nobody has (the phase ends: the
    old path starts the Cleanup), or the seat is out of the game."""
    if seat not in T.in_game(state) or activations_left(state, seat):
        return False
    others = [s for s in T.in_game(state) if s != seat and activations_left(state, s)]
    if not others or (T.team_game(state) and any(not T.is_enemy(state, seat, s) for s in others)):
        if not others:
            state["turn_open"] = False  # the phase ends (M29): the next round's first turn opens anew
        return False
    if not state.get("turn_open"):
        state["turn_open"] = True
        state["turn_no"] = state.get("turn_no", 0) + 1
        events.append({"type": "empty_turn", "seat": seat})
        cards.open_window(state, "turn_start", {"seat": seat})
        return True
    state["turn_open"] = False
    state["turn"] = T.next_left(state, seat) if T.multi(state) else T.opponent(state, seat)
    cards.open_window(state, "turn_end", {"seat": seat}, window_seats(state, seat))
    return True


def _turn_order(state: State, seat: str) -> list[str]:
    """Several players: the seats in the game in turn order from `seat` (M131: clockwise)."""
    return [s for s in T.clockwise(state, seat) if s in T.in_game(state)]


def activations_left_for(state: State, seat: str) -> list[str]:
    return activations_left(state, seat)


def start_cleanup(state: State, events: Events) -> None:
    state["phase"] = "cleanup"
    state["turn"] = None
    events.append({"type": "cleanup", "round": state["round"]})
    push(state, {"t": "cleanup", "stage": "score"}, front=False)


# ====================================================================== activation and actions


def activate(state: State, seat: str, name: str, events: Events) -> None:
    if name in state["units"]:
        u = state["units"][name]
        if u["seat"] != seat:
            raise illegal(gettext("%(name)s is not your unit") % {"name": name})
        if u["destroyed"] or not u["on_table"]:
            raise illegal(gettext("%(name)s is not on the table") % {"name": name})
        if u["activated"]:
            raise illegal(gettext("%(name)s has already activated this round") % {"name": name})
        state["active_unit"] = name
        if T.team_game(state):
            state["turn"] = seat  # M130: the teammate who activates holds the team's turn
        state["act"] = {"unit": name, "ncu": False, "pre_maneuver": False}
        events.append({"type": "activate", "seat": seat, "unit": name})
        push(state, {"t": "ask_action", "seat": seat})
        push(state, {"t": "rage", "unit": name, "stage": "start"})
        cards.open_window(state, "unit_activates", {"unit": name})
        return
    if name in state["ncus"]:
        n = state["ncus"][name]
        if n["seat"] != seat:
            raise illegal(gettext("%(name)s is not your NCU") % {"name": name})
        if n["activated"]:
            raise illegal(gettext("%(name)s has already activated this round") % {"name": name})
        state["active_unit"] = name
        if T.team_game(state):
            state["turn"] = seat
        state["act"] = {"unit": name, "ncu": True}
        events.append({"type": "activate", "seat": seat, "unit": name})
        if all(state["board"][z] for z in data.ZONES) and state["mode"] != "here_we_stand":
            end_activation(state, events)  # M37: no empty zone, the activation ends at once
            return
        push(state, {"t": "ask_action", "seat": seat})
        cards.open_window(state, "ncu_activates", {"ncu": name})
        cards.ncu_moment(state, name, "activates")  # revision 4: "as she activates" (Repeating the Words)
        return
    raise illegal(gettext("no unit or NCU named %(name)s") % {"name": name})


def end_activation(state: State, events: Events) -> None:
    name = state["active_unit"]
    if name in state["units"]:
        state["units"][name]["activated"] = True
    elif name in state["ncus"]:
        state["ncus"][name]["activated"] = True
    seat = state["turn"]
    state["active_unit"] = None
    state["act"] = None
    state["decision"] = None
    state["turn_open"] = False
    if seat:
        state["turn"] = T.next_left(state, seat) if T.multi(state) else T.opponent(state, seat)
    events.append({"type": "activation_end", "unit": name})
    if seat:
        # M27 (4): the end of the turn, a window where both players may play cards and abilities, the
        # seat whose turn it was first (no card of the starter content triggers there yet)
        cards.open_window(state, "turn_end", {"seat": seat}, window_seats(state, seat))


def window_seats(state: State, first: str) -> list[str]:
    """Who a trigger window asks, in order: `first`, then the other seats (several players: those
    still in the game, clockwise from `first`, M105, M131)."""
    if not T.multi(state):
        return [first, T.opponent(state, first)]
    return [s for s in T.clockwise(state, first) if s in T.in_game(state)]


def _h_ask_action(state: State, task: dict[str, Any], events: Events) -> None:
    done(state, task)
    name = state["active_unit"]
    if name in state["units"] and name not in T.live(state):
        end_activation(state, events)  # destroyed by a card at its activation
        return
    rage = (state.get("act") or {}).get("rage")
    if rage:
        ask(state, "action", [task["seat"]], must_charge=list(rage))
        return
    ask(state, "action", [task["seat"]])


def chargeable(state: State, name: str) -> list[str]:
    """The enemies `name` may legally declare a Charge against now, without a pre-charge pivot (M62)."""
    out = []
    for e in T.enemies(state, state["units"][name]["seat"]):
        try:
            charge_checks(state, name, e, None)
        except EngineError:
            continue
        out.append(e)
    return out


def _h_rage(state: State, task: dict[str, Any], events: Events) -> None:
    """Uncontrolled Rage (Gregor Clegane, Lord Tywin's Mad Dog): each time the unit activates, if it is
    able to Charge some enemy, it takes a Morale Test (M96); on a failure its action is a Charge
    against the nearest enemy it can legally charge, every charge die counting as a 6."""
    name = task["unit"]
    if task["stage"] == "start":
        if name not in T.live(state) or "Uncontrolled Rage" not in T.abilities(state, name) \
                or not chargeable(state, name):
            done(state, task)
            return
        task["stage"] = "tested"
        task["tid"] = next_id(state)
        events.append({"type": "ability", "unit": name, "ability": "Uncontrolled Rage"})
        push(state, {"t": "test", "unit": name, "kind": "morale", "modifier": 0, "stage": "roll", "attack": False,
                     "tid": task["tid"]})
        return
    done(state, task)
    lt = state.get("last_test") or {}
    if name not in T.live(state) or lt.get("unit") != name or lt.get("passed") is not False:
        return
    targets = chargeable(state, name)
    if not targets or state.get("act") is None:
        return
    me = T.poly(state, name)
    gaps = {e: G.distance(me, T.poly(state, e)) for e in targets}
    nearest = min(gaps.values())
    state["act"]["rage"] = [e for e in targets if G.le(gaps[e], nearest)]  # ties: the owner picks


def _h_end_activation(state: State, task: dict[str, Any], events: Events) -> None:
    done(state, task)
    end_activation(state, events)


# ---------------------------------------------------------------------- movement


def _blockers(state: State, name: str) -> tuple[list[Any], list[Any], list[Any]]:
    """(friendly trays, enemy trays, impassable terrain) other than `name`."""
    seat = state["units"][name]["seat"]
    # M130: a teammate's trays are friendly (crossed like one's own)
    friends = [T.poly(state, n) for n in T.live(state) if n != name
               and not T.is_enemy(state, seat, state["units"][n]["seat"])]
    enemies = [T.poly(state, n) for n in T.enemies(state, seat)]
    impassable = [T.terrain_poly(t) for t in state["terrain"] if "impassable" in t["keywords"]]
    return friends, enemies, impassable


def resolve_moves(state: State, name: str, steps: list[tuple], budget: float, what: str,
                  enemy_gap: bool = True) -> tuple[list[float], float, float]:
    """Apply pivots and straight moves to `name`'s tray and check every movement rule (M72-M78).
    Returns (at, facing, distance moved) or raises illegal_action saying why."""
    u = state["units"][name]
    w, d = T.size(state, name)
    at, facing = tuple(u["at"]), float(u["facing"])
    friends, enemies, impassable = _blockers(state, name)
    trays = friends + enemies
    table = state["table"]
    moved = 0.0
    rough = [T.terrain_poly(t) for t in state["terrain"] if "rough" in t["keywords"]]
    touched_rough = False
    for step in steps:
        if step[0] == "pivot":
            nf = G.norm_angle(step[1])
            at = G.pivot(at, facing, nf, d)
            facing = nf
            p = G.tray(at, facing, w, d)
            if any(G.overlaps(p, o) for o in trays):
                raise illegal(gettext("%(what)s: the pivot to %(nf)s ends overlapping a tray") % {
                    "what": _said(what), "nf": f'{nf:g}'})  # M72
            if any(G.overlaps(p, o) for o in impassable):
                raise illegal(gettext("%(what)s: the pivot ends on impassable terrain") % {"what": _said(what)})  # M78
            if not G.on_table(p, table):
                raise illegal(gettext("%(what)s: the pivot leaves the table") % {"what": _said(what)})
        else:
            _kind, direction, dist = step
            dist = float(dist)
            if dist < 0:
                raise illegal(gettext("%(what)s: a distance is never negative") % {"what": _said(what)})
            if dist == 0:
                continue
            start = G.tray(at, facing, w, d)
            at = G.translate(at, facing, direction, dist)
            end = G.tray(at, facing, w, d)
            path = G.swept(start, end)
            if any(G.overlaps(path, o) for o in enemies):
                raise illegal(gettext("%(what)s: the path crosses an enemy tray") % {"what": _said(what)})  # M75
            if any(G.overlaps(path, o) for o in impassable):
                raise illegal(gettext("%(what)s: the path crosses impassable terrain") % {"what": _said(what)})  # M78
            if any(path.intersects(r) for r in rough):
                touched_rough = True
            if any(G.overlaps(end, o) for o in trays):
                raise illegal(gettext("%(what)s: the move ends overlapping a tray") % {"what": _said(what)})  # M75
            if not G.on_table(end, table):
                raise illegal(gettext("%(what)s: the move leaves the table") % {"what": _said(what)})
            moved += dist
    limit = budget - (1.0 if touched_rough else 0.0)  # M78 Rough: -1 in once per action (reading)
    if not G.le(moved, limit):
        raise illegal(gettext("%(what)s: %(moved)s in is more than the %(limit)s in allowed") % {
            "what": _said(what), "moved": f'{moved:g}', "limit": f'{limit:g}'})
    if enemy_gap:
        end = G.tray(at, facing, w, d)
        for o in enemies:
            if G.le(G.distance(end, o), 1.0):
                raise illegal(gettext("%(what)s: the move ends 1 in or less from an enemy") % {
                    "what": _said(what)})  # M74
    return [at[0], at[1]], facing, moved


# The bounds of the numbers an action gives (issue 28): the table is 48 x 48 in, so a coordinate
# or a distance lies within 100 in of its origin; an angle is a bearing in degrees, either way round.
INCHES = 100.0
DEGREES = 360.0


def _num(v: Any, what: str, default: float | None = None) -> float:
    """A distance or a coordinate of an action, in inches from -100 to 100; None takes `default`."""
    if v is None and default is not None:
        return default
    return F.number(v, what, -INCHES, INCHES, "inches")


def _angle(v: Any, what: str, default: float | None = None) -> float:
    """An angle of an action (face, end_face, facing), in degrees from -360 to 360; None takes
    `default`."""
    if v is None and default is not None:
        return default
    return F.number(v, what, -DEGREES, DEGREES, "degrees")


def _keys(v: Any, allowed: set[str], what: str) -> dict[str, Any]:
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise EngineError("bad_action", gettext("%(what)s must be an object, not %(kind)s") % {"what": what, "kind": F.kind_of(v)})
    extra = set(v) - allowed
    if extra:
        raise EngineError("bad_action", gettext("%(what)s: unknown key %(key)s (it takes %(keys)s)") % {
            "what": what, "key": F.shown(sorted(extra)[0]), "keys": ", ".join(sorted(allowed))})
    return v


def _at(v: Any, what: str) -> list[float]:
    """A position [x, y] in inches."""
    if not (isinstance(v, list) and len(v) == 2):
        raise EngineError("bad_action", gettext("%(what)s: at must be [x, y], two numbers of inches") % {"what": what})
    return [_num(v[0], f"{what}: x"), _num(v[1], f"{what}: y")]


def maneuver_steps(state: State, name: str, m: Any, what: str = "maneuver") -> list[tuple]:
    m = _keys(m, {"face", "forward", "end_face"}, what)
    u = state["units"][name]
    face = _angle(m.get("face"), f"{what}: face", u["facing"])
    fwd = _num(m.get("forward"), f"{what}: forward", 0.0)
    end = _angle(m.get("end_face"), f"{what}: end_face", face)
    return [("pivot", face), ("move", "forward", fwd), ("pivot", end)]


def check_maneuver(state: State, name: str, m: Any, budget: float | None = None) -> tuple[list[float], float]:
    if T.engaged_with(state, name):
        raise illegal(gettext("%(name)s is engaged: no Maneuver") % {"name": name})  # M42
    steps = maneuver_steps(state, name, m)
    at, facing, _ = resolve_moves(state, name, steps, T.speed(state, name) if budget is None else budget,
                                  "maneuver")
    return at, facing


def check_march(state: State, name: str, m: Any) -> tuple[list[float], float]:
    m = _keys(m, {"face", "forward", "end_face"}, "march")
    if T.engaged_with(state, name):
        raise illegal(gettext("%(name)s is engaged: no March") % {"name": name})  # M44
    u = state["units"][name]
    steps: list[tuple] = []
    if m.get("face") is not None:
        if "Enhanced Mobility" not in T.abilities(state, name):
            raise illegal(gettext("a March has no pivot before the move"))  # M45
        steps.append(("pivot", _angle(m["face"], "march: face")))
    fwd = _num(m.get("forward"), "march: forward", 0.0)
    steps.append(("move", "forward", fwd))
    steps.append(("pivot", _angle(m.get("end_face"), "march: end_face", steps[0][1] if steps[0][0] == "pivot"
                                else u["facing"])))
    at, facing, _ = resolve_moves(state, name, steps, 2 * T.speed(state, name), "march")
    return at, facing


def retreat_forward_allowed(state: State, name: str) -> bool:
    """M47 (reading of rules/minis.md §7.4): an enemy in contact sits in the retreating unit's Flank
    or Rear arc."""
    wed = T.wedges(state, name)
    return any(G.arc_of(wed, T.poly(state, e))[0] != "front" for e in T.engaged_with(state, name))


def check_retreat_move(state: State, name: str, m: Any, maximum: float) -> tuple[list[float], float]:
    m = _keys(m, {"direction", "distance", "end_face"}, "retreat_move")
    direction = m.get("direction", "back")
    if not isinstance(direction, str) or direction not in ("back", "left", "right", "forward"):
        raise EngineError("bad_action", gettext("direction is back, left, right or forward"))
    if direction == "forward" and not retreat_forward_allowed(state, name):
        raise illegal(gettext("a Retreat goes forward only when engaged in the Flank or Rear"))  # M47
    dist = _num(m.get("distance"), "retreat_move: distance", 0.0)
    u = state["units"][name]
    end = _angle(m.get("end_face"), "retreat_move: end_face", u["facing"])
    if dist == 0 and end == u["facing"] and not any_retreat(state, name, maximum):
        return list(u["at"]), u["facing"]  # M49: no legal retreat exists; the unit stays
    at, facing, _ = resolve_moves(state, name, [("move", direction, dist), ("pivot", end)], maximum, "retreat")
    return at, facing


def can_retreat(state: State, name: str) -> bool:
    """M49 (seed 1098-1105): a Retreat is possible only if some legal straight retreat exists within
    the largest distance the die could give (Speed + 6); a surrounded unit cannot declare one."""
    return any_retreat(state, name, T.speed(state, name) + 6.0, forward=retreat_forward_allowed(state, name)) is not None


def any_retreat(state: State, name: str, maximum: float, forward: bool = False) -> dict[str, Any] | None:
    """The shortest legal straight retreat (back, then left, right; forward too when asked), on a
    0.25 in grid."""
    steps = int(maximum / 0.25)
    dirs = ("back", "left", "right") + (("forward",) if forward else ())
    for i in range(1, steps + 1):
        dist = min(maximum, i * 0.25)
        for direction in dirs:
            try:
                resolve_moves(state, name, [("move", direction, dist)], maximum, "retreat")
            except EngineError:
                continue
            return {"direction": direction, "distance": dist}
    return None


def set_pose(state: State, name: str, at: list[float], facing: float) -> None:
    u = state["units"][name]
    u["at"] = [float(at[0]), float(at[1])]
    u["facing"] = G.norm_angle(facing)


# ---------------------------------------------------------------------- the action answers


def do_action(state: State, seat: str, kind: str, value: Any, events: Events) -> None:
    act = state["act"]
    name = act["unit"]
    if act["ncu"]:
        _ncu_action(state, seat, name, kind, value, events)
        return
    rage = act.get("rage")
    if rage and (kind != "charge" or not isinstance(value, dict) or value.get("target") not in rage):
        raise illegal(gettext("Uncontrolled Rage: %(unit)s must charge %(targets)s") % {
            "unit": name, "targets": " / ".join(rage)})
    if kind == "no_action":
        events.append({"type": "no_action", "unit": name})
        end_activation(state, events)
        return
    if (T.revision(state) >= 2 and kind in DANGEROUS_ACTIONS and not act.get("dangerous_checked")
            and on_dangerous(state, name)):
        # M78 Dangerous (seed 2130-2134): the unit suffers 1D3+1 wounds before its action resolves. The
        # action is checked first (on a copy: an illegal one is refused and costs nothing)
        trial = copy.deepcopy(state)
        trial["act"]["dangerous_checked"] = True
        do_action(trial, seat, kind, value, [])
        act["dangerous_checked"] = True
        act["dangerous"] = True  # a charging unit is damaged only once
        if dangerous_wounds(state, name, "action", events, end_first=True):
            return  # destroyed before its action resolves: the activation ends
    if kind == "attack" and T.revision(state) >= 2 and isinstance(value, dict) and "terrain" in value:
        attack_terrain(state, name, value, events)
        return
    if kind == "maneuver":
        start = T.poly(state, name)
        at, facing = check_maneuver(state, name, value)
        set_pose(state, name, at, facing)
        events.append({"type": "move", "unit": name, "kind": "maneuver", "at": at, "facing": facing})
        if not act["pre_maneuver"] and T.abilities(state, name) & {"Cavalry", "Direwolf"}:
            act["pre_maneuver"] = True  # the optional first Maneuver; the action is still to come
            if entered_dangerous(state, name, start, events, end_first=True):
                return
            act.pop("dangerous_checked", None)  # the action to come is another action (M78 Dangerous)
            act.pop("dangerous", None)
            ask(state, "action", [seat])
            return
        if entered_dangerous(state, name, start, events, end_first=True):
            return
        end_activation(state, events)
        return
    if kind == "march":
        start = T.poly(state, name)
        at, facing = check_march(state, name, value)
        set_pose(state, name, at, facing)
        events.append({"type": "move", "unit": name, "kind": "march", "at": at, "facing": facing})
        if entered_dangerous(state, name, start, events, end_first=True):
            return
        end_activation(state, events)
        return
    if kind == "retreat":
        if value is not True:
            raise EngineError("bad_action", gettext("retreat takes true"))
        if not T.engaged_with(state, name):
            raise illegal(gettext("%(name)s is not engaged: no Retreat") % {"name": name})  # M46
        if not can_retreat(state, name):
            raise illegal(gettext("%(name)s is surrounded: no Retreat can move it away") % {"name": name})  # M49
        r = T.roll(state, 6)
        mx = T.speed(state, name) + r
        state["last_retreat"] = {"unit": name, "roll": r, "max": mx}
        events.append({"type": "retreat", "unit": name, "roll": r, "max": mx})
        push(state, {"t": "retreat", "unit": name, "max": mx, "seat": seat, "free": False})
        return
    if kind == "charge":
        declare_charge(state, seat, name, value, events, as_six=bool(rage))
        return
    if kind == "attack":
        declare_attack(state, seat, name, value, events, charge=False, ends_activation=True)
        return
    raise EngineError("bad_action", gettext("%(kind)s is not an action of a combat unit") % {"kind": kind})


# ---------------------------------------------------------------------- Dangerous, Destructible (M78)

DANGEROUS_ACTIONS = ("maneuver", "march", "retreat", "charge", "attack")


def _dangerous_pieces(state: State, p) -> list[dict[str, Any]]:
    return [t for t in state["terrain"] if "dangerous" in t["keywords"] and G.overlaps(p, T.terrain_poly(t))]


def on_dangerous(state: State, name: str) -> bool:
    """M78 Dangerous: a unit is "on" a Dangerous piece when its tray overlaps it (reading)."""
    return bool(_dangerous_pieces(state, T.poly(state, name)))


def dangerous_wounds(state: State, name: str, why: str, events: Events, end_first: bool = False) -> bool:
    """M78 Dangerous: 1D3+1 wounds to `name`; True if they destroy it. `end_first`: the activation's
    end is queued before the wounds, so that a destroyed unit's removal comes first and its action
    does not resolve."""
    r = T.roll(state, 3)
    u = state["units"][name]
    events.append({"type": "dangerous", "unit": name, "why": why, "roll": r, "wounds": r + 1})
    if end_first and u["wounds"] <= r + 1:
        push(state, {"t": "end_activation"})
    return wound(state, name, r + 1, events, None)


def free_action_dangerous(state: State, name: str, events: Events, trial: Any = None) -> bool | None:
    """M78 Dangerous (seed 2130-2134), revision 5: an action a unit makes outside its own activation (the
    Combat zone's free Attack, the Maneuver zone's free Maneuver or Retreat, M35; a Tactics card's action)
    is an action too: a unit on a Dangerous piece suffers 1D3+1 wounds before it resolves. `trial(copy)`
    makes the action on a copy of the state first, so that an illegal one is refused and costs nothing
    (no trial: the caller has already found the action legal).
    None: no wounds (revision 4 or before, or not on a piece); else True if they destroyed the unit (its
    action does not happen)."""
    if T.revision(state) < 5 or name not in T.live(state) or not on_dangerous(state, name):
        return None
    if trial is not None:
        trial(copy.deepcopy(state))
    return dangerous_wounds(state, name, "action", events)


def entered_dangerous(state: State, name: str, start, events: Events, end_first: bool = False,
                      since: int = 2) -> bool:
    """M78 Dangerous (revision 2): a unit whose move (the convex hull of its start and end trays, as
    for Hindering) overlaps a Dangerous piece its start tray did not overlap has entered it: 1D3+1
    wounds, once per move however many pieces; a charging unit already damaged by its action is
    not damaged again. True if destroyed. `since`: the revision from which this move counts (3: moves
    the unit did not make itself, a push-back or alignment by a charge, an attack's re-face,
    alignment or shift, a Surge, a zone's or card's move)."""
    if T.revision(state) < since or name not in T.live(state):
        return False
    pieces = [t for t in state["terrain"] if "dangerous" in t["keywords"]]
    if not pieces:
        return False
    end = T.poly(state, name)
    path = G.swept(start, end)
    if not any(G.overlaps(path, T.terrain_poly(t)) and not G.overlaps(start, T.terrain_poly(t)) for t in pieces):
        return False
    return dangerous_wounds(state, name, "enter", events, end_first)


def attack_terrain(state: State, name: str, value: dict[str, Any], events: Events,
                   ends_activation: bool = True) -> None:
    """M78 Destructible (seed 2031-2033), revision 2: a unit within 1 in of the piece makes a melee
    Attack action against it, which removes it from the game. Readings: the unit has a melee attack
    and is not engaged (an engaged unit attacks the enemies it is engaged with, M57). Revision 5: the
    Combat zone's free Attack action too (M35, `ends_activation` False: no activation of the unit's)."""
    v = _keys(value, {"terrain"}, "attack")
    tid = v.get("terrain")
    F.name(tid, "attack: terrain")
    piece = next((t for t in state["terrain"] if t["id"] == tid), None)
    if piece is None:
        raise illegal(gettext("no terrain piece %(id)s on the table") % {"id": tid})
    if "destructible" not in piece["keywords"]:
        raise illegal(gettext("%(id)s is not Destructible") % {"id": tid})  # M78
    if not any(a.get("range") == "melee" for a in T.ucard(state, name).get("attacks", [])):
        raise illegal(gettext("%(name)s has no melee attack") % {"name": name})
    if T.engaged_with(state, name):
        raise illegal(gettext("%(name)s is engaged: it attacks its enemies, not terrain") % {"name": name})
    if not G.le(G.distance(T.poly(state, name), T.terrain_poly(piece)), 1.0):
        raise illegal(gettext("%(name)s is more than 1 in from %(id)s") % {"name": name, "id": tid})  # M78
    state["terrain"].remove(piece)
    events.append({"type": "terrain_destroyed", "unit": name, "terrain": tid, "kind": piece["type"]})
    if ends_activation:
        end_activation(state, events)


def destructible_near(state: State, name: str) -> list[str]:
    """M78 Destructible: the pieces `name` may attack away (a melee attack, not engaged, within 1 in)."""
    if T.engaged_with(state, name) or not any(
            a.get("range") == "melee" for a in T.ucard(state, name).get("attacks", [])):
        return []
    return [t["id"] for t in state["terrain"] if "destructible" in t["keywords"]
            and G.le(G.distance(T.poly(state, name), T.terrain_poly(t)), 1.0)]


def _h_retreat(state: State, task: dict[str, Any], events: Events) -> None:
    if task.get("moved"):
        done(state, task)
        if not task["free"]:
            end_activation(state, events)
        return
    if task.get("may_reroll") and not task.get("rerolled"):
        task["rerolled"] = True
        ask(state, "reroll", [task["seat"]], dice="retreat", unit=task["unit"], roll=state["last_retreat"]["roll"])
        return
    ask(state, "retreat_move", [task["seat"]], unit=task["unit"], max=task["max"])


def answer_retreat_move(state: State, seat: str, value: Any, events: Events) -> None:
    task = state["work"][0]
    name = task["unit"]
    before = set(T.engaged_with(state, name))
    u = state["units"][name]
    at, facing = check_retreat_move(state, name, value, task["max"])
    stays = list(u["at"]) == list(at) and u["facing"] == facing
    start = T.poly(state, name)
    set_pose(state, name, at, facing)
    state["decision"] = None
    task["moved"] = True
    move = {"type": "move", "unit": name, "kind": "retreat", "at": at, "facing": facing}
    if stays:
        move["stays"] = True  # M49: no legal retreat exists, the unit stays where it is (it did not move)
    events.append(move)
    if "Regroup" in T.abilities(state, name):
        heal(state, name, 2 + T.ranks_lost(state, name), events)
    entered_dangerous(state, name, start, events)  # M78 Dangerous
    # M48: every enemy now unengaged may pivot for free
    free = [e for e in before if not T.engaged_with(state, e)]
    if task.get("weaken"):
        for e in [x for x in sorted(before, key=list(state["units"]).index) if x not in T.engaged_with(state, name)]:  # Hit and Run (Robb's unit): every enemy it disengages from gains Weakened
            cards.add_condition(state, e, "weakened", events)
    if free and T.multi(state):
        # several players: each owner of a freed enemy pivots its own, clockwise from the retreating seat
        for s in reversed([x for x in T.clockwise(state, seat) if any(state["units"][e]["seat"] == x for e in free)]):
            push(state, {"t": "pivot", "seat": s, "units": sorted(
                [e for e in free if state["units"][e]["seat"] == s], key=list(state["units"]).index)})
    elif free:
        # runs before the retreat task finishes
        push(state, {"t": "pivot", "seat": T.opponent(state, seat), "units": sorted(free, key=list(
            state["units"]).index)})


def _h_pivot(state: State, task: dict[str, Any], events: Events) -> None:
    ask(state, "pivot", [task["seat"]], units=task["units"])


def answer_pivot(state: State, seat: str, value: Any, events: Events) -> None:
    task = state["work"][0]
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise EngineError("bad_action", gettext("pivot takes {unit: facing}"))
    trial = {n: _angle(f, "pivot: facing") for n, f in value.items()}
    for n in trial:
        if n not in task["units"]:
            raise illegal(gettext("%(n)s may not pivot now") % {"n": n})
    entering = []
    for n, f in trial.items():
        at, facing, _ = resolve_moves(state, n, [("pivot", f)], 0.0, "pivot")
        entering.append((n, T.poly(state, n)))
        set_pose(state, n, at, facing)
        events.append({"type": "move", "unit": n, "kind": "pivot", "at": at, "facing": facing})
    state["decision"] = None
    done(state, task)
    for n, start in entering:
        entered_dangerous(state, n, start, events)  # M78 Dangerous


# ---------------------------------------------------------------------- charge (M61-M70)


def _align_poses(state: State, name: str, target: str, arc: str) -> list[tuple[str, list[float], float]]:
    """Candidate contact poses on the target's `arc` edge: 100 % (center) then 50 % (left, right),
    then the closest offsets (M66)."""
    tu = state["units"][target]
    tw, td = T.size(state, target)
    w, d = T.size(state, name)
    fl, fr, br, bl = G.corners(tu["at"], tu["facing"], tw, td)
    edges = {"front": (fl, fr), "rear": (br, bl), "left": (bl, fl), "right": (fr, br)}
    if arc == "flank":
        me = T.poly(state, name)
        wed = T.wedges(state, target)
        side = "left" if wed["left"].intersection(me).area >= wed["right"].intersection(me).area else "right"
        a, b = edges[side]
    else:
        a, b = edges[arc]
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    ex, ey = b[0] - a[0], b[1] - a[1]
    length = (ex * ex + ey * ey) ** 0.5
    ux, uy = ex / length, ey / length
    # the outward normal of the edge, seen from the target: the charger faces against it
    cx, cy = G.centre(tu["at"], tu["facing"], td)
    nx, ny = mx - cx, my - cy
    import math

    facing = G.norm_angle(math.degrees(math.atan2(-nx, -ny)))
    half = min(w, length) / 2
    # left/right as the target sees it: along the edge from a (its left) to b (its right)
    options: list[tuple[str, float]] = [("center", 0.0), ("left", -half), ("right", half)]
    k = 1
    while k * 0.25 <= length / 2 + w / 2:
        options += [("closest", k * 0.25), ("closest", -k * 0.25)]
        k += 1
    return [(label, [mx + ux * off, my + uy * off], facing) for label, off in options]


def _pose_free(state: State, name: str, at: list[float], facing: float, ignore: set[str]) -> bool:
    w, d = T.size(state, name)
    p = G.tray(at, facing, w, d)
    if not G.on_table(p, state["table"]):
        return False
    for n in T.live(state):
        if n == name or n in ignore:
            continue
        if G.overlaps(p, T.poly(state, n)):
            return False
    for t in state["terrain"]:
        if "impassable" in t["keywords"] and G.overlaps(p, T.terrain_poly(t)):
            return False
    return True


def charge_checks(state: State, name: str, target: str, face: float | None) -> dict[str, Any]:
    F.name(target, "charge: target")
    if target not in T.live(state) or not T.is_enemy(state, state["units"][target]["seat"], state["units"][name]["seat"]):
        raise illegal(gettext("%(target)s is not an enemy unit on the table") % {"target": target})
    if T.engaged_with(state, name):
        raise illegal(gettext("%(name)s is engaged: no Charge") % {"name": name})  # M61
    if not T.has_los(state, name, target):
        raise illegal(gettext("%(name)s has no line of sight to %(target)s") % {"name": name, "target": target})  # M62
    reach = T.speed(state, name) + 6
    if not G.le(G.distance(T.poly(state, name), T.poly(state, target)), reach):
        raise illegal(gettext("%(target)s is beyond the maximum charge distance of %(reach)s in") % {
            "target": target, "reach": reach})  # M62
    arc, tied = T.arc_seen_by(state, target, name)
    room = [p for p in _align_poses(state, name, target, arc) if p[0] in ("center", "left", "right")]
    if not any(_pose_free(state, name, at, f, {target}) for _l, at, f in room):
        raise illegal(gettext("no room for a 50 %% contact in %(target)s's %(arc)s arc") % {
            "target": target, "arc": _said(arc)})  # M62
    if face is not None:
        u = state["units"][name]
        _d = T.size(state, name)[1]
        nat = G.pivot(u["at"], u["facing"], face, _d)
        trial = dict(u, at=list(nat), facing=G.norm_angle(face))
        saved = state["units"][name]
        state["units"][name] = trial
        try:
            if not _pose_free(state, name, trial["at"], trial["facing"], set()):
                raise illegal(gettext("the pre-charge pivot ends overlapping a tray"))  # M64, M72
            if not T.has_los(state, name, target):
                raise illegal(gettext("after the pivot %(target)s is out of line of sight") % {"target": target})  # M64
            if not G.le(G.distance(T.poly(state, name), T.poly(state, target)), reach):
                raise illegal(gettext("after the pivot %(target)s is out of charge distance") % {
                    "target": target})  # M64
        finally:
            state["units"][name] = saved
    return {"arc": arc, "tied": tied}


def declare_charge(state: State, seat: str, name: str, value: Any, events: Events, free: bool = False,
                   dice_mode: str | None = None, may_reroll: bool = False, as_six: bool = False,
                   acted: bool = False) -> None:
    """M61-M64: the declaration (checks, the pre-charge pivot); then the `charge` task rolls the charge
    die (windows: `charge_declared` before it, `charge_rolled` after it) and moves (M65-M69).
    `free`: a charge made outside the unit's own action (Assault Orders, Overrun): it does not end an
    activation. `acted`: a free Charge action for which the unit already suffered Dangerous wounds
    (revision 5, M78): it is not damaged again entering a piece."""
    v = _keys(value, {"target", "face", "align", "arc"}, "charge")
    target = v.get("target")
    if not isinstance(target, str):
        raise EngineError("bad_action", gettext("charge needs a target"))
    face = _angle(v["face"], "charge: face") if v.get("face") is not None else None
    align = v.get("align", "center")
    if not isinstance(align, str) or align not in ("center", "left", "right"):
        raise EngineError("bad_action", gettext("align is center, left or right"))
    F.name(v.get("arc"), "charge: arc", optional=True)
    info = charge_checks(state, name, target, face)
    arc = info["arc"]
    if v.get("arc") is not None:
        if v["arc"] not in info["tied"]:
            raise illegal(gettext("the attacker is in %(target)s's %(arc)s arc; no exact split to choose") % {
                "target": target, "arc": _said(arc)})  # M63
        arc = v["arc"]
    u = state["units"][name]
    d = T.size(state, name)[1]
    if face is not None:
        set_pose(state, name, list(G.pivot(u["at"], u["facing"], face, d)), face)
    state["charging"] = {"unit": name, "target": target, "arc": arc, "align": align, "seat": seat,
                         "dice_mode": dice_mode, "may_reroll": may_reroll, "as_six": as_six, "superior": None,
                         "devastating": False}
    if acted:
        state["charging"]["dangerous"] = True  # M78 Dangerous: "only once" for this Charge action
    if not free:
        push(state, {"t": "end_activation"})
    push(state, {"t": "charge", "stage": "roll"})
    # "when a unit declares a Charge action, before it is resolved" (Reckless Heroism, Superior Positioning)
    cards.open_window(state, "charge_declared", {"unit": name, "target": target})


def _h_charge(state: State, task: dict[str, Any], events: Events) -> None:
    c = state["charging"]
    name, target, seat = c["unit"], c["target"], c["seat"]
    if name not in T.live(state) or target not in T.live(state):
        done(state, task)
        return
    if task["stage"] == "roll":
        r = T.roll(state, 6)
        c["natural"] = r
        c["roll"] = 6 if c["as_six"] else r  # Reckless Heroism: every charge die counts as a 6
        task["stage"] = "rolled"
        # "after the charge distance dice are rolled" (Devastating Impact)
        cards.open_window(state, "charge_rolled", {"unit": name, "target": target})
        return
    if task["stage"] == "rolled":
        task["stage"] = "move"
        if c["may_reroll"] and not c["as_six"]:
            ask(state, "reroll", [seat], dice="charge", unit=name)
        return
    if task["stage"] == "attack":
        done(state, task)
        if target in T.engaged_with(state, name):
            declare_attack(state, seat, name, {"target": target}, events, charge=True, ends_activation=False,
                           disorderly=state["last_charge"]["disorderly"], arc=c["arc"],
                           dice_mode=c.get("dice_mode"))
            for kw in ("hindering", "fortified"):
                if state["last_charge"].get(kw):
                    state["last_attack"][kw] = True
        return
    _charge_move(state, task, events)


def _charge_move(state: State, task: dict[str, Any], events: Events) -> None:
    c = state["charging"]
    name, target, seat, arc, align = c["unit"], c["target"], c["seat"], c["arc"], c["align"]
    u = state["units"][name]
    w, d = T.size(state, name)
    r = c["roll"]
    dist = T.speed(state, name) + r
    # M65: straight forward; the first contact decides (friendly trays block a charge: §7.3 reading)
    me = T.poly(state, name)
    dx, dy = G.direction(u["facing"])
    rough = [T.terrain_poly(t) for t in state["terrain"] if "rough" in t["keywords"]]
    if rough:
        path = G.swept(me, G.tray(G.translate(u["at"], u["facing"], "forward", dist), u["facing"], w, d))
        if any(path.intersects(p) for p in rough):
            dist -= 1  # M78 Rough (seed 2043-2045): -1 in once, as for every move (reading §7.2)
    hits: list[tuple[float, str]] = []
    for n in T.live(state):
        if n != name:
            cd = G.contact_distance(me, dx, dy, dist, T.poly(state, n))
            if cd is not None:
                hits.append((cd, n))
    for t in state["terrain"]:
        if "impassable" in t["keywords"]:
            cd = G.contact_distance(me, dx, dy, dist, T.terrain_poly(t))
            if cd is not None:
                hits.append((cd, "#terrain"))
    # the table edge stops the tray where it would leave the table
    lo, hi = 0.0, float(dist)
    if not G.on_table(G.tray(G.translate(u["at"], u["facing"], "forward", dist), u["facing"], w, d), state["table"]):
        while hi - lo > 0.0005:
            mid = (lo + hi) / 2
            if G.on_table(G.tray(G.translate(u["at"], u["facing"], "forward", mid), u["facing"], w, d),
                          state["table"]):
                lo = mid
            else:
                hi = mid
        edge = lo
    else:
        edge = float(dist)
    hits.sort()
    start_at = list(u["at"])
    disorderly = c["natural"] == 1 and not c["as_six"]
    if c["superior"] is not None and arc == "front" and r <= c["superior"]:
        disorderly = True  # Superior Positioning (40209)
    if hits and hits[0][1] == target and hits[0][0] <= edge + G.TOL:
        result = "success"
        poses = _align_poses(state, name, target, arc)
        order = [p for p in poses if p[0] == align] + [p for p in poses if p[0] != align]
        chosen = next(((at, f) for _l, at, f in order if _pose_free(state, name, at, f, {target})), None)
        if chosen is None:
            at = G.translate(u["at"], u["facing"], "forward", hits[0][0])
            chosen = (list(at), u["facing"])
        set_pose(state, name, chosen[0], chosen[1])
    else:
        result = "failed"
        stop = min(edge, dist)
        if hits and hits[0][0] <= stop:
            stop = max(0.0, hits[0][0] - 1.0)
        set_pose(state, name, list(G.translate(u["at"], u["facing"], "forward", stop)), u["facing"])
    moved = round(((u["at"][0] - start_at[0]) ** 2 + (u["at"][1] - start_at[1]) ** 2) ** 0.5, 2)
    state["last_charge"] = {"unit": name, "target": target, "roll": r, "distance": dist, "moved": moved,
                            "result": result, "disorderly": disorderly, "arc": arc}
    if T.revision(state) >= 2 and result == "success":
        # M78 (seed 2034-2036, 2046-2049): the charger's path (start tray to end tray) crosses or ends
        # in a Hindering piece: no Charge bonus; a Fortified one: the defender +1 to its Defense rolls
        path = G.swept(me, T.poly(state, name))
        for kw in ("hindering", "fortified"):
            if any(kw in t["keywords"] and G.overlaps(path, T.terrain_poly(t)) for t in state["terrain"]):
                state["last_charge"][kw] = True
    events.append({"type": "charge", **state["last_charge"]})
    act = state.get("act") or {}
    if not (act.get("unit") == name and act.get("dangerous")) and not c.get("dangerous") \
            and entered_dangerous(state, name, me, events):
        done(state, task)  # M78 Dangerous: destroyed entering it, the charge ends there
        return
    if disorderly:
        state["no_cards"] = [seat, state.get("turn_no")]  # M69: no Tactics cards for the rest of the turn
        if c["superior"] is not None:
            cards.add_condition(state, name, "vulnerable", events)
    if result == "failed":
        # M68: a Panic test (the activation ends after it, when the charge was the unit's action)
        done(state, task)
        push(state, {"t": "test", "unit": name, "kind": "panic", "modifier": 0, "stage": "roll",
                     "attack": False})
        return
    push_back(state, name, target, events)
    abil = T.abilities(state, name)
    if "Ambush" in abil and arc in ("flank", "rear"):
        # Ambush (Stark Outriders): a successful charge in the enemy's Flank or Rear
        events.append({"type": "ability", "unit": name, "ability": "Ambush", "target": target})
        for cond in ("panicked", "vulnerable", "weakened"):
            cards.add_condition(state, target, cond, events)
    if "Furious Charge" in abil:
        # Furious Charge (Umber Champion, Greatjon Umber): the charged enemy gains Vulnerable
        events.append({"type": "ability", "unit": name, "ability": "Furious Charge", "target": target})
        cards.add_condition(state, target, "vulnerable", events)
    if c["devastating"]:
        for cond in ("panicked", "vulnerable"):
            cards.add_condition(state, target, cond, events)
    task["stage"] = "attack"
    # "when a unit Successfully Charges" (Winter Is Coming; Set for Charge of the charged unit)
    cards.open_window(state, "charge_success", {"unit": name, "target": target, "arc": arc})


def push_back(state: State, name: str, target: str, events: Events) -> None:
    """M70: other enemies the charger ends in contact with are moved away from it, straight along the
    line between the tray centres, to 1 in (or the least distance possible) so they are not engaged.
    Reading: the 50 % alignment M70 offers to those in the defender's arc is not offered; the move is
    made for their owner (deterministic)."""
    me = T.poly(state, name)
    mc = me.centroid
    for e in [x for x in T.engaged_with(state, name) if x != target]:
        eu = state["units"][e]
        if T.revision(state) >= 2 and _align_fifty(state, name, e, events):
            continue
        ec = T.poly(state, e).centroid
        vx, vy = ec.x - mc.x, ec.y - mc.y
        n = (vx * vx + vy * vy) ** 0.5 or 1.0
        vx, vy = vx / n, vy / n
        w, d = T.size(state, e)
        best = None
        k = 1
        while k <= 160:  # up to 8 in, 0.05 in steps
            at = [round(eu["at"][0] + vx * 0.05 * k, 4), round(eu["at"][1] + vy * 0.05 * k, 4)]
            p = G.tray(at, eu["facing"], w, d)
            if _pose_free(state, e, at, eu["facing"], set()) and G.distance(p, me) > G.TOL:
                best = at
                if G.distance(p, me) >= 1.0 - G.TOL:
                    break
            k += 1
        if best is not None:
            start = T.poly(state, e)
            set_pose(state, e, best, eu["facing"])
            events.append({"type": "move", "unit": e, "kind": "push_back", "at": best, "facing": eu["facing"]})
            entered_dangerous(state, e, start, events, since=3)  # M78 Dangerous: pushed onto a piece, it enters it


def _align_fifty(state: State, name: str, e: str, events: Events) -> bool:
    """M70 (seed 1289-1298), revision 2: another enemy the charger ends in contact with, in the
    charger's Front arc as the defender is, aligns 50 % with the charger's front edge and stays engaged:
    where it already is when it is so aligned (issue 32), else moved for its owner to the free 50 %
    pose nearer to it (not within 1 in of another enemy it would not be engaged with, M74). False when
    it is in a Flank (or the Rear) or no 50 % pose is free: then it is pushed back."""
    if G.arc_of(T.wedges(state, name), T.poly(state, e))[0] != "front":
        return False
    eu = state["units"][e]
    poses = [(at, f) for label, at, f in _align_poses(state, e, name, "front") if label in ("left", "right")]

    def near(at: list[float], f: float) -> bool:
        return (G.le(math.dist(at, eu["at"]), 0) and
                abs((eu["facing"] - f + 180) % 360 - 180) <= G.ATOL)

    if any(near(at, f) for at, f in poses):
        return True  # already aligned 50 %: it stays engaged where it is
    w, d = T.size(state, e)
    seat = eu["seat"]
    for at, f in sorted(poses, key=lambda p: math.dist(p[0], eu["at"])):
        if not _pose_free(state, e, at, f, set()):
            continue
        p = G.tray(at, f, w, d)
        if any(G.distance(p, T.poly(state, x)) <= 1.0 and not G.touches(p, T.poly(state, x))
               for x in T.enemies(state, seat)):
            continue  # M74
        start = T.poly(state, e)
        set_pose(state, e, [round(at[0], 4), round(at[1], 4)], f)
        events.append({"type": "move", "unit": e, "kind": "align", "at": eu["at"], "facing": eu["facing"]})
        entered_dangerous(state, e, start, events, since=3)  # M78 Dangerous: aligned onto a piece, it enters it
        return True
    return False


# ---------------------------------------------------------------------- attacks (M50-M60, M83-M95)


def _attack_profile(state: State, name: str, attack_name: Any, kind: str | None) -> dict[str, Any]:
    attacks = T.ucard(state, name).get("attacks", [])
    if attack_name is not None:
        for a in attacks:
            if a["name"] == attack_name:
                return a
        raise illegal(gettext("%(name)s has no attack named %(attack_name)s") % {
            "name": name, "attack_name": attack_name})
    for a in attacks:
        if kind is None or (a["range"] == "melee") == (kind == "melee"):
            return a
    raise illegal(gettext("%(name)s has no %(kind)s attack") % {"name": name, "kind": _said(kind or '')})


def refacing(state: State, name: str, target: str, face: bool, align: str | None) -> tuple[list[float], float]:
    """M58-M59, before a melee attack: re-face (`face`) to front the one enemy engaged in the unit's
    Flank or Rear, and/or slide to be 100 % (`center`) or 50 % (`left`, `right`) aligned with it. The
    new pose is on the edge of the target's arc the unit is in (as a charge's alignment, M66), must
    not overlap a tray and must stay in contact with the target."""
    engaged = T.engaged_with(state, name)
    if face:
        if engaged != [target]:
            raise illegal(gettext("%(name)s is engaged with several enemies: no re-facing") % {"name": name})  # M58
        if T.arc_seen_by(state, name, target)[0] == "front":
            raise illegal(gettext("%(target)s is already in %(name)s's Front: no re-facing") % {
                "target": target, "name": name})  # M58
    elif T.arc_seen_by(state, name, target)[0] != "front":
        raise illegal(gettext("%(target)s is not in %(name)s's Front: align after re-facing") % {
            "target": target, "name": name})  # M59
    arc = T.arc_seen_by(state, target, name)[0]
    poses = _align_poses(state, name, target, arc)
    want = align or "center"
    u = state["units"][name]
    for _label, at, f in [p for p in poses if p[0] == want] + ([p for p in poses if p[0] == "closest"] if face else []):
        if not _pose_free(state, name, at, f, set()):
            continue
        saved = dict(u)
        set_pose(state, name, at, f)
        ok = target in T.engaged_with(state, name) and set(T.engaged_with(state, name)) <= set(engaged)
        state["units"][name] = saved
        if ok:
            return [round(at[0], 4), round(at[1], 4)], G.norm_angle(f)
    if face:
        raise illegal(gettext("no room to re-face against %(target)s") % {"target": target})  # M58
    raise illegal(gettext("no room to align against %(target)s") % {"target": target})  # M59


def declare_attack(state: State, seat: str, name: str, value: Any, events: Events, charge: bool,
                   ends_activation: bool, disorderly: bool = False, arc: str | None = None,
                   dice_mode: str | None = None, acted: bool = False) -> None:
    """`acted`: the unit already suffered Dangerous wounds for this free Attack action (revision 5), so a
    piece its re-face, alignment or shift enters does not damage it again (M78)."""
    v = _keys(value, {"target", "attack", "face", "align", "shift"}, "attack")
    target = v.get("target")
    if not isinstance(target, str):
        raise EngineError("bad_action", gettext("attack needs a target"))
    F.name(target, "attack: target")
    F.name(v.get("attack"), "attack: attack", optional=True)
    if v.get("face") is not None:
        F.flag(v["face"], "attack: face")
    align = v.get("align")
    if align is not None and (not isinstance(align, str) or align not in ("center", "left", "right")):
        raise EngineError("bad_action", gettext("align is center, left or right"))
    shift = None
    if v.get("shift") is not None:
        s = _keys(v["shift"], {"direction", "distance"}, "shift")
        direction = s.get("direction", "forward")
        if not isinstance(direction, str) or direction not in ("forward", "back", "left", "right"):
            raise EngineError("bad_action", gettext("shift direction is forward, back, left or right"))
        shift = (direction, _num(s.get("distance"), "shift: distance", 0))
    if target not in T.live(state) or not T.is_enemy(state, state["units"][target]["seat"], state["units"][name]["seat"]):
        raise illegal(gettext("%(target)s is not an enemy unit on the table") % {"target": target})
    profile = _attack_profile(state, name, v.get("attack"), None if v.get("attack") else (
        "melee" if T.engaged_with(state, name) or charge else "ranged"))
    melee = profile["range"] == "melee"
    start = T.poly(state, name)  # M78 Dangerous: a re-face, an alignment or a shift may enter a piece
    if melee:
        if target not in T.engaged_with(state, name):
            raise illegal(gettext("%(name)s is not engaged with %(target)s: no melee attack") % {
                "name": name, "target": target})  # M57, M60
        if (v.get("face") or v.get("align") is not None) and not charge:
            if v.get("align") not in (None, "center", "left", "right"):
                raise EngineError("bad_action", gettext("align is center, left or right"))
            at, facing = refacing(state, name, target, bool(v.get("face")), v.get("align"))
            set_pose(state, name, at, facing)
            events.append({"type": "move", "unit": name, "kind": "reface" if v.get("face") else "align",
                           "at": at, "facing": facing})
    elif v.get("face") is not None or v.get("align") is not None:
        raise illegal(gettext("re-facing and alignment are for melee attacks"))  # M58-M59
    else:
        if T.engaged_with(state, name):
            raise illegal(gettext("%(name)s is engaged: no ranged attack") % {"name": name})  # M51
        reach = 6.0 if profile["range"] == "short" else 12.0
        if shift is not None:
            at, facing, _ = resolve_moves(state, name, [("move", *shift)], 2.0, "shift")
            saved = dict(state["units"][name])
            set_pose(state, name, at, facing)
            ok = T.has_los(state, name, target, ranged=True) and G.le(
                G.point_distance(state["units"][name]["at"], T.poly(state, target)), reach)
            if not ok:
                state["units"][name] = saved
                raise illegal(gettext("after the shift the target is out of range or line of sight"))  # M52
            events.append({"type": "move", "unit": name, "kind": "shift", "at": at, "facing": facing})
        if not G.le(G.point_distance(state["units"][name]["at"], T.poly(state, target)), reach):
            raise illegal(gettext("%(target)s is beyond %(reach)s in") % {
                "target": target, "reach": f'{reach:g}'})  # M54, M55
        if not T.has_los(state, name, target, ranged=True):
            raise illegal(gettext("%(name)s has no line of sight to %(target)s") % {
                "name": name, "target": target})  # M53
    act = state.get("act") or {}
    if not start.equals(T.poly(state, name)) and not acted and not (act.get("unit") == name and act.get("dangerous")) \
            and entered_dangerous(state, name, start, events, end_first=ends_activation, since=3):
        return  # M78 Dangerous: destroyed entering a piece as it re-faces, aligns or shifts: no attack
    if arc is None:
        arc = T.arc_seen_by(state, target, name)[0]
    lost = T.ranks_lost(state, name)
    dice = profile["dice"]
    count = int(dice[min(lost, len(dice) - 1)])
    if state["units"][name].get("influence") == "30201":
        count = max(int(x) for x in dice)  # Catelyn: highest attack-dice value (M100: the largest printed)
    to_hit_bonus = 0
    extra_kw: set[str] = set()
    for att in state.get("attached", []):
        # A Lannister Pays His Debts (40102), The North Remembers (40204): with a token on the card
        if att["card"] not in cards.ATTACHED_FOR_THE_GAME or att["unit"] != name or att["tokens"] < 1 or not melee:
            continue
        if att["card"] == "40102":
            extra_kw.add("vicious")
            to_hit_bonus += 1 if cards.controls(state, seat, "crown") else 0
        else:
            count = max(int(x) for x in dice)
            to_hit_bonus += 1 if cards.controls(state, seat, "swords") else 0
    lowest = dice_mode == "lowest" or bool(state["units"][name].get("bribed"))
    if lowest:
        count = min(int(x) for x in dice)  # Assault Orders; Bribery (40104): the lowest value (M100: wins)
    elif dice_mode == "highest":
        count = max(int(x) for x in dice)
    abil = T.abilities(state, name)
    keywords: set[str] = set(KEYWORD_ABILITIES.get(profile["name"], [])) if profile["name"] in abil else set()
    if melee and "Precision" in abil:
        keywords.add("precision")
    if melee and "The Mountain's Strength" in abil:
        keywords.add("sundering")
    keywords |= extra_kw
    to_hit = int(profile["hit"]) - to_hit_bonus
    if profile["name"] == "Winter's Bite" and "Winter's Bite" in abil and lost >= 1:
        to_hit -= 1
    if any("Disrupt" in T.abilities(state, e) for e in T.engaged_with(state, name)):
        to_hit += 1  # M107: one Disrupt, however many
    state["last_attack"] = {
        "attacker": name, "defender": target, "attack": profile["name"], "kind": "melee" if melee else "ranged",
        "arc": arc, "charge": charge, "disorderly": disorderly, "to_hit": to_hit, "dice_count": count,
        "keywords": sorted(keywords), "rolled": [], "rerolled": [], "attack_dice": [], "hits": 0,
        "defense_dice": [], "defense_save": None, "blocked": 0, "wounds": 0, "panic": None, "destroyed": False,
        "lowest": lowest,
    }
    events.append({"type": "attack", "attacker": name, "defender": target, "attack": profile["name"]})
    if ends_activation:
        push(state, {"t": "end_activation"})
    push(state, {"t": "attack", "stage": "roll", "seat": seat, "rerolled_by": {}})
    if melee:
        cards.open_window(state, "melee_before", {"unit": name, "target": target})


def _can_reroll_attack(state: State, la: dict[str, Any]) -> bool:
    return _reroll_any_die(state, la) or bool(la.get("reroll_missed"))


def rerollable(state: State, la: dict[str, Any]) -> list[int]:
    """The attack dice a `reroll` may name now."""
    if _reroll_any_die(state, la):
        return list(range(len(la["attack_dice"])))
    return [i for i, f in enumerate(la["attack_dice"]) if not _hitting(la, f)]


def _reroll_any_die(state: State, la: dict[str, Any]) -> bool:
    """A re-roll of any attack dice (the Charge bonus, "re-roll any attack dice" effects); Kingslayer's
    Prowess alone (`reroll_missed`) re-rolls only dice that missed."""
    if la.get("reroll_any"):
        return True
    if la["charge"] and not la["disorderly"] and la["kind"] == "melee" and not la.get("hindering"):
        return True  # M94 Charge bonus (lost through Hindering terrain, M78)
    name = la["attacker"]
    return la["attack"] == "Winter's Bite" and "Winter's Bite" in T.abilities(state, name) and \
        T.ranks_lost(state, name) >= 2


def _hitting(la: dict[str, Any], f: int) -> bool:
    """M84: a die hits on its to-hit value or more; a natural 6 always hits, a natural 1 never."""
    return f == 6 or bool(la.get("auto_hit")) or (f != 1 and f >= la["to_hit"])


def _dice_hitting(la: dict[str, Any]) -> int:
    """The attack dice that hit (Critical Blow's extra hits are not dice)."""
    return sum(1 for f in la["attack_dice"] if _hitting(la, f))


def _hits(la: dict[str, Any]) -> tuple[int, int]:
    """(hits, natural sixes) of the final attack dice (M84, Critical Blow M95)."""
    hits = sixes = 0
    for f in la["attack_dice"]:
        if f == 6:
            sixes += 1
            hits += 1
        elif la.get("auto_hit") or (f != 1 and f >= la["to_hit"]):
            hits += 1
    if "critical_blow" in la["keywords"]:
        hits += sixes
    return hits, sixes


def _h_attack(state: State, task: dict[str, Any], events: Events) -> None:
    la = state["last_attack"]
    att, dfd = la["attacker"], la["defender"]
    aseat = state["units"][att]["seat"]
    dseat = state["units"][dfd]["seat"]
    st = task["stage"]
    if st == "roll":
        la["rolled"] = [T.roll(state, 6) for _ in range(la["dice_count"])]
        la["attack_dice"] = list(la["rolled"])
        events.append({"type": "attack_dice", "dice": list(la["rolled"])})
        task["stage"] = "attacker_reroll"
        if _can_reroll_attack(state, la):
            ask(state, "reroll", [aseat], dice="attack")
        return
    if st == "attacker_reroll":
        task["stage"] = "weakened"
        if "weakened" in state["units"][att]["conditions"]:
            ask(state, "spend", [dseat], token="weakened", unit=att, dice="attack")
        return
    if st == "weakened":
        if not task.get("countered") and la["kind"] == "melee" and "Counterstrike" in T.abilities(state, dfd) \
                and att in T.live(state):
            # Counterstrike (Jaime Lannister, The Kingslayer): after the attack dice are rolled and
            # re-rolled (M85), the attacker suffers 1 hit per die that missed; its Defense roll first
            task["countered"] = True
            misses = len(la["attack_dice"]) - _dice_hitting(la)
            if misses:
                events.append({"type": "ability", "unit": dfd, "ability": "Counterstrike", "target": att,
                               "hits": misses})
                cards.suffer_hits(state, att, misses, dseat, events, source="Counterstrike")
                return
        hits, sixes = _hits(la)
        to_save = hits
        direct = 0
        if "precision" in la["keywords"]:
            to_save = max(0, hits - sixes)
            direct = min(sixes, hits)
        la["hits"] = hits
        task["direct"] = direct
        save = int(T.ucard(state, dfd)["defense_save"])
        mod = 0
        if la["arc"] == "flank":
            mod -= 1
        elif la["arc"] == "rear":
            mod -= 2
        if "sundering" in la["keywords"]:
            mod -= 1
        if "Berserker's Fervor" in T.abilities(state, dfd):
            mod += T.ranks_lost(state, dfd)
        if la.get("fortified"):
            mod += 1  # M78 Fortified: the charge crossed or ended in it
        la["defense_save"] = save - mod
        la["defense_dice"] = [T.roll(state, 6) for _ in range(to_save)]
        events.append({"type": "defense_dice", "dice": list(la["defense_dice"])})
        task["stage"] = "vulnerable"
        if "vulnerable" in state["units"][dfd]["conditions"] and to_save:
            ask(state, "spend", [aseat], token="vulnerable", unit=dfd, dice="defense")
        return
    if st == "vulnerable":
        blocked = sum(1 for f in la["defense_dice"] if f == 6 or (f != 1 and f >= la["defense_save"]))
        la["blocked"] = blocked
        wounds = len(la["defense_dice"]) - blocked + task.get("direct", 0)
        abil = T.abilities(state, att)
        if wounds and la["kind"] == "melee" and abil & {"The Mountain's Strength", "Unstoppable Wrath"}:
            wounds += 2  # "inflict 2 extra wounds" (read: on an attack that wounds at all)
        la["wounds"] = wounds
        # M71: friendly units engaged with the defender, and only with it, may pivot if it falls
        task["lonely"] = [f for f in T.engaged_with(state, dfd) if f != att and T.engaged_with(state, f) == [dfd]]
        task["stage"] = "after_panic"
        # M89: the Panic test follows the wounds; queued first so that what the wounds trigger (Go
        # Down Fighting, a destruction's window) runs before it; a destroyed unit takes no test
        mod = {"flank": -1, "rear": -2}.get(la["arc"], 0) + (-2 if "vicious" in la["keywords"] else 0)
        push(state, {"t": "test", "unit": dfd, "kind": "panic", "modifier": mod, "stage": "roll",
                     "attack": True, "automatic": wounds == 0, "by": aseat, "tid": next_id(state),
                     "fail_extra": la.get("panic_fail_extra", 0)})
        if wound(state, dfd, wounds, events, source_seat=aseat) or state["over"]:
            la["destroyed"] = True
        return
    if st == "after_panic":
        done(state, task)
        if state["units"][att].get("standing"):
            # Last Stand (40213): the unit is removed once its attack has wounded and tested
            state["units"][att]["standing"] = False
            events.append({"type": "removed", "unit": att})
        if la.get("price_of_failure") and not state["units"][dfd]["destroyed"] and att in T.live(state):
            for c in ("panicked", "vulnerable"):
                cards.add_condition(state, att, c, events)
        if state["units"][dfd]["destroyed"]:
            la["destroyed"] = True
            if la["kind"] == "melee" and att in T.live(state):
                push(state, {"t": "surge", "unit": att, "seat": aseat, "enemy": dfd, "stage": "surge",
                             "friends": task.get("lonely", [])})
        elif la["kind"] == "ranged":
            # M56: friendly units engaged with the target take a Panic test
            for f in T.engaged_with(state, dfd):
                push(state, {"t": "test", "unit": f, "kind": "panic", "modifier": 0, "stage": "roll",
                             "attack": False})
        # M90: "after a unit is attacked / completes an attack" before the Surge
        cards.open_window(state, "after_attack", {"unit": att, "target": dfd, "kind": la["kind"]})
        return


def _h_surge(state: State, task: dict[str, Any], events: Events) -> None:
    if task["stage"] == "surge":
        free = task["unit"] in T.live(state) and not T.engaged_with(state, task["unit"])
        if free and not task.get("windowed"):
            # "when a unit would Surge Forth" (Overrun): a Charge or March instead
            task["windowed"] = True
            cards.open_window(state, "surge", {"unit": task["unit"]})
            return
        task["stage"] = "pivot"
        if free and not task.get("replaced"):
            ask(state, "surge", [task["seat"]], unit=task["unit"])
        return
    done(state, task)
    # M71: friendly units that were engaged with the destroyed enemy only may pivot for free
    friends = [f for f in task.get("friends", []) if f in T.live(state) and not T.engaged_with(state, f)]
    if friends:
        push(state, {"t": "pivot", "seat": task["seat"], "units": friends})


def answer_surge(state: State, seat: str, value: Any, events: Events) -> None:
    task = state["work"][0]
    state["decision"] = None
    if value is None:
        return
    at, facing = check_maneuver(state, task["unit"], value)
    start = T.poly(state, task["unit"])
    set_pose(state, task["unit"], at, facing)
    events.append({"type": "move", "unit": task["unit"], "kind": "surge", "at": at, "facing": facing})
    entered_dangerous(state, task["unit"], start, events, since=3)  # M78 Dangerous


def answer_reroll(state: State, seat: str, value: Any, events: Events) -> None:
    task = state["work"][0]
    if state["decision"].get("dice") == "retreat":
        # Sudden Retreat for Robb's unit: the retreat distance die
        if value not in ([], [0]):
            raise EngineError("bad_action", gettext("reroll takes [] or [0] (the retreat die)"))
        state["decision"] = None
        if value == [0]:
            r = T.roll(state, 6)
            task["max"] = T.speed(state, task["unit"]) + r
            state["last_retreat"] = {"unit": task["unit"], "roll": r, "max": task["max"]}
            events.append({"type": "reroll", "seat": seat, "positions": [0], "dice": [r], "what": "retreat",
                           "max": task["max"]})
        return
    if state["decision"].get("dice") == "charge":
        # Devastating Impact with the horse zone, Overrun for a House Clegane unit: the charge die
        if value not in ([], [0]):
            raise EngineError("bad_action", gettext("reroll takes [] or [0] (the charge die)"))
        state["decision"] = None
        if value == [0]:
            c = state["charging"]
            c["natural"] = c["roll"] = T.roll(state, 6)
            events.append({"type": "reroll", "seat": seat, "positions": [0], "dice": [c["roll"]]})
        return
    la = state["last_attack"]
    if not isinstance(value, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in value):
        raise EngineError("bad_action", gettext("reroll takes a list of die positions"))
    dice = la["attack_dice"]
    done_by = task["rerolled_by"].setdefault(seat + ":attack", [])
    if len(set(value)) != len(value) or any(i < 0 or i >= len(dice) for i in value):
        raise illegal(gettext("reroll: positions must be distinct dice of the roll"))
    if set(value) & set(done_by):
        raise illegal(gettext("a die is re-rolled at most once per player"))  # M106
    if not _reroll_any_die(state, la) and any(_hitting(la, dice[i]) for i in value):
        raise illegal(gettext("Kingslayer's Prowess re-rolls only the dice that missed"))
    for i in value:
        dice[i] = T.roll(state, 6)
    done_by += value
    la["rerolled"] = sorted(set(la["rerolled"]) | set(value))
    state["decision"] = None
    events.append({"type": "reroll", "seat": seat, "positions": list(value), "dice": list(dice)})


def answer_spend(state: State, seat: str, value: Any, events: Events) -> None:
    d = state["decision"]
    state_task = state["work"][0]
    if value is None:
        state["decision"] = None
        return
    v = _keys(value, {"token", "dice"}, "spend")
    if v.get("token") != d["token"]:
        raise illegal(gettext("the token that may be spent now is %(d_token)s") % {"d_token": _said(d['token'])})
    positions = v.get("dice", [])
    if not isinstance(positions, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in positions):
        raise EngineError("bad_action", gettext("spend: dice is a list of positions"))
    if state_task.get("t") == "hits":
        dice = state_task["dice"]  # hits that are not an attack (cards.suffer_hits)
    elif d["dice"] == "attack":
        dice = state["last_attack"]["attack_dice"]
    elif d["dice"] == "defense":
        dice = state["last_attack"]["defense_dice"]
    else:
        dice = state_task["dice"] + [state_task["d3"]]
    if len(set(positions)) != len(positions) or any(i < 0 or i >= len(dice) for i in positions):
        raise illegal(gettext("spend: positions must be distinct dice of the roll"))
    by = state_task.setdefault("rerolled_by", {}).setdefault(seat + ":" + d["dice"], [])
    if set(positions) & set(by):
        raise illegal(gettext("a die is re-rolled at most once per player"))  # M106
    state["units"][d["unit"]]["conditions"].remove(d["token"])
    for i in positions:
        if d["dice"] == "morale" and i == 2:
            state_task["d3"] = T.roll(state, 3)
        elif d["dice"] == "morale":
            state_task["dice"][i] = T.roll(state, 6)
        else:
            dice[i] = T.roll(state, 6)
    by += positions
    if d["dice"] == "attack":
        state["last_attack"]["rerolled"] = sorted(set(state["last_attack"]["rerolled"]) | set(positions))
    state["decision"] = None
    events.append({"type": "spend", "seat": seat, "token": d["token"], "unit": d["unit"], "positions": positions})


# ---------------------------------------------------------------------- wounds, tests (M88-M103)


def wound(state: State, name: str, n: int, events: Events, source_seat: str | None) -> bool:
    """Remove `n` wounds (M88, M91, M93); True if the unit is destroyed (M92)."""
    u = state["units"][name]
    if n <= 0 or u["destroyed"]:
        return u["destroyed"]
    before = T.ranks_left(state, name)
    u["wounds"] = max(0, u["wounds"] - n)
    last = u["wounds"] == 0 and _to_the_last(state, name)
    if last:
        u["wounds"] = 1  # To The Last!: not destroyed while its Morale test is to come
    events.append({"type": "wounds", "unit": name, "wounds": n, "left": u["wounds"]})
    gone = u["wounds"] == 0
    if last:
        u["last_tokens"] = u.get("last_tokens", 2) - 1
        events.append({"type": "ability", "unit": name, "ability": "To The Last!"})
        push(state, {"t": "test", "unit": name, "kind": "morale", "modifier": 0, "stage": "roll",
                     "attack": False, "to_the_last": True, "by": source_seat})
    if gone:
        destroy(state, name, events, source_seat)
    _go_down_fighting(state, name, before - (0 if gone else T.ranks_left(state, name)))
    return gone


def _to_the_last(state: State, name: str) -> bool:
    """To The Last! (Greatjon Umber, Fierce Bannerman, 20205; revision 3): each time the unit would be
    destroyed while the card still holds one of its 2 wound tokens, one is removed and the unit takes
    a Morale Test; on a pass it is not destroyed and stays with 1 wound, on a failure it is destroyed
    (by the effect that would have destroyed it)."""
    u = state["units"][name]
    return (T.revision(state) >= 3 and not u.get("standing") and "To The Last!" in T.abilities(state, name)
            and u.get("last_tokens", 2) > 0)


def heal(state: State, name: str, n: int, events: Events) -> None:
    u = state["units"][name]
    mx = T.max_wounds(T.ucard(state, name))
    got = min(n, mx - u["wounds"])
    if got > 0 and not u["destroyed"]:
        u["wounds"] += got
        events.append({"type": "heal", "unit": name, "wounds": got})


def destroy(state: State, name: str, events: Events, source_seat: str | None) -> None:
    u = state["units"][name]
    u["destroyed"] = True
    seat = u["seat"]
    state["players"][seat]["destroyed"].append(name)
    if u.get("bribed") and T.revision(state) >= 5:
        cards.end_bribery(state, name, events)  # Bribery comes off a destroyed unit onto its owner's discards
    if T.ucard(state, name).get("type") in ("infantry", "cavalry"):
        for att in state.get("attached", []):
            if att["card"] in cards.ATTACHED_FOR_THE_GAME and not T.is_enemy(state, att["seat"], seat):
                att["tokens"] += 1  # 40102, 40204: an Order token on the card (M130: a teammate's unit is friendly)
    if T.multi(state):
        # M129 with several players: +1 VP to the enemy whose effect destroyed it; destroyed by its
        # owner's or a teammate's effect, or by no player's, 1 VP to each enemy still in the game
        # (with teams: to the enemy team, once)
        if source_seat is not None and T.is_enemy(state, seat, source_seat):
            add_vp(state, source_seat, 1, "destroyed:" + name)
        else:
            given: set[str] = set()
            for s in T.enemy_seats(state, seat):
                if s in T.in_game(state) and T.scorer(state, s) not in given:
                    given.add(T.scorer(state, s))
                    add_vp(state, s, 1, "destroyed:" + name)
    else:
        # M129: +1 VP to the opponent for every destroyed enemy combat unit (whoever destroyed it)
        opp = T.opponent(state, seat)
        add_vp(state, opp, 1, "destroyed:" + name)
    events.append({"type": "destroyed", "unit": name, "seat": seat})
    # "when a friendly unit is destroyed", before it is removed (Last Stand, 40213): a window, then
    # the removal, which checks M128 (no combat unit left: the opponent wins at once)
    push(state, {"t": "removal", "unit": name, "saved": None})
    cards.open_window(state, "unit_destroyed", {"unit": name})


def _h_removal(state: State, task: dict[str, Any], events: Events) -> None:
    """After the `unit_destroyed` window: the unit is off the table (Last Stand's attack has already
    taken it off), the attack a Last Stand interrupted is the last attack again, and a seat left with
    no combat unit loses (M128)."""
    done(state, task)
    u = state["units"][task["unit"]]
    if u.get("standing"):
        u["standing"] = False
        events.append({"type": "removed", "unit": task["unit"]})
    if task.get("saved") is not None:
        state["last_attack"] = task["saved"]
    if T.multi(state):
        _eliminate(state, events)
        return
    gone = [s for s in state["seats"] if not T.live(state, s)]
    if gone and not state["over"]:
        # both sides wiped out at once (a Last Stand taking the last enemy with it): a draw
        finish(state, T.opponent(state, gone[0]) if len(gone) == 1 else None, "elimination", events)


def _eliminate(state: State, events: Events) -> None:
    """M131, M128: a player with no combat unit left on the table is eliminated, the game goes on
    for the others: its NCUs leave the Tactics Board, its turns are skipped, no window asks it. When
    one player (or team) is left, it wins; none left (a Last Stand taking the last enemy with it):
    a draw."""
    m = state["multi"]
    if state["over"]:
        return
    for s in state["seats"]:
        if s in m["eliminated"] or T.live(state, s):
            continue
        if any(not u["on_table"] and not u["destroyed"] and not u.get("left_out")
               for u in state["units"].values() if u["seat"] == s):
            continue  # still to deploy
        m["eliminated"].append(s)
        for nc in state["ncus"].values():
            if nc["seat"] == s:
                if nc["zone"]:
                    state["board"][nc["zone"]] = None
                nc.update(zone=None, quadrant=None, activated=True)
        events.append({"type": "eliminated", "seat": s})
    sides = {T.scorer(state, s) for s in T.in_game(state)}
    if len(sides) <= 1:
        left = T.in_game(state)
        finish(state, T.scorer(state, left[0]) if left else None, "elimination", events)


def add_vp(state: State, seat: str, n: int, source: str) -> None:
    if T.team_game(state):
        state["vp"][T.scorer(state, seat)] += n
        state["vp_log"].append({"seat": seat, "team": T.scorer(state, seat), "vp": n, "source": source,
                                "round": state["round"]})
        return
    state["vp"][seat] += n
    state["vp_log"].append({"seat": seat, "vp": n, "source": source, "round": state["round"]})


def _go_down_fighting(state: State, name: str, lost: int) -> None:
    """Go Down Fighting (Stark Sworn Swords): each time one of the unit's ranks is destroyed, one enemy
    engaged with it (its owner's choice) loses 1 wound; a `go_down_fighting` task per lost rank, run
    before whatever the wounds' cause queued (the Panic test)."""
    if lost <= 0 or "Go Down Fighting" not in T.abilities(state, name):
        return
    push(state, {"t": "go_down_fighting", "unit": name, "seat": state["units"][name]["seat"], "left": lost})


def gdf_enemies(state: State, name: str) -> list[str]:
    """The enemies engaged with the unit (a destroyed unit not yet removed: those its tray touches)."""
    if state["units"][name]["destroyed"]:
        return cards.standing_engaged(state, name)
    return T.engaged_with(state, name) if name in T.live(state) else []


def _h_go_down_fighting(state: State, task: dict[str, Any], events: Events) -> None:
    enemies = gdf_enemies(state, task["unit"])
    if task["left"] <= 0 or not enemies:
        done(state, task)
        return
    if len(enemies) == 1:
        _gdf_wound(state, task, enemies[0], events)  # one legal choice: the engine takes it
        return
    ask(state, "choose", [task["seat"]], what="go_down_fighting", unit=task["unit"], enemies=enemies)


def _gdf_wound(state: State, task: dict[str, Any], enemy: str, events: Events) -> None:
    task["left"] -= 1
    events.append({"type": "ability", "unit": task["unit"], "ability": "Go Down Fighting", "target": enemy})
    wound(state, enemy, 1, events, source_seat=task["seat"])


def answer_go_down_fighting(state: State, seat: str, value: Any, events: Events) -> None:
    task = state["work"][0]
    enemies = state["decision"]["enemies"]
    F.name(value, "choose")
    if value not in enemies:
        raise illegal(gettext("Go Down Fighting: choose an enemy engaged with %(unit)s") % {"unit": task["unit"]})
    state["decision"] = None
    _gdf_wound(state, task, value, events)


def _h_test(state: State, task: dict[str, Any], events: Events) -> None:
    name = task["unit"]
    u = state["units"][name]
    if u["destroyed"]:
        done(state, task)
        return
    if task["stage"] == "roll":
        if task.get("automatic"):
            res = {"unit": name, "kind": task["kind"], "dice": [], "d3": None, "modifier": task["modifier"],
                   "result": None, "passed": True, "wounds": 0, "automatic": True}
            _record_test(state, task, res)
            done(state, task)
            return
        if not task.get("windowed"):
            # "when a unit is about to roll a Morale test" (Hear Me Roar!)
            task["windowed"] = True
            task.setdefault("tid", next_id(state))
            cards.open_window(state, "morale_before", {"unit": name, "tid": task["tid"]})
            return
        task["dice"] = [T.roll(state, 6), T.roll(state, 6)]
        task["d3"] = T.roll(state, 3) if task["kind"] == "panic" else None
        task["stage"] = "resolve"
        if "panicked" in u["conditions"]:
            ask(state, "spend", [T.opponent(state, u["seat"])], token="panicked", unit=name, dice="morale")
        return
    if not task.get("rolled_window"):
        # "when a unit has rolled a Morale Test" (Kingslayer's Renown, 40108)
        task["rolled_window"] = True
        cards.open_window(state, "morale_rolled", {"unit": name, "tid": task["tid"]})
        return
    mod = task["modifier"] + morale_modifier(state, name)
    result = max(0, sum(task["dice"]) + mod)
    morale = int(T.ucard(state, name)["morale"])
    passed = result >= morale or bool(task.get("force_pass"))
    if passed and u.get("bribed"):
        cards.end_bribery(state, name, events)  # Bribery ends when the unit passes a Morale test
    extra = 0
    if not passed and task["kind"] == "panic":
        extra = task["d3"] + task.get("fail_extra", 0)
        if any("Intimidating Presence" in T.abilities(state, e) for e in T.engaged_with(state, name)):
            extra += 1
    elif not passed:
        extra = task.get("fail_extra", 0)
    res = {"unit": name, "kind": task["kind"], "dice": list(task["dice"]), "d3": task["d3"], "modifier": mod,
           "result": result, "passed": passed, "wounds": extra, "automatic": False}
    _record_test(state, task, res)
    done(state, task)
    events.append({"type": "test", **res})
    if extra:
        if not passed:
            for e in T.engaged_with(state, name):
                if "Prey On Fear" in T.abilities(state, e):
                    heal(state, e, 2, events)
        wound(state, name, extra, events, source_seat=task.get("by"))
    if not passed and task.get("to_the_last") and name in T.live(state):
        # To The Last! failed: the unit is destroyed after all, with its last wound
        before = T.ranks_left(state, name)
        u["wounds"] = 0
        events.append({"type": "wounds", "unit": name, "wounds": 1, "left": 0})
        destroy(state, name, events, task.get("by"))
        _go_down_fighting(state, name, before)
        return
    if not passed and name in T.live(state):
        if task.get("silence_on_fail"):
            u["silenced"] = state.get("turn_no")  # Subjugation of Power: no abilities this turn
        if task.get("weaken_on_fail"):
            cards.add_condition(state, name, "weakened", events)
    if not passed and task["kind"] == "panic" and state["turn"]:
        cards.open_window(state, "panic_failed", {"unit": name, "wounds": extra})


def _record_test(state: State, task: dict[str, Any], res: dict[str, Any]) -> None:
    state["last_test"] = res
    if task.get("attack"):
        state["last_attack"]["panic"] = {k: res[k] for k in ("dice", "d3", "modifier", "result", "passed",
                                                             "wounds", "automatic")}


def morale_modifier(state: State, name: str) -> int:
    abil = T.abilities(state, name)
    mod = 0
    if "Berserker's Fervor" in abil:
        mod += T.ranks_lost(state, name)
    if "Stalwart" in abil:
        mod += 2
    if state["units"][name].get("bribed"):
        mod -= 1
    if any("Intimidating Presence" in T.abilities(state, e) for e in T.engaged_with(state, name)):
        mod -= 1
    if T.revision(state) >= 2:
        # M78 (seed 2052-2058): within Short range (6 in) of a Horrific piece -1, of an Inspiring piece
        # +1 to Morale test rolls; reading: once each, however many pieces are in range
        me = T.poly(state, name)
        near = [t["keywords"] for t in state["terrain"] if G.le(G.distance(me, T.terrain_poly(t)), 6.0)]
        if any("horrific" in kw for kw in near):
            mod -= 1
        if any("inspiring" in kw for kw in near):
            mod += 1
    return mod


# ---------------------------------------------------------------------- NCUs and the board (M35-M38)


def _ncu_action(state: State, seat: str, nid: str, kind: str, value: Any, events: Events) -> None:
    if kind == "no_action":
        end_activation(state, events)
        return
    if kind == "claim":
        zone, target, influence = value, None, None
        if isinstance(value, dict):
            v = _keys(value, {"zone", "target", "influence"}, "claim")
            zone, target, influence = v.get("zone"), v.get("target"), v.get("influence")
            F.name(target, "claim: target", optional=True)
            F.name(influence, "claim: influence", optional=True)
        if not isinstance(zone, str) or zone not in data.ZONES:
            raise EngineError("bad_action", gettext("zone is one of %(zones)s") % {"zones": ", ".join(data.ZONES)})
        if state["board"][zone]:
            raise illegal(gettext("the %(zone)s zone is taken") % {"zone": _said(zone)})  # M36
        n = state["ncus"][nid]
        if n["zone"]:
            state["board"][n["zone"]] = None
        n["zone"] = zone
        n["quadrant"] = None
        state["board"][zone] = nid
        events.append({"type": "claim", "ncu": nid, "zone": zone, "seat": seat})
        push(state, {"t": "end_activation"})
        push(state, {"t": "zone", "zone": zone, "seat": seat, "stage": "start", "target": target})
        # "when a friendly NCU claims a zone" (Bribery, Assault Orders: instead of the zone's effect)
        cards.open_window(state, "zone_claimed", {"ncu": nid, "zone": zone})
        # revision 4: "each time she claims a zone" (Playing The Game, Repeating the Words)
        cards.ncu_moment(state, nid, "claim", zone)
        push(state, {"t": "influence", "ncu": nid, "seat": seat, "target": influence})
        return
    if kind == "place":
        if state["mode"] != "here_we_stand":
            raise illegal(gettext("NCUs are placed in quadrants only in Here We Stand"))  # M123
        if not isinstance(value, str) or value not in ("sw", "se", "nw", "ne"):
            raise EngineError("bad_action", gettext("place takes sw, se, nw or ne"))
        if any(n["seat"] == seat and n["quadrant"] == value for i, n in state["ncus"].items() if i != nid):
            raise illegal(gettext("one NCU per player per quadrant"))  # M123
        n = state["ncus"][nid]
        if n["zone"]:
            state["board"][n["zone"]] = None
            n["zone"] = None
        n["quadrant"] = value
        events.append({"type": "place", "ncu": nid, "quadrant": value, "seat": seat})
        end_activation(state, events)
        return
    raise EngineError("bad_action", gettext("%(kind)s is not an NCU action") % {"kind": kind})


def draw(state: State, seat: str, n: int, events: Events) -> None:
    p = state["players"][seat]
    got = p["deck"][:n]
    del p["deck"][:n]
    p["hand"] += got
    events.append({"type": "draw", "seat": seat, "cards": list(got), "count": len(got)})
    if len(p["hand"]) > HAND_MAX:
        push(state, {"t": "hand_limit", "seat": seat})


def _h_hand_limit(state: State, task: dict[str, Any], events: Events) -> None:
    seat = task["seat"]
    over = len(state["players"][seat]["hand"]) - HAND_MAX
    if over <= 0:
        done(state, task)
        return
    ask(state, "discard", [seat], count=over)


def answer_discard(state: State, seat: str, value: Any, events: Events) -> None:
    d = state["decision"]
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise EngineError("bad_action", gettext("discard takes a list of card ids"))
    p = state["players"][seat]
    hand = list(p["hand"])
    for c in value:
        if c not in hand:
            raise illegal(gettext("%(c)s is not in your hand") % {"c": c})
        hand.remove(c)
    if d.get("count") is not None and len(value) != d["count"]:
        raise illegal(gettext("discard exactly %(count)s card(s)") % {"count": d['count']})  # M32
    p["hand"] = hand
    for c in value:
        p["discards"].insert(0, c)
    events.append({"type": "discard", "seat": seat, "cards": list(value)})
    d["seats"].remove(seat)
    if not d["seats"]:
        state["decision"] = None
        task = state["work"][0]
        if task["t"] == "hand_limit":
            done(state, task)
        elif task["t"] == "cleanup":
            task["stage"] = "draw"


def zone_choices(state: State, zone: str, seat: str) -> list[dict[str, Any]]:
    """The legal `choose` answers of a zone's effect (for the bots and the timeout default)."""
    out: list[dict[str, Any]] = []
    if zone == "crown":
        out = [{"unit": n} for n in T.enemies(state, seat)]
    elif zone == "money":
        for n in T.live(state):
            conds = state["units"][n]["conditions"]
            if not conds or T.revision(state) < 2:
                out.append({"unit": n})  # revision 2: a unit with a token loses one (M35: part of the effect)
            out += [{"unit": n, "condition": c} for c in conds]
    elif zone == "letter":
        for n in T.enemies(state, seat):
            for c in data.CONDITIONS:
                if c not in state["units"][n]["conditions"] and not (
                        c == "weakened" and "Indomitable" in T.abilities(state, n)):
                    out.append({"unit": n, "condition": c})
    elif zone == "swords":
        for n in T.friendly(state, seat):
            for e in T.engaged_with(state, n):
                out.append({"unit": n, "target": e})
            if T.revision(state) >= 2 and not T.engaged_with(state, n):
                out += [{"unit": n, "target": e, "attack": a} for e, a in ranged_targets(state, n)]
            if T.revision(state) >= 5:
                out += [{"unit": n, "terrain": t} for t in destructible_near(state, n)]  # M78 Destructible
    elif zone == "horse":
        for n in T.friendly(state, seat):
            if T.engaged_with(state, n):
                if can_retreat(state, n):
                    out.append({"unit": n, "retreat": True})
            else:
                out.append({"unit": n, "maneuver": {}})
    return out


MAY_ZONES = ("swords", "horse")


def shift_may_reach(state: State, seat: str) -> bool:
    """Revision 2: a unit of the seat not engaged has a ranged attack and an enemy within its range
    plus the 2 in shift (M52), so the Combat zone's free Attack may be possible after a shift."""
    if T.revision(state) < 2:
        return False
    for n in T.friendly(state, seat):
        if T.engaged_with(state, n):
            continue
        for a in T.ucard(state, n).get("attacks", []):
            if a["range"] == "melee":
                continue
            reach = (6.0 if a["range"] == "short" else 12.0) + 2.0
            if any(G.le(G.point_distance(state["units"][n]["at"], T.poly(state, e)), reach)
                   for e in T.enemies(state, seat)):
                return True
    return False


def ranged_targets(state: State, name: str) -> list[tuple[str, str]]:
    """(enemy, attack name) pairs of the unit's ranged attacks it could make from where it stands
    (M51-M55: not engaged, within range of `at`, line of sight with Cover; the 2 in shift not tried)."""
    out = []
    if T.engaged_with(state, name):
        return out
    for a in T.ucard(state, name).get("attacks", []):
        if a["range"] == "melee":
            continue
        reach = 6.0 if a["range"] == "short" else 12.0
        for e in T.enemies(state, state["units"][name]["seat"]):
            if G.le(G.point_distance(state["units"][name]["at"], T.poly(state, e)), reach) and T.has_los(
                    state, name, e, ranged=True):
                out.append((e, a["name"]))
    return out


def _h_zone(state: State, task: dict[str, Any], events: Events) -> None:
    zone, seat = task["zone"], task["seat"]
    if task.get("replaced"):
        done(state, task)
        return
    if task["stage"] == "start":
        task["stage"] = "choose"
        if zone == "letter":
            draw(state, seat, 2, events)  # the hand-limit task runs first (M32: at once)
        return
    if task["stage"] == "choose":
        if task.get("target") is not None:
            task["stage"] = "done"
            answer_zone(state, seat, {"unit": task["target"]}, events, task)
            return
        task["stage"] = "done"
        if zone_choices(state, zone, seat) or (zone == "swords" and shift_may_reach(state, seat)):
            ask(state, "choose", [seat], zone=zone)
        return
    done(state, task)


def answer_zone(state: State, seat: str, value: Any, events: Events, task: dict[str, Any] | None = None) -> None:
    task = task or state["work"][0]
    zone = task["zone"]
    if value is None or value is False:
        if zone not in MAY_ZONES:
            raise illegal(gettext("the %(zone)s zone's effect is not optional") % {"zone": _said(zone)})
        state["decision"] = None
        return
    full = zone == "swords" and T.revision(state) >= 2  # the Combat zone's free Attack action in full (M35)
    on_terrain = zone == "swords" and T.revision(state) >= 5  # ... a Destructible piece too (M78)
    v = _keys(value, {"unit", "condition", "target", "maneuver", "retreat"} | (
        {"attack", "face", "align", "shift"} if full else set()) | ({"terrain"} if on_terrain else set()), "choose")
    name = F.name(v.get("unit"), "choose: unit")
    F.name(v.get("condition"), "choose: condition", optional=True)
    F.name(v.get("target"), "choose: target", optional=True)
    if v.get("retreat") is not None:
        F.flag(v["retreat"], "choose: retreat")
    if name not in T.live(state):
        raise illegal(gettext("%(name)s is not a unit on the table") % {"name": name})
    useat = state["units"][name]["seat"]
    if zone == "crown":
        if not T.is_enemy(state, seat, useat):
            raise illegal(gettext("the crown zone targets an enemy unit"))  # M35
        state["decision"] = None
        done(state, task)
        push(state, {"t": "test", "unit": name, "kind": "panic", "modifier": -1, "stage": "roll",
                     "attack": False, "by": seat})
        return
    if zone == "money":
        cond = v.get("condition")
        if cond is not None and cond not in state["units"][name]["conditions"]:
            raise illegal(gettext("%(name)s has no %(cond)s token") % {"name": name, "cond": _said(cond)})
        if cond is None and state["units"][name]["conditions"] and T.revision(state) >= 2:
            # M35 (seed 1492-1495): removing a condition token is part of the effect, not a choice
            raise illegal(gettext("%(name)s has a condition token: choose the one the money zone removes") % {
                "name": name})
        heal(state, name, 3, events)
        if state["units"][name].get("bribed"):
            cards.end_bribery(state, name, events)  # Bribery ends when the money zone targets the unit
        if cond:
            state["units"][name]["conditions"].remove(cond)
    elif zone == "letter":
        cond = v.get("condition")
        if not T.is_enemy(state, seat, useat):
            raise illegal(gettext("the letter zone's token goes on an enemy unit"))  # M35
        if cond not in data.CONDITIONS:
            raise EngineError("bad_action", gettext("condition is panicked, vulnerable or weakened"))
        if cond in state["units"][name]["conditions"]:
            raise illegal(gettext("%(name)s already has %(cond)s (one of each)") % {
                "name": name, "cond": _said(cond)})  # M101
        if cond == "weakened" and "Indomitable" in T.abilities(state, name):
            raise illegal(gettext("%(name)s can never gain Weakened (Indomitable)") % {"name": name})
        state["units"][name]["conditions"].append(cond)
        events.append({"type": "condition", "unit": name, "condition": cond})
    elif zone == "swords":
        if T.is_enemy(state, seat, useat):  # M130: a teammate's unit is friendly
            raise illegal(gettext("the swords zone gives a friendly unit a free attack"))  # M35
        if "terrain" in v:
            others = sorted(set(v) - {"unit", "terrain"})
            if others:
                raise EngineError("bad_action", gettext(
                    "choose: an attack on terrain takes the unit and the terrain only, not %(key)s") % {
                    "key": others[0]})
            # its checks come before the piece is removed: a refused attack leaves the zone's choice asked
            if not free_action_dangerous(state, name, events, lambda s: attack_terrain(
                    s, name, {"terrain": v["terrain"]}, [], ends_activation=False)):
                attack_terrain(state, name, {"terrain": v["terrain"]}, events, ends_activation=False)
            state["decision"] = None
            done(state, task)
            return
        attack = {k: v[k] for k in ("target", "attack", "face", "align", "shift") if k in v} if full else {
            "target": v.get("target")}
        # revision 5: on a Dangerous piece the free Attack action costs 1D3+1 wounds first (M78)
        hurt = free_action_dangerous(state, name, events, lambda s: declare_attack(
            s, seat, name, attack, [], charge=False, ends_activation=False))
        state["decision"] = None
        done(state, task)
        if hurt:
            return  # destroyed before its attack resolves: no attack
        declare_attack(state, seat, name, attack, events, charge=False, ends_activation=False,
                       acted=hurt is not None)
        return
    elif zone == "horse":
        if T.is_enemy(state, seat, useat):  # M130: a teammate's unit is friendly
            raise illegal(gettext("the horse zone moves a friendly unit"))  # M35
        if v.get("retreat"):
            if not T.engaged_with(state, name):
                raise illegal(gettext("%(name)s is not engaged: no Retreat") % {"name": name})  # M46
            if not can_retreat(state, name):
                raise illegal(gettext("%(name)s is surrounded: no Retreat can move it away") % {"name": name})  # M49
            state["decision"] = None
            done(state, task)
            # revision 5: the free Retreat action on a Dangerous piece (M78), its checks made above
            if free_action_dangerous(state, name, events):
                return  # destroyed before it retreats
            r = T.roll(state, 6)
            mx = T.speed(state, name) + r
            state["last_retreat"] = {"unit": name, "roll": r, "max": mx}
            push(state, {"t": "retreat", "unit": name, "max": mx, "seat": seat, "free": True})
            return
        at, facing = check_maneuver(state, name, v.get("maneuver") or {})
        # revision 5: the free Maneuver action on a Dangerous piece (M78), found legal just above; a piece
        # it then enters is entered as by the activation's Maneuver (both, as in do_action)
        if free_action_dangerous(state, name, events):
            state["decision"] = None
            if task in state["work"]:
                done(state, task)
            return  # destroyed before it moves
        start = T.poly(state, name)
        set_pose(state, name, at, facing)
        events.append({"type": "move", "unit": name, "kind": "maneuver", "at": at, "facing": facing})
        entered_dangerous(state, name, start, events, since=3)  # M78 Dangerous
    state["decision"] = None
    if task in state["work"]:
        done(state, task)


# ====================================================================== cleanup, scoring, the end


def quadrant_points(state: State) -> dict[str, dict[str, int]]:
    pts = {q: {s: 0 for s in state["seats"]} for q in ("sw", "se", "nw", "ne")}
    for n in T.live(state):
        q = T.quadrant(state, n)
        if q:
            seat = state["units"][n]["seat"]
            pts[q][seat] += T.unit_points(state, n) + (3 if T.is_commander_unit(state, n) else 0)
    for nid, nc in state["ncus"].items():
        if nc["quadrant"]:
            pts[nc["quadrant"]][nc["seat"]] += data.cost(data.card(T.ncu_card(nid)))
    return pts


def quadrant_control(state: State) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    if T.multi(state):
        # M123 with several players: a player (a team, M130: its players' points together) controls a
        # quadrant with at least 5 points there and more than every other player (team); the VP go
        # to that seat (a team's: to its first seat there, scored for the team)
        for q, p in quadrant_points(state).items():
            sides: dict[str, int] = {}
            first: dict[str, str] = {}
            for s in T.in_game(state):
                sides[T.scorer(state, s)] = sides.get(T.scorer(state, s), 0) + p[s]
                if p[s] and T.scorer(state, s) not in first:
                    first[T.scorer(state, s)] = s
            best = max(sides.values(), default=0)
            top = [k for k, v in sides.items() if v == best]
            out[q] = first[top[0]] if best >= 5 and len(top) == 1 else None
        return out
    a, b = state["seats"]
    for q, p in quadrant_points(state).items():
        out[q] = a if p[a] >= 5 and p[a] > p[b] else b if p[b] >= 5 and p[b] > p[a] else None
    return out


def finish(state: State, winner: str | None, result: str, events: Events) -> None:
    state["over"] = True
    state["phase"] = "game_over"
    state["winner"] = winner
    state["result"] = result
    state["decision"] = None
    state["work"] = []
    state["active_unit"] = None
    state["turn"] = None
    ev = {"type": "game_over", "winner": winner, "result": result}
    if winner is not None and T.team_game(state):
        ev["team"] = [s for s in state["seats"] if T.team(state, s) == winner]  # M130: the winning players
    events.append(ev)


def _h_cleanup(state: State, task: dict[str, Any], events: Events) -> None:
    st = task["stage"]
    seats = state["seats"]
    if st == "score":
        if state["mode"] == "here_we_stand" and state["round"] >= 2:
            for q, s in quadrant_control(state).items():
                if s:
                    add_vp(state, s, 1, "quadrant:" + q)
        task["stage"] = "victory"
        return
    if st == "victory":
        if T.multi(state):
            if _multi_victory(state, events):
                return
        elif _duel_victory(state, events):
            return
        for u in state["units"].values():
            u["activated"] = False
            u["order_used"] = False
            u["orders_used"] = []
            u["influence"] = None
        for nc in state["ncus"].values():
            nc["activated"] = nc["seat"] not in T.in_game(state)  # M131: an eliminated player's stay out
            nc["zone"] = None
        state["board"] = {z: None for z in data.ZONES}
        holders = [s for s in (T.in_game(state) if T.multi(state) else seats) if state["players"][s]["hand"]]
        task["stage"] = "draw"
        if holders:
            ask(state, "discard", holders, count=None)
        return
    if st == "draw":
        for s in (T.in_game(state) if T.multi(state) else seats):
            need = T.hand_limit(state, s) - len(state["players"][s]["hand"])
            if need > 0:
                draw(state, s, need, events)
        if T.multi(state):
            # M131: the First Player token passes to the left (M130: to the other team)
            state["first_player"] = T.next_left(state, state["first_player"])
            events.append({"type": "first_player", "seat": state["first_player"]})
        else:
            state["first_player"] = T.opponent(state, state["first_player"])
        state["round"] += 1
        task["stage"] = "redeploy"
        task["asked"] = []
        events.append({"type": "round", "round": state["round"]})
        return
    if st == "redeploy":
        if state["mode"] == "here_we_stand":
            order = _turn_order(state, state["first_player"]) if T.multi(state) else \
                [state["first_player"], T.opponent(state, state["first_player"])]
            for s in order:
                if s not in task["asked"]:
                    task["asked"].append(s)
                    if [n for n in state["players"][s]["destroyed"]]:
                        ask(state, "redeploy", [s])
                        return
        done(state, task)
        state["phase"] = "activation"
        state["turn"] = state["first_player"]
        return


def _duel_victory(state: State, events: Events) -> bool:
    """M125-M127, two players."""
    vp = state["vp"]
    a, b = state["seats"]
    thr = state["threshold"]
    if vp[a] >= thr and vp[a] > vp[b]:
        finish(state, a, "vp", events)
        return True
    if vp[b] >= thr and vp[b] > vp[a]:
        finish(state, b, "vp", events)
        return True
    if state["round"] >= ROUNDS:
        if vp[a] != vp[b]:
            finish(state, a if vp[a] > vp[b] else b, "vp", events)
        else:
            pa, pb = T.army_points(state, a), T.army_points(state, b)
            if pa != pb:
                finish(state, a if pa > pb else b, "points", events)
            else:
                finish(state, None, "draw", events)
        return True
    return False


def _multi_victory(state: State, events: Events) -> bool:
    """M125-M127 with several players (M131; M130: VP per team): at the end of a round, a player
    (team) in the game with at least the threshold and strictly more VP than every other one in the
    game wins; after round 6, the most VP, then the most army points left on the table, else a draw.
    An eliminated player cannot win."""
    vp = state["vp"]
    sides = sorted({T.scorer(state, s) for s in T.in_game(state)}, key=lambda k: list(vp).index(k))
    thr = state["threshold"]
    for k in sides:
        if vp[k] >= thr and all(vp[k] > vp[o] for o in sides if o != k):
            finish(state, k, "vp", events)
            return True
    if state["round"] < ROUNDS:
        return False
    best = max(vp[k] for k in sides)
    top = [k for k in sides if vp[k] == best]
    if len(top) == 1:
        finish(state, top[0], "vp", events)
        return True
    pts = {k: sum(T.army_points(state, s) for s in state["seats"] if T.scorer(state, s) == k) for k in top}
    most = max(pts.values())
    top = [k for k in top if pts[k] == most]
    finish(state, top[0] if len(top) == 1 else None, "points" if len(top) == 1 else "draw", events)
    return True


def redeploy_zone_ok(state: State, seat: str, p) -> bool:
    """M123: wholly within Short range (6 in) of its own table edge or of a flank edge. M131 (a
    corner): within 6 in of either table edge of its corner."""
    W, H = state["table"]
    minx, miny, maxx, maxy = p.bounds
    corner = (T.multi(state) or {}).get("corners", {}).get(seat)
    if corner:
        near_y = maxy <= 6 + G.TOL if corner[0] == "s" else miny >= H - 6 - G.TOL
        near_x = maxx <= 6 + G.TOL if corner[1] == "w" else minx >= W - 6 - G.TOL
        return near_x or near_y
    own = maxy <= 6 + G.TOL if home_edge(state, seat) == "s" else miny >= H - 6 - G.TOL
    return own or maxx <= 6 + G.TOL or minx >= W - 6 - G.TOL


def answer_redeploy(state: State, seat: str, value: Any, events: Events) -> None:
    if value is None:
        state["decision"] = None
        return
    v = _keys(value, {"unit", "at", "facing"}, "redeploy")
    name = F.name(v.get("unit"), "redeploy: unit")
    at = _at(v.get("at"), "redeploy")
    facing = G.norm_angle(_angle(v.get("facing"), "redeploy: facing", 0))
    if name not in state["players"][seat]["destroyed"]:
        raise illegal(gettext("%(name)s is not a destroyed unit of yours") % {"name": name})
    check_placement(state, name, at, facing, lambda p: redeploy_zone_ok(state, seat, p), "redeploy")  # M123
    u = state["units"][name]
    u.update(at=at, facing=facing, destroyed=False, on_table=True, activated=True,
             wounds=T.max_wounds(T.ucard(state, name)), conditions=[], order_used=False, orders_used=[])
    state["players"][seat]["destroyed"].remove(name)
    state["decision"] = None
    events.append({"type": "redeploy", "unit": name, "at": u["at"], "facing": facing})


def check_placement(state: State, name: str, at: list[float], facing: float, zone_ok, what: str) -> None:
    w, d = T.size(state, name)
    p = G.tray(at, facing, w, d)
    if not zone_ok(p):
        raise illegal(gettext("%(what)s: the tray is not wholly inside the allowed area") % {"what": _said(what)})
    if not _pose_free(state, name, at, facing, set()):
        raise illegal(gettext("%(what)s: the tray overlaps a tray or impassable terrain, or leaves the table") % {
            "what": _said(what)})
    seat = state["units"][name]["seat"]
    for e in T.enemies(state, seat):
        if G.le(G.distance(p, T.poly(state, e)), 1.0):
            raise illegal(gettext("%(what)s: 1 in or less from an enemy") % {"what": _said(what)})  # M74


# ====================================================================== deployment (M23-M25)


CORNER_SIZE = 12.0  # M131: each corner's deployment zone, a 12 in square


def deploy_zone_ok(state: State, seat: str, p) -> bool:
    W, H = state["table"]
    depth = state["deploy_depth"]
    minx, miny, maxx, maxy = p.bounds
    corner = (T.multi(state) or {}).get("corners", {}).get(seat)
    if corner:
        c = CORNER_SIZE
        ok_y = (miny >= -G.TOL and maxy <= c + G.TOL) if corner[0] == "s" else \
            (miny >= H - c - G.TOL and maxy <= H + G.TOL)
        ok_x = (minx >= -G.TOL and maxx <= c + G.TOL) if corner[1] == "w" else \
            (minx >= W - c - G.TOL and maxx <= W + G.TOL)
        return ok_x and ok_y
    if home_edge(state, seat) == "s":
        return maxy <= depth + G.TOL and miny >= -G.TOL
    return miny >= H - depth - G.TOL and maxy <= H + G.TOL


def _next_deploy(state: State, events: Events) -> None:
    dep = state["deploy"]
    if dep["first_player_chooser"] and state["first_player"] is None:
        ask(state, "choose", [dep["first_player_chooser"]], what="first_player")
        return
    todo = {s: [n for n in state["units"] if state["units"][n]["seat"] == s and not state["units"][n]["on_table"]
                and not state["units"][n]["destroyed"] and not state["units"][n].get("left_out")]
            for s in state["seats"]}
    seat = dep["next"]
    if T.multi(state):
        later = [s for s in T.clockwise(state, seat) if todo[s]]
        if not later:
            _start_game(state, events)
            return
        seat = later[0]
        try:
            default_deploy(state, seat)
        except EngineError:
            # M131 (docs/rules-decisions.md): the seat's own trays leave no room for its next unit in
            # the 12 in square; the unit is left out of the game (no VP for anyone)
            name = todo[seat][0]
            state["units"][name]["left_out"] = True
            events.append({"type": "left_out", "unit": name, "seat": seat})
            return
    if not todo[seat]:
        seat = T.opponent(state, seat)
    if not todo[seat]:
        _start_game(state, events)
        return
    dep["next"] = seat
    ask(state, "deploy", [seat])


def answer_deploy(state: State, seat: str, value: Any, events: Events) -> None:
    v = _keys(value, {"unit", "at", "facing"}, "deploy")
    name = F.name(v.get("unit"), "deploy: unit")
    at = _at(v.get("at"), "deploy")
    facing = G.norm_angle(_angle(v.get("facing"), "deploy: facing", 0))
    u = state["units"].get(name)
    if not u or u["seat"] != seat or u["on_table"] or u.get("left_out"):
        raise illegal(gettext("%(name)s is not one of your units waiting to deploy") % {"name": name})
    w, d = T.size(state, name)
    if not deploy_zone_ok(state, seat, G.tray(at, facing, w, d)):
        raise illegal(gettext("the tray must be entirely inside your deployment zone"))  # M24
    if not _pose_free(state, name, at, facing, set()):
        raise illegal(gettext("the tray overlaps another tray or impassable terrain"))  # M24
    u.update(at=at, facing=facing, on_table=True)
    if T.team_game(state):
        # M24, M130: the teams alternate, one unit at a time; within the other team, the player who
        # has deployed fewer units (clockwise on a tie)
        foes = [s for s in T.clockwise(state, seat)[1:] if T.is_enemy(state, seat, s)]
        placed = {s: sum(1 for x in state["units"].values() if x["seat"] == s and x["on_table"]) for s in foes}
        state["deploy"]["next"] = min(foes, key=lambda s: (placed[s], foes.index(s)))
    else:
        state["deploy"]["next"] = T.next_left(state, seat) if T.multi(state) else T.opponent(state, seat)
    state["decision"] = None
    events.append({"type": "deploy", "unit": name, "at": at, "facing": facing})


def default_deploy(state: State, seat: str) -> dict[str, Any]:
    """The first legal pose on a 0.5 in grid inside the zone, facing the opponent's edge."""
    name = next(n for n, u in state["units"].items() if u["seat"] == seat and not u["on_table"]
                and not u["destroyed"] and not u.get("left_out"))
    W, H = state["table"]
    first = home_edge(state, seat) == "s"
    facing = 0.0 if first else 180.0
    w, d = T.size(state, name)
    corner = (T.multi(state) or {}).get("corners", {}).get(seat)
    if corner:
        # M131: inside the corner's square, facing across the table (north from a south corner)
        for k in range(int(CORNER_SIZE * 2)):
            y = CORNER_SIZE - 0.05 - k * 0.5
            yy = y if first else H - y
            for j in range(int(CORNER_SIZE * 2)):
                x = w / 2 + 0.05 + j * 0.5
                xx = x if corner[1] == "w" else W - x
                at = [round(xx, 2), round(yy, 2)]
                if deploy_zone_ok(state, seat, G.tray(at, facing, w, d)) and _pose_free(state, name, at, facing, set()):
                    return {"deploy": {"unit": name, "at": at, "facing": facing}}
        raise EngineError("illegal_action", "no room to deploy")
    ys = [state["deploy_depth"] - 0.05 - k * 0.5 for k in range(int(state["deploy_depth"] * 2))]
    for y in ys:
        yy = y if first else H - y
        x = w / 2 + 0.5
        while x <= W - w / 2:
            at = [round(x, 2), round(yy, 2)]
            if deploy_zone_ok(state, seat, G.tray(at, facing, w, d)) and _pose_free(state, name, at, facing, set()):
                return {"deploy": {"unit": name, "at": at, "facing": facing}}
            x += 0.5
    raise RuntimeError("no room to deploy")


def home_edge(state: State, seat: str) -> str:
    """The table edge a seat deploys along: "s" (y = 0) or "n"; M131: its corner's; M130: its team's
    (the first seat's team south)."""
    m = T.multi(state)
    if m and m.get("corners"):
        return m["corners"][seat][0]
    if m and m.get("teams"):
        return "s" if T.team(state, seat) == T.team(state, state["seats"][0]) else "n"
    return "s" if seat == state["seats"][0] else "n"


def _start_game(state: State, events: Events) -> None:
    """M25: each player draws 3 (Tyrion: 4); round 1, the First Player starts."""
    state["phase"] = "activation"
    state["round"] = 1
    state["turn"] = state["first_player"]
    state["deploy"] = None
    for s in state["seats"]:
        draw(state, s, T.hand_limit(state, s), events)
    events.append({"type": "round", "round": 1})


def _h_influence(state: State, task: dict[str, Any], events: Events) -> None:
    """M38: an Influence NCU's card attaches, as it claims a zone, to one combat unit (friendly or
    enemy) until Cleanup; Catelyn's removes 1 condition token from it."""
    nid = task["ncu"]
    done(state, task)
    card = data.card(T.ncu_card(nid))
    if not any(a.get("kind") == "influence" for a in card.get("abilities", [])):
        return
    if state["ncus"][nid].get("silenced") == state["round"] or not T.live(state):
        return
    if task.get("target") is not None:
        answer_influence(state, task["seat"], {"unit": task["target"]}, events, nid)
        return
    push(state, {"t": "influence_ask", "ncu": nid, "seat": task["seat"]})


def _h_influence_ask(state: State, task: dict[str, Any], events: Events) -> None:
    ask(state, "choose", [task["seat"]], what="influence", ncu=task["ncu"])


def influence_choices(state: State) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n in T.live(state):
        if not state["units"][n].get("influence"):
            out.append({"unit": n})
            out += [{"unit": n, "condition": c} for c in state["units"][n]["conditions"]]
    return out


def answer_influence(state: State, seat: str, value: Any, events: Events, nid: str | None = None) -> None:
    task = None
    if nid is None:
        task = state["work"][0]
        nid = task["ncu"]
    v = _keys(value, {"unit", "condition"}, "choose")
    name = F.name(v.get("unit"), "choose: unit")
    F.name(v.get("condition"), "choose: condition", optional=True)
    if name not in T.live(state):
        raise illegal(gettext("%(name)s is not a combat unit on the table") % {"name": name})  # M38
    u = state["units"][name]
    if u.get("influence"):
        raise illegal(gettext("%(name)s is already under an Influence") % {"name": name})  # M38
    cond = v.get("condition")
    if cond is None and u["conditions"]:
        cond = u["conditions"][0]
    if cond is not None:
        if cond not in u["conditions"]:
            raise illegal(gettext("%(name)s has no %(cond)s token") % {"name": name, "cond": _said(cond)})
        u["conditions"].remove(cond)
    u["influence"] = nid
    events.append({"type": "influence", "ncu": nid, "unit": name, "removed": cond})
    if task is not None:
        state["decision"] = None
        done(state, task)


HANDLERS = {
    "end_activation": _h_end_activation,
    "retreat": _h_retreat,
    "pivot": _h_pivot,
    "attack": _h_attack,
    "surge": _h_surge,
    "test": _h_test,
    "charge": _h_charge,
    "hand_limit": _h_hand_limit,
    "zone": _h_zone,
    "cleanup": _h_cleanup,
    "ask_action": _h_ask_action,
    "react": cards.h_react,
    "resolve": cards.h_resolve,
    "influence": _h_influence,
    "influence_ask": _h_influence_ask,
    "removal": _h_removal,
    "hits": cards.h_hits,
    "go_down_fighting": _h_go_down_fighting,
    "rage": _h_rage,
    "ncu_ability": cards.h_ncu_ability,
}
