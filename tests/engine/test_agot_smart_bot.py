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
    state = _planning({"lannisport": {"lannister": ["footman", "knight"]}, "stoney_sept": {"stark": ["knight"]},
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
