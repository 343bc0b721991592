"""The rules put right (issue 30): triggers, cancels, targets (rules/lcg.md L91-L94, L99-L104,
L124, L136, L145). Each card killed at the same time is its own trigger; a forced ability is a
triggered ability and may be cancelled, by any player's cancel unless its text says an opponent's;
"pick up to N [faction] characters" reads any player's; an ability whose effect could change
nothing, or a target the effect could not change, is not offered."""
from __future__ import annotations

import pytest

from games.engine import EngineError
from games.engine.lcg import abilities as A
from tests.engine.lcg_rules_helpers import R, act, asked, game, uid, until

KEEP = ["tumblestone_knight", "direwolf_pup", "winterfell_steward"]


def _two_lords_killed(options=None):
    """p1 reveals Wildfire Assault; p2 keeps three characters, so Eddard and Robb Stark (two Lords)
    are killed at the same time; p1's Joffrey Baratheon answers "a Lord or Lady is killed"."""
    s = game({"faction": "lannister", "characters": ["joffrey_baratheon"],
              "plots": ["wildfire_assault", "the_winds_of_winter"]},
             {"faction": "stark", "characters": [*KEEP, "eddard_stark", "robb_stark"],
              "plots": ["the_winds_of_winter", "summons"]}, start="plot", options=options)
    s = act(s, "p1", {"plot": "wildfire_assault"})
    s = act(s, "p2", {"plot": "the_winds_of_winter"})
    s = act(s, s["decision"]["seats"][0], {"first_player": "p1"})
    return act(s, "p2", {"choose": KEEP})


def test_each_character_killed_at_once_is_its_own_trigger_L92_L93():
    s = _two_lords_killed()
    assert asked(s, "p1", "reaction")
    s = act(s, "p1", {"trigger": {"card": "joffrey_baratheon"}})
    s = until(s, lambda s: asked(s, "p1", "reaction"))  # the same window, for the second Lord
    s = act(s, "p1", {"trigger": {"card": "joffrey_baratheon"}})
    joffrey = uid(s, "p1", "joffrey_baratheon")
    s = until(s, lambda s: not s["stack"] and not s["queue"] or asked(s, "p1", "reaction"))
    assert s["inplay"][joffrey]["power"] == 2
    assert not asked(s, "p1", "reaction")  # two kills, two uses: nothing left to answer


def test_revision_2_answered_a_shared_kill_once():
    s = _two_lords_killed({"revision": 2})
    s = act(s, "p1", {"trigger": {"card": "joffrey_baratheon"}})
    s = until(s, lambda s: not s["stack"] and not s["queue"])
    assert s["inplay"][uid(s, "p1", "joffrey_baratheon")]["power"] == 1


def _jorah_wins(options=None):
    s = game({"faction": "targaryen", "characters": ["ser_jorah_mormont", "tywin_lannister"],
              "hand": ["treachery"], "gold": 1},
             {"characters": [{"card": "burned_men", "kneeling": True}]}, options=options)
    s = act(s, "p1", {"challenge": {"type": "military", "attackers": ["ser_jorah_mormont"]}})
    return until(s, lambda s: s["challenge"]["winner"] is not None)


def test_a_forced_reaction_can_be_cancelled_even_by_its_own_controller_L91_L101():
    s = _jorah_wins()
    jorah = uid(s, "p1", "ser_jorah_mormont")
    s = until(s, lambda s: asked(s, "p1", "interrupt"))  # Jorah's forced reaction is about to initiate
    assert {"play": {"card": "treachery"}} in R.legal_actions(s, "p1")
    s = act(s, "p1", {"play": {"card": "treachery"}})
    s = until(s, lambda s: s["step"] == "4.2.6" or s["phase"] != "challenges")
    assert "betrayal" not in s["inplay"][jorah]["tokens"]
    assert R.summary(s)["discard"]["p1"] == ["treachery"]


def test_revision_2_resolved_forced_abilities_without_a_cancel_window():
    s = _jorah_wins({"revision": 2})
    jorah = uid(s, "p1", "ser_jorah_mormont")
    s = until(s, lambda s: s["step"] == "4.2.6" or s["phase"] != "challenges")
    assert s["inplay"][jorah]["tokens"].get("betrayal") == 1


def test_growing_strong_picks_any_players_tyrell_characters_L136():
    s = game({"faction": "tyrell", "characters": ["garden_caretaker"], "hand": ["growing_strong"], "gold": 1},
             {"faction": "tyrell", "characters": ["wardens_of_the_reach"]})
    s = until(s, lambda s: asked(s, "p1", "action"))
    theirs = {"card": "wardens_of_the_reach", "seat": "p2"}
    # legal actions name a card in play by its copy (SCENARIOS.md: <id>#<n>)
    assert {"play": {"card": "growing_strong", "targets": [{"card": "wardens_of_the_reach#1", "seat": "p2"}]}} \
        in R.legal_actions(s, "p1")
    s = act(s, "p1", {"play": {"card": "growing_strong", "targets": ["garden_caretaker", theirs]}})
    s = until(s, lambda s: not s["stack"] and not s["queue"])
    assert A.strength(s, uid(s, "p2", "wardens_of_the_reach")) == 5
    assert A.strength(s, uid(s, "p1", "garden_caretaker")) == 3


def _highgarden_against(attackers):
    s = game({"faction": "tyrell", "locations": ["highgarden"], "gold": 1, "characters": ["tumblestone_knight"]},
             {"characters": ["ser_jaime_lannister", "burned_men"]}, first="p2")
    s = act(s, "p2", {"challenge": {"type": "military", "attackers": attackers}})
    return until(s, lambda s: asked(s, "p1", "action"))


def test_stands_and_is_then_removed_needs_a_kneeling_attacker_L124_L136_L145():
    s = _highgarden_against(["ser_jaime_lannister", "burned_men"])  # Jaime attacks without kneeling
    legal = [a for a in R.legal_actions(s, "p1") if "trigger" in a]
    assert legal == [{"trigger": {"card": "highgarden#1", "targets": [{"card": "burned_men#1", "seat": "p2"}]}}]
    with pytest.raises(EngineError, match="change nothing"):
        act(s, "p1", {"trigger": {"card": "highgarden", "targets": [{"card": "ser_jaime_lannister", "seat": "p2"}]}})


def test_an_effect_without_a_target_that_could_change_nothing_is_not_offered_L124():
    """Robb Stark: "every character you control stands" with none of them kneeling. The Winds of
    Winter's claim is 2: p1 keeps three characters and chooses two [stark] ones to kill."""
    s = game({"characters": ["robb_stark", "winterfell_steward", "direwolf_pup"]},
             {"characters": ["ser_jaime_lannister"]}, first="p2")
    s = act(s, "p2", {"challenge": {"type": "military", "attackers": ["ser_jaime_lannister"]}})
    s = until(s, lambda s: asked(s, "p1", "kill"))
    s = act(s, "p1", {"kill": ["winterfell_steward", "direwolf_pup"]})
    assert not asked(s, "p1", "reaction")
    assert set(R.summary(s)["dead"]["p1"]) == {"winterfell_steward", "direwolf_pup"}


def test_the_same_effect_is_offered_when_it_could_stand_one_L124():
    s = game({"characters": ["robb_stark", "winterfell_steward", "direwolf_pup", {"card": "tumblestone_knight",
                                                                                  "kneeling": True}]},
             {"characters": ["ser_jaime_lannister"]}, first="p2")
    s = act(s, "p2", {"challenge": {"type": "military", "attackers": ["ser_jaime_lannister"]}})
    s = until(s, lambda s: asked(s, "p1", "kill"))
    s = act(s, "p1", {"kill": ["winterfell_steward", "direwolf_pup"]})
    assert asked(s, "p1", "reaction")
    s = act(s, "p1", {"trigger": "robb_stark"})
    assert not s["inplay"][uid(s, "p1", "tumblestone_knight")]["kneeling"]
