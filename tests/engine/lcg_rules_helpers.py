"""Helpers of the rules tests (tests/engine/test_lcg_rules_*.py, issue 30 "the rules put right"):
a game in the scenario notation with both plots revealed, acts that return the state, and the
timeout defaults played forward until a condition holds."""
from __future__ import annotations

from games.engine import get_ruleset
from games.engine.lcg import table as T

R = get_ruleset("lcg")


def game(p1, p2, start="challenges", first="p1", options=None):
    players = {"p1": {"decklist": None, "faction": "stark", "plot": "the_winds_of_winter", **p1},
               "p2": {"decklist": None, "faction": "lannister", "plot": "the_winds_of_winter", **p2}}
    return R.scenario_game(["p1", "p2"], options or {}, 3, {"first_player": first, "players": players}, start, None)


def act(state, seat, a):
    return R.apply(state, seat, a)[0]


def uid(s, seat, name):
    return T.find_in_play(s, name, [seat])


def until(s, pred, limit=300):
    """Play the timeout defaults (pass, decline, no defenders) until `pred(s)` holds."""
    for _ in range(limit):
        if pred(s):
            return s
        seat = sorted(R.pending(s))[0]
        s = act(s, seat, R.default_action(s, seat))
    raise AssertionError("never reached")


def asked(s, seat, kind):
    return R.pending(s).get(seat) == kind
