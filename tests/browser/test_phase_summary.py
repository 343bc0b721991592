"""After each phase, what happened in it (issue 15), in the browser: a game staged at the end of
round 1's Planning phase (tests/browser/stage_phase_summary.py) is played on by Stark (the reader)
and two bots: the orders are revealed, Stark attacks White Harbor and wins, round 2's Westeros phase
draws its cards. The panel above the board says "What happened in the ... phase of round N" with the
phase's key sentences, the earlier phases folded below it; the areas the battle changed are outlined
on the board (class phase-changed on their SVG paths) while the panel is open; an area that changes
while the reader watches (units, power tokens, control; not orders) is marked for a while
(recently-changed). Dismissed, it stays dismissed after a reload. Screenshots at 1440 and 390 px in test-artifacts/. Server and browser: conftest.py."""
from __future__ import annotations

import json
import re

import pytest

from tests.browser.util import game_state, log_in

pytestmark = pytest.mark.browser
RAW = re.compile(r"[_{}\[\]]|\bNone\b|\bnull\b|\bundefined\b")
MARCH = {"march": {"from": "winterfell", "moves": {"white_harbor": ["footman", "knight"]}, "leave_power_token": False}}


def send(page, action) -> None:
    assert page.evaluate("(a) => window.__westerosGame.send(a)", action) is True, page.locator("#error").inner_text()


def default_action(server, game_id: int, seat: str):
    out = server.manage("shell", "-c", (
        "import json; from games.models import Game; from games.engine import get_ruleset; "
        f"g = Game.objects.get(pk={game_id}); print(json.dumps(get_ruleset('agot').default_action(g.state, {seat!r})))"))
    return json.loads(out.strip().splitlines()[-1])


def wait_pending(page, kind: str, round_: int | None = None) -> None:
    cond = f"g && g.pending && g.pending.stark === {kind!r}" + (f" && g.view.round === {round_}" if round_ else "")
    page.wait_for_function(f"(() => {{ const g = window.__westerosGame.state(); return {cond}; }})()", timeout=30000)


def attack_and_play_to_round_two(page, server, game_id: int) -> None:
    """From Stark's March in round 1 (stage_phase_summary.py): Stark attacks White Harbor with Eddard
    Stark, its other decisions take their defaults, until Stark places orders in round 2."""
    send(page, MARCH)
    wait_pending(page, "house_card", 1)
    send(page, {"house_card": "eddard_stark"})
    for _ in range(20):
        g = game_state(page)
        if g["view"]["round"] == 2 and g["pending"].get("stark") == "place_orders":
            break
        if g["pending"].get("stark") and page.evaluate("(a) => window.__westerosGame.send(a)",
                                                       default_action(server, game_id, "stark")):
            continue
        # nothing to decide, or the page sent from a version the game has left (another seat acted
        # and its update is on its way: the server refuses it, the page re-fetches): wait for it
        page.wait_for_function(f"window.__westerosGame.state().version > {g['version']}", timeout=30000)
    wait_pending(page, "place_orders", 2)


def panel_lines(page, scope="#phase-summary > .ps-lines li"):
    return [t.strip() for t in page.locator(scope).all_inner_texts()]


def outlined(page, cls="phase-changed"):
    return set(page.locator(f"#board path.area.{cls}").evaluate_all("ps => ps.map((p) => p.dataset.area)"))


WIDTHS = ((1440, 900), (390, 844))


def test_phase_summary(live_asgi_server, demo_game, new_page, request, artifacts):
    """One staged game, open at both widths at once (each page in a context of its own, as two
    devices): the desktop page sends Stark's decisions and both pages follow the game live, so each
    width is checked after each phase on a page that watched it end."""
    base = live_asgi_server.url
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage_phase_summary import stage_battle_round; "
                                           f"stage_battle_round({demo_game})")
    pages = {}
    for width, height in WIDTHS:
        page = pages[width] = new_page(width, height)
        log_in(page, base, request.node.demo_user)
        page.goto(f"{base}/games/{demo_game}/")
        wait_pending(page, "place_orders", 1)
        page.wait_for_selector("#log .log-line")
        # nothing has ended yet in this game: no summary
        assert page.locator("#phase-summary").is_hidden()

    # the Planning phase ends with Stark's orders: its summary says the orders were revealed
    send(pages[1440], {"place_orders": {"winterfell": "march+1*"}})
    for page in pages.values():
        check_planning_summary(page)

    # the Action phase: Stark attacks White Harbor with Eddard Stark and wins; then round 2's Westeros
    # phase (no decision) and the bots' orders of round 2: Stark places orders again
    attack_and_play_to_round_two(pages[1440], live_asgi_server, demo_game)
    for width, height in WIDTHS:
        check_round_two(pages[width], new_page, artifacts, base, demo_game, width, height)


def check_planning_summary(page) -> None:
    wait_pending(page, "march", 1)
    page.wait_for_selector("#phase-summary h2:has-text('What happened in the Planning phase of round 1')")
    lines = panel_lines(page)
    assert lines and lines[0].startswith("The orders are revealed. Stark: special March +1 order in Winterfell."), lines
    # orders turning face up change no area (the summary says it): the board is not outlined all over
    assert not outlined(page, "recently-changed") and not outlined(page)
    assert not RAW.search(page.locator("#phase-summary").inner_text()), page.locator("#phase-summary").inner_text()


def check_round_two(page, new_page, artifacts, base: str, game_id: int, width: int, height: int) -> None:
    wait_pending(page, "place_orders", 2)
    page.wait_for_selector("#phase-summary h2:has-text('What happened in the Westeros phase of round 2')")
    page.wait_for_selector("#phase-summary .ps-older")

    westeros = panel_lines(page)
    assert westeros[0] == "Westeros cards for round 2: Supply, Game of Thrones and Rains of Autumn.", westeros
    assert any(t.startswith("Supply levels: Stark") for t in westeros), westeros
    assert any(t.startswith("Power from crowns") for t in westeros), westeros
    assert any(t.startswith("Rains of Autumn: special March +1 orders may not be played") for t in westeros), westeros
    assert len(westeros) <= 8 and not any(RAW.search(t) for t in westeros), westeros

    older = page.locator("#phase-summary .ps-older > summary").all_inner_texts()
    assert older == ["What happened in the Action phase of round 1", "What happened in the Planning phase of round 1"]
    page.locator("#phase-summary .ps-older > summary").first.click()
    action = panel_lines(page, "#phase-summary .ps-older >> nth=0 >> li")
    assert any(re.match(r"Stark wins the battle for White Harbor against Baratheon \(\d+ to \d+\)", t) for t in action), action
    assert any(t.startswith("Stark marches from Winterfell: one footman and one knight to White Harbor") for t in action)
    # Baratheon's footman retreats, or dies when Eddard Stark's swords outnumber its fortifications
    retreat = [t for t in action if t.startswith("Baratheon retreats one footman from White Harbor to ")]
    assert retreat or "Baratheon loses one footman in White Harbor" in " ".join(action), action
    assert len(action) <= 8 and not any(RAW.search(t) for t in action), action
    more = page.locator("#phase-summary .ps-older >> nth=0 >> .ps-more")
    assert more.count() == 0 or re.fullmatch(r"and \d+ more in the log\.", more.inner_text().strip())
    assert page.locator("#phase-summary .house-name.house-stark").count() >= 1

    # the battle's areas are outlined on the board (the class on their paths, an outline above the pieces)
    changed = outlined(page)
    assert {"winterfell", "white_harbor"} <= changed and len(changed) == 2 + len(retreat), changed
    if retreat:
        fled_to = re.search(r" to (.+)\.$", retreat[0]).group(1)
        names = page.locator("#board path.area.phase-changed title").all_inner_texts()
        assert any(n.startswith(fled_to) for n in names), (names, fled_to)
    assert page.locator("#board g.ps-outlines path.ps-ring.phase").count() == len(changed)
    assert f"{len(changed)} areas that changed are outlined" in page.locator("#phase-summary .ps-note").inner_text()
    # the outline survives the board being drawn again (a click on the board redraws it): load()
    # resolves once the page has drawn the board afresh, its old paths gone (a load already under
    # way when it is called may have drawn before: the next one draws again)
    assert page.evaluate("""async () => {
        const old = document.querySelector('#board path.area[data-area]');
        for (let i = 0; i < 3 && old.isConnected; i++) await window.__westerosGame.load();
        return !old.isConnected;
    }""")
    assert outlined(page) == changed

    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.locator("#phase-summary").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"phase-summary-{width}.png"))
    page.locator("#board").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"phase-summary-board-{width}.png"))

    # a first visit (a spectator, nothing remembered) shows only the phase that ended last, and none
    # of the seat's secrets (the log is filtered per seat)
    other = new_page(width, height)
    other.goto(f"{base}/games/{game_id}/")
    other.wait_for_selector("#phase-summary h2:has-text('What happened in the Westeros phase of round 2')")
    assert other.locator("#phase-summary .ps-older").count() == 0
    assert panel_lines(other) == westeros and not outlined(other)

    # dismissed: the panel and the outlines go, and stay gone after a reload
    page.click("#phase-summary .ps-close")
    assert page.locator("#phase-summary").is_hidden() and not outlined(page)
    page.reload()
    wait_pending(page, "place_orders", 2)
    # the log's lines are drawn just after the summary has read the same log (game.js, loadLog)
    page.wait_for_selector("#log .log-line")
    assert page.locator("#phase-summary").is_hidden() and not outlined(page)

