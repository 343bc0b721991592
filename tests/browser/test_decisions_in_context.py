"""Decisions with their context (issue 15): tie breaks as a readable ordering of houses with the
result in words, bids saying what they are for and everyone's power as the seat may see it.
Staged positions: stage.py. Screenshots at 1440 and 390 px go to test-artifacts/. Server: conftest.py."""
from __future__ import annotations

import pytest

from tests.browser.util import game_state, log_in

pytestmark = pytest.mark.browser

WIDTHS = ((1440, 900), (390, 844))


def open_game(new_page, base, user, game_id, width, height):
    page = new_page(width, height)
    log_in(page, base, user)
    page.goto(f"{base}/games/{game_id}/")
    return page


def no_json(text: str) -> None:
    assert "[" not in text and "{" not in text and '","' not in text, text
    assert "_" not in text, text


def shoot(page, artifacts, name):
    page.locator("#decision").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"{name}.png"))


def test_break_a_tie_for_the_iron_throne(live_asgi_server, demo_game, new_page, artifacts, request):
    base = live_asgi_server.url
    # nobody has power: every bid is 0, so the three houses tie and Stark (on the Iron Throne) decides
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_clash; stage_clash({demo_game}, 0, 0, 0)")
    for width, height in WIDTHS:
        page = open_game(new_page, base, request.node.demo_user, demo_game, width, height)
        page.wait_for_selector("#tie-submit")
        text = page.locator("#decision").inner_text()
        assert "Tie for the Iron Throne track" in text
        assert "each bid 0 power" in text and "You hold the Iron Throne" in text
        assert "1st on the track" in text and "3rd on the track" in text
        result = page.locator("#tie-result").inner_text()
        assert "Stark" in result and "ahead of" in result and "Lannister" in result
        no_json(text)
        # Baratheon moved up twice: first; then down again: second
        page.click("button[data-up=baratheon]")
        page.click("button[data-up=baratheon]")
        result = page.locator("#tie-result").inner_text()
        assert result.index("Baratheon") < result.index("Stark") < result.index("Lannister"), result
        assert page.locator("button[data-up=baratheon]").is_disabled()
        page.click("button[data-down=baratheon]")
        result = page.locator("#tie-result").inner_text()
        assert result.index("Stark") < result.index("Baratheon") < result.index("Lannister"), result
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shoot(page, artifacts, f"decision-tie-{width}")
    page.click("#tie-submit")
    page.wait_for_function("window.__westerosGame.state().view.tracks.iron_throne[1] === 'baratheon'")
    assert game_state(page)["view"]["tracks"]["iron_throne"] == ["stark", "baratheon", "lannister"]
    assert page.locator("#error").is_hidden()
    # Stark still holds the Iron Throne and breaks the Fiefdoms tie next, starting from that tie's order
    page.wait_for_selector("#decision h3:has-text('Tie for the Fiefdoms track')")
    tied = game_state(page)["view"]["decision"]["tied"]
    assert page.locator(".tie-row").evaluate_all("rows => rows.map(r => r.dataset.house)") == tied


def test_bid_for_a_track_with_everyones_power(live_asgi_server, demo_game, new_page, artifacts, request):
    base = live_asgi_server.url
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_clash; stage_clash({demo_game})")
    for width, height in WIDTHS:
        page = open_game(new_page, base, request.node.demo_user, demo_game, width, height)
        page.wait_for_selector("#bid-submit")
        text = page.locator("#decision").inner_text()
        assert "Bidding for the Iron Throne track" in text
        assert "Now, from first to last" in text
        assert "5 power available" in text
        # the other houses' power is hidden while the bid is open (R290), and said so in words
        assert text.count("power hidden until the bids are revealed") == 2
        assert "Lannister" in text and "Baratheon" in text
        no_json(text)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shoot(page, artifacts, f"decision-bid-{width}")
    page.fill("#bid-input", "2")
    page.click("#bid-submit")
    page.wait_for_function("window.__westerosGame.state().view.decision.for !== 'iron_throne' || "
                           "window.__westerosGame.state().pending.stark !== 'bid'")
    assert page.locator("#error").is_hidden()


def test_a_throne_of_blades_names_the_card_and_the_options(live_asgi_server, demo_game, new_page, artifacts, request):
    base = live_asgi_server.url
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_throne_of_blades; stage_throne_of_blades({demo_game})")
    for width, height in WIDTHS:
        page = open_game(new_page, base, request.node.demo_user, demo_game, width, height)
        page.wait_for_selector(".westeros-card")
        text = page.locator("#decision").inner_text()
        assert "A Throne of Blades" in text and "As holder of the Iron Throne" in text
        for card, name in (("supply", "Supply"), ("mustering", "Mustering"), ("last_days_of_summer", "Last Days of Summer")):
            button = page.locator(f"""#decision button.choice[data-action='{{"choose":"{card}"}}']""")
            assert button.inner_text().startswith(name), card
        no_json(text)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shoot(page, artifacts, f"decision-throne-of-blades-{width}")
    page.click("""#decision button.choice[data-action='{"choose":"last_days_of_summer"}']""")
    page.wait_for_function("window.__westerosGame.state().pending.stark !== 'choose'")
    assert page.locator("#error").is_hidden()


def test_raven_swap_area_then_token(live_asgi_server, demo_game, new_page, artifacts, request):
    base = live_asgi_server.url
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_raven; stage_raven({demo_game})")
    for width, height in WIDTHS:
        page = open_game(new_page, base, request.node.demo_user, demo_game, width, height)
        page.wait_for_selector("button[data-raven-area]")
        # first only the areas (two), no token buttons until one is chosen
        assert page.locator("button[data-raven-area]").count() == 2
        assert page.locator("button[data-raven-token]").count() == 0
        text = page.locator("#decision").inner_text()
        assert "Winterfell" in text and "White Harbor" in text and "Do not use the Raven" in text
        page.click("button[data-raven-area=white_harbor]")
        page.wait_for_selector("button[data-raven-token]")
        assert "Then the new order for White Harbor" in page.locator("#decision").inner_text()
        assert 0 < page.locator("button[data-raven-token]").count() < 12
        no_json(page.locator("#decision").inner_text())
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shoot(page, artifacts, f"decision-raven-swap-{width}")
    page.click("button[data-raven-token=consolidate]")
    page.wait_for_function("(window.__westerosGame.state().view.orders.white_harbor || {}).token === 'consolidate'")
    assert page.locator("#error").is_hidden()


def test_raven_peek_shows_the_card_seen(live_asgi_server, demo_game, new_page, artifacts, request):
    base = live_asgi_server.url
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_raven; stage_raven({demo_game})")
    page = open_game(new_page, base, request.node.demo_user, demo_game, 1440, 900)
    page.wait_for_selector("button[data-raven-area]")
    page.locator("#decision button.choice", has_text="Look at the top wildling card").click()
    page.wait_for_selector(".wildling-card")
    for width, height in WIDTHS:
        if width != 1440:
            page = open_game(new_page, base, request.node.demo_user, demo_game, width, height)
            page.wait_for_selector(".wildling-card")
        text = page.locator("#decision").inner_text()
        assert "Mammoth Riders" in text and "Destroys 3 of their units" in text
        assert "Keep the wildling card on top" in text
        no_json(text)
        shoot(page, artifacts, f"decision-raven-peek-{width}")
    page.locator("#decision button.choice", has_text="Keep the wildling card on top").click()
    page.wait_for_function("window.__westerosGame.state().pending.stark !== 'raven_peek'")


def test_combat_strength_beside_the_card_and_blade_choices(live_asgi_server, demo_game, new_page, artifacts, request):
    base = live_asgi_server.url
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_stark_attack; stage_stark_attack({demo_game})")
    page = open_game(new_page, base, request.node.demo_user, demo_game, 1440, 900)
    page.wait_for_selector("#combat-breakdown")
    text = page.locator("#combat-breakdown").inner_text()
    assert "Stark attacks Baratheon in White Harbor from Winterfell" in " ".join(text.split())
    assert "footman, knight" in text and "Strength before house cards" in text
    assert "not yet revealed" in text and "Fiefdoms track" in text
    no_json(text)
    # the battle is in view on the board
    box = page.evaluate("window.__westerosGame.view().box()")
    wh = page.evaluate("window.Westeros.board().areas.white_harbor.center")
    assert box[0] <= wh[0] <= box[0] + box[2] and box[1] <= wh[1] <= box[1] + box[3]
    page.locator("#decision .cards.choose [data-card]").first.click()   # chosen, then confirmed (issue 26)
    page.click("#house-card-submit")
    page.wait_for_function("window.__westerosGame.state().pending.stark === 'blade'")
    for width, height in WIDTHS:
        if width != 1440:
            page = open_game(new_page, base, request.node.demo_user, demo_game, width, height)
        page.wait_for_selector("#combat-breakdown")
        text = page.locator("#combat-breakdown").inner_text()
        cards = game_state(page)["view"]["combat"]["_current"]["cards"]
        board_cards = page.evaluate("window.Westeros.board().house_cards")
        for card in cards.values():
            assert board_cards[card]["name"] in text
        assert "Strength" in text and "Valyrian Steel Blade" in text and "A tie goes to" in text
        assert "Use the Valyrian Steel Blade" in page.locator("#decision").inner_text()
        no_json(text)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shoot(page, artifacts, f"decision-combat-{width}")


def test_break_a_tie_for_the_lowest_bidder_against_the_wildlings(live_asgi_server, demo_game, new_page, artifacts, request):
    base = live_asgi_server.url
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_wildling_tie; stage_wildling_tie({demo_game})")
    for width, height in WIDTHS:
        page = open_game(new_page, base, request.node.demo_user, demo_game, width, height)
        page.wait_for_selector("#tie-submit")
        text = page.locator("#decision").inner_text()
        assert "Tie for the lowest bid against the wildlings" in text
        assert "Mammoth Riders" in text and "Destroys 3 of their units" in text
        # the house at the bottom counts as the lowest bidder: Baratheon by default, Stark once moved down
        assert "Baratheon counts as the lowest bidder" in page.locator("#tie-result").inner_text()
        page.click("button[data-down=stark]")
        page.click("button[data-down=stark]")
        result = page.locator("#tie-result").inner_text()
        assert "Stark counts as the lowest bidder" in result and "Lannister" in result
        no_json(page.locator("#decision").inner_text())
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shoot(page, artifacts, f"decision-tie-wildlings-{width}")
