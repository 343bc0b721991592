"""The card game's prompt settings in Chromium (issue 30): the profile page's "Pass for me when I hold
nothing playable" (off by default, saved, with the warning that the opponent may infer it from the
timing), and the new-lobby form's "Open deck lists" for the card game. At 1440 and 390 px,
screenshots in test-artifacts/."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import log_in, stage_users

pytestmark = pytest.mark.browser
WIDTHS = ((1440, 900), (390, 844))


def test_auto_pass_setting_and_open_deck_lists(live_asgi_server, new_page, artifacts):
    names = [f"lps_{w}" for w, _ in WIDTHS]
    stage_users(live_asgi_server, names)
    for (width, height), name in zip(WIDTHS, names, strict=True):
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, name)
        page.goto(live_asgi_server.url + "/accounts/profile/")
        box = page.locator("#auto-pass")
        assert not box.is_checked()
        text = page.locator("main").inner_text()
        assert "Pass for me when I hold nothing playable" in text
        assert "Your opponent may guess from how quickly you pass that you hold nothing playable." in text
        box.check()
        page.locator("form.auto-pass-setting button[type=submit]").click()
        page.wait_for_url(re.compile(r"/accounts/profile/$"))
        assert page.locator("#auto-pass").is_checked()
        assert "the site now passes for you" in page.locator("body").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
        page.screenshot(path=str(artifacts / f"lcg-auto-pass-profile-{width}.png"), full_page=True)

        page.goto(live_asgi_server.url + "/lobbies/new/")
        page.select_option("select[name=ruleset]", "lcg")
        tick = page.locator("#id_open_decklists")
        assert tick.is_visible() and not tick.is_checked()
        section = page.locator('fieldset[data-ruleset="lcg"]').inner_text()
        assert "Open deck lists" in section and "The learn-to-play decks are always open." in section
        tick.check()
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
        page.locator('fieldset[data-ruleset="lcg"]').screenshot(path=str(artifacts / f"lcg-open-decklists-form-{width}.png"))
        page.click("main form button[type=submit]")
        page.wait_for_url(re.compile(r"/lobbies/\d+/$"))
        assert "open deck lists" in page.locator("main").inner_text()
        page.screenshot(path=str(artifacts / f"lcg-open-decklists-lobby-{width}.png"), full_page=True)
