"""Site pages speak to players (issue 15, "The log and the rest of the page"): the lobby list and
My games name the game and give durations in words; the leaderboard links to profiles; rating charts
carry axes and values; the API docs sit inside the site's layout; every page has the skip link's
target or none, and the header and footer."""
from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.templatetags.site_words import duration_words, ruleset_name
from tests.factories import make_game, make_lobby, make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seconds, words", [
    (120, "2 minutes"), (600, "10 minutes"), (3600, "1 hour"), (7200, "2 hours"), (86400, "1 day"),
    (129600, "1 day and 12 hours"), (259200, "3 days"), (90, "1 minute and 30 seconds"), (1, "1 second"),
    (93784, "1 day and 2 hours"), (0, "no time"), ("soon", ""),
])
def test_durations_in_words(seconds, words):
    assert duration_words(seconds) == words


def test_ruleset_names():
    assert ruleset_name("agot") == "A Game of Thrones: The Board Game"
    assert ruleset_name("btwixt") == "B'Twixt"
    assert ruleset_name("lcg") == "A Game of Thrones: The Card Game"
    assert ruleset_name("minis") == "A Song of Ice and Fire: Tabletop Miniatures"


def test_a_leaderboard_of_no_game_is_not_found(client):
    assert client.get("/leaderboards/chess/").status_code == 404
    assert client.get("/leaderboards/lcg/").status_code == 200


def test_card_game_seats_in_words():
    from ratings.templatetags.site_words import seat_name

    assert seat_name("p1", "lcg") == "Player 1" and seat_name("p2", "lcg") == "Player 2"


def test_lobby_list_names_the_game_and_the_time_in_words(client):
    make_lobby(name="North only", time_limit=7200)
    make_lobby(ruleset="btwixt", seat_count=4, time_limit=86400)
    content = client.get(reverse("web-lobbies")).content.decode()
    assert "A Game of Thrones: The Board Game" in content and "B&#x27;Twixt" in content
    assert "2 hours per decision" in content and "1 day per decision" in content
    assert "7200" not in content and "86400" not in content and " s<" not in content
    assert "btwixt lobby #" not in content and "lobby #" not in content  # unnamed: the creator's lobby


def test_the_home_page_and_a_lobby_page_name_the_game_and_the_time_in_words(client):
    lobby = make_lobby(ruleset="btwixt", seat_count=4, time_limit=7200)
    for url in (reverse("home"), reverse("web-lobby", args=[lobby.pk])):
        content = client.get(url).content.decode()
        assert "B&#x27;Twixt" in content and "2 hours per decision" in content, url
        assert "7200" not in content and "btwixt lobby #" not in content, url
        assert f"{lobby.creator.username}&#x27;s lobby" in content, url


def test_my_games_names_the_game_and_the_time_in_words(logged_in, user):
    make_game(users=[user, make_user(), make_user()], time_limit=7200)
    content = logged_in.get(reverse("web-my-games")).content.decode()
    assert "A Game of Thrones: The Board Game" in content and "2 hours" in content and "7200" not in content


def test_leaderboard_names_link_to_public_profiles(client):
    from ratings.models import Rating

    player = make_user()
    Rating.objects.create(user=player, ruleset="agot", rating=1530, games=12, last_played=timezone.now())
    content = client.get(reverse("web-leaderboards")).content.decode()
    assert f'href="/users/{player.username}/"' in content
    assert "A Game of Thrones: The Board Game" in content


def test_api_docs_page_is_inside_the_site_layout(client):
    content = client.get(reverse("api-docs")).content.decode()
    assert 'class="site-header"' in content and 'class="site-footer"' in content
    assert "swagger-ui" in content and reverse("api-schema") in content
    assert "//cdn" not in content  # the sidecar's files, no CDN


def test_rating_chart_has_round_ticks_around_the_values():
    from ratings.templatetags.ratings_tags import chart

    geometry = chart([1500, 1516, 1531, 1522, 1547, 1560])
    assert [label for _, label in geometry["y_ticks"]] == ["1500", "1520", "1540", "1560"]
    assert [label for _, label in geometry["x_ticks"]] == ["0", "1", "2", "3", "4", "5"]
    assert [value for _, _, value in geometry["points"]] == [1500, 1516, 1531, 1522, 1547, 1560]
    flat = chart([1500, 1500])  # no change: still a readable scale
    assert len(flat["y_ticks"]) >= 2 and flat["points"][0][1] == flat["points"][1][1]
    long = chart([1500 + (i % 7) * 3 for i in range(101)])  # 100 games: about 8 game numbers, the last one shown
    assert len(long["x_ticks"]) <= 12 and long["x_ticks"][-1][1] == "100"


def test_profile_chart_names_the_game_with_axes(client):
    from ratings.models import RatingChange

    player = make_user()
    game = make_game()
    RatingChange.objects.create(user=player, game=game, ruleset="agot", seat="stark", placement=1, before=1500, after=1516)
    content = client.get(reverse("public-profile", args=[player.username])).content.decode()
    assert "A Game of Thrones: The Board Game</strong>: 1500 → 1516" in content
    assert 'class="axis"' in content and ">Ranked games<" in content and ">Rating<" in content
    assert ">1516<" in content


def test_the_game_page_names_the_game(client):
    game = make_game()
    content = client.get(reverse("web-game", args=[game.pk])).content.decode()
    assert "A Game of Thrones: The Board Game · spectating" in content


def test_seats_are_named_as_players_say_them(logged_in, user, client):
    """A B'Twixt seat is its leader's name, an AGoT seat its house: on the home page, My games and
    the profile, never an id; the home page names the four games open on the site."""
    from ratings.templatetags.site_words import seat_name

    assert seat_name("cersei", "btwixt") == "Cersei Lannister" and seat_name("baratheon") == "Baratheon"
    make_game(ruleset="btwixt", users=[user, make_user(), make_user()], time_limit=7200)
    for url in (reverse("home"), reverse("web-my-games"), reverse("public-profile", args=[user.username])):
        content = logged_in.get(url).content.decode()
        seat = user.game_seats.get().seat
        assert seat_name(seat, "btwixt") in content, url
        assert f">{seat.title()}<" not in content or seat_name(seat, "btwixt") == seat.title(), url
    home = client.get(reverse("home")).content.decode()
    for name in ("A Game of Thrones: The Board Game", "B&#x27;Twixt", "A Game of Thrones: The Card Game",
                 "A Song of Ice and Fire: Tabletop Miniatures"):  # the four games, each with "Play now"
        assert f">{name}</a></h3>" in home
