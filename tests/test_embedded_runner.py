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

import websockets

from tests.live_server import running_server

MAKE_GAME = """
from accounts.models import ApiToken, User
from games.services.play import do_create_game
users = [User.objects.create_user(f"p{n}", f"p{n}@example.com", "a-long-passphrase-42") for n in range(3)]
game = do_create_game(ruleset="agot", seating=dict(zip(["stark", "lannister", "baratheon"], users)), time_limit=4)
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


def test_a_timeout_in_embedded_mode_reaches_the_players_socket():
    with running_server([sys.executable, "manage.py", "serve", "127.0.0.1:{port}", "--noreload"]) as server:
        game_id, key = re.search(r"GAME (\d+) (\S+)", server.manage("shell", "-c", MAKE_GAME)).groups()
        messages = asyncio.run(updates_until_timeout(f"127.0.0.1:{server.port}", int(game_id), key, wait=30))
        request = urllib.request.Request(f"{server.url}/api/v1/games/{game_id}/log",
                                         headers={"Authorization": f"Token {key}"})
        log = json.load(urllib.request.urlopen(request, timeout=10))
        assert [m["type"] for m in messages][0] == "hello" and messages[0]["version"] == 0
        update = messages[-1]
        assert update["type"] == "update", f"no live update after the deadline: {messages}\n{server.output()}"
        # What the socket announced is what the deadline runner applied: the three timeouts.
        assert update["version"] == log["version"] >= 3
        assert [e["source"] for e in log["entries"][:3]] == ["timeout"] * 3
