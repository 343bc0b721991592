"""A game page whose live update never arrives still shows the move within a few keep-alives, with
nobody moving again (issue 28): the server's keep-alive carries the game's version, and the page
re-fetches when it is behind. The move is made in a manage.py process, whose in-memory channel layer
is not the server's: its update reaches no socket, as when channels-redis drops a message under
overload. Server and browser: conftest.py."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import PASSWORD, game_state, log_in

pytestmark = pytest.mark.browser

TWO_PLAYERS = """
from accounts.models import User
from games.services.play import do_create_game
users = [User.objects.create_user(n, n + "@example.com", {password!r}) for n in ({name!r}, {name!r} + "_l")]
game = do_create_game(ruleset="agot", seating={{"stark": users[0], "lannister": users[1], "baratheon": None}},
                      time_limit=3600)
print("game", game.pk)
"""
LANNISTER_MOVES = """
from games.engine import get_ruleset
from games.models import Game
from games.services.play import do_submit_action
game = Game.objects.get(pk={game_id})
seat = game.seats.get(seat="lannister")
do_submit_action(game.pk, seat.user, action=get_ruleset("agot").default_action(game.state, "lannister"),
                 version=game.version)
print("version", Game.objects.get(pk={game_id}).version)
"""
# What the page's socket receives, recorded before the page's own handler sees it.
RECORD_MESSAGES = """
window.__received = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => window.__received.push(JSON.parse(e.data)));
  }
};
"""


def test_the_page_shows_a_move_whose_live_update_was_lost(live_asgi_server, new_page, request):
    base = live_asgi_server.url
    name = re.sub(r"\W", "", request.node.name)[:24]
    out = live_asgi_server.manage("shell", "-c", TWO_PLAYERS.format(name=name, password=PASSWORD))
    game_id = int(re.search(r"game (\d+)", out).group(1))
    page = new_page(1440, 1000)
    page.context.add_init_script(RECORD_MESSAGES)
    log_in(page, base, name)
    page.goto(f"{base}/games/{game_id}/")
    page.wait_for_selector("#conn.on")
    page.wait_for_function("window.__westerosGame.state() !== null")
    before = game_state(page)
    assert "lannister" in before["pending"], before["pending"]

    out = live_asgi_server.manage("shell", "-c", LANNISTER_MOVES.format(game_id=game_id))
    version = int(re.search(r"version (\d+)", out).group(1))
    assert version > before["version"]

    # No update reaches the page; the keep-alive says the version, and the page re-fetches.
    page.wait_for_function(f"window.__westerosGame.state().version === {version}")
    received = page.evaluate("window.__received")
    assert {"type": "keepalive", "version": version} in received
    assert not [m for m in received if m["type"] in ("update", "gap")], received
    assert "lannister" not in game_state(page)["pending"]
