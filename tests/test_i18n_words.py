"""The site's words built outside templates and game pages, in Spanish (issue 29): the game services'
refusals (GameError: the API keeps the English code and says the detail in the request's language),
the ruleset and options refusals, each ruleset's decision words in a notification written for a
Spanish recipient, the 503 answers, the bot session refusal, the admin's labels of our models, and
the small scripts' strings (djangojs)."""
from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.decision_words import A_DECISION, DECISIONS, decision_words
from games.models import Lobby
from notifications import services as notifications
from notifications.models import Kind, Notification
from tests.factories import api_client_for, make_game, make_lobby, make_user

pytestmark = pytest.mark.django_db
PLAYERS = {"agot": 3, "btwixt": 3, "lcg": 2, "minis": 2}


def spanish_api(user):
    client = api_client_for(user)
    client.credentials(HTTP_ACCEPT_LANGUAGE="es")
    return client


# --- GameError refusals through the API -------------------------------------------------------------

def test_a_refusal_keeps_its_english_code_and_says_its_detail_in_spanish():
    user = make_user()
    body = spanish_api(user).post("/api/v1/lobbies", {"ruleset": "agot", "seats": 3, "time_limit": 3600,
                                                      "ranked": True, "computer_seats": 1}, format="json").json()
    assert body["error"] == "invalid" and body["detail"] == "Algunos campos no son válidos."
    # COMPUTER_UNRATED inside the refusal, in Spanish too
    assert body["fields"]["ranked"] == [
        "Las partidas que empiezan con jugadores del ordenador no son puntuables para nadie. "
        "Deja sin marcar «Puntuable» o no des ningún asiento al ordenador."]
    # the same request in English is as before
    english = api_client_for(user).post("/api/v1/lobbies", {"ruleset": "agot", "seats": 3, "time_limit": 3600,
                                                            "ranked": True, "computer_seats": 1}, format="json").json()
    assert english["fields"]["ranked"] == [
        "Games that start with computer players are unrated for everyone. Leave Ranked unticked, or give no seat "
        "to the computer."]


def test_not_found_and_conflicts_are_said_in_spanish_with_their_codes():
    user = make_user()
    client = spanish_api(user)
    response = client.get("/api/v1/games/987654")
    assert response.status_code == 404
    assert response.json() == {"error": "not_found", "detail": "No existe esa partida, o no puedes verla.", "fields": {}}
    # a lobby that has started: its status in words, in Spanish
    lobby = make_lobby(seat_count=3)
    Lobby.objects.filter(pk=lobby.pk).update(status=Lobby.Status.CANCELLED)
    body = client.post(f"/api/v1/lobbies/{lobby.pk}/join", {}, format="json").json()
    assert body["error"] == "lobby_closed" and body["detail"] == "Esta sala está cancelada."
    # a game's version refusal, with its version key kept
    game = make_game(3)
    player = game.seats.get(seat="stark").user
    body = spanish_api(player).post(f"/api/v1/games/{game.pk}/actions", {"version": game.version + 5,
                                                                         "action": {"x": 1}}, format="json").json()
    assert body["error"] == "invalid" and body["version"] == game.version
    assert body["detail"] == f"La versión {game.version + 5} aún no existe; la partida va por la {game.version}."
    assert body["fields"]["version"] == [f"Como mucho {game.version}."]
    # not a player of the game
    body = client.post(f"/api/v1/games/{game.pk}/concede", {}, format="json").json()
    assert body["error"] == "forbidden" and body["detail"] == "No juegas en esta partida."


def test_the_ruleset_and_options_refusals_are_in_spanish_with_the_games_spanish_names():
    user = make_user()
    client = spanish_api(user)
    body = client.post("/api/v1/lobbies", {"ruleset": "lcg", "seats": 7, "time_limit": 3600}, format="json").json()
    assert body["fields"]["seats"] == ["A Game of Thrones: The Card Game se juega con 2 a 6 jugadores."]
    body = client.post("/api/v1/lobbies", {"ruleset": "btwixt", "seats": 9, "time_limit": 3600}, format="json").json()
    assert body["fields"]["seats"] == ["Tierra de Nadie se juega con 3 a 6 jugadores."]
    body = client.post("/api/v1/lobbies", {"ruleset": "chess", "seats": 2, "time_limit": 3600}, format="json").json()
    assert body["fields"]["ruleset"][0].startswith("Juego desconocido; elige uno de estos: ")
    body = client.post("/api/v1/lobbies", {"ruleset": "minis", "seats": 2, "time_limit": 3600,
                                           "options": {"mode": "a_clash_of_kings"}}, format="json").json()
    # the mode the site plays by the Spanish rulebook's name (glossary: minis "Here We Stand", seed 003:2928)
    assert body["fields"]["options"] == ["A Clash of Kings aún no está disponible: el modo es here_we_stand "
                                         "(Aquí aguantamos), el único que se juega en el sitio."]
    # the tournament service shows the same refusals
    from games.errors import GameError
    from tournaments.services import TournamentSettings, validate_settings
    with translation.override("es"), pytest.raises(GameError) as refused:
        validate_settings(TournamentSettings(name="Copa", ruleset="lcg", seats_per_table=7))
    assert refused.value.fields["seats_per_table"] == ["A Game of Thrones: The Card Game se juega con 2 a 6 jugadores."]


# --- decision words in a notification for a Spanish recipient ---------------------------------------

@pytest.mark.parametrize("ruleset", sorted(PLAYERS))
def test_each_decision_of_each_ruleset_is_in_spanish_in_a_spanish_recipient_s_notification(ruleset):
    game = make_game(PLAYERS[ruleset], ruleset=ruleset)
    seat = game.seats.select_related("user").order_by("position").first()
    seat.user.language = "es"
    seat.user.save(update_fields=["language"])
    for kind, english in DECISIONS[ruleset].items():
        with translation.override("es"):
            spanish = decision_words(ruleset, kind)
        assert spanish != english and spanish.strip() and "%" not in spanish, (ruleset, kind, spanish)
        _, text = notifications.compose(Notification(user=seat.user, game=game, kind=Kind.YOUR_TURN,
                                                     data={"seat": seat.seat, "decision": kind}))
        assert f": {spanish}." in text and english not in text, (ruleset, kind, text)
    # an English reader still reads English
    assert decision_words(ruleset, "no_such_kind") == "make a decision"


def test_the_decision_words_use_the_rulebooks_terms():
    with translation.override("es"):
        # games/i18n/glossary: agot "House" (Casa), "Raid order", "Messenger Raven"; lcg "Plot", "Renown";
        # minis "Tactics card", "Condition token"; btwixt "Power token", "Ally"
        assert decision_words("agot", "house_card") == "elige una carta de Casa"
        assert decision_words("agot", "raid") == "resuelve una de tus órdenes de Incursión"
        assert decision_words("agot", "raven") == "usa el Cuervo mensajero o no"
        assert decision_words("lcg", "plot") == "elige tu Trama"
        assert decision_words("lcg", "renown") == "elige los Personajes cuyo Renombre se aplica"
        assert decision_words("minis", "react") == "juega una carta de Tácticas o una Orden, o pasa"
        assert decision_words("minis", "spend") == "gasta una ficha de Estado o no"
        assert decision_words("btwixt", "token") == "coloca tu ficha de Poder"
        assert decision_words("btwixt", "claim") == "coloca al Aliado que has ganado"
        assert decision_words("agot", "no_such_kind") == "toma una decisión" != A_DECISION


def test_a_game_started_notification_names_the_pending_decision_in_spanish():
    game = make_game(3)
    seat = game.seats.select_related("user").get(seat="stark")
    seat.user.language = "es"
    seat.user.save(update_fields=["language"])
    _, text = notifications.compose(Notification(user=seat.user, game=game, kind=Kind.GAME_STARTED,
                                                 data={"seat": "stark", "pending": "place_orders"}))
    assert "coloca tus órdenes" in text and "place your orders" not in text


# --- outages and bot sessions -----------------------------------------------------------------------

def test_a_database_outage_answers_503_in_spanish_with_the_english_code(monkeypatch):
    from django.db import OperationalError

    from accounts import api as accounts_api

    def unavailable(*args, **kwargs):
        raise OperationalError("connection failed: too many clients already")

    monkeypatch.setattr(accounts_api.MeSerializer, "to_representation", unavailable)
    response = spanish_api(make_user()).get(reverse("api-me"))
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response.json()["error"] == "unavailable"
    assert response.json()["detail"] == ("La base de datos está ocupada o no disponible; no se ha cambiado nada. "
                                         "Vuelve a intentarlo en breve.")
    english = api_client_for(make_user()).get(reverse("api-me"))
    assert english.json()["detail"] == "The database is busy or unavailable; nothing was changed. Retry shortly."


def test_every_503_sentence_is_translated():
    from westeros.outages import ServiceUnavailable, unavailable_message

    with translation.override("es"):
        said = {unavailable_message(service, safe) for service in ("database", "cache (Redis)")
                for safe in (True, False)}
        said.add(str(ServiceUnavailable().detail))
    assert len(said) == 5
    for sentence in said:
        assert "Vuelve a" in sentence or "vuelve a" in sentence, sentence
        assert "unavailable" not in sentence and "Retry" not in sentence, sentence


def test_a_bot_account_s_browser_session_is_refused_in_spanish():
    bot = make_user(is_bot=True)
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(bot)
    response = client.post("/api/v1/lobbies", {}, content_type="application/json")
    assert response.status_code == 403 and response.json()["error"] == "bot_api_only"
    assert response.json()["detail"].startswith("Esta es una cuenta de bot: solo juega a través de la API")
    page = client.post("/lobbies/new/", {})
    assert page.status_code == 403 and page.content.decode().startswith("Esta es una cuenta de bot")


# --- the admin ---------------------------------------------------------------------------------------

def test_the_admin_change_list_of_our_models_is_in_spanish_for_a_spanish_staff_user():
    admin = make_user(is_staff=True, is_superuser=True, language="es")
    make_lobby(name="Viernes")
    client = Client()
    client.force_login(admin)
    page = client.get("/admin/games/lobby/").content.decode()
    assert '<html lang="es"' in page
    for label in ("Juego", "Creador", "Número de asientos", "Puntuable", "Privada", "Estado", "Salas"):
        assert label in page, label
    assert "<td class=\"field-status\">Abierta</td>" in page  # the status's label, not the code
    for english in ("Seat count", "Ruleset", "Creator", "Lobbies"):
        assert english not in page, english
    index = client.get("/admin/").content.decode()
    for name in ("Partidas", "Salas", "Torneos", "Puntuaciones", "Mensajes de chat", "Claves de API",
                 "Ajustes de notificaciones"):
        assert name in index, name
    # a change form: the fields' labels and help texts
    lobby = Lobby.objects.get(name="Viernes")
    form = client.get(f"/admin/games/lobby/{lobby.pk}/change/").content.decode()
    assert "Asientos del ordenador" in form and "segundos por decisión de fase" in form


def test_every_verbose_name_of_our_models_is_translated():
    from django.apps import apps

    ours = {"accounts", "games", "ratings", "tournaments", "challenges", "notifications", "chat"}
    left = []
    with translation.override("es"):
        for model in apps.get_models():
            if model._meta.app_label not in ours:
                continue
            names = [str(model._meta.verbose_name), str(model._meta.verbose_name_plural)]
            for field in model._meta.get_fields():
                if getattr(field, "auto_created", False) or not hasattr(field, "verbose_name"):
                    continue
                names.append(str(field.verbose_name))
            with translation.override("en"):
                english = [str(model._meta.verbose_name), str(model._meta.verbose_name_plural)] + [
                    str(f.verbose_name) for f in model._meta.get_fields()
                    if not getattr(f, "auto_created", False) and hasattr(f, "verbose_name")]
            left += [f"{model.__name__}: {e}" for e, s in zip(english, names, strict=True)
                     if e == s and e not in SAME_IN_SPANISH]
    assert not left, left


# words Spanish writes as English does (Django's own User fields are Django's)
SAME_IN_SPANISH = {"error", "password", "username", "id", "ID"}


# --- the scripts --------------------------------------------------------------------------------------

def test_the_small_scripts_strings_are_in_the_javascript_catalogue_and_translated():
    catalogue = polib.pofile(str(Path(settings.BASE_DIR) / "locale/es/LC_MESSAGES/djangojs.po"))
    entries = {e.msgid: e for e in catalogue}
    for msgid in ("Copied", "Copy the token", "The token is on your clipboard.",
                  "Copying failed: select the token and copy it yourself."):
        entry = entries[msgid]
        assert entry.msgstr and "fuzzy" not in entry.flags
        assert any("copy_token.js" in path for path, _ in entry.occurrences)
    assert entries["Copy the token"].msgstr == "Copiar la clave"
    # the catalogue a Spanish page loads says them
    script = Client().get("/jsi18n/es/").content.decode()
    assert "La clave est\\u00e1 en tu portapapeles." in script or "La clave está en tu portapapeles." in script


# --- chat and paging refusals ---------------------------------------------------------------------------

def test_chat_and_paging_refusals_are_in_spanish():
    game = make_game(3)
    player = game.seats.get(seat="stark").user
    client = spanish_api(player)
    body = client.post(f"/api/v1/games/{game.pk}/chat", {"channel": "table", "text": "\u200b"}, format="json").json()
    assert body["error"] == "invalid" and body["fields"]["text"] == [
        "Escribe algo visible: este mensaje solo tiene caracteres invisibles."]
    body = spanish_api(make_user()).post(f"/api/v1/games/{game.pk}/chat", {"channel": "table", "text": "hola"},
                                         format="json").json()
    assert body == {"error": "forbidden", "detail": "Solo los jugadores de esta partida pueden escribir en su chat.",
                    "fields": {}}
    body = client.get("/api/v1/ratings/agot", {"page": "abc"}).json()
    assert body["error"] == "invalid" and body["detail"] == "'page' debe ser un número entero."
    assert body["fields"]["page"][0].startswith("Un número entero de 1 a ")


# --- the accounts' and ratings' API refusals --------------------------------------------------------------

def test_the_bot_upgrade_and_token_refusals_are_in_spanish_on_the_api_and_the_tokens_page():
    player = make_user()
    make_game(3, users=[player, make_user(), make_user()], ranked=True)
    body = spanish_api(player).post("/api/v1/bot/account/upgrade", {}, format="json").json()
    assert body["error"] == "has_rated_games"
    assert body["detail"].startswith("Esta cuenta ha jugado partidas puntuables; solo una cuenta sin ninguna")
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(player)
    page = client.get("/accounts/tokens/").content.decode()
    assert "Esta cuenta ha jugado partidas puntuables" in page and "has played ranked games" not in page
    body = Client().post("/api/v1/auth/token", {"username": player.username, "password": "not it", "name": "x"},
                         content_type="application/json", HTTP_ACCEPT_LANGUAGE="es").json()
    assert body["detail"] == "Nombre de usuario o contraseña incorrectos."
    assert spanish_api(player).delete("/api/v1/me/tokens/98765").json()["detail"] == (
        "No tienes ninguna clave con este id.")
    body = spanish_api(player).get("/api/v1/users/nobody-here").json()
    assert body == {"error": "not_found", "detail": "No hay ningún jugador llamado 'nobody-here'.", "fields": {}}


def test_a_websocket_closed_for_an_outage_says_why_in_the_handshake_s_language():
    """The socket's last words follow the pages' rule: the account, else the cookie, else the browser."""
    import asyncio
    import json

    import redis

    from westeros.outages import CloseWhenLayerDown, scope_language

    async def layer_down(scope, receive, send):
        raise redis.exceptions.ConnectionError("down")

    def last_words(scope) -> dict:
        sent = []

        async def receive():
            return {"type": "websocket.connect"}

        async def send(message):
            sent.append(message)

        asyncio.run(CloseWhenLayerDown(layer_down)({"type": "websocket", **scope}, receive, send))
        assert sent[-1] == {"type": "websocket.close", "code": 4503}
        return json.loads(sent[-2]["text"])

    spanish = last_words({"headers": [(b"accept-language", b"es-ES,es;q=0.9")]})
    assert spanish["error"] == "unavailable" and spanish["detail"] == (
        "Las actualizaciones en directo no están disponibles ahora mismo; vuelve a conectar dentro de unos segundos.")
    assert last_words({"headers": []})["detail"] == (
        "Live updates are unavailable right now; reconnect in a few seconds.")
    assert scope_language({"headers": [(b"cookie", b"django_language=es"), (b"accept-language", b"en")]}) == "es"
    english_account = make_user(language="en")
    assert scope_language({"user": english_account, "headers": [(b"accept-language", b"es")]}) == "en"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_chat_refusal_on_the_game_socket_is_in_the_socket_s_language(settings):
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from westeros.asgi import websocket_application

    settings.ALLOWED_HOSTS = ["testserver"]
    game = await sync_to_async(make_game)()
    user = await sync_to_async(lambda: game.seats.get(seat="stark").user)()
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"accept-language", b"es")]
    socket = WebsocketCommunicator(websocket_application(), f"/ws/games/{game.pk}/", headers=headers)
    socket.scope["user"] = user
    connected, _ = await socket.connect()
    assert connected
    await socket.send_json_to({"type": "chat", "channel": "table", "text": "\u200b", "ref": 3})
    while (error := await socket.receive_json_from(timeout=30))["type"] != "error":
        pass
    assert error["error"] == "invalid" and error["detail"] == "Algunos campos no son válidos." and error["ref"] == 3
    assert error["fields"]["text"] == ["Escribe algo visible: este mensaje solo tiene caracteres invisibles."]
    await socket.disconnect()
