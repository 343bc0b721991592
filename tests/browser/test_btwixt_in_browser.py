"""B'Twixt in three browsers: a lobby with the ruleset `btwixt` made through the lobby form, then one
whole round (bids until all have knelt, the claim, the power token) played by clicking the buttons
of the game page, each bid seen live on the other pages. Also: the page on a phone (390 px).

The live server, its database and Chromium are set up in conftest.py (read it first)."""
from __future__ import annotations

import json
import re

import pytest

from tests.browser.util import PASSWORD, game_state, log_in, pick_hand_card, wait_until

pytestmark = pytest.mark.browser

NAMES = ("bt_alys", "bt_bran", "bt_cley")


def _users(server) -> None:
    code = ("from accounts.models import User\n"
            f"for n in {NAMES!r}:\n"
            f"    User.objects.filter(username=n).exists() or User.objects.create_user(username=n, email=n + '@example.com', password={PASSWORD!r})\n")
    server.manage("shell", "-c", code)


def _summary(page) -> dict:
    return game_state(page)["summary"]


def _my_pending(page) -> str | None:
    state = game_state(page)
    return state["pending"].get(state["your_seat"]) if state["status"] == "active" else None


def test_three_leaders_play_a_round_live(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    _users(live_asgi_server)
    pages = {name: new_page() for name in NAMES}
    for name, page in pages.items():
        log_in(page, base, name)

    alys = pages["bt_alys"]
    alys.goto(base + "/lobbies/new/")
    alys.select_option("select[name=ruleset]", "btwixt")
    alys.fill("input[name=name]", "Leaders at the table")
    alys.fill("input[name=seats]", "3")
    alys.click("main form button[type=submit]")
    alys.wait_for_url(re.compile(r"/lobbies/\d+/$"))
    assert "B'Twixt" in alys.locator("main").inner_text()
    for name in ("bt_bran", "bt_cley"):
        page = pages[name]
        page.goto(base + "/lobbies/")
        page.click("text=Leaders at the table")
        page.click("#join")
    pages["bt_cley"].wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = pages["bt_cley"].url
    alys.wait_for_url(game_url)
    pages["bt_bran"].goto(game_url)

    by_seat = {}
    for page in pages.values():
        page.wait_for_selector("#conn.on")
        page.wait_for_selector(".bt-seat")
        by_seat[page.locator("#game").get_attribute("data-seat")] = page
    summary = _summary(alys)
    assert set(by_seat) == set(summary["seats"]) and len(by_seat) == 3
    assert "reference set" in alys.locator("#cardset-notice").inner_text()
    for seat, page in by_seat.items():
        # its own hand with card texts; the other hands only as "hidden"
        assert page.locator("#hand .bt-card").count() == 10
        hands = _summary(page)["hands"]
        assert all(hands[s] == "hidden" for s in hands if s != seat)
        assert page.locator(".bt-council").count() == 3
        assert page.locator("#current-ally").count() == 1
    first = summary["first_player"]
    assert "first" in by_seat[first].locator(f"#seat-{first}").inner_text()

    # the round: each leader plays its first card on its first turn, then kneels; everyone sees
    # every bid live (no reload); then whatever the winner must decide (claim, token, choices)
    played: set[str] = set()
    start_round, start_season = summary["round"], summary["season"]

    def next_actor():
        """"over" once the round has ended; else the first (seat, page) asked something, if any."""
        s = _summary(alys)
        if (s["round"], s["season"]) != (start_round, start_season) or s["step"] == "game_over":
            return "over"
        return next(((seat, page) for seat, page in by_seat.items() if _my_pending(page)), None)

    for _ in range(40):  # a bound on the decisions answered, not on time
        actor = wait_until(alys, next_actor, "a leader to be asked something, or the round to end")
        if actor == "over":
            break
        seat, page = actor
        kind = _my_pending(page)
        version = game_state(page)["version"]
        if kind == "turn" and seat not in played:
            # the card is picked in the hand (the decision panel does not list the hand again)
            assert page.locator("#decision .bt-card").count() == 0
            card, name = pick_hand_card(page)
            assert json.loads(page.get_attribute("#hand-submit", "data-action"))["play"] == card
            page.click("#hand-submit")
            played.add(seat)
            for other in by_seat.values():  # the bid, live on every page
                other.wait_for_function(f"window.__westerosGame.state().version > {version}")
                # in the pile, or (a card whose "when played" ability asks its player first) in the log
                other.locator(f"#pile-{seat}", has_text=name).or_(other.locator("#log li", has_text=f"plays {name}")).first.wait_for()
                s = _summary(other)
                assert card in s["piles"][seat] or s["step"] != "bidding" or _my_pending(page) != "turn"
        elif kind == "turn":
            page.click("#decision button.kneel")
            for other in by_seat.values():
                other.wait_for_function(f"window.__westerosGame.state().version > {version}")
        elif page.locator("#hand .bt-card.pickable").count():  # an ability asks for a card of the hand
            page.locator("#hand .bt-card.pickable").first.click()
            page.click("#hand-submit")
        else:
            page.locator("#decision button.choice").first.click()
        page.wait_for_function(f"window.__westerosGame.state().version > {version}")
        if page.locator("#error").is_visible():
            raise AssertionError(page.locator("#error").inner_text())
    else:
        raise AssertionError("the round did not end")
    assert played == set(by_seat)

    # after the round: the ally is in a council, with a power token; values stay hidden
    s = _summary(alys)
    assert sum(len(c["allies"]) for c in s["councils"].values()) >= 1
    assert sum(c["token_count"] for c in s["councils"].values()) >= 1
    assert all(c["tokens"] == "hidden" for c in s["councils"].values())
    assert "values hidden" in alys.locator(".bt-council").first.inner_text() or \
        "values hidden" in alys.locator("#table").inner_text()
    alys.locator("#log li").first.wait_for()
    assert "wins the bid" in alys.locator("#log").inner_text()
    alys.screenshot(path=str(artifacts / "btwixt-page-desktop.png"), full_page=True)

    # a refused action shows the server's reason
    idle = next(page for page in by_seat.values() if not _my_pending(page))
    idle.evaluate("window.__westerosGame.send({play: 'no_such_card'})")
    idle.wait_for_selector("#error:not([hidden])")
    assert "Refused" in idle.locator("#error").inner_text()

    # a phone: the ring becomes a list, nothing wider than the screen
    phone = new_page(390, 844)
    log_in(phone, base, "bt_bran")
    phone.goto(game_url)
    phone.wait_for_selector(".bt-seat")
    phone.wait_for_selector("#conn.on")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, f"the page is {width}px wide on a 390px screen"
    phone.screenshot(path=str(artifacts / "btwixt-page-phone.png"), full_page=True)
