"""Rules revision 5 (docs/engine-minis.md, docs/rules-decisions.md "Miniatures: rules revision 5"): the
random terrain's 7, "A elección del jugador" (M22, seed 2300-2308), is the hill, a piece the players agree
as Elevated (seed 2008-2011, M78 Elevated seed 2039-2041), so that random terrain over games carries every
keyword of M78; and the Combat zone's free Attack (M35, seed 1497-1501) may attack a Destructible piece
within 1 in (M78, seed 2031-2033) as an activation's Attack does. Scenarios 77-79 show the same in the
notation; a game whose options say `revision: 4` keeps the earlier behaviour."""
from __future__ import annotations

import pytest

from games.engine import get_ruleset
from games.engine.base import EngineError
from games.engine.minis import bot, data, flow, setup
from games.engine.minis import geometry as G
from games.engine.minis import table as T

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]


def _drawn(revision: int | None, dice: list[int]) -> list[str]:
    """The pieces place_random_terrain draws from scripted dice: the 1D3 count, then 2D6 per piece."""
    s = R.new_game(SEATS, {} if revision is None else {"revision": revision}, 11)
    s["terrain"] = []
    s["dice"] = list(dice)
    setup.place_random_terrain(s)
    assert s["dice"] == []
    return [t["type"] for t in s["terrain"]]


def test_a_seven_on_the_terrain_table_is_a_hill_from_revision_5():
    # 1D3 = 1: three pieces; 2D6 3 + 4 = 7 (the player's choice), 4 + 6 = 10 (Forest), 5 + 6 = 11 (Weirwood)
    dice = [1, 3, 4, 4, 6, 5, 6]
    assert _drawn(None, dice) == ["hill", "forest", "weirwood"]
    assert _drawn(4, dice) == ["forest", "forest", "weirwood"]  # revision 4: the 7 read as a Forest


def test_the_hill_is_elevated_round_and_named():
    assert data.TERRAIN_TYPES["hill"] == ["elevated"]
    assert "hill" in setup.ROUND_PIECES and setup.PLAYERS_CHOICE == "hill"
    assert T._terrain_word("hill") == "hill"


def test_random_terrain_over_games_carries_every_keyword_and_only_the_sevens_change():
    keywords: set[str] = set()
    hills = 0
    for seed in range(30):
        new = R.new_game(SEATS, {"terrain": "random"}, seed)["terrain"]
        old = R.new_game(SEATS, {"terrain": "random", "revision": 4}, seed)["terrain"]
        assert len(new) == len(old)
        for a, b in zip(new, old, strict=True):
            keywords |= set(a["keywords"])
            shape = {k: v for k, v in a.items() if k not in ("type", "keywords")}
            assert shape == {k: v for k, v in b.items() if k not in ("type", "keywords")}
            if a["type"] == "hill":
                hills += 1
                assert b["type"] == "forest" and a["keywords"] == ["elevated"]
            else:
                assert a == b
    assert hills > 0
    assert keywords == set(data.KEYWORDS)  # every keyword of M78 in random terrain over these games


# ---------------------------------------------------------------- the Combat zone on Destructible terrain

UNITS = {"guards": {"card": "10101", "at": [24, 20], "facing": 0, "activated": True},
         "swords": {"card": "10201", "at": [24, 40], "facing": 180, "activated": True}}
HEDGE = {"id": "hedge", "type": "hedge", "rect": {"center": [24, 21], "size": [6, 1], "rotation": 0}}


XBOWS = {"id": "90101", "name": "Crossbowmen", "faction": "lannister", "type": "infantry", "speed": 5,
         "defense_save": 5, "morale": 6, "attacks": [{"name": "Crossbow", "range": "long", "hit": 4, "dice": [4, 3, 2]}],
         "tray": "infantry", "figures": 12, "wounds_per_figure": 1, "ranks": 3, "cost": 5}


def _claimed(options=None, units=None, terrain=None):
    s = R.scenario_game(SEATS, options or {}, 1, {
        "first_player": "lannister", "hands": {"stark": [], "lannister": []}, "units": units or UNITS,
        "ncus": {"30104": {"activated": False}}, "terrain": [HEDGE] if terrain is None else terrain,
        "dice": []}, "activation", extra={"cards": [XBOWS]})
    s, _ = R.apply(s, "lannister", {"activate": "30104"})
    s, ev = R.apply(s, "lannister", {"claim": {"zone": "swords"}})
    return s, ev


def test_the_combat_zone_offers_and_removes_a_destructible_piece_within_1_in():
    s, _ = _claimed()
    assert R.pending(s) == {"lannister": "choose"} and s["decision"]["zone"] == "swords"
    assert R.legal_actions(s, "lannister") == [{"choose": {"unit": "guards", "terrain": "hedge"}}, {"choose": None}]
    assert R.check(s, "lannister", {"choose": {"unit": "guards", "terrain": "hedge"}})["ok"] is True
    s, ev = R.apply(s, "lannister", {"choose": {"unit": "guards", "terrain": "hedge"}})
    assert ev[0] == {"type": "terrain_destroyed", "unit": "guards", "terrain": "hedge", "kind": "hedge"}
    assert s["terrain"] == []
    # a free Attack, not an activation: only Tyrion's activation ends
    assert [e["unit"] for e in ev if e["type"] == "activation_end"] == ["30104"]


def test_refused_terrain_attacks_leave_the_choice_asked():
    units = {**UNITS, "xbows": {"card": "90101", "at": [10, 20], "facing": 0, "activated": True}}
    terrain = [HEDGE, {"id": "forest", "type": "forest", "circle": {"center": [18.25, 18], "radius": 2.5}},
               {"id": "far", "type": "wall", "rect": {"center": [28.75, 17], "size": [1, 4], "rotation": 0}}]
    s, _ = _claimed(units=units, terrain=terrain)
    for choose, code in (({"unit": "guards", "terrain": "forest"}, "illegal_action"),   # not Destructible
                         ({"unit": "guards", "terrain": "far"}, "illegal_action"),      # 1.5 in away
                         ({"unit": "xbows", "terrain": "hedge"}, "illegal_action"),     # no melee attack
                         ({"unit": "swords", "terrain": "hedge"}, "illegal_action"),    # an enemy unit
                         ({"unit": "guards", "terrain": "nowhere"}, "illegal_action"),
                         ({"unit": "guards", "terrain": "hedge", "target": "swords"}, "bad_action"),
                         ({"unit": "guards", "terrain": "hedge", "shift": {"distance": 1}}, "bad_action"),
                         ({"unit": "guards", "terrain": 7}, "bad_action")):
        with pytest.raises(EngineError) as err:
            R.apply(s, "lannister", {"choose": choose})
        assert err.value.code == code, choose
        assert R.check(s, "lannister", {"choose": choose})["ok"] is False
    assert R.pending(s) == {"lannister": "choose"} and [t["id"] for t in s["terrain"]] == ["hedge", "forest", "far"]


def test_an_engaged_unit_and_a_unit_without_melee_attack_are_not_offered_terrain():
    units = {"guards": {"card": "10101", "at": [24, 20], "facing": 0, "activated": True},
             "swords": {"card": "10201", "at": [24, 20], "facing": 180, "activated": True},
             "xbows": {"card": "90101", "at": [10, 20], "facing": 0, "activated": True}}
    terrain = [{"id": "hedge", "type": "hedge", "rect": {"center": [20.5, 18], "size": [1, 6], "rotation": 0}},
               {"id": "stakes", "type": "stakes", "rect": {"center": [10, 21], "size": [6, 1], "rotation": 0}}]
    s, _ = _claimed(units=units, terrain=terrain)
    assert T.engaged_with(s, "guards") == ["swords"]
    assert G.le(G.distance(T.poly(s, "guards"), T.terrain_poly(s["terrain"][0])), 1.0)
    assert G.le(G.distance(T.poly(s, "xbows"), T.terrain_poly(s["terrain"][1])), 1.0)
    assert flow.destructible_near(s, "guards") == [] and flow.destructible_near(s, "xbows") == []
    assert [a for a in R.legal_actions(s, "lannister") if a["choose"] and "terrain" in a["choose"]] == []
    assert {"choose": {"unit": "guards", "target": "swords"}} in R.legal_actions(s, "lannister")
    for name, why in (("guards", "engaged"), ("xbows", "no melee attack")):
        with pytest.raises(EngineError) as err:
            R.apply(s, "lannister", {"choose": {"unit": name, "terrain": terrain[name == "xbows"]["id"]}})
        assert err.value.code == "illegal_action" and why in err.value.reason


def test_revision_4_keeps_the_combat_zone_to_enemy_units():
    s, ev = _claimed(options={"revision": 4})
    # nothing but the hedge within reach: the zone is not asked, Tyrion's activation simply ends
    assert s["decision"] is None or s["decision"].get("zone") != "swords"
    assert [t["id"] for t in s["terrain"]] == ["hedge"]
    assert flow.zone_choices(s, "swords", "lannister") == []
    new, _ = _claimed()
    assert flow.zone_choices(new, "swords", "lannister") == [{"unit": "guards", "terrain": "hedge"}]


def test_the_engines_player_leaves_terrain_to_the_random_player():
    s, _ = _claimed()
    assert bot.bot_action(s, "lannister") == {"choose": None}  # it attacks units, not terrain
    import random

    answers = {str(bot.random_action(s, "lannister", random.Random(n))) for n in range(20)}
    assert answers == {str({"choose": {"unit": "guards", "terrain": "hedge"}}), str({"choose": None})}
