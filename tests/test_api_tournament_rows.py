"""GET /api/v1/tournaments writes its rows without DRF's per-field machinery
(tournaments.serializers.tournament_rows, issue 27); the schema documents TournamentSerializer. The two
must give the same JSON, field by field, for events of every shape: each format and status, dates set
and unset, a previous season, co-organizers, requirements, options and custom points."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
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
