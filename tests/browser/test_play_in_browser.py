"""Three players in three browsers: sign up, create and join a lobby, place orders, resolve a march
into a combat with house cards, and see each other's moves live over the websocket. Also: no page or
script data of one seat holds another seat's face-down orders before the reveal.

The live server, its database and Chromium are set up in conftest.py (read it first)."""
from __future__ import annotations

import json
import re

import pytest

from tests.browser.util import sign_up, wait_until, wait_version

pytestmark = pytest.mark.browser


def game_state(page) -> dict:
    return page.evaluate("window.__westerosGame.state()")


def wait_version_above(page, version: int) -> None:
    page.wait_for_function(f"window.__westerosGame && window.__westerosGame.state() && window.__westerosGame.state().version > {version}")


def place(page, orders: dict[str, str]) -> None:
    for area, token in orders.items():
        page.click(f"button.area-pick[data-area={area}]")
        page.click(f"button.token[data-token='{token}']")
    page.click("#submit-orders")


def pending(page) -> str | None:
    state = game_state(page)
    return state["pending"].get(state["your_seat"])


def test_three_players_play_a_combat_live(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    # names of their own: the browser tests of a worker share one server, and the sign-up form refuses
    # a name another test took in any case (the card-game tests' "Alys" made "alys" fail in CI)
    pages = {name: new_page() for name in ("pib_alys", "pib_bran", "pib_cley")}
    for name, page in pages.items():
        sign_up(page, base, name)

    # alys creates a 3-seat lobby; bran and cley join; the last join starts the game
    alys = pages["pib_alys"]
    alys.goto(base + "/lobbies/new/")
    alys.fill("input[name=name]", "Browser test table")
    alys.fill("input[name=seats]", "3")
    alys.click("main form button[type=submit]")
    alys.wait_for_url(re.compile(r"/lobbies/\d+/$"))
    for name in ("pib_bran", "pib_cley"):
        page = pages[name]
        page.goto(base + "/lobbies/")
        page.click("text=Browser test table")
        page.click("#join")
    pages["pib_cley"].wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = pages["pib_cley"].url
    game_id = int(re.search(r"/games/(\d+)/", game_url).group(1))
    alys.wait_for_url(game_url)  # the lobby page follows the lobby into the game
    pages["pib_bran"].goto(game_url)

    # stage a situation with a possible combat (see stage.py), then every page loads it
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_combat; stage_combat({game_id})")
    by_house = {}
    for page in pages.values():
        page.reload()
        page.wait_for_selector("#submit-orders")
        page.wait_for_selector("#conn.on")
        by_house[page.locator("#game").get_attribute("data-seat")] = page
    assert set(by_house) == {"stark", "lannister", "baratheon"}
    lannister, baratheon, stark = by_house["lannister"], by_house["baratheon"], by_house["stark"]
    spectator = new_page()
    spectator.goto(game_url)
    spectator.wait_for_selector("#conn.on")

    # a token refused by the page: the King's Court stars limit special orders (Baratheon: 1 star)
    baratheon.click("button.area-pick[data-area=blackwater]")
    baratheon.click("button.token[data-token='defense+2*']")
    baratheon.click("button.area-pick[data-area=dragonstone]")
    assert baratheon.locator("button.token[data-token='support+1*']").is_disabled()
    assert "special" in baratheon.locator("button.token[data-token='support+1*']").get_attribute("title")
    baratheon.click("#game button.secondary:text('Clear')")

    # Lannister places face down; the others see that it did, live, but never which orders
    version = game_state(stark)["version"]
    place(lannister, {"stoney_sept": "march+0", "lannisport": "defense+1"})
    for page in (stark, baratheon, spectator):
        wait_version_above(page, version)
        page.wait_for_selector("#board g.order.hidden")
        data = json.dumps(game_state(page))
        assert "march+0" not in data, "another seat's face-down order leaked into the game data"
        assert "stoney_sept" not in json.dumps(game_state(page)["view"].get("secret", {}))
        assert page.locator("#board g.order.hidden text").first.text_content() == "?"
        log = page.request.get(f"{base}/api/v1/games/{game_id}/log").text()
        assert "march+0" not in log
    assert "march+0" not in spectator.content()
    assert "march+0" in json.dumps(game_state(lannister)["view"]["secret"])  # its own, to itself

    # a refused action shows the server's reason
    stark.click("button.area-pick[data-area=winterfell]")
    stark.evaluate("window.__westerosGame.send({place_orders: {winterfell: 'march+0', lannisport: 'raid'}})")
    stark.wait_for_selector("#error:not([hidden])")
    assert "Lannisport" in stark.locator("#error").inner_text()  # area names, never ids
    assert "lannisport" not in stark.locator("#error").inner_text()

    place(baratheon, {"blackwater": "defense+1", "dragonstone": "defense+1"})
    place(stark, {"winterfell": "defense+1"})

    # after the reveal everyone sees Lannister's march order on the board
    for page in (stark, baratheon, spectator):
        page.wait_for_function("window.__westerosGame.state().view.orders.stoney_sept !== undefined")
    assert game_state(stark)["view"]["orders"]["stoney_sept"] == {"house": "lannister", "token": "march+0"}

    # Lannister holds the Raven: skip it (a button the server listed)
    lannister.wait_for_function("window.__westerosGame.state().pending.lannister === 'raven'")
    lannister.click("""button.choice[data-action='{"raven":"skip"}']""")

    # Lannister marches its army from Stoney Sept into Blackwater: a combat against Baratheon
    lannister.wait_for_function("window.__westerosGame.state().pending.lannister === 'march'")
    lannister.click("button.choice[data-from=stoney_sept]")
    for box in lannister.locator("input[data-unit]").all():
        box.check()
    lannister.click("#board g[data-area=blackwater] .unit")  # a click on the board: the Baratheon footman's area
    lannister.click("#march-submit")

    # both choose a house card among the cards shown; then any further combat decision
    for page in (lannister, baratheon):
        page.wait_for_function("window.__westerosGame.state().pending[window.__westerosGame.state().your_seat] === 'house_card'")
        cards = page.locator("#decision .cards.choose .card[data-card]")
        assert cards.count() == 7
        assert re.search(r"\d", cards.first.inner_text())
    lannister.screenshot(path=str(artifacts / "game-page-house-cards.png"), full_page=True)
    version = game_state(baratheon)["version"]
    # a card is chosen, then played with the button under the cards (issue 26)
    lannister.locator("#decision .cards.choose .card[data-card]").first.click()
    chosen = json.loads(lannister.locator("#house-card-submit").get_attribute("data-action"))["house_card"]
    lannister.click("#house-card-submit")
    # Lannister's card stays secret until both are revealed
    wait_version_above(baratheon, version)
    for page in (baratheon, stark, spectator):
        view = game_state(page)["view"]
        assert "lannister" not in view["secret"]
        assert chosen not in json.dumps(view["combat"] or {}) and chosen not in json.dumps(view["secret"])
    version = game_state(baratheon)["version"]
    baratheon.locator("#decision .cards.choose .card[data-card]").first.click()
    baratheon.click("#house-card-submit")
    wait_version(baratheon, version)

    def next_step():
        """"over" once Stark sees the combat decided; else the first (page, what it can answer)."""
        combat = game_state(stark)["view"]["combat"]
        if combat and combat.get("winner") and "_current" not in combat:
            return "over"
        for page in (lannister, baratheon):
            if pending(page) == "house_card" and page.locator("#decision .cards.choose [data-card]").count():
                return page, "house_card"
            if pending(page) and page.locator("#decision [data-action]").count():
                return page, "action"
        return None

    for _ in range(40):  # casualties, retreat...: whatever the server lists (a bound on decisions, not on time)
        step = wait_until(stark, next_step, "the combat to be decided, or Lannister or Baratheon to be asked something")
        if step == "over":
            break
        page, kind = step
        version = game_state(page)["version"]
        if kind == "house_card":
            page.locator("#decision .cards.choose [data-card]").first.click()
            page.click("#house-card-submit")
        else:
            page.locator("#decision [data-action]").first.click()
        wait_version(page, version)
    else:
        raise AssertionError("the combat was not decided after 40 decisions")

    # Stark, who only watched, saw the combat live (no reload since the staging)
    stark.wait_for_selector("#combat-panel:not([hidden]) #last-combat-breakdown .tie-rule >> text=won:")
    combat = game_state(stark)["view"]["combat"]
    said = " ".join(stark.locator("#last-combat-breakdown .tie-rule").inner_text().split())
    assert said.startswith(f"{combat['winner'].capitalize()} won:"), said
    assert combat["attacker"] == "lannister" and combat["defender"] == "baratheon" and combat["area"] == "blackwater"
    assert set(combat["cards"]) == {"lannister", "baratheon"}
    assert stark.locator("#combat .card").count() == 2

    # chat: a table message reaches everyone live; a private one only its pair
    stark.fill("#chat-text", "Well fought")
    stark.click("#chat-form button")
    for page in (lannister, baratheon, spectator):
        page.wait_for_selector("#chat-messages >> text=Well fought")
    pair = lannister.eval_on_selector("#chat-channel", "s => [...s.options].map(o => o.value).find(v => v.includes('baratheon'))")
    lannister.select_option("#chat-channel", pair)
    lannister.fill("#chat-text", "Secret pact")
    lannister.click("#chat-form button")
    lannister.wait_for_selector("#chat-messages >> text=Secret pact")
    baratheon.select_option("#chat-channel", pair)
    baratheon.wait_for_selector("#chat-messages >> text=Secret pact")
    assert pair not in stark.eval_on_selector("#chat-channel", "s => [...s.options].map(o => o.value).join(' ')")
    assert "Secret pact" not in stark.content() and "Secret pact" not in spectator.content()

    stark.locator("#log li").first.wait_for()
    stark.screenshot(path=str(artifacts / "game-page-desktop.png"), full_page=True)
