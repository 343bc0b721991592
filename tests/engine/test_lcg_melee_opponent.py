"""Melee: a card saying "an opponent" lets its player choose which (docs/rules-decisions.md,
"Melee: 'an opponent'"; issue 31). The decision lists seats only, every value is validated, its
timeout default is the reading used before (`table.opponent`, else the next allowed opponent in
player order), and in the joust nothing is asked. Scenarios: tests/scenarios/lcg/melee/10-12."""
from __future__ import annotations

import json

import pytest

from games.engine import get_ruleset
from games.engine.base import EngineError
from games.engine.lcg import bot

R = get_ruleset("lcg")
CARDS = [{"id": "plot_0", "type": "plot", "plot": {"income": 0, "initiative": 0, "claim": 1, "reserve": 6}},
         {"id": "x", "type": "event", "cost": 9}]
TITLES = ["master_of_whispers", "master_of_laws", "master_of_ships", "master_of_coin", "crown_regent",
          "hand_of_the_king"]


def _game(players, start="challenges"):
    seats = R.seat_names(len(players))
    setup_players = {s: {"decklist": None, "faction": "stark", "plot": "plot_0", **p}
                     for s, p in zip(seats, players, strict=True)}
    setup = {"first_player": "p1", "players": setup_players}
    if len(seats) > 2:
        setup["titles"] = dict(zip(seats, TITLES, strict=False))
    return R.scenario_game(seats, {}, 1, setup, start, extra={"cards": CARDS})


def _seen_in_flames(n):
    players = [{"faction": "baratheon", "characters": ["melisandre"], "hand": ["seen_in_flames"], "gold": 1},
               {"hand": ["tywin_lannister", "x"]}, {"hand": ["burned_men"]}, {}][:n]
    s = _game(players)
    s, _ = R.apply(s, "p1", {"play": "seen_in_flames"})
    return s


def test_seen_in_flames_asks_among_opponents_with_cards_in_hand_and_shows_only_that_hand_L123():
    s = _seen_in_flames(4)
    assert R.pending(s) == {"p1": "choose"}
    # p4 holds no card: not offered; the question names seats, never a card of any hand
    assert R.legal_actions(s, "p1") == [{"choose": "p2"}, {"choose": "p3"}]
    view = json.dumps(R.view(s, "p1"))
    assert "tywin_lannister" not in view and "burned_men" not in view
    for bad in ("p1", "p4", "p9", 2, None, ["p2"], {"seat": "p2"}):
        with pytest.raises(EngineError):
            R.apply(s, "p1", {"choose": bad})
    s, events = R.apply(s, "p1", {"choose": "p3"})
    assert {"type": "named", "seat": "p1", "card": "seen_in_flames", "opponent": "p3"} in events
    # now p3's hand is the choice (listed to p1 only), p2's stays hidden
    assert R.legal_actions(s, "p1") == [{"choose": {"card": "burned_men", "zone": "hand", "seat": "p3"}}]
    for viewer in ("p1", "p4", None):
        view = json.dumps(R.view(s, viewer))
        assert "tywin_lannister" not in view and "burned_men" not in view
    s, _ = R.apply(s, "p1", {"choose": {"card": "burned_men", "zone": "hand", "seat": "p3"}})
    assert R.summary(s)["discard"]["p3"] == ["burned_men"] and R.summary(s)["hand_size"]["p2"] == 2


def test_the_timeout_default_is_the_next_allowed_opponent_in_player_order():
    s = _seen_in_flames(3)
    assert R.default_action(s, "p1") == {"choose": "p2"}
    s, _ = R.apply(s, "p1", R.default_action(s, "p1"))
    assert R.pending(s) == {"p1": "choose"}
    assert {"choose": {"card": "tywin_lannister", "zone": "hand", "seat": "p2"}} in R.legal_actions(s, "p1")


def test_the_joust_asks_nothing():
    s = _seen_in_flames(2)
    # straight to the card of the only opponent's hand, as before
    assert R.pending(s) == {"p1": "choose"}
    assert {"choose": {"card": "tywin_lannister", "zone": "hand", "seat": "p2"}} in R.legal_actions(s, "p1")
    s, _ = R.apply(s, "p1", {"choose": {"card": "tywin_lannister", "zone": "hand", "seat": "p2"}})
    assert R.summary(s)["discard"]["p2"] == ["tywin_lannister"]


def test_one_allowed_opponent_is_taken_without_a_question():
    s = _game([{"faction": "baratheon", "characters": ["melisandre"], "hand": ["seen_in_flames"], "gold": 1},
               {}, {"hand": ["burned_men"]}])
    s, _ = R.apply(s, "p1", {"play": "seen_in_flames"})
    assert R.legal_actions(s, "p1") == [{"choose": {"card": "burned_men", "zone": "hand", "seat": "p3"}}]


def test_calling_the_banners_counts_the_chosen_opponents_characters_L58():
    s = _game([{"plots": ["calling_the_banners"]},
               {"plots": ["plot_0"], "characters": ["burned_men"]},
               {"plots": ["plot_0"], "characters": ["burned_men", "burned_men", "tywin_lannister"]}],
              start="plot")
    s, _ = R.apply(s, "p1", {"first_player": "p1"})
    assert R.legal_actions(s, "p1") == [{"choose": "p2"}, {"choose": "p3"}]
    gold = R.summary(s)["gold"]["p1"]
    s, _ = R.apply(s, "p1", {"choose": "p3"})
    assert R.summary(s)["gold"]["p1"] == gold + 3


def test_the_things_i_do_for_love_targets_any_opponents_character():
    s = _game([{"faction": "lannister", "characters": ["tywin_lannister"], "hand": ["the_things_i_do_for_love"],
                "gold": 9}, {"characters": ["burned_men"]}, {"characters": ["eddard_stark"]}])
    s, _ = R.apply(s, "p1", {"play": "the_things_i_do_for_love"})
    s, _ = R.apply(s, "p1", {"choose": max(a["choose"] for a in R.legal_actions(s, "p1"))})
    text = json.dumps(R.legal_actions(s, "p1"))
    assert "burned_men" in text and "eddard_stark" in text


def test_random_melee_games_with_the_question_keep_every_invariant():
    for seed in range(3):
        res = bot.play_melee(seed + 77, 4, smart=("p1",), every_window=False)
        assert res["state"]["over"]


def test_the_log_says_which_opponent_was_chosen():
    from games.engine.lcg import narrate

    text = narrate.narrate({"type": "named", "seat": "p1", "card": "heads_on_spikes", "opponent": "p3"})
    assert "Heads on Spikes" in text and "opponent" in text and "X =" not in text


def test_vanguard_lancer_asks_among_opponents_with_power_then_that_opponents_cards_L91():
    s = _game([{"faction": "baratheon", "hand": ["vanguard_lancer"], "gold": 9},
               {"faction_power": 2}, {}, {"characters": ["burned_men"]}], start="marshaling")
    four = s["players"]["p4"]
    four_char = next(u for u in s["inplay"] if s["inplay"][u]["controller"] == "p4")
    s["inplay"][four_char]["power"] = 1
    assert four["faction_power"] == 0
    s, _ = R.apply(s, "p1", {"marshal": "vanguard_lancer"})
    if R.pending(s) == {"p1": "reaction"}:
        s, _ = R.apply(s, "p1", {"trigger": "vanguard_lancer"})
    # p3 has no power anywhere: not offered
    assert R.legal_actions(s, "p1") == [{"choose": "p2"}, {"choose": "p4"}]
    s, _ = R.apply(s, "p1", {"choose": "p4"})
    # p4 has power on a character only: that character is the card choice, p2's faction card untouched
    acts = R.legal_actions(s, "p1")
    assert acts and all("burned_men" in json.dumps(a) for a in acts)
    s, _ = R.apply(s, "p1", acts[0])
    assert s["inplay"][four_char]["power"] == 0 and s["players"]["p2"]["faction_power"] == 2


def test_the_tickler_discards_from_the_chosen_opponents_deck():
    # (an opponent with an empty draw deck is eliminated in a melee, L231, so every opponent is offered)
    s = _game([{"faction": "lannister", "characters": ["the_tickler"]}, {"deck": ["burned_men"]},
               {"deck": ["burned_men"]}, {"deck": ["tywin_lannister"]}], start="dominance")
    while R.pending(s) and R.pending(s) != {"p1": "action"}:
        seat = sorted(R.pending(s))[0]
        s, _ = R.apply(s, seat, R.default_action(s, seat))
    assert R.pending(s) == {"p1": "action"}
    s, _ = R.apply(s, "p1", {"trigger": "the_tickler"})
    assert R.legal_actions(s, "p1") == [{"choose": "p2"}, {"choose": "p3"}, {"choose": "p4"}]
    s, _ = R.apply(s, "p1", {"choose": "p4"})
    assert R.summary(s)["discard"]["p4"] == ["tywin_lannister"]
