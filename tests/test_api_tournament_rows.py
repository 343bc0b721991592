"""GET /api/v1/tournaments writes its rows without DRF's per-field machinery
(tournaments.serializers.tournament_rows, issue 27); the schema documents TournamentSerializer. The two
must give the same JSON, field by field, for events of every shape: each format and status, dates set
and unset, a previous season, co-organizers, requirements, options and custom points."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import make_user
from tournaments.models import Registration, Tournament
from tournaments.serializers import TournamentSerializer

pytestmark = pytest.mark.django_db


def events_of_every_shape() -> None:
    now = timezone.now()
    organizer, co, bot = make_user(), make_user(), make_user(is_bot=True)
    plain = Tournament.objects.create(name="Plain", organizer=organizer)
    Registration.objects.create(tournament=plain, user=make_user())
    Registration.objects.create(tournament=plain, user=make_user(), status=Registration.Status.WITHDRAWN)
    full = Tournament.objects.create(
        name="Full <b>", description="Two lines\nand “quotes”", format=Tournament.Format.LEAGUE, ruleset="btwixt",
        seats_per_table=4, min_seats_per_table=4, division_size=8, promotion=1, season=2, previous=plain,
        scoring=Tournament.Scoring.LEAGUE, placement_points=[5, 3.5, 1], win_bonus=7,
        tiebreakers=["wins", "castles"], time_limit=600, ranked=True, options={"advanced": True},
        max_consecutive_timeouts=0, max_no_shows=5, registration_opens=now - timedelta(days=1),
        registration_closes=now + timedelta(days=2, microseconds=123456), check_in_required=True, capacity=16,
        min_rating=1400, min_reliability=0.75, organizer=bot, auto_advance=False, lock_votes=False,
        seed=2**40 + 3, status=Tournament.Status.RUNNING, current_round=2, started_at=now)
    full.co_organizers.add(co, organizer)
    Tournament.objects.create(name="Done", format=Tournament.Format.ELIMINATION, organizer=co,
                              status=Tournament.Status.FINISHED, current_round=3, started_at=now - timedelta(hours=5),
                              finished_at=now, min_reliability=1)


def test_the_list_writes_what_the_serializer_documents():
    events_of_every_shape()
    body = APIClient().get(reverse("api-tournaments")).json()
    listed = {row["id"]: row for row in body["results"]}
    assert len(listed) == 3
    documented = TournamentSerializer(Tournament.objects.filter(pk__in=listed), many=True).data
    for expected in json.loads(json.dumps(documented)):
        assert listed[expected["id"]] == expected
        assert list(listed[expected["id"]]) == list(expected)  # the same fields in the same order
    assert {row["name"]: row["registered"] for row in listed.values()} == {"Plain": 1, "Full <b>": 0, "Done": 0}


def test_one_tournament_is_written_as_the_serializer_documents():
    """GET /api/v1/tournaments/{id} (and the answer to a change) is written from values too (issue 27,
    thirteenth round), the same JSON as TournamentSerializer's, bots-only events included."""
    events_of_every_shape()
    Tournament.objects.create(name="Bots", organizer=make_user(is_bot=True), bots_only=True)
    client = APIClient()
    for event in Tournament.objects.all():
        answer = client.get(reverse("api-tournament", args=[event.pk])).json()
        expected = json.loads(json.dumps(TournamentSerializer(event).data))
        assert answer == expected and list(answer) == list(expected)
    assert client.get(reverse("api-tournament", args=[10**6])).status_code == 404


def event_with_rounds() -> Tournament:
    """A running event of two rounds: finished and playing tables, a table without its game yet, seats with
    and without points, places, a no-show and an abandoned seat, teams, and byes (two in one round)."""
    from tests.factories import make_game
    from tournaments.models import Round, Table, TableSeat

    now = timezone.now()
    t = Tournament.objects.create(name="Rounds", organizer=make_user(), seats_per_table=3, status=Tournament.Status.RUNNING,
                                  current_round=2, started_at=now - timedelta(hours=2))
    regs = [Registration.objects.create(tournament=t, user=make_user(), seed_rank=n + 1, team=n % 2 or None)
            for n in range(8)]
    first = Round.objects.create(tournament=t, number=1, status=Round.Status.FINISHED, started_at=now - timedelta(hours=2),
                                 finished_at=now - timedelta(hours=1))
    second = Round.objects.create(tournament=t, number=2, started_at=now)
    first.byes.add(regs[7], regs[6])
    second.byes.add(regs[0])
    for rnd, number, players, status in ((first, 2, regs[3:6], Table.Status.FINISHED),
                                         (first, 1, regs[0:3], Table.Status.FINISHED),
                                         (second, 1, regs[1:4], Table.Status.PLAYING),
                                         (second, 2, regs[4:7], Table.Status.PLAYING)):
        game = make_game(3, users=[r.user for r in players]) if number == 1 else None
        table = Table.objects.create(round=rnd, number=number, game=game, status=status,
                                     finished_at=now if status == Table.Status.FINISHED else None, division=number - 1)
        finished = status == Table.Status.FINISHED
        for position, reg in reversed(list(enumerate(players))):
            TableSeat.objects.create(table=table, registration=reg, seat=f"seat{position}", position=position,
                                     place=position + 1 if finished else None, points=3 - position if finished else None,
                                     castles=position, supply=2 * position, time_used=12.5 * position,
                                     abandoned=finished and position == 2, no_show=not finished and position == 1)
    return t


def test_the_rounds_and_standings_write_what_their_serializers_document():
    from django.db.models import Prefetch

    from tournaments.models import Round, Table, TableSeat
    from tournaments.serializers import RoundSerializer, StandingSerializer
    from tournaments.services import standings

    t = event_with_rounds()
    # the rounds as the serializer reads them (the ORM's instances, the way the API read them before)
    seats = TableSeat.objects.select_related("registration__user").order_by("position")
    tables = Table.objects.prefetch_related(Prefetch("seats", queryset=seats)).order_by("number")
    rounds_of = (Round.objects.filter(tournament=t).order_by("number")
                 .prefetch_related(Prefetch("tables", queryset=tables), Prefetch("byes", Registration.objects.select_related("user"))))
    client = APIClient()
    rounds = client.get(f"/api/v1/tournaments/{t.pk}/rounds").json()
    documented = json.loads(json.dumps(RoundSerializer(rounds_of, many=True).data))
    assert rounds == documented
    assert [list(r) for r in rounds] == [list(r) for r in documented]  # the same fields in the same order
    assert [list(table) for r in rounds for table in r["tables"]] == [list(table) for r in documented for table in r["tables"]]
    assert rounds[0]["byes"] == [t.registrations.get(seed_rank=7).user.username, t.registrations.get(seed_rank=8).user.username]
    assert [table["number"] for r in rounds for table in r["tables"]] == [1, 2, 1, 2]
    assert [seat["position"] for seat in rounds[0]["tables"][0]["seats"]] == [0, 1, 2]
    table_standings = client.get(f"/api/v1/tournaments/{t.pk}/standings").json()
    assert table_standings == json.loads(json.dumps(StandingSerializer(standings(t), many=True).data))
    assert len(table_standings) == 8 and list(table_standings[0]) == list(StandingSerializer().fields)


def test_the_lists_filters_and_pages_read_what_the_orm_reads():
    """The list's page and count are compiled once per choice of filters (issue 27, thirteenth round): each
    choice reads its own events, newest first, a page at a time, and an event made afterwards is listed."""
    events_of_every_shape()
    client = APIClient()
    choices = [{}, {"status": "running"}, {"format": "league"}, {"ruleset": "btwixt"},
               {"status": "finished", "format": "elimination"}, {"status": "running", "ruleset": "agot"}]
    for _ in range(2):  # the second time by the queries compiled the first
        for chosen in choices:
            expected = list(Tournament.objects.filter(bots_only=False, **chosen).order_by("-created_at", "-id")
                            .values_list("id", flat=True))
            seen, page = [], client.get(reverse("api-tournaments"), {**chosen, "page_size": 1}).json()
            assert page["count"] == len(expected)
            while True:
                seen += [row["id"] for row in page["results"]]
                if not page["next"]:
                    break
                page = client.get(page["next"]).json()
            assert seen == expected, chosen
        Tournament.objects.create(name="Later", organizer=make_user(), ruleset="btwixt")


def test_registrations_are_written_as_the_serializer_documents_for_each_reader():
    """GET /api/v1/tournaments/{id}/registrations is written from values (registration_rows, issue 27,
    thirteenth round): the same JSON as RegistrationSerializer's for registrations of every shape (a ready-made
    and a saved deck, a starter and a saved army, a replacement, a partner and team, no seed yet), read by
    their owner, another player and a visitor, with deck lists closed and open."""
    from tests.factories import api_client_for
    from tournaments.serializers import RegistrationSerializer

    owner, other, partner = make_user(), make_user(), make_user()
    for open_lists in (False, True):
        t = Tournament.objects.create(name="Regs", organizer=make_user(), options={"open_decklists": open_lists})
        saved = {"ref": "deck:7", "name": "My <deck>", "faction": "stark", "agenda": "fealty",
                 "plots": ["a", "b"], "draw": ["c"]}
        army = {"ref": "army:3", "name": "Mine", "faction": "lannister", "points": 40, "list": {"units": ["x"]}}
        first = Registration.objects.create(tournament=t, user=owner, deck=saved, army=army, seed_rank=2, rating=1612.5)
        Registration.objects.create(tournament=t, user=make_user(), deck="core_stark", replaces=first, partner=partner,
                                    team=1, status=Registration.Status.CHECKED_IN, no_shows=1, division=2)
        Registration.objects.create(tournament=t, user=partner, army={"faction": "stark", "ref": "list_stark_30",
                                                                     "starter": True}, team=1, seed_rank=1)
        Registration.objects.create(tournament=t, user=other, status=Registration.Status.WITHDRAWN)
        url = f"/api/v1/tournaments/{t.pk}/registrations"
        for reader, client in ((owner, api_client_for(owner)), (other, api_client_for(other)), (None, APIClient())):
            answer = client.get(url).json()
            viewer = reader if reader is not None else AnonymousUser()
            qs = Registration.objects.filter(tournament=t).select_related("user", "replaces__user", "partner")
            expected = json.loads(json.dumps(RegistrationSerializer(qs, many=True, context={
                "tournament": t, "viewer": viewer}).data))
            assert answer == expected and [list(row) for row in answer] == [list(row) for row in expected]
        mine = next(r for r in api_client_for(owner).get(url).json() if r["user"] == owner.username)
        assert mine["deck"]["name"] == "My <deck>" and mine["army"]["list"] == {"units": ["x"]}
        theirs = next(r for r in api_client_for(other).get(url).json() if r["user"] == owner.username)
        assert "name" not in theirs["deck"] and ("plots" in theirs["deck"]) is open_lists and "list" not in theirs["army"]
