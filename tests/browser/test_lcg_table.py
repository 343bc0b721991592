"""The card game's table page in two browsers: a whole round played live by clicking the page
(plot, draw, marshal, a military challenge with defenders and claim, dominance, taxation), every
window passed where the page asks; a refused declaration shows the server's reason; the page at
390 px. Screenshots go to test-artifacts/.

The game is staged (tests/browser/stage_lcg.py) at round 1's plot phase with known hands; every
window asks both seats (`every_window`, the live default). The live server, its database and
Chromium are set up in conftest.py."""
from __future__ import annotations

import re
from functools import partial

import pytest

from tests.browser.util import game_state, open_game, stage_game, wait_until, wait_version
from tests.browser.util import pending as _pending  # also imported by the other table tests

pytestmark = pytest.mark.browser


_stage = partial(stage_game, module="stage_lcg", function="lcg_game")
_open = partial(open_game, ready=".lcg-area.me")  # a page on the table, showing the player's own area


def _act(page, target) -> None:
    """Click what sends an action (a selector or a locator), then wait until the page shows a newer
    version (or a refusal, which fails the test)."""
    before = game_state(page)["version"]
    if isinstance(target, str):
        page.click(target)
    else:
        target.click()
    wait_version(page, before)


def _asked(pages: dict) -> str | None:
    """The first seat whose page asks it something, if any."""
    return next((s for s, p in pages.items() if _pending(p)), None)


def _no_ids(text: str) -> None:
    """Names, never ids: no seat id, no card instance, no snake_case card id, no JSON."""
    assert not re.search(r"\bp[12]\b", text), text
    assert not re.search(r"\bc\d+\b", text), text
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text
    assert "{" not in text and '":' not in text, text


def test_lcg_round_live(live_asgi_server, new_page, artifacts):
    names = ["Alys", "Bram"]
    game_id = _stage(live_asgi_server, names)
    alys = _open(new_page, live_asgi_server, names[0], game_id)
    bram = _open(new_page, live_asgi_server, names[1], game_id)
    pages = {"p1": alys, "p2": bram}

    # both areas, names not ids; each hand face up for its owner only, the other as a count
    assert alys.locator("#area-p1 #hand .lcg-card").count() == 4
    assert bram.locator("#area-p2 #hand .lcg-card").count() == 8
    assert "Tumblestone Knight" not in bram.inner_text("#table")
    assert "Alys's hand: 4 cards (hidden)" in bram.inner_text("#area-p1")
    assert alys.locator("#area-p2 .lcg-card[data-card=burned_men]").count() == 1
    _no_ids(alys.inner_text("#table"))
    _no_ids(alys.inner_text("#decision"))

    def next_seat():
        """"round 2" once it has begun; else the first seat asked something, if any."""
        if game_state(alys)["view"]["round"] == 2:
            return "round 2"
        return _asked(pages)

    done = set()
    for _ in range(120):  # a bound on the decisions answered, not on time
        seat = wait_until(alys, next_seat, "a seat to be asked something, or round 2")
        if seat == "round 2":
            break
        page = pages[seat]
        kind = _pending(page)
        state = game_state(page)["view"]
        if state["round"] == 2:  # this page is a step ahead of Alys's: round 2's questions are not this test's
            break
        window = (state.get("window") or {}).get("name")
        if kind == "plot":
            plot = "the_winds_of_winter" if seat == "p1" else "taxation"
            page.click(f"#decision .lcg-card[data-card={plot}]")
            _act(page, "#confirm-plot")
        elif kind == "first_player":
            _act(page, "#decision button:has-text('Alys goes first')")
        elif kind == "action" and window == "marshaling" and seat == "p1" and "marshal" not in done:
            assert "Done marshaling" in page.inner_text("#decision")
            knight = page.locator("#hand .lcg-card[data-card=tumblestone_knight]")
            assert "actionable" in knight.get_attribute("class")
            _act(page, knight)
            done.add("marshal")
            page.wait_for_selector("#area-p1 .lcg-row.chars .lcg-card[data-card=tumblestone_knight]")
            bram.wait_for_selector("#area-p1 .lcg-row.chars .lcg-card[data-card=tumblestone_knight]")  # live
            page.screenshot(path=str(artifacts / "lcg-marshaling-1440.png"), full_page=True)
        elif kind == "challenge" and seat == "p1" and "challenge" not in done:
            page.click("#decision button[data-type=military]")
            page.click("#area-p1 .lcg-card[data-card=salty_navigator]")
            page.click("#area-p1 .lcg-card[data-card=tumblestone_knight]")
            assert "strength 4" in page.inner_text("#decision .tally")
            _act(page, "#confirm-challenge")
            done.add("challenge")
            bram.wait_for_selector("#challenge:has-text('Military challenge: Alys attacks Bram')")
            assert alys.locator("#area-p1 .lcg-slot.kneeling .lcg-card[data-card=salty_navigator]").count() == 1
        elif kind == "defenders":
            assert "attacks you in a military challenge with strength 4" in page.inner_text("#decision")
            page.click("#area-p2 .lcg-card[data-card=burned_men]")
            _act(page, "#confirm-defenders")
            done.add("defenders")
            alys.wait_for_selector("#challenge:has-text('Defenders: Burned Men (2)')")
            alys.screenshot(path=str(artifacts / "lcg-challenge-1440.png"), full_page=True)
        elif kind == "kill":
            assert "choose 2 characters" in page.inner_text("#decision")
            page.click("#area-p2 .lcg-card[data-card=courtesan_of_the_rose]")
            page.click("#area-p2 .lcg-card[data-card=lannisport_moneylender]")
            _act(page, "#confirm-kill")
            done.add("claim")
        elif kind == "discard":
            count = game_state(page)["view"]["decision"]["count"]
            for i in range(count):
                page.click(f"#hand .lcg-slot:nth-child({i + 1}) .lcg-card")
            page.screenshot(path=str(artifacts / "lcg-taxation-1440.png"), full_page=True)
            _act(page, "#confirm-discard")
            done.add("taxation")
        else:
            button = page.locator("#decision button.pass")
            assert button.count() == 1, f"{seat} asked {kind}: no pass button in {page.inner_text('#decision')}"
            _act(page, button)
    else:
        raise AssertionError("the round did not end")
    assert done == {"marshal", "challenge", "defenders", "claim", "taxation"}

    # what the round left: two of Bram's characters killed by claim, dominance won, hand at reserve
    for page in (alys, bram):
        page.wait_for_function("window.__westerosGame.state().view.round === 2")
    summary = game_state(alys)["summary"]
    assert summary["dead"]["p2"] and len(summary["dead"]["p2"]) == 2
    assert summary["hand_size"]["p2"] == 6
    assert summary["dominance"]["winner"] in ("p1", "p2")
    alys.click("#pile-p2-dead")
    assert "Courtesan of the Rose" in alys.inner_text("#open-p2-dead")
    alys.wait_for_selector("#log li.log-line")
    log = alys.locator("#log").text_content()  # closed groups too
    for words in ("Alys marshals Tumblestone Knight", "declares a military challenge", "wins dominance", "Bram discards"):
        assert words in log, f"{words!r} not in the log"
    _no_ids(log)
    _no_ids(alys.inner_text("#table"))
    alys.screenshot(path=str(artifacts / "lcg-table-1440.png"), full_page=True)
    bram.screenshot(path=str(artifacts / "lcg-table-other-seat-1440.png"), full_page=True)


def test_lcg_refused_reason(live_asgi_server, new_page):
    """A power challenge with a character without the power icon: the server refuses, the page says
    why in words (the card's name, not its id) and the game does not change."""
    names = ["Alys", "Bram"]
    game_id = _stage(live_asgi_server, names)
    alys = _open(new_page, live_asgi_server, names[0], game_id)
    bram = _open(new_page, live_asgi_server, names[1], game_id)
    pages = {"p1": alys, "p2": bram}
    for _ in range(80):  # a bound on the decisions answered, not on time
        seat = wait_until(alys, lambda: _asked(pages), "a seat to be asked something")
        page, kind = pages[seat], _pending(pages[seat])
        if kind == "challenge":
            break
        if kind == "plot":
            page.locator("#decision .plot-choice .lcg-card").first.click()
            _act(page, "#confirm-plot")
        elif kind == "first_player":
            _act(page, "#decision button:has-text('Alys goes first')")
        else:
            _act(page, "#decision button.pass")
    else:
        raise AssertionError("no challenge was asked")
    page = pages[seat]
    version = game_state(page)["version"]
    page.click("#decision button[data-type=power]")
    page.click(f"#area-{seat} .lcg-row.chars .lcg-card[data-card=salty_navigator]")
    assert "has no power icon" in page.inner_text("#decision")
    page.click("#confirm-challenge")
    page.wait_for_selector("#error:not([hidden])")
    error = page.inner_text("#error")
    assert error.startswith("Refused:") and "Salty Navigator" in error, error
    _no_ids(error.replace("Refused:", ""))
    assert game_state(page)["version"] == version
    # the selection is kept: choose the right type and declare
    page.click("#decision button[data-type=military]")
    _act(page, "#confirm-challenge")
    assert page.locator("#error").is_hidden()


def test_lcg_phone(live_asgi_server, new_page, artifacts):
    """390 px: nothing wider than the screen, the other seat's area folded to a summary line (opens
    on a tap), the hand scrolls sideways, the decision comes before the table."""
    names = ["Alys", "Bram"]
    game_id = _stage(live_asgi_server, names)
    phone = _open(new_page, live_asgi_server, names[1], game_id, 390, 844)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, f"the page is {width}px wide on a 390px screen"
    _no_ids(phone.inner_text("#table"))
    opp = phone.locator("#area-p1")
    assert opp.get_attribute("open") is None
    summary = phone.inner_text("#area-p1 > summary")
    assert "Alys" in summary and "Hand 4" in summary and "Power" in summary
    hand = phone.locator("#hand")
    assert hand.evaluate("n => n.scrollWidth > n.clientWidth + 50"), "8 cards should scroll sideways"
    assert hand.evaluate("n => getComputedStyle(n).overflowX") == "auto"
    top_decision = phone.locator("#decision").bounding_box()["y"]
    top_table = phone.locator("#table").bounding_box()["y"]
    assert top_decision < top_table
    phone.screenshot(path=str(artifacts / "lcg-table-390.png"), full_page=True)
    # the card text on a tap of its "i"
    phone.locator("#hand .lcg-card").first.locator(".c-info").click()
    phone.wait_for_selector("#card-detail:not([hidden])")
    assert phone.locator("#card-detail h3").inner_text()
    phone.screenshot(path=str(artifacts / "lcg-card-text-390.png"))
    phone.click("#card-detail .d-close")
    phone.click("#area-p1 > summary")
    phone.wait_for_selector("#area-p1[open] .lcg-row.chars .lcg-card[data-card=salty_navigator]")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, f"the open area is {width}px wide on a 390px screen"
    phone.screenshot(path=str(artifacts / "lcg-table-open-390.png"), full_page=True)


def test_lcg_spectator(live_asgi_server, new_page):
    """A visitor sees both areas as any spectator may: no hand face up, each hand as a count."""
    game_id = _stage(live_asgi_server, ["Alys", "Bram"])
    page = new_page(1440, 1000)
    page.goto(f"{live_asgi_server.url}/games/{game_id}/")
    page.wait_for_selector("#conn.on")
    page.wait_for_selector("#area-p1 .lcg-row.chars .lcg-card")
    assert "Spectating" in page.inner_text("#decision")
    assert page.locator("#hand").count() == 0
    text = page.inner_text("#table")
    assert "Alys's hand: 4 cards (hidden)" in text and "Bram's hand: 8 cards (hidden)" in text
    assert "Tumblestone Knight" not in text and "Grand Maester Pycelle" not in text
    _no_ids(text)
