"""Game websockets opened in-process by the tests (Channels' WebsocketCommunicator)."""
from __future__ import annotations

from channels.testing import WebsocketCommunicator

HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


async def open_game_socket(app, game_id: int, user=None) -> WebsocketCommunicator:
    """A socket on the game's live updates, as `user` (None: a visitor), past its hello."""
    communicator = WebsocketCommunicator(app, f"/ws/games/{game_id}/", headers=HEADERS)
    if user is not None:
        communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from())["type"] == "hello"
    return communicator
