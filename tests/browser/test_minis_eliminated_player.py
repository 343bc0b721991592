"""A free-for-all player with no combat unit left is out (issue 33, M131): the battlefield page says so to everyone
as it happens (their score line: "out of the battle"; their corner greyed, its name struck through; the VP in the
status line only those still fighting), tells the eliminated player themselves in a sentence, and never asks them
again while the others play on, nor offers them the pause vote (the others' waits for those still fighting). The
position is staged (tests/browser/stage_minis_multiplayer.py: the scenario of
tests/scenarios/minis/multiplayer/71, four people; Lannister's attack and the rest of round 1 played through the
play service while the pages are open); screenshots at 1440 and 390 px go to test-artifacts/."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import PASSWORD, log_in, wait_until

pytestmark = pytest.mark.browser

NAMES = ["el_ned", "el_tywin", "el_robb", "el_jaime"]   # stark, lannister, stark_2, lannister_2
STAGING = "from tests.browser.stage_minis_multiplayer import {call}"
OUT_NOTE = "Your army has no combat unit left on the table: you are out of the battle"


def corner_style(page, seat: str) -> dict:
    """The computed fill of `seat`'s corner and the text decoration of the corner's name."""
    return page.evaluate("""(seat) => { const r = document.querySelector(`#field .mn-deploy.corner.seat-${seat}`);
        const label = r.nextElementSibling;
        return { fill: getComputedStyle(r).fill, name: label.textContent, line: getComputedStyle(label).textDecorationLine }; }""", seat)


def test_an_eliminated_player_is_shown_out_and_never_asked_again(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    out = server.manage("shell", "-c", STAGING.format(call=f"eliminated_ffa; eliminated_ffa({NAMES!r}, {PASSWORD!r})"))
    game_id = re.search(r"game (\d+)", out).group(1)

    robb = new_page(1440, 900)   # Stark (second army): about to lose its last unit
    log_in(robb, server.url, "el_robb")
    robb.goto(f"{server.url}/games/{game_id}/")
    jaime = new_page(390, 844)    # Lannister (second army), next to play after Lannister
    log_in(jaime, server.url, "el_jaime")
    jaime.goto(f"{server.url}/games/{game_id}/")
    for page in (robb, jaime):
        page.locator("#scoreline .mn-seat.waiting.seat-lannister").wait_for()
        assert page.locator("#scoreline .mn-seat.out").count() == 0
        assert page.locator(".mn-out-note").is_hidden()
    assert corner_style(robb, "stark_2")["line"] == "none"

    server.manage("shell", "-c", STAGING.format(call=f"eliminate_stark_2; eliminate_stark_2({game_id})"))

    # everyone sees it as it happens: the chip, the corner, the status line's VP, the log
    for page in (robb, jaime):
        chip = page.locator("#scoreline .mn-seat.seat-stark_2")
        wait_until(page, lambda page=page: "out" in (page.get_attribute("#scoreline .mn-seat.seat-stark_2", "class") or ""),
                   "Stark (second army) marked out")
        assert "el_robb (Stark (second army))" in chip.inner_text() and "out of the battle" in chip.inner_text()
        assert page.locator("#scoreline .mn-seat.out").count() == 1
        assert "waiting" not in chip.get_attribute("class")
        phase = page.inner_text("#phase")
        assert "el_jaime's turn" in phase and "Lannister (second army) 0" in phase and "Stark (second army)" not in phase
        corner = corner_style(page, "stark_2")
        assert corner["name"] == "Stark (second army)" and corner["line"] == "line-through" and corner["fill"] != "none"
        assert corner_style(page, "lannister_2")["line"] == "none"
        page.locator("#log li", has_text="el_robb has no combat unit left on the table and is out of the battle").wait_for()
    # the eliminated player is told in a sentence and has nothing to decide; the others are not told they are out
    note = robb.locator(".mn-out-note")
    note.wait_for()
    assert OUT_NOTE in note.inner_text()
    assert "Nothing to decide" in robb.inner_text("#decision")
    # nothing to extend or concede for a player out of the battle (table_controls.js); the others keep theirs
    wait_until(robb, lambda: robb.locator("#concede").count() == 0 and robb.locator("#extend").count() == 0,
               "the eliminated player's concede and extend buttons gone")
    assert jaime.locator("#concede").count() == 1
    # nor a pause vote: the pause waits for the players still in the battle only (games/services/pause.py)
    assert robb.locator("#tc-pause").count() == 0 and robb.locator("#tc-resume").count() == 0
    assert robb.locator("#table-controls").is_hidden()  # nothing left in the bar: no empty panel
    pause = jaime.locator("#tc-pause")
    assert "el_ned" in pause.inner_text() and "el_tywin" in pause.inner_text() and "el_robb" not in pause.inner_text()
    assert jaime.locator(".mn-out-note").is_hidden()
    jaime.locator("#decision", has_text="Your decision").wait_for()
    # the whole table still shows under the sentence and the two rows of the score line
    assert robb.evaluate("document.querySelector('#field').getBoundingClientRect().bottom") <= 900
    robb.screenshot(path=str(artifacts / "minis-ffa-eliminated-1440.png"), full_page=False)
    jaime.screenshot(path=str(artifacts / "minis-ffa-eliminated-other-390.png"), full_page=True)
    robb.set_viewport_size({"width": 390, "height": 844})
    robb.screenshot(path=str(artifacts / "minis-ffa-eliminated-390.png"), full_page=True)
    assert robb.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

    # the rest of round 1 (Lannister has no unit left to activate): the others are asked in turn, Stark (second
    # army) never (the staging asserts it too)
    asked = server.manage("shell", "-c", STAGING.format(call=f"play_round_on; play_round_on({game_id})"))
    assert re.search(r"asked (\S+)", asked).group(1).split(",") == ["lannister_2", "stark"]
    wait_until(robb, lambda: "Round 2 of 6" in robb.inner_text("#phase"), "round 2 on the eliminated player's page")
    assert robb.locator(".mn-out-note").is_visible() and "Nothing to decide" in robb.inner_text("#decision")
    assert robb.locator("#scoreline .mn-seat.waiting.seat-stark_2").count() == 0
    # the First Player token passed left from Lannister, past the eliminated player, to Lannister (second army)
    wait_until(robb, lambda: robb.locator("#scoreline .mn-seat.waiting.seat-lannister_2").count() == 1, "round 2's first")
    assert robb.locator("#scoreline .mn-seat.waiting").count() == 1
