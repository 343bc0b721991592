"""The ASGI application routes websockets through Channels with the session user attached."""
from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from westeros.asgi import websocket_application


@pytest.fixture
def application(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    return websocket_application()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_ping_websocket_answers(application):
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"hello": 1})
    assert await communicator.receive_json_from() == {"type": "pong", "user": None, "echo": {"hello": 1}}
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_websocket_from_a_foreign_origin_is_refused(application):
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"origin", b"http://evil.example"), (b"host", b"testserver")])
    connected, _ = await communicator.connect()
    assert not connected


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_site_routes_tournament_sockets(application):
    from asgiref.sync import sync_to_async

    from tests.factories import make_user
    from tournaments import services

    tournament = await sync_to_async(lambda: services.do_create_tournament(
        make_user(), services.TournamentSettings(name="Routed cup")))()
    communicator = WebsocketCommunicator(application, f"/ws/tournaments/{tournament.pk}/",
                                         headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from(timeout=5))["tournament"] == tournament.pk
    await communicator.disconnect()
