"""The base pages render, link to each other, and protect what needs a log-in."""
from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine import get_ruleset
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["home", "login", "signup", "password_reset"])
def test_public_pages_render(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    assert b"Westeros" in response.content


def test_home_has_the_lobby_list_and_the_navigation(client):
    content = client.get(reverse("home")).content.decode()
    assert "Open lobbies" in content
    assert reverse("login") in content and reverse("signup") in content


def test_logged_in_navigation_shows_the_user_and_a_logout_form(logged_in, user):
    content = logged_in.get(reverse("home")).content.decode()
    assert user.username in content
    assert f'action="{reverse("logout")}"' in content


@pytest.mark.parametrize("name", ["profile", "tokens", "password_change"])
def test_private_pages_redirect_to_login(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_profile_shows_the_account(logged_in, user):
    content = logged_in.get(reverse("profile")).content.decode()
    assert user.email in content


def test_admin_is_enabled(client):
    assert client.get("/admin/login/").status_code == 200


def test_seed_demo_creates_the_demo_account_and_game_once(capsys):
    call_command("seed_demo")
    call_command("seed_demo")
    out = capsys.readouterr().out
    assert "username 'demo', password 'westeros-demo'" in out
    user = User.objects.get(username="demo")
    assert user.check_password("westeros-demo")
    (game,) = Game.objects.filter(seats__user=user)
    assert game.is_active() and "already there" in out
    assert game.seat_for(user).seat == "baratheon" and game.seats.filter(is_bot=True).count() == 5
    # The bots have placed their orders; the demo player's decision is pending.
    assert get_ruleset("agot").pending(game.state) == {game.seat_for(user).seat: "place_orders"}


def test_profiles_show_the_rating_history_chart_and_recent_games(client):
    from games.services.play import do_create_game
    from ratings.services import record_finished_game
    from tests.factories import make_user

    players = [make_user() for _ in range(3)]
    seats = get_ruleset("agot").seat_names(3)
    game = do_create_game(ruleset="agot", seating=dict(zip(seats, players, strict=True)), ranked=True)
    client.force_login(players[0])
    client.post(reverse("api-game-concede", args=[game.pk]))  # the first player leaves
    game.refresh_from_db()
    game.status, game.ranking = Game.Status.FINISHED, seats  # the others finish it
    game.save()
    assert record_finished_game(game)
    page = Client().get(reverse("public-profile", args=[players[0].username])).content.decode()
    assert "Rating history" in page and "<polyline" in page
    assert f"#{game.pk}" in page and f"{players[0].username} (left in round 1; the computer played on)" in page
    assert players[0].email not in page  # only the owner sees the address
    own = Client()
    own.force_login(players[0])
    assert players[0].email in own.get(reverse("profile")).content.decode()
    assert client.get(reverse("public-profile", args=["nobody-here"])).status_code == 404
