"""The web pages (web/): lobbies, my games, the game page shell, the board data and replays."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine import get_ruleset
from games.models import Game, Lobby
from games.services.play import do_create_game, do_submit_action
from tests.factories import make_game, make_lobby, make_user

pytestmark = pytest.mark.django_db


def test_board_data_has_every_area_with_geometry_and_the_house_cards(client):
    data = client.get(reverse("web-board-data")).json()
    assert len(data["areas"]) == 58
    winterfell = data["areas"]["winterfell"]
    assert winterfell["structure"] == "stronghold" and winterfell["home_of"] == "stark"
    assert len(winterfell["outline"]) >= 3 and len(winterfell["center"]) == 2
    assert {a["type"] for a in data["areas"].values()} == {"land", "sea", "port"}
    assert data["house_cards"]["eddard_stark"]["strength"] == 4


def test_game_page_is_a_shell_with_the_scripts(logged_in, user):
    game = make_game(users=[user, make_user(), make_user()])
    content = logged_in.get(reverse("web-game", args=[game.pk])).content.decode()
    assert 'id="board"' in content and "js/game.js" in content and "js/board.js" in content
    assert f'data-seat="{game.seat_for(user).seat}"' in content
    # no CDN: every script and style comes from our static files
    assert not re.search(r'<script[^>]+src="(https?:)?//', content)
    assert not re.search(r'<link[^>]+href="(https?:)?//', content)


def test_private_game_page_is_a_404_for_others(client):
    game = make_game(private=True)
    assert client.get(reverse("web-game", args=[game.pk])).status_code == 404


def test_game_page_holds_no_state_so_no_secret(logged_in, user):
    game = make_game(users=[user, make_user(), make_user()])
    other = next(s for s in game.seat_names() if s != game.seat_for(user).seat)
    engine = get_ruleset("agot")
    orders = engine.default_action(game.state, other)
    do_submit_action(game.pk, game.seats.get(seat=other).user, action=orders, version=game.version)
    content = logged_in.get(reverse("web-game", args=[game.pk])).content.decode()
    for token in set(orders["place_orders"].values()):
        assert token not in content


def test_lobby_list_filters_and_links(client):
    lobby = make_lobby(name="North only", ranked=True)
    casual = make_lobby(name="Casual fun")
    content = client.get(reverse("web-lobbies") + "?ranked=true").content.decode()
    assert "North only" in content and "Casual fun" not in content
    assert reverse("web-lobby", args=[lobby.pk]) in content
    assert "Casual fun" in client.get(reverse("web-lobbies")).content.decode()
    assert casual.pk


def test_home_links_each_open_lobby(client):
    lobby = make_lobby(name="Come in")
    assert reverse("web-lobby", args=[lobby.pk]) in client.get(reverse("home")).content.decode()


def test_create_join_leave_and_start_through_the_pages(client):
    creator, second, third = make_user(), make_user(), make_user()
    client.force_login(creator)
    response = client.post(reverse("web-lobby-new"), {"name": "Three kings", "seats": "3", "time_limit": "3600",
                                                      "house_choice": "random"})
    lobby = Lobby.objects.get(name="Three kings")
    assert response["Location"] == reverse("web-lobby", args=[lobby.pk])
    client.force_login(second)
    client.post(reverse("web-lobby-action", args=[lobby.pk, "join"]))
    assert lobby.members.count() == 2
    client.post(reverse("web-lobby-action", args=[lobby.pk, "leave"]))
    assert lobby.members.count() == 1
    client.post(reverse("web-lobby-action", args=[lobby.pk, "join"]))
    client.force_login(third)
    response = client.post(reverse("web-lobby-action", args=[lobby.pk, "join"]))
    game = Game.objects.get(lobby=lobby)
    assert response["Location"] == reverse("web-game", args=[game.pk])
    page = client.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert reverse("web-game", args=[game.pk]) in page


def test_refused_lobby_action_shows_the_reason(client):
    lobby = make_lobby()
    client.force_login(make_user())
    response = client.post(reverse("web-lobby-action", args=[lobby.pk, "start"]), follow=True)
    assert response.status_code == 200
    assert list(response.context["messages"])


def test_create_lobby_with_bad_settings_shows_the_error(logged_in):
    response = logged_in.post(reverse("web-lobby-new"), {"seats": "9", "time_limit": "3600"})
    assert response.status_code == 200 and "errors" in response.content.decode()


def test_my_games_lists_awaiting_games_first(logged_in, user):
    waiting = make_game(users=[user, make_user(), make_user()])
    content = logged_in.get(reverse("web-my-games")).content.decode()
    assert reverse("web-game", args=[waiting.pk]) in content and "awaiting you" in content


def test_pages_need_a_login_where_they_write(client):
    assert client.get(reverse("web-lobby-new")).status_code == 302
    assert client.get(reverse("web-my-games")).status_code == 302


def test_replay_opens_only_when_the_game_is_over(client, user):
    active = make_game(users=[user, make_user(), make_user()])
    assert client.get(reverse("web-replay-step", args=[active.pk, 0])).status_code == 409
    seats = get_ruleset("agot").seat_names(3)
    game = do_create_game(ruleset="agot", seating=dict.fromkeys(seats), seed=11)  # bots only: plays to the end
    game.refresh_from_db()
    assert not game.is_active()
    page = client.get(reverse("web-replay", args=[game.pk])).content.decode()
    assert "js/replay.js" in page
    first = client.get(reverse("web-replay-step", args=[game.pk, 0])).json()
    assert first["view"]["round"] == 1 and first["entry"] is None and first["seat"] is None
    assert first["steps"] == game.actions.count() > 0
    last = client.get(reverse("web-replay-step", args=[game.pk, first["steps"]])).json()
    assert last["view"]["phase"] == "over" and "rng" not in last["view"] and last["view"]["secret"] == {}
    assert last["entry"]["events"]
    assert client.get(reverse("web-replay-step", args=[game.pk, first["steps"] + 1])).status_code == 404
    as_stark = client.get(reverse("web-replay-step", args=[game.pk, 1]) + "?as=stark").json()
    assert as_stark["seat"] == "stark" and set(as_stark["view"]["secret"]) == {"stark"}


def test_home_shows_your_games_awaiting_you_and_recent_results(logged_in, user):
    game = make_game(users=[user, make_user(), make_user()])
    finished = do_create_game(ruleset="agot", seating=dict.fromkeys(get_ruleset("agot").seat_names(3)), seed=5)
    content = logged_in.get(reverse("home")).content.decode()
    assert "Your games" in content and reverse("web-game", args=[game.pk]) in content and "your move" in content
    assert "data-deadline" in content
    assert "Recent results" in content and reverse("web-replay", args=[finished.pk]) in content


def test_leaderboard_page(client):
    assert "Leaderboard" in client.get(reverse("web-leaderboards")).content.decode()
    assert client.get(reverse("web-leaderboard", args=["agot"])).status_code == 200


def test_creator_assigns_houses_and_removes_a_player(client):
    creator, other = make_user(), make_user()
    lobby = make_lobby(creator, house_choice="assign", seat_count=3)
    client.force_login(other)
    client.post(reverse("web-lobby-action", args=[lobby.pk, "join"]))
    client.force_login(creator)
    page = client.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "Assign" in page and "Remove" in page
    client.post(reverse("web-lobby-action", args=[lobby.pk, "assign"]), {"user": other.username, "seat": "stark"})
    assert lobby.members.get(user=other).seat == "stark"
    client.post(reverse("web-lobby-action", args=[lobby.pk, "kick"]), {"user": other.username})
    assert not lobby.members.filter(user=other).exists()


def test_private_lobby_shows_its_invite_link_to_the_creator_only(client):
    creator = make_user()
    lobby = make_lobby(creator, private=True)
    client.force_login(creator)
    assert f"?invite={lobby.invite_token}" in client.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    client.force_login(make_user())
    assert client.get(reverse("web-lobby", args=[lobby.pk])).status_code == 404
    page = client.get(reverse("web-lobby", args=[lobby.pk]) + f"?invite={lobby.invite_token}").content.decode()
    assert 'id="join"' in page and "invite-link" not in page


@pytest.mark.parametrize("name", ["home", "web-lobbies", "web-lobby-new", "web-my-games", "web-leaderboards"])
def test_page_titles_are_plain_text(logged_in, name):
    content = logged_in.get(reverse(name)).content.decode()
    (title,) = re.findall(r"<title>(.*?)</title>", content, re.S)
    assert "<" not in title and len(title) < 80
    assert content.count("js/countdown.js") <= 1


def test_create_a_lobby_with_options(logged_in):
    logged_in.post(reverse("web-lobby-new"), {"name": "Tides", "seats": "4", "time_limit": "600",
                                              "house_choice": "pick", "seat": "stark", "tides_of_battle": "on"})
    lobby = Lobby.objects.get(name="Tides")
    assert lobby.options == {"tides_of_battle": True} and lobby.seat_count == 4 and lobby.time_limit == 600
    assert lobby.members.get().seat == "stark"
    assert "Tides of Battle" in logged_in.get(reverse("web-lobby", args=[lobby.pk])).content.decode()


def test_leaderboard_lists_rated_players_best_first(client):
    from django.utils import timezone

    from ratings.models import Rating

    strong, weak = make_user(username="strongplayer"), make_user(username="weakplayer")
    Rating.objects.create(user=weak, ruleset="agot", rating=1400, games=30, last_played=timezone.now())
    Rating.objects.create(user=strong, ruleset="agot", rating=1650, games=2, last_played=timezone.now())
    content = client.get(reverse("web-leaderboard", args=["agot"])).content.decode()
    assert content.index("strongplayer") < content.index("weakplayer")
    assert "1650" in content and "provisional" in content
