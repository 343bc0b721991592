"""The miniatures game's battlefield page in two browsers: a staged battle (tests/browser/stage_minis.py)
where Stark maneuvers by dragging its tray on the SVG, Lannister charges and attacks, Stark strikes
back, every further question (re-rolls, condition tokens, reaction windows) answered on the page; a
move that breaks the rules shows the engine's reason in names; the page at 390 px. Screenshots go
to test-artifacts/. The live server, its database and Chromium are set up in conftest.py."""
from __future__ import annotations

import re
import time
from functools import partial

import pytest

from tests.browser.util import game_state, open_game, stage_game, wait_version
from tests.browser.util import pending as _pending  # also imported by the other table tests

pytestmark = pytest.mark.browser


_stage = partial(stage_game, module="stage_minis", function="minis_game")
_open = partial(open_game, ready="#field .mn-tray, #decision h2")  # a page on the battlefield, ready


def _act(page, target) -> None:
    """Click what sends an action, then wait until the page shows a newer version (a refusal fails)."""
    before = game_state(page)["version"]
    (page.locator(target) if isinstance(target, str) else target).first.click()
    wait_version(page, before)


def _refresh(page, before: int) -> None:
    page.wait_for_function(f"window.__westerosGame.state().version > {before}")


def _point(page, x: float, y: float) -> tuple[float, float]:
    """A table point (inches) in the page's pixels."""
    px, py = page.evaluate(f"window.__westerosGame.toClient({x}, {y})")
    return px, py


def _drag(page, start: tuple[float, float], end: tuple[float, float], steps: int = 8) -> None:
    page.mouse.move(*_point(page, *start))
    page.mouse.down()
    page.mouse.move(*_point(page, *end), steps=steps)
    page.mouse.up()


def _no_ids(text: str) -> None:
    """Names, never ids: no unit key (snake_case), no card id, no JSON."""
    assert not re.search(r"\b[a-z]+_[a-z_0-9]+\b", text), text
    assert not re.search(r"\b[1-4]0\d{3}\b", text), text
    assert "{" not in text and '":' not in text, text


def _answer_rest(pages: dict, until, timeout: float = 90) -> None:
    """Answer whatever else is asked (re-rolls kept, tokens not spent, windows passed, no pivot or
    surge) from the page, until `until()` holds; return at once when a page asks anything else. The
    pages reload their game between rounds of answers. Fails when `until()` does not hold within
    `timeout` seconds (a ceiling for a loaded machine, not an expected duration)."""
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            asked = {seat: _pending(page) for seat, page in pages.items()}
            raise AssertionError(f"the game did not reach the expected decision within {timeout:.0f} s; asked: {asked}")
        answered = False
        for page in pages.values():
            kind = _pending(page)
            if kind is None:
                continue
            box = page.locator("#decision")
            if kind in ("reroll", "spend", "react", "pivot", "surge", "redeploy"):
                _act(page, box.locator("button.pass"))
            elif kind == "discard":
                _act(page, box.locator("#confirm"))
            elif kind == "choose":
                _act(page, box.locator("button.choice"))
            else:
                return
            answered = True
        if not answered:  # nobody asked yet: the server is still at work, or a page has not heard
            next(iter(pages.values())).wait_for_timeout(100)
        for page in pages.values():
            page.evaluate("window.__westerosGame.load()")


def test_minis_battle(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    game_id = _stage(server, ["mnalice", "mnbob"])
    alice = _open(new_page, server, "mnalice", game_id)
    bob = _open(new_page, server, "mnbob", game_id)
    pages = {"stark": alice, "lannister": bob}
    # the table: four trays with their names, terrain with its type, the quadrants
    assert alice.locator("#field .mn-tray").count() == 5
    assert alice.locator("#field [data-terrain=forest]").count() == 1
    assert "Sworn Swords" in alice.locator("#field").text_content()
    assert alice.locator("#field [data-quadrant]").count() == 4
    assert "Tactics Board" in alice.locator("#board-panel").inner_text()
    # Stark activates the Sworn Swords by clicking its tray, then the button
    assert _pending(alice) == "activate"
    x, y = _point(alice, 24, 17.6)
    alice.mouse.click(x, y)
    alice.wait_for_selector("#decision button.confirm")
    assert "Activate Stark Sworn Swords" in alice.locator("#decision").inner_text()
    _act(alice, "#decision button.confirm")
    assert _pending(alice) == "action"
    alice.screenshot(path=str(artifacts / "minis-activated-1440.png"), full_page=True)
    # drag the tray 3.5 in forward (towards the Guardsmen): a ghost tray
    _drag(alice, (24, 17.6), (24, 21.1))
    alice.wait_for_selector(".mn-ghost")
    ghost = alice.evaluate("window.__westerosGame.ghostAction()")
    assert ghost["maneuver"]["forward"] == pytest.approx(3.5, abs=0.15)
    alice.wait_for_function("document.getElementById('ghost-status').textContent.startsWith('Allowed')")
    alice.screenshot(path=str(artifacts / "minis-maneuver-ghost-1440.png"), full_page=True)
    _act(alice, "#confirm")
    s = game_state(alice)["summary"]["units"]["sworn_swords"]
    assert s["at"][1] == pytest.approx(23.5, abs=0.2) and s["activated"]
    # Lannister: activate the Guardsmen, charge the Sworn Swords (scripted die: 6)
    bob.wait_for_function("window.__westerosGame.state().pending.lannister === 'activate'")
    _act(bob, bob.locator("#decision button.choice", has_text="Activate Lannister Guardsmen"))
    bob.locator("#decision [data-sub=charge]").click()
    bob.wait_for_selector("#field .mn-target-line.ok", state="attached")   # the server's check: it can be charged
    bob.wait_for_selector("#field .mn-target-line.no", state="attached")   # the Halberdiers are out of reach
    bob.locator("#decision [data-target=sworn_swords]").click()
    bob.screenshot(path=str(artifacts / "minis-charge-targets-1440.png"), full_page=True)
    _act(bob, "#confirm")
    _answer_rest(pages, lambda: (game_state(bob)["summary"]["last_attack"] or {}).get("attacker") == "guardsmen"
                 and _pending(alice) == "activate")
    s = game_state(bob)["summary"]
    assert s["last_charge"]["result"] == "success"
    assert "guardsmen" in s["units"]["sworn_swords"]["engaged"]
    assert bob.locator("#dice-panel .mn-die").count() >= 1
    bob.screenshot(path=str(artifacts / "minis-charge-attack-1440.png"), full_page=True)
    # Stark's Umber Berserkers, locked in melee with the Halberdiers: a melee attack from the page
    alice.evaluate("window.__westerosGame.load()")
    _act(alice, alice.locator("#decision button.choice", has_text="Activate House Umber Berserkers"))
    assert alice.locator("#decision [data-sub=maneuver]").is_disabled()       # engaged: no move
    alice.locator("#decision [data-sub=attack]").click()
    alice.wait_for_selector("#decision [data-target=halberdiers]:not([disabled])")
    alice.locator("#decision [data-target=halberdiers]").click()
    _act(alice, "#confirm")
    _answer_rest(pages, lambda: (game_state(alice)["summary"]["last_attack"] or {}).get("attacker") == "umber_berserkers"
                 and _pending(alice) in (None, "activate") and _pending(bob) in (None, "activate"))
    alice.evaluate("window.__westerosGame.load()")
    alice.wait_for_function("document.querySelectorAll('#dice-panel .mn-die').length > 0")
    # the log is fetched after the game: wait for it rather than read it at once
    alice.locator("#log", has_text="House Umber Berserkers attacks Lannister Halberdiers with Berserker Axes").wait_for()
    log = alice.locator("#log").inner_text()
    assert "Lannister Guardsmen charges Stark Sworn Swords" in log
    _no_ids(log)
    _no_ids(alice.locator("#decision").inner_text())
    alice.screenshot(path=str(artifacts / "minis-battle-1440.png"), full_page=True)


def test_minis_refused(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    game_id = _stage(server, ["mncarol", "mndave"])
    carol = _open(new_page, server, "mncarol", game_id)
    _act(carol, carol.locator("#decision button.choice", has_text="Activate Stark Sworn Swords"))
    # a March (twice its Speed, so the drag is not held at 5 in) dragged into the Guardsmen: the check refuses, in words
    carol.locator("#decision [data-sub=march]").click()
    carol.wait_for_selector(".mn-ghost")
    _drag(carol, (24, 17.6), (24, 27))
    carol.wait_for_function("document.getElementById('ghost-status').textContent.startsWith('Not allowed')")
    status = carol.locator("#ghost-status").inner_text()
    assert "crosses an enemy tray" in status
    _no_ids(status)
    assert carol.locator(".mn-ghost.bad").count() == 1
    carol.screenshot(path=str(artifacts / "minis-refused-1440.png"), full_page=True)
    # the measuring tape: two clicks on the table, the distance in inches
    carol.click("[data-tool=tape]")
    for point in ((10, 10), (10, 22)):
        carol.mouse.click(*_point(carol, *point))
    carol.wait_for_selector(".mn-tape-label")
    assert carol.locator(".mn-tape-label").text_content() == "12.00 in"
    carol.click("[data-tool=tape]")
    # ranges and arcs of the selected unit; the wheel zooms in
    carol.click("[data-tool=rings]")
    carol.click("[data-tool=arcs]")
    assert carol.locator(".mn-rings rect").count() == 3 and carol.locator(".mn-arcs polygon").count() == 4
    width = float(carol.get_attribute("#field", "viewBox").split()[2])
    carol.mouse.move(*_point(carol, 24, 24))
    carol.mouse.wheel(0, -300)
    carol.wait_for_function(f"parseFloat(document.getElementById('field').getAttribute('viewBox').split(' ')[2]) < {width}")
    carol.screenshot(path=str(artifacts / "minis-tools-1440.png"), full_page=True)
    before = game_state(carol)["version"]
    carol.click("#confirm")
    carol.wait_for_selector("#error:not([hidden])")
    error = carol.locator("#error").inner_text()
    assert error.startswith("Refused:")
    _no_ids(error)
    assert game_state(carol)["version"] == before


def test_minis_phone(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    game_id = _stage(server, ["mnerin", "mnfrank"])
    page = _open(new_page, server, "mnerin", game_id, width=390, height=844)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("#field").bounding_box()
    assert box["width"] >= 340 and box["height"] >= 340
    text = page.locator("main").inner_text()
    _no_ids(text.replace("x", "x"))
    page.screenshot(path=str(artifacts / "minis-phone-390.png"), full_page=True)
