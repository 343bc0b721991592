"""Ordering of abilities that resolve at once: when-revealed plots (L58 III, L111) and forced
abilities (L99, L100) are ordered by the first player (decision `order`, by card id); the timeout
default is the canonical order of rules/lcg.md §5.3 (the first player's own first, then player order,
then card code)."""
from __future__ import annotations

import pytest

from games.engine import EngineError, get_ruleset
from games.engine.lcg import cards

R = get_ruleset("lcg")


def game(p1, p2, start="plot", first="p1"):
    players = {"p1": {"decklist": None, "faction": "stark", **p1}, "p2": {"decklist": None, "faction": "lannister", **p2}}
    return R.scenario_game(["p1", "p2"], {}, 3, {"first_player": first, "players": players}, start, None)


def revealed(p1_plot, p2_plot, first, p1=None, p2=None):
    """Both seats choose; the initiative winner makes `first` the first player. Returns the state
    and the events of that last act."""
    def other(plot):
        return "a_game_of_thrones" if plot == "the_winds_of_winter" else "the_winds_of_winter"

    s = game({"plots": [p1_plot, other(p1_plot)], **(p1 or {})}, {"plots": [p2_plot, other(p2_plot)], **(p2 or {})})
    s, _ = R.apply(s, "p1", {"plot": p1_plot})
    s, _ = R.apply(s, "p2", {"plot": p2_plot})
    return R.apply(s, s["decision"]["seats"][0], {"first_player": first})


def banners_gold(events):
    return [e["seat"] for e in events if e["type"] == "gold" and e.get("card") == "calling_the_banners"]


BANNERS = {"characters": ["burned_men"], "hand": ["burned_men"]}


def test_two_when_revealed_plots_ask_the_first_player_for_the_order_L58_L111():
    s, _ = revealed("calling_the_banners", "heads_on_spikes", "p2", p1=BANNERS, p2=BANNERS)
    assert R.pending(s) == {"p2": "order"}  # the first player, whoever controls the plots (L100)
    assert R.legal_actions(s, "p2") == [{"order": ["heads_on_spikes", "calling_the_banners"]},
                                        {"order": ["calling_the_banners", "heads_on_spikes"]}]
    with pytest.raises(EngineError):
        R.apply(s, "p2", {"order": ["heads_on_spikes"]})
    with pytest.raises(EngineError) as e:
        R.apply(s, "p1", {"order": ["heads_on_spikes", "calling_the_banners"]})
    assert e.value.code == "not_your_turn"
    _, events = R.apply(s, "p2", {"order": ["calling_the_banners", "heads_on_spikes"]})
    gold = next(i for i, e in enumerate(events) if e["type"] == "gold" and e.get("card") == "calling_the_banners")
    power = next(i for i, e in enumerate(events) if e.get("reason") == "heads_on_spikes")
    assert gold < power
    _, events = R.apply(s, "p2", {"order": ["heads_on_spikes", "calling_the_banners"]})
    gold = next(i for i, e in enumerate(events) if e["type"] == "gold" and e.get("card") == "calling_the_banners")
    power = next(i for i, e in enumerate(events) if e.get("reason") == "heads_on_spikes")
    assert power < gold


def test_each_when_revealed_resolves_completely_before_the_next_L58_L98():
    """Confiscation asks its choice before Calling the Banners (ordered second) gives its gold."""
    s, _ = revealed("calling_the_banners", "confiscation", "p1",
                    p1={"characters": [{"card": "burned_men", "attachments": ["little_bird"]}]},
                    p2={"characters": ["burned_men"]})
    s, events = R.apply(s, "p1", {"order": ["confiscation", "calling_the_banners"]})
    assert R.pending(s) == {"p2": "choose"} and banners_gold(events) == []
    s, events = R.apply(s, "p2", {"choose": {"card": "little_bird", "seat": "p1"}})
    assert banners_gold(events) == ["p1"] and R.summary(s)["discard"]["p1"] == ["little_bird"]


def test_the_order_timeout_is_the_canonical_order_first_players_own_first_section_5_3():
    s, _ = revealed("calling_the_banners", "heads_on_spikes", "p2", p1=BANNERS, p2=BANNERS)
    assert R.default_action(s, "p2") == {"order": ["heads_on_spikes", "calling_the_banners"]}
    s, _ = revealed("calling_the_banners", "heads_on_spikes", "p1", p1=BANNERS, p2=BANNERS)
    assert R.default_action(s, "p1") == {"order": ["calling_the_banners", "heads_on_spikes"]}


def test_one_when_revealed_or_copies_of_one_plot_need_no_order_L58():
    s, events = revealed("calling_the_banners", "the_winds_of_winter", "p1", p2=BANNERS)
    assert "order" not in R.pending(s).values() and banners_gold(events) == ["p1"]
    s, events = revealed("calling_the_banners", "calling_the_banners", "p2", p1=BANNERS, p2=BANNERS)
    assert "order" not in R.pending(s).values() and banners_gold(events) == ["p2", "p1"]


@pytest.fixture
def forced(monkeypatch):
    """Two forced reactions to the same condition on different cards (the decks' own forced
    abilities never coincide on distinct cards, so the test lends two cards one each)."""
    spec = {"kind": "forced_reaction", "on": "phase_began", "if": ["phase:challenges"],
            "effect": [["power_self", 1]]}
    monkeypatch.setitem(cards.ABILITIES, "burned_men", [spec])
    monkeypatch.setitem(cards.ABILITIES, "tumblestone_knight", [spec])


def test_simultaneous_forced_abilities_are_ordered_by_the_first_player_L99_L100(forced):
    s = game({"characters": ["tumblestone_knight"], "plot": "the_winds_of_winter"},
             {"characters": ["burned_men"], "plot": "the_winds_of_winter"}, start="challenges")
    assert R.pending(s) == {"p1": "order"}
    assert R.default_action(s, "p1") == {"order": ["tumblestone_knight", "burned_men"]}
    s2, events = R.apply(s, "p1", {"order": ["burned_men", "tumblestone_knight"]})
    forced_events = [e["card"] for e in events if e["type"] == "forced"]
    assert forced_events == ["burned_men", "tumblestone_knight"]
    assert R.summary(s2)["power"] == {"p1": 1, "p2": 1}


def test_forced_abilities_resolve_before_the_reaction_window_L91(forced):
    s = game({"characters": ["tumblestone_knight"], "plot": "the_winds_of_winter"},
             {"characters": ["burned_men"], "plot": "the_winds_of_winter"}, start="challenges")
    s, _ = R.apply(s, "p1", R.default_action(s, "p1"))
    assert s["inplay"][s["players"]["p2"]["play"][0]]["power"] == 1
    assert not any(f["f"] == "resolve" for f in s["stack"])
