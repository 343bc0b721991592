"""A newcomer plays a whole round by clicking, never reading the rules (issue 15, "Done when"): the
orders are named and explained where they are picked (R116-R117 and each order's rule), every
decision has a heading in words, every button says what it does in words, and round 1 is played to
its end through the page's own controls alone: no hand-written actions. Stark against two bots
(conftest.py's demo_game). Screenshots at 1440 and 390 px go to test-artifacts/."""
from __future__ import annotations

import re

import pytest

from tests.browser.test_decisions_in_context import open_game
from tests.browser.util import game_state

pytestmark = pytest.mark.browser

RAW = re.compile(r"[_{}\[\]]|\bnull\b|\bundefined\b|\(s\)")


def words_only(page) -> None:
    """The decision panel speaks: a heading sentence, no ids or JSON, every button a word or more."""
    heading = page.locator("#decision h2").first.inner_text()
    assert re.match(r"^[A-Z][a-z]", heading) and not RAW.search(heading), heading
    text = page.locator("#decision").inner_text()
    assert not RAW.search(text), text
    for label in page.locator("#decision button:visible").all_inner_texts():
        assert re.search(r"[A-Za-z]{3,}", label), f"a button without a word: {label!r}"


def wait_turn_or_round_2(page) -> str | None:
    page.wait_for_function("""(() => { const g = window.__westerosGame.state();
        return g && (g.view.round > 1 || g.status !== 'active' || g.pending.stark); })()""", timeout=30000)
    g = game_state(page)
    return None if g["view"]["round"] > 1 or g["status"] != "active" else g["pending"]["stark"]


@pytest.mark.parametrize("width,height", [(1440, 900), (390, 844)])
def test_newcomer_round(live_asgi_server, demo_game, new_page, artifacts, request, width, height):
    """A newcomer plays round 1 by clicking (the user is named after the test: keep the name short)."""
    page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, width, height)
    page.wait_for_function("window.__westerosGame.state() && window.__westerosGame.state().pending.stark === 'place_orders'")
    words_only(page)
    power = game_state(page)["view"]["power"]["stark"]
    # Each order button names its order, and what the chosen order does is said beside it.
    names = page.locator("#decision .tokens button .token-name").all_inner_texts()
    assert {"March +1 ★", "Defense +1", "Support", "Raid", "Consolidate Power"} <= set(names), names
    page.click("#decision .area-pick[data-area=winterfell]")
    page.click("#decision .tokens button[data-token='march+0']")
    help_text = page.locator("#order-help").inner_text()
    assert help_text.startswith("March +0 in Winterfell: Move this area's units into adjacent areas."), help_text
    page.click("#decision .area-pick[data-area=white_harbor]")
    page.click("#decision .tokens button[data-token='defense+1']")
    page.click("#decision .area-pick[data-area=the_shivering_sea]")
    page.click("#decision .tokens button[data-token='consolidate']")
    assert "Gain one Power token" in page.locator("#order-help").inner_text()
    page.locator("#decision .order-guide summary").click()
    guide = page.locator("#decision .order-guide").inner_text()
    assert all(k in guide for k in ("March", "Defense", "Support", "Raid", "Consolidate power", "King's Court")), guide
    page.screenshot(path=str(artifacts / f"newcomer-orders-{width}.png"))
    page.click("#submit-orders")
    page.wait_for_function("window.__westerosGame.state().pending.stark !== 'place_orders'")

    seen = []
    for _ in range(12):
        kind = wait_turn_or_round_2(page)
        if kind is None:
            break
        version = game_state(page)["version"]
        seen.append(kind)
        page.locator("#decision").scroll_into_view_if_needed()
        words_only(page)
        page.screenshot(path=str(artifacts / f"newcomer-{len(seen)}-{kind}-{width}.png"))
        if kind == "march":
            # the March order: its area, then the knight, a destination from the list, then March
            page.click("#decision button[data-from=winterfell]")
            page.check("#decision input[data-unit=knight]")
            destinations = page.locator("#march-dest option").all_inner_texts()
            assert any(d.startswith("Castle Black") for d in destinations), destinations
            page.select_option("#march-dest", "castle_black")
            page.click("#march-assign")
            assert "knight → Castle Black" in page.locator(".march-moves").inner_text()
            page.click("#march-submit")
        else:
            # any other decision: its first choice, as a newcomer would click it
            page.locator("#decision button.choice:visible, #decision .choices button:visible").first.click()
        page.wait_for_function(f"window.__westerosGame.state().version > {version}", timeout=30000)
    else:
        pytest.fail(f"round 1 did not end: {seen}")
    assert seen[0] == "march", seen
    g = game_state(page)
    # the Consolidate Power order in The Shivering Sea (no crown) gave one Power token (R179)
    assert g["view"]["power"]["stark"] >= power + 1 or g["view"]["round"] > 1
    assert "castle_black" in g["view"]["units"] and g["view"]["units"]["castle_black"].get("stark") == ["knight"]
    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
