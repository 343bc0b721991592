"""The new-lobby form in Chromium with the card game chosen (issue 31): its own Players field offers a joust
or a melee of 3 to 6 ("4 players (a melee with titles)"); a 4-player melee lobby with two computer seats is
made with the creator's deck, a second person joins on the lobby page with the deck they pick, and both land
on the game's page, a melee of four areas. At 1440 and 390 px, screenshots in test-artifacts/."""
from __future__ import annotations

import re

import pytest

from tests.browser.test_lobby_minis_form import stage_users
from tests.browser.util import log_in

pytestmark = pytest.mark.browser
WIDTHS = ((1440, 900), (390, 844))


def test_a_melee_lobby_with_two_computer_seats_through_the_pages(live_asgi_server, new_page, artifacts):
    names = [f"mel_{w}_{r}" for w, _ in WIDTHS for r in ("a", "b")]
    live_asgi_server.manage("shell", "-c", f"from tests.browser.test_lobby_minis_form import *; stage_users({names!r})")
    assert stage_users  # staged in the server's environment above
    for width, height in WIDTHS:
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, f"mel_{width}_a")
        page.goto(live_asgi_server.url + "/lobbies/new/")
        page.select_option("select[name=ruleset]", "lcg")
        assert not page.locator("input[name=seats]").is_visible()  # the other games' Players field
        players = page.locator("select[name=lcg_seats]")
        assert players.is_visible() and players.input_value() == "2"
        assert players.locator("option").all_inner_texts() == [
            "2 players (a joust)", "3 players (a melee with titles)", "4 players (a melee with titles)",
            "5 players (a melee with titles)", "6 players (a melee with titles)"]
        players.select_option("4")
        page.fill("input[name=computer_seats]", "2")
        page.select_option("select[name=my_deck]", "the_old_ways")
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
        page.screenshot(path=str(artifacts / f"lcg-melee-lobby-form-{width}.png"), full_page=True)
        page.click("main form button[type=submit]")
        page.wait_for_url(re.compile(r"/lobbies/\d+/$"))
        main = page.locator("main").inner_text()
        assert "A Game of Thrones: The Card Game · 4 players" in main and "The computer plays 2 seats." in main
        other = new_page(width, height)
        log_in(other, live_asgi_server.url, f"mel_{width}_b")
        other.goto(page.url)
        other.select_option("select[name=deck]", "secrets_and_schemes")
        other.screenshot(path=str(artifacts / f"lcg-melee-lobby-join-{width}.png"), full_page=True)
        other.click("#join")
        other.wait_for_url(re.compile(r"/games/\d+/$"))
        other.wait_for_selector(".lcg-area.me")
        assert other.locator(".lcg-area").count() == 4
        assert "Secrets and Schemes" in other.inner_text("h1")
        page.wait_for_url(re.compile(r"/games/\d+/$"))  # the lobby page follows its lobby to the game
        page.wait_for_selector(".lcg-area.me")
        assert "The Old Ways" in page.inner_text("h1") and page.locator(".lcg-area").count() == 4
