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


# Armies fielding Sansa Stark, Little Bird and Cersei Lannister, Queen Regent in place of the starter
# lists' Catelyn and Tyrion (rules revision 4: their abilities ask `choose`, `what: ncu_ability`).
NCU_ARMIES = {
    "stark": {"commander": "20201", "ncus": ["30202"],
              "units": [{"unit": "10201", "attachment": "20201"}, {"unit": "10201"},
                        {"unit": "10203", "attachment": "20203"}, {"unit": "10202"}, {"unit": "10204"}]},
    "lannister": {"commander": "20115", "ncus": ["30105"],
                  "units": [{"unit": "10101", "attachment": "20115"}, {"unit": "10101", "attachment": "20102"},
                            {"unit": "10102", "attachment": "20101"}, {"unit": "10103", "attachment": "20114"}]},
}


def ncu_ability_states(limit: int = 40) -> dict[str, dict[str, Any]]:
    """The first state asking each NCU ability (`choose:ncu_ability:<card>:<moment>`) in seeded games
    of the engine's player (both seats) with NCU_ARMIES."""
    engine = get_ruleset("minis")
    found: dict[str, dict[str, Any]] = {}
    wanted = {"choose:ncu_ability:30105:claim", "choose:ncu_ability:30202:activates", "choose:ncu_ability:30202:claim"}
    for seed in range(limit):
        if wanted <= set(found):
            break
        rnd = random.Random(seed)
        state = engine.new_game(SEATS, {"armies": NCU_ARMIES}, seed)
        for _ in range(4000):
            if engine.is_over(state):
                break
            seat = sorted(engine.pending(state))[0]
            d = state["decision"]
            if d["kind"] == "choose" and d.get("what") == "ncu_ability":
                found.setdefault(f"choose:ncu_ability:{d['ncu']}:{d['moment']}", state)
            action = engine.bot_action(state, seat) if seat == "stark" else engine.random_action(state, seat, rnd)
            state, _ = engine.apply(state, seat, action)
    return found


def ncu_ability_games(names: list[str], password: str) -> None:
    """One game between `names` (Stark, Lannister) per NCU ability asked; prints `games <id>/<kind>/<seat>,...`."""
    from games.services.play import do_create_game

    a, b = users(names, password)
    engine = get_ruleset("minis")
    out = []
    for key, state in sorted(ncu_ability_states().items()):
        game = do_create_game(ruleset="minis", seating={"stark": a, "lannister": b}, options={})
        game.state = state
        game.version += 1
        game.save(update_fields=["state", "version"])
        out.append(f"{game.pk}/{key}/{next(iter(engine.pending(state)))}")
    print("games " + ",".join(out))
