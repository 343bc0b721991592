"""Lists grow only with pagination (issue 27): each API list answers a bounded page in the
leaderboard's shape ({count, next, previous, results}), the next page continues it, the filters are
kept, and a bad page is a 400 in the API's error shape; each list page shows a page of rows with
links in words that keep its filters, and a bad page number shows the first page."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

import web.paging
from games.models import Game, Lobby
from ratings.models import Rating
from tests.factories import api_client_for, make_game, make_user
from tournaments.models import Tournament
from westeros.pagination import MAX_PAGE_SIZE, PAGE_SIZE

pytestmark = pytest.mark.django_db


def walk(client, url: str, params: dict) -> list[dict]:
    """Every row of an API list, page after page by its `next` links (each page bounded)."""
    rows, answer = [], client.get(url, params)
    while True:
        assert answer.status_code == 200, answer.content
        body = answer.json()
        assert set(body) == {"count", "next", "previous", "results"}
        assert len(body["results"]) <= params.get("page_size", PAGE_SIZE)
        rows += body["results"]
        if body["next"] is None:
            return rows
        assert body["results"], "a page before the last is never empty"
        answer = client.get(body["next"])


def lobbies(n: int, **fields) -> list[Lobby]:
    creator = make_user()
    now = timezone.now()
    made = [Lobby.objects.create(ruleset="agot", creator=creator, seat_count=3, time_limit=3600, **fields)
            for _ in range(n)]
    for age, lobby in enumerate(made):  # the first made is the oldest
        Lobby.objects.filter(pk=lobby.pk).update(created_at=now - timedelta(minutes=len(made) - age))
    return made


def tournaments(n: int, **fields) -> list[Tournament]:
    organizer = make_user()
    now = timezone.now()
    return [Tournament.objects.create(name=f"Cup {i}", organizer=organizer, created_at=now - timedelta(minutes=n - i),
                                      **fields) for i in range(n)]


def test_default_page_is_bounded_and_the_api_lists_are_pages():
    lobbies(PAGE_SIZE + 3)
    body = Client().get("/api/v1/lobbies").json()
    assert body["count"] == PAGE_SIZE + 3 and len(body["results"]) == PAGE_SIZE
    assert body["previous"] is None and "page=2" in body["next"]
    last = Client().get(body["next"]).json()
    assert len(last["results"]) == 3 and last["next"] is None and last["previous"]


def test_lobbies_next_page_continues_newest_first_and_keeps_filters():
    ranked = lobbies(5, ranked=True)
    lobbies(4, ranked=False)
    rows = walk(Client(), "/api/v1/lobbies", {"ranked": "true", "page_size": 2})
    assert [row["id"] for row in rows] == [lobby.pk for lobby in reversed(ranked)]
    first = Client().get("/api/v1/lobbies", {"ranked": "true", "page_size": 2}).json()
    assert "ranked=true" in first["next"] and "page_size=2" in first["next"]


def test_tournaments_pages_continue_and_keep_filters():
    running = tournaments(5, status=Tournament.Status.RUNNING)
    tournaments(3)
    rows = walk(Client(), "/api/v1/tournaments", {"status": "running", "page_size": 2})
    assert [row["id"] for row in rows] == [t.pk for t in reversed(running)]
    assert Client().get("/api/v1/tournaments").json()["count"] == 8


def test_my_games_pages_continue_and_awaiting_is_paged_too():
    me = make_user()
    # AGoT's first decision is every house's orders at once: each game awaits me
    games = [make_game(3, users=[me, make_user(), make_user()]) for _ in range(5)]
    api = api_client_for(me)
    rows = walk(api, "/api/v1/me/games", {"page_size": 2})
    assert sorted(row["id"] for row in rows) == sorted(g.pk for g in games) and len(rows) == 5
    # newest first, the id breaking ties of the same moment
    assert [row["id"] for row in rows] == [g.pk for g in sorted(games, key=lambda g: (g.created_at, g.pk),
                                                                  reverse=True)]
    awaiting = api.get("/api/v1/me/games", {"awaiting": "true", "page_size": 2}).json()
    assert len(awaiting["results"]) == 2 and awaiting["count"] == 5 and "awaiting=true" in awaiting["next"]


def test_needs_player_and_leaderboard_answer_pages():
    assert set(Client().get("/api/v1/games/needs-player").json()) == {"count", "next", "previous", "results"}
    board = Client().get("/api/v1/ratings/agot").json()
    assert set(board) == {"count", "next", "previous", "results"}


@pytest.mark.parametrize("params, field", [
    ({"page": "0"}, "page"), ({"page": "-1"}, "page"), ({"page": "abc"}, "page"), ({"page": "1.5"}, "page"),
    ({"page": "9" * 30}, "page"), ({"page": "2"}, "page"), ({"page": "٣"}, "page"),
    ({"page_size": "0"}, "page_size"), ({"page_size": str(MAX_PAGE_SIZE + 1)}, "page_size"),
    ({"page_size": "many"}, "page_size"),
])
@pytest.mark.parametrize("url", ["/api/v1/lobbies", "/api/v1/tournaments", "/api/v1/me/games",
                                 "/api/v1/games/needs-player"])
def test_bad_page_parameters_are_a_400_in_the_error_shape(url, params, field):
    lobbies(1)
    answer = api_client_for(make_user()).get(url, params)
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["error"] == "invalid" and field in body["fields"] and body["detail"]


@pytest.mark.parametrize("url, params, field", [
    ("/api/v1/lobbies", {"ruleset": "chess"}, "ruleset"), ("/api/v1/tournaments", {"status": "paused"}, "status"),
    ("/api/v1/tournaments", {"format": "round-robin"}, "format"), ("/api/v1/tournaments", {"ruleset": "go"}, "ruleset"),
])
def test_an_unknown_filter_value_is_a_400_naming_it_not_an_empty_list(url, params, field):
    """Issue 28: an enum filter's unknown value answered an empty page, as if it existed."""
    answer = api_client_for(make_user()).get(url, params)
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["error"] == "invalid" and field in body["fields"] and "Choose one of" in body["fields"][field][0]
    assert api_client_for(make_user()).get(url, {field: "agot" if field == "ruleset" else
                                                 {"status": "finished", "format": "swiss"}[field]}).status_code == 200


def test_an_unknown_filter_value_is_refused_in_the_reader_s_language():
    answer = Client().get("/api/v1/tournaments", {"status": "paused"}, HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9")
    assert answer.status_code == 400, answer.content
    said = answer.json()["fields"]["status"][0]
    assert said.startswith("Elige uno de estos:") and "finished" in said


@pytest.mark.parametrize("params", [{"page": "null"}, {"page_size": "null"}, {"page_size": "None"}])
def test_null_page_parameters_are_a_400_not_the_default_page(params):
    """Issue 28: the API refuses `limit=null` (a client's unset value sent as text) instead of
    answering the default page as if nothing had been asked."""
    answer = api_client_for(make_user()).get("/api/v1/lobbies", params)
    assert answer.status_code == 400, answer.content
    assert next(iter(params)) in answer.json()["fields"]


@pytest.mark.parametrize("page", ["0", "abc", "99"])
def test_leaderboard_bad_page_is_a_400(page):
    assert Client().get("/api/v1/ratings/agot", {"page": page}).status_code == 400


# ---- pages ----------------------------------------------------------------------------------

@pytest.fixture
def two_a_page(monkeypatch):
    monkeypatch.setattr(web.paging, "PER_PAGE", 2)


def link(html: str, rel: str) -> str | None:
    found = re.search(rf'rel="{rel}" href="([^"]*)"', html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_lobby_list_page_pages_with_links_in_words_keeping_filters(two_a_page):
    ranked = lobbies(3, ranked=True)
    casual = lobbies(2, ranked=False)
    client = Client()
    html = client.get("/lobbies/", {"ranked": "true"}).content.decode()
    assert "Page 1 of 2" in html and ">Older<" in html and link(html, "prev") is None
    assert f"/lobbies/{ranked[2].pk}/" in html and f"/lobbies/{ranked[0].pk}/" not in html
    older = link(html, "next")
    assert "ranked=true" in older and "page=2" in older
    html = client.get("/lobbies/" + older).content.decode()
    assert f"/lobbies/{ranked[0].pk}/" in html and f"/lobbies/{casual[0].pk}/" not in html
    assert "Page 2 of 2" in html and ">Newer<" in html and link(html, "next") is None
    assert link(html, "prev") == "?ranked=true"


@pytest.mark.parametrize("page", ["0", "abc", "99", "-1", "9" * 40])
def test_a_bad_page_number_shows_the_first_page(two_a_page, page):
    made = lobbies(3)
    answer = Client().get("/lobbies/", {"page": page})
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "Page 1 of 2" in html and f"/lobbies/{made[2].pk}/" in html


def test_a_short_list_has_no_pager():
    lobbies(1)
    assert "Page 1 of" not in Client().get("/lobbies/").content.decode()


def test_my_games_page_shows_games_in_progress_first(two_a_page):
    me = make_user()
    finished = [make_game(2, ruleset="lcg", users=[me, make_user()]) for _ in range(2)]
    Game.objects.filter(pk__in=[g.pk for g in finished]).update(status=Game.Status.FINISHED)
    active = make_game(2, ruleset="lcg", users=[me, make_user()])
    client = Client()
    client.force_login(me)
    html = client.get("/games/").content.decode()
    assert f"/games/{active.pk}/" in html and "Page 1 of 2" in html
    older = client.get("/games/" + link(html, "next")).content.decode()
    assert f"/games/{active.pk}/" not in older
    assert sum(f"/games/{g.pk}/" in page for g in finished for page in (html, older)) == 2


def test_my_games_pages_cross_from_games_in_progress_to_finished_ones_without_a_gap(two_a_page):
    """Games in progress, then finished ones newest first, each read by the database a page at a time
    (web.paging.Concatenated): a page may hold the last game in progress and the newest finished one,
    and every game is on exactly one page, in order."""
    me = make_user()
    games = [make_game(2, ruleset="lcg", users=[me, make_user()]) for _ in range(6)]
    finished = games[:3]
    Game.objects.filter(pk__in=[g.pk for g in finished]).update(status=Game.Status.FINISHED)
    in_progress = games[3:]
    client = Client()
    client.force_login(me)
    seen, url = [], "/games/"
    while url:
        html = client.get(url).content.decode()
        seen += [int(n) for n in re.findall(r'<a href="/games/(\d+)/"><span class="ruleset">', html)]
        following = link(html, "next")
        url = "/games/" + following if following else None
    assert len(seen) == 6 and "Page 3 of 3" in html
    assert sorted(seen[:3]) == sorted(g.pk for g in in_progress)
    assert seen[3:] == sorted((g.pk for g in finished), reverse=True)


def test_tournaments_and_bots_pages_page(two_a_page):
    made = tournaments(3, status=Tournament.Status.FINISHED)
    html = Client().get("/tournaments/", {"status": "finished"}).content.decode()
    assert made[2].name in html and made[0].name not in html and "status=finished" in link(html, "next")
    for n in range(3):
        make_user(username=f"bot{n}", is_bot=True)
    html = Client().get("/bots/").content.decode()
    assert "bot0" in html and "bot2" not in html and ">Next page<" in html


def test_leaderboard_page_ranks_continue_on_the_next_page(two_a_page):
    for n in range(3):
        Rating.objects.create(user=make_user(username=f"ranked{n}"), ruleset="agot", rating=1500 + n, games=30,
                              last_played=timezone.now())
    client = Client()
    html = client.get("/leaderboards/agot/").content.decode()
    assert ">ranked2<" in html and ">ranked0<" not in html and ">Next page<" in html
    second = client.get("/leaderboards/agot/" + link(html, "next")).content.decode()
    assert re.search(r"<td>3</td><td><a[^>]*>ranked0</a>", second)
