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


def test_a_page_read_again_is_kept_and_what_changes_shows_at_once(client, finished):
    """A page of the log, narrated, is kept (issue 27: a later page of a long game narrated fifty actions
    on every read): read again it is the same answer without reading the actions; a reader in another
    language reads their own words, and an active game's next action is on the next read at once."""
    url = reverse("api-game-log", args=[finished.pk]) + f"?after={LOG_PAGE}"
    first = client.get(url).json()
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url).json()
    assert again == first
    assert not [q for q in queries.captured_queries if "games_gameaction" in q["sql"]]
    cache.clear()
    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es").json()
    cache.clear()
    assert spanish == client.get(url, HTTP_ACCEPT_LANGUAGE="es").json() != first
    game = played(3)
    before = client.get(reverse("api-game-log", args=[game.pk])).json()
    assert before["through"] == game.version
    assert game.is_active()
    seen, now = game.version, timezone.now()
    while game.version == seen:  # the next decision times out (the clock moved on as played() does)
        now += timedelta(days=1)
        deadlines.resolve_overdue(game.pk, now=now)
        game.refresh_from_db()
    after = client.get(reverse("api-game-log", args=[game.pk])).json()
    assert after["through"] == game.version > before["through"]
    assert after["entries"][:len(before["entries"])] == before["entries"]
    assert max(e["version"] for e in after["entries"]) > before["through"]


def test_a_kept_page_names_the_players_by_their_names_of_now():
    """The card game's log names its players: a kept page puts the names in on every read, so a
    player renamed is read under the new name at once."""
    from tests.platform_helpers import log, submit, texts

    game = make_game(2, ruleset="lcg", seed=12)
    for seat, action in (("p1", {"mulligan": True}), ("p2", {"mulligan": False})):
        submit(game, seat, action)
    game.refresh_from_db()
    reader = api_client_for(make_user())
    p2 = game.seats.get(seat="p2").user
    assert f"{p2.username} keeps their opening hand." in " ".join(texts(log(game, reader)))
    p2.username = "renamed_player"
    p2.save(update_fields=["username"])
    said = " ".join(texts(log(game, reader)))
    assert "renamed_player keeps their opening hand." in said
