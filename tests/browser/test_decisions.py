"""Decisions the page builds itself from the view (mustering), on a staged situation (stage.py).
Server and browser: conftest.py."""
from __future__ import annotations

import pytest

from tests.browser.util import game_state, log_in

pytestmark = pytest.mark.browser


def test_mustering_in_winterfell(live_asgi_server, demo_game, new_page, request):
    base = live_asgi_server.url
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_muster; stage_muster({demo_game})")
    page = new_page()
    log_in(page, base, request.node.demo_user)
    page.goto(f"{base}/games/{demo_game}/")
    page.wait_for_selector("#muster-submit")
    assert "2 of 2 point(s) left" in page.locator("#decision").inner_text()
    page.click("button[data-muster='winterfell:knight']")
    # both points spent: every other item of Winterfell is greyed
    assert page.locator("button[data-muster='winterfell:footman']").is_disabled()
    page.click("#muster-submit")
    page.wait_for_function("window.__westerosGame.state().pending.stark !== 'muster'")
    assert sorted(game_state(page)["view"]["units"]["winterfell"]["stark"]) == ["footman", "knight"]
    assert page.locator("#error").is_hidden()


def test_replay_of_a_finished_game_step_by_step(live_asgi_server, new_page, artifacts):
    import re

    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage import finished_game; finished_game()")
    game_id = int(re.search(r"game (\d+) finished", out).group(1))
    page = new_page()
    page.goto(f"{live_asgi_server.url}/games/{game_id}/replay")
    page.wait_for_selector("#replay-pos:has-text('Step 0 of')")
    page.click("button[data-step=next]")
    page.wait_for_selector("#replay-pos:has-text('Step 1 of')")
    assert page.locator("#replay-entry .log-event").count() >= 1
    page.click("button[data-step=last]")
    page.wait_for_selector("#replay-pos:has-text('over')")
    page.screenshot(path=str(artifacts / "replay-page.png"))


def test_extend_the_deadline_once(live_asgi_server, demo_game, new_page, request):
    base = live_asgi_server.url
    page = new_page()
    log_in(page, base, request.node.demo_user)
    page.goto(f"{base}/games/{demo_game}/")
    page.wait_for_selector("#extend")
    me = lambda: next(s for s in game_state(page)["seats"] if s["seat"] == "stark")  # noqa: E731
    before = me()["deadline_at"]
    page.click("#extend")
    page.wait_for_function("window.__westerosGame.state().seats.find(s => s.seat === 'stark').extension_used")
    assert me()["deadline_at"] > before
    assert page.locator("#extend").count() == 0 and page.locator("#error").is_hidden()


def test_special_consolidate_power_musters(live_asgi_server, demo_game, new_page, request):
    base = live_asgi_server.url
    out = live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_consolidate; stage_consolidate({demo_game})")
    assert "consolidate" in out
    page = new_page()
    log_in(page, base, request.node.demo_user)
    page.goto(f"{base}/games/{demo_game}/")
    page.click("button[data-muster-from=winterfell]")
    page.click("button[data-muster='winterfell:footman']")
    page.click("button[data-muster='winterfell:footman → knight']")
    page.click("#muster-submit")
    page.wait_for_function("window.__westerosGame.state().view.orders.winterfell === undefined")
    assert page.locator("#error").is_hidden()
    assert sorted(game_state(page)["view"]["units"]["winterfell"]["stark"]) == ["footman", "knight"]


def test_raid_by_clicking_the_target_on_the_board(live_asgi_server, demo_game, new_page, request):
    base = live_asgi_server.url
    out = live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_raid; stage_raid({demo_game})")
    assert "('stark', 'raid')" in out
    page = new_page()
    log_in(page, base, request.node.demo_user)
    page.goto(f"{base}/games/{demo_game}/")
    page.wait_for_selector("#board path.area.choosable[data-area=the_stony_shore]")
    # the target is highlighted and reachable by keyboard: focus it and press Enter
    page.focus("#board path.area.choosable[data-area=the_stony_shore]")
    page.keyboard.press("Enter")
    page.wait_for_function("window.__westerosGame.state().view.orders.the_stony_shore === undefined")
    assert page.locator("#error").is_hidden()


def test_a_missed_update_is_fetched_on_reconnect(live_asgi_server, demo_game, new_page, request):
    """The socket drops; meanwhile the game moves on (an action sent outside the page); the page
    reconnects, its hello carries a newer version, and the page re-fetches the game."""
    base = live_asgi_server.url
    page = new_page()
    log_in(page, base, request.node.demo_user)
    page.goto(f"{base}/games/{demo_game}/")
    page.wait_for_selector("#conn.on")
    state = game_state(page)
    page.evaluate("window.__westerosSocket.onmessage = null; window.__westerosSocket.close()")
    page.wait_for_selector("#conn.off")
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    orders = {"winterfell": "defense+1", "white_harbor": "defense+1", "the_shivering_sea": "support+0"}
    answer = page.request.post(f"{base}/api/v1/games/{demo_game}/actions",
                               data={"version": state["version"], "action": {"place_orders": orders}},
                               headers={"X-CSRFToken": csrf, "Referer": base + "/"})
    assert answer.ok, answer.text()
    latest = answer.json()["version"]  # the bots may have played on: round 2 can ask Stark for orders again
    page.wait_for_selector("#conn.on")
    page.wait_for_function(f"window.__westerosGame.state().version >= {latest}")
    fresh = page.request.get(f"{base}/api/v1/games/{demo_game}").json()
    assert game_state(page)["version"] == fresh["version"] and game_state(page)["view"] == fresh["view"]
