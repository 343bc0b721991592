"""Clocks on the game pages (issue 21, docs/clocks.md): each of the four game pages shows every
player's clock under its title, and the clock of a seat with a decision pending counts down; a
replay shows each step's clocks.
Server and browser: conftest.py."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import PASSWORD, log_in

pytestmark = pytest.mark.browser

GAMES = """
from accounts.models import User
from games.services.play import do_create_game
me = User.objects.create_user({name!r}, {name!r} + "@example.com", {password!r})
others = [User.objects.create_user({name!r} + str(n), {name!r} + str(n) + "@example.com", {password!r}) for n in range(3)]
clock = dict(time_limit=3600, clock_bank=600, clock_increment=10)
games = {{
    "agot": do_create_game(ruleset="agot", seating=dict(zip(["stark", "lannister", "baratheon"], [me, *others[:2]])), **clock),
    "btwixt": do_create_game(ruleset="btwixt", seating=dict(zip(__import__("games.engine", fromlist=["x"]).get_ruleset("btwixt").seat_names(3), [me, *others[:2]])), **clock),
    "lcg": do_create_game(ruleset="lcg", seating={{"p1": me, "p2": others[0]}}, **clock),
    "minis": do_create_game(ruleset="minis", seating={{"stark": me, "lannister": others[0]}}, options={{"terrain": "random"}}, **clock),
}}
for ruleset, game in games.items():
    print("game", ruleset, game.pk)
from games.services.play import do_concede
over = do_create_game(ruleset="lcg", seating={{"p1": me, "p2": others[2]}}, **clock)
for user in (me, others[2]):
    do_concede(over.pk, user)
print("over", over.pk)
"""


def test_clocks_count_down(live_asgi_server, new_page, request, artifacts):
    base = live_asgi_server.url
    name = re.sub(r"\W", "", request.node.name)[:24]
    out = live_asgi_server.manage("shell", "-c", GAMES.format(name=name, password=PASSWORD))
    games = {ruleset: int(pk) for ruleset, pk in re.findall(r"game (\w+) (\d+)", out)}
    assert set(games) == {"agot", "btwixt", "lcg", "minis"}
    page = new_page(1440, 900)
    log_in(page, base, name)
    for ruleset, game_id in games.items():
        page.goto(f"{base}/games/{game_id}/")
        clocks = page.locator("#clocks")
        clocks.wait_for(state="visible")
        players = 3 if ruleset in ("agot", "btwixt") else 2
        assert clocks.locator(".clock").count() == players, clocks.inner_text()
        assert name in clocks.inner_text()  # players by their names
        running = clocks.locator(".clock.running b").first
        first = running.inner_text()
        assert re.fullmatch(r"(9|10):\d\d", first), first  # 10 minutes, minus the seconds since the start
        # the running clock counts down on its own, without a reload
        page.wait_for_function("(before) => { const b = document.querySelector('#clocks .clock.running b');"
                               " return b && b.textContent !== before; }", arg=first, timeout=30000)
        assert page.locator("#extend").count() == 0 or not page.locator("#extend").is_visible()  # no extension
        if ruleset == "agot":
            page.screenshot(path=str(artifacts / "clocks-agot-1440.png"))
    # the replay of a finished clocked game shows each step's clocks
    over = int(re.search(r"over (\d+)", out).group(1))
    page.goto(f"{base}/games/{over}/replay")
    page.locator("#replay-clocks .clock").first.wait_for()
    assert "10:00" in page.locator("#replay-clocks").inner_text()
    page.screenshot(path=str(artifacts / "clocks-replay-1440.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/games/{games['lcg']}/")
    page.locator("#clocks .clock.running").first.wait_for()
    page.screenshot(path=str(artifacts / "clocks-lcg-390.png"))
