"""Reading the state: cards, trays, ranks, engagement, quadrants, dice. No rules flow here."""
from __future__ import annotations

import math
import re
from typing import Any

from games.engine import rng
from games.engine.minis import data
from games.engine.minis import geometry as G
from games.engine.narration import gettext, join, ngettext, pgettext

# The engine's rules revision a game was started under (option `revision`, setup.py): a game keeps
# the rules of its revision, so that its action log replays to the same states. 1: the rules up to
# issue 32's starter abilities (each declared card or Order resolved as soon as it was declared, the
# M70 push-back of every other enemy, the Combat zone's attack without re-facing, alignment or a
# shift, the Wealth zone's removal optional, sampled line of sight, terrain keywords other than
# Impassable, Rough, Blocks LoS and Cover without effect); 2: issue 32's framework (docs/engine-minis.md);
# 3: line of sight exact to the tolerance (a gap wider than 0.01 in gives sight), Dangerous terrain
# entered by moves a unit does not make itself (pushed, aligned, an attack's re-face or shift, a Surge,
# a zone's or card's move) and To The Last! (20205); 4: a seat with nothing left to activate still takes its
# turn's start and end windows (M29), Subjugation of Power's "cannot be targeted by its own side's Tactics
# cards", the NCU abilities Playing The Game (Cersei) and Repeating the Words (Sansa); 5: the random
# terrain's 7 (the player's choice, M22) is a hill (Elevated, an agreed piece: seed 2008-2011) instead of a
# Forest, the Combat zone's free Attack may attack a Destructible piece within 1 in (M35, M78), and M78
# Dangerous wounds a unit making a zone's or a card's free action on a piece (flow.free_action_dangerous).
REVISION = 5


def revision(state: dict[str, Any]) -> int:
    return int(state["options"].get("revision", REVISION))


State = dict[str, Any]


class DiceExhausted(Exception):
    """A scenario's `setup.dice` ran out (SCENARIOS.md: the scenario fails, `dice exhausted`)."""


def opponent(state: State, seat: str) -> str:
    """The other seat of a two-player game. With three or four players (`multi`, M130-M131): the
    enemy seat acting for "the opponent" where a rule names one (a spent Panicked or Vulnerable
    token, Counterplot's answer...): the seat whose turn it is when it is an enemy, else the first
    enemy seat still in the game to the left (clockwise) of `seat` (docs/rules-decisions.md)."""
    if not state.get("multi"):
        a, b = state["seats"]
        return b if seat == a else a
    turn = state.get("turn")
    if turn and is_enemy(state, seat, turn) and turn in in_game(state):
        return turn
    for s in clockwise(state, seat)[1:]:
        if is_enemy(state, seat, s) and s in in_game(state):
            return s
    return next(s for s in clockwise(state, seat)[1:] if is_enemy(state, seat, s))


# ---------------------------------------------------------------------- several players (M130, M131)


def multi(state: State) -> dict[str, Any] | None:
    """The multiplayer record: {kind: ffa | teams, teams: {seat: team}, corners: {seat: corner},
    eliminated: [seats, in order]}; None for a two-player game."""
    return state.get("multi")


def team(state: State, seat: str) -> str:
    m = state.get("multi")
    if m and m.get("teams"):
        return m["teams"][seat]
    return seat


def is_enemy(state: State, a: str, b: str) -> bool:
    """M130: teammates' units are friendly; M131: every other player's units are enemies."""
    return a != b and team(state, a) != team(state, b)


def enemy_seats(state: State, seat: str) -> list[str]:
    return [s for s in state["seats"] if is_enemy(state, seat, s)]


def friendly_seats(state: State, seat: str) -> list[str]:
    return [s for s in state["seats"] if not is_enemy(state, seat, s)]


def enemies(state: State, seat: str) -> list[str]:
    """Every enemy combat unit on the table, in setup order (two players: the opponent's)."""
    if not state.get("multi"):
        return live(state, opponent(state, seat))
    foes = set(enemy_seats(state, seat))
    return [n for n in live(state) if state["units"][n]["seat"] in foes]


def friendly(state: State, seat: str) -> list[str]:
    """Every friendly combat unit on the table, in setup order: the seat's own and, in a team game,
    its teammates' (M130: "teammates' effects and units are friendly")."""
    if not state.get("multi"):
        return live(state, seat)
    own = set(friendly_seats(state, seat))
    return [n for n in live(state) if state["units"][n]["seat"] in own]


def in_game(state: State) -> list[str]:
    """The seats not eliminated (M131, M128), in seating order."""
    m = state.get("multi")
    gone = set(m["eliminated"]) if m else set()
    return [s for s in state["seats"] if s not in gone]


def clockwise(state: State, seat: str) -> list[str]:
    """Every seat, starting with `seat`, then the one on its left and so on (M131: the seats' order
    is the seating order, clockwise round the table)."""
    seats = state["seats"]
    i = seats.index(seat)
    return seats[i:] + seats[:i]


def next_left(state: State, seat: str) -> str:
    """The next seat still in the game to the left of `seat` (M131: clockwise); with teams (M130:
    the token and the turn pass between teams) the next enemy seat still in the game, clockwise."""
    gone = set((state.get("multi") or {}).get("eliminated", []))
    teams = team_game(state)
    for s in clockwise(state, seat)[1:]:
        if s not in gone and (not teams or is_enemy(state, seat, s)):
            return s
    return seat


def team_game(state: State) -> bool:
    m = state.get("multi")
    return bool(m and m.get("teams"))


def scorer(state: State, seat: str) -> str:
    """Who holds the VP a seat scores: the seat, or with teams its team (M130)."""
    return team(state, seat)


def ncu_card(key: str) -> str:
    """An NCU's card id from its key: a house played twice (M131) brings a second copy, `30201_2`."""
    return re.sub(r"_[0-9]+$", "", key)


def faction_of(seat: str) -> str:
    """A seat's house: the seat's name without a `_2` suffix (a house played twice, M131)."""
    return re.sub(r"_[0-9]+$", "", seat)


def ucard(state: State, name: str) -> dict[str, Any]:
    return data.card(state["units"][name]["card"], state.get("cards"))


def acard(state: State, name: str) -> dict[str, Any] | None:
    a = state["units"][name].get("attachment")
    return data.card(a, state.get("cards")) if a else None


def abilities(state: State, name: str) -> set[str]:
    """Ability names of the unit and its attachment (M10); an Influence adds its own (M38)."""
    u = state["units"][name]
    if u.get("silenced") is not None and u["silenced"] == state.get("turn_no"):
        return set()  # Subjugation of Power: no abilities until the end of the turn
    names = data.ability_names(ucard(state, name)) | data.ability_names(acard(state, name))
    return names


def max_wounds(c: dict[str, Any]) -> int:
    return int(c.get("wounds") or c["figures"] * c.get("wounds_per_figure", 1))


def figures_left(state: State, name: str) -> int:
    c = ucard(state, name)
    w = state["units"][name]["wounds"]
    return math.ceil(w / int(c.get("wounds_per_figure", 1)))


def per_rank(c: dict[str, Any]) -> int:
    return max(1, int(c["figures"]) // int(c.get("ranks", 1)))


def ranks_left(state: State, name: str) -> int:
    """M91: figures leave the rearmost rank; a rank is lost only with its last figure."""
    c = ucard(state, name)
    return math.ceil(figures_left(state, name) / per_rank(c))


def ranks_lost(state: State, name: str) -> int:
    return int(ucard(state, name).get("ranks", 1)) - ranks_left(state, name)


def size(state: State, name: str) -> tuple[float, float]:
    return data.tray_size(ucard(state, name))


def poly(state: State, name: str, at: Any = None, facing: float | None = None):
    u = state["units"][name]
    w, d = size(state, name)
    return G.tray(u["at"] if at is None else at, u["facing"] if facing is None else facing, w, d)


def live(state: State, seat: str | None = None) -> list[str]:
    """Combat units on the table, in setup order; a destroyed unit making its Last Stand (40213,
    `standing`) is on the table until its attack is done."""
    return [n for n, u in state["units"].items() if u["on_table"] and (not u["destroyed"] or u.get("standing"))
            and (seat is None or u["seat"] == seat)]


def engaged_with(state: State, name: str) -> list[str]:
    if name not in live(state):
        return []
    me = poly(state, name)
    seat = state["units"][name]["seat"]
    return [o for o in enemies(state, seat) if G.touches(me, poly(state, o))]


def speed(state: State, name: str) -> int:
    s = int(ucard(state, name)["speed"])
    if "Enhanced Mobility" in abilities(state, name):
        s += 1
    return s


def unit_points(state: State, name: str) -> int:
    u = state["units"][name]
    pts = data.cost(ucard(state, name))
    if u.get("attachment"):
        pts += data.cost(acard(state, name))
    return pts


def army_points(state: State, seat: str) -> int:
    return sum(unit_points(state, n) for n in live(state, seat))


def is_commander_unit(state: State, name: str) -> bool:
    a = acard(state, name)
    return bool(a and a.get("commander"))


def wedges(state: State, name: str) -> dict[str, Any]:
    u = state["units"][name]
    w, d = size(state, name)
    return G.wedges(u["at"], u["facing"], w, d)


def arc_seen_by(state: State, defender: str, attacker: str) -> tuple[str, list[str]]:
    """The defender's arc holding most of the attacker's tray (M82)."""
    return G.arc_of(wedges(state, defender), poly(state, attacker))


def quadrant_of_poly(state: State, p) -> str | None:
    from shapely.geometry import box

    W, H = state["table"]
    hx, hy = W / 2, H / 2
    quads = {"sw": box(0, 0, hx, hy), "se": box(hx, 0, W, hy), "nw": box(0, hy, hx, H), "ne": box(hx, hy, W, H)}
    areas = {q: float(b.intersection(p).area) for q, b in quads.items()}
    best = max(areas.values())
    if best <= 0:
        return None
    # an exact tie is the opponent's decision (M123); this engine takes the first in sw, se, nw, ne
    return next(q for q in ("sw", "se", "nw", "ne") if abs(areas[q] - best) <= G.TOL)


def quadrant(state: State, name: str) -> str | None:
    return quadrant_of_poly(state, poly(state, name))


def obstacles_for(state: State, viewer: str, target: str, ranged: bool):
    """Every other tray and obstructing terrain (M78, M81), terrain the viewer stands in excluded."""
    me = poly(state, viewer)
    polys = [poly(state, n) for n in live(state) if n not in (viewer, target)]
    for t in state["terrain"]:
        kw = t["keywords"]
        if "blocks_los" in kw or (ranged and "cover" in kw):
            tp = terrain_poly(t)
            if not tp.intersects(me):
                polys.append(tp)
    return G.obstacle_union(polys, exact=revision(state) >= 3)


def elevated(state: State, name: str) -> bool:
    """M78 Elevated (seed 2039-2041, revision 2): the unit is on an Elevated piece (reading: its tray's
    centre is inside it)."""
    if revision(state) < 2:
        return False
    u = state["units"][name]
    c = G.centre(u["at"], u["facing"], size(state, name)[1])
    from shapely.geometry import Point

    return any("elevated" in t["keywords"] and terrain_poly(t).covers(Point(c)) for t in state["terrain"])


def has_los(state: State, viewer: str, target: str, ranged: bool = False) -> bool:
    u = state["units"][viewer]
    w, d = size(state, viewer)
    # Elevated: a ranged attack from it ignores the units and terrain in between (the Front arc stays)
    obstacles = None if ranged and elevated(state, viewer) else obstacles_for(state, viewer, target, ranged)
    return G.line_of_sight(u["at"], u["facing"], w, d, poly(state, target), obstacles, exact=revision(state) >= 2,
                           grown=revision(state) == 2)


def sight(state: State, viewer: str, target: str, ranged: bool = False) -> str | None:
    """None when `viewer` has line of sight to `target` (has_los), else why not in words: the target
    is outside the Front arc (M81), or what stands between them, trays and terrain (M81, M78)."""
    from shapely.geometry import LineString
    from shapely.ops import unary_union

    u = state["units"][viewer]
    w, d = size(state, viewer)
    front = G.wedges(u["at"], u["facing"], w, d)["front"].intersection(poly(state, target))
    if front.is_empty or front.area <= G.TOL * G.TOL:
        return gettext("%(target)s is outside the Front arc of %(viewer)s") % {"target": target, "viewer": viewer}  # M81
    if has_los(state, viewer, target, ranged):
        return None
    fl, fr, _br, _bl = G.corners(u["at"], u["facing"], w, d)
    between = unary_union([LineString([fl, fr]), front]).convex_hull
    me = poly(state, viewer)
    names = [n for n in live(state) if n not in (viewer, target) and poly(state, n).intersection(between).area > 0.01]
    for t in state["terrain"]:
        kw = t["keywords"]
        tp = terrain_poly(t)
        if ("blocks_los" in kw or (ranged and "cover" in kw)) and not tp.intersects(me) \
                and tp.intersection(between).area > 0.01:
            terrain = _terrain_word(t["type"])
            names.append(gettext("the %(terrain)s (Cover)") % {"terrain": terrain} if "cover" in kw
                         else gettext("the %(terrain)s (Blocks LoS)") % {"terrain": terrain})
    what = join(names) if names else gettext("trays or terrain")
    return ngettext("%(viewer)s has no line of sight to %(target)s: %(what)s stands in the way",
                    "%(viewer)s has no line of sight to %(target)s: %(what)s stand in the way",
                    len(names)) % {"viewer": viewer, "target": target, "what": what}  # M81, M78


def _terrain_word(kind: str) -> str:
    """A terrain type in a reason (the id in words in English; the rulebook's name in Spanish)."""
    words = {"forest": pgettext("terrain in a reason", "forest"),
             "corpse_pile": pgettext("terrain in a reason", "corpse pile"),
             "bog": pgettext("terrain in a reason", "bog"), "stakes": pgettext("terrain in a reason", "stakes"),
             "wall": pgettext("terrain in a reason", "wall"), "hedge": pgettext("terrain in a reason", "hedge"),
             "weirwood": pgettext("terrain in a reason", "weirwood"),
             "palisade": pgettext("terrain in a reason", "palisade"),
             "hill": pgettext("terrain in a reason", "hill")}
    return words.get(kind, kind.replace("_", " "))


def terrain_poly(t: dict[str, Any]):
    from shapely import affinity
    from shapely.geometry import Point, Polygon, box

    if "rect" in t:
        r = t["rect"]
        (cx, cy), (sx, sy) = r["center"], r["size"]
        b = box(cx - sx / 2, cy - sy / 2, cx + sx / 2, cy + sy / 2)
        return affinity.rotate(b, -float(r.get("rotation", 0)), origin=(cx, cy))
    if "circle" in t:
        c = t["circle"]
        return Point(c["center"]).buffer(float(c["radius"]), quad_segs=16)
    return Polygon(t["polygon"])


def roll(state: State, sides: int) -> int:
    """The next die: the scenario's scripted `dice`, else the game's generator."""
    if state.get("dice") is not None:
        if not state["dice"]:
            raise DiceExhausted("dice exhausted")
        v = int(state["dice"].pop(0))
        if not 1 <= v <= sides:
            raise DiceExhausted(f"scripted die {v} is not a D{sides} result")
        return v
    return rng.randint(state, 1, sides)


def hand_limit(state: State, seat: str) -> int:
    """Cards drawn back up to in Cleanup: 3, Tyrion's Tactical Mastermind 4."""
    for nid, n in state["ncus"].items():
        if n["seat"] == seat and "Tactical Mastermind" in data.ability_names(data.card(ncu_card(nid))):
            return 4
    return 3
