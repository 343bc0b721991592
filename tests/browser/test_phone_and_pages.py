"""The game page on a 390 px wide phone (the board pans and zooms, the decision panel works by
touch and keyboard), and the other pages render without script errors. Server: conftest.py."""
from __future__ import annotations

import pytest

from tests.browser.util import log_in

pytestmark = pytest.mark.browser


def view_box(page) -> list[float]:
    return [float(x) for x in page.get_attribute("#board", "viewBox").split()]


def test_phone_sized_game_page(live_asgi_server, demo_game, new_page, artifacts, request):
    base = live_asgi_server.url
    page = new_page(390, 844, has_touch=True, is_mobile=True)
    log_in(page, base, request.node.demo_user)
    page.goto(f"{base}/games/{demo_game}/")
    page.wait_for_selector("#submit-orders")
    # nothing wider than the screen: no sideways scrolling of the page
    wide = page.evaluate("""[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 392
        && (!(e instanceof SVGElement) || e.tagName === 'svg')).map(e => e.tagName + '.' + e.className + ' ' + e.id)""")
    assert page.evaluate("document.documentElement.scrollWidth") <= 392, wide
    box = page.locator("#board").bounding_box()
    assert box["width"] <= 390 and box["height"] > 300
    # on a phone the view starts close to home (Winterfell for Stark); "Whole board" shows it all
    start = view_box(page)
    assert start[2] < 500 and start[0] < 456.7 < start[0] + start[2] and start[1] < 304.8 < start[1] + start[3]
    page.screenshot(path=str(artifacts / "game-page-phone.png"), full_page=True)
    page.click("button[data-zoom=reset]")
    full = view_box(page)
    assert full[:3] == [0, 0, 1000]
    # zoom and pan with the buttons
    page.click("button[data-zoom=in]")
    zoomed = view_box(page)
    assert zoomed[2] < full[2]
    page.click("button[data-pan=down]")
    assert view_box(page)[1] > zoomed[1]
    # and with the keyboard, on the focused board
    page.focus("#board")
    before = view_box(page)
    page.keyboard.press("ArrowRight")
    assert view_box(page)[0] > before[0]
    page.keyboard.press("0")
    assert view_box(page) == full
    # place every order by tapping
    areas = page.locator("button.area-pick").all()
    for area in areas:
        area.tap()
        page.locator("button.token:not([disabled])").first.tap()
    version = page.evaluate("window.__westerosGame.state().version")
    page.tap("#submit-orders")
    # accepted: the game moved on (the bots may even bring round 2's orders back to Stark)
    page.wait_for_function(f"window.__westerosGame.state().version > {version}")
    assert page.locator("#error").is_hidden()


def test_pages_render_without_script_errors(live_asgi_server, demo_game, new_page, request):
    base = live_asgi_server.url
    page = new_page()
    log_in(page, base, request.node.demo_user)
    for path in ("/", "/lobbies/", "/lobbies/new/", "/games/"):
        page.goto(base + path)
        assert page.locator("main h1, main h2").first.is_visible()
    page.goto(base + "/games/")
    page.click(f"a[href='/games/{demo_game}/']")
    page.wait_for_selector("#board path.area")
    assert page.locator("#board path.area").count() == 58
    # every unit carries its house's letter as well as its colour
    letters = set(page.eval_on_selector_all("#board text.unit-letter", "els => els.map(e => e.textContent)"))
    assert {"S", "L", "B"} <= letters


def test_spectator_sees_the_board_without_any_secret(live_asgi_server, demo_game, new_page):
    """Anonymous visitor of a public game: the bots' orders are placed face down; nothing of them
    is in the page or its data."""
    base = live_asgi_server.url
    page = new_page()
    page.goto(f"{base}/games/{demo_game}/")
    page.wait_for_selector("#board path.area")
    page.wait_for_selector("#decision >> text=Spectating")
    state = page.evaluate("window.__westerosGame.state()")
    assert state["your_seat"] is None and state["view"]["secret"] == {}
    assert "orders" not in str(state["view"]["secret"])
    assert page.locator("#board g.order.hidden").count() >= 2  # the bots' orders, face down
    page.wait_for_selector("#log li")
    html = page.content()
    log = page.request.get(f"{base}/api/v1/games/{demo_game}/log").text()
    for token in ("defense+1", "defense+2*", "support+0", "support+1*", "march+0", "march-1", "march+1*", "raid*",
                  "consolidate*"):
        assert token not in html and token not in log
