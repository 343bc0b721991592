"""Hidden information in the card game (rules/lcg.md §5.2, SCENARIOS.md "lcg" views): no view or
summary a seat (or a spectator) is shown depends on the other seat's hand, on any draw deck's
order or contents, on the other seat's plot deck or chosen plot, on setup cards before the reveal,
or on the random generator; events name a drawn card only to the one who drew it. Live games ask
every action window of both seats (`every_window`), so a view never shows whether the other seat
could have acted."""
from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.engine import get_ruleset
from games.engine.base import HIDDEN

R = get_ruleset("lcg")

PAIRINGS = [["the_old_ways", "secrets_and_schemes"], ["secrets_and_schemes", "the_old_ways"],
            ["the_old_ways", "the_old_ways"], ["secrets_and_schemes", "secrets_and_schemes"]]


def _permute_ids(state: dict[str, Any], uids: list[str], rnd: random.Random) -> None:
    """Give the cards `uids` each other's identities (which card is where changes, nothing else)."""
    ids = [state["uids"][u][0] for u in uids]
    rnd.shuffle(ids)
    for u, c in zip(uids, ids, strict=True):
        state["uids"][u][0] = c


def scramble_for(state: dict[str, Any], viewer: str | None, rnd: random.Random) -> dict[str, Any]:
    """The same game as far as `viewer` may know: the secrets it cannot see are changed."""
    s = copy.deepcopy(state)
    s["rng"] = (s["rng"] + 123456789) % 2**64
    for seat in s["seats"]:
        p = s["players"][seat]
        if seat == viewer:
            _permute_ids(s, list(p["deck"]), rnd)  # even the owner does not know the deck's order
            continue
        _permute_ids(s, p["hand"] + p["deck"], rnd)
        chosen = [p["chosen_plot"]] if p["chosen_plot"] else []
        _permute_ids(s, p["plots"] + chosen, rnd)
    return s


def _play_checking(seed: int, decks: list[str], check_every: int) -> int:
    rnd = random.Random(seed)
    state = R.new_game(["p1", "p2"], {"decks": decks}, seed)
    assert state["options"]["every_window"]
    steps = 0
    while not R.is_over(state):
        if steps % check_every == 0:
            for viewer in ["p1", "p2", None]:
                other = scramble_for(state, viewer, rnd)
                assert R.view(state, viewer) == R.view(other, viewer), (seed, steps, viewer)
                assert R.summary(state, viewer) == R.summary(other, viewer), (seed, steps, viewer)
                assert R.pending(state) == R.pending(other)
        seat = rnd.choice(sorted(R.pending(state)))
        state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
        for e in events:
            for viewer in ["p1", "p2", None]:
                ev = R.event_view(e, viewer)
                assert ev is None or "private" not in ev
                if ev and e["type"] == "draw":
                    assert ("cards" in ev) == (viewer == e["seat"])
                if ev and e["type"] in ("plot_chosen", "setup_chosen"):
                    assert set(ev) == {"type", "seat"}
        steps += 1
    return steps


@pytest.mark.parametrize("seed", range(4))
def test_no_view_depends_on_what_the_viewer_may_not_see(seed):
    """Four games (one per pairing of decks) checked densely: every third decision."""
    assert _play_checking(500 + seed, PAIRINGS[seed], check_every=3) > 50


def test_views_mask_hands_decks_plots_and_the_generator():
    state = R.new_game(["p1", "p2"], {}, 21)
    # play to the plot choice of round 1 with defaults, then let p1 choose
    while R.pending(state) != {"p1": "plot", "p2": "plot"}:
        seat = sorted(R.pending(state))[0]
        state, _ = R.apply(state, seat, R.default_action(state, seat))
    state, _ = R.apply(state, "p1", {"plot": "summons"} if state["players"]["p1"]["deck_id"] == "the_old_ways"
                       else R.default_action(state, "p1"))
    for viewer, other in (("p1", "p2"), ("p2", "p1"), (None, "p1")):
        v = R.view(state, viewer)
        text = json.dumps(v)
        assert "rng" not in v and "uids" not in v
        assert v["players"][other]["hand"] == [HIDDEN] * len(state["players"][other]["hand"])
        assert v["players"][other]["plots"] == [HIDDEN] * len(state["players"][other]["plots"])
        assert isinstance(v["players"]["p1"]["deck"], int) and isinstance(v["players"]["p2"]["deck"], int)
        s = R.summary(state, viewer)
        assert s["deck"]["p1"] == HIDDEN and s["deck"]["p2"] == HIDDEN
        assert s["hand"][other] == HIDDEN
        if viewer != "p1":
            assert s["chosen_plot"]["p1"] == HIDDEN and v["players"]["p1"]["chosen_plot"] == HIDDEN
            assert '"summons"' not in text or state["players"]["p1"]["deck_id"] != "the_old_ways"
    own = R.summary(state, "p1")
    assert own["chosen_plot"]["p1"] not in (None, HIDDEN)
    assert own["hand"]["p1"] == R.summary(state)["hand"]["p1"]


def _check_views(state, rnd, where):
    for viewer in ["p1", "p2", None]:
        other = scramble_for(state, viewer, rnd)
        assert R.view(state, viewer) == R.view(other, viewer), (where, viewer)
        assert R.summary(state, viewer) == R.summary(other, viewer), (where, viewer)
        assert R.pending(state) == R.pending(other), where


def _play_sampled(seed: int, decks: list[str], rate: float) -> int:
    """A whole random game with every event checked and the views checked at a random sample of
    the decision points (each with probability `rate`, and always at the end)."""
    rnd = random.Random(seed)
    state = R.new_game(["p1", "p2"], {"decks": decks}, seed)
    steps = 0
    while not R.is_over(state):
        if rnd.random() < rate:
            _check_views(state, rnd, (seed, steps))
        seat = rnd.choice(sorted(R.pending(state)))
        state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
        for e in events:
            for viewer in ["p1", "p2", None]:
                ev = R.event_view(e, viewer)
                assert ev is None or "private" not in ev, (seed, steps, e["type"])
                if ev and e["type"] == "draw":
                    assert ("cards" in ev) == (viewer == e["seat"])
                if ev and e["type"] in ("plot_chosen", "setup_chosen"):
                    assert set(ev) == {"type", "seat"}
        steps += 1
    _check_views(state, rnd, (seed, "end"))
    return steps


@pytest.mark.parametrize("chunk", range(4))
def test_200_random_games_show_nothing_hidden(chunk):
    """Issue 16's property over 200 random games (4 chunks of 50, every pairing of decks): every
    event of every game, and the views at about 1 decision in 60 (sampled) and at the end."""
    for i in range(50):
        seed = 1000 + 50 * chunk + i
        assert _play_sampled(seed, PAIRINGS[seed % 4], rate=1 / 60) > 20
