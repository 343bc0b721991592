"""The miniatures game from lobby to ratings (issue 19, "Done when"): two users find each other in a
ranked Here We Stand lobby made with the new-lobby form (each picking an army), both land on the
battlefield page, the battle is played to its end (the rest of the game through the site's own
service path, each seat answering as its player with the engine's player: moving, charging and
attacking by the page is tests/browser/test_minis_battle.py), both pages say who won, both
profiles show their miniatures ratings, and the replay steps through the battle.

The live server, its database and Chromium are set up in conftest.py (read it first)."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import play_out, reload_finished, two_players

pytestmark = pytest.mark.browser

NAMES = ("mm_robb", "mm_jaime")
STATE = "window.__westerosGame && window.__westerosGame.state()"


def test_minis_ranked_battle(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    robb, jaime = two_players(live_asgi_server, new_page, NAMES)

    robb.goto(base + "/lobbies/new/")
    robb.select_option("select[name=ruleset]", "minis")
    robb.fill("input[name=name]", "Battle at the Whispering Wood")
    robb.select_option("select[name=house_choice]", "pick")
    robb.select_option("select[name=army]", "stark")
    robb.check("input[name=ranked]")
    robb.click("main form button[type=submit]")
    robb.wait_for_url(re.compile(r"/lobbies/\d+/$"))
    assert "mm_robb · Stark" in robb.locator("main").inner_text()

    jaime.goto(base + "/lobbies/")
    jaime.click("text=Battle at the Whispering Wood")
    assert jaime.get_by_label("Army", exact=True).locator("option").all_inner_texts() == ["Lannister"]
    jaime.click("#join")
    jaime.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = jaime.url
    robb.wait_for_url(game_url)  # the lobby page follows its lobby to the game
    game_id = int(re.search(r"/games/(\d+)/", game_url).group(1))
    for page, seat in ((robb, "stark"), (jaime, "lannister")):
        page.wait_for_selector("#conn.on")
        assert page.locator("#game").get_attribute("data-seat") == seat
        page.wait_for_function(STATE)
    state = robb.evaluate("(() => { const g = window.__westerosGame.state(); return {ruleset: g.ruleset, ranked: g.ranked}; })()")
    assert state == {"ruleset": "minis", "ranked": True}

    # the battle to its end (in a manage.py process: its updates cannot reach the server's in-memory
    # channel layer, so the pages are reloaded), then both pages say how it ended
    out = play_out(live_asgi_server, game_id)
    ranking = re.search(r"ranking \[([^\]]*)\]", out).group(1)
    for page in (robb, jaime):
        reload_finished(page)
        said = page.locator("#phase")
        said.filter(has_text="The battle is over").wait_for()
        text = said.inner_text()
        assert ("mm_robb wins" in text or "mm_jaime wins" in text or "a draw" in text), text
        assert re.search(r"\b(stark|lannister)\b", text) is None, text  # players, not seat ids
    robb.screenshot(path=str(artifacts / "minis-battle-over-1440.png"), full_page=True)
    assert ranking  # the engine ranked the seats

    for page in (robb, jaime):
        page.goto(base + "/accounts/profile/")
        text = page.locator("main").inner_text()
        assert "A Song of Ice and Fire: Tabletop Miniatures" in text, text
    jaime.screenshot(path=str(artifacts / "minis-profile-390.png"), full_page=True)

    robb.goto(f"{base}/games/{game_id}/replay")
    robb.wait_for_selector("text=Replay")
    step = robb.evaluate(f"fetch('/games/{game_id}/replay/5.json').then(r => r.json())")
    assert step["step"] == 5 and step["steps"] > 5 and step["entry"]["version"] == 5
    assert set(step["view"]["units"]) and step["seat"] == "stark"
