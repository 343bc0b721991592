"""The ratings API (issue 7, "Ratings"): GET /api/v1/ratings/{ruleset} (the leaderboard, paginated,
provisional players marked, inactive players hidden) and GET /api/v1/users/{name} (the public profile:
ratings, history, reliability). Errors use the one API error format."""
from __future__ import annotations

from datetime import timedelta

import pytest
import yaml
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from ratings import services
from ratings.models import Rating, RatingChange
from tests.factories import make_game, make_user

pytestmark = pytest.mark.django_db


def board(api, ruleset: str = "agot", **params):
    return api.get(f"/api/v1/ratings/{ruleset}", params)


def rate(user, rating: float, *, games: int = 20, days_ago: float = 1, ruleset: str = "agot") -> Rating:
    return Rating.objects.create(user=user, ruleset=ruleset, rating=rating, games=games,
                                 last_played=timezone.now() - timedelta(days=days_ago))


def assert_error(response, status: int, code: str):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) >= {"error", "detail", "fields"}
    assert body["error"] == code


def test_leaderboard_best_first_for_anyone(api):
    low, high, mid = make_user(username="low"), make_user(username="high"), make_user(username="mid")
    rate(low, 1400), rate(high, 1700), rate(mid, 1550)
    response = board(api)
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 3
    assert [(e["rank"], e["username"], e["rating"]) for e in body["results"]] == [
        (1, "high", 1700.0), (2, "mid", 1550.0), (3, "low", 1400.0)]
    assert set(body["results"][0]) == {"rank", "username", "bot", "rating", "games", "provisional", "last_played"}


def test_leaderboard_is_paginated(api, settings):
    settings.RATINGS_LEADERBOARD_PAGE_SIZE = 2
    for n in range(5):
        rate(make_user(username=f"p{n}"), 1500 + n)
    first = board(api).json()
    assert first["count"] == 5 and first["previous"] is None and "page=2" in first["next"]
    assert [e["username"] for e in first["results"]] == ["p4", "p3"]
    last = board(api, page=3).json()
    assert [(e["rank"], e["username"]) for e in last["results"]] == [(5, "p0")]
    assert last["next"] is None
    assert_error(board(api, page=4), 400, "invalid")  # past the last page: the API's 400 (westeros/pagination.py)


def test_provisional_players_are_marked(api, settings):
    settings.RATINGS_PROVISIONAL_GAMES = 10
    rate(make_user(username="newbie"), 1600, games=9)
    rate(make_user(username="veteran"), 1500, games=10)
    marks = {e["username"]: e["provisional"] for e in board(api).json()["results"]}
    assert marks == {"newbie": True, "veteran": False}


def test_inactive_players_are_hidden(api, settings):
    settings.RATINGS_INACTIVE_DAYS = 180
    rate(make_user(username="recent"), 1500, days_ago=179)
    rate(make_user(username="gone"), 1900, days_ago=181)
    Rating.objects.create(user=make_user(username="never"), ruleset="agot", rating=1500.0)
    assert [e["username"] for e in board(api).json()["results"]] == ["recent"]
    settings.RATINGS_INACTIVE_DAYS = 365
    assert [e["username"] for e in board(api).json()["results"]] == ["gone", "recent"]


def test_closed_accounts_are_neither_listed_nor_counted(api):
    """The leaderboard counts its players with a query of its own (ratings.services.Leaderboard): it
    agrees with the rows, a closed account left out of both, with or without the bots filter."""
    rate(make_user(username="open"), 1500)
    rate(make_user(username="closed", is_active=False), 1900)
    rate(make_user(username="robot", is_bot=True), 1600)
    body = board(api).json()
    assert (body["count"], [e["username"] for e in body["results"]]) == (2, ["robot", "open"])
    people, bots = board(api, bots="false").json(), board(api, bots="true").json()
    assert (people["count"], [e["username"] for e in people["results"]]) == (1, ["open"])
    assert (bots["count"], [e["username"] for e in bots["results"]]) == (1, ["robot"])


def test_leaderboard_is_per_ruleset(api):
    rate(make_user(username="agot-player"), 1500)
    rate(make_user(username="other-player"), 1500, ruleset="other")
    assert [e["username"] for e in board(api).json()["results"]] == ["agot-player"]


def test_unknown_ruleset_is_a_json_404(api):
    response = board(api, "chess")
    assert_error(response, 404, "not_found")
    assert "chess" in response.json()["detail"]


def ended_game(users, *, private: bool = False) -> Game:
    game = make_game(len(users), users=users, ranked=True, private=private)
    game.status, game.ranking, game.finished_at = Game.Status.FINISHED, game.seat_names(), timezone.now()
    game.save()
    services.record_finished_game(game)
    return game


def test_profile_has_ratings_history_reliability_and_games(api):
    me, b, c = make_user(username="arya"), make_user(), make_user()
    game = ended_game([me, b, c])
    response = api.get("/api/v1/users/arya")
    assert response.status_code == 200
    body = response.json()
    assert body["username"] == "arya"
    assert "email" not in body
    assert body["games_played"] == 1
    assert body["reliability"] == {"score": 1.0, "decisions": 0, "timeouts": 0, "abandoned": 0, "missed": 0}
    [rating] = body["ratings"]
    assert rating["ruleset"] == "agot" and rating["format"] == "standard"
    assert rating["rating"] == 1532.0 and rating["games"] == 1 and rating["provisional"] is True
    [change] = body["history"]
    assert change["game"] == game.pk and change["placement"] == 1
    assert (change["before"], change["after"], change["delta"]) == (1500.0, 1532.0, 32.0)
    assert change["seat"] == game.seat_names()[0]


def test_history_is_newest_first_and_hides_private_game_ids(api):
    me = make_user(username="bran")
    public = ended_game([me, make_user(), make_user()])
    ended_game([make_user(), me, make_user()], private=True)
    history = api.get("/api/v1/users/bran").json()["history"]
    assert [h["game"] for h in history] == [None, public.pk]
    assert [h["placement"] for h in history] == [2, 1]


def test_history_lists_changes_of_games_never_numbered_last(api, settings):
    """A change whose game has no RatedGame (none the services write) comes after those of the games
    rated, whatever its time; the history's length counts both (ratings.services.history)."""
    me = make_user(username="hodor")
    rated = ended_game([me, make_user(), make_user()])
    loose = make_game(3, users=[me, make_user(), make_user()], seed=3)
    RatingChange.objects.create(user=me, game=loose, ruleset="agot", seat=loose.seat_names()[0], placement=2,
                                before=1532.0, after=1520.0, played_at=timezone.now() + timedelta(hours=1))
    history = api.get("/api/v1/users/hodor").json()["history"]
    assert [h["game"] for h in history] == [rated.pk, loose.pk]
    settings.RATINGS_HISTORY_LENGTH = 1
    assert [h["game"] for h in api.get("/api/v1/users/hodor").json()["history"]] == [rated.pk]


def test_a_new_player_has_an_empty_profile(api):
    make_user(username="rickon")
    body = api.get("/api/v1/users/rickon").json()
    assert (body["ratings"], body["history"], body["games_played"]) == ([], [], 0)
    assert body["reliability"]["score"] == 1.0


def test_unknown_and_inactive_users_are_a_json_404(api):
    assert_error(api.get("/api/v1/users/nobody"), 404, "not_found")
    make_user(username="banned", is_active=False)
    assert_error(api.get("/api/v1/users/banned"), 404, "not_found")


def test_the_schema_documents_the_ratings_endpoints(client):
    from openapi_spec_validator import validate

    schema = yaml.safe_load(client.get(reverse("api-schema")).content)
    validate(schema)
    assert {"/api/v1/ratings/{ruleset}", "/api/v1/users/{username}"} <= set(schema["paths"])
    params = {p["name"] for p in schema["paths"]["/api/v1/ratings/{ruleset}"]["get"]["parameters"]}
    assert {"ruleset", "page"} <= params


def test_profile_page_shows_ratings(logged_in, user):
    ended_game([user, make_user(), make_user()])
    page = logged_in.get(reverse("profile")).content.decode()
    assert "Ratings" in page and "1532" in page and "provisional" in page
    assert "Games played</dt><dd>1<" in page


def test_leaderboard_and_profile_queries_do_not_grow_with_the_page(api, django_assert_max_num_queries):
    users = [make_user() for _ in range(12)]
    for n, user in enumerate(users):
        rate(user, 1500 + n)
    for n in range(4):
        ended_game(users[n:n + 3])
    with django_assert_max_num_queries(3):
        assert len(board(api).json()["results"]) == 12
    # the history of a player with fewer changes than its length looks for changes of games never
    # numbered in a query more (ratings.services.history)
    with django_assert_max_num_queries(9):
        assert len(api.get(f"/api/v1/users/{users[2].username}").json()["history"]) == 3


@pytest.mark.parametrize("zone", ["UTC", "Europe/Madrid"])
def test_the_profile_is_written_as_its_serializer_writes_it(api, settings, zone):
    """GET /api/v1/users/{name} writes its body by hand (ratings.serializers.profile_data, issue 27);
    ProfileSerializer stays the schema. The two agree byte for byte: a bot, a public and a private game,
    a provisional and a settled rating, a rating never played (no time), a change of a game never
    numbered, a reliability with misses, microseconds, and a time zone other than UTC."""
    import json

    from ratings.serializers import ProfileSerializer, profile_data

    settings.TIME_ZONE = zone
    settings.RATINGS_PROVISIONAL_GAMES = 2
    me = make_user(username="meera", is_bot=True)
    ended_game([me, make_user(), make_user()])
    ended_game([make_user(), me, make_user()], private=True)
    ended_game([make_user(), make_user(), me])
    loose = make_game(3, users=[me, make_user(), make_user()], seed=3)
    RatingChange.objects.create(user=me, game=loose, ruleset="lcg", seat=loose.seat_names()[0], placement=2,
                                before=1500.25, after=1488.125, played_at=timezone.now().replace(microsecond=123456))
    Rating.objects.create(user=me, ruleset="lcg", rating=1488.125, games=1, last_played=None)
    profile = services.public_profile(me)
    profile = services.Profile(**{**vars(profile), "reliability": services.Reliability(decisions=7, timeouts=2,
                                                                                        abandoned=1)})
    assert len(profile.history) == 4 and len(profile.ratings) == 2
    assert {r.games for r in profile.ratings} == {1, 3}
    written = profile_data(profile)
    assert json.dumps(written) == json.dumps(ProfileSerializer(profile).data)
    assert [h["game"] for h in written["history"]].count(None) == 1
    body = api.get("/api/v1/users/meera").json()
    assert body["history"] == written["history"] and body["ratings"] == written["ratings"]


def test_leaderboard_pages_read_by_compiled_queries_match_the_orm(monkeypatch):
    """A leaderboard's count and its pages near the top are compiled once per process (ratings.services
    Leaderboard); pages further down are built by the ORM. Both give the rows the ORM's query gives, for
    everyone, people alone and bots alone, and a closed account is neither listed nor counted."""
    monkeypatch.setattr(services, "COMPILED_ROWS", 4)
    for n in range(9):
        rate(make_user(username=f"p{n}", is_bot=n % 3 == 0, is_active=n != 5), 1500 + 10 * (n % 4))
    for bots in (None, True, False):
        board_ = services.leaderboard("agot", bots=bots)
        rows = list(board_.rows)
        assert board_.count() == len(rows) == {None: 8, True: 3, False: 5}[bots]
        for start, stop in ((0, 3), (2, 5), (3, 8), (5, 9), (7, 20)):
            assert [r.pk for r in board_[start:stop]] == [r.pk for r in rows[start:stop]]
            assert [r.user.username for r in board_[start:stop]] == [r.user.username for r in rows[start:stop]]
    assert "p5" not in [r.user.username for r in services.leaderboard("agot")[0:9]]
    # a last page of any length shares its compiled query with a full one: their number stays bounded
    from westeros import compiled

    def labels() -> set[str]:  # (the process's: other tests may have compiled some)
        return {key[0] for key in compiled._compiled if key[0].startswith("ratings:leaderboard:agot:standard:None:")}

    before = labels()
    for stop in range(1, 10):
        assert len(services.leaderboard("agot")[0:stop]) == min(stop, 8)
    assert labels() - before <= {"ratings:leaderboard:agot:standard:None:0:10"}
    assert "ratings:leaderboard:agot:standard:None:0:10" in labels()


@pytest.mark.parametrize("zone", ["UTC", "Europe/Madrid"])
def test_the_leaderboard_is_written_as_its_serializer_writes_it(api, settings, zone):
    """GET /api/v1/ratings/{ruleset} writes its entries by hand (ratings.serializers.leaderboard_entries,
    issue 27); LeaderboardEntrySerializer stays the schema. The two agree byte for byte: a bot, a
    provisional player, ranks past the first page, microseconds, a time zone other than UTC."""
    import json

    from ratings.api import LeaderboardView
    from ratings.serializers import LeaderboardEntrySerializer, leaderboard_entries

    settings.TIME_ZONE = zone
    settings.RATINGS_PROVISIONAL_GAMES = 10
    settings.RATINGS_LEADERBOARD_PAGE_SIZE = 3
    for n in range(5):
        rate(make_user(username=f"r{n}", is_bot=n == 1), 1500.5 + n, games=5 + 3 * n, days_ago=n + 0.123456)
    body = board(api, page=2).json()
    assert [e["rank"] for e in body["results"]] == [4, 5] and body["count"] == 5
    page = list(services.leaderboard("agot")[0:5])
    for rank, rating in enumerate(page, start=1):
        rating.rank, rating.provisional = rank, services.is_provisional(rating)
    written = leaderboard_entries(page)
    assert json.dumps(written) == json.dumps(LeaderboardEntrySerializer(page, many=True).data)
    assert {e["bot"] for e in written} == {True, False} and {e["provisional"] for e in written} == {True, False}
    assert body["results"] == written[3:]
    assert LeaderboardView.serializer_class is LeaderboardEntrySerializer  # the schema's
