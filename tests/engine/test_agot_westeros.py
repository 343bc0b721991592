"""Issue 4: the Westeros phase (R42-R62), supply (R63-R67), mustering (R68-R81), bidding (R82-R99),
wildlings (R100-R110), R286-R288, and the readings in docs/rules-decisions.md ("Issue 4")."""
from __future__ import annotations

import json

import pytest

from games.engine.agot import supply, westeros
from games.engine.base import HIDDEN
from tests.engine.agot_helpers import THREE, R, act, game, refused, summ

QUIET = {"westeros_1": ["last_days_of_summer"], "westeros_2": ["last_days_of_summer"], "westeros_3": ["web_of_lies"]}
BASE = {"winterfell": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]},
        "dragonstone": {"baratheon": ["footman"]}}


def westeros_game(decks: dict, units: dict | None = None, **extra) -> dict:
    setup = {"round": 2, "units": units or BASE, "neutral_forces": {}, "decks": decks}
    setup.update(extra)
    return game(setup, start="westeros")


def attack_game(card: str = "silence_at_the_wall", **extra) -> dict:
    decks = {"westeros_1": ["last_days_of_summer"], "westeros_2": ["last_days_of_summer"],
             "westeros_3": ["wildlings_attack"], "wildlings": [card]}
    return westeros_game(decks, **extra)


# ------------------------------------------------------------------ phase and decks


def test_westeros_phase_order_R42_R44_threat_caps_at_twelve():
    s = westeros_game(QUIET, wildlings=10)
    # the first icon reaches 12: the attack comes first, the other icons are ignored (R44)
    assert summ(s)["wildlings"] == 12 and summ(s)["step"] == "wildlings"
    assert R.pending(s) == {h: "bid" for h in THREE}


def test_resolved_cards_go_to_a_discard_pile_and_decks_cycle_A20():
    res = R.new_game(THREE, {}, 3)
    from games.engine.agot import bot

    res = bot.play_random_game(3, 3, check=True)["state"]
    for deck in ("westeros_1", "westeros_2", "westeros_3"):
        assert len(res["decks"][deck]) + len(res["westeros"]["discards"][deck]) == 10


def test_winter_is_coming_reshuffle_keeps_pinned_cards_on_top_R51():
    decks = {"westeros_1": ["winter_is_coming", "supply", "mustering"], "westeros_2": ["last_days_of_summer"],
             "westeros_3": ["web_of_lies"]}
    s = westeros_game(decks, units={**BASE, "winterfell": {"stark": ["footman"] * 4}}, supply={"stark": 4})
    assert summ(s)["revealed"]["westeros"][0] == "supply"
    assert s["decks"]["westeros_1"][0] == "mustering"
    assert "winter_is_coming" in s["decks"]["westeros_1"]


def test_round_marker_and_cards_each_round_R34_R42():
    s = R.new_game(THREE, {}, 11)
    import random

    from games.engine.agot import bot

    rnd = random.Random(1)
    seen = set()
    while not R.is_over(s):
        if s["phase"] == "westeros":
            seen.add(s["round"])
        seat = rnd.choice(sorted(R.pending(s)))
        s, _ = R.apply(s, seat, bot.random_action(s, seat, rnd))
    assert 1 not in seen and (s["round"] == 10 or s["winner"])


def test_start_westeros_view_shows_no_deck_order():
    s = westeros_game(QUIET)
    v = R.view(s, "stark")
    assert all(isinstance(n, int) for n in v["decks"].values())
    assert summ(s, "stark")["decks"]["westeros_1"] == HIDDEN


# ------------------------------------------------------------------ supply (R63-R67, D3, A22)


def _rb_example() -> dict:
    units = {"the_twins": {"lannister": ["footman"] * 4}, "harrenhal": {"lannister": ["footman", "footman", "knight"]},
             "stoney_sept": {"lannister": ["footman"] * 2}, "searoad_marches": {"lannister": ["footman"] * 2},
             "winterfell": {"stark": ["footman"]}, "dragonstone": {"baratheon": ["footman"]}}
    decks = {"westeros_1": ["supply"], "westeros_2": ["last_days_of_summer"], "westeros_3": ["web_of_lies"]}
    return westeros_game(decks, units=units, supply={"lannister": 5})


def test_reduce_default_D3_removes_fewest_footmen_first():
    s = _rb_example()
    assert R.pending(s) == {"lannister": "reduce"}
    assert R.default_action(s, "lannister") == {"reduce": {"harrenhal": ["footman"], "the_twins": ["footman"]}}
    # every minimal reduction is legal; each leaves the armies within 3, 2, 2, 2
    for target in supply.minimal_targets(s, "lannister"):
        value = {a: ["footman"] * (len(s["units"][a]["lannister"]) - t) for a, t in target.items()
                 if s["units"][a]["lannister"].count("footman") >= len(s["units"][a]["lannister"]) - t}
        if sum(map(len, value.values())) == sum(len(s["units"][a]["lannister"]) - t for a, t in target.items()):
            new, _ = act(s, "lannister", {"reduce": value})
            assert supply.fits(new, "lannister")


def test_reduce_refuses_more_than_needed_and_foreign_units_A22():
    s = _rb_example()
    refused(s, "lannister", {"reduce": {"the_twins": ["footman", "footman"], "harrenhal": ["footman"]}})
    refused(s, "lannister", {"reduce": {"winterfell": ["footman"], "the_twins": ["footman"],
                                        "harrenhal": ["footman"]}})
    refused(s, "lannister", {"reduce": {"the_twins": "footman"}}, "bad_action")


def test_supply_is_capped_at_six_R67():
    units = {a: {"lannister": ["footman"]} for a in ("lannisport", "blackwater", "highgarden", "searoad_marches",
                                                     "the_reach", "kingswood")}
    units.update({"winterfell": {"stark": ["footman"]}, "dragonstone": {"baratheon": ["footman"]}})
    decks = {"westeros_1": ["supply"], "westeros_2": ["last_days_of_summer"], "westeros_3": ["web_of_lies"]}
    s = westeros_game(decks, units=units)
    assert summ(s)["supply"]["lannister"] == 6


# ------------------------------------------------------------------ mustering (R68-R81)


def _muster_game(units: dict, **extra) -> dict:
    decks = {"westeros_1": ["mustering"], "westeros_2": ["last_days_of_summer"], "westeros_3": ["web_of_lies"]}
    tracks = {"iron_throne": ["stark", "lannister", "baratheon"]}
    return westeros_game(decks, units=units, tracks=tracks, **extra)


def test_muster_unit_limits_R9_and_supply_R72():
    units = {**BASE, "winterfell": {"stark": ["knight"] * 2}, "white_harbor": {"stark": ["knight"] * 2},
             "castle_black": {"stark": ["knight"]}}
    s = _muster_game(units)
    refused(s, "stark", {"muster": {"winterfell": [{"recruit": "knight"}]}})  # all 5 knights on the board
    s2 = _muster_game({**BASE, "winterfell": {"stark": ["footman"] * 3}, "karhold": {"stark": ["footman"] * 2}},
                      supply={"stark": 1})
    refused(s2, "stark", {"muster": {"winterfell": [{"recruit": "footman"}]}})  # an army of 4 at supply 1
    new, _ = act(s2, "stark", {"muster": {"winterfell": [{"upgrade": "footman", "to": "knight"}]}})
    assert sorted(summ(new)["units"]["winterfell"]["stark"]) == ["footman", "footman", "knight"]


def test_muster_ships_R75_R248_and_enemy_port():
    units = {**BASE, "port_of_winterfell": {"stark": ["ship"] * 3}, "bay_of_ice": {"lannister": ["ship"]}}
    s = _muster_game(units)
    refused(s, "stark", {"muster": {"port_of_winterfell": [{"recruit": "ship"}]}})  # R248
    refused(s, "stark", {"muster": {"bay_of_ice": [{"recruit": "ship"}]}})  # enemy ships (R75)
    refused(s, "stark", {"muster": {"winterfell": [{"recruit": "ship"}]}})  # ships never on land
    refused(s, "stark", {"muster": {"the_narrow_sea": [{"recruit": "ship"}]}})  # not adjacent to Winterfell
    refused(s, "stark", {"muster": {"winterfell": [{"hire": "footman"}]}}, "bad_action")
    new, _ = act(s, "stark", {"muster": {"the_shivering_sea": [{"recruit": "ship"}, {"recruit": "ship"}]}})
    assert summ(new)["units"]["the_shivering_sea"]["stark"] == ["ship", "ship"]


def test_house_with_nothing_to_muster_is_not_asked():
    units = {**BASE, "castle_black": {"stark": ["footman"]}}
    s = _muster_game(units, power_tokens={})
    # Stark musters first (Iron Throne order set above); Lannister and Baratheon follow
    assert R.pending(s) == {"stark": "muster"}
    s, _ = act(s, "stark", {"muster": {}})
    assert R.pending(s) == {"lannister": "muster"}


def test_special_consolidate_musters_only_in_its_castle_area_R182():
    base = {"units": {"lannisport": {"lannister": ["footman"]}, "port_of_lannisport": {"lannister": ["ship"]},
                      "winterfell": {"stark": ["footman"]}, "riverrun": {"lannister": ["footman"]}},
            "neutral_forces": {}, "decks": QUIET}
    s = game({**base, "orders": {"port_of_lannisport": {"lannister": "consolidate*"},
                                 "lannisport": {"lannister": "consolidate"}}})
    # a special order in a port never musters: nothing to choose, the engine took both orders
    assert summ(s)["round"] == 2
    s = game({**base, "orders": {"lannisport": {"lannister": "consolidate*"}}})
    assert R.pending(s) == {"lannister": "consolidate"}
    refused(s, "lannister", {"consolidate": {"from": "lannisport", "muster": [{"recruit": "knight"},
                                                                              {"recruit": "footman"}]}})
    new, _ = act(s, "lannister", {"consolidate": {"from": "lannisport", "muster": [{"recruit": "knight"}]}})
    assert sorted(summ(new)["units"]["lannisport"]["lannister"]) == ["footman", "knight"]
    refused(s, "lannister", {"consolidate": {"from": "lannisport", "muster": [{"recruit": "ship",
                                                                              "to": "the_golden_sound"}],
                                             "extra": 1}}, "bad_action")


def test_normal_consolidate_cannot_muster_R182():
    s = game({"units": {"lannisport": {"lannister": ["footman"]}, "winterfell": {"stark": ["footman"]},
                        "dragonstone": {"baratheon": ["footman"]}},
              "neutral_forces": {}, "decks": QUIET,
              "orders": {"lannisport": {"lannister": "consolidate*"}, "dragonstone": {"baratheon": "consolidate"}},
              "tracks": {"iron_throne": ["lannister", "baratheon", "stark"]}})
    assert R.pending(s) == {"lannister": "consolidate"}
    s, _ = act(s, "lannister", {"consolidate": {"from": "lannisport"}})
    assert summ(s)["power"]["lannister"] == 6


# ------------------------------------------------------------------ bidding and hidden information


def _clash() -> dict:
    decks = {"westeros_1": ["last_days_of_summer"], "westeros_2": ["clash_of_kings"], "westeros_3": ["web_of_lies"]}
    return westeros_game(decks)


def test_bids_secret_in_views_events_and_decision_R84_R290():
    s = _clash()
    s, events = act(s, "stark", {"bid": 4})
    assert "4" not in json.dumps(s["decision"])  # the decision is public: no bid in it
    private = [e for e in events if e.get("only")]
    assert private and all(e["only"] == ["stark"] for e in private)
    assert all(R.event_view(e, "lannister") is None for e in private)
    assert R.event_view(private[0], None) is None
    v = R.view(s, "lannister")
    assert v["secret"] == {"lannister": {}} and v["power"]["stark"] == HIDDEN and v["power"]["lannister"] == 5
    assert R.view(s, None)["secret"] == {}
    assert summ(s, "lannister")["bids"]["stark"] == HIDDEN and summ(s, "stark")["bids"]["stark"] == 4
    assert summ(s, None)["pool"]["stark"] == HIDDEN
    refused(s, "stark", {"bid": 1}, "not_your_turn")  # one bid per track
    refused(s, "lannister", {"bid": -1})
    refused(s, "lannister", {"bid": "2"}, "bad_action")


def test_bid_zero_default_and_power_to_pool_D8_R87():
    s = _clash()
    for h in THREE:
        assert R.default_action(s, h) == {"bid": 0}
    s, _ = act(s, "stark", {"bid": 5})
    s, _ = act(s, "lannister", {"bid": 0})
    s, _ = act(s, "baratheon", {"bid": 1})
    sm = summ(s)
    assert sm["tracks"]["iron_throne"] == ["stark", "baratheon", "lannister"]
    assert sm["power"]["stark"] == 0 and sm["pool"]["stark"] == 20
    # Stark has no power left: it is not asked on the next tracks (its only bid is 0)
    assert R.pending(s) == {"lannister": "bid", "baratheon": "bid"}


def test_break_tie_legal_actions_are_the_orderings_R86():
    s = _clash()
    for h in THREE:
        s, _ = act(s, h, {"bid": 1})
    assert R.pending(s) == {"baratheon": "break_tie"}
    legal = R.legal_actions(s, "baratheon")
    assert len(legal) == 6
    assert R.default_action(s, "baratheon") == {"break_tie": ["baratheon", "lannister", "stark"]}  # D9
    refused(s, "baratheon", {"break_tie": ["stark", "stark", "lannister"]})


# ------------------------------------------------------------------ wildlings (R100-R110)


def test_nights_watch_wins_at_equal_strength_R104_and_threat_reset_R105():
    s = attack_game()
    for h, b in zip(THREE, (2, 2, 2), strict=True):
        s, _ = act(s, h, {"bid": b})
    assert summ(s)["wildlings"] == 0 and summ(s)["phase"] == "planning"


def test_wildling_card_goes_to_the_bottom_R107():
    s = attack_game("crow_killers")
    for h, b in zip(THREE, (0, 1, 1), strict=True):
        s, _ = act(s, h, {"bid": b})
    assert summ(s)["decks"]["wildlings"][-1] == "crow_killers"
    assert len(s["decks"]["wildlings"]) == 9


def test_wildling_choice_decisions_are_public_and_defaults_legal_D12():
    units = {"winterfell": {"stark": ["footman", "knight"]}, "white_harbor": {"stark": ["footman"]},
             "lannisport": {"lannister": ["footman", "footman", "footman"]}, "dragonstone": {"baratheon": ["footman"]}}
    s = attack_game("mammoth_riders", units=units)
    s, _ = act(s, "stark", {"bid": 0})
    s, _ = act(s, "lannister", {"bid": 1})
    s, _ = act(s, "baratheon", {"bid": 1})
    # Stark lowest: 3 units out of its 3, only one selection: taken by the engine; Lannister: 2 of 3
    # identical footmen: forced; Baratheon: its only footman
    assert summ(s)["units"].get("winterfell") is None
    assert summ(s)["units"]["lannisport"]["lannister"] == ["footman"]
    assert summ(s)["phase"] == "planning"


def test_units_choice_refuses_wrong_counts_and_units():
    units = {"winterfell": {"stark": ["footman", "knight"]}, "white_harbor": {"stark": ["footman", "footman"]},
             "lannisport": {"lannister": ["footman"]}, "dragonstone": {"baratheon": ["footman"]}}
    s = attack_game("mammoth_riders", units=units)
    s, _ = act(s, "stark", {"bid": 0})
    s, _ = act(s, "lannister", {"bid": 1})
    s, _ = act(s, "baratheon", {"bid": 1})
    assert R.pending(s) == {"stark": "choose"}
    refused(s, "stark", {"choose": {"winterfell": ["footman", "knight"]}})
    refused(s, "stark", {"choose": {"winterfell": ["ship", "knight", "footman"]}})
    refused(s, "stark", {"choose": "fiefdoms"}, "bad_action")
    default = R.default_action(s, "stark")
    assert default == {"choose": {"white_harbor": ["footman", "footman"], "winterfell": ["footman"]}}
    new, _ = act(s, "stark", default)
    assert summ(new)["units"]["winterfell"]["stark"] == ["knight"]


def test_raven_peek_card_is_the_one_drawn_R110():
    s = attack_game("skinchanger_scout")
    assert s["decks"]["wildlings"][0] == "skinchanger_scout"


def test_threat_setup_values_A12():
    s = westeros_game(QUIET, wildlings=0)
    assert summ(s)["wildlings"] == 6  # three icons, one space (+2) each


def test_choose_legal_actions_apply():
    s = westeros_game({"westeros_1": ["a_throne_of_blades"], "westeros_2": ["last_days_of_summer"],
                       "westeros_3": ["web_of_lies"]})
    legal = R.legal_actions(s, "baratheon")
    assert legal == [{"choose": "supply"}, {"choose": "mustering"}, {"choose": "last_days_of_summer"}]
    for a in legal:
        act(s, "baratheon", a)
    assert R.default_action(s, "baratheon") == {"choose": westeros.DEFAULT_OPTION}


@pytest.mark.parametrize("card", ["preemptive_raid", "crow_killers", "massing_on_the_milkwater",
                                  "a_king_beyond_the_wall", "mammoth_riders", "the_horde_descends",
                                  "skinchanger_scout", "rattleshirts_raiders", "silence_at_the_wall"])
@pytest.mark.parametrize("nights_watch", [True, False])
def test_every_wildling_card_resolves_by_defaults(card, nights_watch):
    units = {"winterfell": {"stark": ["footman", "knight"]}, "white_harbor": {"stark": ["footman", "knight"]},
             "lannisport": {"lannister": ["footman", "knight"]}, "stoney_sept": {"lannister": ["footman"] * 2},
             "dragonstone": {"baratheon": ["footman", "knight"]}, "kingswood": {"baratheon": ["footman"] * 2}}
    s = attack_game(card, units=units, discards={"stark": ["eddard_stark"]})
    bids = (3, 2, 2) if nights_watch else (0, 1, 1)
    for h, b in zip(THREE, bids, strict=True):
        s, _ = act(s, h, {"bid": b})
    n = 0
    while s["phase"] == "westeros" and n < 30:
        seat = sorted(R.pending(s))[0]
        s, _ = act(s, seat, R.default_action(s, seat))
        n += 1
    assert s["phase"] in ("planning", "over")
    # Preemptive Raid's second attack draws (and puts under) one more card
    assert card in s["decks"]["wildlings"][-2:] and len(s["decks"]["wildlings"]) == 9


def test_preemptive_raid_lowest_bidder_without_units_drops_on_a_track():
    units = {"winterfell": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]}}
    tracks = {"iron_throne": ["baratheon", "lannister", "stark"], "fiefdoms": ["baratheon", "stark", "lannister"],
              "kings_court": ["lannister", "stark", "baratheon"]}
    s = attack_game("preemptive_raid", units=units, tracks=tracks)
    for h, b in zip(THREE, (2, 1, 0), strict=True):
        s, _ = act(s, h, {"bid": b})
    # Baratheon: no unit, first on two tracks: it picks one of them
    assert R.pending(s) == {"baratheon": "choose"}
    assert s["decision"]["options"] == ["iron_throne", "fiefdoms"] and s["decision"]["count"] == 0
    refused(s, "baratheon", {"choose": {}})
    refused(s, "baratheon", {"choose": "kings_court"})
    new, _ = act(s, "baratheon", R.default_action(s, "baratheon"))
    assert summ(new)["tracks"]["fiefdoms"] == ["stark", "lannister", "baratheon"]
    assert summ(new)["holder"]["valyrian_steel_blade"] == "stark"


def test_reduce_legal_actions_list_every_distinct_reduction_and_all_apply():
    s = _rb_example()
    legal = R.legal_actions(s, "lannister")
    assert {"reduce": {"harrenhal": ["footman"], "the_twins": ["footman"]}} in legal
    assert {"reduce": {"harrenhal": ["knight"], "the_twins": ["footman"]}} in legal
    assert R.default_action(s, "lannister") in legal
    for a in legal:
        new, _ = act(s, "lannister", a)
        assert supply.fits(new, "lannister")


def test_units_choice_legal_actions_include_the_default_and_all_apply():
    units = {"winterfell": {"stark": ["footman", "knight"]}, "white_harbor": {"stark": ["footman", "footman"]},
             "lannisport": {"lannister": ["footman"]}, "dragonstone": {"baratheon": ["footman"]}}
    s = attack_game("mammoth_riders", units=units)
    for h, b in zip(THREE, (0, 1, 1), strict=True):
        s, _ = act(s, h, {"bid": b})
    legal = R.legal_actions(s, "stark")
    # 3 of: footman/knight in Winterfell, 2 identical footmen in White Harbor
    assert len(legal) == 3 and R.default_action(s, "stark") in legal
    for a in legal:
        act(s, "stark", a)


GARBAGE = [None, True, 3, -1, "x", [], ["stark"], {}, {"x": 1}, {"winterfell": "footman"}, {"winterfell": [1]},
           {"winterfell": [{"recruit": None}]}, {"winterfell": [{"upgrade": "knight", "to": "footman"}]},
           {"the_shivering_sea": [{"recruit": "ship", "from": 7}]}, {"winterfell": [{"recruit": "ship", "to": []}]},
           [["stark"]], {"iron_throne": True}]


def test_malformed_westeros_actions_are_engine_errors():
    """Every pending Westeros-phase decision refuses junk with bad_action or illegal_action, unchanged."""
    import random

    from games.engine import EngineError

    rnd = random.Random(4)
    kinds = set()
    for seed in range(6):
        s = R.new_game(R.seat_names(4), {}, 900 + seed)
        while not R.is_over(s):
            seat = rnd.choice(sorted(R.pending(s)))
            kind = s["decision"]["kind"]
            if s["phase"] == "westeros" and kind in ("muster", "bid", "break_tie", "choose", "reduce"):
                kinds.add(kind)
                before = json.dumps(s, sort_keys=True)
                for junk in GARBAGE:
                    try:
                        R.apply(s, seat, {kind: junk})
                    except EngineError as e:
                        assert e.code in ("bad_action", "illegal_action"), (kind, junk, e.code)
                assert json.dumps(s, sort_keys=True) == before
            s, _ = R.apply(s, seat, R.random_action(s, seat, rnd))
    assert {"muster", "bid", "choose"} <= kinds


def test_malformed_special_consolidate_musters_are_engine_errors():
    from games.engine import EngineError

    s = game({"units": {"lannisport": {"lannister": ["footman"]}, "winterfell": {"stark": ["footman"]}},
              "neutral_forces": {}, "decks": QUIET, "orders": {"lannisport": {"lannister": "consolidate*"}}})
    before = json.dumps(s, sort_keys=True)
    # (an empty list is legal: the order is used up and musters nothing, R73)
    junks = [j for j in GARBAGE if j != []] + [[{"recruit": "ship"}], [{"recruit": "ship", "to": "winterfell"}],
                                               [None], "footman"]
    for junk in junks:
        with pytest.raises(EngineError) as e:
            R.apply(s, "lannister", {"consolidate": {"from": "lannisport", "muster": junk}})
        assert e.value.code in ("bad_action", "illegal_action"), junk
    assert json.dumps(s, sort_keys=True) == before
