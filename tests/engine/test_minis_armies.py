"""Army building for the miniatures game (games/engine/minis/armies.py): rules/minis.md M1-M17 and M126."""
from __future__ import annotations

import copy

import pytest

from games.engine.minis import armies as A
from games.engine.minis import data, setup

STARK = "list_stark_30"
LANNISTER = "list_lannister_30"


def starter(key: str) -> dict:
    army = copy.deepcopy(A.starter_armies()[key])
    army.pop("name")
    return army


def rules(army: dict) -> list[str]:
    return [p.rule for p in A.problems(army)]


def test_the_starter_lists_are_legal_armies_of_30_points_M1_M16():
    for key in (STARK, LANNISTER):
        army = starter(key)
        assert A.problems(army) == []
        assert A.points(army) == 30
        assert A.unplayable(army) == []
        # M16: seven faction cards and the Commander's three, two copies each
        deck = A.tactics_deck(army)
        assert len(deck) == 20 and len(set(deck)) == 10
        commander_cards = set(data.card(army["commander"])["tactics_cards"])
        assert commander_cards <= set(deck)
        # the engine takes it as a seat's list and agrees
        data.check_list(army["faction"], A.engine_list(army), army["game_size"])


def test_points_and_game_size_M1_M5():
    army = starter(STARK)
    army["game_size"] = 29
    assert rules(army) == ["M1"]
    assert "30 points, over the game size of 29" in A.problems(army)[0].text
    # M5: the Commander costs nothing: swapping him for another Commander keeps the points
    army = starter(LANNISTER)
    army["units"][0]["attachment"] = army["commander"] = "20116"
    army["units"][3]["attachment"] = "20117"  # Gregor commands: the Mad Dog gives way to Jaime, The Young Lion
    assert A.points(army) == 29
    assert A.problems(army) == []


def test_faction_M2():
    army = starter(STARK)
    army["units"].append({"unit": "10101"})
    army["game_size"] = 40
    found = A.problems(army)
    assert [p.rule for p in found] == ["M2"]
    assert "Lannister Guardsmen belongs to Lannister" in found[0].text


def test_neutral_cards_at_most_half_the_points_M3(monkeypatch):
    cards = dict(data.content()["cards"])
    cards["99901"] = {"id": "99901", "name": "Neutral Sellswords", "faction": "neutral", "kind": "unit",
                      "type": "infantry", "tray": "infantry", "cost": 20}
    monkeypatch.setattr(A, "cards", lambda: cards)
    army = starter(STARK)
    army["game_size"] = 50
    army["units"].append({"unit": "99901"})
    assert rules(army) == []  # 20 of 50
    army["units"].append({"unit": "99901"})
    army["game_size"] = 70
    assert rules(army) == ["M3"]  # 40 of 70


def test_one_commander_attached_M5_M6():
    army = starter(STARK)
    army["commander"] = None
    assert "M5" in rules(army)
    army = starter(STARK)
    del army["units"][0]["attachment"]  # Robb chosen but on no unit
    found = A.problems(army)
    assert [p.rule for p in found] == ["M6"]
    assert "must be attached" in found[0].text
    army = starter(STARK)
    army["units"][1]["attachment"] = "20202"  # a second Commander
    assert rules(army) == ["M5"]
    army = starter(STARK)
    army["commander"] = "20203"  # Umber Champion is no Commander
    assert "M5" in rules(army)


def test_characters_are_unique_whichever_version_M7():
    army = starter(STARK)
    army["units"][1]["attachment"] = "20206"  # Robb Stark, The Young Wolf beside Robb, The Wolf Lord
    army["game_size"] = 40
    found = A.problems(army)
    assert [p.rule for p in found] == ["M7"]
    assert "Robb Stark appears more than once" in found[0].text
    army = starter(STARK)
    army["ncus"].append("30201")
    army["game_size"] = 40
    assert rules(army) == ["M7"]


def test_card_requirements_and_copies_M8():
    army = starter(LANNISTER)
    # M8: no limit on copies of a non-character card
    army["units"].append({"unit": "10101", "attachment": "20102"})
    army["game_size"] = 40
    assert A.problems(army) == []
    # but the site fields the starter boxes' contents only (the engine's data.check_list)
    assert any("Lannister Guardsmen" in s for s in A.unplayable(army))
    assert A.report(army)["legal"] and not A.report(army)["playable"]
    # Greatjon commands; Robb, The Young Wolf rides along, so Grey Wind has his Robb
    army = starter(STARK)
    army["units"][0]["attachment"] = army["commander"] = "20202"
    army["units"][1]["attachment"] = "20206"
    army["game_size"] = 40
    assert A.problems(army) == []


def test_grey_wind_without_robb_M8():
    army = starter(STARK)
    army["units"][0]["attachment"] = army["commander"] = "20202"
    found = A.problems(army)
    assert [p.rule for p in found] == ["M8"]
    assert found[0].text == "Grey Wind needs Robb Stark in the army."


def test_attachments_match_their_unit_M9():
    army = {**starter(STARK), "game_size": 40}
    army["units"][3]["attachment"] = "20204"  # a Sworn Sword Captain (infantry) on the Outriders (cavalry)
    found = A.problems(army)
    assert [p.rule for p in found] == ["M9"]
    assert "joins Infantry units only" in found[0].text
    army = {**starter(STARK), "game_size": 40}
    army["units"][4]["attachment"] = "20204"  # Grey Wind: a solo tray
    assert "solo tray" in A.problems(army)[0].text
    with pytest.raises(A.ArmyFormatError):
        A.normalise({**starter(STARK), "units": [{"unit": "10201", "attachments": ["20204", "20203"]}]})


def test_ncus_cost_points_M15():
    army = starter(STARK)
    army["ncus"] = []
    assert A.points(army) == 26
    army["ncus"] = ["30201", "30202"]
    army["game_size"] = 40
    assert A.points(army) == 34 and A.problems(army) == []


def test_victory_points_follow_the_game_size_M126():
    assert [A.threshold(s) for s in (30, 40, 50, 60)] == [8, 10, 12, 14]
    army = starter(STARK)
    army["game_size"] = 40
    assert A.report(army)["victory_points"] == 10


def test_unknown_cards_and_shapes_are_refused_in_words():
    with pytest.raises(A.ArmyFormatError, match="Unknown cards: 12345"):
        A.normalise({**starter(STARK), "ncus": ["12345"]})
    with pytest.raises(A.ArmyFormatError, match="Stark or Lannister"):
        A.normalise({**starter(STARK), "faction": "tyrell"})
    with pytest.raises(A.ArmyFormatError, match="game size"):
        A.normalise({**starter(STARK), "game_size": "forty"})


def test_text_export_and_import_round_trip():
    for key in (STARK, LANNISTER):
        army = starter(key)
        text = A.format_text(army, "My army")
        assert "Stark Sworn Swords (5)" in text or "Lannister Guardsmen (5)" in text
        assert "(C)" in text and f"Points: 30/{army['game_size']}" in text
        back, name, unread = A.parse_text(text)
        assert (back, name, unread) == (army, "My army", [])


def test_import_reads_what_builders_write():
    text = ("Wolves\n• Stark Sworn Swords - 5\n   with Robb Stark - The Wolf Lord (C)\nStark Outriders 6 pts\n"
            "Grey Wind [3]\nCatelyn Stark (4)\nEspadas Juramentadas Stark (5)\nThe Hound (4)\n")
    army, name, unread = A.parse_text(text)
    assert name == "Wolves"
    assert army["faction"] == "stark" and army["commander"] == "20201"
    assert army["units"] == [{"unit": "10201", "attachment": "20201"}, {"unit": "10202"}, {"unit": "10204"},
                             {"unit": "10201"}]
    assert army["ncus"] == ["30201"]
    assert army["game_size"] == 30  # 29 points: the smallest size that holds them
    assert unread == ["No card is called “The Hound”."]
    assert A.problems(army) == []


def test_a_custom_army_plays_in_the_engine():
    army = starter(LANNISTER)
    army["units"][0]["attachment"] = army["commander"] = "20116"  # Gregor, The Mountain
    army["units"][3]["attachment"] = "20117"  # Jaime, The Young Lion
    army["ncus"] = ["30105"]  # Cersei
    assert A.problems(army) == [] and A.unplayable(army) == []
    state = setup.new_game(["stark", "lannister"], {"armies": {"lannister": A.engine_list(army)},
                                                     "game_size": 30}, seed=7)
    assert state["players"]["lannister"]["list"]["commander"] == "20116"
    assert sorted(state["players"]["lannister"]["deck"]) == sorted(A.tactics_deck(army))
