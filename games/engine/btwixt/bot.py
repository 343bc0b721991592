"""The random-game driver and the invariants (tests, `manage.py simulate --game btwixt`).
Uses only the `random.Random` it is given, never the game's generator."""
from __future__ import annotations

import json
import random
import time
from collections import Counter
from typing import Any

from games.engine.base import EngineError
from games.engine.btwixt import data, effects
from games.engine.btwixt import table as T

State = dict[str, Any]
Action = dict[str, Any]


class InvariantError(AssertionError):
    pass


def influence_cards(state: State) -> Counter[str]:
    """Every influence, event and leader card wherever it is."""
    c: Counter[str] = Counter()
    for s in state["seats"]:
        sec = state["secret"][s]
        c.update(sec["hand"])
        c.update(sec["leader_cards"])
        c.update(sec["packet"])
        c.update(sec["kept"])
        c.update(state["piles"][s])
    for key in ("influence", "events", "aside"):
        c.update(state["decks"][key])
    c.update(state["discard"])
    c.update(state["removed"])
    if state.get("playing"):
        c[state["playing"]["card"]] += 1
    return c


def allies(state: State) -> Counter[str]:
    c: Counter[str] = Counter()
    for council in state["councils"].values():
        c.update(council["allies"])
    c.update(state["dead"])
    c.update(state["decks"]["allies"])
    c.update(state["extra_allies"])
    c.update(state["row"])
    placing = state.get("placing")
    if state["current_ally"]:
        c[state["current_ally"]] += 1
    if placing and placing["source"] != "current":
        c[placing["ally"]] += 1
    for task in state["queue"]:
        if task["t"] == "claim" and task.get("ally"):
            c[task["ally"]] += 1
    return c


def tokens(state: State) -> Counter[int]:
    c: Counter[int] = Counter()
    for council in state["councils"].values():
        c.update(council["tokens"])
    c.update(state["ally_tokens"])
    c.update(state["decks"]["tokens"])
    placing = state.get("placing")
    if placing:
        c.update(placing["tokens"])
    if state.get("limbo_token") is not None:
        c[state["limbo_token"]] += 1
    return c


def check_invariants(state: State) -> None:
    """Cards, allies and power tokens conserved; piles only during a round; JSON round trip exact."""
    cs = data.cardset()
    want_cards = Counter(cs.ids("influence") + cs.ids("event") + cs.ids("leader"))
    if influence_cards(state) != want_cards:
        diff = (influence_cards(state) - want_cards) + (want_cards - influence_cards(state))
        raise InvariantError(f"influence cards not conserved: {dict(diff)}")
    if allies(state) != Counter(cs.ids("ally")):
        diff = (allies(state) - Counter(cs.ids("ally"))) + (Counter(cs.ids("ally")) - allies(state))
        raise InvariantError(f"allies not conserved: {dict(diff)}")
    if tokens(state) != Counter(cs.tokens):
        raise InvariantError("power tokens not conserved")
    if state["step"] != "game_over" and not state["decision"]:
        raise InvariantError("no pending decision in a running game")
    for s in state["seats"]:
        if s in state["knelt"] and state["decision"] and state["decision"]["kind"] == "turn" \
                and s in state["decision"]["seats"]:
            raise InvariantError(f"{s} knelt but has the turn")
    if json.loads(json.dumps(state)) != state:
        raise InvariantError("state does not round-trip through JSON")


def play_random_game(players: int, seed: int, check: bool = True, options: dict[str, Any] | None = None,
                     max_actions: int = 20_000) -> dict[str, Any]:
    """One game with random bots to the end: {state, actions, seconds, log}."""
    from games.engine import get_ruleset

    r = get_ruleset("btwixt")
    rnd = random.Random(seed)
    state = r.new_game(r.seat_names(players), options or {}, seed)
    log: list[tuple[str, Action]] = []
    t0 = time.perf_counter()
    try:
        if check:
            check_invariants(state)
        while not r.is_over(state):
            pend = r.pending(state)
            seat = rnd.choice(sorted(pend))
            act = r.random_action(state, seat, rnd)
            state, _events = r.apply(state, seat, act)
            log.append((seat, act))
            if check:
                check_invariants(state)
            if len(log) > max_actions:
                raise InvariantError("game too long")
    except EngineError as e:
        raise EngineError(e.code, f"[btwixt players={players} seed={seed} action={len(log)}] {e.reason}") from e
    except Exception as e:
        raise InvariantError(f"[btwixt players={players} seed={seed} action={len(log)}] {type(e).__name__}: {e}") from e
    return {"state": state, "actions": len(log), "seconds": time.perf_counter() - t0, "log": log}


def replay(players: int, seed: int, options: dict[str, Any], log: list[tuple[str, Action]]) -> State:
    """The same seed and actions rebuild the same state (determinism)."""
    from games.engine import get_ruleset

    r = get_ruleset("btwixt")
    state = r.new_game(r.seat_names(players), options, seed)
    for seat, act in log:
        state, _ = r.apply(state, seat, act)
    return state


def simulate(players: int, games: int, seed: int, check: bool = True,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    failures: list[tuple[int, str]] = []
    winners: dict[str, int] = {}
    actions = 0
    t0 = time.perf_counter()
    for i in range(games):
        s = seed + i
        try:
            res = play_random_game(players, s, check=check, options=options)
            if check and i < 5 and replay(players, s, options or {}, res["log"]) != res["state"]:
                raise InvariantError(f"[btwixt seed={s}] replay differs (not deterministic)")
        except Exception as e:
            failures.append((s, f"{type(e).__name__}: {e}"))
            continue
        actions += res["actions"]
        for w in res["state"]["winners"]:
            winners[w] = winners.get(w, 0) + 1
    dt = time.perf_counter() - t0
    return {"games": games, "seconds": dt, "games_per_second": games / dt if dt else 0.0,
            "actions": actions, "failures": failures, "winners": winners}




# ------------------------------------------------------------------ the engine's own player


def smart_action(state: State, seat: str) -> Action:
    """A deterministic, legal player for a seat whose player left: on its turn it kneels while it
    leads the bid; otherwise it plays the cheapest card that takes the lead (with its default target),
    sparing its big cards for strong allies; every other decision is the timeout default (claims
    and tokens then go to its weaker council, which is how the game is scored, B52)."""
    from games.engine import get_ruleset

    r = get_ruleset("btwixt")
    d = state["decision"]
    if d["kind"] != "turn":
        return r.default_action(state, seat)
    legal = r.legal_actions(state, seat) or []
    mine = T.total(state, seat)
    order = T.clockwise_from(state, state["first_player"])
    others = [s for s in state["seats"] if s != seat]
    best = max((T.total(state, s) for s in others), default=0)
    wins_ties = all(order.index(seat) < order.index(s) for s in others if T.total(state, s) == best)
    need = best - mine + (0 if wins_ties else 1)
    if need <= 0 and {"kneel": True} in legal:
        return {"kneel": True}
    ally = state["current_ally"]
    worth = (data.value(ally) if ally else 0) + 2 + len(state["extra_allies"]) * 3
    plays = [a for a in legal if "play" in a]
    for a in sorted(plays, key=lambda a: (T.card_value(state, a["play"]), a["play"], effects.canon(a.get("target")))):
        v = T.card_value(state, a["play"])
        if v >= need and v <= worth + 3:
            return a
    return {"kneel": True} if {"kneel": True} in legal else plays[0]
