"""Helpers shared by the browser tests."""
from __future__ import annotations

PASSWORD = "a-long-and-unusual-passphrase-42"


def log_in(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    # a log-in hashes the password (PBKDF2, deliberately slow): on a machine busy with both test
    # workers and several browsers it has taken over 15 s (the default wait) in CI
    page.wait_for_url(base + "/", timeout=45000)


def game_state(page) -> dict:
    return page.evaluate("window.__westerosGame.state()")
