"""A deadline passing on an open game page (issue 13, item 4): the server applies the default, and
the page shows it even when no live update reaches it, because it re-fetches once the countdown it
shows has run out. The websocket is switched off in this browser, so only that re-fetch can update
the page. Server and browser: conftest.py."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import PASSWORD, game_state, log_in

pytestmark = pytest.mark.browser
# seconds: long enough to load the page before it passes, even on a busy machine (the player logs in
# before the game is created, so the clock runs only from the game's creation to the page's first state)
TIME_LIMIT = 10

NEW_USER = """
from accounts.models import User
User.objects.create_user({name!r}, {name!r} + "@example.com", {password!r})
"""
SHORT_GAME = """
from accounts.models import User
from games.services.play import do_create_game
user = User.objects.get(username={name!r})
game = do_create_game(ruleset="agot", seating={{"stark": user, "lannister": None, "baratheon": None}},
                      time_limit={limit})
print("game", game.pk)
"""
NO_WEBSOCKET = "window.WebSocket = class { constructor() {} send() {} close() {} };"


def test_the_page_shows_a_timeout_without_a_live_update(live_asgi_server, new_page, request):
    base = live_asgi_server.url
    name = re.sub(r"\W", "", request.node.name)[:30]
    live_asgi_server.manage("shell", "-c", NEW_USER.format(name=name, password=PASSWORD))
    page = new_page()
    page.context.add_init_script(NO_WEBSOCKET)
    log_in(page, base, name)
    out = live_asgi_server.manage("shell", "-c", SHORT_GAME.format(name=name, limit=TIME_LIMIT))
    game_id = int(re.search(r"game (\d+)", out).group(1))
    page.goto(f"{base}/games/{game_id}/")
    page.wait_for_function("window.__westerosGame.state() !== null")
    shown = game_state(page)
    # The two bots have placed their orders; Stark's are awaited.
    assert shown["pending"] == {"stark": "place_orders"}, "the deadline passed too soon"
    assert "time left" in page.locator("#decision .deadline").inner_text()
    # The deadline passes; the server's runner places Stark's default orders; the page re-fetches.
    page.wait_for_function(f"window.__westerosGame.state().version > {shown['version']}",
                           timeout=TIME_LIMIT * 1000 + 15000)
    # The log (fetched after the game) marks the timeout: Stark is the only player who is not a bot.
    # Later deadlines may have passed too by now (Stark's next decisions also time out, and a slow
    # machine may be a round further on), so the timeout can sit in an older group of the log, which
    # starts closed: open every group the way a reader does, by clicking its title.
    page.wait_for_function("""() => {
        document.querySelectorAll('#log details:not([open]) > summary').forEach((s) => s.click());
        return [...document.querySelectorAll('#log .log-note')].some((n) => n.textContent.includes('time ran out'));
    }""", timeout=15000)
