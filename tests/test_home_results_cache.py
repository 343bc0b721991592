"""The home page's recent results are kept rendered, one copy per language (web.views.recent_results_html,
issue 27): a Spanish page never shows the English copy, nor an English page the Spanish one, and a
copy is kept only RECENT_RESULTS_SECONDS (a result that ends after it was made shows once it expires)."""
from __future__ import annotations

import pytest
from django.core.cache import cache
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


def test_a_result_shows_once_the_kept_copy_expires():
    first = do_create_game(ruleset="agot", seating=dict.fromkeys(get_ruleset("agot").seat_names(3)), seed=5)
    assert reverse("web-replay", args=[first.pk]) in section(Client().get("/"))
    second = do_create_game(ruleset="agot", seating=dict.fromkeys(get_ruleset("agot").seat_names(3)), seed=6)
    assert reverse("web-replay", args=[second.pk]) not in section(Client().get("/"))  # the kept copy
    cache.delete("home:recent-results:en")  # what RECENT_RESULTS_SECONDS later does
    assert reverse("web-replay", args=[second.pk]) in section(Client().get("/"))


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

    finished = do_create_game(ruleset="agot", seating=dict.fromkeys(get_ruleset("agot").seat_names(3)), seed=5)
    monkeypatch.setattr(kept, "cache", Unreachable())
    monkeypatch.setattr(views, "cache", Unreachable(), raising=False)  # what the page read before
    home = Client().get("/")
    assert home.status_code == 200 and reverse("web-replay", args=[finished.pk]) in section(home)
