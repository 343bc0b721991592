"""Random games of the card game (lcg) with the two Core learn-to-play decks, in every pairing and
both window modes: invariants after every action (every card in exactly one zone, gold and power
never negative, one copy of a unique card in play per seat, L219), JSON round trip, determinism
from the seed, and timeout defaults that are always legal (rules/lcg.md §5.3)."""
from __future__ import annotations

import copy
import json
import random

import pytest

from games.engine import EngineError, get_ruleset
from games.engine.lcg import bot

R = get_ruleset("lcg")
DECKS = ["the_old_ways", "secrets_and_schemes"]
PAIRINGS = [(a, b) for a in DECKS for b in DECKS]


def play(seed: int, decks: tuple[str, str], every_window: bool, default_share: float = 0.2):
    """A whole game, seats chosen at random among those pending; returns the end state and the log."""
    state = R.new_game(["p1", "p2"], {"decks": list(decks), "every_window": every_window}, seed)
    rnd = random.Random(seed)
    log = []
    while not R.is_over(state):
        pending = R.pending(state)
        assert pending, "a game that is not over has a pending decision"
        seat = rnd.choice(sorted(pending))
        if rnd.random() < default_share:
            act = R.default_action(state, seat)
        else:
            act = R.random_action(state, seat, rnd)
        legal = R.legal_actions(state, seat)
        if legal is not None:
            assert act in legal, (act, legal)
        before, given = copy.deepcopy(state), state
        state, _events = R.apply(state, seat, act)
        assert given == before, "apply mutated its input"
        bot.check_invariants(state)
        log.append((seat, act))
        assert len(log) < 5000, "the game does not end"
    return state, log


@pytest.mark.parametrize("every_window", [False, True], ids=["skip-empty-windows", "every-window"])
@pytest.mark.parametrize("decks", PAIRINGS, ids=["-".join(p) for p in PAIRINGS])
def test_random_games_keep_the_invariants_L219_L229_L231(decks, every_window):
    for seed in range(6 if every_window else 7):  # 4 pairings x 13 = 52 games
        state, log = play(1000 + seed, decks, every_window)
        assert state["winner"] in ("p1", "p2")
        s = R.summary(state)
        loser = next(x for x in ("p1", "p2") if x != state["winner"])
        assert s["power"][state["winner"]] >= 15 or s["deck_size"][loser] == 0
        assert R.ranking(state)[0] == state["winner"]
        assert json.loads(json.dumps(state)) == state


def test_a_game_is_rebuilt_from_its_seed_and_actions():
    state, log = play(77, ("the_old_ways", "secrets_and_schemes"), True)
    again = R.new_game(["p1", "p2"], {"decks": ["the_old_ways", "secrets_and_schemes"], "every_window": True}, 77)
    for seat, act in log:
        again, _ = R.apply(again, seat, act)
    assert again == state


def test_timeout_defaults_alone_play_a_game_to_its_end():
    """§5.3: pass, keep, place nothing, a random plot, no challenge... the game still ends (by
    dominance power or decking)."""
    state = R.new_game(["p1", "p2"], {}, 5)
    steps = 0
    kinds = set()
    while not R.is_over(state):
        seat = sorted(R.pending(state))[0]
        state, events = R.apply(state, seat, R.default_action(state, seat))
        kinds.update(e["type"] for e in events)
        steps += 1
        assert steps < 3000
    assert state["winner"] in ("p1", "p2")
    # nothing is marshaled, ambushed or placed at setup (a mandatory plot like Reinforcements may
    # still put a character into play)
    assert not kinds & {"marshal", "ambush", "triggered", "played"}


def test_refused_actions_name_the_reason_and_leave_the_state_unchanged():
    state = R.new_game(["p1", "p2"], {}, 3)
    seat = next(iter(R.pending(state)))
    other = "p2" if seat == "p1" else "p1"
    before = copy.deepcopy(state)
    for who, act, code in [(other, {"mulligan": True}, "not_your_turn"), (seat, {"fly": 1}, "bad_action"),
                           (seat, {"mulligan": "yes"}, "bad_action"), (seat, {"marshal": "ice"}, "not_your_turn"),
                           (seat, {"mulligan": True, "pass": True}, "bad_action")]:
        with pytest.raises(EngineError) as err:
            R.apply(state, who, act)
        assert err.value.code == code and err.value.reason
    assert state == before


def test_options_choose_each_seat_deck_and_refuse_unknown_ones():
    state = R.new_game(["p1", "p2"], {"decks": ["secrets_and_schemes", "secrets_and_schemes"]}, 1)
    assert {state["players"][s]["faction"] for s in ("p1", "p2")} == {"lannister"}
    assert state["options"]["every_window"] is True  # live games ask every window
    for bad in ({"decks": ["nope", "the_old_ways"]}, {"decks": ["the_old_ways"]}, {"colour": 1},
                {"every_window": "yes"}):
        with pytest.raises(EngineError):
            R.new_game(["p1", "p2"], bad, 1)
    for seats in (["p1"], [f"p{i}" for i in range(1, 8)], ["p1", "p1", "p2"]):  # L3: 2 (joust) or 3-6 (melee)
        with pytest.raises(EngineError):
            R.new_game(seats, {}, 1)


def test_the_plot_timeout_default_is_a_remaining_plot_from_the_hidden_generator_L57():
    """§5.3: a random remaining plot; default_action is pure (same state, same answer)."""
    state = R.new_game(["p1", "p2"], {}, 8)
    while R.pending(state) != {"p1": "plot", "p2": "plot"}:
        seat = sorted(R.pending(state))[0]
        state, _ = R.apply(state, seat, R.default_action(state, seat))
    before = copy.deepcopy(state)
    picks = {R.default_action(state, "p1")["plot"] for _ in range(3)}
    assert state == before and len(picks) == 1
    remaining = {state["uids"][u][0] for u in state["players"]["p1"]["plots"]}
    assert picks <= remaining
    seen = set()
    for seed in range(12):  # over seeds, the default is not always the same plot
        s = R.new_game(["p1", "p2"], {"decks": ["the_old_ways", "the_old_ways"]}, seed)
        while "plot" not in R.pending(s).values():
            seat = sorted(R.pending(s))[0]
            s, _ = R.apply(s, seat, R.default_action(s, seat))
        seen.add(R.default_action(s, "p1")["plot"])
    assert len(seen) > 1
