"""The rules put right (issue 30): a character an ability removes from a challenge no longer
participates (rules/lcg.md L174): its STR no longer counts (L176), the challenge's record as the
views show it no longer lists it, and "the only attacking character" (The Knight of Flowers' limit
on defenders, L172) reads the characters left."""
from __future__ import annotations

import pytest

from games.engine import EngineError
from tests.engine.lcg_rules_helpers import R, act, asked, game, uid, until


def _attack_then_highgarden(options=None):
    s = game({"faction": "tyrell", "locations": ["highgarden"], "gold": 1,
              "characters": ["tumblestone_knight", "vanguard_of_the_north"]},
             {"faction": "tyrell", "characters": ["the_knight_of_flowers", "wardens_of_the_reach"]},
             first="p2", options=options)
    s = act(s, "p2", {"challenge": {"type": "military", "attackers": ["the_knight_of_flowers", "wardens_of_the_reach"]}})
    s = until(s, lambda s: asked(s, "p1", "action"))
    return act(s, "p1", {"trigger": {"card": "highgarden", "targets": [{"card": "wardens_of_the_reach", "seat": "p2"}]}})


def test_highgarden_removes_an_attacker_and_the_knight_of_flowers_attacks_alone_L172_L174_L176():
    s = _attack_then_highgarden()
    wardens = uid(s, "p2", "wardens_of_the_reach")
    assert s["inplay"][wardens]["participating"] is None and not s["inplay"][wardens]["kneeling"]
    assert R.summary(s)["challenge"]["attackers"] == ["the_knight_of_flowers"]
    assert R.view(s, "p1")["challenge"]["attackers"] == [uid(s, "p2", "the_knight_of_flowers")]
    s = until(s, lambda s: asked(s, "p1", "defenders"))
    with pytest.raises(EngineError, match="Knight of Flowers"):
        act(s, "p1", {"defenders": ["tumblestone_knight", "vanguard_of_the_north"]})
    s = act(s, "p1", {"defenders": ["vanguard_of_the_north"]})
    s = until(s, lambda s: s["challenge"]["winner"] is not None)
    assert s["challenge"]["strength"] == {"p2": 5, "p1": 4}  # the Wardens' 3 no longer count


def test_a_game_of_revision_2_kept_the_removed_attacker_in_the_record():
    s = _attack_then_highgarden({"revision": 2})
    assert R.summary(s)["challenge"]["attackers"] == ["the_knight_of_flowers", "wardens_of_the_reach"]
