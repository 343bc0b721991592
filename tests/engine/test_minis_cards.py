"""Orders (M103) and Tactics cards (M104-M105, M110-M113) in the miniatures game: windows at their
triggers, the active seat asked first, one answer per seat and trigger, played cards public in the
discard pile, Counterplot answering a card before it resolves, the Disorderly Charge ban (M69), and
the `reaction_prompts` option (issue 18)."""
from __future__ import annotations

import pytest

from games.engine import get_ruleset
from games.engine.base import EngineError

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]


def game(units, hands, dice=None, options=None, **extra):
    setup = {"hands": hands, "units": units, **extra}
    if dice is not None:
        setup["dice"] = dice
    return R.scenario_game(SEATS, options or {}, 1, setup, "activation")


ENGAGED = {"swords": {"card": "10201", "at": [24, 20], "facing": 0},
           "guards": {"card": "10101", "at": [24, 20], "facing": 180}}


def test_a_melee_card_before_the_dice_adds_its_keyword_and_goes_to_the_discards():
    """Winter's Might (40201): the attack gains Sundering (M95): the Guardsmen's 3+ save becomes 4+."""
    s = game(ENGAGED, {"stark": ["40201"], "lannister": []}, dice=[4] * 7 + [3] * 7 + [6, 6, 1])
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"attack": {"target": "guards"}})
    assert R.pending(s) == {"stark": "react"}
    assert s["decision"]["window"] == "melee_before"
    assert {"play": {"card": "40201", "mode": 0}} in R.legal_actions(s, "stark")
    s, ev = R.apply(s, "stark", {"play": {"card": "40201"}})
    assert any(e["type"] == "play" and e["card"] == "40201" for e in ev)
    la = s["last_attack"]
    assert "sundering" in la["keywords"] and la["defense_save"] == 4
    # 7 hits, 7 defense dice of 3: all fail against 4+ (they would have saved at 3+)
    assert s["units"]["guards"]["wounds"] == 5
    assert R.summary(s)["discards"]["stark"] == ["40201"] and s["players"]["stark"]["hand"] == []


def test_an_order_once_per_round_lannister_supremacy_after_the_attack():
    """M103: the Guardsmen answer the Swords' attack with their Order: a Panic test at -3 (3 ranks)
    and 3 more wounds on a failure; the Order token stays until Cleanup."""
    dice = [1] * 7 + [6, 6]  # 7 misses: no hit, so no defense dice; the defender passes automatically
    dice += [3, 3, 2]  # Supremacy: 3 + 3 - 3 = 3 < 6: fails, D3 2 + 3
    s = game(ENGAGED, {"stark": [], "lannister": []}, dice=dice[:7] + dice[9:])
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"attack": {"target": "guards"}})
    assert R.pending(s) == {"lannister": "react"} and s["decision"]["window"] == "after_attack"
    s, _ = R.apply(s, "lannister", {"order": {"unit": "guards"}})
    assert s["units"]["guards"]["order_used"] is True
    assert s["last_test"]["unit"] == "swords" and s["last_test"]["modifier"] == -3
    assert s["units"]["swords"]["wounds"] == 12 - 5
    assert R.pending(s) == {"lannister": "activate"}


def test_one_answer_per_seat_and_the_active_seat_first():
    """M104-M105: in a window both seats may answer once, the active seat first; with the option
    `all` both are asked even without a card that applies."""
    s = game(ENGAGED, {"stark": ["40202"], "lannister": ["40103"]}, options={"reaction_prompts": "all"},
             dice=[1] * 7)
    # the turn starts: each seat whose deck could answer a start-of-turn trigger is asked, stark first
    assert R.pending(s) == {"stark": "react"} and s["decision"]["window"] == "turn_start"
    s, _ = R.apply(s, "stark", {"pass": True})
    assert R.pending(s) == {"lannister": "react"}
    with pytest.raises(EngineError) as e:
        R.apply(s, "lannister", {"play": {"card": "40103"}})
    assert e.value.code == "illegal_action"  # Hear Me Roar! has no start-of-turn trigger
    s, _ = R.apply(s, "lannister", {"auto_pass": True})
    assert R.pending(s) == {"stark": "activate"}


def test_counterplot_answers_a_card_before_it_resolves():
    """40105: the opponent's card is cancelled on 3+ (it stays in the discard pile)."""
    s = game(ENGAGED, {"stark": ["40202"], "lannister": ["40105"]}, dice=[4, 1, 1, 1, 1, 1, 1, 1])
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"attack": {"target": "guards"}})
    s, _ = R.apply(s, "stark", {"play": {"card": "40202"}})
    assert R.pending(s) == {"lannister": "react"} and s["decision"]["window"] == "card_played"
    s, ev = R.apply(s, "lannister", {"play": {"card": "40105"}})
    assert any(e["type"] == "counterplot" and e["cancelled"] for e in ev)
    assert "vicious" not in s["last_attack"]["keywords"]
    assert s["players"]["stark"]["discards"] == ["40202"] and s["players"]["lannister"]["discards"] == ["40105"]


def test_hear_me_roar_before_a_morale_test():
    """40103: -1 and -1 per lost rank, and 1 more wound when the test fails."""
    units = {"swords": {"card": "10201", "at": [12, 10], "facing": 0, "activated": True, "lost": 4},
             "guards": {"card": "10101", "at": [36, 40], "facing": 180}}
    s = game(units, {"stark": [], "lannister": ["40103"]}, dice=[4, 3, 2],
             ncus={"30104": {"activated": False}}, turn="lannister")
    s, _ = R.apply(s, "lannister", {"activate": "30104"})
    s, _ = R.apply(s, "lannister", {"claim": {"zone": "crown", "target": "swords"}})
    assert R.pending(s) == {"lannister": "react"} and s["decision"]["window"] == "morale_before"
    s, _ = R.apply(s, "lannister", {"play": {"card": "40103"}})
    t = s["last_test"]
    assert t["modifier"] == -1 - 1 - 1 and t["result"] == 4 and not t["passed"]
    assert t["wounds"] == 2 + 1 and s["units"]["swords"]["wounds"] == 8 - 3


def test_a_disorderly_charge_forbids_cards_for_the_rest_of_the_turn():
    """M69: a charge roll of 1: no Charge bonus and no Tactics cards that turn."""
    units = {"swords": {"card": "10201", "at": [24, 14], "facing": 0},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180}}
    s = game(units, {"stark": ["40201"], "lannister": []}, dice=[1] + [1] * 7)
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "stark", {"charge": {"target": "guards"}})
    assert s["last_charge"]["result"] == "success" and s["last_charge"]["disorderly"]
    # the melee window opens but Stark may not play: nobody is asked (playable prompts)
    assert R.pending(s) != {"stark": "react"}


def test_tactical_reposition_shifts_a_friendly_unit_at_the_start_of_the_opponents_turn():
    units = {"outriders": {"card": "10202", "at": [10, 10], "facing": 0},
             "swords": {"card": "10201", "at": [18, 10], "facing": 0},
             "guards": {"card": "10101", "at": [36, 40], "facing": 180}}
    s = game(units, {"stark": [], "lannister": []}, turn="lannister")
    assert R.pending(s) == {"stark": "react"}
    with pytest.raises(EngineError):
        R.apply(s, "stark", {"order": {"unit": "outriders", "target": "swords",
                                       "move": {"direction": "forward", "distance": 3.5}}})
    s, _ = R.apply(s, "stark", {"order": {"unit": "outriders", "target": "swords",
                                          "move": {"direction": "forward", "distance": 3}}})
    assert s["units"]["swords"]["at"] == [18, 13] and s["units"]["outriders"]["order_used"]
    assert R.pending(s) == {"lannister": "activate"}


def test_timeout_default_of_a_react_is_pass():
    s = game(ENGAGED, {"stark": [], "lannister": []}, options={"reaction_prompts": "all"})
    assert R.pending(s) == {"stark": "react"}
    assert R.default_action(s, "stark") == {"pass": True}
