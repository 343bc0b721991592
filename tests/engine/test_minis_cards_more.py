"""More Orders and Tactics cards of the miniatures game on their triggers (M103-M105, M110-M112):
the charge windows (declared, rolled, successful), the Surge window, the zone-claimed window, a
Morale test rolled, cards attached for the rest of the game (issue 18)."""
from __future__ import annotations

import pytest

from games.engine import get_ruleset
from games.engine.base import EngineError
from games.engine.minis import flow

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]
MANY = [6] * 60


def game(units, hands, dice=None, options=None, **extra):
    setup = {"hands": hands, "units": units, **extra}
    if dice is not None:
        setup["dice"] = dice
    return R.scenario_game(SEATS, options or {}, 1, setup, "activation")


def charge_setup(gap=11.0, attachment=None, target_card="10101"):
    sw = {"card": "10201", "at": [24, 8], "facing": 0}
    if attachment:
        sw["attachment"] = attachment
    return {"swords": sw, "guards": {"card": target_card, "at": [24, 8 + gap], "facing": 180}}


def test_reckless_heroism_order_loses_d3_and_counts_the_charge_die_as_six():
    """Order: Reckless Heroism (Greatjon Umber), M61-M65, M103: declared with the charge, before it
    is resolved: D3 wounds, then the die (a natural 1) counts as a 6: 5 + 6 = 11 in reaches."""
    s = game(charge_setup(11, attachment="20202"), {"stark": [], "lannister": []}, dice=[2, 1] + MANY)
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"charge": {"target": "guards"}})
    assert R.pending(s) == {"stark": "react"} and s["decision"]["window"] == "charge_declared"
    s, _ = R.apply(s, "stark", {"order": {"unit": "swords"}})
    assert s["units"]["swords"]["order_used"] and s["units"]["swords"]["wounds"] == 10
    lc = s["last_charge"]
    assert lc["roll"] == 6 and lc["distance"] == 11 and lc["result"] == "success" and not lc["disorderly"]


def test_superior_positioning_makes_a_front_charge_disorderly_and_the_charger_vulnerable():
    """40209: a charge in the target's Front becomes Disorderly on 3 or less (M69: no Charge bonus);
    the charger gains Vulnerable."""
    units = {"guards": {"card": "10101", "at": [24, 26], "facing": 180},
             "swords": {"card": "10201", "at": [24, 20], "facing": 0}}
    s = game(units, {"stark": ["40209"], "lannister": []}, dice=[3] + MANY, turn="lannister")
    s, _ = R.apply(s, "lannister", {"activate": "guards"})
    s, _ = R.apply(s, "lannister", {"charge": {"target": "swords"}})
    assert R.pending(s) == {"stark": "react"} and s["decision"]["window"] == "charge_declared"
    s, _ = R.apply(s, "stark", {"play": {"card": "40209"}})
    lc = s["last_charge"]
    assert lc["result"] == "success" and lc["roll"] == 3 and lc["disorderly"]
    assert "vulnerable" in s["units"]["guards"]["conditions"]


def test_devastating_impact_rerolls_the_charge_die_with_the_horse_zone_and_marks_the_target():
    """40203: after the charge die (2: 7 in, short of 11) the card is played; with the horse zone the
    die is re-rolled (6); the charged enemy gains Panicked and Vulnerable (M101)."""
    s = game(charge_setup(11), {"stark": ["40203"], "lannister": []}, dice=[2, 6] + MANY,
             ncus={"30201": {"zone": "horse", "activated": True}})
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"charge": {"target": "guards"}})
    assert R.pending(s) == {"stark": "react"} and s["decision"]["window"] == "charge_rolled"
    s, _ = R.apply(s, "stark", {"play": {"card": "40203"}})
    assert R.pending(s) == {"stark": "reroll"} and s["decision"]["dice"] == "charge"
    s, _ = R.apply(s, "stark", {"reroll": [0]})
    assert s["last_charge"]["roll"] == 6 and s["last_charge"]["result"] == "success"
    assert {"panicked", "vulnerable"} <= set(s["units"]["guards"]["conditions"])


def test_winter_is_coming_highest_dice_and_no_orders_for_the_charged_unit():
    """40205 with the horse zone: both picks: the charger attacks with its highest attack-dice value
    (7 instead of 5 after a lost rank, M83) and the Guardsmen may not use Lannister Supremacy."""
    units = charge_setup(11)
    units["swords"]["lost"] = 4
    s = game(units, {"stark": ["40205"], "lannister": []}, dice=[6] + [1] * 7 + MANY,
             ncus={"30201": {"zone": "horse", "activated": True}})
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"charge": {"target": "guards"}})
    assert R.pending(s) == {"stark": "react"} and s["decision"]["window"] == "charge_success"
    s, _ = R.apply(s, "stark", {"play": {"card": "40205", "pick": "both"}})
    assert s["last_attack"]["dice_count"] == 7
    assert s["units"]["guards"]["shielded"] == s["turn_no"]
    s, _ = R.apply(s, "stark", {"reroll": []})
    # 7 misses: the after-attack window would offer Lannister Supremacy; the unit is shielded
    assert R.pending(s) == {"lannister": "activate"}


def test_winter_is_coming_both_picks_need_the_horse_zone():
    s = game(charge_setup(11), {"stark": ["40205"], "lannister": []}, dice=[6] + MANY)
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"charge": {"target": "guards"}})
    with pytest.raises(EngineError):
        R.apply(s, "stark", {"play": {"card": "40205", "pick": "both"}})


def test_set_for_charge_the_charged_halberdiers_strike_first():
    """Order: Set for Charge (Lannister Halberdiers): successfully charged in the Front, they make a
    Melee Attack against the charger before its own attack (M103)."""
    s = game(charge_setup(11, target_card="10102"), {"stark": [], "lannister": []}, dice=[6] + [1] * 60)
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"charge": {"target": "guards"}})
    assert R.pending(s) == {"lannister": "react"} and s["decision"]["window"] == "charge_success"
    s, ev = R.apply(s, "lannister", {"order": {"unit": "guards"}})
    attacks = [(e["attacker"], e["defender"]) for e in ev if e["type"] == "attack"]
    assert attacks == [("guards", "swords"), ("swords", "guards")]
    assert s["last_attack"]["attacker"] == "swords" and s["last_attack"]["charge"]


def test_overrun_order_charges_instead_of_surging_forth():
    """Order: Overrun (Greatjon Umber): the enemy destroyed, instead of the Surge (M71) the unit
    makes a Charge on the next enemy (5 + 6 = 11 in)."""
    units = {"swords": {"card": "10201", "at": [24, 20], "facing": 0, "attachment": "20202"},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180, "lost": 11},
             "guards2": {"card": "10101", "at": [24, 31], "facing": 180}}
    s = game(units, {"stark": [], "lannister": []}, dice=[5] * 7 + [1] * 7 + [6] + [1] * 40)
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"attack": {"target": "guards"}})
    assert s["units"]["guards"]["destroyed"]
    assert R.pending(s) == {"stark": "react"} and s["decision"]["window"] == "surge"
    s, _ = R.apply(s, "stark", {"order": {"unit": "swords", "charge": {"target": "guards2"}}})
    # the Order token sits on Overrun (seed 1850-1852): Reckless Heroism is still offered at the charge
    assert s["decision"]["window"] == "charge_declared"
    assert {"order": {"unit": "swords", "ability": "Order: Reckless Heroism"}} in R.legal_actions(s, "stark")
    s, _ = R.apply(s, "stark", {"pass": True})
    assert s["last_charge"]["target"] == "guards2" and s["last_charge"]["result"] == "success"
    assert s["units"]["swords"]["order_used"]


def test_bribery_replaces_the_zone_effect_and_lowers_morale():
    """40104: when a friendly NCU claims a zone: instead of its effect (no money-zone choice), an enemy
    unit is bribed: lowest attack-dice value and -1 to Morale tests, until it passes one."""
    units = {"swords": {"card": "10201", "at": [24, 20], "facing": 0},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180}}
    s = game(units, {"stark": [], "lannister": ["40104"]}, dice=[1] * 7 + MANY, turn="lannister",
             ncus={"30104": {"activated": False}})
    s, _ = R.apply(s, "lannister", {"activate": "30104"})
    s, _ = R.apply(s, "lannister", {"claim": {"zone": "money"}})
    assert R.pending(s) == {"lannister": "react"} and s["decision"]["window"] == "zone_claimed"
    s, _ = R.apply(s, "lannister", {"play": {"card": "40104", "unit": "swords"}})
    assert s["units"]["swords"]["bribed"] and R.pending(s) == {"stark": "activate"}
    assert flow.morale_modifier(s, "swords") == -1
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"attack": {"target": "guards"}})
    assert s["last_attack"]["dice_count"] == 4


def bribe_the_swords(revision, dice):
    units = {"swords": {"card": "10201", "at": [24, 20], "facing": 0},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180}}
    s = game(units, {"stark": [], "lannister": ["40104"]}, dice=dice, turn="lannister",
             ncus={"30104": {"activated": False}}, options={"revision": revision})
    s, _ = R.apply(s, "lannister", {"activate": "30104"})
    s, _ = R.apply(s, "lannister", {"claim": {"zone": "money"}})
    s, _ = R.apply(s, "lannister", {"play": {"card": "40104", "unit": "swords"}})
    return s


def test_bribery_lies_attached_to_the_unit_from_revision_5():
    """40104 says "attach this card to one enemy combat unit until ...": from rules revision 5 it lies
    attached (public, in the summary), not on its owner's discard pile, so Playing The Game cannot take
    it back while it works; revision 4 kept it on the discard pile (stored games replay as they were)."""
    s = bribe_the_swords(5, [1] * 7 + MANY)
    assert s["players"]["lannister"]["discards"] == []
    assert R.summary(s, "stark")["attached"] == [{"card": "40104", "seat": "lannister", "unit": "swords", "tokens": 0}]
    old = bribe_the_swords(4, [1] * 7 + MANY)
    assert old["players"]["lannister"]["discards"] == ["40104"] and not old.get("attached")
    assert old["units"]["swords"]["bribed"]


def test_bribery_comes_off_a_destroyed_unit_onto_the_discard_pile():
    """Revision 5: the bribed unit destroyed, the card leaves it for its owner's discard pile, and a
    destroyed Stark unit puts no token on Bribery (only on the cards attached for the game)."""
    s = bribe_the_swords(5, [6] * 6 + [1] * 30)  # six hits, no save: the Swords' last wound
    s["units"]["swords"]["wounds"] = 1
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"no_action": True})
    s, ev = R.apply(s, "lannister", {"activate": "guards"})
    s, ev = R.apply(s, "lannister", {"attack": {"target": "swords"}})
    assert s["units"]["swords"]["destroyed"]
    assert s["players"]["lannister"]["discards"] == ["40104"] and s.get("attached") == []
    assert {"type": "detached", "unit": "swords", "card": "40104"} in ev


def test_assault_orders_charge_from_the_swords_zone_with_the_lowest_dice():
    """40207: instead of the swords zone's effect the Sworn Swords charge (M61-M67) with their
    lowest attack-dice value (4); from another zone only a melee attack is allowed."""
    units = charge_setup(6)
    s = game(units, {"stark": ["40207", "40207"], "lannister": []}, dice=[3] + MANY,
             ncus={"30202": {"activated": False}})
    s, _ = R.apply(s, "stark", {"activate": "30202"})
    s, _ = R.apply(s, "stark", {"claim": {"zone": "swords"}})
    assert R.pending(s) == {"stark": "react"} and s["decision"]["window"] == "zone_claimed"
    s, _ = R.apply(s, "stark", {"play": {"card": "40207", "unit": "swords", "charge": {"target": "guards"}}})
    assert s["last_charge"]["result"] == "success" and s["last_attack"]["dice_count"] == 4
    assert not s["units"]["swords"]["activated"]  # a free charge: the unit may still activate


def test_assault_orders_no_charge_from_another_zone():
    s = game(charge_setup(6), {"stark": ["40207"], "lannister": []}, dice=MANY,
             ncus={"30202": {"activated": False}})
    s, _ = R.apply(s, "stark", {"activate": "30202"})
    s, _ = R.apply(s, "stark", {"claim": {"zone": "money"}})
    with pytest.raises(EngineError):
        R.apply(s, "stark", {"play": {"card": "40207", "unit": "swords", "charge": {"target": "guards"}}})


@pytest.mark.parametrize("card,zone,ncu,seat", [("40204", "swords", "30201", "stark"),
                                                 ("40102", "crown", "30104", "lannister")])
def test_attached_cards_act_once_a_friendly_unit_is_destroyed(card, zone, ncu, seat):
    """40204 The North Remembers / 40102 A Lannister Pays His Debts: attached for the rest of the game
    (not discarded, M112); with an Order token (a friendly infantry unit destroyed) the unit attacks
    with its highest dice (40204) or Vicious (40102), +1 to hit with the zone."""
    mine, theirs = ("10201", "10101") if seat == "stark" else ("10101", "10201")
    units = {"a": {"card": mine, "at": [24, 20], "facing": 0, "lost": 4},
             "b": {"card": mine, "at": [8, 5], "facing": 0},
             "e": {"card": theirs, "at": [24, 20], "facing": 180}}
    s = game(units, {seat: [card], ("lannister" if seat == "stark" else "stark"): []}, dice=MANY, turn=seat,
             ncus={ncu: {"zone": zone, "activated": True}})
    assert R.pending(s) == {seat: "react"} and s["decision"]["window"] == "turn_start"
    s, _ = R.apply(s, seat, {"play": {"card": card, "unit": "a"}})
    assert s["attached"] == [{"card": card, "seat": seat, "unit": "a", "tokens": 0}]
    assert card not in s["players"][seat]["discards"]
    flow.destroy(s, "b", [], None)
    assert s["attached"][0]["tokens"] == 1
    s, _ = R.apply(s, seat, {"activate": "a"})
    s, _ = R.apply(s, seat, {"attack": {"target": "e"}})
    la = s["last_attack"]
    base = 3 if seat == "stark" else 4  # Winter's Bite: +1 to hit after a lost rank
    assert la["to_hit"] == base - 1
    if card == "40204":
        assert la["dice_count"] == 7
    else:
        assert "vicious" in la["keywords"]


def test_kingslayers_renown_passes_a_rolled_morale_test_and_heals_jaime():
    """40108 (first mode): after a Morale test's dice (M96) the test is passed; Jaime's own unit
    restores 2 wounds."""
    units = {"guards": {"card": "10101", "at": [24, 30], "facing": 180, "attachment": "20115", "lost": 4},
             "swords": {"card": "10201", "at": [24, 10], "facing": 0}}
    s = game(units, {"stark": [], "lannister": ["40108"]}, dice=[1, 1, 1] + MANY,
             ncus={"30202": {"activated": False}})
    s, _ = R.apply(s, "lannister", {"pass": True})  # its draw-1 mode at the start of the turn
    s, _ = R.apply(s, "stark", {"activate": "30202"})
    s, _ = R.apply(s, "stark", {"claim": {"zone": "crown", "target": "guards"}})
    assert R.pending(s) == {"lannister": "react"} and s["decision"]["window"] == "morale_rolled"
    s, _ = R.apply(s, "lannister", {"play": {"card": "40108", "mode": 0}})
    assert s["last_test"]["passed"] and s["last_test"]["wounds"] == 0
    assert s["units"]["guards"]["wounds"] == 10


def test_berserker_tactics_two_picks_for_one_wound():
    """40211: before the attack dice: one pick, one more per wound taken (Sundering: the save 3+
    becomes 4+, M95)."""
    units = {"swords": {"card": "10201", "at": [24, 20], "facing": 0, "lost": 4},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180}}
    armies = {"stark": {"commander": "20202", "units": [{"unit": "10203", "attachment": "20202"}], "ncus": []}}
    s = game(units, {"stark": ["40211"], "lannister": []}, dice=MANY, armies=armies)
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"attack": {"target": "guards"}})
    assert s["decision"]["window"] == "melee_before"
    with pytest.raises(EngineError):
        R.apply(s, "stark", {"play": {"card": "40211", "picks": ["sundering", "highest"]}})
    s, _ = R.apply(s, "stark", {"play": {"card": "40211", "picks": ["sundering", "highest"], "wounds": 1}})
    la = s["last_attack"]
    assert s["units"]["swords"]["wounds"] == 7 and la["dice_count"] == 7
    assert "sundering" in la["keywords"] and la["defense_save"] == 4
