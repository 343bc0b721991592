"""Game setup (L5-L15) and a scenario's `setup` keys (SCENARIOS.md "lcg")."""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import rng
from games.engine.base import EngineError, ScenarioSetupError
from games.engine.lcg import data, flow, melee
from games.engine.lcg import table as T
from games.engine.lcg.abilities import REVISION

State = dict[str, Any]
Event = dict[str, Any]

OPTION_KEYS = ("decks", "every_window", "open_decklists", "revision", "action_windows")
PLAYER_KEYS = frozenset({
    "decklist", "faction", "agenda", "hand", "deck", "deck_size", "plots", "used_plots", "plot", "characters",
    "locations", "faction_power", "faction_kneeling", "gold", "discard", "dead", "limited", "challenges",
})
SETUP_KEYS = frozenset({"first_player", "round", "players", "titles"})
STARTS = {
    "setup": "setup_mulligan", "plot": "plot_begin", "draw": "draw_begin", "marshaling": "marshal_begin",
    "challenges": "challenges_begin", "dominance": "dominance_begin", "standing": "standing_begin",
    "taxation": "taxation_begin",
}
PHASE_OF_START = {"setup": "setup", "plot": "plot", "draw": "draw", "marshaling": "marshaling",
                  "challenges": "challenges", "dominance": "dominance", "standing": "standing",
                  "taxation": "taxation"}
CARD_KEYS = frozenset({"card", "kneeling", "power", "duplicates", "tokens", "attachments", "controller"})
SYNTHETIC_DECK = 20


def check_seats(seats: Any) -> None:
    """Two seats play a joust, three to six a melee with titles (L3, melee.py)."""
    if not isinstance(seats, list) or not all(isinstance(s, str) and s for s in seats):
        raise EngineError("illegal_action", "seats: a list of player names")
    if not 2 <= len(seats) <= melee.MAX_SEATS:
        raise EngineError("illegal_action", "the card game is played by two players (joust) or three to six (melee)")
    if len(set(seats)) != len(seats):
        raise EngineError("illegal_action", "different seats")


def check_options(options: Any, seats: list[str], *, live: bool) -> dict[str, Any]:
    """`decks`: the deck of each seat, a list in seat order or {seat: deck} (default: the Old Ways
    for the first seat, Secrets and Schemes for the second; both may take the same deck).
    `every_window`: windows ask the seats that might use a card there, judged from public
    information (default on for live games, off in scenarios, SCENARIOS.md decision 5).
    `open_decklists`: the deck lists are public (default: on when every deck is a learn-to-play
    deck; prompts.py). `revision`: the engine's rules revision the game was started under (default:
    the current one; abilities.REVISION), which games started earlier keep. `action_windows`: the
    action windows each seat is asked in, its player's setting (prompts.check_action_windows; absent:
    all of them)."""
    if not isinstance(options, dict):
        raise EngineError("illegal_action", "options: a mapping")
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        raise EngineError("illegal_action", f"unknown option {', '.join(unknown)}")
    ids = data.deck_ids()
    chosen = options.get("decks")
    default = list(data.DEFAULT_DECKS)
    if chosen is None:
        decks = [default[i % len(default)] for i in range(len(seats))]
    elif isinstance(chosen, list) and len(chosen) == len(seats):
        decks = list(chosen)
    elif isinstance(chosen, dict) and set(chosen) <= set(seats):
        decks = [chosen.get(s, default[i % len(default)]) for i, s in enumerate(seats)]
    else:
        raise EngineError("illegal_action", "option decks: one deck per seat")
    for d in decks:
        if not isinstance(d, dict) and d not in ids:
            raise EngineError("illegal_action", f"unknown deck {d!r}; decks: {', '.join(ids)}")
    decks = [given_deck(d) if isinstance(d, dict) else d for d in decks]
    every = options.get("every_window", live)
    if not isinstance(every, bool):
        raise EngineError("illegal_action", "option every_window: true or false")
    from games.engine.lcg import prompts

    open_lists = options.get("open_decklists", prompts.default_open([d if isinstance(d, str) else "" for d in decks]))
    if not isinstance(open_lists, bool):
        raise EngineError("illegal_action", "option open_decklists: true or false")
    out = {"decks": decks, "every_window": every, "open_decklists": open_lists}
    if "action_windows" in options:  # each player's setting (prompts.py); absent: every window asks
        out["action_windows"] = prompts.check_action_windows(options["action_windows"], seats)
    revision = options.get("revision", REVISION)
    if revision not in range(1, REVISION + 1) or isinstance(revision, bool):
        raise EngineError("illegal_action", f"option revision: 1 to {REVISION}")
    if revision != REVISION:  # a game started under an earlier revision keeps its rules (abilities.revision)
        out["revision"] = revision
    return out


def given_deck(deck: dict[str, Any]) -> dict[str, Any]:
    """A deck given as lists rather than by its id (a person's saved deck, issue 30): {name?, faction, agenda,
    plots, draw}. It must be legal (decks.py, L16-L25) and every card of it played by the engine; a refusal
    says why in words."""
    from games.engine.lcg import decks as rules

    try:
        problems = rules.problems(deck)
    except rules.DeckFormatError as error:
        raise EngineError("illegal_action", error.reason) from None
    if problems:
        raise EngineError("illegal_action", " ".join(p.text for p in problems),
                          tuple(dict.fromkeys(p.rule for p in problems)))
    missing = rules.unplayable(deck)
    if missing:
        raise EngineError("illegal_action", rules.unplayable_sentence(missing))
    name = deck.get("name")
    return {"name": name[:80] if isinstance(name, str) else "", "faction": deck["faction"],
            "agenda": deck.get("agenda") or None, "plots": list(deck["plots"]), "draw": list(deck["draw"])}


def public_deck(deck: Any) -> Any:
    """What anyone may know of a seat's deck: a ready-made deck's id (its list is public), or a given deck's
    faction and agenda, which the rules reveal (its name and lists are its owner's)."""
    if isinstance(deck, dict):
        return {"faction": deck["faction"], "agenda": deck.get("agenda")}
    return deck


def empty_state(seats: list[str], opts: dict[str, Any], seed: int) -> State:
    return {
        "ruleset": "lcg", "seats": list(seats), "options": opts, "rng": rng.seed_state(seed), "extra_cards": {},
        "round": 1, "phase": "setup", "step": "mulligan", "next": "setup_mulligan", "window": None,
        "decision": None, "first_player": seats[0], "active": None, "initiative_winner": None,
        "marshaled": [], "reserve_checked": [], "challenge": None, "dominance": None, "setup_done": False,
        "uids": {}, "uid_rng": T.uid_stream(rng.seed_state(seed)), "counter": 0, "entered": 0, "inplay": {},
        "players": {s: _empty_player() for s in seats},
        "winner": None, "eliminated": [], "over": False,
        "stack": [], "queue": [], "lasting": [], "delayed": [], "reductions": [],
        "limits": {"challenge": {}, "phase": {}, "round": {}}, "frames": 0,
        **({"melee": melee.empty()} if len(seats) > 2 else {}),
    }


def _empty_player() -> dict[str, Any]:
    return {
        "deck_id": None, "faction": None, "agenda": None, "hand": [], "deck": [], "pinned": 0, "discard": [],
        "dead": [], "plots": [], "used_plots": [], "plot": None, "chosen_plot": None, "setup_cards": None,
        "mulligan": None, "gold": 0, "faction_power": 0, "faction_kneeling": False, "limited": 0,
        "challenges": [], "won": [], "play": [], "removed": [],
    }


def new_game(seats: list[str], options: dict[str, Any], seed: int) -> State:
    check_seats(seats)
    opts = check_options(options, seats, live=True)
    state = empty_state(seats, opts, seed)
    for seat, deck_id in zip(seats, opts["decks"], strict=True):
        deck = deck_id if isinstance(deck_id, dict) else data.decks()[deck_id]
        p = state["players"][seat]
        p.update(deck_id=None if isinstance(deck_id, dict) else deck_id, faction=deck["faction"],
                 agenda=deck["agenda"])
        p["plots"] = [T.new_uid(state, c, seat) for c in deck["plots"]]
        p["deck"] = [T.new_uid(state, c, seat) for c in deck["draw"]]
        if isinstance(deck_id, dict) and opts.get("open_decklists"):
            p["decklist"] = list(deck["draw"])  # the lobby chose open deck lists
    # a given deck's lists are its owner's: the state (which views copy) keeps its name, faction and agenda
    state["options"] = {**opts, "decks": [public_deck(d) for d in opts["decks"]]}
    state["first_player"] = seats[rng.randbelow(state, len(seats))]  # L6
    events: list[Event] = []
    for s in T.player_order(state):  # L10, L11
        rng.shuffle(state, state["players"][s]["deck"])
        T.draw(state, s, 7, events)
    flow.run(state, events)
    return state


# ------------------------------------------------------------------ scenarios


def scenario_game(seats: list[str], options: dict[str, Any], seed: int, setup: dict[str, Any], start: str | None,
                  cards: Any = None) -> State:
    check_seats(seats)
    opts_in = dict(options or {})
    if not isinstance(setup, dict):
        raise ScenarioSetupError("setup: a mapping")
    unknown = sorted(str(k) for k in setup if k not in SETUP_KEYS)
    if unknown:
        raise ScenarioSetupError(f"setup: unknown key {', '.join(unknown)}")
    players = setup.get("players") or {}
    if not isinstance(players, dict) or set(players) - set(seats):
        raise ScenarioSetupError(f"setup.players: unknown seat {', '.join(sorted(set(players) - set(seats)))}")
    decks: dict[str, Any] = {}
    default = list(data.DEFAULT_DECKS)
    for i, s in enumerate(seats):
        keys = players.get(s) or {}
        if not isinstance(keys, dict):
            raise ScenarioSetupError(f"setup.players.{s}: a mapping")
        bad = sorted(str(k) for k in keys if k not in PLAYER_KEYS)
        if bad:
            raise ScenarioSetupError(f"setup.players.{s}: unknown key {', '.join(bad)}")
        decks[s] = keys.get("decklist", default[i % len(default)] if "decklist" not in keys else None)
        if decks[s] is not None and decks[s] not in data.decks():
            raise ScenarioSetupError(f"setup.players.{s}.decklist: unknown deck {decks[s]!r}")
    opts_in.setdefault("decks", [decks[s] or default[0] for s in seats])
    opts = check_options(opts_in, seats, live=False)
    state = empty_state(seats, opts, seed)
    if cards is not None:
        if not isinstance(cards, list):
            raise ScenarioSetupError("cards: a list of cards")
        for raw in cards:
            try:
                c = data.check_card(raw, {**data.cards(), **state["extra_cards"]})
            except data.CardDataError as exc:
                raise ScenarioSetupError(f"cards: {exc}") from None
            state["extra_cards"][c["id"]] = c
    start = start or "plot"
    if start not in STARTS:
        raise ScenarioSetupError(f"start: {start!r} is not one of {', '.join(STARTS)}")
    first = setup.get("first_player", seats[0])
    if first not in seats:
        raise ScenarioSetupError(f"setup.first_player: {first!r} is not a seat")
    state["first_player"] = first
    rnd = setup.get("round", 1)
    if not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 1:
        raise ScenarioSetupError("setup.round: a round number")
    state["round"] = rnd
    for s in seats:
        _build_player(state, s, decks[s], players.get(s) or {}, start)
    melee.scenario_titles(state, setup.get("titles"))
    state["phase"] = PHASE_OF_START[start]
    state["next"] = STARTS[start]
    state["setup_done"] = start != "setup"
    events: list[Event] = []
    if start == "setup":
        for s in T.player_order(state):
            if "hand" not in (players.get(s) or {}):
                T.draw(state, s, 7, events)
    flow.run(state, events)
    return state


def _ids(value: Any, key: str, state: State) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ScenarioSetupError(f"{key}: a list of card ids")
    for c in value:
        if not data.known(state, c):
            raise ScenarioSetupError(f"{key}: unknown card {c!r}")
    return list(value)


def _nat(value: Any, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ScenarioSetupError(f"{key}: a number, 0 or more")
    return value


def _build_player(state: State, seat: str, deck_id: str | None, keys: dict[str, Any], start: str) -> None:
    where = f"setup.players.{seat}"
    p = state["players"][seat]
    deck = data.decks()[deck_id] if deck_id else None
    faction = keys.get("faction", deck["faction"] if deck else None)
    if faction not in data.FACTIONS:
        raise ScenarioSetupError(f"{where}.faction: a faction ({', '.join(data.FACTIONS)})")
    agenda = keys.get("agenda", deck["agenda"] if deck else None)
    if agenda is not None and not (data.known(state, agenda) and data.card(state, agenda)["type"] == "agenda"):
        raise ScenarioSetupError(f"{where}.agenda: unknown agenda {agenda!r}")
    p.update(deck_id=deck_id, faction=faction, agenda=agenda)
    used: Counter[str] = Counter()

    def take(card_id: str) -> str:
        used[card_id] += 1
        return T.new_uid(state, card_id, seat)

    # in play
    chars = keys.get("characters") or []
    locs = keys.get("locations") or []
    if not isinstance(chars, list) or not isinstance(locs, list):
        raise ScenarioSetupError(f"{where}: characters and locations are lists")
    pending_attachments: list[tuple[str, Any]] = []
    for ctype, entries in (("character", chars), ("location", locs)):
        for raw in entries:
            entry = {"card": raw} if isinstance(raw, str) else raw
            if not isinstance(entry, dict) or set(entry) - CARD_KEYS or "controller" in entry:
                raise ScenarioSetupError(f"{where}.{ctype}s: an id or {{card, kneeling, power, ...}}")
            cid = entry.get("card")
            if not data.known(state, cid):
                raise ScenarioSetupError(f"{where}.{ctype}s: unknown card {cid!r}")
            if data.card(state, cid)["type"] != ctype:
                raise ScenarioSetupError(f"{where}.{ctype}s: {cid} is not a {ctype}")
            uid = take(cid)
            T.enter_play(state, seat, uid, kneeling=bool(entry.get("kneeling", False)))
            rec = state["inplay"][uid]
            rec["power"] = _nat(entry.get("power", 0), f"{where}.{cid}.power")
            tokens = entry.get("tokens") or {}
            if not isinstance(tokens, dict):
                raise ScenarioSetupError(f"{where}.{cid}.tokens: a mapping")
            rec["tokens"] = {str(k): _nat(v, f"{where}.{cid}.tokens") for k, v in tokens.items()}
            for _ in range(_nat(entry.get("duplicates", 0), f"{where}.{cid}.duplicates")):
                rec["duplicates"].append(take(cid))
            for a in entry.get("attachments") or []:
                pending_attachments.append((uid, a))
    for host, raw in pending_attachments:
        entry = {"card": raw} if isinstance(raw, str) else raw
        if not isinstance(entry, dict) or set(entry) - CARD_KEYS:
            raise ScenarioSetupError(f"{where}: an attachment is an id or {{card, kneeling, controller}}")
        cid = entry.get("card")
        if not data.known(state, cid) or data.card(state, cid)["type"] != "attachment":
            raise ScenarioSetupError(f"{where}: {cid!r} is not an attachment")
        ctrl = entry.get("controller", seat)
        if ctrl not in state["seats"]:
            raise ScenarioSetupError(f"{where}.{cid}.controller: not a seat")
        if ctrl == seat:
            uid = take(cid)
        else:
            uid = T.new_uid(state, cid, ctrl)
        from games.engine.lcg import actions

        why = actions.attach_problem(state, uid, host)
        if why:
            raise EngineError("illegal_action", f"{where}: {why}")
        T.enter_play(state, ctrl, uid, kneeling=bool(entry.get("kneeling", False)), host=host)
        state["inplay"][uid]["power"] = _nat(entry.get("power", 0), f"{where}.{cid}.power")
    # piles
    p["hand"] = [take(c) for c in _ids(keys.get("hand"), f"{where}.hand", state)]
    p["discard"] = [take(c) for c in _ids(keys.get("discard"), f"{where}.discard", state)]
    p["dead"] = [take(c) for c in _ids(keys.get("dead"), f"{where}.dead", state)]
    p["used_plots"] = [take(c) for c in _ids(keys.get("used_plots"), f"{where}.used_plots", state)]
    plot = keys.get("plot")
    if plot is not None:
        if not data.known(state, plot) or data.card(state, plot)["type"] != "plot":
            raise ScenarioSetupError(f"{where}.plot: {plot!r} is not a plot")
        p["plot"] = take(plot)
    elif start not in ("setup", "plot"):
        raise ScenarioSetupError(f"{where}.plot: a revealed plot is needed to start at {start}")
    for key in ("used_plots",):
        for u in p[key]:
            if T.card(state, u)["type"] != "plot":
                raise ScenarioSetupError(f"{where}.{key}: {T.cid(state, u)} is not a plot")
    if "plots" in keys:
        plots = _ids(keys["plots"], f"{where}.plots", state)
    else:
        plots = list(deck["plots"]) if deck else []
        for c in list(used.elements()):
            if c in plots:
                plots.remove(c)
    for c in plots:
        if data.card(state, c)["type"] != "plot":
            raise ScenarioSetupError(f"{where}.plots: {c} is not a plot")
    p["plots"] = [take(c) for c in plots]
    if len(p["plots"]) > 7:
        raise EngineError("illegal_action", f"{where}: a plot deck has at most 7 plots (L18)")
    listed = _ids(keys.get("deck"), f"{where}.deck", state)
    top = [take(c) for c in listed]
    # the rest of the draw deck
    if deck:
        rest = list(deck["draw"])
        for c in list(used.elements()):
            if c in rest:
                rest.remove(c)
        pool = [T.new_uid(state, c, seat) for c in rest]
        rng.shuffle(state, pool)
    else:
        pool = []
    hand_drawn: list[str] = []
    if "hand" not in keys and start != "setup":
        if deck:
            hand_drawn, pool = pool[:7], pool[7:]
    if "deck_size" in keys:
        size = _nat(keys["deck_size"], f"{where}.deck_size")
        if size < len(top):
            raise ScenarioSetupError(f"{where}.deck_size: smaller than the listed deck")
        if deck:
            for u in pool[size - len(top):]:
                del state["uids"][u]
            pool = pool[:size - len(top)]
        else:
            pool = [T.new_uid(state, "blank", seat) for _ in range(size - len(top))]
    elif not deck:
        pool = [T.new_uid(state, "blank", seat) for _ in range(max(0, SYNTHETIC_DECK - len(top)))]
    p["deck"] = top + pool
    p["pinned"] = len(top)
    p["hand"].extend(hand_drawn)
    if deck:
        allowed = Counter(deck["draw"]) + Counter(deck["plots"])
        if deck.get("agenda"):
            allowed[deck["agenda"]] += 1
        for c, n in used.items():
            if not data.card(state, c)["synthetic"] and n > allowed.get(c, 0):
                raise EngineError("illegal_action", f"{where}: {n} copies of {c}; the decklist holds {allowed.get(c, 0)}")
    # the rest of the seat's situation
    p["faction_power"] = _nat(keys.get("faction_power", 0), f"{where}.faction_power")
    p["faction_kneeling"] = bool(keys.get("faction_kneeling", False))
    p["gold"] = _nat(keys.get("gold", 0), f"{where}.gold")
    limited = _nat(keys.get("limited", 0), f"{where}.limited")
    if limited > 1:
        raise ScenarioSetupError(f"{where}.limited: 0 or 1")
    p["limited"] = limited
    ch = keys.get("challenges") or []
    if not isinstance(ch, list) or not set(ch) <= set(flow.CHALLENGE_TYPES):
        raise ScenarioSetupError(f"{where}.challenges: challenge types")
    p["challenges"] = list(ch)
    if start == "setup":
        p["mulligan"] = None
    else:
        p["mulligan"] = False
        p["setup_cards"] = []
    _check_uniques(state, seat, where)


def _check_uniques(state: State, seat: str, where: str) -> None:
    """L219: one copy of a unique card in play per seat, none while a copy is in its dead pile."""
    p = state["players"][seat]
    seen: set[str] = set()
    dead = {T.cid(state, u) for u in p["dead"]}
    for u in p["play"]:
        c = T.card(state, u)
        if not c["unique"] or T.owner(state, u) != seat:
            continue
        if c["id"] in seen:
            raise EngineError("illegal_action", f"{where}: two copies of the unique {c['id']} in play (L219)")
        if c["id"] in dead:
            raise EngineError("illegal_action", f"{where}: {c['id']} in play while a copy is in the dead pile (L219)")
        seen.add(c["id"])
