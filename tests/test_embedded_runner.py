"""Embedded mode (issue 13, item 4): with no Redis the deadline runner runs inside the web server, so
a timeout it applies reaches the players' websockets through the in-memory channel layer. (It used
to be a separate `run_deadlines` process with a channel layer of its own: pages kept asking for a
decision already taken.) Real Daphne on loopback, started as `python3 dev.py start` starts it."""
from __future__ import annotations

import asyncio
import json
import re
import sys
import time
import urllib.request

import pytest
import websockets

from tests.live_server import running_server

MAKE_GAME = """
from accounts.models import ApiToken, User
from games.services.play import do_create_game
users = [User.objects.create_user(f"p{n}", f"p{n}@example.com", "a-long-passphrase-42") for n in range(3)]
game = do_create_game(ruleset="agot", seating=dict(zip(["stark", "lannister", "baratheon"], users)), time_limit=5)
_, key = ApiToken.issue(users[0], "test")
print("GAME", game.pk, key)
"""


async def updates_until_timeout(url: str, game_id: int, key: str, wait: float) -> list[dict]:
    """Every message the Stark player's socket receives until an update arrives (or `wait` ends)."""
    received = []
    async with websockets.connect(f"ws://{url}/ws/games/{game_id}/?token={key}", origin=f"http://{url}") as socket:
        stop_at = time.monotonic() + wait
        while time.monotonic() < stop_at:
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), stop_at - time.monotonic()))
            except TimeoutError:
                break
            received.append(message)
            if message["type"] == "update":
                break
    return received


@pytest.mark.slow_once  # its own server on a SQLite file of its own: the same on both CI passes
def test_a_timeout_in_embedded_mode_reaches_the_players_socket():
    with running_server([sys.executable, "manage.py", "serve", "127.0.0.1:{port}", "--noreload"]) as server:
        game_id, key = re.search(r"GAME (\d+) (\S+)", server.manage("shell", "-c", MAKE_GAME)).groups()
        messages = asyncio.run(updates_until_timeout(f"127.0.0.1:{server.port}", int(game_id), key, wait=30))
        request = urllib.request.Request(f"{server.url}/api/v1/games/{game_id}/log",
                                         headers={"Authorization": f"Token {key}"})
        log = json.load(urllib.request.urlopen(request, timeout=10))
        hello, update = messages[0], messages[-1]
        assert hello["type"] == "hello"
        assert update["type"] == "update", f"no live update after the deadline: {messages}\n{server.output()}"
        # What the socket announced is what the deadline runner applied. Nobody plays, so every entry
        # after the version the socket said hello at is a timeout. (On a loaded machine the first
        # deadline may pass before the socket connects: then the update is a later deadline's.)
        assert hello["version"] < update["version"] <= log["version"]
        announced = [e for e in log["entries"] if hello["version"] < e["version"] <= update["version"]]
        assert announced and {e["source"] for e in announced} == {"timeout"}, announced
