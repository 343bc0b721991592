"""A websocket's error messages (bad_message) in the socket's language (issue 29): the account's
setting, else the handshake's language cookie or Accept-Language (westeros/outages.py
scope_language), as a page's; the code stays English."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from tests.factories import make_game, make_user
from westeros.asgi import websocket_application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HOST = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


@pytest.fixture
def app(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    return websocket_application()


async def socket(app, path: str, headers=(), user=None):
    communicator = WebsocketCommunicator(app, path, headers=HOST + list(headers))
    if user is not None:
        communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def next_error(communicator):
    while True:
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] == "error":
            return message


async def test_an_unknown_message_is_refused_in_the_browsers_language(app):
    game = await sync_to_async(make_game)()
    spanish = await socket(app, f"/ws/games/{game.id}/", [(b"accept-language", b"es-ES,es;q=0.9")])
    english = await socket(app, f"/ws/games/{game.id}/", [(b"accept-language", b"en")])
    for s in (spanish, english):
        await s.send_json_to({"type": "place_orders"})
    es, en = await next_error(spanish), await next_error(english)
    assert es["error"] == en["error"] == "bad_message"
    assert en["detail"].startswith('Send {"type": "ping"}')
    assert es["detail"].startswith('Envía {"type": "ping"}'), es
    for s in (spanish, english):
        await s.disconnect()


async def test_a_frame_that_is_not_json_is_refused_in_the_cookies_language(app):
    """The language cookie (a visitor's choice in the footer) wins over the browser's."""
    game = await sync_to_async(make_game)()
    s = await socket(app, f"/ws/games/{game.id}/", [(b"accept-language", b"en"), (b"cookie", b"django_language=es")])
    await s.send_to(text_data="{not json")
    error = await next_error(s)
    assert error["error"] == "bad_message"
    assert error["detail"] == "JSON no válido (línea 1, columna 2).", error
    await s.send_to(bytes_data=b"\x00\x01")
    error = await next_error(s)
    assert error["detail"] == "Envía marcos de texto JSON, no binarios.", error
    await s.disconnect()


async def test_the_accounts_language_wins_on_the_ping_socket(app):
    user = await sync_to_async(make_user)(language="es")
    s = await socket(app, "/ws/ping/", [(b"accept-language", b"en")], user=user)
    await s.send_to(text_data='{"a": "\\u0000"}')
    error = await next_error(s)
    assert error["error"] == "bad_message"
    assert error["detail"] == "No se admiten caracteres NUL (\\u0000).", error
    assert error["fields"] == {"a": ["No se admiten caracteres NUL (\\u0000)."]}
    await s.disconnect()


async def test_the_tournament_socket_says_it_is_read_only_in_the_sockets_language(app):
    from tournaments.services import TournamentSettings, do_create_tournament

    tournament = await sync_to_async(lambda: do_create_tournament(make_user(), TournamentSettings(name="Cup")))()
    spanish = await socket(app, f"/ws/tournaments/{tournament.id}/", [(b"accept-language", b"es-ES,es;q=0.9")])
    english = await socket(app, f"/ws/tournaments/{tournament.id}/", [(b"accept-language", b"en")])
    for s in (spanish, english):
        await s.send_json_to({"type": "ping"})
    es, en = await next_error(spanish), await next_error(english)
    assert es["error"] == en["error"] == "read_only"
    assert en["detail"] == "This socket only sends updates."
    assert es["detail"] == "Esta conexión solo envía actualizaciones.", es
    for s in (spanish, english):
        await s.disconnect()


async def test_english_stays_the_default(app):
    s = await socket(app, "/ws/ping/")
    await s.send_to(text_data="[1, 2")
    error = await next_error(s)
    assert error["detail"].startswith("Not valid JSON (line 1"), error
    await s.disconnect()
