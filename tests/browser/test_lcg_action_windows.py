"""The card game's action windows setting in Chromium (issue 30, throneteki's "Action windows"): the
profile page shows a box per window with throneteki's defaults ticked (after attackers, after
defenders), saves a change and says so; the page fits 1440 and 390 px. Screenshots in test-artifacts/."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import log_in, stage_users

pytestmark = pytest.mark.browser
WIDTHS = ((1440, 900), (390, 844))


def test_action_windows_setting(live_asgi_server, new_page, artifacts):
    names = [f"law_{w}" for w, _ in WIDTHS]
    stage_users(live_asgi_server, names)
    for (width, height), name in zip(WIDTHS, names, strict=True):
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, name)
        page.goto(live_asgi_server.url + "/accounts/profile/")
        form = page.locator("form.action-windows-setting")
        assert "Action windows you are asked in" in form.inner_text()
        assert page.locator("#action-window-after_attackers").is_checked()
        assert page.locator("#action-window-after_defenders").is_checked()
        assert not page.locator("#action-window-plot").is_checked()
        page.locator("#action-window-dominance").check()
        page.locator("#action-window-after_attackers").uncheck()
        form.locator("button[type=submit]").click()
        page.wait_for_url(re.compile(r"/accounts/profile/$"))
        assert page.locator("#action-window-dominance").is_checked()
        assert not page.locator("#action-window-after_attackers").is_checked()
        assert "ask you in the action windows you chose" in page.locator("body").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
        page.screenshot(path=str(artifacts / f"lcg-action-windows-profile-{width}.png"), full_page=True)
