"""Helpers shared by the card tests (tests/engine/test_lcg_cards_*.py): a game set up in the
scenario notation (SCENARIOS.md, `lcg`) with both players' plots already revealed, and short ways to
act, find a card in play, make a challenge and play the timeout defaults forward."""
from __future__ import annotations

from games.engine import get_ruleset
from games.engine.lcg import table as T

R = get_ruleset("lcg")


def game(p1, p2, start="challenges", first="p1"):
    players = {"p1": {"decklist": None, "faction": "stark", "plot": "the_winds_of_winter", **p1},
               "p2": {"decklist": None, "faction": "lannister", "plot": "the_winds_of_winter", **p2}}
    return R.scenario_game(["p1", "p2"], {}, 3, {"first_player": first, "players": players}, start, None)


def act(state, seat, a):
    return R.apply(state, seat, a)


def uid(s, seat, name):
    return T.find_in_play(s, name, [seat])


def attack(s, seat, ctype, attackers, defenders=None):
    """Initiate a challenge; the defender declares `defenders` when asked (none by default)."""
    s, ev = act(s, seat, {"challenge": {"type": ctype, "attackers": attackers}})
    other = T.opponent(s, seat)
    if R.pending(s) == {other: "defenders"}:
        s, more = act(s, other, {"defenders": defenders or []})
        ev += more
    return s, ev


def until(s, pred, limit=200):
    """Play the timeout defaults until `pred(s)` holds."""
    for _ in range(limit):
        if pred(s):
            return s
        seat = sorted(R.pending(s))[0]
        s, _ = act(s, seat, R.default_action(s, seat))
    raise AssertionError("never reached")
