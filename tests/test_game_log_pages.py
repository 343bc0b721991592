"""The log API a page at a time (issue 27): GET /log?after=V&limit=N answers the entries of the
versions after V, N at most, `through` and `next`; a long game's whole log no longer comes in one
answer. Pages read one after the other give exactly the whole log, its round and phase included
(games/queries.narration_moment carries the narration across pages, from the cache or, cold, by
narrating what came before)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.engine import get_ruleset
from games.queries import LOG_PAGE, LOG_PAGE_MAX
from games.services import deadlines
from games.services.play import do_create_game
from tests.factories import api_client_for, make_game, make_user, seat_client, whole_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished():
    """A three-player game the computer played to its end (more versions than a page)."""
    game = do_create_game(ruleset="agot", seating=dict.fromkeys(get_ruleset("agot").seat_names(3)), seed=11)
    game.refresh_from_db()
    assert not game.is_active() and game.version > LOG_PAGE
    return game


def played(versions: int):
    """A game of three players whose decisions time out until it reached `versions`."""
    game = make_game(3, seed=31, max_consecutive_timeouts=0)
    now = timezone.now()
    while game.version < versions and game.is_active():
        now += timedelta(seconds=game.time_limit + 1)
        assert deadlines.resolve_overdue(game.pk, now=now)
        game.refresh_from_db()
    assert game.version >= versions, game.version
    return game


def in_one(client, game) -> list[dict]:
    body = client.get(reverse("api-game-log", args=[game.pk]) + f"?limit={LOG_PAGE_MAX}").json()
    assert body["next"] is None and body["through"] == game.version <= LOG_PAGE_MAX
    return body["entries"]


def test_the_first_page_is_bounded_and_names_the_next(client, finished):
    body = client.get(reverse("api-game-log", args=[finished.pk])).json()
    assert body["after"] == 0 and body["through"] == LOG_PAGE and body["version"] == finished.version
    assert {e["version"] for e in body["entries"]} <= set(range(1, LOG_PAGE + 1))
    assert body["next"].endswith(f"/api/v1/games/{finished.pk}/log?after={LOG_PAGE}")
    follow = client.get(body["next"]).json()
    assert follow["after"] == LOG_PAGE and min(e["version"] for e in follow["entries"]) > LOG_PAGE
    last = client.get(reverse("api-game-log", args=[finished.pk]) + f"?after={finished.version - 3}").json()
    assert last["through"] == finished.version and last["next"] is None
    beyond = client.get(reverse("api-game-log", args=[finished.pk]) + f"?after={finished.version + 10}").json()
    assert beyond["entries"] == [] and beyond["next"] is None


@pytest.mark.parametrize("cold", [False, True], ids=["pages-in-order", "cold-cache"])
def test_pages_make_exactly_the_whole_log_with_its_rounds_and_phases(client, finished, cold):
    cache.clear()
    whole = in_one(client, finished)
    cache.clear()
    entries, after = [], 0
    while True:
        if cold:
            cache.clear()  # every page starts without a kept moment: the narration before it is redone
        page = client.get(reverse("api-game-log", args=[finished.pk]) + f"?after={after}&limit=37").json()
        entries += page["entries"]
        if page["next"] is None:
            break
        after = page["through"]
    assert entries == whole
    assert len({(e.get("round"), e.get("phase")) for e in entries}) > 3  # the game went through rounds


def test_a_page_read_first_has_the_same_words_as_read_in_order(client, finished):
    cache.clear()
    whole = in_one(client, finished)
    cache.clear()
    start = LOG_PAGE + 17
    page = client.get(reverse("api-game-log", args=[finished.pk]) + f"?after={start}&limit=20").json()
    assert page["entries"] == [e for e in whole if start < e["version"] <= start + 20]


def test_a_seat_reads_its_own_secrets_on_every_page_and_a_spectator_none():
    game = played(LOG_PAGE + 5)
    stark = whole_log(lambda path: seat_client(game, "stark").get(path).json(), game.pk)["entries"]
    spectator_client = api_client_for(make_user())
    spectator = whole_log(lambda path: spectator_client.get(path).json(), game.pk)["entries"]
    assert max(e["version"] for e in stark) > LOG_PAGE
    for entry in spectator:
        assert all("only" not in ev or ev["only"] == [] for ev in entry["events"])
    assert all("only" not in ev or "stark" in ev["only"] for entry in stark for ev in entry["events"])
    assert [e["version"] for e in stark] == sorted(e["version"] for e in stark)


def test_a_page_costs_the_same_queries_early_or_late(client, finished):
    def queries(after):
        url = reverse("api-game-log", args=[finished.pk]) + f"?after={after}&limit=30"
        client.get(url)  # the moment before the page is kept now
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured.captured_queries)

    assert queries(0) == queries(LOG_PAGE) == queries(finished.version - 30)


@pytest.mark.parametrize("query", ["after=-1", "after=abc", "limit=0", f"limit={LOG_PAGE_MAX + 1}",
                                   "after=" + "9" * 30, "limit=1.5"])
def test_bad_paging_parameters_are_a_400_in_the_error_shape(client, finished, query):
    response = client.get(reverse("api-game-log", args=[finished.pk]) + "?" + query)
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid" and set(body["fields"]) <= {"after", "limit"} and body["fields"]
