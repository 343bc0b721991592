"""Helpers shared by the browser tests."""
from __future__ import annotations

import re
import time

PASSWORD = "a-long-and-unusual-passphrase-42"


def sign_up(page, base: str, username: str) -> None:
    """A new account made through the sign-up page, which lands on the home page logged in."""
    page.goto(base + "/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/")
    assert username in page.locator("header").inner_text()


def log_in(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/")


def game_state(page) -> dict:
    return page.evaluate("window.__westerosGame.state()")


def stage_users(server, names) -> None:
    """Users `names` (with PASSWORD) on the live server, made once."""
    code = ("from accounts.models import User\n"
            f"for n in {tuple(names)!r}:\n"
            f"    User.objects.filter(username=n).exists() or User.objects.create_user(username=n, email=n + '@example.com', password={PASSWORD!r})\n")
    server.manage("shell", "-c", code)


def two_players(server, new_page, names):
    """The users `names` staged and logged in, the first on a 1440 px page, the second on a phone
    (390 x 844): their two pages."""
    stage_users(server, names)
    wide, phone = new_page(), new_page(390, 844)
    log_in(wide, server.url, names[0])
    log_in(phone, server.url, names[1])
    return wide, phone


def play_out(server, game_id: int) -> str:
    """The game to its end in a manage.py process (each seat answering as its player with the
    engine's player; its updates cannot reach the server's in-memory channel layer, so pages must be
    reloaded). Returns what it printed."""
    out = server.manage("shell", "-c", f"from tests.browser.stage import play_out; play_out({game_id})")
    assert "status finished" in out, out
    return out


def reload_finished(page) -> None:
    """Reload the game page and wait until it shows the finished game."""
    page.reload()
    page.wait_for_function("window.__westerosGame && window.__westerosGame.state() && window.__westerosGame.state().status === 'finished'")


def stage_game(server, names: list[str], staged: bool = True, *, module: str, function: str) -> int:
    """A game staged by `function(names, PASSWORD, staged=...)` of tests/browser/`module`.py: its id."""
    out = server.manage("shell", "-c", f"from tests.browser.{module} import {function}; "
                        f"{function}({names!r}, {PASSWORD!r}, staged={staged!r})")
    return int(re.search(r"game (\d+)", out).group(1))


def open_game(new_page, server, name: str, game_id: int, width: int = 1440, height: int = 1000, *, ready: str):
    """A new page of `width` x `height`, logged in as `name`, on the game's page, connected and
    showing `ready` (a selector)."""
    page = new_page(width, height)
    log_in(page, server.url, name)
    page.goto(f"{server.url}/games/{game_id}/")
    page.wait_for_selector("#conn.on")
    page.wait_for_selector(ready)
    return page


def pending(page) -> str | None:
    """What the page's seat is asked now (None when nothing, or the game is over)."""
    s = game_state(page)
    return s["pending"].get(s["your_seat"]) if s["status"] == "active" else None


def wait_until(page, check, what: str, timeout: float = 90):
    """Poll `check()` (Python, reading one page or several) until it returns something true, and
    return that. `page` paces the polls (Playwright serves every page meanwhile). After `timeout`
    seconds, a ceiling for a loaded machine and never an expected duration, the test fails saying
    it was waiting for `what`."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what}")
        page.wait_for_timeout(100)


def wait_version(page, before: int) -> None:
    """Wait until the page shows a version newer than `before`; a refusal shown fails the test."""
    page.wait_for_function(f"window.__westerosGame.state().version > {before} || !document.getElementById('error').hidden")
    if page.locator("#error").is_visible():
        raise AssertionError(page.locator("#error").inner_text())


def scroll_to(locator) -> None:
    """Scroll the element into view in one step inside the page. A table the page draws afresh on
    each load (the last combat) can be replaced between Playwright's finding it and scrolling to it
    (`scroll_into_view_if_needed`: "Element is not attached to the DOM"), when the page's check for
    missed updates re-fetches the game a few seconds after it opens."""
    locator.evaluate("element => element.scrollIntoView({block: 'nearest'})")


def pick_hand_card(page) -> tuple[str, str]:
    """B'Twixt: pick the first playable card of the hand (and its first target, if it asks for one);
    the card's id and its name."""
    pick = page.locator("#hand .bt-card.pickable").first
    card = pick.get_attribute("data-card")
    name = pick.locator("strong").first.inner_text()
    pick.click()
    targets = page.locator("#hand-targets input")
    if targets.count():
        targets.first.check()
    return card, name
