"""Draft mode (B75, B76, A11, A13): a whole draft, packets passed left then right by season."""
from __future__ import annotations

from collections import Counter

from games.engine import get_ruleset
from games.engine.btwixt import bot, flow

R = get_ruleset("btwixt")
SEATS = ["cersei", "tyrion", "olenna"]


def _draft_to_the_end(state):
    while R.pending(state) and set(R.pending(state).values()) == {"keep"}:
        for seat in sorted(R.pending(state)):
            state, _ = R.apply(state, seat, R.default_action(state, seat))
            bot.check_invariants(state)
    return state


def test_a_whole_draft_gives_ten_cards_each_B75():
    state = R.new_game(SEATS, {"draft": True}, 5)
    dealt = Counter(c for s in SEATS for c in state["secret"][s]["packet"])
    state = _draft_to_the_end(state)
    assert state["step"] == "bidding"
    hands = Counter(c for s in SEATS for c in state["secret"][s]["hand"])
    assert hands == dealt
    assert all(len(state["secret"][s]["hand"]) == 10 for s in SEATS)


def test_identical_cards_are_kept_one_at_a_time():
    """A packet of two copies of one card: one is kept without asking, the other passes on."""
    state = R.scenario_game(SEATS, {"draft": True}, 5, {}, "round")
    for s in SEATS:
        state["secret"][s]["packet"] = ["city_watch", "city_watch"] if s == "cersei" else state["secret"][s]["packet"][:2]
    flow.ask_keep(state, [])
    assert state["secret"]["cersei"]["kept"] == ["city_watch"]
    assert state["secret"]["cersei"]["packet"] == ["city_watch"]


def test_direction_alternates_by_season_B76_A13():
    state = R.new_game(SEATS, {"draft": True}, 5)
    assert flow.draft_direction(state) == 1
    state["season"] = "autumn"
    assert flow.draft_direction(state) == -1
    state["season"] = "winter"
    assert flow.draft_direction(state) == 1
    five = R.new_game(R.seat_names(5), {"draft": True}, 5)
    assert five["season"] == "autumn" and flow.draft_direction(five) == 1
    five["season"] = "winter"
    assert flow.draft_direction(five) == -1


def test_advanced_draft_then_leader_card_A11():
    state = _draft_to_the_end(R.new_game(SEATS, {"draft": True, "advanced": True}, 8))
    for s in SEATS:
        hand = state["secret"][s]["hand"]
        assert len(hand) == 10
        assert sum(1 for c in hand if c.startswith(s)) == 1
