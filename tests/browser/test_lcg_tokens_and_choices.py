"""The card game's table page draws Power Behind the Throne's stand token on the revealed plot (for both players),
and names each option of a "choose one" card in words (Fire and Blood: shuffle the character into the deck, or put
it into play), in English and Spanish, never "Option 1"; the option chosen on the page is the one played. The game
is staged by the site's services (tests/browser/stage_lcg_choices.py) up to Fire and Blood's choice. Screenshots in
test-artifacts/lcg-choice-*.png at 1440 and 390 px."""
from __future__ import annotations

import pytest

from tests.browser.util import PASSWORD, game_state, log_in, wait_version

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"token": "1 stand token", "options": ("Shuffle the character into your deck", "Put the character into play")},
    "es": {"token": "1 ficha de puesta en pie",
           "options": ("Baraja el personaje en tu mazo", "Pon el personaje en juego")},
}


def _stage(server, names) -> int:
    out = server.manage("shell", "-c", "from tests.browser.stage_lcg_choices import fire_and_blood; "
                        f"fire_and_blood({names!r}, {PASSWORD!r})")
    import re

    return int(re.search(r"game (\d+)", out).group(1))


def _open(new_page, server, name, game_id, locale):
    page = new_page(1440, 1000, locale=locale)
    log_in(page, server.url, name)
    page.goto(f"{server.url}/games/{game_id}/")
    page.wait_for_selector("#conn.on")
    page.wait_for_selector(".lcg-area.me")
    return page


def _token(page, seat: str) -> str:
    return page.locator(f"#area-{seat} .revealed-plot .token-stand").first.inner_text()


def test_stand_token_and_option_words(live_asgi_server, new_page, artifacts):
    names = ["Alys", "Bram"]
    game_id = _stage(live_asgi_server, names)
    pages = {"en": _open(new_page, live_asgi_server, "Alys", game_id, "en-GB"),
             "es": _open(new_page, live_asgi_server, "Alys", game_id, "es-ES")}
    for language, page in pages.items():
        words = WORDS[language]
        page.wait_for_selector("#area-p1 .revealed-plot .token-stand")
        assert _token(page, "p1") == words["token"]
        choices = page.locator("#decision .choices button")
        texts = [t.strip() for t in choices.all_inner_texts()]
        assert texts == list(words["options"]), texts
        assert "Option" not in page.inner_text("#decision") and "Opción" not in page.inner_text("#decision")
        for width, height in ((1440, 1000), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.locator("#decision").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"lcg-choice-{language}-{width}.png"), full_page=width < 400)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width + 2, f"the page is {wide}px wide on a {width}px screen"
        page.set_viewport_size({"width": 1440, "height": 1000})
    # the opponent sees the token on Alys's plot too (it is on the table), and is not asked the choice
    bram = _open(new_page, live_asgi_server, "Bram", game_id, "en-GB")
    bram.wait_for_selector("#area-p1 .revealed-plot .token-stand")
    assert _token(bram, "p1") == "1 stand token"
    page = pages["en"]
    before = game_state(page)["version"]
    page.locator("#decision .choices button", has_text="Put the character into play").click()
    wait_version(page, before)
    page.wait_for_selector("#area-p1 .lcg-row.chars .lcg-card[data-card=drogon]")
    view = game_state(page)["view"]
    assert [view["cards"][u] for u in view["players"]["p1"]["dead"]] == []  # out of the dead pile, not shuffled
