"""Raid orders (R132-R145)."""
from __future__ import annotations

from tests.engine.agot_helpers import R, act, game, refused, summ

TRACKS = {"iron_throne": ["lannister", "baratheon", "stark"]}


def raid_game(units, orders, **extra):
    setup = {"units": units, "orders": orders, "neutral_forces": {}, "tracks": TRACKS}
    setup.update(extra)
    return game(setup)


def test_land_raid_never_targets_sea_and_pillages_R134_R136_R137():
    s = raid_game(
        {"lannisport": {"lannister": ["footman"]}, "the_golden_sound": {"baratheon": ["ship"]},
         "stoney_sept": {"baratheon": ["footman"]}, "winterfell": {"stark": ["footman"]}},
        {"lannisport": {"lannister": "raid"}, "the_golden_sound": {"baratheon": "support+0"},
         "stoney_sept": {"baratheon": "consolidate"}, "winterfell": {"stark": "march+0"}})
    assert R.pending(s) == {"lannister": "raid"}
    assert {"raid": {"from": "lannisport", "target": "stoney_sept"}} in R.legal_actions(s, "lannister")
    refused(s, "lannister", {"raid": {"from": "lannisport", "target": "the_golden_sound"}})
    s, ev = act(s, "lannister", {"raid": {"from": "lannisport", "target": "stoney_sept"}})
    sm = summ(s)
    assert sm["power"]["lannister"] == 6 and sm["power"]["baratheon"] == 4
    assert "stoney_sept" not in sm["orders"] and "lannisport" not in sm["orders"]
    assert sm["orders"]["the_golden_sound"] == {"baratheon": "support+0"}


def test_sea_raid_reaches_land_R137():
    s = raid_game(
        {"lannisport": {"lannister": ["footman"]}, "the_golden_sound": {"baratheon": ["ship"]},
         "winterfell": {"stark": ["footman"]}},
        {"lannisport": {"lannister": "support+0"}, "the_golden_sound": {"baratheon": "raid"},
         "winterfell": {"stark": "march+0"}})
    assert R.pending(s) == {"baratheon": "raid"}
    s, _ = act(s, "baratheon", {"raid": {"from": "the_golden_sound", "target": "lannisport"}})
    assert "lannisport" not in summ(s)["orders"]


def test_special_raid_removes_defense_normal_raid_does_not_R141():
    units = {"lannisport": {"lannister": ["footman"]}, "stoney_sept": {"baratheon": ["footman"]},
             "winterfell": {"stark": ["footman"]}}
    s = raid_game(units, {"lannisport": {"lannister": "defense+1"}, "stoney_sept": {"baratheon": "raid"},
                          "winterfell": {"stark": "march+0"}})
    # no target for a normal raid: removed by the engine (R139), the Defense order stays
    assert summ(s)["orders"]["lannisport"] == {"lannister": "defense+1"}
    assert "stoney_sept" not in summ(s)["orders"] and R.pending(s) == {"stark": "march"}
    s = raid_game(units, {"lannisport": {"lannister": "defense+2*"}, "stoney_sept": {"baratheon": "raid*"},
                          "winterfell": {"stark": "march+0"}})
    s, _ = act(s, "baratheon", {"raid": {"from": "stoney_sept", "target": "lannisport"}})
    assert "lannisport" not in summ(s)["orders"]


def test_port_raids_only_its_sea_R142():
    s = raid_game(
        {"port_of_lannisport": {"lannister": ["ship"]}, "lannisport": {"lannister": ["footman"]},
         "the_golden_sound": {"baratheon": ["ship"]}, "winterfell": {"stark": ["footman"]}},
        {"port_of_lannisport": {"lannister": "raid"}, "lannisport": {"lannister": "defense+1"},
         "the_golden_sound": {"baratheon": "consolidate"}, "winterfell": {"stark": "march+0"}})
    assert R.legal_actions(s, "lannister") == [
        {"raid": {"from": "port_of_lannisport", "target": None}},
        {"raid": {"from": "port_of_lannisport", "target": "the_golden_sound"}}]


def test_raid_may_have_no_effect_R140():
    s = raid_game(
        {"lannisport": {"lannister": ["footman"]}, "stoney_sept": {"baratheon": ["footman"]},
         "winterfell": {"stark": ["footman"]}},
        {"lannisport": {"lannister": "raid"}, "stoney_sept": {"baratheon": "support+0"},
         "winterfell": {"stark": "march+0"}})
    assert R.default_action(s, "lannister") == {"raid": {"from": "lannisport", "target": None}}  # D15
    s, _ = act(s, "lannister", R.default_action(s, "lannister"))
    assert summ(s)["orders"]["stoney_sept"] == {"baratheon": "support+0"}


def test_raided_raid_never_resolves_and_turns_alternate_R132_R144():
    s = raid_game(
        {"lannisport": {"lannister": ["footman"]}, "stoney_sept": {"baratheon": ["footman"]},
         "harrenhal": {"lannister": ["footman"]}, "blackwater": {"baratheon": ["footman"]},
         "winterfell": {"stark": ["footman"]}},
        {"lannisport": {"lannister": "raid"}, "stoney_sept": {"baratheon": "raid"},
         "harrenhal": {"lannister": "raid"}, "blackwater": {"baratheon": "raid"},
         "winterfell": {"stark": "march+0"}})
    assert R.pending(s) == {"lannister": "raid"}
    s, _ = act(s, "lannister", {"raid": {"from": "lannisport", "target": "stoney_sept"}})
    # Baratheon's turn: its Stoney Sept raid is gone; Blackwater remains
    assert R.pending(s) == {"baratheon": "raid"}
    refused(s, "baratheon", {"raid": {"from": "stoney_sept", "target": "harrenhal"}})
    s, _ = act(s, "baratheon", {"raid": {"from": "blackwater", "target": "harrenhal"}})
    assert summ(s)["step"] == "march" and R.pending(s) == {"stark": "march"}


def test_pillage_R10_gain_capped_by_pool():
    s = raid_game(
        {"lannisport": {"lannister": ["footman"]}, "stoney_sept": {"baratheon": ["footman"]},
         "winterfell": {"stark": ["footman"]}},
        {"lannisport": {"lannister": "raid"}, "stoney_sept": {"baratheon": "consolidate"},
         "winterfell": {"stark": "march+0"}}, power={"lannister": 20, "baratheon": 0})
    s, ev = act(s, "lannister", {"raid": {"from": "lannisport", "target": "stoney_sept"}})
    assert summ(s)["power"] == {"stark": 5, "lannister": 20, "baratheon": 0}
    assert {"type": "pillage", "house": "lannister", "gained": 0, "victim": "baratheon", "lost": 0} in ev
