"""Issue 33 in the browser: the miniatures game's page plays two against two against the computer with your saved
40-point army (you and a computer against two computers), and your army against the computer's army of your house
(a mirror match); the challenge form takes the game size and your army, and
the person challenged accepts with theirs, which starts the game. Screenshots at 1440 and 390 px in
test-artifacts/ (minis-play-2v2-*, minis-play-mirror-*, minis-challenge-*)."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import log_in

pytestmark = pytest.mark.browser


def mountain(page) -> str:
    return page.locator("select[name=my_army] option", has_text="Mountain Host").get_attribute("value")


def test_two_against_two_against_the_computer_with_your_army(live_asgi_server, new_page, artifacts):
    names = ["mpc_alys", "mpc_bran"]
    live_asgi_server.manage("shell", "-c", f"from tests.browser.test_lobby_minis_form import *; stage_armies({names!r})")
    phone = new_page(390, 844)
    log_in(phone, live_asgi_server.url, names[0])
    phone.goto(live_asgi_server.url + "/play/minis/")
    phone.select_option("select[name=my_army]", mountain(phone))
    phone.get_by_label(re.compile("Two against two")).check()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    phone.screenshot(path=str(artifacts / "minis-play-2v2-390.png"), full_page=True)
    page = new_page(1440, 1000)
    log_in(page, live_asgi_server.url, names[0])
    page.goto(live_asgi_server.url + "/play/minis/")
    page.select_option("select[name=my_army]", mountain(page))
    page.get_by_label(re.compile("Two against two")).check()
    page.screenshot(path=str(artifacts / "minis-play-2v2-1440.png"), full_page=True)
    page.get_by_role("button", name="Play now against the computer").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.locator("#scoreline .mn-team").first.wait_for()
    score = page.inner_text("#scoreline")
    assert f"{names[0]} (Lannister)" in score and score.count("(computer)") == 3
    assert "First to 10" in page.inner_text("#board-panel")  # a 40-point game (M126)


def test_your_army_against_the_computers_army_of_your_house(live_asgi_server, new_page, artifacts):
    """A mirror match (issue 33): your saved Lannister army against the computer's Lannister starter army, seated as
    Lannister and Lannister (second army)."""
    names = ["mpm_alys", "mpm_bran"]
    live_asgi_server.manage("shell", "-c", f"from tests.browser.test_lobby_minis_form import *; stage_armies({names!r})")
    phone = new_page(390, 844)
    log_in(phone, live_asgi_server.url, names[0])
    phone.goto(live_asgi_server.url + "/play/minis/")
    phone.select_option("select[name=my_army]", mountain(phone))
    phone.select_option("select[name=their_army]", label="the Lannister starter army")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    phone.screenshot(path=str(artifacts / "minis-play-mirror-390.png"), full_page=True)
    page = new_page(1440, 1000)
    log_in(page, live_asgi_server.url, names[0])
    page.goto(live_asgi_server.url + "/play/minis/")
    page.select_option("select[name=my_army]", mountain(page))
    page.select_option("select[name=their_army]", label="the Lannister starter army")
    page.screenshot(path=str(artifacts / "minis-play-mirror-form-1440.png"), full_page=True)
    page.get_by_role("button", name="Play now against the computer").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.locator("#scoreline .mn-seat").first.wait_for()
    score = page.inner_text("#scoreline")
    assert f"{names[0]} (Lannister)" in score and "Lannister (second army)" in score and "Stark" not in score
    page.screenshot(path=str(artifacts / "minis-play-mirror-1440.png"), full_page=False)


def test_a_challenge_with_armies_through_the_pages(live_asgi_server, new_page, artifacts):
    names = ["mch_alys", "mch_bran"]
    live_asgi_server.manage("shell", "-c", f"from tests.browser.test_lobby_minis_form import *; stage_armies({names!r})")
    for width, height in ((1440, 1000), (390, 844)):
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, names[0])
        page.goto(f"{live_asgi_server.url}/challenges/new/{names[1]}/")
        page.select_option("select[name=ruleset]", "minis")
        page.select_option("select[name=game_size]", "40")
        page.select_option("select[name=my_army]", label="Mountain Host (40 points)")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.screenshot(path=str(artifacts / f"minis-challenge-new-{width}.png"), full_page=True)
        if width == 390:
            break
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(re.compile(r"/challenges/"))
    other = new_page(390, 844)
    log_in(other, live_asgi_server.url, names[1])
    other.goto(f"{live_asgi_server.url}/challenges/")
    other.select_option("select[name=army]", label="Winter Host")
    other.screenshot(path=str(artifacts / "minis-challenge-accept-390.png"), full_page=True)
    other.get_by_role("button", name="Accept").click()
    other.wait_for_url(re.compile(r"/games/\d+/$"))
    other.locator("#scoreline .mn-seat").first.wait_for()
    assert f"{names[1]} (Stark)" in other.inner_text("#scoreline")
