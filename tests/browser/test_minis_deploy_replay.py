"""The miniatures game's page from the start: the roll-off's loser picks the First Player, then both
players deploy every unit through the page (a ghost tray dragged and turned on the battlefield,
checked by the server, confirmed), with random terrain drawn on the table. And the replay of a
finished battle drawn step by step with the same battlefield. Screenshots go to test-artifacts/."""
from __future__ import annotations

import re

import pytest

from tests.browser.test_minis_battle import _act, _no_ids, _open, _point
from tests.browser.util import PASSWORD, game_state, log_in

pytestmark = pytest.mark.browser


def test_minis_deploy(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    out = server.manage("shell", "-c", "from tests.browser.stage_minis import minis_game; "
                        f"minis_game(['mndeploya', 'mndeployb'], {PASSWORD!r})")
    game_id = int(re.search(r"game (\d+)", out).group(1))
    pages = {"stark": _open(new_page, server, "mndeploya", game_id), "lannister": _open(new_page, server, "mndeployb", game_id)}
    s = game_state(pages["stark"])
    assert s["summary"]["phase"] == "deployment" and s["summary"]["terrain"]
    assert pages["stark"].locator("#field .mn-terrain-g").count() == len(s["summary"]["terrain"])
    # the seat asked chooses the First Player from the page
    chooser = next(seat for seat, kind in s["pending"].items() if kind == "choose")
    page = pages[chooser]
    page.evaluate("window.__westerosGame.load()")
    assert "choose the First Player" in page.locator("#decision").inner_text()
    _act(page, page.locator("#decision button.choice", has_text="Stark"))
    dragged = False
    for _ in range(12):
        s = game_state(page)     # the page that acted last is up to date
        if s["summary"]["phase"] != "deployment":
            break
        seat = next(iter(s["pending"]))
        page = pages[seat]
        page.wait_for_function(f"(window.__westerosGame.state().pending || {{}}).{seat} === 'deploy'")
        page.locator("#decision button.choice[data-unit]").first.click()
        page.wait_for_selector(".mn-ghost")
        if not dragged:
            # the first tray is dragged 3 in sideways and turned by its handle before it is placed
            ghost = page.evaluate("window.__westerosGame.ghost()")
            cx, cy = ghost["c"]
            page.mouse.move(*_point(page, cx, cy))
            page.mouse.down()
            page.mouse.move(*_point(page, cx - 3, cy), steps=6)
            page.mouse.up()
            handle = page.locator(".mn-handle").bounding_box()
            page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
            page.mouse.down()
            page.mouse.move(*_point(page, cx - 3 + 4, cy + 4), steps=6)
            page.mouse.up()
            act = page.evaluate("window.__westerosGame.ghostAction()")["deploy"]
            assert act["facing"] == pytest.approx(45, abs=3)
            assert act["at"][0] < 24
            page.wait_for_function("document.getElementById('ghost-status').textContent.startsWith('Allowed')")
            page.screenshot(path=str(artifacts / "minis-deploy-ghost-1440.png"), full_page=True)
            dragged = True
        page.wait_for_function("document.getElementById('ghost-status').textContent.startsWith('Allowed')")
        _act(page, "#confirm")
    for page in pages.values():
        page.evaluate("window.__westerosGame.load()")
        page.wait_for_function("document.querySelectorAll('#field .mn-tray').length === 9")
        _no_ids(page.locator("#log").inner_text())
    s = game_state(pages["stark"])["summary"]
    assert s["phase"] == "activation" and all(u["at"] for u in s["units"].values())
    pages["stark"].screenshot(path=str(artifacts / "minis-deployed-1440.png"), full_page=True)
    # the battle begins with the start of the first turn: a trigger window asked of every seat whose
    # deck or Orders could answer it (the hand is never hinted), answered from the page
    seat = next(iter(game_state(pages["stark"])["pending"]))
    page = pages[seat]
    page.wait_for_function(f"(window.__westerosGame.state().pending || {{}}).{seat} === 'react'")
    text = page.locator("#decision").inner_text()
    assert "the start of the turn" in text and "Pass for the rest of this turn" in text
    _no_ids(text)
    _act(page, page.locator("#decision button.pass", has_text="Pass for the rest of this turn"))
    pages["lannister"].screenshot(path=str(artifacts / "minis-deployed-lannister-1440.png"), full_page=True)


def test_minis_replay(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    out = server.manage("shell", "-c", "from tests.browser.stage_minis import finished_minis; "
                        f"finished_minis(['mnreplaya', 'mnreplayb'], {PASSWORD!r})")
    game_id, status = re.search(r"game (\d+) (\w+)", out).groups()
    assert status == "finished"
    page = new_page(1440, 1000)
    log_in(page, server.url, "mnreplaya")
    page.goto(f"{server.url}/games/{game_id}/replay")
    page.wait_for_selector("#replay-table .mn-field")
    assert "The game as it started" in page.locator("#replay-entry").inner_text()
    page.click("[data-step=last]")
    page.wait_for_function("document.getElementById('replay-pos').textContent.includes('The battle is over')")
    assert page.locator("#replay-table .mn-tray").count() >= 1
    last = int(re.match(r"Step (\d+) of \1\b", page.locator("#replay-pos").inner_text()).group(1))
    assert last > 30
    for _ in range(30):   # back to a step where a unit was activated
        page.click("[data-step=prev]")
    # the page shows the step asked last (an answer to an earlier click arriving late is dropped)
    page.wait_for_function(f"document.getElementById('replay-pos').textContent.startsWith('Step {last - 30} of {last} ')")
    page.wait_for_selector("#replay-entry li")
    _no_ids(page.locator("#replay-entry").inner_text())
    page.screenshot(path=str(artifacts / "minis-replay-1440.png"), full_page=True)
