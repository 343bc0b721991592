"""The log in words (issue 15), in the browser: grouped by round and phase, one sentence per line
with house names in their colours, a "Since your last move" digest, no ids or dumps; another seat's
secret never in a spectator's log; the replay's step told in the same sentences. Screenshots at
1440 and 390 px in test-artifacts/. Server and browser: conftest.py."""
from __future__ import annotations

import json
import re

import pytest

from tests.browser.util import log_in

pytestmark = pytest.mark.browser
RAW = re.compile(r"[_{}\[\]]|\bversion\b|\bNone\b|\bnull\b|\.\.\.$")


def play_default(server, page, game_id: int, seat: str) -> None:
    out = server.manage("shell", "-c", (
        "import json; from games.models import Game; from games.engine import get_ruleset; "
        f"g = Game.objects.get(pk={game_id}); "
        f"print(json.dumps({{'version': g.version, 'action': get_ruleset('agot').default_action(g.state, {seat!r})}}))"))
    body = json.loads(out.strip().splitlines()[-1])
    status = page.evaluate("""async (body) => {
        const csrf = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
        const r = await fetch(document.getElementById("game").dataset.api + "/actions", { method: "POST",
          credentials: "same-origin", headers: { "Content-Type": "application/json", "X-CSRFToken": decodeURIComponent(csrf) },
          body: JSON.stringify(body) });
        return r.status; }""", body)
    assert status == 200


def log_texts(page) -> list[str]:
    """Every sentence of the log: closed groups draw their lines when opened."""
    page.evaluate("document.querySelectorAll('#log details').forEach((d) => { d.open = true; })")
    page.wait_for_function("[...document.querySelectorAll('#log details')].every((d) => d.querySelector('.log-line'))")
    return [t.strip() for t in page.locator("#log .log-line").all_text_contents()]


WIDTHS = ((1440, 900), (390, 844))


def test_log_by_round(live_asgi_server, demo_game, new_page, request, artifacts):
    """The log reads as sentences grouped by round and phase, with a digest (a short name: the demo
    user is named after the test). One game, open at both widths at once: the move and the bots'
    answers reach both pages live, so each width is checked on a page that followed the game."""
    base = live_asgi_server.url
    pages = {}
    for width, height in WIDTHS:
        page = pages[width] = new_page(width, height)
        log_in(page, base, request.node.demo_user)
        page.goto(f"{base}/games/{demo_game}/")
        page.wait_for_selector("#log .log-line")
    play_default(live_asgi_server, pages[1440], demo_game, "stark")
    for width, height in WIDTHS:
        check_log_by_round(live_asgi_server, pages[width], new_page, artifacts, demo_game, width, height)


def check_log_by_round(server, page, new_page, artifacts, game_id: int, width: int, height: int) -> None:
    # the bots play on until Stark's next decision; the page follows live
    page.wait_for_function("document.querySelectorAll('#log details').length >= 2", timeout=30000)
    page.wait_for_selector("#log-digest:not([hidden])")
    panel = page.locator("#log").locator("xpath=..")
    panel.scroll_into_view_if_needed()
    panel.screenshot(path=str(artifacts / f"log-in-words-{width}.png"))

    summaries = page.locator("#log details > summary").all_inner_texts()
    assert any(s.startswith("Round 1 · Planning phase") for s in summaries), summaries
    assert any(s.startswith("Round 1 · Action phase") for s in summaries), summaries
    texts = log_texts(page)
    assert texts and all(not RAW.search(t) for t in texts), [t for t in texts if RAW.search(t)]
    joined = "\n".join(texts)
    assert "Stark places" in joined and "The orders are revealed." in joined
    assert "seen only by Stark" in joined  # Stark's own face-down orders, to Stark alone
    # house names are coloured with the house classes of board.css
    assert page.locator("#log .log-line span.house-name.house-stark").count() >= 1
    assert page.locator("#log .log-line span.house-name.house-lannister").count() >= 1
    colour = page.locator("#log .log-line span.house-name.house-lannister").first.evaluate(
        "e => getComputedStyle(e).backgroundColor")
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent")

    digest = page.locator("#log-digest")
    assert digest.locator("h3").inner_text() == "Since your last move"
    assert digest.locator("li").count() >= 1
    assert not any(RAW.search(t) for t in digest.locator("li").all_inner_texts())
    # the page does not scroll sideways
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

    # a spectator reads the same game without Stark's secret
    other = new_page(width, height)
    other.goto(f"{server.url}/games/{game_id}/")
    other.wait_for_selector("#log .log-line")
    seen = "\n".join(log_texts(other))
    assert "Stark places" in seen and "seen only" not in seen
    assert other.locator("#log-digest").count() == 0 or other.locator("#log-digest").is_hidden()


def test_the_replay_tells_each_step_in_sentences(live_asgi_server, new_page, artifacts):
    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage import finished_game; finished_game()")
    game_id = int(re.search(r"game (\d+) finished", out).group(1))
    for width, height in ((1440, 900), (390, 844)):
        page = new_page(width, height)
        page.goto(f"{live_asgi_server.url}/games/{game_id}/replay")
        page.wait_for_selector("#replay-pos:has-text('Step 0 of')")
        page.click("button[data-step=next]")
        page.wait_for_selector("#replay-pos:has-text('Step 1 of')")
        assert "Planning phase" in page.locator("#replay-pos").inner_text()
        lines = page.locator("#replay-entry .replay-lines li").all_inner_texts()
        assert lines and all(not RAW.search(t) and not re.search(r"\w: \w+ \w+;", t) for t in lines), lines
        assert page.locator("#replay-entry span.house-name").count() >= 1
        page.locator("#replay-entry").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"replay-in-words-{width}.png"))
