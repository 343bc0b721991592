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
