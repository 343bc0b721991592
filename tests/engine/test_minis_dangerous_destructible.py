"""Dangerous and Destructible terrain (M78, M79; rules revision 2) in whole games, and the engine's
player of issue 32: random players on the lobby's random terrain keep every invariant while units
are wounded on Stakes and pieces are attacked away; the new player charges and attacks against
itself, shoots with a ranged unit, and plays a game against the frozen older player (bot_v1.py).
The rules cases are scenarios 61-63."""
from __future__ import annotations

import random
from pathlib import Path

from games.engine import get_ruleset, yamlfile
from games.engine import scenarios as S
from games.engine.minis import bot, bot_v1, narrate

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "minis"


def _random_game(seed: int) -> list[dict]:
    rnd = random.Random(seed)
    state = R.new_game(SEATS, {"terrain": "random"}, seed)
    seen = []
    while not R.is_over(state):
        seat = rnd.choice(sorted(R.pending(state)))
        state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
        bot.check_invariants(state, events)
        seen += [e for e in events if e["type"] in ("dangerous", "terrain_destroyed")]
    return seen


def test_random_terrain_games_wound_on_stakes_and_remove_pieces():
    seen = _random_game(4) + _random_game(6)  # seed 4 has Stakes, seed 6 a Low wall (M79)
    kinds = {(e["type"], e.get("why")) for e in seen}
    assert ("dangerous", "action") in kinds and ("dangerous", "enter") in kinds
    assert ("terrain_destroyed", None) in kinds
    for e in seen:
        if e["type"] == "dangerous":
            assert 2 <= e["wounds"] <= 4 and e["wounds"] == e["roll"] + 1  # 1D3+1
        words = "".join(p if isinstance(p, str) else p.get("text", "") for p in narrate.parts(e))
        assert "_" not in words and ("Dangerous" in words or "removes it" in words)


def test_the_new_player_charges_and_attacks_against_itself():
    rnd = random.Random(7000)
    state = R.new_game(SEATS, {}, 7000)
    made = {"charge": 0, "attack": 0}
    while not R.is_over(state):
        seat = rnd.choice(sorted(R.pending(state)))
        state, events = R.apply(state, seat, R.bot_action(state, seat))
        bot.check_invariants(state, events)
        for e in events:
            if e["type"] in made:
                made[e["type"]] += 1
    assert made["charge"] >= 1 and made["attack"] >= 1


def test_the_new_player_shoots_with_a_ranged_unit():
    data = yamlfile.loads((SCENARIOS / "60-elevated-shooting-and-horrific-morale.yaml").read_text())
    state = S._scenario_game(R, data["seats"], {}, 0, data["setup"], None, {"cards": data["cards"]})
    state, _ = R.apply(state, "lannister", {"activate": "xbows"})
    action = bot.bot_action(state, "lannister")
    assert action["attack"]["target"] == "swords" and action["attack"]["attack"] == "Crossbow"


def test_a_game_against_the_older_player_ends():
    res = bot.play_game(6001, {"stark": "bot_v1", "lannister": "bot"})
    assert R.is_over(res["state"])
    assert bot_v1.bot_action is not bot.bot_action


def test_a_unit_aligned_by_an_enemys_charge_onto_stakes_enters_them():
    """M70 and M78 Dangerous: the second enemy aligned 50 % with the charger (0.5 in to the west)
    moves into stakes its start tray did not touch: 1D3+1 wounds (die 3: 4). Its push-back onto
    stakes is scenario 64."""
    units = {"swords": {"card": "10201", "at": [24, 8], "facing": 0},
             "guards": {"card": "10101", "at": [24, 19], "facing": 180},
             "guards2": {"card": "10101", "at": [30, 19], "facing": 180}}
    terrain = [{"id": "stakes", "type": "stakes", "rect": {"center": [26.6, 22], "size": [0.8, 3], "rotation": 0}}]
    state = R.scenario_game(SEATS, {}, 1, {"hands": {"stark": [], "lannister": []}, "units": units,
                                           "terrain": terrain, "dice": [6, 3] + [1] * 7}, None)
    state, _ = R.apply(state, "stark", {"activate": "swords"})
    state, events = R.apply(state, "stark", {"charge": {"target": "guards", "align": "left"}})
    assert state["units"]["guards2"]["at"] == [29.5, 19.0]  # aligned 50 %, still engaged
    hurt = [e for e in events if e["type"] == "dangerous"]
    assert [(e["unit"], e["why"], e["wounds"]) for e in hurt] == [("guards2", "enter", 4)]
    assert state["units"]["guards2"]["wounds"] == 8 and state["units"]["guards"]["wounds"] == 12


def test_the_maneuver_zones_free_move_and_a_cards_shift_enter_stakes():
    """M78 Dangerous: a unit entering a piece by a move it did not make as its action enters it all
    the same: the Maneuver zone's free Maneuver (M35) and a card's move (cards._move: the shifts of
    Swift and Tactical Reposition, Overrun's March)."""
    stakes = [{"id": "stakes", "type": "stakes", "rect": {"center": [24, 13], "size": [6, 1], "rotation": 0}}]
    units = {"guards": {"card": "10101", "at": [24, 10], "facing": 0, "activated": True},
             "swords": {"card": "10201", "at": [24, 40], "facing": 180, "activated": True}}
    state = R.scenario_game(SEATS, {}, 1, {"hands": {"stark": [], "lannister": []}, "units": units,
                                           "terrain": stakes, "first_player": "lannister",
                                           "ncus": {"30104": {"activated": False}}, "dice": [2]}, None)
    state, _ = R.apply(state, "lannister", {"activate": "30104"})
    state, _ = R.apply(state, "lannister", {"claim": {"zone": "horse"}})
    state, events = R.apply(state, "lannister", {"choose": {"unit": "guards", "maneuver": {"forward": 4}}})
    hurt = [e for e in events if e["type"] == "dangerous"]
    assert [(e["unit"], e["why"], e["wounds"]) for e in hurt] == [("guards", "enter", 3)]
    assert state["units"]["guards"]["wounds"] == 9
    # a card's shift, 3 in forward into the stakes
    from games.engine.minis import cards
    state = R.scenario_game(SEATS, {}, 1, {"hands": {"stark": [], "lannister": []}, "units": units,
                                           "terrain": stakes, "dice": [1]}, None)
    events = []
    cards._move(state, "guards", [24.0, 13.0], 0.0, "shift", events)
    assert [(e["unit"], e["wounds"]) for e in events if e["type"] == "dangerous"] == [("guards", 2)]
