"""The starter box's own abilities (issue 32): Counterstrike, Ambush, Furious Charge, Uncontrolled
Rage, Robb's extras of Sudden Retreat and Hit and Run, Tyrion's once-per-game Counterplot, the
end-of-turn window (M27 (4)), Winter Is Coming with the horse zone, Go Down Fighting's choice, and
Order tokens on the ability used (seed 1850-1852). Scenarios 48-52 show the same in the notation."""
from __future__ import annotations

import pytest

from games.engine import get_ruleset
from games.engine.base import EngineError
from games.engine.minis import cards

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]


def game(units, hands, dice=None, **extra):
    setup = {"hands": hands, "units": units, **extra}
    if dice is not None:
        setup["dice"] = dice
    return R.scenario_game(SEATS, {}, 1, setup, "activation")


def kinds(events, kind):
    return [e for e in events if e["type"] == kind]


# ---------------------------------------------------------------- Counterstrike (M85, M88, M102)


def test_counterstrike_hits_let_the_defender_spend_the_attackers_vulnerable():
    """Seven misses against Jaime's unit: the Swords suffer 7 hits and roll Defense; Lannister may
    spend the Swords' Vulnerable on that roll (M102), re-rolling three saves into failures."""
    units = {"swords": {"card": "10201", "at": [24, 20], "facing": 0, "conditions": ["vulnerable"]},
             "guards": {"card": "10101", "attachment": "20115", "at": [24, 20], "facing": 180, "order_used": True}}
    s = game(units, {"stark": [], "lannister": []}, dice=[1] * 7 + [4] * 7 + [1, 1, 1])
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, ev = R.apply(s, "stark", {"attack": {"target": "guards"}})
    assert kinds(ev, "ability") == [{"type": "ability", "unit": "guards", "ability": "Counterstrike",
                                     "target": "swords", "hits": 7}]
    assert R.pending(s) == {"lannister": "spend"}
    d = s["decision"]
    assert d["token"] == "vulnerable" and d["unit"] == "swords" and d["faces"] == [4] * 7
    s, ev = R.apply(s, "lannister", {"spend": {"token": "vulnerable", "dice": [0, 1, 2]}})
    hits = kinds(ev, "hits")[0]
    assert hits["source"] == "Counterstrike" and hits["blocked"] == 4 and hits["defense_dice"] == [1, 1, 1, 4, 4, 4, 4]
    assert s["units"]["swords"]["wounds"] == 9 and s["units"]["swords"]["conditions"] == []
    assert s["last_attack"]["hits"] == 0 and s["units"]["guards"]["wounds"] == 12
    assert R.pending(s) == {"lannister": "activate"}


def test_counterstrike_counts_the_dice_missing_after_the_rerolls():
    """After the Charge re-roll (M85): the misses left are what Counterstrike counts."""
    units = {"swords": {"card": "10201", "at": [24, 12], "facing": 0},
             "guards": {"card": "10101", "attachment": "20115", "at": [24, 20], "facing": 180, "order_used": True}}
    # charge die 5: 10 in for 8 in of gap; 7 dice (needing 5+ with Disrupt); 3 re-rolled into hits
    dice = [5, 6, 1, 1, 1, 1, 2, 2, 6, 5, 5] + [6] * 3 + [6] * 6  # every save made: no wound, no test
    s = game(units, {"stark": [], "lannister": []}, dice=dice)
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"charge": {"target": "guards"}})
    assert R.pending(s) == {"stark": "reroll"}
    s, ev = R.apply(s, "stark", {"reroll": [1, 2, 3]})
    assert s["last_attack"]["attack_dice"] == [6, 6, 5, 5, 1, 2, 2]
    assert kinds(ev, "ability")[0]["hits"] == 3  # 1, 2, 2 missed
    assert kinds(ev, "hits")[0]["hits"] == 3


# ---------------------------------------------------------------- Ambush, Furious Charge


def test_ambush_gives_nothing_for_a_front_charge():
    units = {"outriders": {"card": "10202", "at": [24, 16], "facing": 0, "order_used": True},
             "guards": {"card": "10101", "at": [24, 24], "facing": 180, "order_used": True}}
    s = game(units, {"stark": [], "lannister": []}, dice=[3] + [1] * 7)
    s, _ = R.apply(s, "stark", {"activate": "outriders"})
    s, ev = R.apply(s, "stark", {"charge": {"target": "guards"}})
    assert s["last_charge"]["result"] == "success" and s["last_charge"]["arc"] == "front"
    assert s["units"]["guards"]["conditions"] == [] and not kinds(ev, "ability")


def test_greatjon_fierce_bannerman_has_furious_charge_too():
    units = {"berserkers": {"card": "10203", "attachment": "20205", "at": [24, 16], "facing": 0},
             "guards": {"card": "10101", "at": [24, 24], "facing": 180, "order_used": True}}
    s = game(units, {"stark": [], "lannister": []}, dice=[3] + [1] * 7)
    s, _ = R.apply(s, "stark", {"activate": "berserkers"})
    s, ev = R.apply(s, "stark", {"charge": {"target": "guards"}})
    assert s["units"]["guards"]["conditions"] == ["vulnerable"]
    assert [e["ability"] for e in kinds(ev, "ability")] == ["Furious Charge"]


def test_to_the_last_failed_destroys_and_the_two_tokens_run_out():
    """To The Last! (20205, scenario 66): a failed Morale Test destroys the unit after all (the VP go
    to the attacker, M129); with both tokens spent the unit is destroyed at once."""
    units = {"umber": {"card": "10203", "attachment": "20205", "at": [24, 20], "facing": 0, "wounds": 2,
                       "activated": True},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180},
             "other": {"card": "10201", "at": [6, 6], "facing": 0, "activated": True}}
    s = game(units, {"stark": [], "lannister": []}, dice=[6] * 6 + [1] * 6 + [1, 1], first_player="lannister")
    s, _ = R.apply(s, "lannister", {"activate": "guards"})
    s, ev = R.apply(s, "lannister", {"attack": {"target": "umber"}})
    assert [e["ability"] for e in kinds(ev, "ability")] == ["To The Last!"]
    assert [(t["kind"], t["passed"]) for t in kinds(ev, "test")] == [("morale", False)]
    assert s["units"]["umber"]["destroyed"] and s["vp"]["lannister"] == 1
    s = game(units, {"stark": [], "lannister": []}, dice=[6] * 6 + [1] * 6, first_player="lannister")
    s["units"]["umber"]["last_tokens"] = 0
    s, _ = R.apply(s, "lannister", {"activate": "guards"})
    s, ev = R.apply(s, "lannister", {"attack": {"target": "umber"}})
    assert not kinds(ev, "ability") and s["units"]["umber"]["destroyed"]


# ---------------------------------------------------------------- Uncontrolled Rage (M96, M62)


def test_uncontrolled_rage_passed_leaves_the_action_free():
    units = {"mountain": {"card": "10103", "attachment": "20114", "at": [24, 18], "facing": 0},
             "swords": {"card": "10201", "at": [24, 28], "facing": 180}}
    s = game(units, {"stark": [], "lannister": []}, dice=[3, 3], first_player="lannister")
    s, _ = R.apply(s, "lannister", {"activate": "mountain"})
    assert s["last_test"]["passed"] is True and s["last_test"]["kind"] == "morale"
    assert R.pending(s) == {"lannister": "action"} and "must_charge" not in s["decision"]
    assert R.default_action(s, "lannister") == {"no_action": True}
    s, _ = R.apply(s, "lannister", {"no_action": True})
    assert s["dice"] == []


def test_uncontrolled_rage_takes_no_test_without_a_legal_charge():
    units = {"mountain": {"card": "10103", "attachment": "20114", "at": [24, 6], "facing": 0},
             "swords": {"card": "10201", "at": [24, 40], "facing": 180}}
    s = game(units, {"stark": [], "lannister": []}, dice=[], first_player="lannister")
    s, ev = R.apply(s, "lannister", {"activate": "mountain"})
    assert not kinds(ev, "test") and R.pending(s) == {"lannister": "action"}


def test_uncontrolled_rage_failed_the_default_and_the_engines_player_charge():
    units = {"mountain": {"card": "10103", "attachment": "20114", "at": [24, 18], "facing": 0},
             "swords": {"card": "10201", "at": [24, 28], "facing": 180}}
    s = game(units, {"stark": [], "lannister": []}, dice=[1, 2], first_player="lannister")
    s, _ = R.apply(s, "lannister", {"activate": "mountain"})
    assert s["decision"]["must_charge"] == ["swords"]
    assert R.default_action(s, "lannister") == {"charge": {"target": "swords"}}
    assert R.bot_action(s, "lannister") == {"charge": {"target": "swords"}}


# ---------------------------------------------------------------- Robb's unit: Sudden Retreat, Hit and Run


def _robb_attacked(attachment):
    units = {"swords": {"card": "10201", "attachment": attachment, "at": [24, 20], "facing": 0, "order_used": True},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180, "order_used": True}}
    s = game(units, {"stark": ["40208"], "lannister": []}, dice=[1] * 6 + [1, 5], first_player="lannister")
    s, _ = R.apply(s, "lannister", {"activate": "guards"})
    s, _ = R.apply(s, "lannister", {"attack": {"target": "swords"}})
    assert R.pending(s) == {"stark": "react"} and s["decision"]["window"] == "after_attack"
    s, _ = R.apply(s, "stark", {"play": {"card": "40208"}})
    return s


def test_sudden_retreat_lets_robbs_unit_reroll_the_retreat_die():
    s = _robb_attacked("20201")
    assert R.pending(s) == {"stark": "reroll"} and s["decision"]["dice"] == "retreat"
    assert R.default_action(s, "stark") == {"reroll": []}
    assert R.bot_action(s, "stark") == {"reroll": [0]}  # a 1 is worth re-rolling
    with pytest.raises(EngineError):
        R.apply(s, "stark", {"reroll": [1]})
    s, ev = R.apply(s, "stark", {"reroll": [0]})
    # Robb's Enhanced Mobility: Speed 6; the die 5 replaces the 1
    assert s["last_retreat"] == {"unit": "swords", "roll": 5, "max": 11}
    assert R.pending(s) == {"stark": "retreat_move"} and s["decision"]["max"] == 11
    assert kinds(ev, "reroll")[0]["what"] == "retreat"


def test_sudden_retreat_without_robb_has_no_reroll():
    s = _robb_attacked(None)
    assert R.pending(s) == {"stark": "retreat_move"} and s["last_retreat"]["roll"] == 1


def test_hit_and_run_weakens_the_enemies_robbs_unit_leaves():
    units = {"swords": {"card": "10201", "attachment": "20201", "at": [24, 20], "facing": 0},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180, "order_used": True}}
    s = game(units, {"stark": ["40210"], "lannister": []}, dice=[1] * 7 + [3])
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"attack": {"target": "guards"}})
    s, _ = R.apply(s, "stark", {"play": {"card": "40210"}})
    assert R.pending(s) == {"stark": "retreat_move"}
    s, ev = R.apply(s, "stark", {"retreat_move": {"direction": "back", "distance": 2}})
    assert s["units"]["guards"]["conditions"] == ["weakened"]
    assert R.pending(s) == {"lannister": "pivot"}


# ---------------------------------------------------------------- Tyrion's Counterplot


def _winters_might_played(**extra):
    units = {"swords": {"card": "10201", "at": [24, 20], "facing": 0},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180, "order_used": True}}
    s = game(units, {"stark": ["40201"], "lannister": []}, dice=[3] + [1] * 7, ncus={"30104": {}}, **extra)
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"attack": {"target": "guards"}})
    s, _ = R.apply(s, "stark", {"play": {"card": "40201"}})
    return s


def test_tyrion_plays_a_counterplot_from_the_deck_once_per_game():
    s = _winters_might_played()
    assert R.pending(s) == {"lannister": "react"} and s["decision"]["window"] == "card_played"
    assert {"play": {"card": "40105", "source": "deck"}} in R.legal_actions(s, "lannister")
    assert R.legal_actions(s, "stark") == []
    deck = len(s["players"]["lannister"]["deck"])
    with pytest.raises(EngineError):
        R.apply(s, "lannister", {"play": {"card": "40105", "source": "discards"}})  # none there
    s, ev = R.apply(s, "lannister", {"play": {"card": "40105", "source": "deck"}})
    assert kinds(ev, "play")[-1]["source"] == "deck"
    assert kinds(ev, "counterplot")[0]["cancelled"] is True  # the die 3: 3+
    assert "sundering" not in s["last_attack"]["keywords"]
    assert len(s["players"]["lannister"]["deck"]) == deck - 1 and s["players"]["lannister"]["discards"] == ["40105"]
    assert s["once_used"]["lannister"] == ["30104"]
    assert cards.mastermind_sources(s, "lannister", "card_played", {"seat": "stark", "card": "40201"}) == []


def test_tyrion_takes_it_from_the_discard_pile_and_not_twice():
    s = _winters_might_played(discards={"lannister": ["40105"]}, deck_size={"lannister": 3},
                              decks={"lannister": ["40101", "40103", "40104"]})
    assert [a for a in R.legal_actions(s, "lannister") if "play" in a] == [
        {"play": {"card": "40105", "source": "discards"}}]
    s, _ = R.apply(s, "lannister", {"play": {"card": "40105", "source": "discards"}})
    assert s["players"]["lannister"]["discards"] == ["40105"]
    used = _winters_might_played(once_used={"lannister": ["30104"]})
    assert "lannister" not in R.pending(used) or all("play" not in a for a in R.legal_actions(used, "lannister"))


# ---------------------------------------------------------------- the end-of-turn window (M27 (4))


def test_the_end_of_turn_window_asks_the_seat_whose_turn_ends_first(monkeypatch):
    seen = []
    monkeypatch.setitem(cards.CARD_EFFECTS, ("40201", 9),
                        ("turn_end", "any", cards._true, cards._same, lambda st, seat, ctx, p, o, ev: seen.append(seat)))
    units = {"swords": {"card": "10201", "at": [24, 10], "facing": 0},
             "guards": {"card": "10101", "at": [24, 40], "facing": 180, "order_used": True}}
    s = game(units, {"stark": ["40201"], "lannister": []})
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"no_action": True})
    assert R.pending(s) == {"stark": "react"} and s["decision"]["window"] == "turn_end"
    assert s["decision"]["ctx"] == {"seat": "stark"}
    s, _ = R.apply(s, "stark", {"play": {"card": "40201", "mode": 9}})
    assert seen == ["stark"] and R.pending(s) == {"lannister": "activate"}


# ---------------------------------------------------------------- Winter Is Coming with the horse zone


def _charged(ncus):
    units = {"outriders": {"card": "10202", "at": [24, 16], "facing": 0, "order_used": True},
             "guards": {"card": "10101", "at": [24, 24], "facing": 180, "order_used": True}}
    s = game(units, {"stark": ["40205"], "lannister": []}, dice=[3] + [1] * 7, ncus=ncus)
    s, _ = R.apply(s, "stark", {"activate": "outriders"})
    s, _ = R.apply(s, "stark", {"charge": {"target": "guards"}})
    assert R.pending(s) == {"stark": "react"} and s["decision"]["window"] == "charge_success"
    return s


def test_winter_is_coming_with_the_horse_zone_gives_both_effects():
    s = _charged({"30201": {"zone": "horse"}})
    plays = [a for a in R.legal_actions(s, "stark") if "play" in a]
    assert plays == [{"play": {"card": "40205", "mode": 0, "pick": "both"}}]
    with pytest.raises(EngineError):
        R.apply(s, "stark", {"play": {"card": "40205", "pick": "a"}})
    s, _ = R.apply(s, "stark", {"play": {"card": "40205"}})
    assert s["units"]["guards"]["shielded"] == s["turn_no"]
    assert s["last_attack"]["dice_count"] == 7


def test_winter_is_coming_without_the_horse_zone_is_one_pick():
    s = _charged({})
    plays = [a["play"].get("pick") for a in R.legal_actions(s, "stark") if "play" in a]
    assert plays == ["a", "b"]
    with pytest.raises(EngineError):
        R.apply(s, "stark", {"play": {"card": "40205", "pick": "both"}})


# ---------------------------------------------------------------- Go Down Fighting asks its owner


def test_go_down_fighting_asks_which_engaged_enemy_loses_the_wound():
    units = {"swords": {"card": "10201", "at": [24, 20], "facing": 0},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180, "order_used": True},
             "guards_b": {"card": "10101", "at": [26.75, 17], "facing": 270, "order_used": True}}
    s = game(units, {"stark": [], "lannister": []}, dice=[6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 1],
             first_player="lannister")
    assert sorted(R.summary(s)["units"]["swords"]["engaged"]) == ["guards", "guards_b"]
    s, _ = R.apply(s, "lannister", {"activate": "guards"})
    s, _ = R.apply(s, "lannister", {"attack": {"target": "swords"}})
    assert R.pending(s) == {"stark": "choose"} and s["decision"]["what"] == "go_down_fighting"
    assert R.legal_actions(s, "stark") == [{"choose": "guards"}, {"choose": "guards_b"}]
    assert R.legal_actions(s, "lannister") == []
    assert R.default_action(s, "stark") == {"choose": "guards"}
    with pytest.raises(EngineError):
        R.apply(s, "stark", {"choose": "swords"})
    s, ev = R.apply(s, "stark", {"choose": "guards_b"})
    assert s["units"]["guards_b"]["wounds"] == 11 and s["units"]["guards"]["wounds"] == 12
    assert s["last_attack"]["panic"]["passed"] is True  # the Panic test comes after the wound


# ---------------------------------------------------------------- Order tokens on the ability


def test_hold_the_line_does_not_use_up_lannister_supremacy_and_its_hits_allow_vulnerable():
    units = {"swords": {"card": "10201", "at": [24, 20], "facing": 0, "conditions": ["vulnerable"]},
             "guards": {"card": "10101", "attachment": "20102", "at": [24, 20], "facing": 180},
             "guards_b": {"card": "10101", "at": [8, 40], "facing": 180}}  # the round goes on after the attack
    dice = [4, 4, 4, 1, 1, 1] + [1] * 7 + [3, 3, 2]
    s = game(units, {"stark": [], "lannister": []}, dice=dice, first_player="lannister")
    s, _ = R.apply(s, "lannister", {"activate": "guards"})
    assert R.pending(s) == {"lannister": "react"} and s["decision"]["window"] == "unit_activates"
    s, _ = R.apply(s, "lannister", {"order": {"unit": "guards", "ability": "Order: Hold the Line!",
                                              "target": "swords"}})
    # 2 + 3 ranks = 5 hits; Defense [4, 4, 4, 1, 1]; Lannister may spend Vulnerable on that roll
    assert R.pending(s) == {"lannister": "spend"} and s["decision"]["faces"] == [4, 4, 4, 1, 1]
    s, _ = R.apply(s, "lannister", {"spend": {"token": "vulnerable", "dice": [0]}})
    assert s["units"]["swords"]["wounds"] == 9
    assert s["units"]["guards"]["orders_used"] == ["Order: Hold the Line!"]
    assert R.summary(s)["units"]["guards"]["orders_used"] == ["Order: Hold the Line!"]
    s, _ = R.apply(s, "lannister", {"no_action": True})
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"attack": {"target": "guards"}})
    assert R.pending(s) == {"lannister": "react"} and s["decision"]["window"] == "after_attack"
    assert {"order": {"unit": "guards", "ability": "Order: Lannister Supremacy"}} in R.legal_actions(s, "lannister")
    s, _ = R.apply(s, "lannister", {"order": {"unit": "guards", "ability": "Order: Lannister Supremacy"}})
    assert s["last_test"]["unit"] == "swords" and s["last_test"]["modifier"] == -3
    assert sorted(s["units"]["guards"]["orders_used"]) == ["Order: Hold the Line!", "Order: Lannister Supremacy"]
