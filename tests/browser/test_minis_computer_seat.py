"""The miniatures page names the computer's seat by its army and says it is the computer's (issue 29):
"Casa Lannister (ordenador)" in Spanish, "Lannister (computer)" in English, never "Lannister (Casa
Lannister)" (the server names a seat without a player by its id: web/views.py _seat_names); the
player's own seat stays "name (army)". Screenshots at 1440 and 390 px (test-artifacts/es-minis-
computer-seat-*.png, en-minis-computer-seat-*.png). Waits are on conditions, never on durations."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import PASSWORD, log_in

pytestmark = pytest.mark.browser

PLAYER = "mncomputerseat"
STAGE = ("from tests.browser.stage_minis import users; from games.services.computer import ComputerGame, "
         "do_play_computer; (u,) = users([{name!r}], {password!r}); "
         "g = do_play_computer(u, ComputerGame('minis', seat='stark')); print('game', g.pk)")


def shoot(page, artifacts, name: str) -> None:
    for width, height in ((1440, 1000), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=width < 400)
    page.set_viewport_size({"width": 1440, "height": 1000})


def test_the_computers_seat_reads_as_its_army_and_the_computer(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    out = live_asgi_server.manage("shell", "-c", STAGE.format(name=PLAYER, password=PASSWORD))
    game_id = re.search(r"game (\d+)", out).group(1)
    for locale, computer, me in (("es-ES", "Casa Lannister (ordenador)", f"{PLAYER} (Casa Stark)"),
                                 ("en-GB", "Lannister (computer)", f"{PLAYER} (Stark)")):
        page = new_page(1440, 1000, locale=locale)
        log_in(page, base, PLAYER)
        page.goto(f"{base}/games/{game_id}/")
        score = page.locator("#scoreline")
        score.locator(".seat-lannister strong").wait_for()
        assert score.locator(".seat-lannister strong").inner_text() == computer
        assert score.locator(".seat-stark strong").inner_text() == me
        assert "(Casa Lannister)" not in score.inner_text() and "Lannister (Lannister)" not in score.inner_text()
        shoot(page, artifacts, f"{locale[:2]}-minis-computer-seat")
