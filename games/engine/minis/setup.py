"""New games (army lists, roll-off, first player, alternating deployment: M1-M25) and scenario
games (the `setup` keys of SCENARIOS.md "minis")."""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

from games.engine import rng
from games.engine.base import EngineError, ScenarioSetupError
from games.engine.minis import armies as army_rules
from games.engine.minis import data, flow
from games.engine.minis import geometry as G
from games.engine.minis import table as T
from games.engine.narration import gettext

State = dict[str, Any]

MODES = ("here_we_stand",)
OPTION_KEYS = {"mode", "armies", "game_size", "reaction_prompts", "terrain", "revision", "multiplayer", "teams"}
# M131: the corners, in seating order, clockwise seen from above (the first seat's left corner first)
CORNERS = ("sw", "nw", "ne", "se")
MULTI_SEATS = ("stark", "lannister", "stark_2", "lannister_2")
# two players: Stark against Lannister, or a mirror match of one house's two armies (issue 33: the seed does not
# forbid it, the community plays it), seated as the house and its second army
DUELS = (("stark", "lannister"), ("stark", "stark_2"), ("lannister", "lannister_2"))
# M22: the 2D6 result -> the piece (7: the player's choice, read as a Forest up to revision 4; from
# revision 5 PLAYERS_CHOICE, docs/rules-decisions.md); footprints (the rules give none): round pieces 5 in
# across, linear ones 6 x 1 in
RANDOM_TERRAIN = {2: "corpse_pile", 3: "corpse_pile", 4: "bog", 5: "palisade", 6: "hedge", 7: "forest",
                  8: "wall", 9: "stakes", 10: "forest", 11: "weirwood", 12: "weirwood"}
# revision 5: "[7] A elección del jugador" (seed 2304) is the one piece no other result gives, the hill the
# players agree as Elevated (seed 2008-2011), so that random terrain over games carries every keyword of M78
PLAYERS_CHOICE = "hill"
ROUND_PIECES = ("forest", "corpse_pile", "bog", "weirwood", "hill")
SETUP_KEYS = {"table", "mode", "game_size", "round", "first_player", "turn", "vp", "armies", "units", "destroyed",
              "ncus", "terrain", "objectives", "hands", "decks", "deck_size", "discards", "card_tokens",
              "once_used", "dice"}
NAME_RE = re.compile(r"^[a-z0-9_]+$")


def _check_seats(seats: list[str]) -> None:
    if len(seats) in (3, 4):
        # M130, M131: three or four players; a house may be played twice (its second seat `stark_2`)
        if len(set(seats)) != len(seats) or any(s not in MULTI_SEATS for s in seats):
            raise EngineError("illegal_action", "the seats of three or four players are among "
                              + ", ".join(MULTI_SEATS) + ", each once")
        return
    if len(seats) != 2 or not any(set(seats) == set(d) for d in DUELS):
        raise EngineError("illegal_action", gettext(
            "two players sit at stark and lannister, or at one house's two armies (stark and stark_2, lannister and "
            "lannister_2)"))


def _multi(seats: list[str], opts: dict[str, Any]) -> dict[str, Any] | None:
    """The `multi` record of a game of three or four (T.multi): free-for-all (M131, the default) or
    teams (M130: four seats; `teams` {seat: team}, default the seats across the table from each other
    together: the first and third against the second and fourth)."""
    kind = opts.get("multiplayer")
    if len(seats) == 2:
        if kind not in (None, "duel"):
            raise EngineError("illegal_action", "multiplayer needs three or four seats")
        return None
    kind = kind or "ffa"
    if kind == "ffa":
        if opts.get("teams"):
            raise EngineError("illegal_action", "teams are for multiplayer: teams")
        return {"kind": "ffa", "corners": {s: CORNERS[i] for i, s in enumerate(seats)}, "eliminated": []}
    if kind != "teams":
        raise EngineError("illegal_action", "multiplayer is ffa or teams")
    if len(seats) != 4:
        raise EngineError("illegal_action", "a team game has four seats, two against two")
    teams = opts.get("teams") or {seats[0]: "a", seats[1]: "a", seats[2]: "b", seats[3]: "b"}
    if not isinstance(teams, dict) or set(teams) != set(seats) or sorted(teams.values()) != ["a", "a", "b", "b"]:
        raise EngineError("illegal_action", "teams: {seat: a | b}, two seats each")
    return {"kind": "teams", "teams": {s: teams[s] for s in seats}, "eliminated": []}


def _options(options: dict[str, Any], prompts: str = "all") -> dict[str, Any]:
    options = dict(options or {})
    extra = set(options) - OPTION_KEYS
    if extra:
        raise EngineError("illegal_action", f"unknown option {sorted(extra)[0]}")
    mode = options.get("mode", "here_we_stand")
    if mode not in MODES:
        raise EngineError("illegal_action", f"mode {mode!r}: only here_we_stand is implemented")
    rp = options.get("reaction_prompts", prompts)
    if rp not in ("playable", "all"):
        raise EngineError("illegal_action", "reaction_prompts is playable or all")
    # M130 (seed 2074-2076): a quick team game is 20 points per player (game_size 20: the quick lists)
    gs = options.get("game_size", 30)
    if not isinstance(gs, int) or isinstance(gs, bool) or gs < 1:
        raise EngineError("illegal_action", "game_size is a number of points")
    terrain = options.get("terrain", "none")
    if terrain not in ("none", "random"):
        raise EngineError("illegal_action", "terrain is none or random")
    revision = options.get("revision", T.REVISION)
    if not isinstance(revision, int) or isinstance(revision, bool) or not 1 <= revision <= T.REVISION:
        raise EngineError("illegal_action", f"option revision: 1 to {T.REVISION}")
    return {"mode": mode, "reaction_prompts": rp, "game_size": gs, "armies": options.get("armies") or {},
            "terrain": terrain, "revision": revision, "multiplayer": options.get("multiplayer"),
            "teams": options.get("teams")}


def _base(seats: list[str], opts: dict[str, Any], seed: int) -> State:
    return {
        "game": "minis", "seats": list(seats), "options": {"mode": opts["mode"],
                                                            "reaction_prompts": opts["reaction_prompts"],
                                                            # a game started under an earlier rules revision
                                                            # keeps it (table.revision), so its log replays
                                                            **({"revision": opts["revision"]}
                                                               if opts["revision"] != T.REVISION else {})},
        "rng": rng.seed_state(seed), "dice": None, "cards": {}, "table": [48.0, 48.0], "mode": opts["mode"],
        "game_size": opts["game_size"], "threshold": data.threshold(opts["game_size"]), "deploy_depth": 18.0,
        "round": 1, "phase": "activation", "first_player": seats[0], "turn": seats[0],
        "vp": {s: 0 for s in seats}, "vp_log": [], "units": {}, "ncus": {},
        "board": {z: None for z in data.ZONES}, "terrain": [], "objectives": [],
        "players": {s: {"hand": [], "deck": [], "discards": [], "destroyed": [], "list": None} for s in seats},
        "decision": None, "work": [], "active_unit": None, "act": None, "deploy": None,
        "last_attack": None, "last_charge": None, "last_retreat": None, "last_test": None,
        "over": False, "winner": None, "result": None, "once_used": {s: [] for s in seats}, "card_tokens": {},
    }


def _unit_record(seat: str, cid: str, attachment: str | None, wounds: int) -> dict[str, Any]:
    return {"seat": seat, "card": cid, "attachment": attachment, "at": None, "facing": 0.0, "wounds": wounds,
            "conditions": [], "activated": False, "order_used": False, "orders_used": [], "destroyed": False,
            "on_table": False, "influence": None}


def new_game(seats: list[str], options: dict[str, Any], seed: int) -> State:
    _check_seats(seats)
    opts = _options(options)
    multi = _multi(seats, opts)
    state = _base(seats, opts, seed)
    if multi:
        _multi_base(state, multi, opts)
    for s in seats:
        f = T.faction_of(s)
        if s in opts["armies"]:
            lst = data.read_list(f, opts["armies"].get(s))
        else:
            lst = data.default_list(f, opts["game_size"])
            if multi and multi.get("corners"):
                lst = _fit_corner(state, s, lst)
        data.check_list(f, lst, opts["game_size"])
        _check_team_characters(state, s, lst)
        state["players"][s]["list"] = lst
        _list_units(state, s, lst)
        if multi and multi.get("corners") and not _fits_corner(state, s):
            raise EngineError("illegal_action", f"the army of {s} does not fit its 12 in deployment square")
        for n in lst["ncus"]:
            key = n if n not in state["ncus"] else f"{n}_{sum(1 for k in state['ncus'] if T.ncu_card(k) == n) + 1}"
            state["ncus"][key] = {"seat": s, "zone": None, "quadrant": None, "activated": False}
        deck = data.deck_for(f, lst["commander"])
        rng.shuffle(state, deck)
        state["players"][s]["deck"] = deck
    if opts["terrain"] == "random":
        place_random_terrain(state)
    if multi:
        _multi_roll_off(state)
    else:
        _roll_off_and_deploy(state)
    flow.run(state, [])
    return state


def _multi_base(state: State, multi: dict[str, Any], opts: dict[str, Any]) -> None:
    """Three or four players: the table (M19: 48 x 48 in for a free-for-all, whose corners are its
    zones; the bigger 72 x 48 in for two against two), VP per team (M130)."""
    state["multi"] = multi
    if multi.get("teams"):
        state["table"] = [72.0, 48.0]
        state["vp"] = {t: 0 for t in sorted(set(multi["teams"].values()))}


def _check_team_characters(state: State, seat: str, lst: dict[str, Any]) -> None:
    """M130 (seed 2078-2080): the restrictions on characters extend to the whole team, a character appears once
    in it, whichever version (M7's reading, armies.characters). The same refusal, in the same cases, since the
    check was written (revision 1 on): no stored game's setup is refused on replay."""
    if not T.team_game(state):
        return
    for other in state["seats"]:
        olst = state["players"][other]["list"]
        if other != seat and olst and not T.is_enemy(state, seat, other):
            shared = army_rules.shared_characters(olst, lst)
            if shared:
                raise EngineError("illegal_action", army_rules.team_clash_words(
                    shared, _army_words(other), _army_words(seat)), ("M130", "M7"))


def _army_words(seat: str) -> str:
    """A seat's army in words: a team game seats each house twice (`stark`, `stark_2`)."""
    house = army_rules.house(T.faction_of(seat))
    if seat != T.faction_of(seat):
        return gettext("the second army of %(house)s") % {"house": house}
    return gettext("the first army of %(house)s") % {"house": house}


def _fits_corner(state: State, seat: str) -> bool:
    """Every combat unit of the seat can stand in its corner's square at once (M131, M24), tried on
    an empty table with the engine's own placement (flow.default_deploy)."""
    trial = {**state, "units": {n: dict(u) for n, u in state["units"].items() if u["seat"] == seat},
             "terrain": []}
    key = (state["multi"]["corners"][seat], tuple(state["table"]), tuple(T.size(trial, n) for n in trial["units"]))
    if key not in _FITS:
        try:
            for _ in range(len(trial["units"])):
                d = flow.default_deploy(trial, seat)["deploy"]
                trial["units"][d["unit"]].update(at=d["at"], facing=d["facing"], on_table=True)
            _FITS[key] = True
        except EngineError:
            _FITS[key] = False
    return _FITS[key]


_FITS: dict[tuple, bool] = {}  # (corner, table, the trays in order) -> they fit (the placement depends on nothing else)


def _fit_corner(state: State, seat: str, lst: dict[str, Any]) -> dict[str, Any]:
    """A free-for-all's default army: the house's fixed list, less its last combat units while they
    do not fit the 12 in corner square (the Stark list leaves Grey Wind: 27 points;
    docs/rules-decisions.md)."""
    lst = dict(lst, units=list(lst["units"]))
    while lst["units"]:
        probe = {**state, "units": {}}
        _list_units(probe, seat, lst)
        if _fits_corner(probe, seat):
            return lst
        lst["units"].pop()
    return lst


def _multi_roll_off(state: State) -> None:
    """M131: after the battlefield is set up, every player rolls 1D6 (in seating order), the highest
    rerolling ties among themselves, and becomes the First Player. M130 (teams): the setup of the
    mode is unchanged, the roll-off is between the teams (each team's first seat rolls): the winning
    team picks its zone (the south edge here) and its first seat is First Player. Deployment
    alternates one unit at a time from the First Player to the left (M24)."""
    m = state["multi"]
    rollers = list(state["seats"])
    if m.get("teams"):
        firsts: dict[str, str] = {}
        for s in state["seats"]:
            firsts.setdefault(m["teams"][s], s)
        rollers = list(firsts.values())
    rolls: dict[str, list[int]] = {s: [] for s in rollers}
    while len(rollers) > 1:
        faces = {s: T.roll(state, 6) for s in rollers}
        for s, f in faces.items():
            rolls[s].append(f)
        best = max(faces.values())
        rollers = [s for s in rollers if faces[s] == best]
    fp = rollers[0]
    state["phase"] = "deployment"
    state["first_player"] = fp
    state["turn"] = None
    state["round"] = 0
    state["deploy"] = {"roll": rolls, "picker": fp, "first_player_chooser": None, "next": fp}


def _list_units(state: State, seat: str, lst: dict[str, Any]) -> None:
    """The list's combat units, off the table, named after their cards (`stark_sworn_swords`, `_2`...)."""
    names: Counter[str] = Counter()
    for other in state["units"].values():  # a house played twice (M131): its units numbered on
        base = data.slug(data.card(other["card"], state.get("cards"))["name"])
        names[base] += 1
    for u in lst["units"]:
        c = data.card(u["unit"])
        base = data.slug(c["name"])
        names[base] += 1
        name = base if names[base] == 1 else f"{base}_{names[base]}"
        state["units"][name] = _unit_record(seat, u["unit"], u.get("attachment"), T.max_wounds(c))


def _roll_off_and_deploy(state: State) -> None:
    """M23: roll-off (rerolled ties, the first seat's die first); the winner picks the zone (the zones
    are the seats' table edges here: with no terrain both are alike) and deploys first; the other
    decides who is First Player (M24 follows as `deploy` decisions)."""
    seats = state["seats"]
    while True:
        a, b = T.roll(state, 6), T.roll(state, 6)
        if a != b:
            break
    picker = seats[0] if a > b else seats[1]
    state["phase"] = "deployment"
    state["first_player"] = None
    state["turn"] = None
    state["round"] = 0
    state["deploy"] = {"roll": [a, b], "picker": picker, "first_player_chooser": T.opponent(state, picker),
                       "next": picker}


def place_random_terrain(state: State) -> None:
    """M22 (random assortment): 1D3 + 2 pieces, each drawn on 2D6; placed as M21 and Here We Stand
    say (outside the deployment zones, at least 6 in from the table edges and from other terrain),
    at a point drawn by the game's generator on the players' behalf; a piece with no room is left
    out."""
    W, H = state["table"]
    depth = state["deploy_depth"]
    count = T.roll(state, 3) + 2
    for k in range(count):
        total = T.roll(state, 6) + T.roll(state, 6)
        kind = PLAYERS_CHOICE if total == 7 and T.revision(state) >= 5 else RANDOM_TERRAIN[total]
        for _try in range(40):
            x = 6 + rng.randint(state, 0, int((W - 12) * 4)) / 4
            y = depth + rng.randint(state, 0, int((H - 2 * depth) * 4)) / 4
            if kind in ROUND_PIECES:
                piece = {"id": f"t{k + 1}", "type": kind, "circle": {"center": [x, y], "radius": 2.5}}
            else:
                rot = rng.randint(state, 0, 3) * 45
                piece = {"id": f"t{k + 1}", "type": kind, "rect": {"center": [x, y], "size": [6, 1], "rotation": rot}}
            p = T.terrain_poly(piece)
            minx, miny, maxx, maxy = p.bounds
            if minx < 6 or miny < max(6, depth) or maxx > W - 6 or maxy > min(H - 6, H - depth):
                continue
            if any(G.distance(p, T.terrain_poly(o)) < 6 for o in state["terrain"]):
                continue
            piece["keywords"] = list(data.TERRAIN_TYPES[kind])
            state["terrain"].append(piece)
            break


# ---------------------------------------------------------------------- scenarios


def _num(v: Any, what: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ScenarioSetupError(f"{what} must be a number")
    return float(v)


def _synthetic(cards: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if cards is None:
        return out
    if not isinstance(cards, list):
        raise ScenarioSetupError("cards: a list of unit cards")
    for c in cards:
        if not isinstance(c, dict):
            raise ScenarioSetupError("cards: each card is a mapping")
        extra = set(c) - data.SYNTHETIC_KEYS
        if extra:
            raise ScenarioSetupError(f"cards: unknown key {sorted(extra)[0]}")
        cid = str(c.get("id"))
        if data.known(cid):
            raise ScenarioSetupError(f"cards: id {cid} is already a card of the data")
        if c.get("faction") not in data.FACTIONS or c.get("tray") not in data.content()["trays"]:
            raise ScenarioSetupError(f"cards: {cid} needs a faction (stark | lannister) and a known tray")
        card = dict(c, id=cid, kind="unit", abilities=[])
        card.setdefault("wounds_per_figure", 1)
        card.setdefault("ranks", 1)
        card["wounds"] = int(card["figures"]) * int(card["wounds_per_figure"])
        for a in card.get("attacks", []):
            if a.get("range") not in ("melee", "short", "long"):
                raise ScenarioSetupError(f"cards: {cid}: attack range is melee, short or long")
        out[cid] = card
    return out


def scenario_game(seats: list[str], options: dict[str, Any], seed: int, setup: dict[str, Any],
                  start: str | None, cards: Any = None) -> State:
    _check_seats(seats)
    opts = _options(options, "playable")  # SCENARIOS.md "minis": a react only for a seat that can answer
    setup = setup or {}
    extra = set(setup) - SETUP_KEYS
    if extra:
        raise ScenarioSetupError(f"unknown setup key {sorted(extra)[0]}")
    if "game_size" in setup:
        opts["game_size"] = int(setup["game_size"])
    if "mode" in setup:
        if setup["mode"] not in MODES:
            raise EngineError("illegal_action", f"mode {setup['mode']!r}: only here_we_stand is implemented")
        opts["mode"] = setup["mode"]
    multi = _multi(seats, opts)
    state = _base(seats, opts, seed)
    if multi:
        _multi_base(state, multi, opts)
    state["cards"] = _synthetic(cards)
    state["dice"] = [int(v) for v in setup.get("dice") or []]
    if "table" in setup:
        t = setup["table"]
        if not (isinstance(t, list) and len(t) == 2):
            raise ScenarioSetupError("table: [width, depth]")
        state["table"] = [_num(t[0], "table"), _num(t[1], "table")]
    rnd = setup.get("round", 1)
    if not isinstance(rnd, int) or not 1 <= rnd <= 6:
        raise ScenarioSetupError("round: 1-6")
    state["round"] = rnd
    fp = setup.get("first_player", seats[0])
    if fp not in seats:
        raise ScenarioSetupError(f"first_player: {fp!r} is not a seat")
    state["first_player"] = fp
    turn = setup.get("turn", fp)
    if turn not in seats:
        raise ScenarioSetupError(f"turn: {turn!r} is not a seat")
    state["turn"] = turn
    for s, v in (setup.get("vp") or {}).items():
        if s not in state["vp"]:
            raise ScenarioSetupError(f"vp: {s!r} is not a seat" + (" (a team game's VP are the teams')"
                                                                    if T.team_game(state) else ""))
        state["vp"][s] = int(v)
    armies = setup.get("armies") or {}
    for s in seats:
        f = T.faction_of(s)
        lst = data.read_list(f, armies.get(s)) if s in armies else data.default_list(f, opts["game_size"])
        data.check_list(f, lst, opts["game_size"])
        _check_team_characters(state, s, lst)
        state["players"][s]["list"] = lst
    _terrain(state, setup.get("terrain"))
    _units(state, setup.get("units"), start)
    _destroyed(state, setup.get("destroyed"))
    _ncus(state, setup.get("ncus"))
    _cards(state, setup, deployment=start == "deployment")
    for s, ids in (setup.get("once_used") or {}).items():
        state["once_used"][s] = [str(i) for i in ids]
    state["card_tokens"] = {str(k): int(v) for k, v in (setup.get("card_tokens") or {}).items()}
    if "objectives" in setup:
        state["objectives"] = list(setup["objectives"])
    start = start or "activation"
    if start == "activation":
        state["phase"] = "activation"
    elif start == "cleanup":
        state["phase"] = "cleanup"
        state["turn"] = None
        flow.push(state, {"t": "cleanup", "stage": "score"}, front=False)
    elif start == "deployment":
        # project key (docs/engine-minis.md): the roll-off (M23) from `dice`, then the First Player's
        # choice and alternating deployment (M24); hands are drawn when the game starts (M25)
        for k in ("round", "first_player", "turn", "vp", "destroyed"):
            if k in setup:
                raise ScenarioSetupError(f"{k}: not with start: deployment (the roll-off decides)")
        if multi:
            _multi_roll_off(state)
        else:
            _roll_off_and_deploy(state)
    else:
        raise ScenarioSetupError(f"start: {start!r} is activation, cleanup or deployment")
    flow.run(state, [])
    return state


def _terrain(state: State, terrain: Any) -> None:
    for t in terrain or []:
        if not isinstance(t, dict) or "type" not in t:
            raise ScenarioSetupError("terrain: each piece has an id, a type and a shape")
        kind = t["type"]
        if kind == "custom" or "keywords" in t:
            kw = t.get("keywords")
            if not isinstance(kw, list) or any(k not in data.KEYWORDS for k in kw):
                raise ScenarioSetupError(f"terrain {t.get('id')}: keywords must be among {', '.join(data.KEYWORDS)}")
        elif kind in data.TERRAIN_TYPES:
            kw = data.TERRAIN_TYPES[kind]
        else:
            raise ScenarioSetupError(f"terrain type {kind!r} is unknown")
        shapes = [k for k in ("rect", "circle", "polygon") if k in t]
        if len(shapes) != 1:
            raise ScenarioSetupError(f"terrain {t.get('id')}: one of rect, circle, polygon")
        piece = {"id": str(t.get("id", f"t{len(state['terrain']) + 1}")), "type": kind, "keywords": list(kw),
                 shapes[0]: t[shapes[0]]}
        T.terrain_poly(piece)
        state["terrain"].append(piece)


def _units(state: State, units: Any, start: str | None) -> None:
    if units is None:
        if start == "deployment":
            for s in state["seats"]:
                _list_units(state, s, state["players"][s]["list"])
            return
        raise ScenarioSetupError("setup.units is required")
    if not isinstance(units, dict):
        raise ScenarioSetupError("units: a mapping of names")
    for name, spec in units.items():
        if not isinstance(name, str) or not NAME_RE.match(name):
            raise ScenarioSetupError(f"unit name {name!r}: lowercase letters, digits, _")
        if not isinstance(spec, dict):
            raise ScenarioSetupError(f"units.{name}: a mapping")
        extra = set(spec) - {"card", "at", "facing", "wounds", "lost", "attachment", "conditions", "activated",
                             "order_used", "seat"}
        if extra:
            raise ScenarioSetupError(f"units.{name}: unknown key {sorted(extra)[0]}")
        cid = str(spec.get("card"))
        if not data.known(cid, state["cards"]) or data.card(cid, state["cards"])["kind"] != "unit":
            raise ScenarioSetupError(f"units.{name}: {cid} is not a combat unit card")
        c = data.card(cid, state["cards"])
        seat = c["faction"]
        if "seat" in spec:
            # three or four players: the seat owning the unit (its house's, a house played twice)
            seat = spec["seat"]
            if seat not in state["seats"] or T.faction_of(seat) != c["faction"]:
                raise ScenarioSetupError(f"units.{name}.seat: {seat!r} is not a seat of the {c['faction']} house")
        elif (T.multi(state) or seat in data.FACTIONS) and seat not in state["seats"]:  # a house played twice
            raise ScenarioSetupError(f"units.{name}: no seat of the {seat} house")
        mx = T.max_wounds(c)
        wounds = mx
        if "wounds" in spec:
            wounds = int(spec["wounds"])
        elif "lost" in spec:
            wounds = mx - int(spec["lost"])
        if not 1 <= wounds <= mx:
            raise EngineError("illegal_action", f"units.{name}: wounds must be 1-{mx}")
        att = spec.get("attachment")
        if att is not None:
            att = str(att)
            if not data.known(att) or data.card(att)["kind"] != "attachment":
                raise ScenarioSetupError(f"units.{name}: {att} is not an attachment")
            ac = data.card(att)
            if c["tray"].startswith("solo") or ac.get("attaches_to") != c["type"] or ac["faction"] != c["faction"]:
                raise EngineError("illegal_action", f"units.{name}: {ac['name']} cannot join {c['name']}")  # M9
        rec = _unit_record(seat, cid, att, wounds)
        at = spec.get("at")
        if start == "deployment":
            if at is not None or "facing" in spec:
                raise ScenarioSetupError(f"units.{name}: no pose before deployment (the `deploy` acts place it)")
            state["units"][name] = rec
            continue
        if not (isinstance(at, list) and len(at) == 2):
            raise ScenarioSetupError(f"units.{name}.at: [x, y]")
        rec["at"] = [_num(at[0], "at"), _num(at[1], "at")]
        rec["facing"] = G.norm_angle(_num(spec.get("facing", 0), "facing"))
        conds = spec.get("conditions") or []
        if any(x not in data.CONDITIONS for x in conds):
            raise ScenarioSetupError(f"units.{name}: conditions are {', '.join(data.CONDITIONS)}")
        if len(set(conds)) != len(conds):
            raise EngineError("illegal_action", f"units.{name}: a condition twice")  # M101
        rec["conditions"] = list(conds)
        rec["activated"] = bool(spec.get("activated", False))
        rec["order_used"] = bool(spec.get("order_used", False))
        if rec["order_used"]:  # D15: an Order token on each of the unit's Orders
            rec["orders_used"] = sorted(n for n in data.ability_names(c) | data.ability_names(
                data.card(att) if att else None) if n.startswith("Order:"))
        rec["on_table"] = True
        state["units"][name] = rec
    for name in [n for n, u in state["units"].items() if u["on_table"]]:
        p = T.poly(state, name)
        if not G.on_table(p, state["table"]):
            raise EngineError("illegal_action", f"{name} is partly off the table")
        for other in state["units"]:
            if other < name and state["units"][other]["on_table"] and G.overlaps(p, T.poly(state, other)):
                raise EngineError("illegal_action", f"{name} overlaps {other}")
        for t in state["terrain"]:
            if "impassable" in t["keywords"] and G.overlaps(p, T.terrain_poly(t)):
                raise EngineError("illegal_action", f"{name} stands on impassable terrain")


def _destroyed(state: State, destroyed: Any) -> None:
    for seat, names in (destroyed or {}).items():
        if seat not in state["seats"]:
            raise ScenarioSetupError(f"destroyed: {seat!r} is not a seat")
        for name in names:
            if name in state["units"]:
                u = state["units"][name]
            else:
                base = re.sub(r"_(b|c|\d+)$", "", name)
                cands = [x["unit"] for x in state["players"][seat]["list"]["units"]
                         if data.slug(data.card(x["unit"])["name"]) == base]
                if not cands:
                    raise ScenarioSetupError(f"destroyed: {name} names no unit of {seat}'s list")
                u = _unit_record(seat, cands[0], None, 0)
                state["units"][name] = u
            u.update(destroyed=True, on_table=False, wounds=0)
            state["players"][seat]["destroyed"].append(name)


def _ncus(state: State, ncus: Any) -> None:
    for nid, spec in (ncus or {}).items():
        nid = str(nid)
        if not data.known(nid) or data.card(nid)["kind"] != "ncu":
            raise ScenarioSetupError(f"ncus: {nid} is not an NCU card")
        spec = spec or {}
        seat = data.card(nid)["faction"]
        zone = spec.get("zone")
        if zone is not None and zone not in data.ZONES:
            raise ScenarioSetupError(f"ncus.{nid}.zone: one of {', '.join(data.ZONES)}")
        if zone and state["board"][zone]:
            raise EngineError("illegal_action", f"two NCUs on the {zone} zone")
        q = spec.get("quadrant")
        if q is not None and q not in ("sw", "se", "nw", "ne"):
            raise ScenarioSetupError(f"ncus.{nid}.quadrant: sw, se, nw or ne")
        if "seat" in spec:  # a house played twice: the seat owning the NCU
            if spec["seat"] not in state["seats"] or T.faction_of(spec["seat"]) != seat:
                raise ScenarioSetupError(f"ncus.{nid}.seat: {spec['seat']!r} is not a seat of the {seat} house")
            seat = spec["seat"]
        elif seat in data.FACTIONS and seat not in state["seats"]:
            raise ScenarioSetupError(f"ncus.{nid}: no seat of the {seat} house")
        state["ncus"][nid] = {"seat": seat, "zone": zone, "quadrant": q, "activated": bool(spec.get("activated"))}
        if zone:
            state["board"][zone] = nid


def _cards(state: State, setup: dict[str, Any], deployment: bool = False) -> None:
    hands = setup.get("hands") or {}
    decks = setup.get("decks") or {}
    sizes = setup.get("deck_size") or {}
    discards = setup.get("discards") or {}
    for s in state["seats"]:
        full = Counter(data.deck_for(T.faction_of(s), state["players"][s]["list"]["commander"]))
        placed: Counter[str] = Counter()
        for src in (hands, decks, discards):
            for c in src.get(s, []) or []:
                c = str(c)
                if not data.known(c) or data.card(c)["kind"] != "tactics":
                    raise ScenarioSetupError(f"{c} is not a tactics card")
                placed[c] += 1
        for c, k in placed.items():
            if k > full[c]:
                raise EngineError("illegal_action", f"{s}: {k} copies of {c}, the deck holds {full[c]}")
        rest = list((full - placed).elements())
        rng.shuffle(state, rest)
        p = state["players"][s]
        p["discards"] = [str(c) for c in discards.get(s, []) or []]
        top = [str(c) for c in decks.get(s, []) or []]
        seq = top + rest
        if s in hands:
            p["hand"] = [str(c) for c in hands[s] or []]
        elif deployment:
            p["hand"] = []  # drawn when the game starts (M25)
        else:
            need = T.hand_limit(state, s)
            p["hand"], seq = seq[:need], seq[need:]
        if len(p["hand"]) > flow.HAND_MAX:
            raise EngineError("illegal_action", f"{s}: a hand over 5 cards")  # M32
        size = int(sizes.get(s, len(seq)))
        if size < len(top) or size > len(seq):
            raise ScenarioSetupError(f"deck_size.{s}: {size} does not fit the cards given")
        p["deck"] = seq[:size]
