"""The board reads like a game table (issue 15, "The board"): fitted to the width with readable
labels and pieces at 1440 px and on a 390 px phone, zoom and pan kept, draft orders drawn, order
tokens holding their text, rivers, the tracks and holders shown, board clicks that respect adjacency
and refusals in area names. Screenshots at both widths go to test-artifacts/. Server: conftest.py."""
from __future__ import annotations

import pytest

from tests.browser.util import game_state, log_in

pytestmark = pytest.mark.browser

# Stark marches from The Twins (a footman and a knight, March +1 special); Riverrun only touches The
# Twins at a point of the drawing and is not adjacent (map.yaml).
MARCH_SETUP = {
    "units": {"the_twins": {"stark": ["footman", "knight"]}, "winterfell": {"stark": ["footman"]},
              "lannisport": {"lannister": ["footman"]}, "dragonstone": {"baratheon": ["footman"]}},
    "orders": {"the_twins": {"stark": "march+1*"}, "winterfell": {"stark": "defense+1"},
               "lannisport": {"lannister": "defense+1"}, "dragonstone": {"baratheon": "defense+1"}},
    "tracks": {"iron_throne": ["stark", "lannister", "baratheon"], "kings_court": ["stark", "lannister", "baratheon"]},
    "power_tokens": {"castle_black": "stark"},
}


def stage_march(game_id: int) -> None:
    """Run in the server's environment (manage.py shell): the Action phase, Stark to march."""
    from tests.browser.stage import stage

    stage(game_id, MARCH_SETUP, "action")


LABEL_PX = """() => {
  const svg = document.getElementById('board'), k = svg.getScreenCTM().a;
  return [...svg.querySelectorAll('text.area-label')].map(t => parseFloat(getComputedStyle(t).fontSize) * k);
}"""

# every order token's text inside its disc (rendered boxes, CSS px)
TOKEN_TEXT_INSIDE = """() => [...document.querySelectorAll('#board g.order')].map(g => {
  const c = g.querySelector('circle.order-token').getBoundingClientRect(), t = g.querySelector('text.order-text').getBoundingClientRect();
  return {text: g.querySelector('text.order-text').textContent, inside: t.left >= c.left - 0.5 && t.right <= c.right + 0.5
    && t.top >= c.top - 0.5 && t.bottom <= c.bottom + 0.5, disc: c.width};
})"""


def open_game(new_page, base, user, game_id, width, height, **kwargs):
    page = new_page(width, height, **kwargs)
    log_in(page, base, user)
    page.goto(f"{base}/games/{game_id}/")
    page.wait_for_selector("#board path.area")
    page.wait_for_selector("#decision h2")
    return page


def view_box(page) -> list[float]:
    return [float(x) for x in page.get_attribute("#board", "viewBox").split()]


def test_board_fits_the_width_and_reads_at_1440(live_asgi_server, demo_game, new_page, artifacts, request):
    page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, 1440, 900)
    page.wait_for_selector("#submit-orders")
    wrap = page.locator(".board-wrap").bounding_box()
    sea = page.locator("#board rect.sea-bg").bounding_box()  # the whole map's rectangle
    assert sea["width"] >= 0.9 * wrap["width"], (sea, wrap)
    labels = page.evaluate(LABEL_PX)
    assert len(labels) == 50 and min(labels) >= 11, min(labels)
    # pieces: units about 20 px and more, order tokens 30 px and more, their text 11 px and more
    unit = page.locator("#board .unit").first.bounding_box()
    assert unit["height"] >= 18 and unit["width"] >= 18, unit
    token = page.locator("#board g.order circle.order-token").first.bounding_box()  # a bot's face-down order
    assert token["width"] >= 30, token
    text_px = page.evaluate("""() => { const t = document.querySelector('#board text.order-text');
      return parseFloat(getComputedStyle(t).fontSize) * document.getElementById('board').getScreenCTM().a; }""")
    assert text_px >= 11
    # power tokens are discs with the house crest, units carry the house letter: not the same piece
    assert page.locator("#board g.power use.crest").count() >= 1 or page.locator("#board g.power").count() == 0
    assert page.locator("#board defs symbol[id^=crest-]").count() == 6
    # the home shields carry the crests of the houses in play
    assert page.locator("#board use[href='#crest-stark']").count() >= 1
    page.screenshot(path=str(artifacts / "board-1440.png"))
    page.screenshot(path=str(artifacts / "board-1440-full.png"), full_page=True)

    # zoom and pan are kept: Ctrl + wheel zooms, the wheel scrolls the view down, keys work; from the
    # whole width at the top ("0"), as the page may have moved the view to the area it asks about
    page.focus("#board")
    page.keyboard.press("0")
    page.wait_for_function("document.getElementById('board').getAttribute('viewBox').split(' ')[1] === '0'")
    start = view_box(page)
    assert start[:3] == [0, 0, 1000]
    box = page.locator("#board").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, 400)
    page.wait_for_function(f"document.getElementById('board').getAttribute('viewBox').split(' ')[1] > {start[1]}")
    scrolled = view_box(page)
    assert scrolled[2] == 1000 and scrolled[1] > 0
    page.keyboard.down("Control")
    page.mouse.wheel(0, -200)
    page.keyboard.up("Control")
    page.wait_for_function("parseFloat(document.getElementById('board').getAttribute('viewBox').split(' ')[2]) < 1000")
    page.focus("#board")
    page.keyboard.press("0")
    assert view_box(page)[:3] == [0, 0, 1000]
    page.click("button[data-zoom=whole]")
    whole = view_box(page)
    assert whole[3] >= 1856  # the whole board's height in view


def test_board_on_a_phone(live_asgi_server, demo_game, new_page, artifacts, request):
    page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, 390, 844,
                     has_touch=True, is_mobile=True)
    page.wait_for_selector("#submit-orders")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    labels = page.evaluate(LABEL_PX)
    assert min(labels) >= 11, min(labels)
    page.screenshot(path=str(artifacts / "board-390.png"))
    page.locator("#tracks").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "board-390-full.png"), full_page=True)


def test_colours_crests_and_draft_orders(live_asgi_server, demo_game, new_page, artifacts, request):
    page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, 1440, 900)
    page.wait_for_selector("#submit-orders")
    # draft orders are drawn on the board before they are placed, dashed, with their text
    page.click("button.area-pick[data-area=winterfell]")
    page.click("button.token[data-token='march+1*']")
    page.click("button.area-pick[data-area=white_harbor]")
    page.click("button.token[data-token='defense+2*']")
    assert page.locator("#board g[data-area=winterfell] g.order.draft text.order-text").text_content() == "M+1★"
    assert page.locator("#board g[data-area=white_harbor] g.order.draft text.order-text").text_content() == "D+2★"
    assert "draft" in page.locator("#board g[data-area=winterfell] g.order.draft title").text_content()
    # every order token holds its text (the longest, "M+1★", included)
    tokens = page.evaluate(TOKEN_TEXT_INSIDE)
    assert tokens and all(t["inside"] for t in tokens), tokens
    # house colours and the order-token text are the CSS variables the contrast test checks
    colours = page.evaluate("""() => ({unit: getComputedStyle(document.querySelector('#board .unit.house-stark')).fill,
      text: getComputedStyle(document.querySelector('#board text.order-text')).fill,
      land: getComputedStyle(document.querySelector('#board path.area-land:not(.owned):not(.impassable)')).fill})""")
    assert colours["unit"] == "rgb(79, 93, 107)" and colours["text"] == "rgb(255, 255, 255)", colours
    # an owned area has a band in its house colour along its border
    assert page.locator("#board g.bands path.band-stark").count() >= 2
    page.locator("#board g[data-area=winterfell]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "board-1440-draft-orders.png"))
    # a submitted set of orders replaces the drafts (face down, only Stark sees them)
    page.click("button.area-pick[data-area=the_shivering_sea]")
    page.click("button.token[data-token='support+0']")
    version = game_state(page)["version"]
    page.click("#submit-orders")
    page.wait_for_function(f"window.__westerosGame.state().version > {version}")
    assert page.locator("#board g.order.draft").count() == 0


def test_tracks_rivers_and_holders(live_asgi_server, demo_game, new_page, artifacts, request):
    for width, height in ((1440, 900), (390, 844)):
        page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, width, height)
        assert page.locator("#board path.river").count() == 7
        tracks = page.locator("#tracks")
        text = tracks.inner_text()
        for words in ("Round 1 of 10", "Wildling threat", "Iron Throne", "Fiefdoms", "King's Court",
                      "Valyrian Steel Blade", "Messenger Raven", "of 7", "Armies of at most", "Westeros cards this round"):
            assert words in text, words
        view = game_state(page)["view"]
        holders = page.locator("[data-track=holders]").inner_text()
        assert f"Iron Throne: {view['tracks']['iron_throne'][0].capitalize()}" in holders
        assert f"Messenger Raven: {view['tracks']['kings_court'][0].capitalize()}" in holders
        assert page.locator("[data-track=round] .pip.on").inner_text() == "1"
        # and in one line above the board, visible without scrolling
        strip = page.locator("#table-strip")
        assert strip.is_visible() and strip.bounding_box()["y"] < height
        strip_text = strip.inner_text()
        assert "Round 1/10" in strip_text and "Wildlings 2/12" in strip_text
        assert view["tracks"]["iron_throne"][0].capitalize() in strip_text and "Raven" in strip_text and "Blade" in strip_text
        # the supply track shows each level's army limits and who stands there
        assert "4, 3, 2, 2, 2" in page.locator("[data-track=supply]").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        tracks.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"board-tracks-{width}.png"))


def test_westeros_cards_named_with_their_effect(live_asgi_server, demo_game, new_page, request):
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_muster; stage_muster({demo_game})")
    page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, 1440, 900)
    cards = page.locator("[data-track=westeros]").inner_text()
    assert "Mustering" in cards and "muster" in cards.lower().split("mustering", 1)[1]
    assert "Mustering" in page.locator("#table-strip").inner_text()
    assert "muster" in page.locator("#table-strip .strip-card").first.get_attribute("title")


def test_march_clicks_respect_adjacency(live_asgi_server, demo_game, new_page, artifacts, request):
    out = live_asgi_server.manage("shell", "-c", f"from tests.browser.test_board_readable import stage_march; stage_march({demo_game})")
    assert "('stark', 'march')" in out
    for width, height in ((1440, 900), (390, 844)):
        page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, width, height)
        if width == 1440:
            # a power token is a disc with the house crest, not a pawn like a footman
            token = page.locator("#board g[data-area=castle_black] g.power")
            assert token.locator("use[href='#crest-stark']").count() == 1 and token.locator("circle.power-token").count() == 1
            assert "power token" in token.locator("title").text_content()
            assert page.locator("#board g[data-area=the_twins] path.unit[d*='A6.5']").count() == 1  # the footman's pawn
            # a click on an area that is no march of Stark's is refused in words
            page.evaluate("document.querySelector('#board path[data-area=lannisport]').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
            page.locator("#error").wait_for(state="visible")
            assert "Lannisport" in page.locator("#error").inner_text() and "The Twins" in page.locator("#error").inner_text()
        page.click("button.choice[data-from=the_twins]")
        # only the legal destinations are highlighted: Riverrun is not one, Moat Cailin is
        assert page.locator("#board path.area.choosable[data-area=moat_cailin]").count() == 1
        assert page.locator("#board path.area.choosable[data-area=riverrun]").count() == 0
        options = page.eval_on_selector_all("#march-dest option", "os => os.map(o => o.textContent)")
        assert "Moat Cailin" in options and "Riverrun" not in options, options
        page.locator("input[data-unit=footman]").check()
        page.evaluate("window.Westeros && document.querySelector('#board path[data-area=riverrun]')"
                      ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        error = page.locator("#error")
        error.wait_for(state="visible")
        text = error.inner_text()
        assert "The Twins" in text and "Riverrun" in text and "the_twins" not in text and "riverrun" not in text, text
        assert page.locator("#decision li").count() == 0  # nothing assigned
        page.screenshot(path=str(artifacts / f"board-refused-march-{width}.png"))
    # an adjacent area is accepted, and the march goes through
    page.locator("input[data-unit=footman]").check()
    page.evaluate("document.querySelector('#board path[data-area=moat_cailin]').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    page.wait_for_selector("#decision li:has-text('Moat Cailin')")
    page.click("#march-submit")
    page.wait_for_function("window.__westerosGame.state().view.units.moat_cailin !== undefined")
    assert page.locator("#error").is_hidden()


def test_a_busy_board_at_both_widths(live_asgi_server, new_page, artifacts):
    """A game played to its end by three bots: many units, tokens and orders; still readable."""
    import re

    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage import finished_game; finished_game()")
    game_id = int(re.search(r"game (\d+) finished", out).group(1))
    for width, height in ((1440, 900), (390, 844)):
        page = new_page(width, height)
        page.goto(f"{live_asgi_server.url}/games/{game_id}/")
        page.wait_for_selector("#board path.area")
        page.wait_for_selector("#decision h2")
        assert min(page.evaluate(LABEL_PX)) >= 11
        tokens = page.evaluate(TOKEN_TEXT_INSIDE)
        assert all(t["inside"] for t in tokens), tokens
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(artifacts / f"board-busy-{width}.png"))
        page.click("button[data-zoom=whole]")
        page.screenshot(path=str(artifacts / f"board-busy-whole-{width}.png"))
