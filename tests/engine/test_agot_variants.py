"""AGoT variants of issue 34 beyond the fog of war (docs/rules-decisions.md "AGoT variants"):
random start positions and gifting power tokens. Scenarios: tests/scenarios/agot/variants/.

Random start positions: the seated houses' starting positions are dealt among them; a house takes
the position's home area and garrison (R26), starting units (R25) and places on the Influence tracks
(R22-R24), its supply is counted from those areas (R22), and it keeps its own house cards (R21) and
power (R27). Gifting: available power tokens move between houses at any time outside a bid (R7-R10,
R290)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine.agot import board as B
from games.engine.agot import bot, replay
from games.engine.agot.data import TRACKS, board, house_card_ids, player_count_data, setup_data
from games.engine.base import EngineError
from tests.engine.agot_helpers import R

RANDOM = {"random_starts": True}
GIFTS = {"gift_power_tokens": True}


def _units_of(state: dict, house: str) -> dict[str, Counter]:
    return {a: Counter(by[house]) for a, by in state["units"].items() if by.get(house)}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_starts_deal_every_seated_position_once_R21_R27(players):
    seats = R.seat_names(players)
    b = board()
    houses = setup_data()["houses"]
    deals = set()
    for seed in range(12):
        state = R.new_game(seats, RANDOM, seed)
        homes = state["homes"]
        assert sorted(homes.values()) == sorted(seats)                       # each house one home
        assert sorted(b.home_of[a] for a in homes) == sorted(seats)          # the seated positions
        start = {h: b.home_of[a] for a, h in homes.items()}                  # house -> position
        deals.add(tuple(sorted(start.items())))
        for h in seats:
            p = start[h]
            # R25: the position's starting units, now the house's
            expected = {a: Counter({u: n for u, n in us.items()}) for a, us in houses[p]["starting_units"].items()}
            assert _units_of(state, h) == {a: Counter({u: n for u, n in c.items() if n}) for a, c in expected.items()}
            # R26: the position's garrison, in the home the house was dealt
            assert state["garrisons"][b.home[p]] == int(houses[p]["garrison"]["strength"])
            assert B.home_of(state, b.home[p]) == h and B.home_area(state, h) == b.home[p]
            assert B.controller(state, b.home[p]) == h
            # R22: supply counted from the areas it got; R21/R27: its own cards and power
            assert state["supply"][h] == B.supply_icons(state, h)
            assert state["hands"][h] == list(house_card_ids(h))
            assert state["power"][h] == 5
        # R22-R24: the tracks follow the positions
        for t in TRACKS:
            positions = [p for p in player_count_data(players)["influence"][t] if p in seats]
            assert [start[h] for h in state["tracks"][t]] == positions
        assert state == R.new_game(seats, RANDOM, seed)                       # the seed decides the deal
    assert len(deals) > 1


def test_without_the_option_every_house_starts_at_home():
    state = R.new_game(R.seat_names(6), {}, 3)
    assert "homes" not in state and "homes" not in R.summary(state)
    for h in state["seats"]:
        assert B.home_area(state, h) == board().home[h] and B.controller(state, board().home[h]) == h


def test_the_dealt_homes_are_public_R164():
    state = R.new_game(R.seat_names(4), {**RANDOM, "fog_of_war": True}, 2)
    for viewer in [*state["seats"], None]:
        assert R.view(state, viewer)["homes"] == state["homes"]
        assert R.summary(state, viewer)["homes"] == state["homes"]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_whole_games_with_random_starts_keep_every_invariant(players):
    for seed in range(2):
        opts = {**RANDOM, "fog_of_war": seed == 1, "tides_of_battle": seed == 0}
        state = bot.play_random_game(players, 500 + seed, check=True, options=opts)["state"]
        assert state["phase"] == "over"


def test_the_smart_bot_plays_from_a_dealt_home():
    from games.engine.agot import smart_bot

    res = smart_bot.play_game(4, 7, options=RANDOM)
    assert res["state"]["phase"] == "over"


# ----------------------------------------------------------------------------- gifting power tokens


def test_a_gift_moves_available_power_and_is_logged_for_everyone_R7_R10():
    state = R.new_game(R.seat_names(3), {**GIFTS, "fog_of_war": True}, 1)
    pending = R.pending(state)
    after, events = R.apply(state, "baratheon", {"gift": {"to": "stark", "tokens": 3}})
    assert after["power"] == {**state["power"], "baratheon": 2, "stark": 8}
    assert B.pool(after, "baratheon") == B.pool(state, "baratheon") + 3
    assert R.pending(after) == pending and after["decision"] == state["decision"]
    (ev,) = events
    assert ev == {"type": "power_gifted", "house": "baratheon", "to": "stark", "tokens": 3,
                  "power": {"baratheon": 2, "stark": 8}}
    for viewer in [*state["seats"], None]:
        assert R.event_view(ev, viewer) == ev
    assert R.describe_event(ev)["text"] == "Baratheon gives three Power tokens to Stark."


@pytest.mark.parametrize(("value", "code"), [
    ({"to": "stark", "tokens": 6}, "illegal_action"),       # more than Lannister has
    ({"to": "lannister", "tokens": 1}, "illegal_action"),   # to itself
    ({"to": "stark", "tokens": 0}, "bad_action"),
    ({"to": "stark", "tokens": True}, "bad_action"),
    ({"to": "stark", "tokens": "2"}, "bad_action"),
    ({"to": "tyrell", "tokens": 1}, "bad_action"),          # not in a 3-player game
    ({"to": "stark"}, "bad_action"),
    ({"to": "stark", "tokens": 1, "note": "hi"}, "bad_action"),
    ([1], "bad_action"),
])
def test_a_gift_out_of_bounds_is_refused(value, code):
    state = R.new_game(R.seat_names(3), GIFTS, 1)
    with pytest.raises(EngineError) as info:
        R.apply(state, "lannister", {"gift": value})
    assert info.value.code == code


def test_a_gift_is_refused_without_the_option_and_after_the_game():
    state = R.new_game(R.seat_names(3), {}, 1)
    with pytest.raises(EngineError) as info:
        R.apply(state, "lannister", {"gift": {"to": "stark", "tokens": 1}})
    assert info.value.code == "illegal_action"
    over = bot.play_random_game(3, 3, check=False, options={**GIFTS, "rounds": 1})["state"]
    with pytest.raises(EngineError) as info:
        R.apply(over, "lannister", {"gift": {"to": "stark", "tokens": 1}})
    assert info.value.code == "game_over"


def test_the_receivers_pool_limits_a_gift_R9():
    state = R.scenario_game(R.seat_names(3), GIFTS, 1, {"power": {"stark": 19}}, "planning")
    with pytest.raises(EngineError) as refused:
        R.apply(state, "lannister", {"gift": {"to": "stark", "tokens": 2}})
    assert refused.value.rules == ("R9",) and "R9" not in refused.value.reason  # the rule beside, not in, the words
    after, _ = R.apply(state, "lannister", {"gift": {"to": "stark", "tokens": 1}})
    assert after["power"]["stark"] == 20 and B.pool(after, "stark") == 0


@pytest.mark.parametrize("players", [3, 6])
def test_whole_games_with_gifts_keep_every_invariant_and_replay(players):
    opts = {**GIFTS, "random_starts": True, "fog_of_war": players == 6}
    res = bot.play_random_game(players, 77, check=True, options=opts, log=True)
    gifts = [a for _s, a in res["log"] if "gift" in a]
    assert gifts, "the driver gifts now and then"
    seats = R.seat_names(players)
    rebuilt = replay.state_at(R, seats, opts, 77, res["log"], len(res["log"]) - 1)[0]
    assert rebuilt == res["state"]


def test_random_gift_never_offers_an_illegal_gift():
    rnd = random.Random(1)
    state = R.new_game(R.seat_names(4), GIFTS, 1)
    for _ in range(200):
        gift = bot.random_gift(state, rnd)
        assert gift is not None
        state, _events = R.apply(state, *gift)


# ----------------------------------------------------------------------------- the drafts before round 1

CARDS = {"draft_house_cards": True}
TRACKS_DRAFT = {"draft_tracks": True}
BOTH = {**CARDS, **TRACKS_DRAFT}


def _draft_through(state: dict, rnd: random.Random) -> tuple[dict, list[str]]:
    """Play the draft with random legal turns; returns the state after it and who drafted in turn."""
    turns = []
    while state["phase"] == "draft":
        (seat,) = R.pending(state)
        legal = R.legal_actions(state, seat)
        assert legal and all(R.apply(state, seat, a) for a in legal[:3])
        turns.append(seat)
        state, _events = R.apply(state, seat, rnd.choice(legal))
    return state, turns


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("options", [CARDS, TRACKS_DRAFT, BOTH])
def test_a_draft_gives_every_house_a_printed_hand_and_a_place_on_each_track_R21_R24(players, options):
    from games.engine.agot import draft
    from games.engine.agot.data import house_cards

    seats = R.seat_names(players)
    state = R.new_game(seats, options, players)
    assert state["phase"] == "draft" and R.pending(state) == {state["draft"]["order"][0]: "draft"}
    assert sorted(state["draft"]["order"]) == sorted(seats)
    dealt_tracks = R.new_game(seats, {}, players)["tracks"]
    state, turns = _draft_through(state, random.Random(players))
    # the turn order: the shuffled houses by the rows of the draft table, houses done passed over
    order = R.new_game(seats, options, players)["draft"]["order"]
    table = [order[i] for row in draft.ORDERS[players] for i in row]
    expected = table * 20
    left = {h: (7 if options.get("draft_house_cards") else 0) + (3 if options.get("draft_tracks") else 0) for h in seats}
    want = []
    for h in expected:
        if left[h]:
            want.append(h)
            left[h] -= 1
        if not any(left.values()):
            break
    assert turns == want
    assert state["phase"] == "planning" and state["round"] == 1 and "draft" not in state
    assert set(R.pending(state).values()) == {"place_orders"}
    cards = house_cards()
    drafted = [c for h in seats for c in state["hands"][h]]
    assert len(drafted) == len(set(drafted)) == 7 * players
    for h in seats:
        assert Counter(cards[c]["strength"] for c in state["hands"][h]) == Counter(draft.STRENGTHS)
        if not options.get("draft_house_cards"):
            assert state["hands"][h] == list(house_card_ids(h))
    for t in TRACKS:
        assert sorted(state["tracks"][t]) == sorted(seats)
        if not options.get("draft_tracks"):
            assert state["tracks"][t] == dealt_tracks[t]
    assert B.holder(state, "iron_throne") == state["tracks"]["iron_throne"][0]


def test_the_offer_keeps_the_printed_strengths_and_refusals_say_so():
    from games.engine.agot import draft
    from games.engine.agot.data import house_cards

    state = R.new_game(R.seat_names(3), BOTH, 1)
    (seat,) = R.pending(state)
    assert len(state["decision"]["cards"]) == 42 and state["decision"]["tracks"] == list(TRACKS)
    state, _ = R.apply(state, seat, {"draft": {"card": "eddard_stark"}})
    assert "eddard_stark" not in state["draft"]["pool"] and state["hands"][seat] == ["eddard_stark"]
    for _ in range(5):  # round the table until `seat` drafts again
        (other,) = R.pending(state)
        if other == seat:
            break
        state, _ = R.apply(state, other, {"draft": {"track": "iron_throne"}} if other not in state["tracks"]["iron_throne"]
                           else R.default_action(state, other))
    assert R.pending(state) == {seat: "draft"}
    assert all(house_cards()[c]["strength"] != 4 for c in draft.offered_cards(state, seat))
    for bad, code in (({"card": "tywin_lannister"}, "illegal_action"), ({"card": "eddard_stark"}, "illegal_action"),
                      ({"card": "nobody"}, "illegal_action"), ({"track": "the_wall"}, "illegal_action"),
                      ({"card": "patchface", "track": "fiefdoms"}, "bad_action"), ("patchface", "bad_action")):
        with pytest.raises(EngineError) as info:
            R.apply(state, seat, {"draft": bad})
        assert info.value.code == code, bad
    assert R.default_action(state, seat) in R.legal_actions(state, seat)


def test_the_draft_is_public_and_logged():
    state = R.new_game(R.seat_names(4), {**BOTH, "fog_of_war": True}, 2)
    (seat,) = R.pending(state)
    after, events = R.apply(state, seat, {"draft": {"track": "fiefdoms"}})
    (ev,) = events
    assert ev == {"type": "draft_track", "house": seat, "track": "fiefdoms", "position": 1}
    for viewer in [*state["seats"], None]:
        assert R.event_view(ev, viewer) == ev
        assert R.summary(after, viewer)["draft"]["order"] == state["draft"]["order"]
        assert R.view(after, viewer)["tracks"]["fiefdoms"] == [seat]
    assert R.describe_event(ev)["text"] == f"{seat.title()} drafts position 1 on the Fiefdoms track."


@pytest.mark.parametrize("players", [3, 6])
def test_whole_games_with_every_variant_keep_every_invariant_and_replay(players):
    opts = {**BOTH, **GIFTS, **RANDOM, "fog_of_war": True, "rounds": 4}
    res = bot.play_random_game(players, 11, check=True, options=opts, log=True)
    assert res["state"]["phase"] == "over"
    rebuilt = replay.state_at(R, R.seat_names(players), opts, 11, res["log"], len(res["log"]) - 1)[0]
    assert rebuilt == res["state"]


def test_the_smart_bot_drafts():
    from games.engine.agot import smart_bot

    assert smart_bot.play_game(3, 5, options=BOTH)["state"]["phase"] == "over"


# ----------------------------------------------------------------------------- anonymous players


def test_anonymous_is_an_option_the_engine_keeps_and_plays_the_same_with():
    """Anonymous players (Swords and Ravens' "faceless"): the site hides the players' names until the
    end; the engine names houses only, so a game plays the same with the option as without."""
    seats = R.seat_names(4)
    with_it = R.new_game(seats, {"anonymous": True}, 9)
    assert with_it["options"]["anonymous"] is True
    assert {**with_it, "options": {}} == {**R.new_game(seats, {}, 9), "options": {}}
    with pytest.raises(EngineError):
        R.new_game(seats, {"anonymous": "yes"}, 9)
    a = bot.play_random_game(4, 9, check=False, options={"anonymous": True})["state"]
    b = bot.play_random_game(4, 9, check=False, options={})["state"]
    assert {**a, "options": {}} == {**b, "options": {}}
