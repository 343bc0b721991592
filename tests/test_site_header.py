"""The site's header (the navigation) is kept per process (westeros/templatetags/site_header.py;
issue 27), rendered once per language, reader's name and challenges' count: a new name, a new count
or another language shows at once, and its Log out form carries the page's own CSRF token."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from challenges.models import Challenge, Invite
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def header(client: Client, language: str = "en") -> str:
    page = client.get("/decks/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    shown = page[page.index('<header class="site-header">'):page.index("</header>")]
    return re.sub(r'(csrfmiddlewaretoken" value=")[^"]+', r"\1X", shown)  # masked anew per request


def test_the_header_shows_a_new_name_a_new_count_and_the_language_at_once():
    alys = make_user()
    client = Client(enforce_csrf_checks=True)
    client.force_login(alys)
    shown = header(client)
    assert f">{alys.username}</a>" in shown and 'class="count"' not in shown
    assert header(client) == shown  # kept: the same again (but for the token)
    made = Challenge.objects.create(challenger=make_user(), ruleset="agot", time_limit=3600,
                                    expires_at=timezone.now() + timedelta(hours=1))
    Invite.objects.create(challenge=made, user=alys)
    assert 'aria-label="1 waiting for your answer">(1)</span>' in header(client)
    alys.username = "alys_of_winterfell"
    alys.save()
    assert ">alys_of_winterfell</a>" in header(client)
    assert "Desafíos" in header(client, "es") and 'aria-label="1 espera tu respuesta">(1)' in header(client, "es")
    # the Log out form carries this page's token, and it is taken
    page = client.get("/decks/").content.decode()
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))
    logout = re.search(r'action="/accounts/logout/"[^>]*>\s*<input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)"',
                       page)
    assert logout and logout.group(1) in tokens and "\x00" not in page
    assert client.post("/accounts/logout/", {"csrfmiddlewaretoken": logout.group(1)}).status_code in (200, 302)
    assert "Log in" in header(client) and "alys_of_winterfell" not in header(client)


def test_a_visitor_reads_the_header_without_a_form():
    shown = header(Client())
    assert "Log in" in shown and "csrfmiddlewaretoken" not in shown


def footer(page: str) -> str:
    return page[page.index('<footer class="site-footer">'):page.index("</footer>")]


def test_the_kept_footer_returns_to_each_page_with_its_own_token_in_each_language():
    """The footer (the language switch) is kept per language (westeros/templatetags/site_header.py
    site_footer, issue 27): each page's own address, escaped, is where the switch returns, its form
    carries the page's token, and the language read is the one marked current."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user())
    first = client.get("/lobbies/?ruleset=agot&q=<b>", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    second = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="next" value="/lobbies/?ruleset=agot&amp;q=%3Cb%3E"' in footer(first)
    assert 'name="next" value="/tournaments/"' in footer(second)
    for page in (first, second):
        tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))
        [token] = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', footer(page))
        assert token in tokens and "\x00" not in page
        assert 'value="en" lang="en" class="link" aria-current="true" disabled>English</button>' in footer(page)
    spanish = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'value="es" lang="es" class="link" aria-current="true" disabled>Español</button>' in footer(spanish)
    assert "Westeros sigue las reglas de los juegos de Juego de Tronos" in footer(spanish) and "Not affiliated" not in footer(spanish)
    visitor = Client().get("/accounts/login/?next=/games/").content.decode()
    assert 'name="next" value="/accounts/login/?next=/games/"' in footer(visitor)
    assert 'name="csrfmiddlewaretoken"' in footer(visitor) and "\x00" not in visitor
    # the switch works with the token the page gave
    [token] = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', footer(second))
    assert client.post(footer_action(second), {"csrfmiddlewaretoken": token, "language": "es",
                                               "next": "/tournaments/"}).status_code == 302


def footer_action(page: str) -> str:
    return re.search(r'<form method="post" action="([^"]+)" class="language-switch"', footer(page)).group(1)


def test_the_home_pages_kept_play_now_cards_carry_the_pages_token_and_speak_each_language():
    """The home page's play-now cards are kept per process (web/views.py play_now_html): signed in,
    each card's form carries the page's own token and starts a game; a visitor's cards link to log
    in first; each language its own words."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user())
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    cards = page[page.index('<section class="play-now"'):page.index("</section>", page.index('<section class="play-now"'))]
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))
    in_cards = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', cards)
    assert len(in_cards) == cards.count('class="game-card"') >= 4 and set(in_cards) <= tokens and "\x00" not in page
    assert "Play now against the computer" in cards
    action = re.search(r'<form method="post" action="(/play/btwixt/)"', cards).group(1)
    started = client.post(action, {"csrfmiddlewaretoken": in_cards[0]})
    assert started.status_code == 302 and "/games/" in started["Location"]
    spanish = client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Juega ya contra el ordenador" in spanish and "Play now against the computer" not in spanish
    visitor = Client().get("/").content.decode()
    assert 'class="play-now-button"' not in visitor and 'href="/accounts/login/?next=/play/btwixt/"' in visitor
