"""The second batch of pages in Spanish (issue 29): the challenges pages (the home page's section
included), the tournaments pages, with their refusals and form errors. The same checks as
tests/test_i18n.py's: the Spanish rendering keeps no visible sentence of the English one but names,
and says its own sentences."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from challenges.models import Challenge
from challenges.services import ChallengeRequest, do_create_challenge, do_decline
from ratings.models import STANDARD_FORMAT, Rating
from tests.factories import make_user
from tests.test_i18n import english_left, html_lang, visible_texts

pytestmark = pytest.mark.django_db


def logged_in(user):
    """A client factory for english_left: a new client logged in as `user` (who follows the browser)."""
    def factory() -> Client:
        client = Client()
        client.force_login(user)
        return client
    return factory


def lobby_form_words() -> set[str]:
    """The lobby form's words (web/forms.py: ruleset labels, time limits, B'Twixt's modes, the
    miniatures' armies and modes), which the challenge form shares and which are still English
    (docs/translating.md): not this batch's."""
    from games import rulesets
    from web import forms as lobby_form

    words = {label for _, label in lobby_form.RULESETS} | {label for _, label in lobby_form.TIME_LIMITS}
    for label, help in lobby_form.BTWIXT_OPTIONS.values():
        words |= {label, help[:1].upper() + help[1:]}  # as |capfirst shows it
    for faction, army in lobby_form.army_lists():
        words |= {faction, army}
    words |= set(rulesets.MINIS_MODES.values())
    return {" ".join(w.split()).strip(" .:;,·()") for w in words}


# --- challenges ------------------------------------------------------------------------------------

@pytest.fixture
def people():
    return make_user(username="arya"), make_user(username="brienne"), make_user(username="cersei")


def test_the_challenges_page_in_every_state_has_no_english_sentence_in_spanish(people):
    arya, brienne, cersei = people
    # waiting for arya's answer: a three-player game with cersei too
    do_create_challenge(brienne, ChallengeRequest(ruleset="btwixt", users=["arya", "cersei"], time_limit=3600,
                                                  ranked=True))
    # arya's own, waiting; and one declined with a reason
    do_create_challenge(arya, ChallengeRequest(ruleset="lcg", users=["cersei"], time_limit=86400))
    declined = do_create_challenge(arya, ChallengeRequest(ruleset="lcg", users=["brienne"], time_limit=600))
    do_decline(declined.pk, brienne, "later")
    left, spanish = english_left(logged_in(arya), "/challenges/", names={"arya", "brienne", "cersei"})
    assert not left, f"English left on the Spanish challenges page: {sorted(left)}"
    assert {"Desafíos", "Esperan tu respuesta", "Tus desafíos", "Respondidos hace poco", "Aceptar", "Rechazar",
            "Cancelar este desafío", "Motivo", "Ahora mismo no acepto desafíos", "cersei: aún sin responder",
            "Tu partida amistosa de", "brienne rechazó: «No es buen momento para mí; vuelve a pedírmelo más tarde.»",
            } <= spanish, spanish
    page = " ".join(spanish)
    assert "te desafía a una partida puntuable de" in page and "con cersei: 1 hora por decisión" in page


def test_the_home_page_s_challenges_for_you_are_in_spanish(people):
    arya, brienne, cersei = people
    do_create_challenge(brienne, ChallengeRequest(ruleset="lcg", users=["arya"], time_limit=86400))
    spanish = Client()
    spanish.force_login(arya)
    texts = visible_texts(spanish.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode())
    assert {"Desafíos para ti", "Todos tus desafíos", "Aceptar", "Rechazar"} <= texts
    assert not {"Challenges for you", "All your challenges", "Accept", "Decline", "Reason"} & texts


def test_the_bots_page_has_no_english_sentence_in_spanish(people):
    bot = make_user(username="maester-bot", is_bot=True)
    Rating.objects.create(user=bot, ruleset="lcg", format=STANDARD_FORMAT, rating=1612, games=3)
    for client in (Client, logged_in(people[0])):
        left, spanish = english_left(client, "/bots/", names={"maester-bot", "arya", "Bots", "Bot"})  # a loanword
        assert not left, f"English left on the Spanish bots page: {sorted(left)}"
    assert {"Bots", "Juegos a los que ha jugado", "Puntuaciones", "Desafiar", "Tus desafíos"} <= spanish
    assert any(text.endswith("3 partidas puntuables") for text in spanish), spanish


def test_the_challenge_form_has_no_english_sentence_in_spanish_but_the_lobby_form_s_words(people):
    left, spanish = english_left(logged_in(people[0]), "/challenges/new/brienne/", names={"arya", "brienne"})
    left -= lobby_form_words()
    assert not left, f"English left on the Spanish challenge form: {sorted(left)}"
    assert {"Desafiar a brienne", "Enviar el desafío", "Desafía también a (nombres, separados por comas",
            "Avatares de la guerra (regla opcional", "Jugadores (de 3 a 6, contándote a ti"} <= spanish


def test_a_challenge_refused_by_the_form_or_the_service_says_why_in_spanish(people, client):
    arya, _, _ = people
    client.force_login(arya)
    form = {"ruleset": "btwixt", "time_limit": "3600", "seats": "4", "others": "cersei"}
    response = client.post("/challenges/new/brienne/", form, HTTP_ACCEPT_LANGUAGE="es")
    page = response.content.decode()
    assert response.status_code == 400 and html_lang(response) == "es"
    assert "El desafío no se ha enviado:" in page
    assert ("Jugadores: elegiste 4 jugadores, así que nombra a 3 jugadores para desafiar además de ti; "
            "nombraste a brienne y cersei.") in page
    response = client.post("/challenges/new/brienne/", {**form, "seats": "3", "others": "nobody-here"},
                           HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400 and "No hay ningún jugador llamado &#x27;nobody-here&#x27;." in \
        response.content.decode()
    # the same refusal through the API: its detail in Spanish, its code English
    from tests.factories import api_client_for

    body = api_client_for(arya).post("/api/v1/challenges", {"ruleset": "lcg", "users": ["nobody-here"],
                                                             "time_limit": 3600}, format="json",
                                     HTTP_ACCEPT_LANGUAGE="es").json()
    assert body["error"] == "invalid" and body["fields"]["users"] == ["No hay ningún jugador llamado 'nobody-here'."]


def test_answers_to_a_challenge_are_said_in_spanish(people, client):
    arya, brienne, _ = people
    challenge = do_create_challenge(brienne, ChallengeRequest(ruleset="lcg", users=["arya"], time_limit=3600))
    client.force_login(arya)
    page = client.post(f"/challenges/{challenge.pk}/decline/", {"reason": "ranked", "next": "/challenges/"},
                       HTTP_ACCEPT_LANGUAGE="es", follow=True).content.decode()
    assert "Rechazaste el desafío de brienne." in page
    # answering again: the service's refusal, in Spanish
    page = client.post(f"/challenges/{challenge.pk}/accept/", {"next": "/challenges/"},
                       HTTP_ACCEPT_LANGUAGE="es", follow=True).content.decode()
    assert "Este desafío ya no espera respuestas: rechazado." in page
    # the API keeps the reason's English words (reason_text) for every client
    assert Challenge.objects.get(pk=challenge.pk).invites.get().reason == "ranked"


def test_an_expired_challenge_is_said_expired_in_spanish(people, client):
    arya, brienne, _ = people
    challenge = do_create_challenge(arya, ChallengeRequest(ruleset="lcg", users=["brienne"], time_limit=3600))
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    client.force_login(arya)
    page = client.post(f"/challenges/{challenge.pk}/cancel/", {"next": "/challenges/"}, HTTP_ACCEPT_LANGUAGE="es",
                       follow=True).content.decode()
    assert "Este desafío ya no espera respuestas: caducado sin respuesta." in page


# --- tournaments -----------------------------------------------------------------------------------

def running_tournament():
    """A board-game tournament under way: its organizer, three players at a table, round 1 decided
    at the table by the organizer, so the page shows standings, a round, a table and places."""
    from tournaments import services
    from tournaments.models import Table

    organizer = make_user(username="varys")
    t = services.do_create_tournament(organizer, services.TournamentSettings(
        name="Copa del Tridente", ruleset="agot", seats_per_table=3, rounds=2, auto_advance=False,
        tiebreakers=["wins", "castles"]))
    players = [make_user(username=name) for name in ("arya", "brienne", "cersei")]
    for player in players:
        services.do_register(t.pk, player)
    services.do_start(t.pk, organizer)
    table = Table.objects.get(round__tournament=t)
    return t, organizer, players, table


def test_the_tournament_page_has_no_english_sentence_in_spanish():
    from ratings.templatetags.site_words import seat_name
    from tournaments import services

    t, organizer, players, table = running_tournament()
    # names, and names with numbers: the houses at the table, the players' seed lines ("1. arya (1500)"),
    # the organizer's choices of places ("Stark (arya)")
    names = {"varys", "arya", "brienne", "cersei", t.name, *(seat_name(s.seat, "agot") for s in table.seats.all())}
    names |= {f"{r.seed_rank}. {r.user.username} ({r.rating:.0f}" for r in t.registrations.all()}
    names |= {f"{seat_name(s.seat, 'agot')} ({s.registration.user.username}" for s in table.seats.all()}  # places
    # as a visitor and as its organizer (the organizer's forms: start, end, replace, drop, decide places)
    for factory in (Client, logged_in(organizer)):
        left, spanish = english_left(factory, f"/tournaments/{t.pk}/", names=names)
        assert not left, f"English left on the Spanish tournament page: {sorted(left)}"
    assert {"Mesas suizas", "en curso", "Ronda 1", "Mesa 1", "Empezar la siguiente ronda", "Terminar el torneo",
            "Decide el resultado de la mesa 1", "Primer puesto", "Jugadores (3", "puntos por puesto",
            "empates resueltos por más victorias y después más Castillos y Fortalezas controlados al final de las "
            "partidas"} <= spanish, spanish
    # once the table is decided: the standings and the table's places
    services.do_adjudicate(t.pk, organizer, table.pk, [s.seat for s in table.seats.order_by("position")])
    left, spanish = english_left(logged_in(players[0]), f"/tournaments/{t.pk}/", names=names)
    assert not left, f"English left on the Spanish tournament page: {sorted(left)}"
    assert {"Clasificación", "Puntos", "Victorias", "Castillos", "Suministro", "Retirarme"} <= spanish, spanish


def test_the_tournament_list_and_form_have_no_english_sentence_in_spanish():
    t, organizer, _, _ = running_tournament()
    left, spanish = english_left(logged_in(organizer), "/tournaments/", names={"varys", t.name, "/api/v1/tournaments"})
    assert not left, f"English left on the Spanish tournament list: {sorted(left)}"
    assert {"Torneos", "Organiza un torneo", "en curso", "Mesas suizas"} <= spanish
    assert any("3 asientos por mesa" in text for text in spanish), spanish
    left, spanish = english_left(logged_in(organizer), "/tournaments/new/", names={"varys"})
    assert not left, f"English left on the Spanish tournament form: {sorted(left)}"
    assert {"Nombre", "Jugadores por mesa", "Primer desempate", "Tiempo por decisión", "más victorias", "días"} <= spanish


def test_a_tournament_form_error_and_a_refusal_are_in_spanish(client):
    t, organizer, players, _ = running_tournament()
    client.force_login(organizer)
    form = {"name": "Copa", "ruleset": "btwixt", "format": "swiss", "rounds": 2, "seats_per_table": 3,
            "advance_per_table": 2, "division_size": 10, "scoring": "placement", "win_bonus": 10,
            "tiebreaker_1": "castles", "time_limit_0": 0, "time_limit_1": "days"}
    page = client.post("/tournaments/new/", form, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Tiempo por decisión: un número entero de minutos, horas o días." in page
    assert "Tierra de Nadie no tiene Castillos ni Fortalezas: elige entre" in page
    # a refusal of the service, as a message: the next round while the first is being played
    page = client.post(f"/tournaments/{t.pk}/start-round", HTTP_ACCEPT_LANGUAGE="es", follow=True).content.decode()
    assert "La ronda 1 aún no ha terminado." in page
    client.force_login(players[0])
    page = client.post(f"/tournaments/{t.pk}/register", HTTP_ACCEPT_LANGUAGE="es", follow=True).content.decode()
    assert "Las inscripciones de este torneo no están abiertas." in page
