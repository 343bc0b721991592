"""The rules put right (issue 30), first the bugs: a defender that joined before 4.2.1 stays a
defender; the leave-play interrupts that do not save (Ser Davos Seaworth, Shireen Baratheon,
Viserys Targaryen) answer leaves that cannot be saved, the delayed returns to hand included, while
saves are still refused (rules/lcg.md L91, L172, L174, L213, L218, L220)."""
from __future__ import annotations

import pytest

from games.engine import EngineError
from tests.engine.lcg_rules_helpers import R, act, asked, game, uid, until


def test_ours_is_the_fury_before_defenders_are_declared_keeps_its_defender_L172_L174():
    s = game({"faction": "baratheon", "characters": [{"card": "robert_baratheon", "kneeling": True}, "bastard_in_hiding"],
              "hand": ["ours_is_the_fury"], "gold": 5},
             {"characters": ["tywin_lannister"]}, first="p2")
    s = act(s, "p2", {"challenge": {"type": "military", "attackers": ["tywin_lannister"]}})
    assert asked(s, "p1", "action")  # the window after attackers are declared
    s = act(s, "p1", {"play": {"card": "ours_is_the_fury", "targets": ["robert_baratheon"]}})
    s = until(s, lambda s: asked(s, "p1", "defenders"))
    s = act(s, "p1", {"defenders": ["bastard_in_hiding"]})
    robert, bastard = uid(s, "p1", "robert_baratheon"), uid(s, "p1", "bastard_in_hiding")
    assert set(s["challenge"]["defenders"]) == {robert, bastard}
    assert R.summary(s)["challenge"]["defenders"] == ["robert_baratheon", "bastard_in_hiding"]
    assert s["inplay"][robert]["participating"] == "defending"
    s = until(s, lambda s: s["challenge"]["winner"] is not None)
    # both count, as when Ours Is the Fury is played after 4.2.1 (scenario
    # baratheon_targaryen/11-jousting-contest-and-ours-is-the-fury): 9 against Tywin's 6
    assert s["challenge"]["strength"] == {"p1": 9, "p2": 6} and s["challenge"]["winner"] == "p1"


def _wildfire(p1_chars, p1_hand=()):
    s = game({"faction": "baratheon", "characters": p1_chars, "hand": list(p1_hand),
              "plots": ["wildfire_assault", "the_winds_of_winter"]},
             {"characters": ["tywin_lannister"], "plots": ["the_winds_of_winter", "summons"]}, start="plot")
    s = act(s, "p1", {"plot": "wildfire_assault"})
    s = act(s, "p2", {"plot": "the_winds_of_winter"})
    return act(s, s["decision"]["seats"][0], {"first_player": "p1"})


FOUR = ["bastard_in_hiding", "dragonstone_faithful", "fiery_followers"]


def test_davos_goes_back_to_hand_even_from_wildfire_assault_L214_L218():
    s = _wildfire([*FOUR, "ser_davos_seaworth"])
    s = act(s, "p1", {"choose": FOUR})  # Davos is not kept: he would be killed, unsavable
    assert asked(s, "p1", "interrupt")
    assert [a for a in R.legal_actions(s, "p1") if "trigger" in a] == [{"trigger": {"card": "ser_davos_seaworth#1"}}]
    s = act(s, "p1", {"trigger": {"card": "ser_davos_seaworth"}})
    assert "ser_davos_seaworth" in R.summary(s, "p1")["hand"]["p1"]
    assert "ser_davos_seaworth" not in R.summary(s)["dead"]["p1"]


def test_shireen_kneels_a_character_when_wildfire_assault_kills_her_L91_L218():
    s = _wildfire([*FOUR, "shireen_baratheon"])
    s = act(s, "p1", {"choose": FOUR})
    assert asked(s, "p1", "interrupt")
    s = act(s, "p1", {"trigger": {"card": "shireen_baratheon", "targets": [{"card": "tywin_lannister", "seat": "p2"}]}})
    s = until(s, lambda s: "shireen_baratheon" in R.summary(s)["dead"]["p1"])
    assert s["inplay"][uid(s, "p2", "tywin_lannister")]["kneeling"]


def test_an_unsavable_kill_offers_no_save_a_duplicate_cannot_save_L218_L220():
    s = _wildfire([*FOUR, {"card": "shireen_baratheon", "duplicates": 1}])
    s = act(s, "p1", {"choose": FOUR})
    legal = R.legal_actions(s, "p1")
    assert not any(isinstance(a.get("trigger"), dict) and a["trigger"].get("duplicate") for a in legal)
    with pytest.raises(EngineError):
        act(s, "p1", {"trigger": {"card": "shireen_baratheon", "duplicate": True}})


def test_viserys_answers_waking_the_dragon_returning_him_to_hand_L91_L213():
    s = game({"faction": "targaryen", "characters": [{"card": "viserys_targaryen", "kneeling": True}],
              "hand": ["waking_the_dragon"], "gold": 5},
             {"characters": [{"card": "tywin_lannister", "attachments": ["little_bird"]}]}, start="dominance")
    s = until(s, lambda s: asked(s, "p1", "action"))
    s = act(s, "p1", {"play": {"card": "waking_the_dragon", "targets": ["viserys_targaryen"]}})
    assert not s["inplay"][uid(s, "p1", "viserys_targaryen")]["kneeling"]
    s = until(s, lambda s: asked(s, "p1", "interrupt"))  # when the phase ends he would go back to hand
    s = act(s, "p1", {"trigger": {"card": "viserys_targaryen", "targets": [{"card": "little_bird", "seat": "p2"}]}})
    s = until(s, lambda s: not s["stack"] and "viserys_targaryen" in R.summary(s, "p1")["hand"]["p1"])
    assert R.summary(s)["discard"]["p2"] == ["little_bird"]


def test_a_game_of_revision_2_keeps_the_old_readings():
    s = game({"faction": "targaryen", "characters": [{"card": "viserys_targaryen", "kneeling": True}],
              "hand": ["waking_the_dragon"], "gold": 5},
             {"characters": [{"card": "tywin_lannister", "attachments": ["little_bird"]}]}, start="dominance",
             options={"revision": 2})
    s = until(s, lambda s: asked(s, "p1", "action"))
    s = act(s, "p1", {"play": {"card": "waking_the_dragon", "targets": ["viserys_targaryen"]}})
    s = until(s, lambda s: "viserys_targaryen" in R.summary(s, "p1")["hand"]["p1"])
    assert R.summary(s)["attachments"]["p2"] == ["little_bird"]
