"""Lobbies: create with validated settings, list and filter, join and leave, seat choice, kick,
cancel, start automatically when full, and private lobbies behind an invite link."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, Lobby
from tests.factories import api_client_for, make_lobby, make_user

pytestmark = pytest.mark.django_db

AGOT_3 = {"ruleset": "agot", "seats": 3, "time_limit": 3600}


def create(client, **fields):
    return client.post(reverse("api-lobbies"), {**AGOT_3, **fields}, format="json")


def join(user, lobby_id, ip="127.0.0.1", **fields):
    return api_client_for(user).post(reverse("api-lobby-join", args=[lobby_id]), fields, format="json",
                                     REMOTE_ADDR=ip)


def test_creating_a_lobby_seats_the_creator():
    creator = make_user()
    response = create(api_client_for(creator), name="Friday night", ranked=True)
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "Friday night" and body["ranked"] and body["seats"] == 3 and body["seats_free"] == 2
    assert [m["user"] for m in body["members"]] == [creator.username]
    assert body["status"] == "open" and body["game"] is None


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"seats": 2}, "seats"),
        ({"seats": 7}, "seats"),
        ({"time_limit": 60}, "time_limit"),
        ({"time_limit": 8 * 24 * 3600}, "time_limit"),
        ({"ruleset": "chess"}, "ruleset"),
        ({"house_choice": "auction"}, "house_choice"),
        ({"options": {"no_such_option": True}}, "options"),
        ({"min_reliability": 2}, "min_reliability"),
    ],
)
def test_bad_lobby_settings_get_field_errors_and_create_nothing(fields, field):
    response = create(api_client_for(make_user()), **fields)
    assert response.status_code == 400, response.json()
    assert field in response.json()["fields"]
    assert not Lobby.objects.exists()


def test_time_limits_from_two_minutes_to_seven_days_are_accepted():
    client = api_client_for(make_user())
    assert create(client, time_limit=120).status_code == 201
    assert create(client, time_limit=7 * 24 * 3600).status_code == 201


def test_list_shows_open_public_lobbies_with_filters():
    ranked = make_lobby(ranked=True, time_limit=600)
    casual = make_lobby(seat_count=6, time_limit=86400)
    make_lobby(private=True)
    make_lobby(creator=make_user()).delete()
    client = api_client_for(make_user())
    ids = lambda **q: [lobby["id"] for lobby in client.get(reverse("api-lobbies"), q).json()["results"]]  # noqa: E731
    assert set(ids()) == {ranked.id, casual.id}
    assert ids(ranked="true") == [ranked.id]
    assert ids(ranked="false") == [casual.id]
    assert ids(seats_free=3) == [casual.id]
    assert ids(max_time_limit=3600) == [ranked.id]
    assert ids(ruleset="btwixt") == []
    assert client.get(reverse("api-lobbies"), {"seats_free": "many"}).status_code == 400


def test_the_lobby_starts_a_game_when_the_last_seat_is_taken():
    lobby = make_lobby()
    first, second = make_user(), make_user()
    assert join(first, lobby.id).json()["status"] == "open"
    body = join(second, lobby.id).json()
    assert body["status"] == "started"
    game = Game.objects.get(pk=body["game"])
    players = {s.user.username for s in game.seats.all()}
    assert players == {lobby.creator.username, first.username, second.username}
    assert sorted(game.seat_names()) == ["baratheon", "lannister", "stark"]
    assert game.version == 0 and game.is_active() and len(game.seed_hash) == 64


def test_a_user_cannot_sit_twice():
    lobby = make_lobby()
    response = join(lobby.creator, lobby.id)
    assert response.status_code == 409
    assert response.json()["error"] == "already_joined"


def test_a_full_lobby_without_auto_start_waits_for_its_creator():
    lobby = make_lobby(auto_start=False)
    join(make_user(), lobby.id)
    join(make_user(), lobby.id)
    outsider = make_user()
    assert join(outsider, lobby.id).json()["error"] == "lobby_full"
    assert api_client_for(outsider).post(reverse("api-lobby-start", args=[lobby.id])).status_code == 403
    response = api_client_for(lobby.creator).post(reverse("api-lobby-start", args=[lobby.id]))
    assert response.json()["status"] == "started"


def test_the_creator_cannot_start_with_free_seats():
    lobby = make_lobby(auto_start=False)
    response = api_client_for(lobby.creator).post(reverse("api-lobby-start", args=[lobby.id]))
    assert response.status_code == 409 and response.json()["error"] == "lobby_not_full"


def test_leaving_frees_the_seat():
    lobby = make_lobby()
    player = make_user()
    join(player, lobby.id)
    response = api_client_for(player).post(reverse("api-lobby-leave", args=[lobby.id]))
    assert response.json()["seats_free"] == 2
    assert api_client_for(player).post(reverse("api-lobby-leave", args=[lobby.id])).status_code == 409


def test_the_creator_kicks_and_cancels_and_others_cannot():
    lobby = make_lobby()
    player = make_user()
    join(player, lobby.id)
    assert api_client_for(player).post(
        reverse("api-lobby-kick", args=[lobby.id]), {"user": lobby.creator.username}, format="json"
    ).status_code == 403
    kicked = api_client_for(lobby.creator).post(
        reverse("api-lobby-kick", args=[lobby.id]), {"user": player.username}, format="json"
    )
    assert [m["user"] for m in kicked.json()["members"]] == [lobby.creator.username]
    assert api_client_for(player).post(reverse("api-lobby-cancel", args=[lobby.id])).status_code == 403
    cancelled = api_client_for(lobby.creator).post(reverse("api-lobby-cancel", args=[lobby.id]))
    assert cancelled.json()["status"] == "cancelled"
    assert join(player, lobby.id).json()["error"] == "lobby_closed"


def test_players_pick_their_houses_in_join_order():
    lobby = make_lobby(house_choice="pick", seat="stark")
    arya, jaime = make_user(), make_user()
    assert join(arya, lobby.id).json()["fields"]["seat"]  # a seat must be picked
    taken = join(arya, lobby.id, seat="stark")
    assert taken.status_code == 409 and taken.json()["error"] == "seat_taken"
    assert join(arya, lobby.id, seat="greyjoy").status_code == 400  # not in a 3-player game
    join(arya, lobby.id, seat="baratheon")
    body = join(jaime, lobby.id, seat="lannister").json()
    game = Game.objects.get(pk=body["game"])
    assert {s.seat: s.user.username for s in game.seats.all()} == {
        "stark": lobby.creator.username, "baratheon": arya.username, "lannister": jaime.username
    }


def test_the_creator_assigns_houses():
    lobby = make_lobby(house_choice="assign", auto_start=False)
    arya, jaime = make_user(), make_user()
    join(arya, lobby.id)
    join(jaime, lobby.id)
    creator = api_client_for(lobby.creator)
    url = reverse("api-lobby-assign", args=[lobby.id])
    creator.post(url, {"user": arya.username, "seat": "stark"}, format="json")
    creator.post(url, {"user": jaime.username, "seat": "stark"}, format="json")  # moves stark to jaime
    creator.post(url, {"user": arya.username, "seat": "baratheon"}, format="json")
    assert creator.post(url, {"user": arya.username, "seat": "tyrell"}, format="json").status_code == 400
    body = creator.post(reverse("api-lobby-start", args=[lobby.id])).json()
    seats = {s.user.username: s.seat for s in Game.objects.get(pk=body["game"]).seats.all()}
    assert seats[arya.username] == "baratheon" and seats[jaime.username] == "stark"
    assert seats[lobby.creator.username] == "lannister"


def test_random_house_choice_gives_every_seat_to_someone():
    lobby = make_lobby(seat_count=4)
    for _ in range(3):
        body = join(make_user(), lobby.id).json()
    game = Game.objects.get(pk=body["game"])
    assert sorted(game.seat_names()) == ["baratheon", "greyjoy", "lannister", "stark"]
    assert all(s.user is not None for s in game.seats.all())


def test_private_lobbies_need_the_invite_link_and_the_password():
    creator = make_user()
    created = create(api_client_for(creator), private=True, password="winter")
    lobby_id, invite = created.json()["id"], created.json()["invite_token"]
    stranger = make_user()
    detail = reverse("api-lobby", args=[lobby_id])
    assert api_client_for(stranger).get(detail).status_code == 404
    assert join(stranger, lobby_id, password="winter").status_code == 404
    seen = api_client_for(stranger).get(detail, {"invite": invite}).json()
    assert seen["has_password"] and "invite_token" not in seen
    assert join(stranger, lobby_id, invite=invite).status_code == 403
    assert join(stranger, lobby_id, invite=invite, password="summer").status_code == 403
    assert join(stranger, lobby_id, invite=invite, password="winter").status_code == 200
    # a member sees the lobby without the link
    assert api_client_for(stranger).get(detail).status_code == 200
    assert lobby_id not in [lobby["id"] for lobby in api_client_for(stranger).get(reverse("api-lobbies")).json()["results"]]


def test_anonymous_visitors_may_list_but_not_create(api):
    make_lobby()
    assert api.get(reverse("api-lobbies")).status_code == 200
    assert api.post(reverse("api-lobbies"), AGOT_3, format="json").status_code == 401


def test_home_page_lists_open_lobbies(client):
    lobby = make_lobby(name="Open table")
    make_lobby(name="Hidden table", private=True)
    content = client.get(reverse("home")).content.decode()
    assert "Open table" in content and "Hidden table" not in content
    assert lobby.creator.username in content


def test_btwixt_players_pick_any_leader_and_the_rest_are_drawn_from_all_nine():
    """B9: a leader is any of the set's nine, not only the first ones of the list."""
    lobby = make_lobby(ruleset="btwixt", house_choice="pick", seat="melisandre")
    join(make_user(), lobby.id, seat="littlefinger")
    body = join(make_user(), lobby.id, seat="jon_snow").json()
    game = Game.objects.get(pk=body["game"])
    assert game.seat_names() == ["jon_snow", "melisandre", "littlefinger"]  # the set's seating order
    assert game.state["seats"] == game.seat_names()  # the engine seats them clockwise in that order


def test_random_btwixt_seats_come_from_every_leader():
    seen = set()
    for _ in range(6):
        lobby = make_lobby(ruleset="btwixt")
        join(make_user(), lobby.id)
        body = join(make_user(), lobby.id).json()
        seen |= set(Game.objects.get(pk=body["game"]).seat_names())
    assert len(seen) > 3  # not always the first three leaders


def test_lobby_passwords_are_throttled_like_log_ins_per_user_and_lobby(settings):
    """30 wrong guesses used to get 30 x 403: now the fifth wrong guess locks that user out of that
    lobby's password (429 in the error shape, Retry-After), even with the right password; another
    user, or the same user at another lobby, is not affected."""
    settings.LOBBY_PASSWORD_FAILURES = 5
    creator = make_user()
    created = create(api_client_for(creator), password="winter")
    lobby_id = created.json()["id"]
    other_lobby = create(api_client_for(make_user()), password="spring").json()["id"]
    guesser = make_user()
    for n in range(5):
        assert join(guesser, lobby_id, password=f"guess{n}").status_code == 403
    refused = join(guesser, lobby_id, password="winter")
    assert refused.status_code == 429
    body = refused.json()
    assert body["error"] == "throttled" and "Too many wrong passwords" in body["detail"]
    assert refused["Retry-After"] == str(settings.LOGIN_FAILURE_WINDOW_SECONDS)
    assert not Lobby.objects.get(pk=lobby_id).members.filter(user=guesser).exists()
    assert join(guesser, other_lobby, password="spring").status_code == 200
    assert join(make_user(), lobby_id, password="winter").status_code == 200


def test_many_accounts_guessing_one_lobby_slow_it_down_but_never_lock_it(settings):
    """Each account under its own five guesses: past LOBBY_PASSWORD_CEILING wrong guesses for the lobby
    from every account and address together, the lobby takes one guess per LOGIN_SLOWDOWN_SECONDS, the
    others are told to try again in N seconds (429, Retry-After N); when the period ends the player the
    creator told the password gets in."""
    from django.core.cache import cache

    from games.services.lobbies import _lobby_slow_key

    settings.LOBBY_PASSWORD_FAILURES = 5
    settings.LOBBY_PASSWORD_FAILURES_PER_IP = 100
    settings.LOBBY_PASSWORD_CEILING = 4
    settings.LOGIN_SLOWDOWN_SECONDS = 30
    lobby_id = create(api_client_for(make_user()), password="winter").json()["id"]
    for n in range(4):
        assert join(make_user(), lobby_id, ip=f"10.1.0.{n}", password=f"guess{n}").status_code == 403
    assert join(make_user(), lobby_id, ip="10.1.1.1", password="guess").status_code == 403  # the period's guess
    friend = make_user()
    slowed = join(friend, lobby_id, ip="10.1.2.2", password="winter")
    assert slowed.status_code == 429
    assert slowed["Retry-After"] == "30"
    body = slowed.json()
    assert body["error"] == "throttled" and "Try again in 30 seconds" in body["detail"]
    assert not Lobby.objects.get(pk=lobby_id).members.filter(user=friend).exists()
    cache.delete(_lobby_slow_key(lobby_id))  # the period is over (its key expired)
    assert join(friend, lobby_id, ip="10.1.2.2", password="winter").status_code == 200
    assert Lobby.objects.get(pk=lobby_id).members.filter(user=friend).exists()


def test_many_accounts_guessing_from_one_address_lock_that_address(settings):
    """LOBBY_PASSWORD_FAILURES_PER_IP wrong guesses from one address, whatever the accounts and
    lobbies, lock lobby passwords from that address; another address is not affected."""
    settings.LOBBY_PASSWORD_FAILURES = 5
    settings.LOBBY_PASSWORD_FAILURES_PER_IP = 3
    first = create(api_client_for(make_user()), password="winter").json()["id"]
    second = create(api_client_for(make_user()), password="spring").json()["id"]
    assert join(make_user(), first, ip="10.2.0.1", password="a").status_code == 403
    assert join(make_user(), second, ip="10.2.0.1", password="b").status_code == 403
    assert join(make_user(), first, ip="10.2.0.1", password="c").status_code == 403
    refused = join(make_user(), second, ip="10.2.0.1", password="spring")
    assert refused.status_code == 429 and refused.json()["error"] == "throttled"
    assert join(make_user(), second, ip="10.2.0.2", password="spring").status_code == 200


def test_the_lobby_page_counts_the_client_address_too(client, settings):
    settings.LOBBY_PASSWORD_FAILURES_PER_IP = 2
    lobby_id = create(api_client_for(make_user()), password="winter").json()["id"]
    url = reverse("web-lobby-action", args=[lobby_id, "join"])
    for _ in range(2):
        client.force_login(make_user())
        client.post(url, {"password": "summer"}, REMOTE_ADDR="10.3.0.1")
    newcomer = make_user()
    client.force_login(newcomer)
    page = client.post(url, {"password": "winter"}, REMOTE_ADDR="10.3.0.1", follow=True)
    assert b"Too many wrong passwords for this lobby" in page.content
    assert not Lobby.objects.get(pk=lobby_id).members.filter(user=newcomer).exists()


def test_the_lobby_page_shows_the_throttle_sentence(client, settings):
    settings.LOBBY_PASSWORD_FAILURES = 2
    lobby_id = create(api_client_for(make_user()), password="winter").json()["id"]
    guesser = make_user()
    client.force_login(guesser)
    url = reverse("web-lobby-action", args=[lobby_id, "join"])
    for _ in range(2):
        client.post(url, {"password": "summer"})
    page = client.post(url, {"password": "winter"}, follow=True)
    assert b"Too many wrong passwords for this lobby" in page.content
    assert not Lobby.objects.get(pk=lobby_id).members.filter(user=guesser).exists()
