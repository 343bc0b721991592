"""A smarter default player for agot (docs/agot-bot.md): legal, deterministic, and it fights.

`smart_action(state, seat)` depends only on the state (no random generator), so the same state
always gets the same answer. It never sees another seat's secrets: its choice is computed on
`summary.view(state, seat)` (no other seat's face-down orders, bids or chosen card, no deck
contents, no rng, other houses' power hidden while a bid is open). Every choice is then checked
with the engine (`apply` on the real state); anything the engine refuses falls back to the
documented timeout default, so the bot is always legal.

Modules: smart_eval.py (strength estimates), smart_plan.py (orders), smart_act.py (marches, raids,
supports, house cards), smart_westeros.py (bids, musters). The frozen pre-issue-15 version is
smart_bot_v1.py (benchmark baseline only).
"""
from __future__ import annotations

from typing import Any

from games.engine.agot import smart_act, smart_plan, smart_westeros
from games.engine.base import EngineError, get_ruleset

State = dict[str, Any]
Action = dict[str, Any]


def smart_action(state: State, seat: str) -> Action:
    """The bot's action for the seat's pending decision (always accepted by the engine)."""
    rs = get_ruleset("agot")
    try:
        choice = _choose(visible_state(state, seat), seat)
    except (EngineError, KeyError, ValueError, IndexError, TypeError):
        choice = None
    if choice is not None:
        try:
            rs.apply(state, seat, choice)
            return choice
        except EngineError:
            pass
    return rs.default_action(state, seat)


def visible_state(state: State, seat: str) -> State:
    """What the seat may see (summary.view), with an empty secret for every other seat so the
    engine's helpers still find the keys they read."""
    from games.engine.agot import summary

    seen = summary.view(state, seat)
    seen["secret"] = {h: (seen["secret"].get(h, {}) if h == seat else {}) for h in state["seats"]}
    return seen


def plan_orders(state: State, seat: str) -> dict[str, str]:
    """The orders the bot places (smart_plan.py), on the seat's view of the state."""
    return smart_plan.plan_orders(visible_state(state, seat), seat)


def _choose(state: State, seat: str) -> Action | None:
    d = state.get("decision") or {}
    kind = d.get("kind")
    if kind == "place_orders":
        return {"place_orders": smart_plan.plan_orders(state, seat)}
    if kind == "march":
        return smart_act.march(state, seat)
    if kind == "raid":
        return smart_act.raid(state, seat)
    if kind == "house_card":
        return {"house_card": smart_act.house_card(state, seat)}
    if kind == "choose" and d.get("owner") == "combat":
        return {"choose": smart_act.card_choice(state, seat, d)}
    if kind == "bid":
        return {"bid": smart_westeros.bid(state, seat)}
    if kind == "muster":
        return {"muster": smart_westeros.muster(state, seat, d)}
    if kind == "break_tie":
        return {"break_tie": smart_westeros.break_tie(state, seat)}
    if kind == "consolidate":
        return {"consolidate": smart_westeros.consolidate(state, seat)}
    if kind == "support":
        return smart_act.support(state, seat)
    return None  # the documented defaults (accept support, blade D22, casualties, retreats, ...)


# ------------------------------------------------------------------ driver (tests, manage.py simulate --bot smart)


def play_game(players: int, seed: int, options: dict[str, Any] | None = None, smart: set[str] | None = None,
              check: bool = True, max_actions: int = 50_000) -> dict[str, Any]:
    """Play one game to the end: the `smart` seats (default: all) use smart_action, the others the
    random bot (random.Random(seed)). Invariants checked after every action. Returns {state, actions}.
    Failures are raised with the seed and the action index, like bot.play_random_game."""
    import random

    from games.engine.agot import bot

    rs = get_ruleset("agot")
    rnd = random.Random(seed)
    state = rs.new_game(rs.seat_names(players), dict(options or {}), seed)
    smart_seats = set(state["seats"]) if smart is None else set(smart)
    n = 0
    try:
        while not rs.is_over(state):
            pending = rs.pending(state)
            if not pending:
                raise bot.InvariantError("no pending decision in a running game")
            seat = sorted(pending)[0] if not rnd.random() < 0.5 else rnd.choice(sorted(pending))
            act = smart_action(state, seat) if seat in smart_seats else rs.random_action(state, seat, rnd)
            state, _events = rs.apply(state, seat, act)
            n += 1
            # Not after an instant win: action.py ends the game before removing the March order that
            # won it (reported to the lead), which check_invariants reads as an order without units.
            if check and not rs.is_over(state):
                bot.check_invariants(state)
            if n > max_actions:
                raise bot.InvariantError("game too long")
    except Exception as e:
        raise bot.InvariantError(f"[agot smart players={players} seed={seed} action={n}] {type(e).__name__}: {e}") from e
    return {"state": state, "actions": n}
