"""Bad input on every API endpoint gets a 4xx in the one error format, never a 500, and changes
nothing."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, GameAction, Lobby
from tests.factories import api_client_for, make_game, make_lobby, make_user

pytestmark = pytest.mark.django_db

GARBAGE = [
    None,
    "not json at all",
    [],
    [1, 2],
    {"version": "zero", "action": {}},
    {"version": -1, "action": {"bid": 1}},
    {"version": 10**30, "action": {"bid": 1}},
    {"version": 0, "action": "march"},
    {"version": 0, "action": {"bid": "all"}},
    {"version": 0, "action": {"bid": -5}},
    {"version": 0, "action": {"place_orders": ["winterfell"]}},
    {"version": 0, "action": {"place_orders": {"winterfell": 7}}},
    {"version": 0, "action": {"place_orders": {"nowhere": "raid"}}},
    {"version": 0, "action": {"march": {"from": None, "moves": 3}}},
    {"version": True, "action": {"raven": "skip"}},
    {"seats": "six", "time_limit": [], "options": "tides"},
    {"seats": 4, "time_limit": 600, "options": {"tides_of_battle": "maybe"}},
    {"user": {"name": 1}, "seat": 12},
    {"seat": "x" * 5000, "password": ["a"], "invite": 5},
    {"name": None},
    {"name": "\x00"},
    {"username": [], "password": {}},
]


def endpoints(game: Game, lobby: Lobby) -> list[tuple[str, str]]:
    posts = [
        reverse("api-lobbies"),
        reverse("api-lobby-join", args=[lobby.id]),
        reverse("api-lobby-leave", args=[lobby.id]),
        reverse("api-lobby-kick", args=[lobby.id]),
        reverse("api-lobby-assign", args=[lobby.id]),
        reverse("api-lobby-cancel", args=[999999]),
        reverse("api-lobby-start", args=[lobby.id]),
        reverse("api-game-actions", args=[game.id]),
        reverse("api-game-actions", args=[999999]),
        reverse("api-game-concede", args=[999999]),
        reverse("api-tokens"),
        reverse("api-password-token"),
    ]
    gets = [
        reverse("api-lobbies") + "?seats_free=x&ranked=perhaps",
        reverse("api-lobbies") + "?max_time_limit=1e9",
        reverse("api-lobby", args=[999999]),
        reverse("api-game", args=[999999]),
        reverse("api-game-log", args=[999999]),
        reverse("api-game-fairness", args=[999999]),
        reverse("api-my-games") + "?awaiting=sometimes",
        "/api/v1/games/abc",
        "/api/v1/games/-1",
    ]
    return [("post", url) for url in posts] + [("get", url) for url in gets]


def assert_client_error(response, label):
    assert 400 <= response.status_code < 500, (label, response.status_code, response.content[:300])
    body = response.json()
    assert {"error", "detail", "fields"} <= set(body), (label, body)


def test_garbage_everywhere_is_a_4xx_in_the_error_format():
    game = make_game()
    player = game.seats.get(seat="stark").user
    lobby = make_lobby(creator=player)
    client = api_client_for(player)
    before = (Game.objects.get(pk=game.pk).version, GameAction.objects.count())
    for method, url in endpoints(game, lobby):
        if method == "get":
            assert_client_error(client.get(url), url)
            continue
        for payload in GARBAGE:
            if payload is None:
                response = client.post(url)
            elif isinstance(payload, str):
                response = client.post(url, data=payload, content_type="application/json")
            else:
                response = client.post(url, payload, format="json")
            label = f"POST {url} {payload!r:.80}"
            if response.status_code < 400:
                # A few payloads are acceptable for some endpoints (e.g. {} to leave); none may 500.
                assert response.status_code < 300, label
                continue
            assert_client_error(response, label)
    assert (Game.objects.get(pk=game.pk).version, GameAction.objects.count()) == before


def test_oversized_bodies_and_wrong_content_types_are_4xx():
    game = make_game()
    client = api_client_for(game.seats.get(seat="stark").user)
    url = reverse("api-game-actions", args=[game.id])
    assert_client_error(client.post(url, data=b"\xff\xfe", content_type="application/json"), "binary")
    assert_client_error(client.post(url, data="version=0", content_type="text/plain"), "text/plain")
    deep = {"version": 0, "action": {"place_orders": {}}}
    node = deep["action"]["place_orders"]
    for _ in range(50):
        node["x"] = {}
        node = node["x"]
    assert_client_error(client.post(url, deep, format="json"), "deep")


def test_unauthenticated_writes_are_401_everywhere(api):
    game = make_game()
    lobby = make_lobby()
    for method, url in endpoints(game, lobby):
        if method == "post" and "auth/token" not in url:
            assert api.post(url, {}, format="json").status_code == 401, url
    assert make_user() is not None
