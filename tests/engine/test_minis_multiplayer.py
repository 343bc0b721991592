"""The miniatures game for three and four players (issue 33): free-for-all (M131) and two against
two (M130). Scenarios: tests/scenarios/minis/multiplayer/."""
from __future__ import annotations

import io
import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engine import get_ruleset
from games.engine.base import HIDDEN, EngineError
from games.engine.minis import armies as rules
from games.engine.minis import bot, cards, flow
from games.engine.minis import table as T

R = get_ruleset("minis")
FOUR = ["stark", "lannister", "stark_2", "lannister_2"]


def _deployed(seed: int = 3, seats: list[str] | None = None, options: dict | None = None) -> dict:
    """A new game with every unit placed by the default deployment (the timeout default)."""
    state = R.new_game(seats or FOUR, options or {}, seed)
    while state["phase"] == "deployment":
        seat = next(iter(R.pending(state)))
        state, _ = R.apply(state, seat, R.default_action(state, seat))
    return state


def _scenario(units: dict, seats: list[str] | None = None, options: dict | None = None, **keys) -> dict:
    seats = seats or FOUR
    base = {"round": 1, "first_player": seats[0], "hands": {s: [] for s in seats}, "units": units}
    return R.scenario_game(seats, options or {}, 1, {**base, **keys}, "activation")


# ---------------------------------------------------------------------- seats and setup


def test_seats_of_three_and_four_and_the_site_still_offers_two():
    assert R.seat_names(3) == ["stark", "lannister", "stark_2"]
    assert R.seat_names(4) == FOUR
    assert R.seat_choices(3) == FOUR  # a table of three picks three of them
    assert R.max_seats == R.engine_max_seats == 4  # the site seats three and four too (issue 33)
    for bad in (["stark", "stark", "lannister"], ["stark", "lannister", "baratheon"],
                ["stark", "lannister", "stark_2", "lannister_2", "stark_3"]):
        with pytest.raises(EngineError):
            R.new_game(bad, {}, 1)
    with pytest.raises(EngineError):
        R.new_game(["stark", "lannister", "stark_2"], {"multiplayer": "teams"}, 1)  # teams: four seats
    with pytest.raises(EngineError):
        R.new_game(["stark", "lannister"], {"multiplayer": "ffa"}, 1)


def test_a_two_player_game_carries_nothing_of_multiplayer():
    state = R.new_game(["stark", "lannister"], {}, 1)
    assert "multi" not in state
    s = R.summary(state)
    assert not {"multiplayer", "teams", "corners", "eliminated"} & set(s)
    assert [n for n, u in state["units"].items() if u["seat"] == "stark"] == [
        "sworn_swords", "sworn_swords_2", "umber_berserkers", "outriders", "grey_wind"]


def test_ffa_corners_zones_and_armies():
    """M131: the corners in seating order (clockwise from the first seat's left corner), each zone a
    12 in square; a house may be played twice, its units numbered on; the Stark starter list does
    not fit a 12 in square with Grey Wind (five trays), so a free-for-all's default leaves it out."""
    state = R.new_game(FOUR, {}, 5)
    assert state["multi"]["corners"] == {"stark": "sw", "lannister": "nw", "stark_2": "ne", "lannister_2": "se"}
    assert state["table"] == [48.0, 48.0]
    names = list(state["units"])
    assert len(names) == len(set(names)) == 16
    assert [n for n, u in state["units"].items() if u["seat"] == "stark_2"] == [
        "sworn_swords_3", "sworn_swords_4", "umber_berserkers_2", "outriders_2"]
    assert "10204" not in [u["card"] for u in state["units"].values()]
    state = _deployed(5)
    for n, u in state["units"].items():
        minx, miny, maxx, maxy = T.poly(state, n).bounds
        corner = state["multi"]["corners"][u["seat"]]
        assert (maxy <= 12.01) if corner[0] == "s" else (miny >= 35.99), n
        assert (maxx <= 12.01) if corner[1] == "w" else (minx >= 35.99), n
    stark = state["units"]["sworn_swords"]
    stark["at"] = [20.0, 8.0]  # wholly outside the square
    assert not flow.deploy_zone_ok(state, "stark", T.poly(state, "sworn_swords"))


def test_an_army_that_does_not_fit_its_corner_is_refused():
    with pytest.raises(EngineError, match="does not fit"):
        R.new_game(FOUR, {"armies": {"stark": "list_stark_30"}}, 1)


def test_a_unit_its_own_player_left_no_room_for_stays_out():
    """A player who stands its first tray in the middle of its 12 in square leaves no room for the
    next: that unit is left out of the game (no VP), and deployment goes on."""
    seats = ["stark", "lannister", "stark_2"]
    state = R.scenario_game(seats, {}, 1, {"units": {
        "a": {"card": "10201"}, "b": {"card": "10201"}, "guards": {"card": "10101"},
        "wolves": {"card": "10201", "seat": "stark_2"}}, "dice": [6, 1, 1]}, "deployment")
    assert R.pending(state) == {"stark": "deploy"}
    state, _ = R.apply(state, "stark", {"deploy": {"unit": "a", "at": [6, 8.4], "facing": 0}})
    state, _ = R.apply(state, "lannister", R.default_action(state, "lannister"))
    state, events = R.apply(state, "stark_2", R.default_action(state, "stark_2"))
    assert {"type": "left_out", "unit": "b", "seat": "stark"} in events
    assert state["units"]["b"]["left_out"] and not state["units"]["b"]["on_table"]
    assert state["phase"] == "activation" and state["vp"] == {"stark": 0, "lannister": 0, "stark_2": 0}
    assert "b" not in flow.activations_left(state, "stark")


def test_roll_off_every_player_ties_roll_again_and_deployment_goes_clockwise():
    """M131: every player rolls, the tied highest again; the winner is First Player, deploys first,
    then one unit each to the left."""
    for seed in range(12):
        state = R.new_game(FOUR, {}, seed)
        rolls = state["deploy"]["roll"]
        fp = state["first_player"]
        assert rolls[fp][-1] == max(r[-1] for r in rolls.values() if len(r) == len(rolls[fp]))
        assert all(len(r) == 1 or max(rolls[s][0] for s in rolls) == r[0] for r in rolls.values())
        order = []
        while state["phase"] == "deployment":
            seat = next(iter(R.pending(state)))
            order.append(seat)
            state, _ = R.apply(state, seat, R.default_action(state, seat))
        assert order[:4] == T.clockwise(state, fp)
        assert state["turn"] == fp and state["round"] == 1


# ---------------------------------------------------------------------- turns, token, elimination


def test_turns_go_clockwise_and_the_token_passes_left():
    state = _deployed(7)
    fp = state["first_player"]
    seen = []
    rnd = random.Random(0)
    while state["round"] == 1:
        d = state["decision"]
        seat = d["seats"][0]
        if d["kind"] == "activate":
            seen.append(seat)
            state, _ = R.apply(state, seat, {"activate": flow.activations_left(state, seat)[0]})
        elif d["kind"] == "action":
            state, _ = R.apply(state, seat, {"no_action": True})
        else:
            state, _ = R.apply(state, seat, R.random_action(state, seat, rnd))
    # 4 combat units and one NCU each: five turns round the table
    assert seen == T.clockwise(state, fp) * 5
    assert state["first_player"] == T.next_left(state, fp) == T.clockwise(state, fp)[1]


def test_enemies_engagement_and_sight_with_several_armies():
    """Every other seat's units are enemies (M131): engaged with any of them, the 1 in rule (M74)
    against all, a third army's tray blocks the line of sight (M81), and arcs (M82) are read the
    same way whatever army the attacker is from."""
    state = _scenario({
        "a": {"card": "10201", "at": [20, 20], "facing": 0},
        "b": {"card": "10101", "at": [20, 20], "facing": 180},
        "c": {"card": "10201", "seat": "stark_2", "at": [30, 26], "facing": 270},
        "d": {"card": "10102", "seat": "lannister_2", "at": [20, 10], "facing": 0},
    })
    assert T.enemies(state, "stark") == ["b", "c", "d"]
    assert T.enemies(state, "stark_2") == ["a", "b", "d"]
    assert T.engaged_with(state, "a") == ["b"] and T.engaged_with(state, "b") == ["a"]
    assert T.arc_seen_by(state, "b", "c")[0] == "flank"  # stark_2's unit on lannister's flank
    # d (lannister_2) looks north at a (stark): a is in front of it and seen; b (lannister) stands
    # behind a, hidden by a's tray: a third army's tray blocks the line
    assert T.sight(state, "d", "a", False) is None
    assert T.sight(state, "d", "b", False)
    with pytest.raises(EngineError, match="1 in"):
        flow.check_placement(state, "c", [20.0, 25.5], 180.0, lambda p: True, "redeploy")  # 0.7 in from b


def test_elimination_the_game_goes_on_and_the_last_player_standing_wins():
    state = _scenario({
        "a": {"card": "10201", "at": [8, 8], "facing": 0},
        "b": {"card": "10101", "at": [36, 36], "facing": 0},
        "c": {"card": "10201", "seat": "stark_2", "at": [36, 36], "facing": 180, "wounds": 1},
        "d": {"card": "10102", "seat": "lannister_2", "at": [40, 6], "facing": 0},
    }, first_player="lannister")
    events: list = []

    def destroy(name: str, by: str | None) -> None:
        state["decision"] = None  # destroyed between decisions (as an attack's wounds do)
        state["units"][name]["wounds"] = 0
        flow.destroy(state, name, events, by)
        flow.run(state, events)

    destroy("c", "lannister")
    assert state["multi"]["eliminated"] == ["stark_2"] and not state["over"]
    assert state["vp"] == {"stark": 0, "lannister": 1, "stark_2": 0, "lannister_2": 0}
    assert {"type": "eliminated", "seat": "stark_2"} in events
    assert T.next_left(state, "lannister") == "lannister_2"
    # a unit destroyed by no player's effect: 1 VP to each enemy still in the game (M129)
    destroy("d", None)
    assert state["vp"] == {"stark": 1, "lannister": 2, "stark_2": 0, "lannister_2": 0}
    assert state["multi"]["eliminated"] == ["stark_2", "lannister_2"] and not state["over"]
    destroy("a", "lannister")
    assert state["over"] and state["winner"] == "lannister" and state["result"] == "elimination"
    assert R.ranking(state) == ["lannister", "stark", "lannister_2", "stark_2"]
    assert R.placements(state) == {"lannister": 1, "stark": 2, "lannister_2": 3, "stark_2": 4}


def test_victory_needs_the_threshold_and_more_than_every_player_in_the_game():
    """M125 with several players: at least the threshold (M126: 8 at 30 points) and strictly more
    VP than every other player still in the game; an eliminated player cannot win."""
    units = {"a": {"card": "10201", "at": [8, 8], "facing": 0, "activated": True},
             "b": {"card": "10101", "at": [8, 40], "facing": 180, "activated": True},
             "c": {"card": "10201", "seat": "stark_2", "at": [40, 40], "facing": 180, "activated": True}}
    seats = ["stark", "lannister", "stark_2"]
    for vp, winner in (({"stark": 8, "lannister": 8, "stark_2": 3}, None),
                       ({"stark": 9, "lannister": 8, "stark_2": 3}, "stark"),
                       ({"stark": 6, "lannister": 5, "stark_2": 3}, None)):
        state = R.scenario_game(seats, {}, 1, {"round": 2, "hands": {s: [] for s in seats}, "units": units,
                                              "vp": vp}, "cleanup")
        # round 2's quadrants: each player holds its own corner's (+1 each)
        assert state["winner"] == winner, vp
    units["c"] = dict(units["c"], activated=False)
    state = R.scenario_game(seats, {}, 1, {"round": 2, "hands": {s: [] for s in seats}, "units": units,
                                          "first_player": "stark_2",
                                          "vp": {"stark": 7, "lannister": 12, "stark_2": 3}}, "activation")
    assert R.pending(state) == {"stark_2": "activate"}
    state["decision"] = None
    state["units"]["c"]["activated"] = True
    state["multi"]["eliminated"].append("lannister")
    state["units"]["b"].update(destroyed=True, on_table=False, wounds=0)
    state["players"]["lannister"]["destroyed"].append("b")
    flow.start_cleanup(state, [])
    flow.run(state, [])
    assert state["winner"] == "stark"  # 8 VP, more than stark_2; lannister's 12 are out of the game


# ---------------------------------------------------------------------- hidden hands


def test_each_seat_sees_only_its_own_hand_and_a_spectator_none():
    state = _deployed(11)
    assert all(len(state["players"][s]["hand"]) >= 3 for s in FOUR)
    for viewer in FOUR + [None]:
        v = R.view(state, viewer)
        s = R.summary(state, viewer)
        for seat in FOUR:
            shown = v["players"][seat]["hand"]
            assert (shown == state["players"][seat]["hand"]) if seat == viewer else shown == HIDDEN
            assert (s["hands"][seat] != HIDDEN) == (seat == viewer)
            assert s["decks"][seat] == HIDDEN and v["players"][seat]["deck"] == HIDDEN
    draw = {"type": "draw", "seat": "stark_2", "cards": ["40201"]}
    assert R.event_view(draw, "stark_2")["cards"] == ["40201"]
    for other in ("stark", "lannister", "lannister_2", None):
        assert R.event_view(draw, other)["cards"] == HIDDEN


def test_prompts_never_depend_on_a_hand_with_four_players():
    """reaction_prompts all (the default): who a window asks follows the public deck lists and
    Orders, the same for any hands (tests/engine/test_minis_hidden_info.py for two players)."""
    state = _deployed(13)
    rnd = random.Random(2)
    for _ in range(120):
        if state["over"]:
            break
        seat = next(iter(R.pending(state)))
        if state["decision"]["kind"] == "react":
            swapped = {**state, "players": {s: {**p, "hand": []} for s, p in state["players"].items()}}
            task = state["work"][0]
            for s in task["seats"]:
                assert cards._asks(state, s, task["window"], task["ctx"]) == \
                    cards._asks(swapped, s, task["window"], task["ctx"])
        state, _ = R.apply(state, seat, R.random_action(state, seat, rnd))


def test_four_player_views_do_not_depend_on_what_the_viewer_may_not_see():
    """The two-player check (test_minis_hidden_info.py) over a free-for-all of four: every seat's
    and a spectator's view, summary and pending are the same whatever the others' hands and every
    deck hold; a draw names its cards only to the one who drew them."""
    from tests.engine.test_minis_hidden_info import scramble_for

    rnd = random.Random(5)
    state = R.new_game(FOUR, {}, 5)
    for steps in range(500):
        if R.is_over(state):
            break
        if steps % 11 == 0:
            for viewer in [*FOUR, None]:
                other = scramble_for(state, viewer, rnd)
                assert R.view(state, viewer) == R.view(other, viewer), (steps, viewer)
                assert R.summary(state, viewer) == R.summary(other, viewer), (steps, viewer)
                assert R.pending(state) == R.pending(other)
        seat = rnd.choice(sorted(R.pending(state)))
        state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
        for e in events:
            for viewer in [*FOUR, None]:
                if e["type"] == "draw" and e["seat"] != viewer:
                    assert R.event_view(e, viewer)["cards"] == HIDDEN


# ---------------------------------------------------------------------- teams


# a Stark army without any character of the starter one: Greatjon Umber commands (M5), no Robb Stark, Grey Wind
# or Catelyn Stark
GREATJON = {"commander": "20202", "units": [{"unit": "10201", "attachment": "20202"}, {"unit": "10201"},
                                            {"unit": "10202"}], "ncus": []}


def test_teams_a_character_once_per_team_whichever_version_M130():
    """M130 (seed 2078-2080): the restrictions on characters extend to the whole team; M7: two versions of one
    character are that character. Refused in words naming the characters and the two armies; enemies may share
    a character, teammates of different characters play."""
    teams = {"stark": "a", "stark_2": "a", "lannister": "b", "lannister_2": "b"}
    # Greatjon commands, Robb Stark "The Young Wolf" (another version than the starter's Wolf Lord) joins
    young_wolf = {"commander": "20202", "units": [{"unit": "10201", "attachment": "20202"},
                                                  {"unit": "10201", "attachment": "20206"}, {"unit": "10202"}],
                  "ncus": []}
    with pytest.raises(EngineError) as refused:
        R.new_game(FOUR, {"multiplayer": "teams", "teams": teams, "armies": {"stark_2": young_wolf}}, 1)
    assert refused.value.code == "illegal_action" and "M130" in refused.value.rules
    assert refused.value.reason == (
        "Robb Stark is in two armies of one team, the first army of Stark and the second army of Stark: in a team "
        "game a character appears once in the whole team, whichever version of him or her.")
    # two Stark armies of one team without a common character pass that check (the Lannister ones still share
    # Jaime Lannister: no Lannister Commander of the box is another character)
    with pytest.raises(EngineError, match="Jaime Lannister, Gregor Clegane and Tyrion Lannister are in two armies"):
        R.new_game(FOUR, {"multiplayer": "teams", "teams": teams, "armies": {"stark_2": GREATJON}}, 1)
    # enemies may both field Robb Stark (the default teams: each Stark army faces the other)
    R.new_game(FOUR, {"multiplayer": "teams", "armies": {"stark_2": young_wolf}}, 1)
    assert rules.shared_characters(rules.engine_list(rules.normalise(
        {**rules.starter_armies()["list_stark_30"]})), young_wolf) == ["Robb Stark"]
    # the starter armies of the two houses share no character: the default teams always set up
    starters = list(rules.starter_armies().values())
    assert not rules.shared_characters(starters[0], starters[1])


def test_teams_friendly_units_team_vp_and_character_uniqueness():
    with pytest.raises(EngineError, match="appears once in the whole team"):
        R.new_game(FOUR, {"multiplayer": "teams", "teams": {"stark": "a", "stark_2": "a", "lannister": "b",
                                                              "lannister_2": "b"}}, 1)
    state = R.new_game(FOUR, {"multiplayer": "teams"}, 2)
    assert state["multi"]["teams"] == {"stark": "a", "lannister": "a", "stark_2": "b", "lannister_2": "b"}
    assert state["table"] == [72.0, 48.0] and state["vp"] == {"a": 0, "b": 0}
    assert T.enemy_seats(state, "stark") == ["stark_2", "lannister_2"]
    assert T.friendly_seats(state, "lannister") == ["stark", "lannister"]
    state = _deployed(2, options={"multiplayer": "teams"})
    for n, u in state["units"].items():
        minx, miny, maxx, maxy = T.poly(state, n).bounds
        assert maxy <= 18.01 if state["multi"]["teams"][u["seat"]] == "a" else miny >= 29.99
    # the First Player's team is asked, both its players with something to activate
    d = state["decision"]
    while d["kind"] != "activate":
        state, _ = R.apply(state, d["seats"][0], R.default_action(state, d["seats"][0]))
        d = state["decision"]
    team = state["multi"]["teams"][state["first_player"]]
    assert sorted(d["seats"]) == sorted(s for s in FOUR if state["multi"]["teams"][s] == team)


def test_ffa_engine_player_goes_for_the_nearest_weakest_enemy():
    """A free-for-all (M131): a unit its corner does not need goes for the nearest, weakest enemy and
    closes on it (it does not keep out of charges as in a two-player game, where holding back is
    safe), then charges it; the corner's quadrant stays held by the unit it needs."""
    units = {"keep": {"card": "10201", "at": [6, 9], "facing": 45},
             "hunter": {"card": "10202", "at": [14, 18], "facing": 0},
             "far": {"card": "10101", "seat": "lannister", "at": [8, 42], "facing": 180, "activated": True},
             "hurt": {"card": "10201", "seat": "stark_2", "at": [18, 30], "facing": 180, "wounds": 4,
                      "activated": True},
             "other": {"card": "10102", "seat": "lannister_2", "at": [42, 8], "facing": 270, "activated": True}}
    state = _scenario(units, dice=[3] * 80)
    assert not bot._needed(state, "stark", "hunter")  # the Sworn Swords hold the corner (5 points)
    assert bot._target(state, "stark", "hunter") == "hurt"
    before = G_gap(state, "hunter", "hurt")
    state, _ = R.apply(state, "stark", {"activate": "hunter"})
    act = bot.bot_action(state, "stark")
    state, _ = R.apply(state, "stark", act)
    gap = G_gap(state, "hunter", "hurt")
    # its full Speed straight at it: the charge next turn (Speed + D6) is likely to reach
    assert gap <= before - T.speed(state, "hunter") + 0.2, gap  # its full Speed towards it


def G_gap(state: dict, a: str, b: str) -> float:
    from games.engine.minis import geometry as G
    return G.distance(T.poly(state, a), T.poly(state, b))


def test_quick_team_game_twenty_point_lists():
    """M130 (seed 2074-2076): the quick 2v2 is 20 points per player: the data's 20-point lists are
    legal at 20 (M1-M17) and are the defaults of a game of size 20; the default size, 30, takes the
    starter lists, in a team game too."""
    from games.engine.minis import data
    for f in ("stark", "lannister"):
        lst = data.default_list(f, 20)
        assert lst["id"] == f"list_{f}_20" and data.list_points(lst) == 20
        data.check_list(f, lst, 20)
        with pytest.raises(EngineError):
            data.check_list(f, data.default_list(f, 30), 20)  # 30 points is over a quick game's size
    state = R.new_game(FOUR, {"multiplayer": "teams", "game_size": 20}, 4)
    assert state["game_size"] == 20 and state["threshold"] == 8
    assert {s: state["players"][s]["list"]["id"] for s in FOUR} == {
        "stark": "list_stark_20", "lannister": "list_lannister_20", "stark_2": "list_stark_20",
        "lannister_2": "list_lannister_20"}
    assert sum(T.unit_points(state, n) for n in state["units"] if state["units"][n]["seat"] == "stark") == 16
    state = R.new_game(FOUR, {"multiplayer": "teams"}, 4)
    assert state["game_size"] == 30 and state["players"]["stark"]["list"]["id"] == "list_stark_30"
    # a two-player game may take them by id
    state = R.new_game(["stark", "lannister"], {"game_size": 20, "armies": {"stark": "list_stark_20",
                                                                            "lannister": "list_lannister_20"}}, 4)
    assert state["players"]["lannister"]["list"]["ncus"] == ["30104"]
    # the quick game plays to its end with the engine's player on one team
    res = bot.play_game(7, {"stark": "bot", "lannister": "bot"}, seats=4, options={"multiplayer": "teams", "game_size": 20})
    assert res["state"]["phase"] == "game_over"


def test_teams_a_teammate_is_never_a_target():
    """M130: a teammate's units are friendly: never engaged, never charged; an enemy in the same
    place is charged."""
    def game(seat_of_b: str) -> dict:
        card = "10101" if seat_of_b.startswith("lannister") else "10201"
        return _scenario({
            "a": {"card": "10201", "at": [20, 20], "facing": 0},
            "b": {"card": card, "seat": seat_of_b, "at": [20, 28], "facing": 180},
            "c": {"card": "10201", "seat": "stark_2", "at": [60, 40], "facing": 180},
            "d": {"card": "10102", "seat": "lannister_2", "at": [60, 20], "facing": 180},
        }, options={"multiplayer": "teams"}, dice=[4] * 60)
    state = game("lannister")
    assert T.enemies(state, "stark") == ["c", "d"]
    state, _ = R.apply(state, "stark", {"activate": "a"})
    with pytest.raises(EngineError):
        R.apply(state, "stark", {"charge": {"target": "b"}})
    state = game("lannister_2")  # the same tray, an enemy's
    assert T.enemies(state, "stark") == ["b", "c", "d"]
    state, _ = R.apply(state, "stark", {"activate": "a"})
    state, events = R.apply(state, "stark", {"charge": {"target": "b"}})
    assert any(e["type"] == "charge" for e in events)


def test_teams_a_friendly_unit_may_be_a_teammates():
    """M130: "teammates' effects and units are friendly": the cards, Orders and zones that name "a
    friendly unit" offer and accept a teammate's unit (scenario 75: the Combat zone), never an
    enemy's; in a free-for-all only the player's own units are friendly."""
    units = {"a": {"card": "10201", "at": [20, 20], "facing": 0},
             "b": {"card": "10101", "seat": "lannister", "at": [32, 20], "facing": 0},
             "c": {"card": "10201", "seat": "stark_2", "at": [20, 30], "facing": 180},
             "d": {"card": "10102", "seat": "lannister_2", "at": [60, 20], "facing": 180}}
    state = _scenario(units, options={"multiplayer": "teams"})
    assert T.friendly(state, "stark") == ["a", "b"] and T.friendly(state, "lannister_2") == ["c", "d"]
    # Swift Reposition (40206): a 2 in shift of one friendly combat unit
    offered = {o["unit"] for o in cards._param_options(state, "stark", "turn_start", {"seat": "stark"},
                                                       ("40206", 0), None)}
    assert offered == {"a", "b"}
    # Fealty to The Crown (40106) and the attached cards (40102): a teammate's unit is accepted
    ctx = {"unit": "c", "wounds": 2}
    assert cards._fealty_check(state, "lannister", ctx, {"unit": "a"}, None) == {"unit": "a"}
    with pytest.raises(EngineError):
        cards._fealty_check(state, "lannister", ctx, {"unit": "d"}, None)
    assert cards._attach_check(state, "lannister", {}, {"unit": "a", "_card": "40102"}, None)
    with pytest.raises(EngineError):
        cards._attach_check(state, "lannister", {}, {"unit": "c", "_card": "40102"}, None)
    # the Maneuver zone moves a friendly unit: a teammate's is listed, an enemy's is not
    assert {c["unit"] for c in flow.zone_choices(state, "horse", "lannister")} == {"a", "b"}
    # a teammate's unit destroyed puts a token on A Lannister Pays His Debts (friendly infantry)
    state["attached"] = [{"card": "40102", "seat": "lannister", "unit": "b", "tokens": 0}]
    flow.destroy(state, "a", [], "stark_2")
    assert state["attached"][0]["tokens"] == 1
    # a free-for-all: nobody else's unit is friendly
    ffa = _scenario({"a": {"card": "10201", "at": [8, 8], "facing": 0},
                     "b": {"card": "10101", "seat": "lannister", "at": [8, 40], "facing": 180},
                     "c": {"card": "10201", "seat": "stark_2", "at": [40, 40], "facing": 180},
                     "d": {"card": "10102", "seat": "lannister_2", "at": [40, 8], "facing": 0}})
    assert T.friendly(ffa, "stark") == ["a"]


def test_teams_the_token_passes_between_teams():
    units = {"a": {"card": "10201", "at": [8, 8], "facing": 0, "activated": True},
             "b": {"card": "10101", "at": [20, 8], "facing": 0, "activated": True},
             "c": {"card": "10201", "seat": "stark_2", "at": [8, 40], "facing": 180, "activated": True},
             "d": {"card": "10102", "seat": "lannister_2", "at": [20, 40], "facing": 180, "activated": True}}
    state = R.scenario_game(FOUR, {"multiplayer": "teams"}, 1, {"round": 1, "first_player": "lannister",
                                                                 "hands": {s: [] for s in FOUR}, "units": units},
                            "cleanup")
    assert state["first_player"] == "stark_2" and state["round"] == 2 and state["turn"] == "stark_2"
    while state["decision"]["kind"] == "react":  # the hands drawn at Cleanup may answer the turn's start
        state, _ = R.apply(state, state["decision"]["seats"][0], {"pass": True})
    assert state["decision"]["kind"] == "activate"
    assert sorted(state["decision"]["seats"]) == ["lannister_2", "stark_2"]


# ---------------------------------------------------------------------- whole games


@pytest.mark.parametrize("seats,options,players", [
    (4, None, {"stark": "bot", "stark_2": "bot"}),
    (3, None, {"lannister": "bot"}),
    (4, {"multiplayer": "teams"}, {"stark": "bot", "lannister": "bot"}),
])
def test_random_and_engine_players_play_whole_games_keeping_the_invariants(seats, options, players):
    res = bot.play_game(21, players, check=True, options=options, seats=seats)
    state = res["state"]
    assert state["over"] and state["phase"] == "game_over"
    assert R.ranking(state) and sorted(R.ranking(state)) == sorted(state["seats"])
    assert set(R.placements(state)) == set(state["seats"])


def test_simulate_plays_three_and_four_players():
    out = io.StringIO()
    call_command("simulate", "--game", "minis", "--players", "3", "--games", "1", "--seed", "4", stdout=out)
    assert "1 games of 3 players, 3 players each for themselves" in out.getvalue() and "1 ok, 0 failed" in out.getvalue()
    with pytest.raises(CommandError, match="three or four"):
        call_command("simulate", "--game", "minis", "--players", "3", "--options", "teams", "--games", "1",
                     stdout=io.StringIO())
    with pytest.raises(CommandError, match="2 to 4"):
        call_command("simulate", "--game", "minis", "--players", "5", "--games", "1", stdout=io.StringIO())
