"""Two reference bots (examples/bot.py, each its own process) play a ranked game to its end through
the real server (issue 21, "Done when"): a Daphne server in embedded mode on a SQLite file of its own
(tests/live_server.py), two bot accounts with tokens; one bot challenges the other to a ranked card
game (the fastest of the rulesets to finish with random legal actions: two seats, every decision
answered by the bots), the other accepts from its event stream, and both play every decision they
learn of from the stream until the game ends. The game is then finished, every action was taken by
a player (no timeout, no engine seat), and both bots are rated in the card game."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.factories import whole_log
from tests.live_server import ROOT, running_server, stop_process

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes")

MAKE_BOTS = """
from accounts.models import ApiToken, User
for name in ("ravenbot", "crowbot"):
    user = User.objects.create_user(username=name, email=name + "@example.com", password="a-long-bot-password-42")
    user.is_bot = True
    user.save()
    print("BOT", name, ApiToken.issue(user, "reference bot")[1])
"""
GAME_LIMIT_SECONDS = 240  # a generous bound for a loaded machine; the game usually ends in well under a minute


def api(server, path: str, key: str):
    request = urllib.request.Request(f"{server.url}/api/v1/{path}", headers={"Authorization": f"Token {key}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def bot(server, key: str, *args: str) -> subprocess.Popen:
    # --token=KEY: a key may start with "-", which argparse would take for an option after a space
    return subprocess.Popen([sys.executable, "examples/bot.py", "--server", server.url, f"--token={key}", "--games", "1",
                             "--prefer-pass", "0.5", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


@pytest.mark.slow_once  # its own server on a SQLite file of its own: the same on both CI passes
def test_two_reference_bots_play_a_ranked_game_to_its_end():
    with running_server([sys.executable, "manage.py", "serve", "127.0.0.1:{port}", "--noreload"]) as server:
        keys = dict(re.findall(r"BOT (\w+) (\S+)", server.manage("shell", "-c", MAKE_BOTS)))
        raven = bot(server, keys["ravenbot"], "--accept", "--seed", "1")
        crow = bot(server, keys["crowbot"], "--challenge", "ravenbot", "--ruleset", "lcg", "--ranked", "--seed", "2")
        try:
            deadline = time.monotonic() + GAME_LIMIT_SECONDS
            for process in (crow, raven):
                process.wait(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        finally:
            outputs = {}
            for name, process in (("crowbot", crow), ("ravenbot", raven)):
                if process.poll() is None:
                    stop_process(process, grace=5)
                outputs[name] = process.stdout.read()
        report = f"\ncrowbot:\n{outputs['crowbot'][-3000:]}\nravenbot:\n{outputs['ravenbot'][-3000:]}\n{server.output()}"
        assert crow.returncode == 0 and raven.returncode == 0, report
        assert "accepted challenge" in outputs["ravenbot"], report
        games = api(server, "me/games", keys["crowbot"])["results"]
        assert len(games) == 1, report
        game = api(server, f"games/{games[0]['id']}", keys["crowbot"])
        assert game["status"] == "finished" and game["ranked"] and game["ruleset"] == "lcg", report
        assert {s["user"] for s in game["seats"]} == {"ravenbot", "crowbot"}
        assert all(s["bot_account"] and not s["is_bot"] and not s["left"] for s in game["seats"])
        log = whole_log(lambda path: api(server, path.removeprefix("/api/v1/"), keys["crowbot"]), game["id"])["entries"]
        assert log and {entry["source"] for entry in log} == {"player"}, "every decision was the bots' own"
        for name in ("ravenbot", "crowbot"):
            profile = api(server, f"users/{name}", keys["crowbot"])
            assert profile["bot"] is True
            assert [(r["ruleset"], r["games"]) for r in profile["ratings"]] == [("lcg", 1)], profile
