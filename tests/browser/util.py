"""Helpers shared by the browser tests."""
from __future__ import annotations

PASSWORD = "a-long-and-unusual-passphrase-42"


def log_in(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/")


def game_state(page) -> dict:
    return page.evaluate("window.__westerosGame.state()")
