"""GET /api/v1/lobbies writes its rows without DRF's per-field machinery (games.serializers.lobby_rows,
issue 27); the schema documents LobbySerializer. The two must give the same JSON, field by field,
for lobbies of every shape: members with seats and decks, a password, computer seats, a rematch, a
minimum rating and reliability, options, and a bot creator."""
from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Lobby
from games.serializers import LobbySerializer
from games.services.lobbies import do_join_lobby
from tests.factories import make_game, make_lobby, make_user

pytestmark = pytest.mark.django_db


def lobbies_of_every_shape() -> None:
    make_lobby()
    bot = make_user(is_bot=True)
    full = make_lobby(bot, name="Bots welcome", ranked=True, seat_count=4, seat="stark", house_choice="pick")
    do_join_lobby(full.pk, make_user(), seat="lannister")
    make_lobby(password="secret words", min_rating=1400, min_reliability=0.75, time_limit=600,
               clock_bank=3600, clock_increment=20, max_consecutive_timeouts=0, private_chat=False,
               spectator_chat=False, auto_start=False)
    make_lobby(ruleset="lcg", seat_count=2, decks=["secrets_and_schemes", "secrets_and_schemes"])
    rematch = make_lobby(computer_seats=1, fill_with_computer=True, options={"tides_of_battle": True})
    Lobby.objects.filter(pk=rematch.pk).update(rematch_of=make_game(3))


def test_the_list_writes_what_the_serializer_documents():
    lobbies_of_every_shape()
    body = APIClient().get(reverse("api-lobbies")).json()
    listed = {row["id"]: row for row in body["results"]}
    assert len(listed) == 5
    documented = LobbySerializer(Lobby.objects.filter(pk__in=listed), many=True).data
    for expected in json.loads(json.dumps(documented)):
        assert listed[expected["id"]] == expected
        assert list(listed[expected["id"]]) == list(expected)  # the same fields in the same order


def test_the_list_reads_a_fixed_number_of_queries(django_assert_max_num_queries):
    lobbies_of_every_shape()
    for _ in range(5):
        make_lobby()
    with django_assert_max_num_queries(4):
        assert len(APIClient().get(reverse("api-lobbies")).json()["results"]) == 10

