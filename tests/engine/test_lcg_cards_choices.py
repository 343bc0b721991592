"""Card tests, part 4: the choices three cards ask for while they are initiated or resolved
(rules/lcg.md L128, L134-L136, §5.2 hidden information, §5.3 timeout defaults), one test per card
choice, named after the card."""
from __future__ import annotations

import json

import pytest

from games.engine import EngineError
from games.engine.lcg import table as T
from tests.engine.lcg_helpers import R, act, game, uid, until


def kneeling(s, seat, name):
    return s["inplay"][uid(s, seat, name)]["kneeling"]


def deck_ids(s, seat):
    return [T.cid(s, u) for u in s["players"][seat]["deck"]]


# ---------------------------------------------------------------- Like Warm Rain


def _warm_rain():
    s = game({"characters": ["grey_wind", "summer", "catelyn_stark"], "hand": ["like_warm_rain"], "gold": 1},
             {"characters": ["tywin_lannister"]}, first="p2")
    s, _ = act(s, "p2", {"challenge": {"type": "intrigue", "attackers": ["tywin_lannister"]}})
    s, _ = act(s, "p1", {"defenders": ["catelyn_stark"]})
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    s, ev = act(s, "p1", {"play": {"card": "like_warm_rain", "targets": [{"card": "tywin_lannister", "seat": "p2"}]}})
    return s, ev


def test_like_warm_rain_the_player_chooses_which_direwolf_kneels_for_the_cost_L128_L129():
    s, ev = _warm_rain()
    # L128 step 5: two Direwolves could pay the cost, so their controller chooses
    assert R.pending(s) == {"p1": "choose"} and s["decision"]["what"] == "kneel_cost"
    assert R.legal_actions(s, "p1") == [{"choose": "grey_wind#1"}, {"choose": "summer#1"}]
    assert not any(e["type"] in ("played", "kneel") for e in ev)  # nothing paid before the choice (L132)
    with pytest.raises(EngineError):
        act(s, "p1", {"choose": "catelyn_stark"})  # not a Direwolf
    s, ev = act(s, "p1", {"choose": "grey_wind#1"})
    assert kneeling(s, "p1", "grey_wind") and not kneeling(s, "p1", "summer")
    assert any(e["type"] == "kneel" and e["card"] == "grey_wind" and e["reason"] == "cost" for e in ev)
    assert R.summary(s)["dead"]["p2"] == ["tywin_lannister"]
    assert s["players"]["p1"]["gold"] == 0 and "like_warm_rain" in R.summary(s)["discard"]["p1"]


def test_like_warm_rain_timeout_kneels_the_lowest_printed_cost_direwolf_L128_section_5_3():
    s, _ = _warm_rain()
    # §5.3: a mandatory choice takes the lowest printed cost, then the card id: Summer (3) before Grey Wind (5)
    assert R.default_action(s, "p1") == {"choose": "summer#1"}
    s, _ = act(s, "p1", R.default_action(s, "p1"))
    assert kneeling(s, "p1", "summer") and not kneeling(s, "p1", "grey_wind")
    assert R.summary(s)["dead"]["p2"] == ["tywin_lannister"]


def test_like_warm_rain_with_one_direwolf_is_not_asked_L128():
    s = game({"characters": ["grey_wind", "catelyn_stark"], "hand": ["like_warm_rain"], "gold": 1},
             {"characters": ["tywin_lannister"]}, first="p2")
    s, _ = act(s, "p2", {"challenge": {"type": "intrigue", "attackers": ["tywin_lannister"]}})
    s, _ = act(s, "p1", {"defenders": ["catelyn_stark"]})
    s = until(s, lambda s: R.pending(s) == {"p1": "reaction"})
    s, ev = act(s, "p1", {"play": {"card": "like_warm_rain", "targets": [{"card": "tywin_lannister", "seat": "p2"}]}})
    assert {"type": "kneel", "seat": "p1", "card": "grey_wind", "reason": "cost"} in ev
    assert R.summary(s)["dead"]["p2"] == ["tywin_lannister"]


# ---------------------------------------------------------------- The Bear and the Maiden Fair


DECK = ["tywin_lannister", "cersei_lannister", "tyrion_lannister", "ser_jaime_lannister", "the_kingsroad",
        "lannisport"]


def _bear():
    s = game({"hand": ["the_bear_and_the_maiden_fair"], "characters": ["eddard_stark"]}, {"deck": DECK})
    s, ev = act(s, "p1", {"play": "the_bear_and_the_maiden_fair"})
    s, more = act(s, "p1", {"choose": "p2"})
    ev += more
    s, more = act(s, "p1", {"choose": [{"card": "tywin_lannister", "zone": "deck", "seat": "p2"}]})
    return s, ev + more


def test_the_bear_and_the_maiden_fair_puts_the_rest_back_on_top_in_the_order_chosen_L142():
    s, _ = _bear()
    assert R.pending(s) == {"p1": "choose"} and s["decision"]["what"] == "order"
    legal = R.legal_actions(s, "p1")
    assert len(legal) == 24 and {"choose": ["ser_jaime_lannister", "the_kingsroad", "cersei_lannister",
                                            "tyrion_lannister"]} in legal
    with pytest.raises(EngineError):
        act(s, "p1", {"choose": ["ser_jaime_lannister", "cersei_lannister"]})  # every card left on top
    with pytest.raises(EngineError):
        act(s, "p1", {"choose": ["lannisport", "cersei_lannister", "tyrion_lannister", "ser_jaime_lannister"]})
    s, _ = act(s, "p1", {"choose": ["ser_jaime_lannister", "the_kingsroad", "cersei_lannister", "tyrion_lannister"]})
    deck = deck_ids(s, "p2")
    assert deck[:5] == ["ser_jaime_lannister", "the_kingsroad", "cersei_lannister", "tyrion_lannister", "lannisport"]
    assert deck[-1] == "tywin_lannister"  # the card put on the bottom
    assert R.pending(s) != {"p1": "choose"}


def test_the_bear_and_the_maiden_fair_timeout_keeps_the_order_they_were_in_section_5_3():
    s, _ = _bear()
    assert R.default_action(s, "p1") == {"choose": ["cersei_lannister", "tyrion_lannister", "ser_jaime_lannister",
                                                    "the_kingsroad"]}
    s, _ = act(s, "p1", R.default_action(s, "p1"))
    deck = deck_ids(s, "p2")
    assert deck[:5] == DECK[1:5] + ["lannisport"] and deck[-1] == "tywin_lannister"


def test_the_bear_and_the_maiden_fair_two_copies_of_a_card_can_go_to_the_bottom():
    s = game({"hand": ["the_bear_and_the_maiden_fair"], "characters": ["eddard_stark"]},
             {"deck": ["blank", "tywin_lannister", "blank", "cersei_lannister", "tyrion_lannister", "lannisport"]})
    s, _ = act(s, "p1", {"play": "the_bear_and_the_maiden_fair"})
    s, _ = act(s, "p1", {"choose": "p2"})
    blank = {"card": "blank", "zone": "deck", "seat": "p2"}
    s, _ = act(s, "p1", {"choose": [blank, blank]})
    s, _ = act(s, "p1", {"choose": ["tyrion_lannister", "cersei_lannister", "tywin_lannister"]})
    deck = deck_ids(s, "p2")
    assert deck[:4] == ["tyrion_lannister", "cersei_lannister", "tywin_lannister", "lannisport"]
    assert deck[-2:] == ["blank", "blank"]


def test_the_bear_and_the_maiden_fair_the_cards_seen_and_the_order_never_reach_the_other_seat_section_5_2():
    s, ev0 = _bear()
    seen = set(DECK[:5])
    views = {}
    for order in (["cersei_lannister", "tyrion_lannister", "ser_jaime_lannister", "the_kingsroad"],
                  ["the_kingsroad", "ser_jaime_lannister", "tyrion_lannister", "cersei_lannister"]):
        t, ev = act(s, "p1", {"choose": order})
        assert deck_ids(t, "p2")[:4] == order
        for viewer in ("p2", None):  # the other seat, and a spectator or the log
            text = json.dumps([R.view(t, viewer), [R.event_view(e, viewer) for e in ev0 + ev]])
            assert not any(c in text for c in seen), viewer
            views.setdefault(viewer, []).append((R.view(t, viewer), [R.event_view(e, viewer) for e in ev]))
        assert R.summary(t, "p2")["deck"]["p2"] == "hidden"
    # the two orders look the same from the other seat and in the log
    assert views["p2"][0] == views["p2"][1] and views[None][0] == views[None][1]
    # while the order is being chosen, the other seat's view names none of the cards either
    assert not any(c in json.dumps(R.view(s, "p2")) for c in seen)
    # the chooser saw the 5 cards, privately
    look = next(e for e in ev0 if e["type"] == "look")
    assert R.event_view(look, "p1")["cards"] == DECK[:5] and "cards" not in R.event_view(look, "p2")


# ---------------------------------------------------------------- The Things I Do for Love


def _love(gold=7):
    return game({"characters": ["eddard_stark", "bran_stark", "catelyn_stark"]},
                {"characters": ["cersei_lannister"], "hand": ["the_things_i_do_for_love"], "gold": gold}, first="p2")


def test_the_things_i_do_for_love_x_is_chosen_in_its_own_decision_L134_L136():
    s = _love()
    # the window offers the card once, without X or a target
    assert {"play": {"card": "the_things_i_do_for_love"}} in R.legal_actions(s, "p2")
    assert not any("x" in a.get("play", {}) for a in R.legal_actions(s, "p2") if isinstance(a.get("play"), dict))
    s, ev = act(s, "p2", {"play": "the_things_i_do_for_love"})
    assert R.pending(s) == {"p2": "choose"} and s["decision"]["what"] == "x"
    # L136: X at least the cheapest target's printed cost (Bran Stark, 2); at most the gold pool (7)
    assert R.legal_actions(s, "p2") == [{"choose": x} for x in range(2, 8)]
    assert (s["decision"]["min"], s["decision"]["max"]) == (2, 7)
    for bad in (1, 8):
        with pytest.raises(EngineError):
            act(s, "p2", {"choose": bad})
    s, _ = act(s, "p2", {"choose": 4})
    # then the target: a character with printed cost X or less
    assert s["decision"]["what"] == "target"
    assert R.legal_actions(s, "p2") == [{"choose": {"card": "bran_stark#1", "seat": "p1"}},
                                        {"choose": {"card": "catelyn_stark#1", "seat": "p1"}}]
    with pytest.raises(EngineError):
        act(s, "p2", {"choose": {"card": "eddard_stark", "seat": "p1"}})
    s, _ = act(s, "p2", {"choose": {"card": "catelyn_stark", "seat": "p1"}})
    s = until(s, lambda s: "catelyn_stark" in R.summary(s)["hand"]["p1"])
    assert s["players"]["p2"]["gold"] == 3 and s["players"]["p2"]["faction_kneeling"]  # X = 4 paid (L129)


def test_the_things_i_do_for_love_timeout_takes_the_lowest_x_then_the_cheapest_target_section_5_3():
    s = _love(gold=5)
    s, _ = act(s, "p2", {"play": "the_things_i_do_for_love"})
    assert R.legal_actions(s, "p2") == [{"choose": x} for x in range(2, 6)]
    assert R.default_action(s, "p2") == {"choose": 2}
    s, _ = act(s, "p2", R.default_action(s, "p2"))
    assert R.default_action(s, "p2") == {"choose": {"card": "bran_stark#1", "seat": "p1"}}
    s, _ = act(s, "p2", R.default_action(s, "p2"))
    s = until(s, lambda s: "bran_stark" in R.summary(s)["hand"]["p1"])
    assert s["players"]["p2"]["gold"] == 3


def test_the_things_i_do_for_love_cannot_be_played_without_gold_for_the_cheapest_target_L125_L136():
    s = _love(gold=1)
    assert R.pending(s) == {"p2": "challenge"}  # no action window: the card has no legal X
    with pytest.raises(EngineError):
        act(s, "p2", {"play": "the_things_i_do_for_love"})
