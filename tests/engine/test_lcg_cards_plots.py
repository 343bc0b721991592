"""Card tests: the plots' abilities (rules/lcg.md L58 III when revealed, L119 constants, L99 forced).
Each test is named after its card."""
from __future__ import annotations

from games.engine import get_ruleset

R = get_ruleset("lcg")


def game(p1, p2, start="challenges", first="p1"):
    players = {"p1": {"decklist": None, "faction": "stark", **p1}, "p2": {"decklist": None, "faction": "lannister", **p2}}
    return R.scenario_game(["p1", "p2"], {}, 3, {"first_player": first, "players": players}, start, None)


def act(state, seat, a):
    return R.apply(state, seat, a)[0]


def reveal(p1_plot, p2_plot, p1=None, p2=None):
    """Start at the plot phase, both seats choose, p1 (initiative or not) is made first player."""
    s = game({"plots": [p1_plot, "the_winds_of_winter"], **(p1 or {})},
             {"plots": [p2_plot, "the_winds_of_winter"], **(p2 or {})}, start="plot")
    s = act(s, "p1", {"plot": p1_plot})
    s = act(s, "p2", {"plot": p2_plot})
    seat = s["decision"]["seats"][0]
    s, events = R.apply(s, seat, {"first_player": "p1"})
    if R.pending(s) == {"p1": "order"}:  # two when-revealed abilities (L111): the canonical order
        s, more = R.apply(s, "p1", R.default_action(s, "p1"))
        events += more
    LAST[:] = events
    return s


LAST: list = []  # the events of the last act of reveal()


def test_calling_the_banners_gains_a_gold_per_opponent_character_L58():
    s = reveal("calling_the_banners", "summons", p2={"characters": ["burned_men", "tumblestone_knight"]})
    assert s["players"]["p1"]["gold"] == 2


def test_heads_on_spikes_a_character_goes_to_the_dead_pile_and_gives_2_power_L58():
    s = reveal("heads_on_spikes", "the_winds_of_winter", p2={"hand": ["burned_men"], "plots": ["the_winds_of_winter", "summons"]})
    assert R.summary(s)["dead"]["p2"] == ["burned_men"]
    assert {"type": "power", "seat": "p1", "card": "faction", "amount": 2, "reason": "heads_on_spikes"} in LAST


def test_confiscation_discards_an_attachment_L58():
    s = reveal("confiscation", "the_winds_of_winter",
               p2={"characters": [{"card": "burned_men", "attachments": ["little_bird"]}],
                   "plots": ["the_winds_of_winter", "summons"]})
    assert R.pending(s) == {"p1": "choose"}
    s = act(s, "p1", {"choose": {"card": "little_bird", "seat": "p2"}})
    assert R.summary(s)["attachments"]["p2"] == [] and R.summary(s)["discard"]["p2"] == ["little_bird"]


def test_wildfire_assault_kills_every_character_not_picked_and_cannot_be_saved_L58_L218():
    chars = ["burned_men", "tumblestone_knight", "salty_navigator", "maester_wendamyr"]
    s = reveal("wildfire_assault", "the_winds_of_winter", p1={"characters": ["arya_stark"]},
               p2={"characters": chars, "plots": ["the_winds_of_winter", "summons"]})
    assert R.pending(s) == {"p2": "choose"}
    s = act(s, "p2", {"choose": ["burned_men", "tumblestone_knight", "salty_navigator"]})
    assert R.summary(s)["dead"]["p2"] == ["maester_wendamyr"]
    assert R.summary(s)["characters"]["p1"] == ["arya_stark"]


def test_reinforcements_puts_a_character_into_play_from_hand_L58_L222():
    s = reveal("reinforcements", "the_winds_of_winter", p1={"hand": ["catelyn_stark", "eddard_stark"]},
               p2={"plots": ["the_winds_of_winter", "summons"]})
    legal = R.legal_actions(s, "p1")
    assert {"choose": {"card": "catelyn_stark", "zone": "hand"}} in legal
    assert {"choose": {"card": "eddard_stark", "zone": "hand"}} not in legal  # printed cost 7
    s = act(s, "p1", {"choose": {"card": "catelyn_stark", "zone": "hand"}})
    assert R.summary(s)["characters"]["p1"] == ["catelyn_stark"]


def test_rebuilding_shuffles_up_to_three_discarded_cards_back_L58():
    s = reveal("rebuilding", "the_winds_of_winter", p1={"discard": ["burned_men", "arya_stark"]},
               p2={"plots": ["the_winds_of_winter", "summons"]})
    cards = len(s["players"]["p1"]["deck"]) + len(s["players"]["p1"]["hand"])
    s = act(s, "p1", {"choose": [{"card": "arya_stark", "zone": "discard"}]})
    p = s["players"]["p1"]
    assert R.summary(s)["discard"]["p1"] == ["burned_men"] and len(p["deck"]) + len(p["hand"]) == cards + 1


def test_naval_superiority_counts_kingdom_and_edict_gold_as_0_L157():
    s = game({"plot": "naval_superiority"}, {"plot": "taxation"})
    assert R.summary(s)["income"] == {"p1": 2, "p2": 0}


def test_a_game_of_thrones_needs_an_intrigue_win_first_L72():
    from games.engine.lcg import flow

    s = game({"plot": "a_game_of_thrones", "characters": ["eddard_stark", "catelyn_stark"]},
             {"plot": "the_winds_of_winter"})
    assert flow.can_challenge(s, "p1") == ["intrigue"]
    s["players"]["p1"]["won"] = ["intrigue"]
    assert flow.can_challenge(s, "p1") == ["military", "intrigue", "power"]


def test_sneak_attack_allows_one_challenge_L72():
    s = game({"plot": "sneak_attack", "characters": ["eddard_stark", "catelyn_stark"]}, {"plot": "the_winds_of_winter"})
    s = act(s, "p1", {"challenge": {"type": "military", "attackers": ["eddard_stark"]}})
    while R.pending(s).get("p1") != "challenge" and R.pending(s):
        seat = sorted(R.pending(s))[0]
        s = act(s, seat, R.default_action(s, seat))
        if s["active"] != "p1":
            break
    assert s["active"] == "p2" or "challenge" not in R.pending(s).values()


def test_taxation_allows_a_second_limited_card_L196():
    s = game({"plot": "taxation", "hand": ["the_roseroad", "the_kingsroad"]}, {"plot": "the_winds_of_winter"},
             start="marshaling")
    s = act(s, "p1", {"marshal": "the_roseroad"})
    s = act(s, "p1", {"marshal": "the_kingsroad"})
    assert R.summary(s)["locations"]["p1"] == ["the_roseroad", "the_kingsroad"]


def test_supporting_the_faith_returns_all_gold_when_challenges_begin_L99():
    s = game({"plot": "supporting_the_faith", "gold": 3, "characters": ["eddard_stark"]},
             {"plot": "the_winds_of_winter", "gold": 2})
    assert s["players"]["p1"]["gold"] == 0 and s["players"]["p2"]["gold"] == 0


def test_calm_over_westeros_lowers_the_claim_against_you_L183():
    s = reveal("calm_over_westeros", "the_winds_of_winter", p2={"plots": ["the_winds_of_winter", "summons"]})
    s2, events = R.apply(s, "p1", {"choose": "military"})
    assert {"type": "named", "seat": "p1", "card": "calm_over_westeros", "challenge": "military"} in events
    # the claim against p1 in a military challenge is lowered by 1 while the plot stays revealed
    from games.engine.lcg import abilities as A

    s["lasting"] = [{"seat": "p1", "calm": "military", "until": "plot", "source": "calm_over_westeros"}]
    s["challenge"] = {"type": "military", "attacker": "p2", "defender": "p1", "live": True}
    assert A.plot_value(s, "p2", "claim") == 1  # The Winds of Winter: claim 2
    # until p1 reveals a different plot (round 2 here): then it is gone
    assert s2["round"] == 2 and s2["lasting"] == []
