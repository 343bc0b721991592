"""GET /api/v1/lobbies writes its rows without DRF's per-field machinery (games.serializers.lobby_rows,
issue 27); the schema documents LobbySerializer. The two must give the same JSON, field by field,
for lobbies of every shape: members with seats and decks, a password, computer seats, a rematch, a
minimum rating and reliability, options, and a bot creator. One lobby (GET /api/v1/lobbies/<id>, and the
answer to a change of it) is written the same way."""
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


def test_one_lobby_writes_what_the_serializer_documents():
    lobbies_of_every_shape()
    for lobby in Lobby.objects.all():
        read = APIClient().get(reverse("api-lobby", args=[lobby.pk])).json()
        expected = json.loads(json.dumps(LobbySerializer(lobby).data))
        assert read == expected and list(read) == list(expected)
    assert APIClient().get(reverse("api-lobby", args=[10**9])).status_code == 404


def test_the_list_reads_a_fixed_number_of_queries(django_assert_max_num_queries):
    lobbies_of_every_shape()
    for _ in range(5):
        make_lobby()
    with django_assert_max_num_queries(4):
        assert len(APIClient().get(reverse("api-lobbies")).json()["results"]) == 10



def test_the_pages_of_the_list_are_the_whole_list_cut_and_read_afresh():
    """The unfiltered list's first page (of any size) is read by queries compiled once per process
    (games.api.UnfilteredLobbies), a later page by the ORM: page after page, they are the whole list
    cut, each lobby with its own members; a lobby made or joined after is in the next read."""
    client = APIClient()
    assert client.get(reverse("api-lobbies")).json() == {"count": 0, "next": None, "previous": None, "results": []}
    lobbies_of_every_shape()
    whole = client.get(reverse("api-lobbies")).json()["results"]
    assert len(whole) == 5 and sum(len(row["members"]) for row in whole) == 6
    cut = [row for page in (1, 2, 3) for row in client.get(reverse("api-lobbies"), {"page_size": 2, "page": page}).json()["results"]]
    assert cut == whole
    assert client.get(reverse("api-lobbies"), {"page_size": 1}).json()["results"] == whole[:1]
    newest = make_lobby(name="Newest")
    do_join_lobby(newest.pk, make_user())
    again = client.get(reverse("api-lobbies"), {"page_size": 2}).json()
    assert again["count"] == 6 and [row["name"] for row in again["results"]] == ["Newest", whole[0]["name"]]
    assert len(again["results"][0]["members"]) == 2 and again["results"][1] == whole[0]
