"""Test-only staging (run in the live server's environment, `manage.py shell -c`): one started
miniatures game per kind of decision the engine asks, each at a state taken from seeded games of the
engine's player (Stark) against the random player (Lannister) on random terrain: the First Player,
deploy, activate, a unit's action, an NCU's action, retreat moves, re-rolls, condition tokens, free
pivots, Surge Forward, discards (free and over the limit), reaction windows (with a card or Order to
play, and with nothing), each zone's choice, Influence, redeployment. Read by
tests/browser/test_minis_decisions.py."""
from __future__ import annotations

import random
from typing import Any

from games.engine import get_ruleset
from tests.browser.stage_minis import users

SEATS = ["stark", "lannister"]
# the seeds tried first (each holds some of the rarer kinds); more are tried until every kind is found
SEEDS = (0, 1, 4, 32, 39)
WANTED = {"choose:first_player", "deploy", "activate", "action:unit", "action:ncu", "retreat_move", "reroll:attack",
          "spend:attack", "spend:defense", "spend:morale", "pivot", "surge", "discard:free", "discard:count", "react",
          "react:play", "choose:crown", "choose:money", "choose:letter", "choose:horse", "choose:swords",
          "choose:influence", "redeploy"}


def decision_key(state: dict[str, Any]) -> str:
    """The kind of the pending decision, told apart where the page answers it differently."""
    d = state["decision"]
    k = d["kind"]
    if k == "choose":
        return f"choose:{d.get('what') or d.get('zone')}"
    if k in ("reroll", "spend"):
        return f"{k}:{d.get('dice')}"
    if k == "discard":
        return "discard:count" if d.get("count") else "discard:free"
    if k == "action":
        return "action:ncu" if state["act"]["ncu"] else "action:unit"
    if k == "react":
        seat = d["seats"][0]
        plays = [a for a in get_ruleset("minis").legal_actions(state, seat) or [] if "play" in a or "order" in a]
        return "react:play" if plays else "react"
    return k


def decision_states(limit: int = 60) -> dict[str, dict[str, Any]]:
    """The first state of each kind of decision (decision_key) met in seeded engine-vs-random games."""
    engine = get_ruleset("minis")
    found: dict[str, dict[str, Any]] = {}
    seeds = list(SEEDS) + [s for s in range(limit) if s not in SEEDS]
    for seed in seeds:
        if WANTED <= set(found):
            break
        rnd = random.Random(seed)
        state = engine.new_game(SEATS, {"terrain": "random"}, seed)
        for _ in range(4000):
            if engine.is_over(state):
                break
            seat = sorted(engine.pending(state))[0]
            key = decision_key(state)
            if key not in found and len(engine.pending(state)) == 1:
                found[key] = state
            action = engine.bot_action(state, seat) if seat == "stark" else engine.random_action(state, seat, rnd)
            state, _ = engine.apply(state, seat, action)
    return found


def decision_games(names: list[str], password: str) -> None:
    """One game between `names` (Stark, Lannister) per kind of decision_states(); prints
    `games <id>/<kind>/<seat>,...`."""
    from games.services.play import do_create_game

    a, b = users(names, password)
    engine = get_ruleset("minis")
    out = []
    for key, state in sorted(decision_states().items()):
        game = do_create_game(ruleset="minis", seating={"stark": a, "lannister": b}, options={"terrain": "random"})
        game.state = state
        game.version += 1
        game.save(update_fields=["state", "version"])
        out.append(f"{game.pk}/{key}/{next(iter(engine.pending(state)))}")
    print("games " + ",".join(out))
