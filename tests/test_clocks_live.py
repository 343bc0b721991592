"""A clocked game times out a seat that stops answering (issue 21, "Done when"), end to end: a real
server in embedded mode (Daphne, the deadline runner inside it, as `python3 dev.py start` runs it),
a card game whose player never answers against the engine's player. The decision limit is an hour,
so only the clock can time the seat out: its 4-second bank runs out, the runner applies the
default, the seat's later decisions are defaulted at once (the flag fell: docs/clocks.md), and the
third timeout in a row hands it to the engine's player; nobody is left at the table, so the game is
abandoned."""
from __future__ import annotations

import json
import re
import sys
import time
import urllib.request

import pytest

from tests.live_server import running_server

MAKE_GAME = """
from accounts.models import ApiToken, User
from games.services.play import do_create_game
user = User.objects.create_user("slow", "slow@example.com", "a-long-passphrase-42")
game = do_create_game(ruleset="lcg", seating={"p1": None, "p2": user}, time_limit=3600, clock_bank=4,
                      clock_increment=1, max_consecutive_timeouts=3)
_, key = ApiToken.issue(user, "test")
print("GAME", game.pk, key)
"""


def get(server, path: str, key: str) -> dict:
    request = urllib.request.Request(f"{server.url}/api/v1{path}", headers={"Authorization": f"Token {key}"})
    return json.load(urllib.request.urlopen(request, timeout=10))


@pytest.mark.slow_once  # its own server on a SQLite file of its own: the same on both CI passes
def test_a_clocked_game_times_out_a_seat_that_stops_answering():
    with running_server([sys.executable, "manage.py", "serve", "127.0.0.1:{port}", "--noreload"]) as server:
        game_id, key = re.search(r"GAME (\d+) (\S+)", server.manage("shell", "-c", MAKE_GAME)).groups()
        first = get(server, f"/games/{game_id}", key)
        seat = {row["seat"]: row for row in first["seats"]}["p2"]
        assert first["clock"] == {"bank": 4, "increment": 1} and seat["clock"]["remaining"] <= 4
        stop_at = time.monotonic() + 60
        game = first
        while game["status"] == "active" and time.monotonic() < stop_at:
            time.sleep(0.5)
            game = get(server, f"/games/{game_id}", key)
        assert game["status"] == "abandoned", f"the clock did not time the seat out: {game['seats']}\n{server.output()}"
        seat = {row["seat"]: row for row in game["seats"]}["p2"]
        assert seat["is_bot"] and seat["abandoned"]
        assert seat["clock"] == {"remaining": 0, "running": False, "runs_out_at": None}
        entries = get(server, f"/games/{game_id}/log", key)["entries"]
        mine = [e["source"] for e in entries if e["seat"] == "p2"]
        assert mine[:3] == ["timeout"] * 3, mine  # three timeouts in a row, then the engine's player
        assert all(source == "bot" for source in mine[3:])
