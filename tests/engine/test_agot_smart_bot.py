"""The smarter default player (games/engine/agot/smart_bot.py, docs/agot-bot.md): always legal,
deterministic, and sensible in small positions."""
from __future__ import annotations

import json

import pytest

from games.engine.agot import smart_bot
from games.engine.base import get_ruleset

RS = get_ruleset("agot")
SIX = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]
TRACKS = {"iron_throne": SIX, "fiefdoms": SIX, "kings_court": SIX}


@pytest.mark.parametrize(("players", "seed", "tides"), [(3, 1, True), (4, 2, False), (6, 3, True)])
def test_whole_games_with_smart_seats_keep_the_invariants(players: int, seed: int, tides: bool) -> None:
    res = smart_bot.play_game(players, seed, {"tides_of_battle": tides})
    assert RS.is_over(res["state"]) and res["state"]["ranking"]


def test_deterministic_and_does_not_mutate() -> None:
    state = RS.new_game(RS.seat_names(4), {}, 9)
    before = json.dumps(state, sort_keys=True)
    for seat in sorted(RS.pending(state)):
        assert smart_bot.smart_action(state, seat) == smart_bot.smart_action(state, seat)
    assert json.dumps(state, sort_keys=True) == before


def _planning(units: dict, **setup: object) -> dict:
    return RS.scenario_game(SIX, {}, 1, {"units": units, "garrisons": {}, "neutral_forces": {}, "tracks": TRACKS,
                                         **setup}, "planning")


def test_defends_a_threatened_home_and_marches_to_a_free_castle() -> None:
    # Stark's army in Stoney Sept is too strong to attack, even with every Lannister unit (5 + a
    # likely Defense 1 + Eddard 4 against 1 + March 1 + support 3 + Tywin 4)
    state = _planning({"lannisport": {"lannister": ["footman", "knight"]},
                       "stoney_sept": {"stark": ["knight", "knight", "footman"]},
                       "searoad_marches": {"lannister": ["footman"]}})
    orders = smart_bot.smart_action(state, "lannister")["place_orders"]
    assert orders["lannisport"].startswith("defense")
    # Searoad Marches is next to Highgarden and The Reach, free castle areas (no units, no garrison)
    assert orders["searoad_marches"].startswith("march")


def test_march_takes_a_free_stronghold() -> None:
    setup = {"units": {"searoad_marches": {"tyrell": ["footman"]}, "winterfell": {"stark": ["footman"]}},
             "garrisons": {}, "neutral_forces": {}, "tracks": TRACKS,
             "orders": {"searoad_marches": {"tyrell": "march+0"}, "winterfell": {"stark": "defense+1"}}}
    state = RS.scenario_game(SIX, {}, 1, setup, "action")
    act = smart_bot.smart_action(state, "tyrell")
    # Highgarden is Tyrell's already (home shield); Lannisport, an empty enemy stronghold, is not
    assert act["march"]["moves"] == {"lannisport": ["footman"]}


def test_supports_itself_and_picks_a_card_that_wins() -> None:
    setup = {"units": {"stoney_sept": {"lannister": ["knight", "footman"]}, "harrenhal": {"lannister": ["footman"]},
                       "blackwater": {"stark": ["footman", "knight"]}, "winterfell": {"stark": ["footman"]}},
             "garrisons": {}, "neutral_forces": {}, "tracks": TRACKS,
             "orders": {"stoney_sept": {"lannister": "march+0"}, "harrenhal": {"lannister": "support+0"},
                        "winterfell": {"stark": "defense+1"}}}
    state = RS.scenario_game(SIX, {}, 1, setup, "action")
    state, _ = RS.apply(state, "lannister", {"march": {"from": "stoney_sept", "moves": {"blackwater": ["knight", "footman"]}}})
    act = smart_bot.smart_action(state, "lannister")
    assert act == {"support": {"for": "lannister"}}
    state, _ = RS.apply(state, "lannister", act)
    # Lannister 4 against 3: Stark's best card is Eddard (4): the weakest card beating 3 + 4 is strength 4
    assert smart_bot.smart_action(state, "lannister") == {"house_card": "tywin_lannister"}


def test_simulate_command_with_tides_and_the_smart_bot() -> None:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("simulate", "--players", "3", "--games", "2", "--tides", "--bot", "smart", stdout=out)
    assert "2 ok, 0 failed" in out.getvalue() and "Tides of Battle, smart bot" in out.getvalue()
    out = StringIO()
    call_command("simulate", "--players", "4", "--games", "2", "--tides", stdout=out)
    assert "2 ok, 0 failed" in out.getvalue()


# ------------------------------------------------------------------ issue 15: opponents that fight


def _action(units: dict, orders: dict) -> dict:
    return RS.scenario_game(SIX, {}, 1, {"units": units, "garrisons": {}, "neutral_forces": {}, "tracks": TRACKS,
                                         "orders": orders}, "action")


def test_attacks_a_weaker_adjacent_enemy() -> None:
    # Two knights (4) + Tywin (4) against a footman with Defense +1 (2) + Eddard (4); a footman stays
    # home in Lannisport, which the Stark army threatens.
    units = {"lannisport": {"lannister": ["knight", "knight", "footman"]}, "stoney_sept": {"stark": ["footman"]}}
    orders = _planning(units)
    assert smart_bot.smart_action(orders, "lannister")["place_orders"]["lannisport"].startswith("march")
    state = _action(units, {"lannisport": {"lannister": "march+0"}, "stoney_sept": {"stark": "defense+1"}})
    act = smart_bot.smart_action(state, "lannister")
    assert act["march"]["moves"] == {"stoney_sept": ["knight", "knight"]}
    state, events = RS.apply(state, "lannister", act)
    assert any(e["type"] == "combat_started" and e["defender"] == "stark" for e in events)


def test_does_not_attack_a_clearly_stronger_enemy() -> None:
    units = {"lannisport": {"lannister": ["footman", "knight"]},
             "stoney_sept": {"stark": ["knight", "knight", "footman"]}}
    orders = smart_bot.smart_action(_planning(units), "lannister")["place_orders"]
    assert orders["lannisport"].startswith("defense")
    state = _action(units, {"lannisport": {"lannister": "march+0"}, "stoney_sept": {"stark": "defense+1"}})
    act = smart_bot.smart_action(state, "lannister")
    assert "stoney_sept" not in act["march"]["moves"]


def _battles_by_round_two(seed: int) -> int:
    state = RS.new_game(RS.seat_names(6), {}, seed)
    battles = 0
    while not RS.is_over(state) and state["round"] <= 2:
        seat = sorted(RS.pending(state))[0]
        state, events = RS.apply(state, seat, smart_bot.smart_action(state, seat))
        battles += sum(1 for e in events if e["type"] == "combat_started" and e.get("defender"))
    return battles


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_six_smart_players_fight_within_two_rounds(seed: int) -> None:
    assert _battles_by_round_two(seed) > 0


def _sampled_states(players: int, seed: int, every: int):
    """States along a game of random bots, every `every` actions, with the seat that acts."""
    import random

    rnd = random.Random(seed)
    state = RS.new_game(RS.seat_names(players), {"tides_of_battle": seed % 2 == 0}, seed)
    n = 0
    while not RS.is_over(state):
        seat = rnd.choice(sorted(RS.pending(state)))
        if n % every == 0:
            yield state, seat
        state, _ = RS.apply(state, seat, RS.random_action(state, seat, rnd))
        n += 1


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12), (5, 13), (6, 14)])
def test_legal_and_deterministic_over_random_states(players: int, seed: int) -> None:
    kinds = set()
    for state, seat in _sampled_states(players, seed, 3):
        before = json.dumps(state, sort_keys=True)
        act = smart_bot.smart_action(state, seat)
        assert smart_bot.smart_action(state, seat) == act
        assert json.dumps(state, sort_keys=True) == before
        RS.apply(state, seat, act)  # raises if illegal
        kinds.add(state["decision"]["kind"])
    assert {"place_orders", "march", "bid"} <= kinds


def _scrambled(state: dict, seat: str) -> dict:
    """The same game as `seat` sees it, with everything it may not see changed: the other seats'
    face-down orders, bids and chosen cards, every deck's order, the generator."""
    from games.engine.agot import defaults

    other = json.loads(json.dumps(state))
    other["rng"] = (int(state["rng"]) + 7919) if isinstance(state["rng"], int) else state["rng"]
    for cards in other["decks"].values():
        if isinstance(cards, list):
            cards.reverse()
    for house, secret in other["secret"].items():
        if house == seat:
            continue
        if "orders" in secret:
            secret["orders"] = defaults.default_orders(state, house)
        if "bid" in secret:
            secret["bid"] = 0 if secret["bid"] else state["power"][house]
        if "house_card" in secret:
            hand = [c for c in state["hands"][house] if c != secret["house_card"]]
            secret["house_card"] = hand[0] if hand else secret["house_card"]
    return other


@pytest.mark.parametrize(("players", "seed"), [(4, 21), (6, 22)])
def test_reads_nothing_its_seat_may_not_see(players: int, seed: int) -> None:
    checked = 0
    for state, seat in _sampled_states(players, seed, 2):
        seen = smart_bot.visible_state(state, seat)
        assert all(not v for h, v in seen["secret"].items() if h != seat)
        assert smart_bot.smart_action(_scrambled(state, seat), seat) == smart_bot.smart_action(state, seat)
        checked += 1
    assert checked > 50


def test_a_third_house_supports_the_side_with_fewer_castles() -> None:
    # Stark holds Winterfell, White Harbor, Moat Cailin and Riverrun; Lannister only Lannisport.
    units = {"lannisport": {"lannister": ["knight", "knight", "footman"]}, "stoney_sept": {"stark": ["footman"]},
             "white_harbor": {"stark": ["footman"]}, "moat_cailin": {"stark": ["footman"]},
             "riverrun": {"stark": ["footman"]}, "searoad_marches": {"tyrell": ["footman"]}}
    state = _action(units, {"lannisport": {"lannister": "march+0"}, "searoad_marches": {"tyrell": "support+0"},
                            "stoney_sept": {"stark": "defense+1"}, "white_harbor": {"stark": "defense+1"},
                            "moat_cailin": {"stark": "consolidate"}, "riverrun": {"stark": "consolidate"}})
    state, _ = RS.apply(state, "lannister", {"march": {"from": "lannisport",
                                                       "moves": {"stoney_sept": ["knight", "knight"]}}})
    assert RS.pending(state) == {"tyrell": "support"}
    assert smart_bot.smart_action(state, "tyrell") == {"support": {"for": "lannister"}}


def test_bids_with_intent() -> None:
    from games.engine.agot import smart_westeros

    state = RS.new_game(RS.seat_names(6), {}, 1)
    seat = "stark"
    state["power"][seat] = 8
    state["decision"] = {"kind": "bid", "seats": list(state["seats"]), "for": "wildlings"}
    state["wildlings"] = 0
    assert smart_westeros.bid(state, seat) == 0  # no threat: keep the power
    state["wildlings"] = 10
    assert 2 <= smart_westeros.bid(state, seat) <= 8  # a high threat: a fair share and more
    first = state["tracks"]["kings_court"][0]
    state["decision"]["for"] = "kings_court"
    assert smart_westeros.bid(state, first) <= 1  # already first: no need to spend
    last = state["tracks"]["kings_court"][-1]
    state["power"][last] = 8
    assert smart_westeros.bid(state, last) >= 2  # no special orders down there


def test_ships_attack_weaker_ships() -> None:
    units = {"ironmans_bay": {"greyjoy": ["ship", "ship", "ship"]}, "the_golden_sound": {"lannister": ["ship"]}}
    state = _action(units, {"ironmans_bay": {"greyjoy": "march+0"}, "the_golden_sound": {"lannister": "raid"}})
    act = smart_bot.smart_action(state, "greyjoy")
    assert act["march"]["moves"] == {"the_golden_sound": ["ship", "ship", "ship"]}


def test_the_iron_throne_breaks_ties_in_its_own_favour() -> None:
    from games.engine.agot import smart_westeros

    state = RS.new_game(RS.seat_names(6), {}, 1)
    holder = state["tracks"]["iron_throne"][0]
    others = [h for h in state["tracks"]["fiefdoms"] if h != holder][:2]
    state["decision"] = {"kind": "break_tie", "seats": [holder], "tied": others + [holder], "bid": 1, "for": "fiefdoms"}
    order = smart_westeros.break_tie(state, holder)
    assert order[0] == holder and sorted(order) == sorted(others + [holder])
