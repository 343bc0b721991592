"""A two-against-two game (issue 33, M130) of two people and two computer players clicked to its end in the browser:
staged near its end (tests/browser/stage_minis_multiplayer.py teams_near_the_end: round 5, the computers' team down to
one unit engaged with Stark's Sworn Swords), Stark's player activates the unit by clicking its tray and attacks from
the page; the computers' team is out (M131, M128) and both people's pages say the game is over, who won and how, in
words. Screenshots at 1440 and 390 px go to test-artifacts/."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import PASSWORD, game_state, open_game, pending, wait_until, wait_version

pytestmark = pytest.mark.browser

STAGE = "from tests.browser.stage_minis_multiplayer import teams_near_the_end; teams_near_the_end({names!r}, {password!r})"


def test_two_people_and_two_computers_play_a_two_against_two_to_its_end(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    out = server.manage("shell", "-c", STAGE.format(names=["tt_robb", "tt_tyrion"], password=PASSWORD))
    game_id = int(re.search(r"game (\d+)", out).group(1))
    robb = open_game(new_page, server, "tt_robb", game_id, 1440, 900, ready="#field .mn-tray")
    tyrion = open_game(new_page, server, "tt_tyrion", game_id, 390, 844, ready="#field .mn-tray")
    # the team's turn: both teammates asked (either may activate, M130)
    for page in (robb, tyrion):
        wait_until(page, lambda page=page: pending(page) == "activate", "the team's turn")
    assert "team: 3 VP" in robb.inner_text("#scoreline") and "team: 2 VP" in robb.inner_text("#scoreline")
    # Stark's player clicks the Sworn Swords' tray, activates it and attacks the Halberdiers
    tray = robb.locator("#field .mn-tray.seat-stark").first
    tray.scroll_into_view_if_needed()
    tray.click()
    robb.wait_for_selector("#decision button.confirm")
    assert "Activate Stark Sworn Swords" in robb.locator("#decision").inner_text()
    before = game_state(robb)["version"]
    robb.locator("#decision button.confirm").click()
    wait_version(robb, before)
    assert pending(robb) == "action"
    # the teammate's page learns of it by its own socket, maybe a moment later: waited for, not assumed
    wait_until(tyrion, lambda: pending(tyrion) is None, "the teammate no longer asked once Stark activated")
    robb.locator("#decision [data-sub=attack]").click()
    robb.wait_for_selector("#decision [data-target=halberds]:not([disabled])")
    robb.locator("#decision [data-target=halberds]").click()
    before = game_state(robb)["version"]
    robb.locator("#confirm").click()
    wait_version(robb, before)
    # the end, on both pages, in words
    for page in (robb, tyrion):
        wait_until(page, lambda page=page: game_state(page)["status"] == "finished", "the game's end")
        page.locator("#game-result").wait_for()
        result = page.inner_text("#game-result")
        assert "tt_robb" in result and "tt_tyrion" in result, result
        decision = page.inner_text("#decision")
        assert "The battle is over" in decision and "Stark and Lannister win." in decision, decision
        assert "A wins" not in decision  # the winning team by its armies, not by its key
        page.locator("#log li", has_text="win as a team").wait_for()
        log = page.inner_text("#log")
        assert "The battle is over: tt_robb and tt_tyrion win as a team." in log, log
        assert log.count("has no combat unit left on the table and is out of the battle") == 2, log
        # the computers' team is out: both chips say so, and team a's VP stand
        score = page.locator("#scoreline")
        assert score.locator(".mn-seat.out").count() == 2
        assert score.locator(".mn-seat.out.seat-stark_2").count() == 1 and score.locator(".mn-seat.out.seat-lannister_2").count() == 1
        assert page.locator("#game-result").inner_text().count("The computer") == 2
    assert "The battle is over: Stark and Lannister win (elimination)." in robb.inner_text("#phase"), robb.inner_text("#phase")
    result = robb.inner_text("#game-result")
    assert "tt_robb and tt_tyrion shared the victory." in result, result
    # the result above the table does not shrink it: scrolled past the result, the whole table fits the screen
    box = robb.locator("#field").bounding_box()
    assert 500 < box["height"] <= 900 - (robb.locator(".mn-tools").bounding_box()["height"]), box
    robb.screenshot(path=str(artifacts / "minis-2v2-end-1440.png"), full_page=False)
    tyrion.screenshot(path=str(artifacts / "minis-2v2-end-390.png"), full_page=True)
