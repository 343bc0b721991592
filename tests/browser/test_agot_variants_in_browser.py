"""Issue 34's "done when" in the browser: a person makes a 6-seat A Game of Thrones lobby through the
lobby form with five computer seats, fog of war, the house-card draft and random start positions,
and plays the whole game through the page (tests/browser/agot_driver.py answers each decision with
the page's own controls: the draft's picks, orders, bids, musters...), the engine's players in the
other seats, to its end. Along the way: the person's board is fogged (areas it does not see carry
class `fogged` and no unit of another house is drawn in them), a spectator's page shows every area
fogged while the game runs, and the fog lifts at the end. Screenshots of the fogged board at 1440 and
390 px: test-artifacts/play-now-agot-fog-*.png. Waits are on conditions, never on durations."""
from __future__ import annotations

import re

import pytest

from tests.browser.test_play_now import play_until, shoot
from tests.browser.util import game_state, log_in, stage_users

pytestmark = pytest.mark.browser

FOGGED = "document.querySelectorAll('#board .fogged').length"


def test_one_person_and_five_engine_players_play_a_fogged_drafted_random_start_game(live_asgi_server, new_page,
                                                                                    artifacts):
    base = live_asgi_server.url
    names = ("fog_person", "fog_watcher")
    stage_users(live_asgi_server, names)
    page = new_page(1440, 1000)
    log_in(page, base, names[0])
    page.goto(base + "/lobbies/new/")
    page.fill("input[name=name]", "Fog, draft and random starts")
    page.fill("input[name=seats]", "6")
    page.fill("input[name=computer_seats]", "5")
    for switch in ("fog_of_war", "draft_house_cards", "random_starts"):
        page.check(f"input[name={switch}]")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r".*/(lobbies|games)/\d+/$"))
    if "/lobbies/" in page.url:   # full with the computer's seats: the lobby has started its game
        page.locator("main a", has_text="Go to the game").click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    game_url = page.url
    page.wait_for_selector("#conn.on")
    page.wait_for_function("window.__westerosGame && window.__westerosGame.state()")
    s = game_state(page)
    seat = s["your_seat"]
    assert s["options"]["fog_of_war"] and s["options"]["draft_house_cards"] and s["options"]["random_starts"]
    assert len(s["seats"]) == 6 and sum(x["is_bot"] for x in s["seats"]) == 5

    # a spectator sees no area while the game runs: every area of the board is fogged
    watcher = new_page(1440, 1000)
    log_in(watcher, base, names[1])
    watcher.goto(game_url)
    watcher.wait_for_function("window.__westerosGame && window.__westerosGame.state()")
    assert game_state(watcher)["view"]["fog"]["visible"] == []
    assert watcher.evaluate(FOGGED) >= 50   # the land and sea areas of the board

    # the draft, through the page, until the person places orders in round 1
    picks = play_until(page, {seat: page}, f"s.pending[{seat!r}] === 'place_orders'")
    assert [k for _, k in picks].count("draft") == 7, picks   # 42 house cards, 7 to each of 6 houses
    view = game_state(page)["view"]
    visible = set(view["fog"]["visible"])
    assert visible and all(a in visible for a in view["units"])
    drawn = set(page.eval_on_selector_all("#board path.area[data-area]", "ps => ps.map(p => p.dataset.area)"))
    fogged = set(page.eval_on_selector_all("#board path.area.fogged", "ps => ps.map(p => p.dataset.area)"))
    assert fogged == drawn - visible and len(fogged) >= 20, (sorted(fogged), sorted(visible))   # six houses
    assert not {a for a in view["units"] for h in view["units"][a] if h != seat} - visible
    shoot(page, artifacts, "agot-fog-board", "#board")
    shoot(watcher, artifacts, "agot-fog-spectator", "#board")
    watcher.close()

    # the rest of the game, every decision of the person through the page
    rest = play_until(page, {seat: page}, "false", limit=1500)
    page.wait_for_function("window.__westerosGame.state().status !== 'active'", timeout=120000)
    end = game_state(page)
    assert end["status"] == "finished" and end["view"]["phase"] == "over", end["status"]
    assert "fog" not in end["view"] and page.evaluate(FOGGED) == 0   # the fog lifts at the end
    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
    shoot(page, artifacts, "agot-fog-end", "#game-result")
    print("the person's decisions:", len(picks) + len(rest))
