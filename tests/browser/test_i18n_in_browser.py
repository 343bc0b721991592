"""The site in Spanish in a real browser (issue 29): a Spanish browser gets Spanish pages and
Spanish words from the pages' scripts; the footer's switch works without JavaScript and is
remembered; the pages keep their layout at 1440 and 390 px (screenshots in test-artifacts/)."""
from __future__ import annotations

import re

from tests.browser.util import PASSWORD, log_in


def test_a_spanish_browser_reads_spanish_and_the_switch_changes_it(live_asgi_server, new_page):
    base = live_asgi_server.url
    page = new_page(1440, 900, locale="es-ES")
    page.goto(base + "/")
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.locator("h1").inner_text() == "Conquista el Trono de Hierro"
    switch = page.locator("footer form.language-switch")
    assert switch.get_by_role("button", name="Español").is_disabled()
    switch.get_by_role("button", name="English").click()
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.locator("h1").inner_text() == "Take the Iron Throne"
    page.goto(base + "/accounts/login/")  # remembered by the cookie on the next page
    assert page.locator("h1").inner_text() == "Log in"
    page.locator("footer form.language-switch").get_by_role("button", name="Español").click()
    page.wait_for_url(base + "/accounts/login/")
    assert page.locator("h1").inner_text() == "Iniciar sesión"


def test_the_switch_works_without_javascript(live_asgi_server, new_page):
    page = new_page(1440, 900, locale="en-GB", java_script_enabled=False)
    page.goto(live_asgi_server.url + "/accounts/signup/")
    page.locator("footer form.language-switch").get_by_role("button", name="Español").click()
    page.wait_for_url(live_asgi_server.url + "/accounts/signup/")
    assert page.locator("h1").inner_text() == "Crear una cuenta"


def test_the_pages_scripts_speak_spanish(live_asgi_server, new_page):
    """countdown.js's words come from the catalogue (/jsi18n/es/): a game's deadline on the home page."""
    base = live_asgi_server.url
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import bot_game; bot_game('lucia', {PASSWORD!r})")
    page = new_page(1440, 900, locale="es-ES")
    log_in(page, base, "lucia")
    deadline = page.locator("table.my-games .deadline").first
    page.wait_for_function("() => /^quedan /.test(document.querySelector('table.my-games .deadline').textContent)")
    assert re.fullmatch(r"quedan (\d+d )?\d\d:\d\d:\d\d", deadline.inner_text()), deadline.inner_text()


def test_spanish_pages_keep_their_layout_at_1440_and_390_px(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    # a game awaiting the player's orders and an open lobby: the home page's two tables, in Spanish
    live_asgi_server.manage("shell", "-c", "from tests.browser.stage import bot_game; from tests.factories import make_lobby; "
                                           f"bot_game('mercedes', {PASSWORD!r}); make_lobby(time_limit=5400)")
    for width in (1440, 390):
        visitor = new_page(width, 900, locale="es-ES")
        for name, path in (("home", "/"), ("login", "/accounts/login/")):
            visitor.goto(base + path)
            assert visitor.locator("html").get_attribute("lang") == "es"
            # nothing wider than the window: no sideways scrolling, the switch included
            assert visitor.evaluate("() => document.documentElement.scrollWidth") <= width, (name, width)
            footer = visitor.locator("footer form.language-switch").bounding_box()
            assert footer["x"] >= 0 and footer["x"] + footer["width"] <= width, (name, width, footer)
            visitor.screenshot(path=str(artifacts / f"es-{name}-{width}.png"), full_page=True)
        player = new_page(width, 900, locale="es-ES")
        log_in(player, base, "mercedes")
        assert player.evaluate("() => document.documentElement.scrollWidth") <= width
        player.screenshot(path=str(artifacts / f"es-home-player-{width}.png"), full_page=True)
        player.goto(base + "/accounts/profile/")  # the account's language setting
        assert player.locator("select#account-language").input_value() == "es"
        assert player.evaluate("() => document.documentElement.scrollWidth") <= width
        player.screenshot(path=str(artifacts / f"es-profile-{width}.png"), full_page=True)
