"""Planning phase (R111-R130): secret simultaneous orders, limits, the not-enough-orders case, the
reveal and the Messenger Raven."""
from __future__ import annotations

from games.engine.agot import planning
from games.engine.base import HIDDEN
from tests.engine.agot_helpers import SIX, THREE, R, act, game, refused, summ

UNITS3 = {"winterfell": {"stark": ["footman"]}, "white_harbor": {"stark": ["footman"]},
          "lannisport": {"lannister": ["footman"]}, "dragonstone": {"baratheon": ["footman"]}}


def planning_game(**extra):
    setup = {"units": UNITS3, "neutral_forces": {}}
    setup.update(extra)
    return game(setup, start="planning")


def test_every_area_with_units_needs_one_order_R112_R118():
    s = planning_game()
    assert R.pending(s) == {"stark": "place_orders", "lannister": "place_orders", "baratheon": "place_orders"}
    refused(s, "stark", {"place_orders": {"winterfell": "defense+1"}})  # white_harbor missing
    refused(s, "stark", {"place_orders": {"winterfell": "defense+1", "white_harbor": "raid", "moat_cailin": "raid"}})
    refused(s, "stark", {"place_orders": {"winterfell": "warp+9", "white_harbor": "raid"}}, "bad_action")


def test_token_counts_R116():
    s = planning_game(units={"winterfell": {"stark": ["footman"]}, "white_harbor": {"stark": ["footman"]},
                             "moat_cailin": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]},
                             "dragonstone": {"baratheon": ["footman"]}})
    # only two normal Defense +1 tokens
    refused(s, "stark", {"place_orders": {"winterfell": "defense+1", "white_harbor": "defense+1",
                                          "moat_cailin": "defense+1"}})
    act(s, "stark", {"place_orders": {"winterfell": "defense+1", "white_harbor": "defense+1", "moat_cailin": "raid"}})


def test_special_orders_limited_by_kings_court_stars_R117():
    # 3 players: overlay stars 3, 2, 1; Baratheon is third on the King's Court track: 1 star
    s = planning_game(units={"dragonstone": {"baratheon": ["footman"]}, "kingswood": {"baratheon": ["footman"]},
                             "winterfell": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]}})
    assert s["tracks"]["kings_court"] == ["lannister", "stark", "baratheon"]
    refused(s, "baratheon", {"place_orders": {"dragonstone": "defense+2*", "kingswood": "raid*"}})
    act(s, "baratheon", {"place_orders": {"dragonstone": "defense+2*", "kingswood": "raid"}})


def test_restrictions_R124():
    s = planning_game()
    s["restrictions"] = ["support", "march+1*"]
    planning.start_planning(s, [])
    refused(s, "stark", {"place_orders": {"winterfell": "support+0", "white_harbor": "raid"}})
    refused(s, "lannister", {"place_orders": {"lannisport": "march+1*"}})
    act(s, "lannister", {"place_orders": {"lannisport": "march+0"}})


def test_orders_are_secret_until_everyone_placed_R113_R114_R120():
    s = planning_game()
    s, ev = act(s, "stark", {"place_orders": {"winterfell": "march+0", "white_harbor": "defense+1"}})
    assert summ(s)["orders"]["winterfell"] == {"stark": "march+0"}  # the referee sees face-down orders
    assert summ(s, "stark")["orders"]["winterfell"] == {"stark": "march+0"}
    assert summ(s, "lannister")["orders"]["winterfell"] == {"stark": HIDDEN}
    assert summ(s, None)["orders"]["white_harbor"] == {"stark": HIDDEN}
    assert "march+0" not in str(R.view(s, "lannister")) and "march+0" not in str(R.view(s, None))
    assert [R.event_view(e, "lannister") for e in ev if e.get("only")] == [None]
    # a house that placed may not place again
    refused(s, "stark", {"place_orders": {"winterfell": "raid", "white_harbor": "defense+1"}}, "not_your_turn")
    s, _ = act(s, "lannister", {"place_orders": {"lannisport": "defense+1"}})
    s, ev = act(s, "baratheon", {"place_orders": {"dragonstone": "consolidate"}})
    assert any(e["type"] == "orders_revealed" for e in ev)
    assert summ(s, None)["orders"]["winterfell"] == {"stark": "march+0"}
    assert summ(s)["step"] == "raven" and R.pending(s) == {"lannister": "raven"}


def test_house_without_units_is_not_asked():
    s = game({"units": {"winterfell": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]}},
              "neutral_forces": {}}, start="planning")
    assert set(R.pending(s)) == {"stark", "lannister"}


def test_not_enough_orders_turn_order_R119():
    # Greyjoy, last on the King's Court track (no star), has units in 11 areas but 10 normal tokens.
    areas = ["pyke", "greywater_watch", "flints_finger", "seagard", "riverrun", "the_twins", "moat_cailin",
             "harrenhal", "stoney_sept", "ironmans_bay", "sunset_sea"]
    units = {a: {"greyjoy": ["ship" if a.endswith(("bay", "sea")) else "footman"]} for a in areas}
    units.update({"winterfell": {"stark": ["footman"]}, "dragonstone": {"baratheon": ["footman"]},
                  "lannisport": {"lannister": ["footman"]}, "sunspear": {"martell": ["footman"]},
                  "highgarden": {"tyrell": ["footman"]}})
    s = game({"units": units, "neutral_forces": {}, "supply": {"greyjoy": 0}}, seats=SIX, start="planning")
    order = s["tracks"]["iron_throne"]
    assert R.pending(s) == {order[0]: "place_orders"}
    refused(s, "greyjoy", {"place_orders": {"pyke": "raid"}}, "not_your_turn")
    for h in order:
        if h == "greyjoy":
            break
        s, _ = act(s, h, {"place_orders": {next(a for a, by in units.items() if h in by): "defense+1"}})
    assert R.pending(s) == {"greyjoy": "place_orders"}
    tokens = ["defense+1", "defense+1", "support+0", "support+0", "raid", "raid", "consolidate", "consolidate",
              "march+0", "march-1"]
    nine = dict(zip(areas[:9], tokens[:9], strict=False))
    refused(s, "greyjoy", {"place_orders": nine})  # must place all ten usable tokens
    refused(s, "greyjoy", {"place_orders": dict(zip(areas[:10], tokens[:9] + ["raid*"], strict=False))})
    s, _ = act(s, "greyjoy", {"place_orders": dict(zip(areas[:10], tokens, strict=False))})
    assert R.pending(s) == {"tyrell": "place_orders"}
    s, _ = act(s, "tyrell", {"place_orders": {"highgarden": "defense+1"}})
    orders = summ(s)["orders"]
    assert "sunset_sea" not in orders and orders["ironmans_bay"] == {"greyjoy": "march-1"}


def test_raven_replace_respects_stars_and_restrictions_R126_R128_A13():
    s = planning_game(units=dict(UNITS3, stoney_sept={"lannister": ["footman"]}))
    s, _ = act(s, "stark", {"place_orders": {"winterfell": "defense+1", "white_harbor": "defense+1"}})
    s, _ = act(s, "lannister", {"place_orders": {"lannisport": "defense+2*", "stoney_sept": "march+0"}})
    s, _ = act(s, "baratheon", {"place_orders": {"dragonstone": "defense+1"}})
    legal = R.legal_actions(s, "lannister")
    assert {"raven": "skip"} in legal and {"raven": "peek"} in legal
    refused(s, "lannister", {"raven": {"replace": {"area": "winterfell", "order": "raid"}}})  # not its order
    refused(s, "lannister", {"raven": {"replace": {"area": "lannisport", "order": "defense+2*"}}})  # same
    s2 = dict(s, restrictions=["raid"])
    refused(s2, "lannister", {"raven": {"replace": {"area": "lannisport", "order": "raid"}}})
    s, ev = act(s, "lannister", {"raven": {"replace": {"area": "lannisport", "order": "support+1*"}}})
    assert summ(s)["orders"]["lannisport"] == {"lannister": "support+1*"}
    assert summ(s)["used"]["messenger_raven"] is True  # R127
    assert s["phase"] == "action"


def test_raven_stars_limit_on_replacement():
    s = planning_game(units={"winterfell": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]},
                             "stoney_sept": {"lannister": ["footman"]}, "the_golden_sound": {"lannister": ["ship"]},
                             "searoad_marches": {"lannister": ["footman"]}, "dragonstone": {"baratheon": ["footman"]}})
    s, _ = act(s, "stark", {"place_orders": {"winterfell": "defense+1"}})
    s, _ = act(s, "lannister", {"place_orders": {"lannisport": "defense+2*", "stoney_sept": "support+1*",
                                                 "the_golden_sound": "raid*", "searoad_marches": "march+0"}})
    s, _ = act(s, "baratheon", {"place_orders": {"dragonstone": "defense+1"}})
    # three stars used: a fourth special order is refused (R117 "under no circumstances")
    refused(s, "lannister", {"raven": {"replace": {"area": "searoad_marches", "order": "march+1*"}}})
    act(s, "lannister", {"raven": {"replace": {"area": "lannisport", "order": "march+1*"}}})


def test_raven_peek_is_secret_R126_R110():
    s = planning_game(decks={"wildlings": ["mammoth_riders"]})
    for h, o in (("stark", {"winterfell": "defense+1", "white_harbor": "defense+1"}),
                 ("lannister", {"lannisport": "defense+1"}), ("baratheon", {"dragonstone": "defense+1"})):
        s, _ = act(s, h, {"place_orders": o})
    s, ev = act(s, "lannister", {"raven": "peek"})
    assert R.pending(s) == {"lannister": "raven_peek"}
    assert summ(s, "lannister")["peeked"] == "mammoth_riders"
    assert summ(s, "stark")["peeked"] == HIDDEN and summ(s, None)["peeked"] == HIDDEN
    assert "mammoth_riders" not in str(R.view(s, "stark")) and "mammoth_riders" not in str(R.view(s, None))
    assert all(R.event_view(e, "stark") is None for e in ev if "mammoth_riders" in str(e))
    refused(s, "lannister", {"raven": "skip"}, "not_your_turn")
    s, _ = act(s, "lannister", {"raven_peek": "bottom"})
    assert summ(s)["decks"]["wildlings"][-1] == "mammoth_riders"


def test_raven_skip_keeps_it_unused_and_used_raven_is_not_asked():
    s = planning_game(used={"messenger_raven": True})
    for h, o in (("stark", {"winterfell": "defense+1", "white_harbor": "defense+1"}),
                 ("lannister", {"lannisport": "defense+1"}), ("baratheon", {"dragonstone": "defense+1"})):
        s, _ = act(s, h, {"place_orders": o})
    assert s["phase"] != "planning" or s["step"] != "raven"


def test_defaults_place_legal_orders_D13():
    for seats in (THREE, SIX):
        s = R.new_game(seats, {}, 3)
        for h in list(R.pending(s)):
            s, _ = act(s, h, R.default_action(s, h))
        assert s["step"] == "raven"


def test_default_orders_when_short_place_every_usable_token_R119_D13():
    s = planning_game()
    s["restrictions"] = ["defense", "support", "raid", "march", "consolidate"]
    planning.start_planning(s, [])
    # nothing usable at all: placing nothing is the only option, so nobody is asked
    assert s["step"] == "raven" and summ(s)["orders"] == {}
    s = planning_game()
    s["restrictions"] = ["defense", "support", "raid", "consolidate"]
    planning.start_planning(s, [])
    # Stark (2 stars) has two areas and March -1, March +0: both placed
    d = R.default_action(s, "baratheon")
    assert d == {"place_orders": {"dragonstone": "march+0"}}
