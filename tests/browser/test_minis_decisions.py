"""The miniatures game's page, every kind of decision: from seeded games of the engine's player
against the random player (tests/browser/stage_minis_decisions.py), one game per kind (the First
Player, deploy, activate, a unit's and an NCU's action, retreat moves, re-rolls, condition tokens,
free pivots, Surge Forward, discards, reaction windows with and without a card to play, each zone's
choice, Influence, redeployment): the page asks it in words with no id, offers every answer the
server lists, and an answer given on the page is accepted by the server. Then the selected unit's
line of sight (either side's unit, whatever is pending), and a move check that finds the page's
version stale re-fetches the game instead of showing a refusal. A re-fetch that brings nothing new
(the socket opening) leaves the decision's buttons in place, so a click under way is not lost, and a
move check without an answer (the network, a busy server) is asked again. Screenshots go to
test-artifacts/."""
from __future__ import annotations

import json
import re

import pytest

from tests.browser.test_minis_battle import _act, _drag, _no_ids, _open, _pending, _point, _stage
from tests.browser.util import PASSWORD, game_state, log_in, wait_version

pytestmark = pytest.mark.browser

# what shows that a decision the server does not list (moves, dice, cards) can be answered
COMPOSERS = {"action:unit": "#decision [data-sub=maneuver]", "action:ncu": "#decision button[data-action*=claim]",
             "retreat_move": "#decision #confirm", "reroll:attack": "#decision #confirm",
             "reroll:retreat": "#decision button.pass",
             "spend:attack": "#decision #confirm", "spend:defense": "#decision #confirm",
             "spend:morale": "#decision #confirm", "pivot": "#decision button.pass",
             "surge": "#decision button.pass", "discard:free": "#decision #confirm",
             "discard:count": "#decision #confirm", "deploy": "#decision button[data-unit]",
             "redeploy": "#decision button[data-unit]"}

# each listed answer says what it does
WORDS = {"choose:crown": ("takes a Panic Test at -1",), "choose:money": ("Heal ", "(up to 3 wounds)"),
         "choose:influence": ("Influence ",), "choose:letter": (" gains ",), "choose:swords": (" attacks ",),
         "choose:first_player": ("is the First Player",), "activate": ("Activate ",)}


def _status(page) -> str:
    """The move check's answer for the ghost tray (waits until it is given)."""
    page.wait_for_function("(() => { const b = document.getElementById('ghost-status');"
                           " return b && /^(Allowed|Not allowed)/.test(b.textContent); })()")
    return page.locator("#ghost-status").inner_text()


def _shift_until_allowed(page, label: str) -> None:
    """Nudge the ghost with its arrows until the server's check allows it, then confirm it."""
    if _status(page).startswith("Allowed"):
        return
    for direction in ("back", "left", "right"):
        for _ in range(4):
            arrow = page.locator(f".mn-ghost [data-ghost=shift][data-dir={direction}]")
            if not arrow.count():
                break
            arrow.first.dispatch_event("pointerdown", {"pointerId": 1, "button": 0, "clientX": 0, "clientY": 0})
            page.locator("#field").dispatch_event("pointerup", {"pointerId": 1})
            if _status(page).startswith("Allowed"):
                return
    raise AssertionError(f"{label}: no allowed position found: {_status(page)}")


def _turn_until_allowed(page, label: str) -> None:
    """Turn the ghost 15 degrees at a time (its panel's button) until the server's check allows it."""
    for _ in range(24):
        page.locator("#decision button", has_text="⟳ 15°").click()
        if _status(page).startswith("Allowed"):
            return
    raise AssertionError(f"{label}: no allowed facing found: {_status(page)}")


def _pick_die(page) -> None:
    page.locator("#decision .mn-die-btn").first.click()


def _answer(page, key: str, artifacts) -> None:
    """Answer the decision of kind `key` from the page; the server must take it."""
    box = page.locator("#decision")
    if key == "choose:horse":   # a free Maneuver: its ghost tray, turned and checked
        box.locator("button.choice", has_text="Maneuver").first.click()
        box.locator("button", has_text="⟳ 15°").click()
        _shift_until_allowed(page, key)
        page.screenshot(path=str(artifacts / "minis-decision-horse-1440.png"), full_page=True)
        _act(page, "#confirm")
    elif key.startswith("choose:") or key == "activate":
        _act(page, box.locator(".choices button.choice"))
    elif key == "action:unit":
        _act(page, box.locator("button.pass", has_text="No action"))
    elif key == "action:ncu":
        _act(page, box.locator("button[data-action*=claim]"))
    elif key in ("deploy", "redeploy"):
        box.locator("button[data-unit]").first.click()
        _shift_until_allowed(page, key)
        _act(page, "#confirm")
    elif key == "retreat_move":
        _shift_until_allowed(page, key)
        page.screenshot(path=str(artifacts / "minis-decision-retreat-1440.png"), full_page=True)
        _act(page, "#confirm")
    elif key == "reroll:attack" or key.startswith("spend:"):
        _pick_die(page)
        confirm = page.locator("#confirm")
        assert re.match(r"(Re-roll 1 die|Spend \w+: re-roll 1)$", confirm.inner_text()), confirm.inner_text()
        if key.startswith("spend:"):
            page.screenshot(path=str(artifacts / f"minis-decision-{key.replace(':', '-')}-1440.png"), full_page=True)
        _act(page, confirm)
    elif key == "pivot":
        box.locator("button.choice", has_text="Turn").first.click()
        _turn_until_allowed(page, key)
        page.screenshot(path=str(artifacts / "minis-decision-pivot-1440.png"), full_page=True)
        _act(page, "#confirm")
    elif key == "surge":
        box.locator("button.choice", has_text="Move it").click()
        box.locator("button", has_text="⟳ 15°").click()
        _shift_until_allowed(page, key)
        _act(page, "#confirm")
    elif key in ("discard:free", "discard:count"):
        count = game_state(page)["view"]["decision"].get("count") or 1
        for i in range(count):
            page.locator("#hand-panel .mn-hand input[type=checkbox]").nth(i).check()
        assert page.locator("#confirm").inner_text().startswith("Discard ")
        _act(page, "#confirm")
    elif key == "react:play":
        _act(page, box.locator(".choices button.choice"))
    elif key == "react":
        _act(page, box.locator("button.pass", has_text="Pass"))
    elif key == "reroll:retreat":  # Sudden Retreat: the retreat die kept
        _act(page, box.locator("button.pass", has_text="Keep it"))
    else:
        raise AssertionError(f"no answer for {key}")


def test_minis_every_decision(live_asgi_server, new_page, artifacts):
    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage_minis_decisions import decision_games; "
                                  f"decision_games(['mngwen', 'mnhugh'], {PASSWORD!r})")
    games = [g.split("/") for g in re.search(r"games (\S+)", out).group(1).split(",")]
    pages = {}
    for seat, name in (("stark", "mngwen"), ("lannister", "mnhugh")):
        pages[seat] = new_page(1440, 1000)
        log_in(pages[seat], live_asgi_server.url, name)
    kinds = set()
    for game_id, key, seat in games:
        page = pages[seat]
        page.goto(f"{live_asgi_server.url}/games/{game_id}/")
        page.wait_for_selector("#decision h2:has-text('Your decision')")
        state = game_state(page)
        kinds.add(key)
        legal = state["legal_actions"]
        panel = page.inner_text("#decision")
        _no_ids(panel)
        _no_ids(page.locator("#field").text_content())
        for word in WORDS.get(key, ()):
            assert word in panel, f"{key}: {word!r} not in {panel}"
        if legal is not None:
            offered = set(page.eval_on_selector_all("#decision button[data-action]", "bs => bs.map(b => b.dataset.action)"))
            missing = [a for a in legal if json.dumps(a, separators=(",", ":")) not in offered]
            assert not missing, f"{key}: {missing} not offered in {panel}"
        else:
            assert page.locator(COMPOSERS[key]).count() >= 1, f"{key}: nothing to answer with in {panel}"
        _answer(page, key, artifacts)
        _no_ids(page.inner_text("#decision"))
    assert kinds >= {"retreat_move", "spend:attack", "spend:defense", "spend:morale", "pivot", "surge",
                     "discard:free", "discard:count", "action:ncu", "choose:crown", "choose:money", "choose:letter",
                     "choose:horse", "choose:swords", "choose:influence", "redeploy", "react", "react:play",
                     "reroll:attack", "deploy", "activate", "action:unit", "choose:first_player"}, kinds


def _click_unit(page, x: float, y: float) -> None:
    page.mouse.click(*_point(page, x, y))


def test_minis_sight(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    game_id = _stage(server, ["mnivy", "mnjon"])
    bob = _open(new_page, server, "mnjon", game_id)
    assert _pending(bob) is None   # Stark activates first: Lannister has nothing to decide
    # his own Halberdiers, in melee with the Berserkers: they see them, not what the Berserkers hide
    _click_unit(bob, 40, 43)
    bob.wait_for_selector("#field .mn-sight-line.ok[data-sight=umber_berserkers]", state="attached")
    assert bob.locator("#field .mn-sight-line").count() == 3
    hidden = bob.locator("#field .mn-sight-line.no[data-sight=sworn_swords] title").text_content()
    assert hidden == ("Lannister Halberdiers has no line of sight to Stark Sworn Swords: "
                      "House Umber Berserkers stands in the way")
    card = bob.locator("#unit-card").inner_text()
    assert "Lannister Halberdiers sees House Umber Berserkers." in card
    assert "Not Stark Sworn Swords:" in card
    _no_ids(card)
    # the enemy's Sworn Swords: they see both Lannister units in front of them
    _click_unit(bob, 24, 18)
    bob.wait_for_selector("#field .mn-sight-line[data-sight=halberdiers]", state="attached")
    bob.wait_for_function("document.querySelectorAll('#field .mn-sight-line.ok').length === 2")
    # (in the order the checks came back: they are asked side by side)
    seen = re.search(r"Stark Sworn Swords sees (.+)\.", bob.locator("#unit-card").inner_text()).group(1)
    assert sorted(seen.split(", ")) == ["Lannister Guardsmen", "Lannister Halberdiers"], seen
    bob.screenshot(path=str(artifacts / "minis-sight-1440.png"), full_page=True)
    # the tool can be turned off
    bob.click("[data-tool=los]")
    assert bob.locator("#field .mn-sight-line").count() == 0
    assert "Line of sight" not in bob.locator("#unit-card").inner_text()
    # at phone width
    phone = _open(new_page, server, "mnivy", game_id, width=390, height=844)
    phone.locator("#field").scroll_into_view_if_needed()
    _click_unit(phone, 8, 6)   # the Outriders
    phone.wait_for_function("document.querySelectorAll('#field .mn-sight-line').length === 2")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(artifacts / "minis-sight-390.png"), full_page=True)


NO_SOCKET = """window.WebSocket = class { constructor() { this.readyState = 0; } send() {} close() {} };"""


def test_minis_stale_check(live_asgi_server, new_page):
    """The page's version is behind (its live updates lost): the move check's 409 re-fetches the game
    and asks again, and the page shows the game as it now is, not 'Not allowed'."""
    server = live_asgi_server
    game_id = _stage(server, ["mnkit", "mnlee"])
    page = new_page(1440, 1000)
    page.add_init_script(NO_SOCKET)
    log_in(page, server.url, "mnkit")
    page.goto(f"{server.url}/games/{game_id}/")
    page.wait_for_selector("#decision h2:has-text('Your decision')")
    _act(page, page.locator("#decision button.choice", has_text="Activate Stark Sworn Swords"))
    version = game_state(page)["version"]
    # the same player answers elsewhere (here a bare request, the page is not told)
    status = page.evaluate("""async ([api, v]) => {
        const csrf = document.cookie.match(/csrftoken=([^;]+)/)[1];
        const r = await fetch(api + '/actions', {method: 'POST', credentials: 'same-origin',
          headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf},
          body: JSON.stringify({version: v, action: {no_action: true}})});
        return r.status; }""", [page.locator("#game").get_attribute("data-api"), version])
    assert status == 200
    assert game_state(page)["version"] == version   # the page does not know yet
    _drag(page, (24, 17.6), (24, 19.6))
    page.wait_for_function(f"window.__westerosGame.state().version > {version}")
    page.wait_for_selector("#decision h2:has-text('Nothing to decide')")
    assert page.locator("#ghost-status").count() == 0
    assert page.locator("#error").is_hidden()
    assert "moved on" not in page.inner_text("main") and "Not allowed" not in page.inner_text("main")


def test_minis_refetch_keeps_the_panel(live_asgi_server, new_page):
    """A re-fetch that brings nothing new (the socket opening fetches the game again) leaves the decision
    as it is drawn: a click pressed on a button while the game is fetched again and released after is
    that button's click. (The panel was drawn afresh, the press and the release fell on two different
    buttons, and the click was lost: the tray a player asked for never came.)"""
    server = live_asgi_server
    game_id = _stage(server, ["mnmia", "mnned"])
    page = new_page(1440, 1000)
    log_in(page, server.url, "mnmia")
    page.goto(f"{server.url}/games/{game_id}/")
    page.wait_for_selector("#decision h2:has-text('Your decision')")
    version = game_state(page)["version"]
    button = page.locator("#decision button.choice", has_text="Activate Stark Sworn Swords")
    box = button.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    button.evaluate("b => { b.dataset.pressed = 'yes'; }")
    page.evaluate("window.__westerosGame.load()")   # resolves once the game was read and shown
    assert button.get_attribute("data-pressed") == "yes"   # the same button, not a new one
    page.mouse.up()
    wait_version(page, version)
    page.wait_for_selector("#decision [data-sub=maneuver]")


def test_minis_check_without_answer(live_asgi_server, new_page):
    """The move check gets no answer (the network fails, then the server is busy): the page asks again
    and shows the answer, not 'Checking the move…' for ever nor a refusal of the move."""
    server = live_asgi_server
    game_id = _stage(server, ["mnoli", "mnpat"])
    page = new_page(1440, 1000)
    log_in(page, server.url, "mnoli")
    page.goto(f"{server.url}/games/{game_id}/")
    page.wait_for_selector("#decision h2:has-text('Your decision')")
    _act(page, page.locator("#decision button.choice", has_text="Activate Stark Sworn Swords"))
    _drag(page, (24, 17.6), (24, 19.6))
    _status(page)
    failed = []

    def flaky(route):   # the next two move checks: no answer, then a busy server
        if '"maneuver"' in (route.request.post_data or "") and len(failed) < 2:
            failed.append(route.request.post_data)
            if len(failed) == 1:
                route.abort()
            else:
                route.fulfill(status=503, content_type="application/json", body='{"detail": "The server is busy."}')
            return
        route.continue_()

    page.route("**/check", flaky)
    page.locator("#decision button", has_text="⟳ 1°").click()   # one change of the tray: one question
    after = _status(page)
    assert len(failed) == 2 and len(set(failed)) == 1, failed   # the same question, asked again
    assert "busy" not in after and "check failed" not in after, after
