"""The random player (moves sampled from the geometry, kept legal by the engine's own checks), the
engine's greedy player, and the invariants a game keeps after every action."""
from __future__ import annotations

import math
import random
from typing import Any

from games.engine.base import EngineError
from games.engine.minis import flow
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


def _random_move(state: State, seat: str, name: str, rnd: random.Random, toward: str | None = None) -> Action | None:
    sp = T.speed(state, name)
    for _ in range(12):
        if rnd.random() < 0.5:
            face = _bearing(state, name, toward) if toward and rnd.random() < 0.7 else rnd.uniform(0, 360)
            act = {"maneuver": {"face": round(face, 2), "forward": round(rnd.uniform(0, sp), 2),
                                "end_face": round(rnd.choice([face, rnd.uniform(0, 360)]), 2)}}
        else:
            act = {"march": {"forward": round(rnd.uniform(0, 2 * sp), 2),
                             "end_face": round(rnd.uniform(0, 360), 2)}}
        if _ok(state, seat, act):
            return act
    return None


def random_action(state: State, seat: str, rnd: random.Random) -> Action:
    from games.engine.minis import RULESET

    d = state["decision"]
    kind = d["kind"]
    if kind == "activate":
        return {"activate": rnd.choice(flow.activations_left(state, seat))}
    if kind == "action":
        act = state["act"]
        name = act["unit"]
        if act["ncu"]:
            empty = [z for z, n in state["board"].items() if not n]
            r = rnd.random()
            if empty and r < 0.7:
                return {"claim": rnd.choice(empty)}
            if state["mode"] == "here_we_stand" and r < 0.9:
                taken = {n["quadrant"] for i, n in state["ncus"].items() if n["seat"] == seat and i != name}
                free = [q for q in ("sw", "se", "nw", "ne") if q not in taken]
                if free:
                    return {"place": rnd.choice(free)}
            return {"no_action": True}
        engaged = T.engaged_with(state, name)
        if engaged:
            r = rnd.random()
            if r < 0.75:
                return {"attack": {"target": rnd.choice(engaged)}}
            if r < 0.9:
                return {"retreat": True}
            return {"no_action": True}
        if rnd.random() < 0.6:
            ch = _charges(state, name)
            if ch:
                return rnd.choice(ch)
        if rnd.random() < 0.9:
            enemies = T.live(state, T.opponent(state, seat))
            mv = _random_move(state, seat, name, rnd, rnd.choice(enemies) if enemies else None)
            if mv:
                return mv
        return {"no_action": True}
    if kind == "retreat_move":
        for _ in range(10):
            act = {"retreat_move": {"direction": rnd.choice(["back", "left", "right"]),
                                    "distance": round(rnd.uniform(0, d["max"]), 2),
                                    "end_face": round(rnd.uniform(0, 360), 2)}}
            if _ok(state, seat, act):
                return act
        return RULESET.default_action(state, seat)
    if kind == "reroll":
        n = state["last_attack"]["dice_count"]
        return {"reroll": sorted(rnd.sample(range(n), rnd.randint(0, n)))}
    if kind == "spend":
        if rnd.random() < 0.5:
            return {"spend": None}
        if d["dice"] == "attack":
            n = len(state["last_attack"]["attack_dice"])
        elif d["dice"] == "defense":
            n = len(state["last_attack"]["defense_dice"])
        else:
            n = 3
        return {"spend": {"token": d["token"], "dice": sorted(rnd.sample(range(n), rnd.randint(0, n)))}}
    if kind == "pivot":
        if rnd.random() < 0.5:
            n = rnd.choice(d["units"])
            act = {"pivot": {n: round(rnd.uniform(0, 360), 2)}}
            try:
                RULESET.apply(state, seat, act)
                return act
            except EngineError:
                pass
        return {"pivot": {}}
    if kind == "surge":
        return {"surge": None}
    if kind == "react":
        legal = RULESET.legal_actions(state, seat) or [{"pass": True}]
        plays = legal[2:]
        if plays and rnd.random() < 0.5:
            return rnd.choice(plays)
        return legal[1] if rnd.random() < 0.2 else legal[0]
    if kind == "discard":
        hand = state["players"][seat]["hand"]
        if d.get("count"):
            return {"discard": rnd.sample(hand, d["count"])}
        return {"discard": rnd.sample(hand, rnd.randint(0, min(1, len(hand))))}
    if kind == "choose":
        legal = RULESET.legal_actions(state, seat) or []
        return rnd.choice(legal) if legal else RULESET.default_action(state, seat)
    if kind == "deploy":
        name = next(n for n, u in state["units"].items() if u["seat"] == seat and not u["on_table"]
                    and not u["destroyed"])
        W, H = state["table"]
        first = seat == state["seats"][0]
        for _ in range(20):
            at = [round(rnd.uniform(3, W - 3), 2), round(rnd.uniform(5, state["deploy_depth"]), 2)]
            if not first:
                at[1] = round(H - at[1], 2)
            act = {"deploy": {"unit": name, "at": at, "facing": 0 if first else 180}}
            try:
                RULESET.apply(state, seat, act)
                return act
            except EngineError:
                continue
        return RULESET.default_action(state, seat)
    if kind == "redeploy":
        return {"redeploy": None}
    return RULESET.default_action(state, seat)


def bot_action(state: State, seat: str) -> Action:
    """Greedy: charge when it can, attack when engaged, else close in on the nearest enemy; NCUs take
    the crown or the letter zone."""
    from games.engine.minis import RULESET

    d = state["decision"]
    kind = d["kind"]
    if kind == "activate":
        left = flow.activations_left(state, seat)
        ranked = sorted(left, key=lambda n: (0 if n in state["units"] and (
            T.engaged_with(state, n) or _charges(state, n)) else 1, left.index(n)))
        return {"activate": ranked[0]}
    if kind == "action":
        act = state["act"]
        name = act["unit"]
        if act["ncu"]:
            if state["mode"] == "here_we_stand":
                # Here We Stand: the NCU's points count in a quadrant (M123); put them where they
                # tip a quadrant the seat does not control yet
                pts = flow.quadrant_points(state)
                opp = T.opponent(state, seat)
                taken = {n["quadrant"] for i, n in state["ncus"].items() if n["seat"] == seat and i != name}
                best = sorted((q for q in ("sw", "se", "nw", "ne") if q not in taken),
                              key=lambda q: (flow.quadrant_control(state)[q] == seat, -pts[q][seat] + pts[q][opp]))
                if best:
                    return {"place": best[0]}
            for z in ("crown", "letter", "money"):
                if not state["board"][z]:
                    return {"claim": z}
            return {"no_action": True}
        engaged = T.engaged_with(state, name)
        if engaged:
            weakest = min(engaged, key=lambda e: state["units"][e]["wounds"])
            return {"attack": {"target": weakest}}
        ch = _charges(state, name)
        if ch:
            return ch[0]
        return _hold_ground(state, seat, name)
    if kind == "reroll":
        la = state["last_attack"]
        return {"reroll": [i for i, f in enumerate(la["attack_dice"]) if f != 6 and (f == 1 or f < la["to_hit"])]}
    if kind == "spend":
        if d["dice"] == "attack":
            la = state["last_attack"]
            return {"spend": {"token": d["token"], "dice": [i for i, f in enumerate(la["attack_dice"])
                                                            if f == 6 or (f != 1 and f >= la["to_hit"])]}}
        if d["dice"] == "defense":
            la = state["last_attack"]
            return {"spend": {"token": d["token"], "dice": [i for i, f in enumerate(la["defense_dice"])
                                                            if f == 6 or (f != 1 and f >= la["defense_save"])]}}
        return {"spend": {"token": d["token"], "dice": [0, 1]}}
    if kind == "choose" and d.get("zone") == "swords":
        legal = [a for a in (RULESET.legal_actions(state, seat) or []) if a["choose"]]
        if legal:
            return legal[0]
    return RULESET.default_action(state, seat)


def _hold_ground(state: State, seat: str, name: str) -> Action:
    """Here We Stand: spread out, one unit to a quadrant the seat does not hold, towards its centre,
    keeping out of charge reach when it can."""
    W, H = state["table"]
    centres = {"sw": (W / 4, H / 4), "se": (3 * W / 4, H / 4), "nw": (W / 4, 3 * H / 4), "ne": (3 * W / 4, 3 * H / 4)}
    mine = {T.quadrant(state, n) for n in T.live(state, seat) if n != name}
    here = T.quadrant(state, name)
    if here not in mine:
        return {"no_action": True}
    goals = [q for q in ("sw", "se", "nw", "ne") if q not in mine] or [here]
    u = state["units"][name]
    w, d = T.size(state, name)
    c = G.centre(u["at"], u["facing"], d)
    goal = min(goals, key=lambda q: math.hypot(centres[q][0] - c[0], centres[q][1] - c[1]))
    gx, gy = centres[goal]
    face = G.norm_angle(math.degrees(math.atan2(gx - c[0], gy - c[1])))
    dist = math.hypot(gx - c[0], gy - c[1])
    sp = T.speed(state, name)
    for kind, reach in (("march", 2 * sp), ("maneuver", sp)):
        for frac in (1.0, 0.75, 0.5, 0.25):
            step = round(min(reach, dist) * frac, 2)
            act = ({"maneuver": {"face": round(face, 2), "forward": step}} if kind == "maneuver"
                   else {"march": {"forward": step}})
            if kind == "march" and abs((face - u["facing"] + 180) % 360 - 180) > 20:
                continue
            if _ok(state, seat, act):
                return act
    return {"no_action": True}


def check_invariants(state: State) -> None:
    """Raises AssertionError when the state breaks an invariant of the table or the scores."""
    live = T.live(state)
    polys = {n: T.poly(state, n) for n in live}
    for i, a in enumerate(live):
        assert G.on_table(polys[a], state["table"]), f"{a} is off the table"
        for b in live[i + 1:]:
            assert not G.overlaps(polys[a], polys[b]), f"{a} overlaps {b}"
    for n, u in state["units"].items():
        mx = T.max_wounds(T.ucard(state, n))
        if u["destroyed"]:
            assert u["wounds"] == 0 and n in state["players"][u["seat"]]["destroyed"], f"{n} destroyed badly"
        else:
            assert 1 <= u["wounds"] <= mx, f"{n} has {u['wounds']} wounds"
            assert 1 <= T.ranks_left(state, n) <= int(T.ucard(state, n).get("ranks", 1))
        assert len(set(u["conditions"])) == len(u["conditions"])
    for s in state["seats"]:
        assert state["vp"][s] == sum(x["vp"] for x in state["vp_log"] if x["seat"] == s), "VP without a source"
        assert len(state["players"][s]["hand"]) <= flow.HAND_MAX or (
            state["decision"] and state["decision"]["kind"] == "discard"), "hand over the limit"
    zones = [n["zone"] for n in state["ncus"].values() if n["zone"]]
    assert len(zones) == len(set(zones))
