"""Melee, 3 to 6 players with the Core Set's titles (games/engine/lcg/melee.py, issue 31; rules/lcg.md
L3-L4, L45, L62, L83, §2.9 L203-L210). The rules cases are scenarios (tests/scenarios/lcg/melee/);
these tests play whole games: invariants after every action, hidden information with several
opponents, elimination with the game going on, the timeout defaults, replay and the joust unchanged."""
from __future__ import annotations

import copy
import json
import random

import pytest

from games.engine import get_ruleset
from games.engine.base import HIDDEN, EngineError
from games.engine.lcg import bot, melee
from tests.engine.test_lcg_hidden_info import scramble_for

R = get_ruleset("lcg")


def test_seats_3_to_6_play_a_melee_and_the_joust_has_no_titles_L3_L4():
    for n in (3, 4, 5, 6):
        seats = R.seat_names(n)
        assert seats == [f"p{i}" for i in range(1, n + 1)]
        state = R.new_game(seats, {}, n)
        assert state["melee"]["titles"] == {}
        assert sorted(state["players"]) == seats
        assert {state["players"][s]["deck_id"] for s in seats} == {"the_old_ways", "secrets_and_schemes"}
    joust = R.new_game(R.seat_names(2), {}, 1)
    assert "melee" not in joust
    assert "titles" not in R.summary(joust)
    for bad in (1, 7):
        with pytest.raises(EngineError):
            R.seat_names(bad)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_melee_games_keep_every_invariant(n):
    """Invariants after every action (bot.check_invariants and check_melee), both window modes,
    the engine's player in one seat: every game reaches its end with one winner (L229-L232)."""
    for k, every in enumerate((False, True)):
        res = bot.play_melee(1000 * n + k, n, smart=("p1",) if k else (), every_window=every)
        state = res["state"]
        assert state["over"] and state["winner"] in state["seats"]
        ranking = R.ranking(state)
        assert ranking[0] == state["winner"] and sorted(ranking) == sorted(state["seats"])
        assert json.loads(json.dumps(state)) == state


def _play(state, rnd, *, check=None, limit=40000):
    n = 0
    while not state["over"]:
        seat = sorted(R.pending(state))[0]
        act = bot.random_action(state, seat, rnd)
        before = copy.deepcopy(state)
        state, events = R.apply(state, seat, act)
        assert before == copy.deepcopy(before)
        bot.check_invariants(state)
        bot.check_melee(state)
        if check:
            check(state, events)
        n += 1
        assert n < limit
    return state


def test_titles_are_picked_in_player_order_from_a_pool_of_the_right_size_L203():
    """The first title decision of every count: the first player is asked first, with 4, 5, 5 or 6
    titles offered (2, 1, 1 or 0 removed at random); each later seat in player order sees one fewer."""
    for n, offered in ((3, 4), (4, 5), (5, 5), (6, 6)):
        rnd = random.Random(n)
        state = R.new_game(R.seat_names(n), {"every_window": False}, 50 + n)
        while not (state["decision"] and state["decision"]["kind"] == "title"):
            seat = sorted(R.pending(state))[0]
            state, _ = R.apply(state, seat, bot.random_action(state, seat, rnd))
        order = [s for s in state["seats"][state["seats"].index(state["first_player"]):] + state["seats"]][:n]
        for i, s in enumerate(order):
            if offered - i < 2:
                break  # the last title left is taken without asking
            d = state["decision"]
            assert d["kind"] == "title" and d["seats"] == [s] and len(d["options"]) == offered - i
            assert len(state["melee"]["removed"]) == 6 - offered
            state, events = R.apply(state, s, {"title": d["options"][0]})
            assert events[0] == {"type": "title_chosen", "seat": s}  # which title: not said
        held = state["melee"]["titles"]
        assert sorted(held) == sorted(state["seats"]) and len(set(held.values())) == n


def test_views_hide_every_other_seat_and_the_titles_until_revealed_L203():
    """With four seats: no view (seat or spectator) depends on another seat's hand, any deck, another
    seat's plot deck or chosen plot, another seat's secret title, or what is offered to the seat
    choosing; the seat choosing sees its options, nobody else does."""
    rnd = random.Random(7)
    state = R.new_game(R.seat_names(4), {}, 7)
    seen_title_decision = 0
    steps = 0
    while not state["over"] and steps < 1500:
        d = state["decision"]
        for viewer in [*state["seats"], None]:
            other = scramble_for(state, viewer, rnd)
            m = other.get("melee")
            if m and m["selecting"]:
                # another seat's secret pick, and the titles not offered to the viewer, changed
                for s, t in list(m["picked"].items()):
                    if s != viewer and t is not None:
                        spare = [x for x in melee.TITLES if x not in m["picked"].values() and x not in m["offer"]]
                        if spare:
                            m["removed"] = sorted([t, *[x for x in m["removed"] if x != spare[0]]])
                            m["picked"][s] = spare[0]
                            break
            assert R.view(state, viewer) == R.view(other, viewer), (steps, viewer)
            assert R.summary(state, viewer) == R.summary(other, viewer), (steps, viewer)
        if d and d["kind"] == "title":
            seen_title_decision += 1
            chooser = d["seats"][0]
            assert R.view(state, chooser)["decision"]["options"] == d["options"]
            assert R.view(state, chooser)["melee"]["offer"] == d["options"]
            for s in [*state["seats"], None]:
                if s != chooser:
                    v = R.view(state, s)
                    assert "options" not in v["decision"] and v["melee"]["offer"] is None
                    assert set(v["melee"]["picked"].values()) <= {HIDDEN, "hidden", None} | (
                        {state["melee"]["picked"].get(s)} if s else set())
        seat = rnd.choice(sorted(R.pending(state)))
        state, _ = R.apply(state, seat, bot.random_action(state, seat, rnd))
        steps += 1
    assert seen_title_decision >= 3


def test_a_decked_player_is_eliminated_and_the_others_play_on_L231_L232():
    """Two seats with short draw decks: each is eliminated when its deck runs out, its cards leave
    play, it is never asked again, and the last seat standing (or one at 15 power) wins."""
    setup = {"first_player": "p1", "players": {
        "p1": {"decklist": "the_old_ways", "deck_size": 4},
        "p2": {"decklist": "secrets_and_schemes", "deck_size": 6},
        "p3": {"decklist": "the_old_ways"},
        "p4": {"decklist": "secrets_and_schemes"}}}
    state = R.scenario_game(R.seat_names(4), {}, 3, setup, "plot")
    out: list[str] = []

    def check(state, events):
        for e in events:
            if e["type"] == "eliminated":
                out.append(e["seat"])
                if not state["over"]:
                    assert not state["players"][e["seat"]]["play"]
                    assert e["seat"] not in state["melee"]["titles"]

    state = _play(state, random.Random(3), check=check)
    assert out[:2] and set(out[:2]) <= {"p1", "p2"}
    assert state["winner"] not in out[:2]
    assert R.ranking(state)[-1] == out[0]


def test_the_timeout_defaults_alone_end_a_melee():
    """Every seat answering only with default_action (pass, no defenders, first title offered...):
    the decks run out, the seats are eliminated one by one, and the game ends."""
    state = R.new_game(R.seat_names(4), {}, 11)
    n = 0
    while not state["over"]:
        seat = sorted(R.pending(state))[0]
        state, _ = R.apply(state, seat, R.default_action(state, seat))
        bot.check_invariants(state)
        bot.check_melee(state)
        n += 1
        assert n < 20000
    assert len(state["melee"]["out"]) >= 1 or state["winner"]


def test_replay_from_the_seed_and_the_actions_gives_the_same_game():
    rnd = random.Random(5)
    state = R.new_game(R.seat_names(5), {}, 5)
    start = copy.deepcopy(state)
    acts = []
    while not state["over"]:
        seat = sorted(R.pending(state))[0]
        act = bot.random_action(state, seat, rnd)
        acts.append((seat, act))
        state, _ = R.apply(state, seat, act)
    again = start
    for seat, act in acts:
        again, _ = R.apply(again, seat, act)
    assert again == state


def test_a_challenge_names_any_opponent_and_never_an_eliminated_one_L169():
    setup = {"first_player": "p1", "players": {s: {"decklist": "the_old_ways"} for s in R.seat_names(3)}}
    state = R.scenario_game(R.seat_names(3), {}, 1, setup, "plot")
    state["eliminated"].append("p3")
    state["melee"]["out"].append("p3")
    assert melee.legal_opponents(state, "p1", "military") == ["p2"]
    from games.engine.lcg import table as T

    assert T.player_order(state) == ["p1", "p2"] and T.next_seat(state, "p2") == "p1"


def _titled(titles, plot="plot_0"):
    cards = [{"id": "plot_0", "type": "plot", "plot": {"income": 0, "initiative": 0, "claim": 1, "reserve": 6}},
             {"id": "a_p", "type": "character", "cost": 1, "strength": 1, "icons": ["power", "military"]}]
    seats = R.seat_names(len(titles))
    players = {s: {"decklist": None, "faction": "stark", "plot": "plot_0"} for s in seats}
    players["p1"].update(plot=plot, characters=["a_p", "a_p", "a_p"])
    setup = {"first_player": "p1", "titles": dict(zip(seats, titles, strict=True)), "players": players}
    return R.scenario_game(seats, {}, 1, setup, "challenges", extra={"cards": cards})


def test_hand_of_the_king_lifts_only_the_per_type_limit_not_sneak_attack_L72():
    """Hand of the King's second power challenge (against another opponent) is refused under Sneak
    Attack's "at most 1 challenge this phase": only the limit of L72 is lifted."""
    titles = ["hand_of_the_king", "crown_regent", "master_of_ships", "master_of_coin"]
    state = _titled(titles)
    state, _ = R.apply(state, "p1", {"challenge": {"type": "power", "attackers": ["a_p#1"], "opponent": "p3"}})
    state, _ = R.apply(state, "p2", {"redirect": False})
    assert R.pending(state) == {"p1": "challenge"}
    state2, _ = R.apply(state, "p1", {"challenge": {"type": "power", "attackers": ["a_p#2"], "opponent": "p4"}})
    assert state2["challenge"]["defender"] == "p4"
    sneaky = _titled(titles, plot="sneak_attack")
    sneaky, _ = R.apply(sneaky, "p1", {"challenge": {"type": "power", "attackers": ["a_p#1"], "opponent": "p3"}})
    sneaky, _ = R.apply(sneaky, "p2", {"redirect": False})
    assert R.pending(sneaky) != {"p1": "challenge"}  # p1 is not offered a second challenge
    assert [e for e in sneaky["melee"]["against"].get("p1", [])] in ([], [["power", "p3"]])


def test_the_regent_declining_leaves_the_challenge_and_the_redirect_for_later_L208():
    state = _titled(["master_of_laws", "crown_regent", "master_of_ships"])
    state, _ = R.apply(state, "p1", {"challenge": {"type": "power", "attackers": ["a_p#1"], "opponent": "p3"}})
    assert R.pending(state) == {"p2": "redirect"}
    assert R.default_action(state, "p2") == {"redirect": False}
    state, _ = R.apply(state, "p2", {"redirect": False})
    assert state["challenge"]["defender"] == "p3" and not state["melee"]["regent_used"]
    state, _ = R.apply(state, "p1", {"challenge": {"type": "military", "attackers": ["a_p#2"], "opponent": "p3"}})
    assert R.pending(state) == {"p2": "redirect"}  # still unused this round
