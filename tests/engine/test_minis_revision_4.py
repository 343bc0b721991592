"""Rules revision 4 (docs/engine-minis.md, docs/rules-decisions.md "Miniatures: rules revision 4"): the
NCU abilities Playing The Game (Cersei Lannister, Queen Regent, 30105) and Repeating the Words (Sansa
Stark, Little Bird, 30202), Subjugation of Power's "cannot be targeted by its own side's Tactics cards"
(40107) and M29's empty turns (seed 269-272). Scenarios 67-69 and 76 show the same in the notation; a
game whose options say `revision: 3` keeps the earlier behaviour."""
from __future__ import annotations

import random

import pytest

from games.engine import get_ruleset
from games.engine.base import EngineError
from games.engine.minis import bot, cards, narrate

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]
FAR = {"swords": {"card": "10201", "at": [12, 10], "facing": 0, "activated": True},
       "guards": {"card": "10101", "at": [36, 40], "facing": 180, "activated": True}}


def game(units=None, hands=None, options=None, **extra):
    setup = {"hands": hands or {"stark": [], "lannister": []}, "units": units or FAR, **extra}
    return R.scenario_game(SEATS, options or {}, 1, setup, "activation")


def kinds(events, kind):
    return [e for e in events if e["type"] == kind]


# ---------------------------------------------------------------- Playing The Game (Cersei)


def _cersei_claims(zone, options=None, **extra):
    s = game(first_player="lannister", options=options, ncus={"30105": {}, **extra.pop("ncus", {})}, **extra)
    s, _ = R.apply(s, "lannister", {"activate": "30105"})
    s, ev = R.apply(s, "lannister", {"claim": {"zone": zone}})
    return s, ev


def test_cersei_spends_her_two_tokens_and_then_is_not_asked():
    s, _ = _cersei_claims("money", dice=[1])
    assert R.pending(s) == {"lannister": "choose"} and s["decision"]["what"] == "ncu_ability"
    assert R.legal_actions(s, "lannister") == [{"choose": {"spend": True, "from": {"40107": "deck"}}},
                                               {"choose": None}]
    assert R.legal_actions(s, "stark") == []
    s, ev = R.apply(s, "lannister", {"choose": {"spend": True}})
    assert kinds(ev, "ncu_ability") == [{"type": "ncu_ability", "seat": "lannister", "ncu": "30105",
                                         "ability": "Playing The Game", "cards": ["40107"], "sources": ["deck"],
                                         "tokens": 1}]
    assert s["players"]["lannister"]["hand"] == ["40107"] and R.summary(s)["ncus"]["30105"]["order_tokens"] == 1
    # the money zone's effect follows: two units to choose from
    assert R.pending(s) == {"lannister": "choose"} and s["decision"]["zone"] == "money"
    none_left, _ = _cersei_claims("money", card_tokens={"30105": 0})
    assert none_left["decision"].get("what") != "ncu_ability"


def test_cersei_is_asked_whatever_the_deck_holds_and_may_find_nothing():
    """The prompt reads public facts only (tokens, the zones controlled): with every Subjugation of Power
    in the hand, spending finds nothing and shuffles the deck."""
    s, _ = _cersei_claims("money", hands={"stark": [], "lannister": ["40107", "40107"]})
    assert R.pending(s) == {"lannister": "choose"} and s["decision"]["what"] == "ncu_ability"
    assert R.legal_actions(s, "lannister") == [{"choose": {"spend": True, "from": {}}}, {"choose": None}]
    with pytest.raises(EngineError):
        R.apply(s, "lannister", {"choose": {"spend": True, "from": {"40107": "deck"}}})
    s, ev = R.apply(s, "lannister", {"choose": {"spend": True}})
    assert kinds(ev, "ncu_ability")[0]["cards"] == []
    assert narrate.narrate(kinds(ev, "ncu_ability")[0]) == (
        "{lannister} spends an Order token of Cersei Lannister, Queen Regent (Playing The Game; tokens left: 1) "
        "but finds no card; the Tactics deck is shuffled.")


def test_cersei_declines_keeps_her_token_and_a_zone_without_a_search_asks_nothing():
    s, _ = _cersei_claims("crown", dice=[6, 6, 1])
    s, ev = R.apply(s, "lannister", {"choose": None})
    assert not kinds(ev, "ncu_ability") and R.summary(s)["ncus"]["30105"]["order_tokens"] == 2
    letter, _ = _cersei_claims("letter")  # neither the crown nor the money zone: nothing to search for
    assert (letter["decision"] or {}).get("what") != "ncu_ability"
    with_tyrion, _ = _cersei_claims("letter", ncus={"30104": {"zone": "crown", "activated": True}})
    assert R.legal_actions(with_tyrion, "lannister")[0] == {"choose": {"spend": True, "from": {"40103": "deck"}}}


def test_cersei_silenced_by_intrigue_or_under_revision_3_does_nothing():
    old, _ = _cersei_claims("money", options={"revision": 3})
    assert (old["decision"] or {}).get("what") != "ncu_ability"
    s = game(first_player="lannister", ncus={"30105": {}}, dice=[6, 6, 1])
    s["ncus"]["30105"]["silenced"] = s["round"]  # Intrigue and Subterfuge: no abilities this round
    s, _ = R.apply(s, "lannister", {"activate": "30105"})
    s, _ = R.apply(s, "lannister", {"claim": {"zone": "money"}})
    assert (s["decision"] or {}).get("what") != "ncu_ability"


# ---------------------------------------------------------------- Repeating the Words (Sansa)


def _sansa(options=None, **extra):
    return game(ncus={"30202": {}}, discards={"stark": ["40201", "40206"]}, options=options, **extra)


def test_sansa_once_per_game_as_she_activates_but_each_time_she_claims():
    s = _sansa(once_used={"stark": ["30202"]})
    s, _ = R.apply(s, "stark", {"activate": "30202"})
    assert R.pending(s) == {"stark": "action"}  # the once per game is spent
    s, _ = R.apply(s, "stark", {"claim": {"zone": "crown"}})
    assert s["decision"]["what"] == "ncu_ability" and s["decision"]["moment"] == "claim"
    assert R.legal_actions(s, "stark") == [{"choose": {"card": "40201"}}, {"choose": {"card": "40206"}},
                                           {"choose": None}]
    s, ev = R.apply(s, "stark", {"choose": {"card": "40201"}})
    assert kinds(ev, "ncu_ability")[0]["instead"] == "crown" and not kinds(ev, "test")  # no Panic test
    assert narrate.narrate(kinds(ev, "ncu_ability")[0]) == (
        "{stark} takes Winter's Might back from the discard pile instead of the effect of the Crown zone "
        "(Sansa Stark, Little Bird: Repeating the Words).")


def test_sansa_declining_keeps_the_zone_effect_and_an_empty_discard_pile_asks_nothing():
    s = _sansa(dice=[6, 6, 1])
    s, _ = R.apply(s, "stark", {"activate": "30202"})
    s, _ = R.apply(s, "stark", {"choose": None})
    assert s["once_used"]["stark"] == [] and R.pending(s) == {"stark": "action"}
    s, _ = R.apply(s, "stark", {"claim": {"zone": "crown"}})
    s, ev = R.apply(s, "stark", {"choose": None})
    assert kinds(ev, "test")[0]["unit"] == "guards"  # the crown zone's Panic test, the only enemy
    empty = game(ncus={"30202": {}})
    empty, _ = R.apply(empty, "stark", {"activate": "30202"})
    assert R.pending(empty) == {"stark": "action"}
    old = _sansa(options={"revision": 3})
    old, _ = R.apply(old, "stark", {"activate": "30202"})
    assert R.pending(old) == {"stark": "action"}


def test_a_card_instead_of_the_zone_effect_after_sansa_took_it_is_not_playable():
    s = _sansa(hands={"stark": ["40207"], "lannister": []})
    s, _ = R.apply(s, "stark", {"activate": "30202"})
    s, _ = R.apply(s, "stark", {"choose": None})
    s, _ = R.apply(s, "stark", {"claim": {"zone": "crown"}})
    declined, _ = R.apply(s, "stark", {"choose": None})
    assert declined["decision"]["window"] == "zone_claimed"  # Assault Orders may replace the zone's effect
    s, _ = R.apply(s, "stark", {"choose": {"card": "40206"}})
    assert (s["decision"] or {}).get("window") != "zone_claimed"  # nothing left to replace


def test_the_engines_player_and_the_timeout_default():
    s = _sansa()
    s, _ = R.apply(s, "stark", {"activate": "30202"})
    assert R.default_action(s, "stark") == {"choose": None}
    assert bot.bot_action(s, "stark") == {"choose": {"card": "40201"}}


# ---------------------------------------------------------------- Subjugation of Power (40107)


def _subjugated(options=None):
    units = {"swords": {"card": "10201", "at": [24, 20], "facing": 0},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180, "order_used": True}}
    s = game(units, {"stark": ["40201"], "lannister": ["40107"]}, options=options, dice=[2, 2, 1] + [1] * 7)
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, _ = R.apply(s, "lannister", {"play": {"card": "40107"}})
    assert s["last_test"]["passed"] is False
    s, _ = R.apply(s, "stark", {"attack": {"target": "guards"}})
    return s


def test_subjugation_its_own_side_cannot_target_it_this_turn_but_revision_3_could():
    s = _subjugated()
    assert R.pending(s) == {"lannister": "activate"} and s["players"]["stark"]["hand"] == ["40201"]
    assert cards.untargetable(s, "stark", "swords") is False  # a new turn: the effect is over
    old = _subjugated({"revision": 3})
    assert R.pending(old) == {"stark": "react"} and old["decision"]["window"] == "melee_before"
    assert R.legal_actions(old, "stark")[2:] == [{"play": {"card": "40201", "mode": 0}}]


def test_subjugated_unit_is_untargetable_by_its_side_only():
    s = game({"swords": {"card": "10201", "at": [24, 20], "facing": 0},
              "guards": {"card": "10101", "at": [24, 40], "facing": 180}})
    s["units"]["swords"]["silenced"] = s.get("turn_no")
    assert cards.untargetable(s, "stark", "swords") and not cards.untargetable(s, "lannister", "swords")
    assert cards.card_modes(s, "stark", "melee_before", {"unit": "swords", "target": "guards"}, "40201") == []
    old = game({"swords": {"card": "10201", "at": [24, 20], "facing": 0},
                "guards": {"card": "10101", "at": [24, 40], "facing": 180}}, options={"revision": 3})
    old["units"]["swords"]["silenced"] = old.get("turn_no")
    assert not cards.untargetable(old, "stark", "swords")


# ---------------------------------------------------------------- M29: the empty turn


def _two_swords(options=None):
    units = {"swords": {"card": "10201", "at": [12, 10], "facing": 0},
             "swords_b": {"card": "10201", "at": [36, 10], "facing": 0},
             "guards": {"card": "10101", "at": [24, 40], "facing": 180, "activated": True}}
    s = game(units, {"stark": [], "lannister": ["40110"]}, options=options, first_player="stark",
             decks={"lannister": ["40101"]})
    s, _ = R.apply(s, "lannister", {"pass": True})
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    return R.apply(s, "stark", {"no_action": True})


def test_an_empty_turn_has_its_start_and_end_and_revision_3_skips_it():
    s, ev = _two_swords()
    assert kinds(ev, "empty_turn") == [{"type": "empty_turn", "seat": "lannister"}]
    assert s["turn"] == "lannister" and s["decision"]["window"] == "turn_start"
    assert s["decision"]["ctx"] == {"seat": "lannister"}
    assert narrate.narrate(kinds(ev, "empty_turn")[0]) == (
        "{lannister} has nothing left to activate: its turn goes from its start straight to its end.")
    turn_no = s["turn_no"]
    s, ev = R.apply(s, "lannister", {"pass": True})
    assert s["turn"] == "stark" and s["turn_no"] == turn_no + 1 and R.pending(s) == {"lannister": "react"}
    s, _ = R.apply(s, "lannister", {"pass": True})
    s, _ = R.apply(s, "stark", {"activate": "swords_b"})
    s, ev = R.apply(s, "stark", {"no_action": True})
    assert kinds(ev, "cleanup") and not kinds(ev, "empty_turn")  # nobody has anything left: no empty turn
    old, ev = _two_swords({"revision": 3})
    assert not kinds(ev, "empty_turn") and old["turn"] == "stark" and old["decision"]["ctx"] == {"seat": "stark"}


def test_empty_turns_in_random_games_keep_the_invariants():
    """Whole seeded random games under revision 4: empty turns happen and every invariant holds."""
    seen = 0
    for seed in (3, 4):
        state = R.new_game(SEATS, {}, seed)
        rnd = random.Random(seed)
        while not state["over"]:
            seat = rnd.choice(sorted(R.pending(state)))
            state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
            seen += len(kinds(events, "empty_turn"))
            bot.check_invariants(state, events)
    assert seen > 0


def test_a_free_for_all_seat_with_nothing_left_takes_its_empty_turn_in_its_place_M131():
    """Three players (M131): after stark's first unit, lannister and stark_2 (both done) take their empty
    turns in seating order, each with its start-of-turn window (lannister holds a "start of any turn"
    card, so it is asked at both), then stark plays its second unit."""
    units = {"swords": {"card": "10201", "at": [6, 8], "facing": 0},
             "swords_b": {"card": "10201", "at": [16, 8], "facing": 0},
             "guards": {"card": "10101", "at": [6, 40], "facing": 180, "activated": True},
             "wolves": {"card": "10201", "seat": "stark_2", "at": [42, 40], "facing": 180, "activated": True}}
    s = R.scenario_game(["stark", "lannister", "stark_2"], {}, 1,
                        {"first_player": "stark", "units": units,
                         "hands": {"stark": [], "lannister": ["40110"], "stark_2": []}}, "activation")
    s, _ = R.apply(s, "lannister", {"pass": True})
    s, _ = R.apply(s, "stark", {"activate": "swords"})
    s, ev = R.apply(s, "stark", {"no_action": True})
    assert kinds(ev, "empty_turn") == [{"type": "empty_turn", "seat": "lannister"}]
    assert s["decision"]["ctx"] == {"seat": "lannister"} and R.pending(s) == {"lannister": "react"}
    s, ev = R.apply(s, "lannister", {"pass": True})
    assert kinds(ev, "empty_turn") == [{"type": "empty_turn", "seat": "stark_2"}]
    assert s["decision"]["ctx"] == {"seat": "stark_2"} and R.pending(s) == {"lannister": "react"}
    s, _ = R.apply(s, "lannister", {"pass": True})
    assert s["turn"] == "stark" and R.pending(s) == {"lannister": "react"}  # stark's own turn start
    s, _ = R.apply(s, "lannister", {"pass": True})
    assert R.pending(s) == {"stark": "activate"}
