"""Miniatures tournaments of one against one (league, elimination and Swiss) take armies (issue 33): an army fixes
its player's house, and two armies of one house meet in a mirror match, seated as the house's two seats (`stark` + `stark_2`);
a player of no army plays the house the other's army leaves. The tables' games are played (bots_only) to their end
and the event finishes."""
from __future__ import annotations

import copy

import pytest

from games.engine.minis import armies as rules
from games.models import Army
from tests.factories import api_client_for, make_user
from tournaments import pairing as P
from tournaments import services
from tournaments.models import Table, Tournament
from tournaments.services import TournamentSettings

pytestmark = pytest.mark.django_db

STARK, LANNISTER = "list_stark_30", "list_lannister_30"


def saved(user, key=STARK, name="Wolves", ncus: int | None = None) -> Army:
    army = copy.deepcopy(rules.starter_armies()[key])
    return Army.objects.create(owner=user, name=name, faction=army["faction"], game_size=army["game_size"],
                               commander=army["commander"], units=army["units"],
                               ncus=army["ncus"][:ncus] if ncus is not None else army["ncus"])


def event(fmt: str, **fields) -> Tournament:
    return services.do_create_tournament(make_user(), TournamentSettings(
        name="Riverrun", ruleset="minis", format=fmt, seats_per_table=2, time_limit=3600, bots_only=True,
        options={"game_size": 30}, **fields))


def register(t: Tournament, user, army: str = ""):
    return services.do_register(t.pk, user, army=army)


def seats_of(table: Table) -> dict[int, str]:
    return {s.registration.user_id: s.seat for s in table.seats.select_related("registration")}


@pytest.mark.slow_once  # whole games: long; the shorter tests here cover their database paths on both CI passes
def test_a_league_plays_a_mirror_match_of_two_stark_armies_and_finishes():
    t = event("league", division_size=3)
    alys, bran, cat = make_user(), make_user(), make_user()
    north, wolves = saved(alys, name="North"), saved(bran, name="Wolves", ncus=1)
    register(t, alys, f"army:{north.pk}")
    register(t, bran, f"army:{wolves.pk}")
    register(t, cat)  # no army: the table gives a house
    services.do_start(t.pk, t.organizer)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    tables = list(Table.objects.filter(round__tournament=t).select_related("game"))
    assert len(tables) == 3  # the round robin of three
    by_pair = {frozenset(seats_of(table)): table for table in tables}
    mirror = by_pair[frozenset({alys.pk, bran.pk})]
    seated = seats_of(mirror)
    assert sorted(seated.values()) == ["stark", "stark_2"]  # the house's two seats
    game = mirror.game
    assert game.seat_names() == ["stark", "stark_2"] and game.state["seats"] == ["stark", "stark_2"]
    lists = {alys.pk: rules.engine_list(north.army()), bran.pk: rules.engine_list(wolves.army())}
    assert game.options["armies"] == {seat: lists[user] for user, seat in seated.items()}
    assert {s.seat: s.position for s in mirror.seats.all()} == {"stark": 0, "stark_2": 1}
    for other in (alys, bran):  # the player of no army takes the house the Stark army leaves
        assert seats_of(by_pair[frozenset({other.pk, cat.pk})]) == {other.pk: "stark", cat.pk: "lannister"}
    for table in tables:
        assert not table.game.is_active() and table.game.state["over"]
    standings = services.standings(t)
    assert len(standings) == 3 and sum(s.line.wins for s in standings) == sum(
        1 for table in tables if table.game.state["winner"] is not None)


@pytest.mark.slow_once  # whole games: long; the shorter tests here cover their database paths on both CI passes
def test_an_elimination_of_stark_armies_plays_mirror_matches_to_its_final():
    t = event("elimination", advance_per_table=1)
    users = [make_user() for _ in range(4)]
    armies = {}
    for i, user in enumerate(users):
        army = saved(user, name=f"Army {i}", ncus=None if i % 2 else 1)
        armies[user.pk] = rules.engine_list(army.army())
        register(t, user, f"army:{army.pk}")
    services.do_start(t.pk, t.organizer)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    rounds = list(t.round_set.order_by("number"))
    assert [r.tables.count() for r in rounds] == [2, 1]
    for rnd in rounds:
        for table in rnd.tables.select_related("game"):
            seated = seats_of(table)
            assert sorted(seated.values()) == ["stark", "stark_2"]
            assert table.game.options["armies"] == {seat: armies[user] for user, seat in seated.items()}
            assert table.game.state["over"]
    final = rounds[-1].tables.get()
    winner = final.seats.get(place=1).registration
    assert services.standings(t)[0].registration == winner


def test_registering_an_army_in_a_league_or_an_elimination_is_accepted_through_the_api():
    for fmt in ("league", "elimination"):
        t = event(fmt, **({"advance_per_table": 1} if fmt == "elimination" else {}))
        user = make_user()
        response = api_client_for(user).post(f"/api/v1/tournaments/{t.pk}/register",
                                             {"army": f"army:{saved(user).pk}"}, format="json")
        assert response.status_code == 201, response.json()
        assert response.json()["army"]["faction"] == "stark"
        lion = make_user()
        assert api_client_for(lion).post(f"/api/v1/tournaments/{t.pk}/register", {"army": LANNISTER},
                                         format="json").status_code == 201


@pytest.mark.parametrize(("fixed", "houses", "seats"), [
    ({}, ("lannister", "stark"), ("lannister", "stark")),  # no army: the pairing's houses
    ({1: "stark", 2: "stark"}, ("stark", "lannister"), ("stark", "stark_2")),  # a mirror match
    ({1: "stark", 2: "stark"}, ("lannister", "stark"), ("stark_2", "stark")),  # the pairing's first seat kept
    ({1: "lannister", 2: "lannister"}, ("stark", "lannister"), ("lannister", "lannister_2")),
    ({1: "lannister", 2: "stark"}, ("stark", "lannister"), ("lannister", "stark")),
    ({2: "lannister"}, ("lannister", "stark"), ("stark", "lannister")),  # no army: the other house
    ({1: "stark"}, ("lannister", "stark"), ("stark", "lannister")),
])
def test_a_two_player_table_is_seated_by_its_armies(fixed, houses, seats):
    assert P.duel_seats((1, 2), houses, fixed) == seats


@pytest.mark.parametrize("fmt", ["league", "swiss"])
@pytest.mark.parametrize("language", ["en", "es"])
def test_a_registration_form_offers_armies_and_says_a_mirror_match_may_be_played(language, fmt):
    from django.test import Client
    from django.urls import reverse

    t = event(fmt)
    user = make_user()
    north = saved(user, name="North")
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    form = page[page.index('/register"'):]
    form = form[:form.index("</form>")]
    assert f'value="army:{north.pk}"' in form and f'value="{STARK}"' in form and f'value="{LANNISTER}"' in form
    said = {"en": "two armies of one house meet as that house's two armies (a mirror match)",
            "es": "dos ejércitos de una misma casa se enfrentan como los dos ejércitos de esa casa (una partida espejo)"}
    assert said[language] in form
    assert "tables pair a Stark army with a Lannister one" not in form
    client.post(reverse("tournament-action", args=[t.pk, "register"]), {"army": f"army:{north.pk}"})
    assert t.registrations.get(user=user).army["name"] == "North"
