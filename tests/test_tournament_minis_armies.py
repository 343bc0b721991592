"""Miniatures tournaments take any legal army of the agreed size (issue 33): the event has a game size (20, 30, 40
or 50 points, as lobbies); a player registers with one of their saved armies that is legal at that size (copied
then: later edits change nothing), or a starter army of a house, or none (each table gives a house and its starter
army). A bad army is refused in the lobby's words (400, the API's error shape) and registers nobody. The army is
fielded at every table of the player's, in a seat of its house (a Stark army plays a Stark seat). One against one,
Swiss pairs by score as for any game: two armies of one house meet in a mirror match (`stark` + `stark_2`).

Two against two (M130, `options.multiplayer: teams`, four seats a table): players register naming each other as
partners (a team), those without one are teamed at the start; each table is two teams, each player in a seat of
their army's house, the game's `teams` their teams; a team's players share its result (a game of two sides:
1 point a win), and the standings count it for both."""
from __future__ import annotations

import copy
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command

from games.engine.minis import armies as rules
from games.models import Army, Game, GameSeat
from tests.factories import api_client_for, make_user
from tournaments import pairing as P
from tournaments import services
from tournaments.models import Registration, Table, TableSeat, Tournament

pytestmark = pytest.mark.django_db

STARK, LANNISTER = "list_stark_30", "list_lannister_30"


def saved(user, key=LANNISTER, name="Host", **changes) -> Army:
    army = copy.deepcopy(rules.starter_armies()[key])
    army.pop("name")
    army.update(changes)
    return Army.objects.create(owner=user, name=name, faction=army["faction"], game_size=army["game_size"],
                               commander=army["commander"], units=army["units"], ncus=army["ncus"])


def mountain_40(user) -> Army:
    """A legal 40-point Lannister army of the starter box (tests/test_minis_armies_play.py)."""
    return saved(user, name="Mountain", game_size=40, commander="20116",
                 units=[{"unit": "10101", "attachment": "20116"}, {"unit": "10101", "attachment": "20102"},
                        {"unit": "10102", "attachment": "20101"}, {"unit": "10103", "attachment": "20117"}],
                 ncus=["30104", "30105"])


def event(org_user, *, size=30, teams=False, **fields) -> int:
    options = {"game_size": size, **({"multiplayer": "teams"} if teams else {})}
    response = api_client_for(org_user).post("/api/v1/tournaments", {
        "name": "Green Fork", "ruleset": "minis", "format": "swiss", "seats_per_table": 4 if teams else 2,
        "rounds": 2, "options": options, **fields}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def register(user, tid, army=None, partner=None):
    body = {k: v for k, v in (("army", army), ("partner", partner)) if v is not None}
    return api_client_for(user).post(f"/api/v1/tournaments/{tid}/register", body, format="json")


def tables_of(tid, number):
    return list(Table.objects.filter(round__tournament_id=tid, round__number=number).select_related("game")
                .prefetch_related("seats__registration__user").order_by("number"))


def test_a_saved_army_of_the_size_is_copied_and_fielded_at_every_table_of_its_player():
    org, alys, bran = make_user(), make_user(), make_user()
    lions = mountain_40(alys)
    tid = event(org, size=40)
    mine = register(alys, tid, f"army:{lions.pk}")
    assert mine.status_code == 201, mine.json()
    assert mine.json()["army"]["name"] == "Mountain" and mine.json()["army"]["faction"] == "lannister"
    assert register(bran, tid, STARK).status_code == 201
    # the others see its house and points, not its name nor its list
    seen = {r["user"]: r["army"] for r in api_client_for(bran).get(f"/api/v1/tournaments/{tid}/registrations").json()}
    assert seen[alys.username] == {"faction": "lannister", "points": rules.points(lions.army())}  # of the 40
    assert seen[bran.username] == {"faction": "stark", "starter": STARK}
    kept = rules.engine_list(lions.army())
    lions.units = lions.units[:1]  # edited after registering: the tournament keeps its copy
    lions.save()
    assert api_client_for(org).post(f"/api/v1/tournaments/{tid}/start").json()["status"] == "running"
    (table,) = tables_of(tid, 1)
    game = table.game
    seat = {s.registration.user_id: s.seat for s in table.seats.all()}
    assert seat == {alys.pk: "lannister", bran.pk: "stark"}  # each army in a seat of its house
    assert game.options["game_size"] == 40 and game.options["armies"] == {"lannister": kept}
    assert game.state["game_size"] == 40
    # round 2: the same army again
    services.do_adjudicate(tid, org, table.pk, ["lannister", "stark"])
    (second,) = tables_of(tid, 2)
    assert second.game.options["armies"] == {"lannister": kept}
    assert {s.registration.user_id: s.seat for s in second.seats.all()} == seat


@pytest.mark.parametrize("case", ["illegal", "wrong_size", "someone_elses", "unknown", "not_minis"])
def test_a_bad_army_is_refused_in_words_and_registers_nobody(case):
    org, alys, bran = make_user(), make_user(), make_user()
    tid = event(org, size=30)
    if case == "illegal":
        army = saved(alys, name="Two lords", commander="")  # no Commander
        said = "Two lords cannot be played:"
    elif case == "wrong_size":
        army = mountain_40(alys)
        said = "Mountain cannot be played: It is an army of 40 points; this game is of 30."
    elif case == "someone_elses":
        army = saved(bran, name="Theirs")
        said = "That army is not one of your saved armies."
    elif case == "unknown":
        army = None
        said = "Unknown army: bring one of your saved armies or a starter army"
    else:
        army = saved(alys)
        tid = api_client_for(org).post("/api/v1/tournaments", {
            "name": "Siege", "ruleset": "agot", "format": "swiss", "seats_per_table": 3}, format="json").json()["id"]
        said = "is not played with armies."
    refused = register(alys, tid, f"army:{army.pk}" if army else "the_wolf_pack")
    assert refused.status_code == 400, refused.json()
    body = refused.json()
    assert set(body) >= {"error", "detail", "fields"} and body["error"] == "invalid"
    assert said in body["fields"]["army"][0], body
    assert not Registration.objects.filter(tournament_id=tid).exists()


def bots_event(org) -> int:
    """A Swiss event of three rounds whose every seat the computer plays: its games are played out at once."""
    return services.do_create_tournament(org, services.TournamentSettings(
        name="Green Fork", ruleset="minis", format="swiss", seats_per_table=2, rounds=3, time_limit=3600,
        bots_only=True, options={"game_size": 30})).pk


def seated_by_armies(table) -> None:
    """A table of two seated by its armies (pairing.duel_seats): each army at a seat of its house, two armies of one
    house at the house's two seats, a player of no army at the house the other's army leaves."""
    seats = list(table.seats.all())
    fixed = [(s.registration.army or {}).get("faction") for s in seats]
    houses = sorted(s.seat for s in seats)
    if fixed[0] and fixed[0] == fixed[1]:
        assert houses == [fixed[0], f"{fixed[0]}_2"], houses
    else:
        assert houses == ["lannister", "stark"], houses
        for s, house in zip(seats, fixed, strict=True):
            assert house is None or s.seat == house
    assert sorted(s.position for s in seats) == [0, 1]


def test_swiss_pairs_armies_as_any_swiss_event_and_a_stark_army_may_meet_another_in_a_mirror_match():
    org = make_user()
    starks = [make_user() for _ in range(3)]
    lion = make_user()
    tid = event(org)
    for user in starks:
        assert register(user, tid, STARK).status_code == 201
    assert register(lion, tid, LANNISTER).status_code == 201
    api_client_for(org).post(f"/api/v1/tournaments/{tid}/start")
    tables = tables_of(tid, 1)
    assert len(tables) == 2  # everyone plays: no house sits out
    rounds = api_client_for(org).get(f"/api/v1/tournaments/{tid}/rounds").json()
    assert rounds[0]["byes"] == []
    assert sorted(sorted(s.seat for s in table.seats.all()) for table in tables) == [
        ["lannister", "stark"], ["stark", "stark_2"]]
    for table in tables:
        seated_by_armies(table)
        assert all(table.game.seat_names()[s.position] == s.seat for s in table.seats.all())  # the game's seats


@pytest.mark.slow_once  # whole games: long; the shorter tests here cover their database paths on both CI passes
def test_an_event_of_armies_of_one_house_pairs_mirror_matches_and_plays_them_avoiding_rematches():
    org = make_user()
    tid = bots_event(org)
    users = [make_user() for _ in range(4)]
    for user in users:
        assert register(user, tid, STARK).status_code == 201
    started = api_client_for(org).post(f"/api/v1/tournaments/{tid}/start")
    assert started.status_code == 200, started.json()
    t = Tournament.objects.get(pk=tid)
    assert t.status == Tournament.Status.FINISHED and t.current_round == 3
    met = []
    for number in (1, 2, 3):
        tables = tables_of(tid, number)
        assert len(tables) == 2 and not t.round_set.get(number=number).byes.exists()
        for table in tables:
            assert sorted(s.seat for s in table.seats.all()) == ["stark", "stark_2"]
            assert table.game.state["seats"] == ["stark", "stark_2"] and table.game.state["over"]
            met.append(frozenset(s.registration.user_id for s in table.seats.all()))
    assert len(set(met)) == 6  # three rounds of four players: everyone meets everyone once


@pytest.mark.slow_once  # whole games: long; the shorter tests here cover their database paths on both CI passes
def test_a_player_of_no_army_takes_the_house_the_other_army_leaves():
    org, a, b, c, d = (make_user() for _ in range(5))
    tid = bots_event(org)
    for user, army in ((a, STARK), (b, STARK), (c, None), (d, LANNISTER)):
        assert register(user, tid, army).status_code == 201
    started = api_client_for(org).post(f"/api/v1/tournaments/{tid}/start")
    assert started.status_code == 200, started.json()
    assert Tournament.objects.get(pk=tid).current_round == 3
    met = []
    for number in (1, 2, 3):
        tables = tables_of(tid, number)
        assert len(tables) == 2
        for table in tables:
            seated_by_armies(table)
            assert table.game.state["over"]
            met.append(frozenset(s.registration.user_id for s in table.seats.all()))
    assert len(set(met)) == 6  # no rematch while one can be avoided: everyone met everyone once


def test_a_two_against_two_tournament_seats_teams_with_their_armies_and_counts_team_results():
    org = make_user()
    alys, bran, cat, dany, ed, fay, gil, hal = (make_user() for _ in range(8))
    armies = {alys: saved(alys, STARK, "Wolves"), bran: saved(bran, LANNISTER, "Lions")}
    tid = event(org, teams=True, rounds=2)
    t = Tournament.objects.get(pk=tid)
    assert (t.seats_per_table, t.min_seats_per_table) == (4, 4)
    # alys and bran name each other: a team; cat and dany too; the four others are teamed at the start
    assert register(alys, tid, f"army:{armies[alys].pk}", bran.username).status_code == 201
    assert register(bran, tid, f"army:{armies[bran].pk}", alys.username).status_code == 201
    assert register(cat, tid, STARK, dany.username).status_code == 201
    assert register(dany, tid, LANNISTER, cat.username).json()["partner"] == cat.username
    for user, army in ((ed, STARK), (fay, STARK), (gil, LANNISTER), (hal, None)):
        assert register(user, tid, army).status_code == 201
    refused = register(make_user(), tid, STARK, "nobody-of-that-name")
    assert refused.status_code == 400 and refused.json()["fields"]["partner"] == ["No player is named nobody-of-that-name."]
    assert api_client_for(org).post(f"/api/v1/tournaments/{tid}/start").json()["status"] == "running"

    team = {r.user_id: r.team for r in Registration.objects.filter(tournament_id=tid)}
    assert team[alys.pk] == team[bran.pk] and team[cat.pk] == team[dany.pk] and team[alys.pk] != team[cat.pk]
    assert len(set(team.values())) == 4 and all(list(team.values()).count(n) == 2 for n in set(team.values()))
    assert team[ed.pk] != team[fay.pk]  # two Stark armies are teamed apart where they can be

    tables = tables_of(tid, 1)
    assert len(tables) == 2
    for table in tables:
        game = table.game
        seats = list(table.seats.all())
        assert sorted(s.seat for s in seats) == ["lannister", "lannister_2", "stark", "stark_2"]
        assert {GameSeat.objects.get(game=game, seat=s.seat).user_id for s in seats} == \
               {s.registration.user_id for s in seats}
        # the game's teams are the registered teams
        sides = game.options["teams"]
        for s in seats:
            for other in seats:
                assert (sides[s.seat] == sides[other.seat]) == (s.registration.team == other.registration.team)
        assert game.state["multi"]["kind"] == "teams"
        for s in seats:  # each army in a seat of its house; a saved one as it was copied
            army = s.registration.army
            if army:
                assert s.seat.split("_")[0] == army["faction"]
            if army and army.get("list"):
                assert game.options["armies"][s.seat] == army["list"]

    # results: the team of the first seat in the ranking wins the table; both its players get the win
    for table in tables:
        seats = list(table.seats.all())
        winners = [s for s in seats if s.registration.team == seats[0].registration.team]
        losers = [s for s in seats if s not in winners]
        services.do_adjudicate(tid, org, table.pk, [winners[0].seat, losers[0].seat, winners[1].seat, losers[1].seat])
    for table in tables_of(tid, 1):
        seats = list(TableSeat.objects.filter(table=table).select_related("registration"))
        first = seats[0].registration.team if seats[0].place == 1 else None
        assert {(s.place, s.points) for s in seats if s.registration.team == first} == {(1, 1.0)}
        assert {(s.place, s.points) for s in seats if s.registration.team != first} == {(2, 0.0)}
    standings = api_client_for(org).get(f"/api/v1/tournaments/{tid}/standings").json()
    by_user = {row["user"]: row for row in standings}
    assert sorted(row["points"] for row in standings) == [0, 0, 0, 0, 1, 1, 1, 1]
    for a, b in ((alys, bran), (cat, dany)):
        assert by_user[a.username]["points"] == by_user[b.username]["points"]
        assert by_user[a.username]["wins"] == by_user[b.username]["wins"]
    # round 2 started on its own: the winners of round 1 meet, and no team meets a team it met
    second = tables_of(tid, 2)
    assert len(second) == 2 and Tournament.objects.get(pk=tid).current_round == 2
    met = {frozenset(s.registration.team for s in table.seats.all()) for table in tables_of(tid, 1)}
    assert not met & {frozenset(s.registration.team for s in table.seats.all()) for table in second}
    rounds = api_client_for(org).get(f"/api/v1/tournaments/{tid}/rounds").json()
    assert {seat["team"] for table in rounds[1]["tables"] for seat in table["seats"]} == set(team.values())
    assert Game.objects.filter(tournament_table__round__tournament_id=tid).count() == 4


def test_an_odd_two_against_two_field_does_not_start_and_says_who_has_no_partner():
    org = make_user()
    tid = event(org, teams=True)
    people = [make_user() for _ in range(5)]
    for user in people:
        register(user, tid, STARK if user == people[0] else None)
    refused = api_client_for(org).post(f"/api/v1/tournaments/{tid}/start")
    assert refused.status_code == 409 and "has no partner" in refused.json()["detail"]
    assert Tournament.objects.get(pk=tid).status == "registration"


def test_the_settings_of_a_minis_tournament_are_checked():
    org = api_client_for(make_user())
    base = {"name": "X", "ruleset": "minis", "format": "swiss", "seats_per_table": 2}
    for extra, field in (({"options": {"game_size": 35}}, "options"),
                         ({"seats_per_table": 4}, "seats_per_table"),
                         ({"seats_per_table": 2, "options": {"multiplayer": "teams"}}, "seats_per_table"),
                         ({"seats_per_table": 4, "format": "league", "options": {"multiplayer": "teams"}}, "format"),
                         ({"seats_per_table": 4, "options": {"multiplayer": "ffa"}}, "seats_per_table")):
        response = org.post("/api/v1/tournaments", {**base, **extra}, format="json")
        assert response.status_code == 400 and field in response.json()["fields"], (extra, response.json())


# ---------------------------------------------------------------- the pairing of sides of fixed houses (pure)


def kinds(**sides) -> dict:
    """{side: its fixed houses counted}: s = a Stark army, l = a Lannister one, - = none (e.g. a="sl", b="--")."""
    return {side: P._house_count({"s": "stark", "l": "lannister", "-": None}[c] for c in houses)
            for side, houses in sides.items()}


def test_sides_meet_only_when_their_houses_fit_and_the_fewest_sit_out():
    # one against one: 4 Stark armies, 1 Lannister, 1 without: two tables (s-l, s--), two Starks sit out, the lowest
    houses = kinds(a="s", b="s", c="l", d="s", e="-", f="s")
    got = P.fixed_house_round(list("abcdef"), houses, per_side=1)
    assert set(got.byes) == {"d", "f"}
    for table in got.tables:
        assert P.sides_fit(houses[table.players[0]], houses[table.players[1]], 1)
    # two against two: a Stark pair meets only a Lannister pair or one that can take Lannister seats
    houses = kinds(a="ss", b="sl", c="ll", d="s-")
    got = P.fixed_house_round(list("abcd"), houses, per_side=2)
    assert {frozenset(t.players) for t in got.tables} == {frozenset("ac"), frozenset("bd")} and not got.byes
    # an odd field: one bye, to the lowest side whose sitting out leaves the rest pairable
    houses = kinds(a="s", b="l", c="-")
    assert P.fixed_house_round(list("abc"), houses, per_side=1).byes == ("c",)
    houses = kinds(a="-", b="l", c="l")
    assert P.fixed_house_round(list("abc"), houses, per_side=1).byes == ("c",)


def test_round_one_folds_the_seeds_and_later_rounds_avoid_repeats_then_allow_them():
    houses = kinds(a="-", b="-", c="-", d="-")
    first = P.fixed_house_round(list("abcd"), houses, per_side=1, first_round=True)
    assert [set(t.players) for t in first.tables] == [set("ac"), set("bd")]  # 1 v 3, 2 v 4
    history = P.History.of([(("a", "c"), None), (("b", "d"), None)])
    second = P.fixed_house_round(list("abcd"), houses, per_side=1, history=history)
    assert [set(t.players) for t in second.tables] == [set("ab"), set("cd")]
    # two Starks and two Lannisters who met: the houses leave no new pairing, so they meet again
    houses = kinds(a="s", b="l", c="s", d="l")
    history = P.History.of([(("a", "b"), None), (("c", "d"), None), (("a", "d"), None), (("c", "b"), None)])
    again = P.fixed_house_round(list("abcd"), houses, per_side=1, history=history)
    assert len(again.tables) == 2 and not again.byes


def test_seats_follow_the_armies_and_the_others_take_the_house_they_played_least():
    seats = ["stark", "lannister", "stark_2", "lannister_2"]
    fixed = {"a": "lannister", "b": "lannister", "c": None, "d": "stark"}
    placed = dict(P.seat_sides([["a", "b"], ["c", "d"]], seats, fixed, {"c": Counter({"lannister": 0, "stark": 3})}))
    assert {placed["a"].split("_")[0], placed["b"].split("_")[0]} == {"lannister"}
    assert placed["d"].split("_")[0] == "stark" and placed["c"].split("_")[0] == "stark"
    assert sorted(placed.values()) == sorted(seats)
    placed = dict(P.seat_sides([["x"], ["y"]], ["stark", "lannister"], {"x": None, "y": None},
                               {"x": Counter({"stark": 2}), "y": Counter()}))
    assert placed == {"x": "lannister", "y": "stark"}


@pytest.mark.slow_once  # whole games: long; the shorter tests here cover their database paths on both CI passes
def test_simulate_tournament_plays_a_two_against_two_event_with_bots():
    out = StringIO()
    call_command("simulate_tournament", "--ruleset", "minis", "--teams", "--players", "4", "--rounds", "1",
                 "--seed", "3", stdout=out)
    t = Tournament.objects.get(ruleset="minis")
    assert t.status == Tournament.Status.FINISHED and services.team_event(t)
    (table,) = Table.objects.filter(round__tournament=t).select_related("game")
    assert table.game.status == "finished" and table.game.state["multi"]["kind"] == "teams"
    places = {s.registration.team: s.place for s in table.seats.select_related("registration")}
    assert sorted(places.values()) == [1, 2]  # one team won, both its players with it
    lines = [line.split() for line in out.getvalue().splitlines()[2:]]
    assert sorted(int(line[2]) for line in lines) == [0, 0, 1, 1]


# M130: a character once per team (Jaime's and Gregor's Lannister armies share none; the starter ones of a house
# share their Commander)
JAIME = [{"unit": "10101", "attachment": "20115"}, {"unit": "10101", "attachment": "20102"},
         {"unit": "10102", "attachment": "20101"}, {"unit": "10103"}]
GREGOR = [{"unit": "10101", "attachment": "20116"}, *JAIME[1:]]


def test_partners_whose_armies_share_a_character_are_refused_when_the_second_registers_M130():
    org, alys, bran = make_user(), make_user(), make_user()
    tid = event(org, teams=True)
    assert register(alys, tid, STARK, bran.username).status_code == 201
    wolves = saved(bran, STARK, "Winterfell")
    refused = register(bran, tid, f"army:{wolves.pk}", alys.username)
    assert refused.status_code == 409, refused.json()
    assert refused.json()["detail"] == (
        f"Robb Stark, Grey Wind and Catelyn Stark are in two armies of one team, your army Winterfell and the army of "
        f"{alys.username}: in a team game a character appears once in the whole team, whichever version of him or "
        "her.")
    assert not Registration.objects.filter(tournament_id=tid, user=bran).exists()
    # a Lannister army, or none (the table then gives bran the other house's starter army): they are a team
    assert register(bran, tid, None, alys.username).status_code == 201
    me = Registration.objects.get(tournament_id=tid, user=bran)
    assert services.team_houses(Tournament.objects.get(pk=tid), Registration.objects.get(user=alys), me) == [
        ("stark", "lannister")]


def test_a_player_no_one_can_be_teamed_with_stops_the_start_in_words_M130():
    org = make_user()
    tid = event(org, teams=True)
    ed, fay, gil, hal = (make_user() for _ in range(4))
    for user, army in ((ed, STARK), (fay, STARK), (gil, STARK), (hal, LANNISTER)):
        assert register(user, tid, army).status_code == 201
    refused = api_client_for(org).post(f"/api/v1/tournaments/{tid}/start")
    assert refused.status_code == 409, refused.json()
    assert refused.json()["detail"] == (
        f"{fay.username} can be teamed with nobody: Robb Stark, Grey Wind and Catelyn Stark are in two armies of one "
        f"team, the army of {fay.username} and the army of {gil.username}: in a team game a character appears once "
        "in the whole team, whichever version of him or her. Drop a player or ask for another army.")
    assert Tournament.objects.get(pk=tid).status == "registration"


def test_teammates_of_no_army_are_seated_in_both_houses_and_a_table_needing_two_starks_of_them_is_not_made_M130():
    org = make_user()
    tid = event(org, teams=True)
    alys, bran, cat, dany = (make_user() for _ in range(4))
    # alys and bran bring no army: two starter armies of one house would share their Commander
    assert register(alys, tid, None, bran.username).status_code == 201
    assert register(bran, tid, None, alys.username).status_code == 201
    jaime, gregor = (saved(u, LANNISTER, name, commander=c, units=units, ncus=[])
                     for u, name, c, units in ((cat, "Jaime", "20115", JAIME), (dany, "Gregor", "20116", GREGOR)))
    assert register(cat, tid, f"army:{jaime.pk}", dany.username).status_code == 201
    assert register(dany, tid, f"army:{gregor.pk}", cat.username).status_code == 201
    # the only table would seat alys and bran both Stark: refused in words, not by the game's setup
    refused = api_client_for(org).post(f"/api/v1/tournaments/{tid}/start")
    assert refused.status_code == 409 and refused.json()["error"] == "cannot_pair", refused.json()
    assert refused.json()["detail"] == ("No table can be made: a table of two against two needs two Stark armies "
                                        "and two Lannister ones, and the armies brought do not allow it.")
    # with a Stark army and a team of no armies, the table is made: each team one army of each house
    ed, fay = make_user(), make_user()
    Registration.objects.filter(user__in=[cat, dany]).update(status=Registration.Status.WITHDRAWN)
    assert register(ed, tid, STARK, fay.username).status_code == 201
    assert register(fay, tid, None, ed.username).status_code == 201
    assert api_client_for(org).post(f"/api/v1/tournaments/{tid}/start").json()["status"] == "running"
    (table,) = tables_of(tid, 1)
    teams = table.game.options["teams"]
    for team in ("a", "b"):
        assert sorted(s.split("_")[0] for s in teams if teams[s] == team) == ["lannister", "stark"]
    assert table.game.state["multi"]["kind"] == "teams"
