"""The card game from lobby to ratings (issue 17, "Done when"): two users find each other in a lobby
made with the new-lobby form (the card game: two players, each picking a deck), both land on the
table page, the match is played to its end (the rest of the game through the site's own service
path, each seat answering as its player with the engine's player: a whole round by clicks is
tests/browser/test_lcg_table.py::test_lcg_round_live), the pages show the result live, both profiles show their new
card-game ratings, and the replay steps through the match. Screenshots of the lobby pages at 1440
and 390 px go to test-artifacts/.

The live server, its database and Chromium are set up in conftest.py (read it first)."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import play_out, reload_finished, two_players

pytestmark = pytest.mark.browser

NAMES = ("lcg_arya", "lcg_tywin")


def _no_ids(text: str) -> None:
    assert not re.search(r"\b(the_old_ways|secrets_and_schemes|lcg|p[12])\b|[{}]", text), text


def test_lcg_ranked_match(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    arya, tywin = two_players(live_asgi_server, new_page, NAMES)

    # the lobby form: the card game hides the Players and Houses fields and offers the decks
    arya.goto(base + "/lobbies/new/")
    arya.select_option("select[name=ruleset]", "lcg")
    form = arya.locator("main form")
    assert not form.get_by_text("Players (3 to 6)").is_visible()
    assert form.get_by_label("Your deck").is_visible()
    arya.fill("input[name=name]", "A joust at Winterfell")
    arya.select_option("select[name=my_deck]", label="The Old Ways (Stark, with Banner of the Kraken)")
    arya.check("input[name=ranked]")
    arya.screenshot(path=str(artifacts / "lcg-lobby-form-1440.png"), full_page=True)
    arya.click("main form button[type=submit]")
    arya.wait_for_url(re.compile(r"/lobbies/\d+/$"))
    said = arya.locator("main").inner_text()
    assert "A Game of Thrones: The Card Game" in said and "brings The Old Ways (Stark, with Banner of the Kraken)" in said
    _no_ids(said)

    # the other player finds it in the list (on a phone) and picks a deck when joining
    tywin.goto(base + "/lobbies/")
    tywin.click("text=A joust at Winterfell")
    tywin.select_option("select[name=deck]", label="Secrets and Schemes (Lannister, with Banner of the Rose)")
    tywin.screenshot(path=str(artifacts / "lcg-lobby-join-390.png"), full_page=True)
    _no_ids(tywin.locator("main").inner_text())
    tywin.click("#join")
    tywin.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = tywin.url
    arya.wait_for_url(game_url)  # the lobby page follows its lobby to the game
    game_id = int(re.search(r"/games/(\d+)/", game_url).group(1))
    for page in (arya, tywin):
        page.wait_for_selector("#conn.on")
        assert page.locator("#game").get_attribute("data-seat") in ("p1", "p2")
    state = arya.evaluate("window.__westerosGame.state()")
    assert state["ruleset"] == "lcg" and state["ranked"] is True
    factions = {name: page.evaluate("window.__westerosGame.state()")["summary"]["faction"][
        page.locator("#game").get_attribute("data-seat")]["card"] for name, page in (("arya", arya), ("tywin", tywin))}
    assert factions == {"arya": "stark", "tywin": "lannister"}  # each brought the deck picked

    # the match to its end (in a manage.py process: its updates cannot reach the server's in-memory
    # channel layer, so the pages are reloaded), then both pages say who won
    out = play_out(live_asgi_server, game_id)
    winner = re.search(r"ranking \['(p[12])'", out).group(1)
    winner_name = "lcg_arya" if arya.locator("#game").get_attribute("data-seat") == winner else "lcg_tywin"
    for page in (arya, tywin):
        reload_finished(page)
        page.locator("#phase", has_text=f"Game over: {winner_name} wins.").wait_for()
    arya.screenshot(path=str(artifacts / "lcg-match-over-1440.png"), full_page=True)

    # the new ratings on both profiles, by the game's name
    for page in (arya, tywin):
        page.goto(base + "/accounts/profile/")
        text = page.locator("main").inner_text()
        assert "A Game of Thrones: The Card Game" in text, text
        assert re.search(r"\b1[0-9]{3}\b", text)
    tywin.screenshot(path=str(artifacts / "lcg-profile-390.png"), full_page=True)

    # the replay opens and steps
    arya.goto(f"{base}/games/{game_id}/replay")
    arya.wait_for_selector("text=Replay")
    steps = arya.evaluate(f"fetch('/games/{game_id}/replay/3.json').then(r => r.json())")
    assert steps["step"] == 3 and steps["steps"] > 3 and steps["view"]["ruleset"] == "lcg"
