"""The tournament pages speak to players (issue 26): the organize form takes the time per decision
in minutes, hours or days and the tie-breakers by name among those the game has (B'Twixt has no
castles), refusing bad values as sentences beside their fields; the event page names statuses,
tie-breakers and seats in words, and the organizer decides a table's places by seat name."""
from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games.engine.btwixt import data as btwixt_data
from tests.factories import make_user
from tournaments import services
from tournaments.forms import TIEBREAKER_NAMES
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db

FORM = {"name": "Words cup", "ruleset": "agot", "format": "swiss", "rounds": 2, "seats_per_table": 3,
        "advance_per_table": 2, "division_size": 10, "scoring": "placement", "win_bonus": 10,
        "tiebreaker_1": "wins", "tiebreaker_2": "castles", "time_limit_0": 3, "time_limit_1": "days",
        "auto_advance": "on"}
CODES = ("head_to_head", "time_used", "castles,", "wins,", "p1", "agot", "btwixt", "registration", "running")


def visible(page: bytes) -> str:
    """What a person reads: the page without its scripts, styles, tags and attributes."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", page.decode(), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


@pytest.fixture
def organizer(client):
    user = make_user()
    client.force_login(user)
    return user


def test_the_form_offers_durations_and_tie_breakers_in_words(client, organizer):
    page = client.get(reverse("tournament-new"))
    text = visible(page.content)
    for words in ("Time per decision", "minutes", "hours", "days", "First tie-breaker", *TIEBREAKER_NAMES.values()):
        assert words in text
    assert not [code for code in CODES if re.search(rf"\b{re.escape(code)}", text)], text
    assert "seconds per decision" not in text and "comma-separated" not in text
    # the day is the unit shown by default (one day per decision)
    assert re.search(r'<option value="days" selected>', page.content.decode())


def test_time_and_tie_breakers_are_saved_as_chosen(client, organizer):
    response = client.post(reverse("tournament-new"), {**FORM, "tiebreaker_2": "", "tiebreaker_3": "head_to_head",
                                                       "tiebreaker_4": "castles"})
    assert response.status_code == 302
    t = Tournament.objects.get(name="Words cup")
    assert t.time_limit == 3 * 86400 and t.tiebreakers == ["wins", "head_to_head", "castles"]
    client.post(reverse("tournament-new"), {**FORM, "name": "Quick cup", "time_limit_0": 90, "time_limit_1": "minutes"})
    assert Tournament.objects.get(name="Quick cup").time_limit == 90 * 60
    page = visible(client.get(reverse("tournament", args=[t.pk])).content)
    assert "3 days per decision" in page
    assert f"ties broken by {TIEBREAKER_NAMES['wins']}, then {TIEBREAKER_NAMES['head_to_head']}" in page
    assert "open for registration" in page


@pytest.mark.parametrize(("change", "words"), [
    ({"ruleset": "btwixt", "tiebreaker_2": "castles"}, "B'Twixt has no castles and strongholds: choose among"),
    ({"ruleset": "lcg", "seats_per_table": 2, "tiebreaker_2": "supply"},
     "A Game of Thrones: The Card Game has no supply track"),
    ({"tiebreaker_3": "wins"}, "“most wins” is chosen twice: choose each tie-breaker once."),
    ({"tiebreaker_2": "luck"}, "Choose one of the tie-breakers in the list."),
    ({"time_limit_0": 8, "time_limit_1": "days"}, "Time per decision: from 2 minutes to 7 days."),
    ({"time_limit_0": 1, "time_limit_1": "minutes"}, "Time per decision: from 2 minutes to 7 days."),
    ({"time_limit_0": "soon"}, "Time per decision: a whole number of minutes, hours or days."),
    ({"time_limit_0": 0}, "Time per decision: a whole number of minutes, hours or days."),
    ({"time_limit_1": "weeks"}, "Time per decision: a whole number of minutes, hours or days."),
    ({"min_seats_per_table": 5}, "The fewest players at a table cannot be more than the players per table (3)."),
    ({"ruleset": "btwixt", "tiebreaker_2": "", "seats_per_table": 2}, "B'Twixt is played by 3 to 6 players."),
])
def test_bad_values_are_refused_in_words(client, organizer, change, words):
    response = client.post(reverse("tournament-new"), {**FORM, **change})
    assert response.status_code == 200
    assert words in visible(response.content)
    assert not Tournament.objects.filter(name="Words cup").exists()


def test_btwixt_tournament_without_castles_is_made(client, organizer):
    response = client.post(reverse("tournament-new"), {**FORM, "ruleset": "btwixt", "tiebreaker_2": "head_to_head"})
    assert response.status_code == 302
    assert Tournament.objects.get(name="Words cup").tiebreakers == ["wins", "head_to_head"]


def test_the_event_page_names_seats_and_decides_places_by_name(client, organizer):
    t = services.do_create_tournament(organizer, services.TournamentSettings(
        name="Leaders cup", ruleset="btwixt", seats_per_table=3, rounds=1, auto_advance=False,
        tiebreakers=["wins", "time_used"]))
    for player in [make_user() for _ in range(3)]:
        services.do_register(t.pk, player)
    services.do_start(t.pk, organizer)
    page = client.get(reverse("tournament", args=[t.pk])).content
    text = visible(page)
    table = Table.objects.get(round__tournament=t)
    seats = list(table.seats.order_by("position"))
    leaders = btwixt_data.catalogue()["leaders"]
    for seat in seats:
        assert leaders[seat.seat] in text and not re.search(rf"\b{seat.seat}\b", text)
    assert "under way" in text and "being played" in text and "Decide the result of table 1" in text
    assert "First place" in text and "Third place" in text
    assert TIEBREAKER_NAMES["time_used"] in text


def test_the_organizer_decides_places_by_seat_name(client, organizer):
    # (the board game: adjudicating a B'Twixt table fails in tournaments/services.py _record, whose
    # summary's "supply" is a number there, not one per seat; reported, not this page's to fix)
    t = services.do_create_tournament(organizer, services.TournamentSettings(
        name="Houses cup", seats_per_table=3, rounds=1, auto_advance=False))
    for player in [make_user() for _ in range(3)]:
        services.do_register(t.pk, player)
    services.do_start(t.pk, organizer)
    table = Table.objects.get(round__tournament=t)
    seats = list(table.seats.order_by("position"))
    text = visible(client.get(reverse("tournament", args=[t.pk])).content)
    assert "First place" in text and "Third place" in text and "Stark" in text and "stark" not in text
    # a seat chosen twice is refused in words; the places chosen by name are saved
    url = reverse("tournament-action", args=[t.pk, "adjudicate"])
    twice = [seats[0].seat, seats[0].seat, seats[1].seat]
    response = client.post(url, {"table": table.pk, "ranking": twice}, follow=True)
    assert "Choose each seat once, from first place to last." in visible(response.content)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    order = [seats[2].seat, seats[0].seat, seats[1].seat]
    client.post(url, {"table": table.pk, "ranking": order})
    table.refresh_from_db()
    assert table.status == Table.Status.ADJUDICATED
    assert {s.seat: s.place for s in table.seats.all()} == {order[0]: 1, order[1]: 2, order[2]: 3}
    text = visible(client.get(reverse("tournament", args=[t.pk])).content)
    assert "decided by the organizers" in text


def test_the_blank_form_is_kept_per_language_with_each_readers_csrf_token(organizer):
    """The blank form's fields are rendered once per process and language (issue 27, thirteenth round): each
    reader gets it in their language with their own CSRF token, and a form posted with that token (CSRF checked)
    makes the tournament."""
    from django.test import Client

    pages = {}
    for language in ("en", "es", "en"):
        reader = Client(enforce_csrf_checks=True)
        reader.force_login(make_user())
        page = reader.get(reverse("tournament-new"), HTTP_ACCEPT_LANGUAGE=language)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
        assert "\x00" not in page.content.decode()
        form = re.search(r'<form method="post" class="card tournament-form">.*?</form>', page.content.decode(), re.S)
        pages.setdefault(language, []).append(visible(form.group(0).encode()))
        made = reader.post(reverse("tournament-new"), {**FORM, "name": f"Cup {language} {len(pages)}",
                                                       "csrfmiddlewaretoken": token}, HTTP_ACCEPT_LANGUAGE=language)
        assert made.status_code == 302, made.content[:300]
    assert "Players per table" in pages["en"][0] and "Players per table" not in pages["es"][0]
    assert pages["en"][0] == pages["en"][1]
    assert Tournament.objects.count() == 3
