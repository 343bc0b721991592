"""What a profile keeps in the cache (issue 27: a busy player's profile drew 1,632 rating changes and
read its latest decisions on every request), and that it is never stale where it matters:
- the rating charts are kept under the history's stamp (how many changes, the newest's id): a game
  rated, a replay of the ratings that writes them again, show at once;
- the reliability a profile shows is kept a minute; lobbies and tournaments read it afresh."""
from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.services.play import do_concede
from ratings import services
from ratings.models import RatingChange
from ratings.templatetags.ratings_tags import _draw_charts, history_charts
from tests.factories import make_game, make_user

pytestmark = pytest.mark.django_db


def end_by_leaving(game) -> None:
    for seat in game.seats.filter(user__isnull=False).order_by("position"):
        do_concede(game.pk, seat.user)


def test_a_chart_shows_a_game_rated_after_it_was_drawn(django_assert_max_num_queries):
    users = [make_user() for _ in range(3)]
    end_by_leaving(make_game(3, users=users, ranked=True, seed=1))
    player = users[1]
    assert history_charts(player)[0]["games"] == 1
    with django_assert_max_num_queries(1):  # kept: only the stamp is read
        assert history_charts(player)[0]["games"] == 1
    end_by_leaving(make_game(3, users=users, ranked=True, seed=2))
    chart = history_charts(player)[0]
    assert chart["games"] == 2 and chart == _draw_charts(player)[0]


def test_a_chart_shows_the_ratings_a_replay_wrote(settings):
    users = [make_user() for _ in range(3)]
    for seed in (1, 2):
        end_by_leaving(make_game(3, users=users, ranked=True, seed=seed))
    player = users[0]
    drawn = history_charts(player)[0]
    settings.RATINGS_K_PROVISIONAL = 3 * services.conf.elo_config().k_provisional  # a new K: new ratings
    call_command("recompute_ratings", "--write", stdout=open("/dev/null", "w"))
    replayed = history_charts(player)[0]
    assert replayed["last"] != drawn["last"]
    assert replayed["last"] == RatingChange.objects.filter(user=player).order_by("-id").first().after == \
        services.ratings_of(player)[0].rating


def test_a_player_without_ranked_games_has_no_chart():
    assert history_charts(make_user()) == []


def test_the_profile_shows_a_reliability_kept_a_minute_and_lobbies_read_it_afresh():
    user = make_user()
    client = Client()
    client.force_login(user)
    assert client.get(reverse("public-profile", args=[user.username])).status_code == 200
    game = make_game(3, users=[user, make_user(), make_user()])
    do_concede(game.pk, user)  # an abandonment: a miss
    assert services.reliability_report(user).abandoned == 1  # what lobbies and tournaments read
    assert services.reliability_of(user) == 0.0
    assert services.shown_reliability(user).abandoned == 0  # the profile's, read before the game
    services.cache.delete(f"ratings:reliability:{user.pk}")  # a minute later
    assert services.shown_reliability(user).abandoned == 1
