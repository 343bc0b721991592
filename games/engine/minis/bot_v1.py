"""The engine's player as it was before issue 32 (frozen for benchmarks/minis.py: the new player's
wins against it). Holds its own half, charges only what it will likely reach, attacks when engaged.
Do not change: a benchmark compares against exactly this play."""
from __future__ import annotations

import math
from typing import Any

from games.engine.base import EngineError
from games.engine.minis import data, flow
from games.engine.minis import geometry as G
from games.engine.minis import table as T

State = dict[str, Any]
Action = dict[str, Any]


def _ok(state: State, seat: str, action: Action) -> bool:
    from games.engine.minis import RULESET

    return bool(RULESET.check(state, seat, action).get("ok"))


def _bearing(state: State, name: str, target: str) -> float:
    w, d = T.size(state, name)
    u = state["units"][name]
    c = G.centre(u["at"], u["facing"], d)
    t = T.poly(state, target).centroid
    return G.norm_angle(math.degrees(math.atan2(t.x - c[0], t.y - c[1])))


def _charges(state: State, name: str) -> list[Action]:
    out = []
    if T.engaged_with(state, name):
        return out
    seat = state["units"][name]["seat"]
    for e in T.live(state, T.opponent(state, seat)):
        if G.distance(T.poly(state, name), T.poly(state, e)) > T.speed(state, name) + 6:
            continue
        for face in (_bearing(state, name, e), None):
            try:
                flow.charge_checks(state, name, e, face)
            except EngineError:
                continue
            out.append({"charge": {"target": e, **({"face": round(face, 2)} if face is not None else {})}})
            break
    return out


def _home(state: State, seat: str) -> tuple[str, str]:
    return ("sw", "se") if seat == state["seats"][0] else ("nw", "ne")


def _qcentre(state: State, seat: str, q: str) -> tuple[float, float]:
    """A point of quadrant `q` kept well back inside the seat's own half."""
    W, H = state["table"]
    x = W / 4 if q in ("sw", "nw") else 3 * W / 4
    y = 10.0 if seat == state["seats"][0] else H - 10.0
    return x, y


def _face_enemy(state: State, seat: str) -> float:
    return 0.0 if seat == state["seats"][0] else 180.0


def _good_charge(state: State, name: str) -> Action | None:
    """A charge likely to connect: the gap is at most Speed + 2 (the D6 then fails on a 1 only, or
    never), the softest target first."""
    best = None
    for ch in _charges(state, name):
        t = ch["charge"]["target"]
        gap = G.distance(T.poly(state, name), T.poly(state, t))
        if gap <= T.speed(state, name) + 2:
            key = (state["units"][t]["wounds"], gap)
            if best is None or key < best[0]:
                best = (key, ch)
    return best[1] if best else None


def _walk(state: State, seat: str, name: str, goal: tuple[float, float], end_face: float) -> Action | None:
    u = state["units"][name]
    w, d = T.size(state, name)
    c = G.centre(u["at"], u["facing"], d)
    dist = math.hypot(goal[0] - c[0], goal[1] - c[1])
    if dist < 1.5:
        return None
    face = G.norm_angle(math.degrees(math.atan2(goal[0] - c[0], goal[1] - c[1])))
    sp = T.speed(state, name)
    for frac in (1.0, 0.75, 0.5, 0.25):
        step = round(min(sp, dist) * frac, 2)
        for ef in (end_face, face):
            act = {"maneuver": {"face": round(face, 2), "forward": step, "end_face": ef}}
            if _ok(state, seat, act):
                return act
    return None


def _react(state: State, seat: str) -> Action:
    from games.engine.minis import RULESET

    legal = RULESET.legal_actions(state, seat) or [{"pass": True}]
    for a in legal[2:]:
        v = a.get("play") or a.get("order")
        if "move" in v:
            continue  # shifts: the bot holds its ground
        return a
    return {"pass": True}


def bot_action(state: State, seat: str) -> Action:
    """Holds its own half (Here We Stand, M123): each home quadrant kept with at least 5 points and
    more than the enemy there, units facing the enemy; charges only what it will likely reach,
    attacks when engaged (the weakest enemy), plays every card and Order that applies (no moves),
    redeploys destroyed units on its own edge, and places its NCU where it tips a home quadrant."""
    from games.engine.minis import RULESET

    d = state["decision"]
    kind = d["kind"]
    if kind == "react":
        return _react(state, seat)
    if kind == "activate":
        left = flow.activations_left(state, seat)
        ranked = sorted(left, key=lambda n: (0 if n in state["units"] and (
            T.engaged_with(state, n) or _good_charge(state, n)) else 1 if n in state["units"] else 2,
            left.index(n)))
        return {"activate": ranked[0]}
    if kind == "action" and d.get("must_charge"):
        return {"charge": {"target": d["must_charge"][0]}}  # Uncontrolled Rage
    if kind == "action":
        act = state["act"]
        name = act["unit"]
        if act["ncu"]:
            return _ncu(state, seat, name)
        engaged = T.engaged_with(state, name)
        if engaged:
            weakest = min(engaged, key=lambda e: state["units"][e]["wounds"])
            return {"attack": {"target": weakest}}
        if act.get("pre_maneuver"):
            ch = _good_charge(state, name)
            return ch or {"no_action": True}
        ch = _good_charge(state, name)
        if ch:
            return ch
        return _hold(state, seat, name)
    if kind == "reroll" and d.get("dice") == "charge":
        return {"reroll": [0] if state["charging"]["roll"] <= 3 else []}
    if kind == "reroll" and d.get("dice") == "retreat":
        return {"reroll": [0] if state["last_retreat"]["roll"] <= 3 else []}
    if kind == "reroll":
        la = state["last_attack"]
        return {"reroll": [i for i, f in enumerate(la["attack_dice"]) if f != 6 and (f == 1 or f < la["to_hit"])]}
    if kind == "spend":
        if d["dice"] == "attack":
            la = state["last_attack"]
            return {"spend": {"token": d["token"], "dice": [i for i, f in enumerate(la["attack_dice"])
                                                            if f == 6 or (f != 1 and f >= la["to_hit"])]}}
        if d.get("faces") is not None:
            save = state["work"][0]["save"]  # the `hits` task: re-roll the saves
            return {"spend": {"token": d["token"], "dice": [i for i, f in enumerate(d["faces"])
                                                            if f == 6 or (f != 1 and f >= save)]}}
        if d["dice"] == "defense":
            la = state["last_attack"]
            return {"spend": {"token": d["token"], "dice": [i for i, f in enumerate(la["defense_dice"])
                                                            if f == 6 or (f != 1 and f >= la["defense_save"])]}}
        return {"spend": {"token": d["token"], "dice": [0, 1]}}
    if kind == "choose" and d.get("zone") == "swords":
        # revision 5 lists Destructible pieces as well: left out, so that this player's play stays as it was
        legal = [a for a in (RULESET.legal_actions(state, seat) or []) if a["choose"] and "terrain" not in a["choose"]]
        if legal:
            return legal[0]
    if kind == "choose" and d.get("zone") == "crown":
        opp = T.opponent(state, seat)
        return {"choose": {"unit": min(T.live(state, opp), key=lambda n: state["units"][n]["wounds"])}}
    if kind == "choose" and d.get("what") == "go_down_fighting":
        return {"choose": min(d["enemies"], key=lambda e: (state["units"][e]["wounds"], d["enemies"].index(e)))}
    if kind == "choose" and d.get("what") == "influence":
        mine = [c for c in flow.influence_choices(state) if state["units"][c["unit"]]["seat"] == seat]
        if mine:
            return {"choose": max(mine, key=lambda c: (T.ranks_lost(state, c["unit"]), "condition" in c))}
    if kind == "redeploy":
        return _redeploy(state, seat)
    if kind == "deploy":
        return _deploy(state, seat)
    return RULESET.default_action(state, seat)


def _ncu(state: State, seat: str, name: str) -> Action:
    if state["mode"] == "here_we_stand":
        pts = flow.quadrant_points(state)
        opp = T.opponent(state, seat)
        taken = {n["quadrant"] for i, n in state["ncus"].items() if n["seat"] == seat and i != name}
        cost = data.cost(data.card(name))
        tips = [q for q in _home(state, seat) if q not in taken and flow.quadrant_control(state)[q] != seat
                and pts[q][seat] + cost >= 5 and pts[q][seat] + cost > pts[q][opp]]
        if tips:
            return {"place": tips[0]}
        here = state["ncus"][name]["quadrant"]
        if here and flow.quadrant_control(state)[here] == seat and pts[here][seat] - cost < 5:
            return {"no_action": True}  # its points hold that quadrant: it stays
    for z in ("crown", "letter", "money"):
        if not state["board"][z]:
            return {"claim": z}
    return {"no_action": True}


def _hold(state: State, seat: str, name: str) -> Action:
    opp = T.opponent(state, seat)
    pts = flow.quadrant_points(state)
    home = _home(state, seat)
    here = T.quadrant(state, name)
    mine = T.unit_points(state, name) + (3 if T.is_commander_unit(state, name) else 0)

    def short(q: str) -> bool:
        return pts[q][seat] < 5 or pts[q][seat] <= pts[q][opp]

    goal_q = None
    if here not in home:
        goal_q = min(home, key=lambda q: (not short(q), q))
    else:
        other = home[1] if here == home[0] else home[0]
        spare = pts[here][seat] - mine >= 5 and pts[here][seat] - mine > pts[here][opp]
        if short(other) and spare:
            goal_q = other
    if goal_q:
        act = _walk(state, seat, name, _qcentre(state, seat, goal_q), _face_enemy(state, seat))
        if act:
            return act
    # in place: face the nearest enemy so that it can see (and charge) what comes
    enemies = T.live(state, opp)
    if enemies:
        near = min(enemies, key=lambda e: G.distance(T.poly(state, name), T.poly(state, e)))
        face = round(_bearing(state, name, near), 2)
        u = state["units"][name]
        if abs((face - u["facing"] + 180) % 360 - 180) > 10:
            act = {"maneuver": {"face": face, "forward": 0, "end_face": face}}
            if _ok(state, seat, act):
                return act
    return {"no_action": True}


def _deploy(state: State, seat: str) -> Action:
    from games.engine.minis import RULESET

    name = next(n for n, u in state["units"].items() if u["seat"] == seat and not u["on_table"]
                and not u["destroyed"])
    W, H = state["table"]
    first = seat == state["seats"][0]
    mine = [n for n in T.live(state, seat)]
    left = sum(1 for n in mine if state["units"][n]["at"][0] < W / 2)
    xs = [W / 4, W / 4 - 7, W / 4 + 7, W / 4 - 14] if left <= len(mine) - left else \
        [3 * W / 4, 3 * W / 4 + 7, 3 * W / 4 - 7, 3 * W / 4 + 14]
    for y in (10.0, 16.0, 6.0):
        for x in xs:
            at = [round(x, 2), y if first else H - y]
            act = {"deploy": {"unit": name, "at": at, "facing": _face_enemy(state, seat)}}
            try:
                RULESET.apply(state, seat, act)
                return act
            except EngineError:
                continue
    return RULESET.default_action(state, seat)


def _redeploy(state: State, seat: str) -> Action:
    from games.engine.minis import RULESET

    W, H = state["table"]
    first = seat == state["seats"][0]
    for name in state["players"][seat]["destroyed"]:
        _w, depth = T.size(state, name)
        y = depth + 0.5 if first else H - depth - 0.5
        for x in (W / 4, 3 * W / 4, W / 4 - 7, 3 * W / 4 + 7, W / 4 + 7, 3 * W / 4 - 7):
            act = {"redeploy": {"unit": name, "at": [round(x, 2), round(y, 2)], "facing": _face_enemy(state, seat)}}
            try:
                RULESET.apply(state, seat, act)
                return act
            except EngineError:
                continue
    return {"redeploy": None}
