"""The board game's page shows the server's refusal of an action as the player reads it (issue 29): the
house's and the area's names in the page's language (the glossary's: Lannisport / Lannisport, Pyke /
Pyke, Winterfell / Invernalia), no id and no rule number. Screenshots at 1440 and 390 px
(test-artifacts/agot-refusal-*.png). Waits are on conditions, never on durations."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import log_in

pytestmark = pytest.mark.browser


def test_a_refused_order_reads_in_the_pages_language(live_asgi_server, demo_game, new_page, artifacts, request):
    base = live_asgi_server.url
    for locale, words in (("es-ES", "Rechazado: Stark no tiene unidades en Lannisport a las que dar una orden"),
                          ("en-GB", "Refused: Stark has no units in Lannisport to give an order")):
        page = new_page(1440, 1000, locale=locale)
        log_in(page, base, request.node.demo_user)
        page.goto(f"{base}/games/{demo_game}/")
        page.wait_for_selector("#board path.area")
        page.wait_for_selector("#decision h2")
        # the page's own sender (static/js/game.js), as a click would call it: an order where Stark has no units
        page.evaluate("window.__westerosGame.send({place_orders: {lannisport: 'raid'}})")
        error = page.locator("#error")
        error.wait_for(state="visible")
        text = error.inner_text()
        assert text == words, text
        assert not re.search(r"\b[RA]\d+\b", text) and "lannisport" not in text and "stark" not in text
        for width, height in ((1440, 1000), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            error.scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"agot-refusal-{locale[:2]}-{width}.png"))
