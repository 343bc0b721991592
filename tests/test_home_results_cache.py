"""The home page's recent results are kept rendered, one copy per language (web.views.recent_results_html,
issue 27): a Spanish page never shows the English copy, nor an English page the Spanish one, and a
copy is kept until a public game ends (games.kept_versions.RESULTS_VERSION, renewed once the end commits),
at most RECENT_RESULTS_SECONDS."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import get_ruleset
from games.services.play import do_create_game

pytestmark = pytest.mark.django_db


def section(response) -> str:
    html = response.content.decode()
    return html[html.index('<ul class="results">'):]


def test_each_language_gets_its_own_rendered_results():
    finished = do_create_game(ruleset="agot", seating=dict.fromkeys(get_ruleset("agot").seat_names(3)), seed=5)
    replay = reverse("web-replay", args=[finished.pk])
    english = Client().get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    spanish = Client().get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Recent results" in english and "Resultados recientes" not in english and replay in english
    assert "Resultados recientes" in spanish and "Recent results" not in spanish and replay in spanish
    # each language's copy is kept: English again after Spanish is still English
    assert "Recent results" in Client().get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def new_finished_game(seed: int, **options):
    """A game the computer plays out at once, every seat its own: it ends as it is created."""
    return do_create_game(ruleset="agot", seating=dict.fromkeys(get_ruleset("agot").seat_names(3)), seed=seed,
                          **options)


def test_a_result_shows_once_its_game_s_end_commits(django_capture_on_commit_callbacks):
    first = new_finished_game(5)
    assert reverse("web-replay", args=[first.pk]) in section(Client().get("/"))
    with django_capture_on_commit_callbacks() as on_commit:
        second = new_finished_game(6)
    assert on_commit, "the game's end asks for the results to be renewed once it commits"
    # not committed yet: the kept copy, read without a query of the games
    assert reverse("web-replay", args=[second.pk]) not in section(Client().get("/"))
    for callback in on_commit:  # the commit
        callback()
    assert reverse("web-replay", args=[second.pk]) in section(Client().get("/"))


def test_the_kept_copy_is_not_read_again_until_a_game_ends(django_assert_max_num_queries):
    from web.views import recent_results_html

    new_finished_game(5)
    first = recent_results_html()
    with django_assert_max_num_queries(0):
        assert recent_results_html() == first


def test_only_a_public_game_s_end_renews_the_results(django_capture_on_commit_callbacks, monkeypatch):
    from westeros import kept

    renewed = []
    monkeypatch.setattr(kept, "renew", renewed.append)
    with django_capture_on_commit_callbacks(execute=True):
        new_finished_game(6, private=True)
    assert renewed == []
    with django_capture_on_commit_callbacks(execute=True):
        new_finished_game(7)
    assert renewed == ["games:results-version"]


def test_a_copy_built_across_a_renewal_is_built_again():
    """A reader that read the rows before a game's end committed, and keeps its copy after: the copy was
    kept under the old version, so the next reader builds afresh (never stale past a game's end)."""
    from westeros import kept

    built = []

    def build_while_a_game_ends():
        built.append(1)
        if len(built) == 1:
            kept.renew("test:version")  # the end commits while the first reader reads
        return f"copy {len(built)}"

    assert kept.until_renewed("test:copy", "test:version", build_while_a_game_ends, 60) == "copy 1"
    assert kept.until_renewed("test:copy", "test:version", build_while_a_game_ends, 60) == "copy 2"
    assert kept.until_renewed("test:copy", "test:version", build_while_a_game_ends, 60) == "copy 2"
    kept.renew("test:version")
    assert kept.until_renewed("test:copy", "test:version", build_while_a_game_ends, 60) == "copy 3"


class Unreachable:
    """A cache whose server is down (Redis refused the connection)."""

    def __getattr__(self, name):
        def refuse(*args, **kwargs):
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        return refuse


def test_with_the_cache_down_the_results_are_rendered_afresh(monkeypatch):
    """A kept copy is a saving, never a need (westeros/kept.py): with Redis down the home page still
    answers, its recent results read from the database (it answered 503 before)."""
    from web import views
    from westeros import kept

    finished = new_finished_game(5)
    monkeypatch.setattr(kept, "cache", Unreachable())
    monkeypatch.setattr(views, "cache", Unreachable(), raising=False)  # what the page read before
    home = Client().get("/")
    assert home.status_code == 200 and reverse("web-replay", args=[finished.pk]) in section(home)
