"""The narration of a destroyed unit with three or four players names the seats that scored it (M129 with several
players, M131 free-for-all, M130 teams): the enemy whose effect destroyed it, each enemy still in the game when no
enemy's effect did, or the enemy team. The event keeps its fields (type, unit, seat, vp) and gains `scorers`
(and with teams `scoring_team`), read from the VP the flow gave; the game's state is unchanged."""
from __future__ import annotations

from games.engine import get_ruleset
from games.engine.minis import flow, narrate

R = get_ruleset("minis")
FOUR = ["stark", "lannister", "stark_2", "lannister_2"]


def _scenario(units: dict, options: dict | None = None, first: str = "stark", **keys) -> dict:
    return R.scenario_game(FOUR, options or {}, 1, {"round": 1, "first_player": first,
                                                    "hands": {s: [] for s in FOUR}, "units": units, **keys},
                           "activation")


UNITS = {"swords": {"card": "10201", "seat": "stark_2", "at": [36, 36], "facing": 0},
         "guards": {"card": "10101", "seat": "lannister", "at": [36, 36], "facing": 180, "wounds": 1},
         "a": {"card": "10201", "seat": "stark", "at": [8, 8], "facing": 0},
         "halberds": {"card": "10101", "seat": "lannister", "at": [8, 40], "facing": 180},
         "d": {"card": "10102", "seat": "lannister_2", "at": [40, 6], "facing": 0}}


def test_a_unit_destroyed_by_stark_2_in_a_free_for_all_is_scored_by_stark_2_in_words_M129_M131():
    state = _scenario(UNITS, first="stark_2", dice=[6] * 7 + [1] * 14)
    state, _ = R.apply(state, "stark_2", {"activate": "swords"})
    state, events = R.apply(state, "stark_2", {"attack": {"target": "guards", "attack": "Winter's Bite"}})
    destroyed = next(e for e in events if e["type"] == "destroyed")
    assert state["vp"] == {"stark": 0, "lannister": 0, "stark_2": 1, "lannister_2": 0}
    assert destroyed["scorers"] == ["stark_2"]
    assert set(destroyed) == {"type", "unit", "seat", "vp", "scorers"} and destroyed["seat"] == "lannister"
    said = narrate.describe(destroyed)["text"]
    assert "{stark_2} scores 1 victory point (1 in all)" in said, said
    assert "{stark}" not in said and "{lannister}" not in said  # before: "{stark} scores" (the duel's reading)


def _destroyed_by(state: dict, name: str, by: str | None) -> dict:
    events = narrate.Recorder(state)
    state["decision"] = None  # destroyed between decisions (as an attack's wounds do)
    state["units"][name]["wounds"] = 0
    flow.destroy(state, name, events, by)
    return next(e for e in events.close() if e["type"] == "destroyed")


def test_a_unit_destroyed_by_no_enemys_effect_names_each_enemy_scoring_M129():
    state = _scenario(UNITS)
    destroyed = _destroyed_by(state, "guards", None)
    assert state["vp"] == {"stark": 1, "lannister": 0, "stark_2": 1, "lannister_2": 1}
    assert destroyed["scorers"] == ["stark", "stark_2", "lannister_2"]
    said = narrate.describe(destroyed)["text"]
    assert "{stark}, {stark_2} and {lannister_2} score 1 victory point each" in said, said
    three = R.scenario_game(FOUR[:3], {}, 1, {"round": 1, "first_player": "stark", "hands": {s: [] for s in FOUR[:3]},
                                              "units": {k: v for k, v in UNITS.items() if k != "d"}}, "activation")
    said = narrate.describe(_destroyed_by(three, "guards", "lannister"))["text"]  # its owner's effect (M129)
    assert "{stark} and {stark_2} score 1 victory point each" in said, said


def test_a_unit_destroyed_in_a_team_game_names_the_scoring_team_M129_M130():
    state = _scenario(UNITS, {"multiplayer": "teams"})  # stark and lannister against stark_2 and lannister_2
    destroyed = _destroyed_by(state, "guards", "stark_2")
    assert state["vp"] == {"a": 0, "b": 1}
    assert destroyed["scorers"] == ["stark_2", "lannister_2"] and destroyed["scoring_team"] == "b"
    said = narrate.describe(destroyed)["text"]
    assert "the team of {stark_2} and {lannister_2} scores 1 victory point (1 in all)" in said, said
