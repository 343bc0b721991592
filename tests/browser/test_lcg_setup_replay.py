"""The card game's page from the deal: mulligans and the setup composer (cards picked in the hand,
the cost counted, placed face down, revealed together); and the replay of a finished card game
drawn step by step with the table's own renderer (static/js/lcg.js). The live server, its database
and Chromium are set up in conftest.py."""
from __future__ import annotations

import json
import re

import pytest

from tests.browser.test_lcg_table import _act, _no_ids, _open, _pending, _stage
from tests.browser.util import PASSWORD, game_state, log_in

pytestmark = pytest.mark.browser


def _setup_picks(page) -> list[str]:
    """Characters and locations of the hand, cheapest first, within 8 gold and one Limited card."""
    cards = page.evaluate("JSON.parse(document.getElementById('lcg-cards').textContent).cards")
    state = game_state(page)
    hand = state["view"]["players"][state["your_seat"]]["hand"]
    picks, cost, limited = [], 0, 0
    for cid in sorted(hand, key=lambda c: cards[c].get("cost", 99) if isinstance(cards[c].get("cost"), int) else 99):
        c = cards[cid]
        if c["type"] not in ("character", "location") or cid in picks or not isinstance(c.get("cost"), int):
            continue
        lim = 1 if c["keywords"].get("limited") else 0
        if cost + c["cost"] > 8 or limited + lim > 1:
            continue
        picks.append(cid)
        cost += c["cost"]
        limited += lim
    return picks


def test_lcg_setup(live_asgi_server, new_page, artifacts):
    names = ["Cass", "Dorn"]
    game_id = _stage(live_asgi_server, names, staged=False)
    pages = {"p1": _open(new_page, live_asgi_server, names[0], game_id),
             "p2": _open(new_page, live_asgi_server, names[1], game_id)}
    placed = {}
    for _ in range(12):
        # both pages at the newest version first: one that has not heard of the last action yet
        # would say it is still the other seat's turn, and the loop would stop early
        newest = max(game_state(p)["version"] for p in pages.values())
        for p in pages.values():
            p.wait_for_function(f"window.__westerosGame.state().version >= {newest}")
        seat = next((s for s, p in pages.items() if _pending(p)), None)
        if seat is None:
            break
        page, kind = pages[seat], _pending(pages[seat])
        if kind == "mulligan":
            assert page.locator("#hand .lcg-card").count() == 7
            _act(page, "#decision button:has-text('Keep this hand')")
        elif kind == "setup" and seat == "p1":
            picks = _setup_picks(page)
            assert picks, "a hand with no character or location of 8 or less"
            for cid in picks:
                page.locator(f"#hand .lcg-card.selectable[data-card={cid}]").first.click()
            tally = page.inner_text("#decision .tally")
            assert f"{len(picks)}" in page.inner_text("#confirm-setup") and "of 8" in tally
            page.screenshot(path=str(artifacts / "lcg-setup-1440.png"), full_page=True)
            _act(page, "#confirm-setup")
            placed["p1"] = picks
            # chosen face down: the other seat sees nothing of it yet
            other = pages["p2"]
            if _pending(other) == "setup":
                text = other.inner_text("#table")
                assert not any(other.locator(f"#area-p1 .lcg-card[data-card={c}]").count() for c in picks), text
        elif kind == "setup":
            assert "Place nothing" in page.inner_text("#confirm-setup")
            _act(page, "#confirm-setup")
            placed["p2"] = []
        else:
            break
    assert set(placed) == {"p1", "p2"}
    for page in pages.values():
        page.wait_for_function("window.__westerosGame.state().view.phase !== 'setup'")
        for cid in placed["p1"]:
            page.locator(f"#area-p1 .lcg-row .lcg-card[data-card={cid}]").first.wait_for()
    _no_ids(pages["p2"].inner_text("#table"))


def test_lcg_replay(live_asgi_server, new_page, artifacts):
    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage_lcg import finished_lcg; "
                                  f"finished_lcg(['Edda', 'Fenn'], {PASSWORD!r})")
    game_id, status = re.search(r"game (\d+) (\w+)", out).groups()
    assert status == "finished"
    page = new_page(1440, 1000)
    log_in(page, live_asgi_server.url, "Edda")
    page.goto(f"{live_asgi_server.url}/games/{game_id}/replay")
    page.wait_for_selector("#replay-pos:has-text('Step 0 of')")
    page.wait_for_selector("#replay-table .lcg-area")
    assert page.locator("#replay-table .lcg-area").count() == 2
    assert "as it started" in page.inner_text("#replay-entry")
    steps = int(page.get_attribute("#replay", "data-steps"))
    for n in (1, 2, 3):
        page.click("button[data-step=next]")
        page.wait_for_selector(f"#replay-pos:has-text('Step {n} of')")
    entry = page.inner_text("#replay-entry")
    assert "Edda" in entry or "Fenn" in entry
    _no_ids(entry)
    # the end: the winner in words, each seat's cards drawn, viewed as Edda (her hand face up)
    page.click("button[data-step=last]")
    page.wait_for_selector(f"#replay-pos:has-text('Step {steps} of')")
    assert "wins" in page.inner_text("#replay-pos")
    page.wait_for_selector("#replay-table #area-p1.me #hand")
    assert page.locator("#replay-table .lcg-card").count() > 4
    _no_ids(page.inner_text("#replay-table"))
    page.screenshot(path=str(artifacts / "lcg-replay-1440.png"), full_page=True)
    page.select_option("#replay-as", "spectator")
    page.wait_for_function("!document.querySelector('#replay-table #hand')")
    assert "hidden" in page.inner_text("#replay-table")


COMPOSERS = {"setup": "#confirm-setup", "challenge": "#confirm-challenge", "defenders": "#confirm-defenders",
             "kill": "#confirm-kill", "discard": "#confirm-discard", "plot": "#confirm-plot",
             "renown": "#confirm-keyword", "insight": "#confirm-keyword", "pillage": "#confirm-keyword"}


def test_lcg_every_decision(live_asgi_server, new_page):
    """Every kind of decision a game asks (from one game of the engine's player against the random
    player) is asked in words: each action the server lists is a button or a highlighted card, a
    decision it cannot list has its composer, and neither the panel nor the table shows an id."""
    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage_lcg import decision_games; "
                                  f"decision_games(['Gwyn', 'Hal'], {PASSWORD!r})")
    games = [g.split(":") for g in re.search(r"games (\S+)", out).group(1).split(",")]
    assert len(games) > 15
    pages = {}
    for seat, name in (("p1", "Gwyn"), ("p2", "Hal")):
        pages[seat] = new_page(1440, 1000)
        log_in(pages[seat], live_asgi_server.url, name)
    kinds = set()
    for game_id, asked in games:
        page = pages[asked.split("+")[0]]
        page.goto(f"{live_asgi_server.url}/games/{game_id}/")
        page.wait_for_selector("#decision h2:has-text('Your decision')")
        state = game_state(page)
        kind = state["pending"][state["your_seat"]]
        kinds.add(kind)
        legal = state["legal_actions"]
        panel = page.inner_text("#decision")
        _no_ids(panel)
        _no_ids(page.inner_text("#table"))
        if kind in COMPOSERS:
            assert page.locator(COMPOSERS[kind]).count() == 1, f"{kind}: no composer in {panel}"
        elif legal is None or state["view"]["decision"].get("what") == "cards":   # several cards at once
            assert page.locator("#confirm-cards").count() == 1, f"{kind}: no composer in {panel}"
        else:
            offered = set(page.eval_on_selector_all("#decision button[data-action]", "bs => bs.map(b => b.dataset.action)"))
            missing = [a for a in legal if json.dumps(a, separators=(",", ":")) not in offered]
            assert not missing, f"{kind}: {missing} not offered in {panel}"
    assert {"mulligan", "setup", "plot", "action", "challenge", "defenders", "kill", "discard", "choose"} <= kinds
