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


# ---------------------------------------------------------------- Dangerous terrain and the zones' free actions
# M78 Dangerous (seed 2130-2134): "las unidades que realicen una acción mientras estén en este elemento de
# terreno sufren 1D3+1 Heridas antes de resolver esa acción". Revision 5: the Combat zone's free Attack
# action (M35, seed 1497-1501) and the Maneuver zone's free Maneuver or Retreat action (seed 1510-1514) are
# actions too. Scenario 100 shows the same in the notation.

STAKES = {"id": "stakes", "type": "stakes", "rect": {"center": [24, 19], "size": [6, 1], "rotation": 0}}
ENGAGED = {"guards": {"card": "10101", "at": [24, 20], "facing": 0, "activated": True},
           "swords": {"card": "10201", "at": [24, 20], "facing": 180, "activated": True}}
APART = {"guards": {"card": "10101", "at": [24, 20], "facing": 0, "activated": True},
         "swords": {"card": "10201", "at": [24, 40], "facing": 180, "activated": True}}


def _zone(zone, units, dice, options=None, terrain=None):
    s = R.scenario_game(SEATS, options or {}, 1, {
        "first_player": "lannister", "hands": {"stark": [], "lannister": []}, "units": units,
        "ncus": {"30104": {"activated": False}}, "terrain": [STAKES] if terrain is None else terrain,
        "dice": dice}, "activation")
    s, _ = R.apply(s, "lannister", {"activate": "30104"})
    s, _ = R.apply(s, "lannister", {"claim": {"zone": zone}})
    assert R.pending(s) == {"lannister": "choose"} and s["decision"]["zone"] == zone
    return s


def test_the_combat_zones_free_attack_on_dangerous_terrain_costs_wounds_before_it_resolves():
    s = _zone("swords", ENGAGED, [2] + [4] * 12)
    assert flow.on_dangerous(s, "guards")
    s, ev = R.apply(s, "lannister", {"choose": {"unit": "guards", "target": "swords"}})
    kinds = [e["type"] for e in ev]
    assert ev[0] == {"type": "dangerous", "unit": "guards", "why": "action", "roll": 2, "wounds": 3}
    assert kinds.index("wounds") < kinds.index("attack")  # before the action resolves
    assert s["units"]["guards"]["wounds"] == 9
    attack_dice = next(e for e in ev if e["type"] == "attack_dice")
    assert attack_dice["dice"] == [4] * 6  # the die 2 went to the wounds, not to the attack


def test_the_combat_zones_free_attack_on_a_piece_while_on_dangerous_terrain():
    s = _zone("swords", APART, [1])
    # the Guardsmen may attack away the very stakes they stand on (Destructible, within 1 in)
    assert {"choose": {"unit": "guards", "terrain": "stakes"}} in R.legal_actions(s, "lannister")
    s, ev = R.apply(s, "lannister", {"choose": {"unit": "guards", "terrain": "stakes"}})
    assert [e["type"] for e in ev][:3] == ["dangerous", "wounds", "terrain_destroyed"]
    assert s["units"]["guards"]["wounds"] == 10 and s["terrain"] == [] and s["dice"] == []


def test_an_illegal_free_action_on_dangerous_terrain_is_refused_and_costs_nothing():
    far = {"id": "wall", "type": "wall", "rect": {"center": [28.75, 17], "size": [1, 4], "rotation": 0}}
    s = _zone("swords", ENGAGED, [3], terrain=[STAKES, far])
    for choose in ({"unit": "guards", "terrain": "wall"},           # engaged, and not Destructible
                   {"unit": "guards", "target": "swords", "attack": "Crossbow"},
                   {"unit": "guards", "target": "nobody"}):
        with pytest.raises(EngineError):
            R.apply(s, "lannister", {"choose": choose})
    assert s["dice"] == [3] and s["units"]["guards"]["wounds"] == 12 and R.pending(s) == {"lannister": "choose"}
    h = _zone("horse", APART, [3])
    with pytest.raises(EngineError) as err:
        R.apply(h, "lannister", {"choose": {"unit": "guards", "maneuver": {"forward": 9}}})  # beyond Speed 5
    assert err.value.code == "illegal_action" and h["dice"] == [3] and h["units"]["guards"]["wounds"] == 12


def test_a_unit_destroyed_by_the_wounds_does_not_make_its_free_action():
    units = {**ENGAGED, "guards": {**ENGAGED["guards"], "wounds": 2}}
    s = _zone("swords", units, [1])
    s, ev = R.apply(s, "lannister", {"choose": {"unit": "guards", "target": "swords"}})
    kinds = [e["type"] for e in ev]
    assert kinds[:2] == ["dangerous", "wounds"] and "attack" not in kinds
    assert "guards" not in T.live(s) and s["units"]["swords"]["wounds"] == 12 and s["dice"] == []
    units = {**APART, "guards": {**APART["guards"], "wounds": 3}}
    h = _zone("horse", units, [2])
    h, ev = R.apply(h, "lannister", {"choose": {"unit": "guards", "maneuver": {"forward": 3}}})
    assert "move" not in [e["type"] for e in ev] and "guards" not in T.live(h)


def test_the_maneuver_zones_free_maneuver_and_retreat_on_dangerous_terrain():
    s = _zone("horse", APART, [1])
    s, ev = R.apply(s, "lannister", {"choose": {"unit": "guards", "maneuver": {"forward": 3}}})
    assert [e["type"] for e in ev][:3] == ["dangerous", "wounds", "move"]
    assert s["units"]["guards"]["wounds"] == 10 and s["units"]["guards"]["at"] == [24.0, 23.0]
    # engaged: the free Retreat; its die comes after the wounds' die
    r = _zone("horse", ENGAGED, [2, 1] + [3] * 10)
    assert {"choose": {"unit": "guards", "retreat": True}} in R.legal_actions(r, "lannister")
    r, ev = R.apply(r, "lannister", {"choose": {"unit": "guards", "retreat": True}})
    assert ev[0] == {"type": "dangerous", "unit": "guards", "why": "action", "roll": 2, "wounds": 3}
    assert r["units"]["guards"]["wounds"] == 9 and r["last_retreat"]["roll"] == 1


def test_revision_4_free_actions_on_dangerous_terrain_are_unchanged():
    for zone, units, choose in (("swords", ENGAGED, {"unit": "guards", "target": "swords"}),
                                ("horse", APART, {"unit": "guards", "maneuver": {"forward": 3}})):
        s = _zone(zone, units, [4] * 12, options={"revision": 4})
        s, ev = R.apply(s, "lannister", {"choose": choose})
        assert "dangerous" not in [e["type"] for e in ev]
        assert s["units"]["guards"]["wounds"] == 12


# ---------------------------------------------------------------- Tactics cards and Orders that give an action
# Reading (docs/rules-decisions.md, revision 5): where a card or an Order says the unit "makes one ... action"
# (Swift Reposition's 3-inch Maneuver with the horse zone, Sudden Retreat, Swift Retreat, Hit and Run,
# Overrun, Assault Orders, Set for Charge), a unit on a Dangerous piece suffers 1D3+1 wounds before it
# resolves, as for the zones; a "shift" is no action (Swift Reposition without the horse zone, Tactical
# Reposition).

SWIFT_UNITS = {"swords": {"card": "10201", "at": [24, 20], "facing": 0},
               "guards": {"card": "10101", "at": [10, 34], "facing": 180, "order_used": True}}


def _swift(horse: bool, options=None):
    ncus = {"30201": {"activated": True, "zone": "horse"}} if horse else {}
    s = R.scenario_game(SEATS, options or {}, 1, {
        "hands": {"stark": ["40206"], "lannister": []}, "units": SWIFT_UNITS, "ncus": ncus,
        "terrain": [STAKES], "dice": [2]}, None)
    assert R.pending(s) == {"stark": "react"} and flow.on_dangerous(s, "swords")
    s, ev = R.apply(s, "stark", {"play": {"card": "40206", "unit": "swords",
                                          "move": {"forward": 3} if horse else {"direction": "forward", "distance": 2}}})
    if R.pending(s) == {"lannister": "react"}:
        s, more = R.apply(s, "lannister", {"pass": True})
        ev = ev + more
    return s, ev


def test_swift_reposition_maneuver_action_on_dangerous_terrain_but_not_its_shift():
    s, ev = _swift(horse=True)
    assert [e["type"] for e in ev if e["type"] in ("dangerous", "move")] == ["dangerous", "move"]
    assert s["units"]["swords"]["wounds"] == 9 and s["units"]["swords"]["at"] == [24.0, 23.0]
    s, ev = _swift(horse=False)  # a 2-inch shift is no action; leaving the piece is not entering it
    assert "dangerous" not in [e["type"] for e in ev] and s["dice"] == [2]
    assert s["units"]["swords"]["wounds"] == 12 and s["units"]["swords"]["at"] == [24.0, 22.0]
    s, ev = _swift(horse=True, options={"revision": 4})
    assert "dangerous" not in [e["type"] for e in ev] and s["units"]["swords"]["wounds"] == 12


def test_a_retreat_action_given_by_a_card_on_dangerous_terrain():
    from games.engine.minis import cards

    s = _zone("swords", ENGAGED, [1, 4])
    ev: list = []
    cards.start_retreat(s, "lannister", "guards", ev)  # Sudden Retreat / Swift Retreat / Hit and Run
    assert [e["type"] for e in ev] == ["dangerous", "wounds", "retreat"]
    assert s["units"]["guards"]["wounds"] == 10 and s["last_retreat"]["roll"] == 4
    old = _zone("swords", ENGAGED, [4], options={"revision": 4})
    ev = []
    cards.start_retreat(old, "lannister", "guards", ev)
    assert [e["type"] for e in ev] == ["retreat"] and old["last_retreat"]["roll"] == 4


def test_the_log_tells_the_free_actions_wounds_in_english_and_spanish():
    from django.utils import translation

    units = {"guardsmen": ENGAGED["guards"], "sworn_swords": ENGAGED["swords"]}  # ids the log names
    s = _zone("swords", units, [2] + [1] * 6)
    s, ev = R.apply(s, "lannister", {"choose": {"unit": "guardsmen", "target": "sworn_swords"}})
    event = next(e for e in ev if e["type"] == "dangerous")
    with translation.override("en"):
        text = R.describe_event(event)["text"]
    assert text == "Lannister Guardsmen acts on Dangerous terrain: 1D3+1 rolls 2, 3 wounds."
    with translation.override("es"):
        text = R.describe_event(event)["text"]
    assert text == "Guardias Lannister realiza una acción en terreno Peligroso: 1D3+1 saca 2, 3 Heridas."


def test_assault_orders_melee_attack_action_on_dangerous_terrain():
    # Assault Orders (40207): "one friendly combat unit makes one Melee Attack action" instead of the zone's
    # effect; the Sworn Swords stand on the stakes engaged with the Guardsmen
    units = {"swords": {"card": "10201", "at": [24, 20], "facing": 0, "activated": True},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180, "activated": True, "order_used": True}}
    wounds = {}
    for revision in (5, 4):
        s = R.scenario_game(SEATS, {"revision": revision}, 1, {
            "first_player": "stark", "hands": {"stark": ["40207"], "lannister": []}, "units": units,
            "ncus": {"30201": {"activated": False}}, "terrain": [STAKES], "dice": [2] + [1] * 6}, "activation")
        s, _ = R.apply(s, "stark", {"activate": "30201"})
        s, _ = R.apply(s, "stark", {"claim": {"zone": "money"}})
        while R.pending(s) == {"stark": "choose"}:  # Catelyn's influence first, as the timeout answers it
            s, _ = R.apply(s, "stark", R.default_action(s, "stark"))
        s, ev = R.apply(s, "stark", {"play": {"card": "40207", "unit": "swords", "target": "guards"}})
        while R.pending(s) == {"lannister": "react"}:
            s, more = R.apply(s, "lannister", {"pass": True})
            ev += more
        kinds = [e["type"] for e in ev]
        assert "attack" in kinds
        if revision == 5:
            assert kinds.index("dangerous") < kinds.index("attack")
        else:
            assert "dangerous" not in kinds
        wounds[revision] = s["units"]["swords"]["wounds"]
    assert wounds == {5: 9, 4: 12}
