"""The miniatures tournament's pages speak of armies and teams (issue 33), in English and Spanish: the organize form
sets the army points and the tables (one against one, or two against two); the registration form offers the
player's saved armies legal at the event's size and the starter armies (never an illegal one, one of another size
or someone else's), refuses a bad one in words and says the army registered; the list of players says each army's
house and points (its name stays its owner's); a two-against-two event's page names the partner field, and its
tables and players their teams."""
from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.minis import armies as rules
from tests.factories import make_user
from tests.test_tournament_minis_armies import LANNISTER, STARK, event, mountain_40, register, saved
from tournaments import services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def client_for(user=None, language="en") -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    client.cookies["django_language"] = language
    return client


def register_form(page: str) -> str:
    form = page[page.index('/register"'):]
    return form[:form.index("</form>")]


FORM = {"name": "Fields of Fire", "ruleset": "minis", "format": "swiss", "rounds": 2, "seats_per_table": 2,
        "advance_per_table": 1, "division_size": 10, "scoring": "placement", "win_bonus": 10,
        "tiebreaker_1": "wins", "time_limit_0": 1, "time_limit_1": "hours", "game_size": "40", "minis_tables": "duel"}


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_organize_form_sets_the_army_points_and_the_tables(language):
    org = make_user()
    client = client_for(org, language)
    form = text_of(client.get(reverse("tournament-new")).content.decode())
    said = {"en": ("Army points", "40 points", "two against two (teams of two players, four a table)"),
            "es": ("Puntos de ejército", "40 puntos", "dos contra dos (equipos de dos jugadores, cuatro por mesa)")}
    for words in said[language]:
        assert words in form, words
    assert client.post(reverse("tournament-new"), FORM).status_code == 302
    duel = Tournament.objects.get(name="Fields of Fire")
    assert (duel.options, duel.seats_per_table) == ({"game_size": 40}, 2)
    client.post(reverse("tournament-new"), {**FORM, "name": "Teams", "game_size": "20", "minis_tables": "teams"})
    teams = Tournament.objects.get(name="Teams")
    assert teams.options == {"game_size": 20, "multiplayer": "teams"}
    assert (teams.seats_per_table, teams.min_seats_per_table) == (4, 4) and services.team_event(teams)
    client.post(reverse("tournament-new"), {**FORM, "name": "Board", "ruleset": "agot", "seats_per_table": 3})
    assert Tournament.objects.get(name="Board").options == {}  # the army fields are the miniatures game's


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_registration_form_offers_the_legal_armies_of_the_size_and_registers_with_one(language):
    org, alys, bran = make_user(), make_user(), make_user()
    lions = mountain_40(alys)
    thirty = saved(alys, LANNISTER, "Thirty")  # legal, but of 30 points
    broken = saved(alys, STARK, "Broken", commander="")
    theirs = mountain_40(bran)
    tid = event(org, size=40)
    client = client_for(alys, language)
    form = register_form(client.get(reverse("tournament", args=[tid])).content.decode())
    assert f'value="army:{lions.pk}"' in form and f'value="{STARK}"' in form and f'value="{LANNISTER}"' in form
    for other in (thirty, broken, theirs):
        assert f'value="army:{other.pk}"' not in form
    words = {"en": ("The army you bring to every game of the event (40 points)", "Mountain (your army)",
                    "Stark starter army", "a Stark army plays Stark"),
             "es": ("El ejército que llevas a todas las partidas del torneo (40 puntos)", "Mountain (tu ejército)",
                    "un ejército Stark juega con Stark")}
    for said in words[language]:
        assert said in text_of(form), said
    refused = client.post(reverse("tournament-action", args=[tid, "register"]), {"army": f"army:{thirty.pk}"},
                          follow=True)
    assert {"en": "Thirty cannot be played:", "es": "No se puede jugar con Thirty:"}[language] in text_of(
        refused.content.decode())
    assert not Registration.objects.filter(tournament_id=tid).exists()
    client.post(reverse("tournament-action", args=[tid, "register"]), {"army": f"army:{lions.pk}"})
    assert Registration.objects.get(tournament_id=tid, user=alys).army["name"] == "Mountain"
    points = rules.points(lions.army())
    mine = text_of(client.get(reverse("tournament", args=[tid])).content.decode())
    assert {"en": f"Your army: Mountain (Lannister, {points} points).",
            "es": f"Tu ejército: Mountain (Casa Lannister, {points} puntos)."}[language] in mine
    # the others read its house and points on the list of players, never its name
    register(bran, tid, STARK)
    seen = text_of(client_for(bran, language).get(reverse("tournament", args=[tid])).content.decode())
    players = seen[seen.rindex({"en": "Players (", "es": "Jugadores ("}[language]):]
    assert {"en": f"Army: Lannister, {points} points.", "es": f"Ejército: Casa Lannister, {points} puntos."}[language] \
        in players
    assert "Mountain" not in players
    assert {"en": "Armies: 1 Stark, 1 Lannister and 0 without an army (their table gives them a house).",
            "es": "Ejércitos: 1 Stark, 1 Lannister y 0 sin ejército (su mesa les da una casa)."}[language] in players


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_two_against_two_page_asks_for_the_partner_and_shows_the_teams(language):
    org = make_user()
    people = [make_user() for _ in range(4)]
    tid = event(org, teams=True, size=20)
    client = client_for(people[0], language)
    form = text_of(register_form(client.get(reverse("tournament", args=[tid])).content.decode()))
    assert {"en": "Your partner (their user name)", "es": "Tu compañero (su nombre de usuario)"}[language] in form
    client.post(reverse("tournament-action", args=[tid, "register"]),
                {"army": STARK, "partner": people[1].username})
    register(people[1], tid, LANNISTER, people[0].username)
    for person in people[2:]:
        register(person, tid)
    services.do_start(tid, org)
    page = text_of(client.get(reverse("tournament", args=[tid])).content.decode())
    team = Registration.objects.get(tournament_id=tid, user=people[0]).team
    said = {"en": (f"Team {team}: {people[0].username} & {people[1].username}.", "two against two",
                   "armies of 20 points", "Team Player"),
            "es": (f"Equipo {team}: {people[0].username} & {people[1].username}.", "dos contra dos",
                   "ejércitos de 20 puntos", "Equipo Jugador")}
    for words in said[language]:
        assert words in page, words


def test_the_organizer_decides_a_two_against_two_table_by_its_winning_team():
    org = make_user()
    people = [make_user() for _ in range(4)]
    tid = event(org, teams=True)
    for person in people:
        register(person, tid)
    services.do_start(tid, org)
    client = client_for(org)
    page = client.get(reverse("tournament", args=[tid])).content.decode()
    table = Registration.objects.get(tournament_id=tid, user=people[0]).seats.get().table
    seats = list(table.seats.select_related("registration__user"))
    losers = [s for s in seats if s.registration.team != seats[0].registration.team]
    winners = [s for s in seats if s not in losers]
    names = " & ".join(s.registration.user.username for s in losers)
    said = f"Team {losers[0].registration.team} ({names}) won"
    assert said in text_of(page) and "Fourth place" not in text_of(page)
    value = ",".join(s.seat for s in [*losers, *winners])
    assert f'value="{value}"' in page
    client.post(reverse("tournament-action", args=[tid, "adjudicate"]), {"table": table.pk, "ranking": value})
    places = {s.registration_id: s.place for s in table.seats.all()}
    assert {places[s.registration_id] for s in losers} == {1} and {places[s.registration_id] for s in winners} == {2}
