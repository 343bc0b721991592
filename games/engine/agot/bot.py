"""The random bot, the invariants, and a driver that plays whole games (tests, `manage.py simulate`,
benchmarks/agot_engine.py). Uses only the `random.Random` it is given, never the game's generator.
"""
from __future__ import annotations

import json
import random
import time
from typing import Any

from games.engine.agot import action, defaults, planning, supply
from games.engine.agot import board as B
from games.engine.agot.data import LAND_UNITS, ORDER_TOKENS, board, token_special, unit_limits
from games.engine.base import EngineError

State = dict[str, Any]
Action = dict[str, Any]


def random_orders(state: State, house: str, rnd: random.Random) -> dict[str, str]:
    areas = planning.areas_needing_orders(state, house)
    normal = [t for t, n in ORDER_TOKENS.items() if not token_special(t) and not planning.restricted(state, t)
              for _ in range(n)]
    special = [t for t in ORDER_TOKENS if token_special(t) and not planning.restricted(state, t)]
    rnd.shuffle(special)
    tokens = normal + special[: B.stars_of(state, house)]
    rnd.shuffle(tokens)
    rnd.shuffle(areas)
    return dict(zip(areas, tokens, strict=False))


def random_march(state: State, house: str, rnd: random.Random) -> Action:
    b = board()
    area = rnd.choice(action.orders_of(state, house, "march"))
    units = [u for u in B.house_units(state, area, house) if not B.is_routed(u)]
    for _ in range(6):
        moves: dict[str, list[str]] = {}
        reach: list[str] | None = None
        for u in units:
            if rnd.random() < 0.3:
                continue
            if u in LAND_UNITS:
                if reach is None:
                    reach = sorted(set(b.land_next_to[area]) | action.transport_reach(state, house, area))
                dests = reach
            else:
                dests = [d for d in b.adjacent[area] if b.type[d] != "land"]
            if dests:
                moves.setdefault(rnd.choice(dests), []).append(u)
        leave = rnd.random() < 0.5
        for lv in (leave, False):
            spec = {"from": area, "moves": moves, "leave_power_token": lv}
            try:
                action.check_march(state, house, spec)
            except EngineError:
                continue
            return {"march": spec}
    return {"march": {"from": area, "moves": {}}}


def random_consolidate(state: State, house: str, rnd: random.Random) -> Action:
    """A power gain from a random Consolidate Power order, or (half the time) mustering with a special one."""
    from games.engine.agot import mustering

    musters = [a for a in action.orders_of(state, house, "consolidate") if action.can_cp_muster(state, house, a)]
    if musters and rnd.random() < 0.5:
        area = rnd.choice(musters)
        value = mustering.random_muster(state, house, [area], rnd)
        items: list[dict[str, str]] = []
        for dest, its in value.items():
            for it in its:
                it = {k: v for k, v in it.items() if k != "from"}
                if it.get("recruit") == "ship":
                    it["to"] = dest
                items.append(it)
        return {"consolidate": {"from": area, "muster": items}}
    return rnd.choice(defaults.legal_actions(state, house))


def random_action(state: State, seat: str, rnd: random.Random) -> Action:
    d = state["decision"]
    kind = d["kind"]
    if kind == "place_orders":
        return {"place_orders": random_orders(state, seat, rnd)}
    if kind == "march":
        return random_march(state, seat, rnd)
    if kind == "consolidate":
        return random_consolidate(state, seat, rnd)
    if kind in ("raven", "raven_peek", "raid", "replace_ships"):
        return rnd.choice(defaults.legal_actions(state, seat))
    module = defaults.owner_module(kind)
    if module is not None and hasattr(module, "random_action"):
        return module.random_action(state, seat, rnd)
    legal = defaults.legal_actions(state, seat)
    if legal:
        return rnd.choice(legal)
    return defaults.default_action(state, seat)


def random_gift(state: State, rnd: random.Random) -> tuple[str, Action] | None:
    """A legal gift of power tokens (gifts.py) from a random house with some to another, or None
    (none has any, or a bid is open)."""
    if (state.get("decision") or {}).get("kind") == "bid":
        return None
    givers = [h for h in state["seats"] if state["power"][h] > 0]
    if not givers:
        return None
    giver = rnd.choice(givers)
    takers = [h for h in state["seats"] if h != giver and B.pool(state, h) > 0]
    if not takers:
        return None
    to = rnd.choice(takers)
    return giver, {"gift": {"to": to, "tokens": rnd.randint(1, min(state["power"][giver], B.pool(state, to)))}}


# ------------------------------------------------------------------ invariants


class InvariantError(AssertionError):
    pass


def _reconciling(state: State) -> set[str]:
    """Houses whose supply dropped and who have not reconciled their armies yet (R63: a `reduce`
    decision pending or queued in the Westeros phase)."""
    ws = state.get("westeros") or {}
    if state["phase"] != "westeros":
        return set()
    tasks = list(ws.get("queue") or []) + ([ws["current"]] if ws.get("current") else [])
    return {t["house"] for t in tasks if t["t"] == "reduce"}


def check_invariants(state: State) -> None:
    """Unit limits (R9), one house per area, units in legal areas, ports <= 3 ships (R248), one order
    per area on the houses' own units (R113), supply (R161), 20 power tokens per house (R9-R10),
    victory track current (R39), JSON round trip exact."""
    b = board()
    limits = unit_limits()
    seats = state["seats"]
    reconciling = _reconciling(state)
    for h in seats:
        counts = B.unit_counts(state, h)
        for u, n in counts.items():
            if n > limits[u]:
                raise InvariantError(f"{h} has {n} {u}s")
        if state["power"][h] < 0 or B.pool(state, h) < 0:
            raise InvariantError(f"{h} power {state['power'][h]} pool {B.pool(state, h)}")
        if h not in reconciling and not supply.fits(state, h):
            raise InvariantError(f"{h} exceeds supply {state['supply'][h]}: {supply.army_sizes(state, h)}")
    for area, by_house in state["units"].items():
        if len(by_house) > 1:
            raise InvariantError(f"two houses in {area}: {sorted(by_house)}")
        for units in by_house.values():
            if not units:
                raise InvariantError(f"empty unit list in {area}")
            for u in units:
                land = B.base_unit(u) in LAND_UNITS
                if land != (b.type[area] == "land"):
                    raise InvariantError(f"{u} in {area}")
            if b.type[area] == "port" and len(units) > 3:
                raise InvariantError(f"{len(units)} ships in {area}")
    running = (state.get("action") or {}).get("march") or {}
    for area, o in state["orders"].items():
        if state["phase"] == "over":
            break  # an instant win may end the game in the middle of a march (R37b)
        if area in (running.get("from"), running.get("area")):
            continue  # a combat is under way: its units are between areas until it ends
        if not B.house_units(state, area, o["house"]):
            raise InvariantError(f"order {o} in {area} without its units")
    for area in state["power_tokens"]:
        if b.type[area] != "land":
            raise InvariantError(f"power token in {area}")
    if state["phase"] != "over" and not running and state["victory"] != B.victory_counts(state):
        raise InvariantError(f"victory track {state['victory']} != {B.victory_counts(state)}")
    if json.loads(json.dumps(state)) != state:
        raise InvariantError("state does not round-trip through JSON")
    if "homes" in state and (sorted(state["homes"].values()) != sorted(seats)
                             or any(board().home_of.get(a) not in seats for a in state["homes"])):
        raise InvariantError(f"random starts: homes {state['homes']} are not the seated houses' home areas")
    if state["options"].get("fog_of_war"):
        from games.engine.agot import fog

        try:
            fog.check(state)  # issue 34: no view or summary names an area its reader does not see
        except AssertionError as e:
            raise InvariantError(str(e)) from None


# ------------------------------------------------------------------ driver


def play_random_game(
    players: int,
    seed: int,
    check: bool = True,
    options: dict[str, Any] | None = None,
    max_actions: int = 50_000,
    log: bool = False,
) -> dict[str, Any]:
    """Play one game with random bots to the end. Returns {state, actions, seconds, log}.
    Raises (InvariantError, EngineError...) with the seed in the message on any failure."""
    from games.engine import get_ruleset

    r = get_ruleset("agot")
    rnd = random.Random(seed)
    seats = r.seat_names(players)
    state = r.new_game(seats, options or {}, seed)
    actions: list[tuple[str, Action]] = []
    t0 = time.perf_counter()
    n = 0
    try:
        while not r.is_over(state):
            pend = r.pending(state)
            if not pend:
                raise InvariantError("no pending decision in a running game")
            seat = rnd.choice(sorted(pend))
            act = r.random_action(state, seat, rnd)
            state, _events = r.apply(state, seat, act)
            n += 1
            if log:
                actions.append((seat, act))
            if check:
                check_invariants(state)
            if state["options"].get("gift_power_tokens") and not r.is_over(state) and rnd.random() < 0.05:
                gift = random_gift(state, rnd)  # issue 34: gifts come at any time, not as answers
                if gift is not None:
                    state, _events = r.apply(state, gift[0], gift[1])
                    n += 1
                    if log:
                        actions.append(gift)
                    if check:
                        check_invariants(state)
            if n > max_actions:
                raise InvariantError("game too long")
    except EngineError as e:
        raise EngineError(e.code, f"[agot players={players} seed={seed} action={n}] {e.reason}") from e
    except Exception as e:
        raise InvariantError(f"[agot players={players} seed={seed} action={n}] {type(e).__name__}: {e}") from e
    return {"state": state, "actions": n, "seconds": time.perf_counter() - t0, "log": actions}


def simulate(players: int, games: int, seed: int, check: bool = True) -> dict[str, Any]:
    """Play `games` random games with seeds seed, seed+1, ...; collect failures instead of stopping."""
    failures: list[tuple[int, str]] = []
    t0 = time.perf_counter()
    actions = 0
    winners: dict[str, int] = {}
    for i in range(games):
        s = seed + i
        try:
            res = play_random_game(players, s, check=check)
        except Exception as e:
            failures.append((s, f"{type(e).__name__}: {e}"))
            continue
        actions += res["actions"]
        w = res["state"]["winner"]
        winners[w] = winners.get(w, 0) + 1
    dt = time.perf_counter() - t0
    return {"games": games, "seconds": dt, "games_per_second": games / dt if dt else 0.0,
            "actions": actions, "failures": failures, "winners": winners}
