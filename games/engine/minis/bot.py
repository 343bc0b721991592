"""The random player (moves sampled from the geometry, kept legal by the engine's own checks), the
engine's greedy player, and the invariants a game keeps after every action."""
from __future__ import annotations

import math
import random
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
    for e in T.enemies(state, seat):
        if G.distance(T.poly(state, name), T.poly(state, e)) > T.speed(state, name) + 6:
            continue
        # the face as it is sent (rounded) is the one checked: a pivot to the unrounded bearing may reach
        # where the sent one falls a hair short (M64; seed 1000763 of the 4-player simulation)
        for face in (round(_bearing(state, name, e), 2), None):
            try:
                flow.charge_checks(state, name, e, face)
            except EngineError:
                continue
            out.append({"charge": {"target": e, **({"face": face} if face is not None else {})}})
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
    if kind == "action" and d.get("must_charge"):
        return {"charge": {"target": rnd.choice(d["must_charge"])}}
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
            if r < 0.9 and flow.can_retreat(state, name):
                return {"retreat": True}
            return {"no_action": True}
        # M78 Destructible (revision 2): a piece within 1 in may be attacked away (no draw from `rnd`
        # unless one is there, so games without such terrain play as before)
        near = [t["id"] for t in state["terrain"] if "destructible" in t["keywords"]
                and G.le(G.distance(T.poly(state, name), T.terrain_poly(t)), 1.0)] if T.revision(state) >= 2 else []
        if near and rnd.random() < 0.3:
            act = {"attack": {"terrain": rnd.choice(near)}}
            if _ok(state, seat, act):
                return act
        if rnd.random() < 0.6:
            ch = _charges(state, name)
            if ch:
                return rnd.choice(ch)
        if rnd.random() < 0.9:
            enemies = T.enemies(state, seat)
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
    if kind == "reroll" and d.get("dice") in ("charge", "retreat"):
        return {"reroll": rnd.choice([[], [0]])}
    if kind == "reroll":
        pos = flow.rerollable(state, state["last_attack"])
        return {"reroll": sorted(rnd.sample(pos, rnd.randint(0, len(pos))))}
    if kind == "spend":
        if rnd.random() < 0.5:
            return {"spend": None}
        if d["dice"] == "attack":
            n = len(state["last_attack"]["attack_dice"])
        elif d.get("faces") is not None:
            n = len(d["faces"])  # hits that are not an attack (Hold the Line!, Counterstrike)
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
    if kind == "deploy" and (T.multi(state) or {}).get("corners"):
        return RULESET.default_action(state, seat)  # M131: the 12 in square is packed from its corner
    if kind == "deploy":
        name = next(n for n, u in state["units"].items() if u["seat"] == seat and not u["on_table"]
                    and not u["destroyed"] and not u.get("left_out"))
        W, H = state["table"]
        first = flow.home_edge(state, seat) == "s"
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


def _home(state: State, seat: str) -> tuple[str, ...]:
    corner = (T.multi(state) or {}).get("corners", {}).get(seat)
    if corner:
        return (corner,)  # M131: the corner's quadrant
    return ("sw", "se") if flow.home_edge(state, seat) == "s" else ("nw", "ne")


def _rival(state: State, seat: str, pts: dict[str, dict[str, int]], q: str) -> int:
    """The most points an enemy has in quadrant `q` (an enemy team's together, M130)."""
    if not T.multi(state):
        return pts[q][T.opponent(state, seat)]
    sides: dict[str, int] = {}
    for s in T.enemy_seats(state, seat):
        sides[T.scorer(state, s)] = sides.get(T.scorer(state, s), 0) + pts[q][s]
    return max(sides.values(), default=0)


def _foe(state: State, seat: str, holder: str | None) -> bool:
    return holder is not None and T.is_enemy(state, seat, holder)


def _qcentre(state: State, seat: str, q: str) -> tuple[float, float]:
    """A point of quadrant `q` kept well back inside the seat's own half."""
    W, H = state["table"]
    x = W / 4 if q in ("sw", "nw") else 3 * W / 4
    y = 10.0 if flow.home_edge(state, seat) == "s" else H - 10.0
    return x, y


def _face_enemy(state: State, seat: str) -> float:
    return 0.0 if flow.home_edge(state, seat) == "s" else 180.0


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


def _melee_profile(state: State, name: str) -> dict[str, Any] | None:
    return next((a for a in T.ucard(state, name).get("attacks", []) if a.get("range") == "melee"), None)


def _expected(state: State, att: str, dfn: str, profile: dict[str, Any] | None, charge: bool = False,
              arc: str = "front") -> float:
    """The wounds `att`'s attack may be expected to do to `dfn` (dice at its ranks, to-hit, the
    defender's save; a charge re-rolls misses; a Flank or Rear attack counted higher)."""
    if not profile:
        return 0.0
    dice = profile["dice"]
    n = int(dice[min(T.ranks_lost(state, att), len(dice) - 1)])
    ph = min(1.0, max(1 / 6, (7 - int(profile["hit"])) / 6))
    if charge:
        ph = 1 - (1 - ph) ** 2
    save = int(T.ucard(state, dfn).get("defense_save") or 7)
    pf = min(1.0, max(1 / 6, (save - 1) / 6))
    return n * ph * pf * {"front": 1.0, "flank": 1.3, "rear": 1.6}.get(arc, 1.0)


def _charge_value(state: State, name: str, ch: Action) -> float | None:
    """A charge's worth: the odds of reaching (Speed + D6 against the gap) times the wounds it should
    do, less the wounds the target should do back; None when it is not worth making."""
    t = ch["charge"]["target"]
    gap = G.distance(T.poly(state, name), T.poly(state, t))
    need = gap - T.speed(state, name)
    p = 1.0 if need <= 1 else max(0.0, (7 - math.ceil(need - 1e-6)) / 6)
    late = state["round"] >= 5  # the last rounds: a kill is a victory point the enemy has no time to answer
    if p < (0.34 if late else 0.5):
        return None
    arc = T.arc_seen_by(state, t, name)[0]
    mine = _expected(state, name, t, _melee_profile(state, name), charge=True, arc=arc)
    back = _expected(state, t, name, _melee_profile(state, t))
    kill = mine >= state["units"][t]["wounds"]
    if mine < (0.4 if late else 0.6) * back and arc == "front" and not kill:
        return None
    # a failed charge leaves the unit panicked 1 in from the target, charged next (its charge's worth)
    return p * (mine + (4.0 if kill else 0.0)) - 0.5 * back - (1 - p) * _expected(
        state, t, name, _melee_profile(state, t), charge=True)


def _best_charge(state: State, name: str) -> Action | None:
    best = None
    for ch in _charges(state, name):
        v = _charge_value(state, name, ch)
        if v is not None and (best is None or v > best[0]):
            best = (v, ch)
    return best[1] if best else None


def _ranged(state: State, seat: str, name: str) -> Action | None:
    """A ranged attack (M51-M55) on the enemy it should hurt most, with the 2 in shift if needed."""
    profiles = [a for a in T.ucard(state, name).get("attacks", []) if a.get("range") in ("short", "long")]
    if not profiles or T.engaged_with(state, name):
        return None
    best = None
    for e in T.enemies(state, seat):
        if G.distance(T.poly(state, name), T.poly(state, e)) > 14.5:
            continue
        for prof in profiles:
            val = _expected(state, name, e, prof)
            for shift in (None, "forward", "left", "right"):
                act = {"attack": {"target": e, "attack": prof["name"]}}
                if shift:
                    act["attack"]["shift"] = {"direction": shift, "distance": 2}
                if _ok(state, seat, act):
                    if best is None or val > best[0]:
                        best = (val, act)
                    break
    return best[1] if best else None


def _engaged_attack(state: State, name: str, engaged: list[str]) -> Action:
    def value(e: str) -> tuple[float, int]:
        arc = T.arc_seen_by(state, e, name)[0]
        exp = _expected(state, name, e, _melee_profile(state, name), arc=arc)
        return (exp + (3.0 if exp >= state["units"][e]["wounds"] else 0.0), -state["units"][e]["wounds"])
    return {"attack": {"target": max(engaged, key=value)}}


def _needed(state: State, seat: str, name: str) -> bool:
    """Here We Stand (M123): the unit holds a home quadrant that would be lost without it."""
    if state["mode"] != "here_we_stand":
        return False
    pts = flow.quadrant_points(state)
    here = T.quadrant(state, name)
    if here not in _home(state, seat):
        return False
    mine = T.unit_points(state, name) + (3 if T.is_commander_unit(state, name) else 0)
    left = pts[here][seat] - mine
    return not (left >= 5 and left > _rival(state, seat, pts, here))


def _target(state: State, seat: str, name: str) -> str | None:
    """The enemy to go for: near, hurt, and in a quadrant the enemy controls."""
    enemies = T.enemies(state, seat)
    if not enemies:
        return None
    control = flow.quadrant_control(state) if state["mode"] == "here_we_stand" else {}
    me = T.poly(state, name)

    def key(e: str) -> float:
        k = G.distance(me, T.poly(state, e)) + state["units"][e]["wounds"] * 0.4
        if _foe(state, seat, control.get(T.quadrant(state, e))):
            k -= 4
        return k
    return min(enemies, key=key)


def _safe(state: State, seat: str, name: str, at: list[float], facing: float) -> bool:
    """No enemy could charge the unit at this pose with good odds: every enemy tray more than its
    Speed + 2.5 in away (the older player charges at Speed + 2)."""
    p = T.poly(state, name, at, facing)
    for e in T.enemies(state, seat):
        if T.engaged_with(state, e):
            continue
        if G.distance(p, T.poly(state, e)) <= T.speed(state, e) + 2.5:
            return False
    return True


def _reach(state: State, seat: str, name: str, at: list[float], facing: float) -> bool:
    """Some enemy could reach the unit at this pose with a charge, whatever its die (Speed + 6)."""
    p = T.poly(state, name, at, facing)
    return any(G.distance(p, T.poly(state, e)) <= T.speed(state, e) + 6.5 for e in T.enemies(state, seat))


def _contest(state: State, seat: str, name: str) -> Action | None:
    """Here We Stand (M123): a unit its home quadrants do not need goes into the enemy quadrant
    holding the fewest enemy points, just past the centre line (the enemy controls a quadrant only
    with more points than ours there), staying out of the enemy's likely charges (_safe)."""
    pts = flow.quadrant_points(state)
    theirs = [q for q in ("sw", "se", "nw", "ne") if q not in _home(state, seat)]
    W, H = state["table"]
    spare = [n for n in T.live(state, seat) if not _needed(state, seat, n)]
    sx = sum(G.centre(state["units"][n]["at"], state["units"][n]["facing"], T.size(state, n)[1])[0]
             for n in spare) / max(1, len(spare))
    # every spare unit goes to the same enemy quadrant: the one with the fewest enemy points
    q = min(theirs, key=lambda x: (_rival(state, seat, pts, x), abs((W / 4 if x in ("sw", "nw") else 3 * W / 4) - sx)))
    k = spare.index(name) if name in spare else 0
    qx = W / 4 if q in ("sw", "nw") else 3 * W / 4
    gx = qx + (0.0, -6.0, 6.0, -9.5, 9.5)[k % 5]
    first = flow.home_edge(state, seat) == "s"
    gy = H / 2 + 1.5 + 6.0 * (k // 5) if first else H / 2 - 1.5 - 6.0 * (k // 5)
    if (T.multi(state) or {}).get("corners"):
        # M131: the quadrant's own centre (any quadrant may be an enemy corner's)
        gy = H / 4 if q[0] == "s" else 3 * H / 4
    face = _face_enemy(state, seat)
    return _go(state, seat, name, (gx, gy), face)


def _go(state: State, seat: str, name: str, goal: tuple[float, float], face: float,
        safe: bool = True) -> Action | None:
    """The legal, safe (_safe) maneuver bringing the tray's centre nearest `goal`, ending facing
    `face` (or the way it moved): straight at it first, then turned up to 60 degrees either way."""
    u = state["units"][name]
    w, dep = T.size(state, name)
    me = G.centre(u["at"], u["facing"], dep)
    dist = math.hypot(goal[0] - me[0], goal[1] - me[1])
    if dist < 1.0:
        return None
    bearing = G.norm_angle(math.degrees(math.atan2(goal[0] - me[0], goal[1] - me[1])))
    sp = T.speed(state, name)
    # a unit slower than the enemy's fastest marches to be in place in time (a faster one keeps the
    # Maneuver's freedom): far from the goal it ends its Maneuver facing the way on, then Marches
    slow = sp < max((T.speed(state, e) for e in T.enemies(state, seat)), default=0)
    if slow and dist > sp + 1.0 and abs((bearing - u["facing"] + 180) % 360 - 180) <= 12:
        # far and facing it: a March (M43-M45, twice the Speed, no pivot before) covers more ground
        for fwd in (min(2 * sp, dist - 0.5), 1.5 * sp):
            for ef in (face, u["facing"]):
                c = G.translate(u["at"], u["facing"], "forward", fwd)
                at = G.pivot(c, u["facing"], ef, dep)
                if safe and _reach(state, seat, name, list(at), ef):
                    continue  # a March only far from the enemy: out of any charge's reach (Speed + 6)
                act = {"march": {"forward": round(fwd, 2), "end_face": round(ef, 2)}}
                if _ok(state, seat, act):
                    return act
    best = None
    tries = 0
    for turn in (0, 30, -30, 60, -60):
        b = G.norm_angle(bearing + turn)
        for frac in (1.0, 0.6, 0.3):
            fwd = round(min(sp, dist) * frac, 2)
            c = G.translate(G.pivot(u["at"], u["facing"], b, dep), b, "forward", fwd)
            left = math.dist(G.centre(c, b, dep), goal)
            if left >= dist - 0.5 or (best is not None and left >= best[0]):
                continue
            # far from the goal and from the enemy: end facing the way on, so that the next
            # activation may March
            far = slow and left > 2 * sp and not _reach(state, seat, name, list(G.pivot(c, b, b, dep)), b)
            for ef in ((b, face) if far else (face, b)):
                at = G.pivot(c, b, ef, dep)
                if safe and not _safe(state, seat, name, list(at), ef):
                    continue
                act = {"maneuver": {"face": round(b, 2), "forward": fwd, "end_face": round(ef, 2)}}
                tries += 1
                if _ok(state, seat, act):
                    best = (left, act)
                    break
            if tries > 14:
                break
        if best is not None and turn == 0:
            break
    return best[1] if best else None


def _advance(state: State, seat: str, name: str, safe: bool = True) -> Action | None:
    """Close on the target as far as is safe (_safe: out of its likely charge; with `safe` false as
    far as it may), facing it, so that a charge next turn has fair odds (Speed + D6 against the gap)."""
    t = _target(state, seat, name)
    if t is None:
        return None
    sp = T.speed(state, name)
    u = state["units"][name]
    w, dep = T.size(state, name)
    gap = G.distance(T.poly(state, name), T.poly(state, t))
    if gap > sp + 3.5 + sp:
        return None  # too far to matter this turn: _contest moves it
    face = round(_bearing(state, name, t), 2)
    best = None
    for fwd in (sp, 0.75 * sp, 0.5 * sp, 0.25 * sp, 0.0):
        at = G.translate(G.pivot(u["at"], u["facing"], face, dep), face, "forward", fwd)
        if safe and not _safe(state, seat, name, list(at), face):
            continue
        g = G.distance(T.poly(state, name, list(at), face), T.poly(state, t))
        if g < 1.2:
            continue
        if fwd == 0 and abs((face - u["facing"] + 180) % 360 - 180) <= 8:
            return None
        act = {"maneuver": {"face": face, "forward": round(fwd, 2), "end_face": face}}
        if _ok(state, seat, act):
            best = act
            break
    return best


def _ffa(state: State) -> bool:
    return bool((T.multi(state) or {}).get("corners"))


def _hunt(state: State, seat: str, name: str) -> Action | None:
    """A free-for-all (M131): a unit its corner does not need goes for the nearest, weakest enemy
    (_target: the enemies holding a quadrant first), as close as it may to charge it next turn, not
    keeping out of charges (every other player is an enemy: holding back leaves each corner to its
    owner and the game to a draw)."""
    t = _target(state, seat, name)
    if t is None:
        return None
    act = _advance(state, seat, name, safe=False)
    if act:
        return act
    c = T.poly(state, t).centroid
    return _go(state, seat, name, (c.x, c.y), _bearing(state, name, t), safe=False)


def bot_action(state: State, seat: str) -> Action:
    """The engine's player (issue 32): it fights. Engaged, it attacks the enemy it hurts most; a
    charge is made when the odds favour it (Speed + D6 likely to reach, more wounds given than taken,
    or a Flank or Rear, or a kill); a unit with a ranged attack shoots; a unit its home quadrant
    needs (Here We Stand, M123) holds it, the others close on the enemy, the hurt and those holding
    enemy quadrants first, to charge next turn and contest those quadrants. NCUs claim the zone that
    helps most or place themselves where they tip a quadrant; every card and Order that applies is
    played. The player before issue 32 is bot_v1.py."""
    from games.engine.minis import RULESET

    d = state["decision"]
    kind = d["kind"]
    if kind == "react":
        return _react(state, seat)
    if kind == "activate":
        left = flow.activations_left(state, seat)

        def rank(n: str) -> tuple[int, int]:
            if n in state["ncus"]:
                return (2, left.index(n))
            if T.engaged_with(state, n) or _best_charge(state, n) or _ranged(state, seat, n):
                return (0, left.index(n))
            return (3 if _needed(state, seat, n) else 1, left.index(n))
        return {"activate": min(left, key=rank)}
    if kind == "action" and d.get("must_charge"):
        return {"charge": {"target": d["must_charge"][0]}}  # Uncontrolled Rage
    if kind == "action":
        act = state["act"]
        name = act["unit"]
        if act["ncu"]:
            return _ncu(state, seat, name)
        engaged = T.engaged_with(state, name)
        if engaged:
            return _engaged_attack(state, name, engaged)
        ch = _best_charge(state, name)
        if ch:
            return ch
        shot = _ranged(state, seat, name)
        if shot:
            return shot
        if act.get("pre_maneuver"):
            return {"no_action": True}
        if _needed(state, seat, name):
            return _hold(state, seat, name)
        if _ffa(state):
            return _hunt(state, seat, name) or _hold(state, seat, name)
        if state["mode"] == "here_we_stand":
            return _advance(state, seat, name) or _contest(state, seat, name) or _hold(state, seat, name)
        return _advance(state, seat, name) or _hold(state, seat, name)
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
        # an enemy unit, not a Destructible piece (revision 5): the engine's player attacks units only
        legal = [a for a in (RULESET.legal_actions(state, seat) or []) if a["choose"] and "terrain" not in a["choose"]]
        if legal:
            return legal[0]
    if kind == "choose" and d.get("zone") == "crown":
        return {"choose": {"unit": min(T.enemies(state, seat), key=lambda n: state["units"][n]["wounds"])}}
    if kind == "choose" and d.get("what") == "go_down_fighting":
        return {"choose": min(d["enemies"], key=lambda e: (state["units"][e]["wounds"], d["enemies"].index(e)))}
    if kind == "choose" and d.get("what") == "ncu_ability":
        return (RULESET.legal_actions(state, seat) or [{"choose": None}])[0]  # Cersei's, Sansa's: taken
    if kind == "choose" and d.get("what") == "influence":
        mine = [c for c in flow.influence_choices(state) if state["units"][c["unit"]]["seat"] == seat]
        if mine:
            return {"choose": max(mine, key=lambda c: (T.ranks_lost(state, c["unit"]), "condition" in c))}
    if kind == "redeploy":
        return _redeploy(state, seat)
    if kind == "deploy":
        return _deploy(state, seat)
    return RULESET.default_action(state, seat)


def _zone_pick(state: State, seat: str) -> str | None:
    """The empty zone that helps most now: the Combat zone's free attack when a friendly unit is
    engaged, the Wealth zone when one is hurt, then the Crown, the Letter and the rest."""
    empty = [z for z in data.ZONES if not state["board"][z]]
    if not empty:
        return None
    mine = T.live(state, seat)
    order = []
    if any(T.engaged_with(state, n) for n in mine):
        order.append("swords")
    if any(T.max_wounds(T.ucard(state, n)) - state["units"][n]["wounds"] >= 3 or state["units"][n]["conditions"]
           for n in mine):
        order.append("money")
    order += ["crown", "letter", "money", "swords", "horse"]
    return next(z for z in order if z in empty)


def _ncu(state: State, seat: str, name: str) -> Action:
    if state["mode"] == "here_we_stand":
        pts = flow.quadrant_points(state)
        taken = {n["quadrant"] for i, n in state["ncus"].items() if n["seat"] == seat and i != name}
        cost = data.cost(data.card(T.ncu_card(name)))
        tips = [q for q in _home(state, seat) if q not in taken and flow.quadrant_control(state)[q] != seat
                and pts[q][seat] + cost >= 5 and pts[q][seat] + cost > _rival(state, seat, pts, q)]
        if tips:
            return {"place": tips[0]}
        here = state["ncus"][name]["quadrant"]
        if here and flow.quadrant_control(state)[here] == seat and pts[here][seat] - cost < 5:
            return {"no_action": True}  # its points hold that quadrant: it stays
        # an enemy quadrant its points would take from the enemy
        deny = [q for q in ("sw", "se", "nw", "ne") if q not in _home(state, seat) and q not in taken
                and _foe(state, seat, flow.quadrant_control(state)[q])
                and pts[q][seat] + cost >= _rival(state, seat, pts, q)]
        if deny and not here:
            return {"place": deny[0]}
    z = _zone_pick(state, seat)
    return {"claim": z} if z else {"no_action": True}


def _hold(state: State, seat: str, name: str) -> Action:
    pts = flow.quadrant_points(state)
    home = _home(state, seat)
    here = T.quadrant(state, name)
    mine = T.unit_points(state, name) + (3 if T.is_commander_unit(state, name) else 0)

    def short(q: str) -> bool:
        return pts[q][seat] < 5 or pts[q][seat] <= _rival(state, seat, pts, q)

    goal_q = None
    if here not in home:
        goal_q = min(home, key=lambda q: (not short(q), q))
    elif len(home) > 1:
        other = home[1] if here == home[0] else home[0]
        spare = pts[here][seat] - mine >= 5 and pts[here][seat] - mine > _rival(state, seat, pts, here)
        if short(other) and spare:
            goal_q = other
    if goal_q:
        act = _walk(state, seat, name, _qcentre(state, seat, goal_q), _face_enemy(state, seat))
        if act:
            return act
    # in place: face the nearest enemy so that it can see (and charge) what comes
    enemies = T.enemies(state, seat)
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
                and not u["destroyed"] and not u.get("left_out"))
    W, H = state["table"]
    if (T.multi(state) or {}).get("corners"):
        return RULESET.default_action(state, seat)  # M131: the 12 in square packed from its corner
    first = flow.home_edge(state, seat) == "s"
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
    first = flow.home_edge(state, seat) == "s"
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


MOVE_KINDS = ("maneuver", "march", "retreat", "shift", "surge", "pivot")


def check_invariants(state: State, events: list[dict[str, Any]] | None = None) -> None:
    """Raises AssertionError when the state breaks an invariant of the table or the scores. With the
    action's events: no unit that moved (other than by a Charge, M74's exception) ends within 1 in
    of an enemy it is not engaged with."""
    live = T.live(state)
    for e in events or []:
        if e.get("type") in ("move", "redeploy") and e.get("kind", "redeploy") in MOVE_KINDS + ("redeploy",) \
                and e["unit"] in live and not e.get("stays"):
            n = e["unit"]
            seat = state["units"][n]["seat"]
            engaged = set(T.engaged_with(state, n))
            for x in T.enemies(state, seat):
                if x not in engaged:
                    gap = G.distance(T.poly(state, n), T.poly(state, x))
                    assert gap > 1.0, f"{n} ends {gap:.2f} in from {x} after a {e.get('kind', 'redeploy')} (M74)"
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
    for k in state["vp"]:
        assert state["vp"][k] == sum(x["vp"] for x in state["vp_log"] if x.get("team", x["seat"]) == k), \
            "VP without a source"
    m = T.multi(state)
    if m:
        # M131, M130: an eliminated player has no combat unit on the table and never holds the turn;
        # the First Player token is a player still in the game (while the game goes on)
        for s in m["eliminated"]:
            assert not T.live(state, s), f"{s} is eliminated with units on the table"
            assert state["turn"] != s, f"{s} is eliminated and holds the turn"
        if not state["over"] and state["phase"] != "deployment":
            assert state["first_player"] in T.in_game(state), "the First Player token is with an eliminated seat"
        if state["decision"]:
            assert not set(state["decision"]["seats"]) & set(m["eliminated"]), "an eliminated seat is asked"
    for s in state["seats"]:
        assert len(state["players"][s]["hand"]) <= flow.HAND_MAX or (
            state["decision"] and state["decision"]["kind"] == "discard"), "hand over the limit"
    zones = [n["zone"] for n in state["ncus"].values() if n["zone"]]
    assert len(zones) == len(set(zones))
    for x in state["vp_log"]:
        src = x["source"]
        if src.startswith("destroyed:"):
            u = state["units"][src.split(":", 1)[1]]
            assert T.is_enemy(state, u["seat"], x["seat"]) and x["vp"] == 1, f"VP for {src} to the wrong seat"
        else:
            assert src.startswith("quadrant:") and x["round"] >= 2 and x["vp"] == 1, f"VP from {src}"


def play_game(seed: int, players: dict[str, str] | None = None, check: bool = True,
              options: dict[str, Any] | None = None, seats: int = 2, mirror: str | None = None) -> dict[str, Any]:
    """One seeded game: each seat `random` (the random player), `bot` (bot_action) or `bot_v1` (the
    player before issue 32, bot_v1.py); the
    invariants after every action when `check`. `mirror` (two players): a house, whose two armies meet
    (seats `stark` and `stark_2`). Returns {state, actions, seconds_per_check}."""
    from games.engine.minis import RULESET as R

    players = players or {}
    rnd = random.Random(seed)
    names = [mirror, f"{mirror}_2"] if mirror and seats == 2 else R.seat_names(seats)
    state = R.new_game(names, options or {}, seed)
    actions = 0
    while not R.is_over(state):
        seat = rnd.choice(sorted(R.pending(state)))
        who = players.get(seat, "random")
        if who == "bot":
            action = R.bot_action(state, seat)
        elif who == "bot_v1":
            from games.engine.minis import bot_v1

            action = bot_v1.bot_action(state, seat)
        else:
            action = R.random_action(state, seat, rnd)
        state, events = R.apply(state, seat, action)
        actions += 1
        if check:
            check_invariants(state, events)
        if actions > 5000 * max(1, seats - 1):
            raise RuntimeError("the game does not end")
    return {"state": state, "actions": actions}
