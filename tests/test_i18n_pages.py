"""The second batch of pages in Spanish (issue 29): the challenges pages (the home page's section
included), the tournaments pages, with their refusals and form errors. The same checks as
tests/test_i18n.py's: the Spanish rendering keeps no visible sentence of the English one but names,
and says its own sentences."""
from __future__ import annotations

import re
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


def test_the_challenge_form_has_no_english_sentence_in_spanish(people):
    # the lobby form's words it shares (web/forms.py: games, times, B'Twixt's modes, the armies) included;
    # the houses' names are the same in both languages
    left, spanish = english_left(logged_in(people[0]), "/challenges/new/brienne/",
                                 names={"arya", "brienne", "Stark", "Lannister"})
    assert not left, f"English left on the Spanish challenge form: {sorted(left)}"
    assert {"Desafiar a brienne", "Enviar el desafío", "Desafía también a (nombres, separados por comas",
            "Avatares de la guerra (regla opcional", "Jugadores (de 3 a 6, contándote a ti", "1 día",
            "Modo corto", "Tierra de Nadie (juego de cartas, de 3 a 6 Líderes"} <= spanish


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


# --- notifications -----------------------------------------------------------------------------------

def test_the_notification_settings_page_has_no_english_sentence_in_spanish():
    user = make_user(username="samwell", email="sam@example.com")
    names = {"samwell", "sam@example.com", '{"content": "..."}'}  # the webhook's JSON body is code
    left, spanish = english_left(logged_in(user), "/accounts/notifications/", names=names)
    assert not left, f"English left on the Spanish notification settings: {sorted(left)}"
    assert {"Notificaciones", "Correo: tu turno", "Webhook: alguien te ha desafiado", "URL del webhook",
            "Volver a tu perfil", "Guardar"} <= spanish, spanish


def test_a_bad_webhook_address_is_refused_in_spanish(client):
    client.force_login(make_user())
    response = client.post("/accounts/notifications/", {"webhook_url": "http://127.0.0.1/hook"},
                           HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    assert "El webhook debe estar en una dirección pública" in response.content.decode()


def test_a_notification_is_written_in_its_recipient_s_language():
    """No request tells the language of an e-mail sent by a task: the recipient's setting does (else
    English), whatever language is active where it is composed."""
    from django.utils import translation

    from notifications import services
    from notifications.models import Kind, Notification
    from tests.factories import make_game

    spanish, english = make_user(language="es"), make_user(language="")
    game = make_game(3, users=[spanish, english, make_user()])
    data = {"seat": game.seats.get(user=spanish).seat, "deadline_at": "2026-11-30T18:00:00+00:00"}
    with translation.override("en"):
        subject, text = services.compose(Notification(user=spanish, game=game, kind=Kind.DEADLINE_NEAR, data=data))
    assert subject == f"[Westeros] El plazo está a punto de vencer en Partida {game.pk}, Juego de Tronos: El Juego de Tablero"
    assert text.startswith(f"Tu tiempo para decidir en Partida {game.pk}, Juego de Tronos: El Juego de Tablero, se "
                           "acaba el 30 de noviembre de 2026, a las 18:00 UTC. Juegas como ")
    data["seat"] = game.seats.get(user=english).seat
    with translation.override("es"):
        subject, _ = services.compose(Notification(user=english, game=game, kind=Kind.DEADLINE_NEAR, data=data))
    assert subject == f"[Westeros] Deadline near in Game {game.pk}, A Game of Thrones: The Board Game"


def test_a_challenge_notification_is_written_in_its_recipient_s_language(people):
    from notifications import challenges as challenge_notes
    from notifications import services

    arya, brienne, _ = people
    brienne.language = "es"
    brienne.save(update_fields=["language"])
    challenge = do_create_challenge(arya, ChallengeRequest(ruleset="lcg", users=["brienne"], time_limit=3600,
                                                           ranked=True))
    [note] = challenge_notes.decide(challenge.pk)
    subject, text = services.compose(note)
    assert subject == "[Westeros] arya te desafía a A Game of Thrones: The Card Game"
    assert text.startswith("arya te desafía a una partida puntuable de A Game of Thrones: The Card Game, "
                           "1 hora por decisión. Acepta o rechaza en tu página de desafíos antes del ")


# --- the API tokens page and the API docs ----------------------------------------------------------

def test_the_tokens_page_has_no_english_sentence_in_spanish(client):
    from tests.factories import make_token

    user = make_user(username="gendry")
    make_token(user, name="forja")
    names = {"gendry", "forja", "Authorization: Token <key>", "Bearer", "BOT"}  # names and the header's code
    left, spanish = english_left(logged_in(user), "/accounts/tokens/", names=names)
    # the token's first characters, and its date ("29 Nov 2026, 01:32" reads the same in Spanish)
    left = {text for text in left if not text.endswith("…") and not re.fullmatch(r"\d+ \w{3} \d{4}, \d\d:\d\d", text)}
    assert not left, f"English left on the Spanish tokens page: {sorted(left)}"
    assert {"Claves de API", "Crear la clave", "Revocar", "Cuenta bot", "Nombre", "Convertir a gendry en una cuenta bot",
            "Escribe tu nombre de usuario para confirmar"} <= spanish, spanish
    # a refusal of the bot form, in Spanish
    client.force_login(user)
    page = client.post("/accounts/tokens/bot/", {"confirm": "someone"}, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Escribe tu nombre de usuario, gendry, exactamente, para confirmar." in page


def test_the_api_docs_page_has_no_english_sentence_in_spanish():
    for factory in (Client, logged_in(make_user(username="tyrion"))):
        names = {"tyrion", "/api/v1/", "Authorization: Token <key>"}
        left, spanish = english_left(factory, "/api/docs/", names=names)
        assert not left, f"English left on the Spanish API docs page: {sorted(left)}"
        assert "Documentación de la API" in spanish
