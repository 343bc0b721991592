"""Random games (every option): invariants after every action (cards, allies and power tokens
conserved, JSON round trip), determinism, timeouts always legal, and hidden information (H1-H8,
N11): no view of one seat depends on another seat's hand, on deck order, on the generator, or on
power-token values before the end."""
from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games.engine import get_ruleset
from games.engine.btwixt import bot

R = get_ruleset("btwixt")
OPTIONS = [{}, {"advanced": True}, {"draft": True}, {"succession": True}, {"allies_in_sight": True},
           {"short": True, "advanced": True}, {"advanced": True, "draft": True, "allies_in_sight": True}]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "+".join(sorted(o)) or "standard")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_keep_invariants_and_are_deterministic(players, options):
    for seed in range(2):
        res = bot.play_random_game(players, 1000 * players + seed, options=options)
        assert R.is_over(res["state"]) and res["state"]["winners"]
        assert bot.replay(players, 1000 * players + seed, options, res["log"]) == res["state"]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_default_actions_are_always_legal(players):
    state = R.new_game(R.seat_names(players), {"advanced": True, "draft": True}, players)
    rnd = random.Random(players)
    while not R.is_over(state):
        seat = rnd.choice(sorted(R.pending(state)))
        act = R.default_action(state, seat) if rnd.random() < 0.5 else R.random_action(state, seat, rnd)
        legal = R.legal_actions(state, seat)
        assert act in legal
        state, _ = R.apply(state, seat, act)
        bot.check_invariants(state)


def _scramble_for(state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    s = copy.deepcopy(state)
    s["rng"] = (s["rng"] + 987654321) % 2**64
    for seat in s["seats"]:
        if seat != viewer:
            sec = s["secret"][seat]
            for key in ("hand", "leader_cards", "packet", "kept"):
                sec[key] = list(reversed(sec[key]))[:-1] + ["scrambled"] if sec[key] else []
            sec["peeked"] = list(reversed(sec["peeked"]))
            sec["options"] = []
    for name, deck in s["decks"].items():
        if name != "_pinned":
            s["decks"][name] = list(reversed(deck))
    if s["step"] != "game_over":
        for c in s["councils"].values():
            c["tokens"] = [4 - v for v in c["tokens"]]
        s["ally_tokens"] = [4 - v for v in s["ally_tokens"]]
        if s.get("placing"):
            s["placing"]["tokens"] = [4 - v for v in s["placing"]["tokens"]]
        if s.get("limbo_token") is not None:
            s["limbo_token"] = 4 - s["limbo_token"]
    return s


@pytest.mark.parametrize("options", [{}, {"advanced": True, "draft": True}, {"succession": True, "allies_in_sight": True}],
                         ids=["standard", "advanced+draft", "succession+sight"])
@pytest.mark.parametrize("players", [3, 5])
def test_views_hide_other_hands_tokens_and_decks_H1_H2_H4(players, options):
    rnd = random.Random(players)
    state = R.new_game(R.seat_names(players), options, 40 + players)
    steps = 0
    while not R.is_over(state):
        if steps % 4 == 0:
            for viewer in [*state["seats"], None]:
                other = _scramble_for(state, viewer)
                assert R.summary(state, viewer) == R.summary(other, viewer), (steps, viewer)
                v = R.view(state, viewer)
                assert v == R.view(other, viewer), (steps, viewer)
                assert "rng" not in v and set(v["secret"]) <= {viewer}
                for c in v["councils"].values():
                    assert set(c["tokens"]) <= {"hidden"}
        seat = rnd.choice(sorted(R.pending(state)))
        state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
        for e in events:
            for viewer in [*state["seats"], None]:
                ev = R.event_view(e, viewer)
                assert ev is None or "private" not in ev
                if ev and "cards" in ev:
                    assert viewer == e["seat"]
        steps += 1
    # after the end, token values are public
    s = R.summary(state, None)
    assert all(isinstance(t, int) for c in s["councils"].values() for t in c["tokens"])


def test_refused_actions_leave_the_state_unchanged():
    state = R.new_game(R.seat_names(4), {}, 9)
    seat = next(iter(R.pending(state)))
    other = next(s for s in state["seats"] if s != seat)
    before = copy.deepcopy(state)
    for s, act, code in [(other, {"kneel": True}, "not_your_turn"), (seat, {"play": "no_such_card"}, "illegal_action"),
                         (seat, {"fly": 1}, "bad_action"), (seat, {"claim": "x"}, "not_your_turn"),
                         (seat, {"reorder_dead": ["eddard_stark"]}, "illegal_action")]:
        with pytest.raises(Exception) as e:
            R.apply(state, s, act)
        assert getattr(e.value, "code", None) == code
    assert state == before


def test_tokens_on_the_ally_being_claimed_stay_hidden_B40_B42():
    seats = ["cersei", "tyrion", "olenna"]
    state = R.scenario_game(seats, {}, 5, {
        "hands": {"cersei": ["little_birds"], "tyrion": [], "olenna": []}, "current_ally": "eddard_stark",
        "decks": {"tokens": [3]}}, "bidding")
    state, _ = R.apply(state, "cersei", {"play": "little_birds"})
    assert R.pending(state) == {"cersei": "claim"}
    for viewer in [*seats, None]:
        v = R.view(state, viewer)
        assert 3 not in (v.get("placing") or {}).get("tokens", [])
        assert v["ally_tokens"] in ([], ["hidden"])
        assert R.summary(state, viewer)["ally_tokens"] == "hidden"
