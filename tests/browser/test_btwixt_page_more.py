"""More of the B'Twixt pages in the browser: the replay draws the table (not JSON), the card-set
notice speaks to players, the chat panel (table and private channels), and the dead pile's order
changed with the keyboard. Each saves screenshots at 1440 and 390 px in test-artifacts/.

The live server, its database and Chromium are set up in conftest.py. The staging functions below
run in the server's environment (`manage.py shell -c`), like tests/browser/stage.py."""
from __future__ import annotations

import json
import re

import pytest

from tests.browser.util import PASSWORD, game_state, log_in

pytestmark = pytest.mark.browser

WIDTHS = ((1440, 900), (390, 844))


# ---------------------------------------------------------------------- staging (server side)

def stage_finished_game() -> None:
    """A public B'Twixt game played to its end by three bots."""
    from games.engine import get_ruleset
    from games.services.play import do_create_game

    game = do_create_game(ruleset="btwixt", seating=dict.fromkeys(get_ruleset("btwixt").seat_names(3)), seed=7)
    game.refresh_from_db()
    print(f"game {game.pk} {game.status}")


def stage_table(names: list[str], bots: int = 0, dead: int = 0) -> None:
    """A B'Twixt game: the users `names` (created if need be) in the first seats, bots in `bots`
    more; with `dead`, that many allies are moved from the ally deck to the dead pile."""
    from accounts.models import User
    from games.engine import get_ruleset
    from games.models import Game
    from games.services.play import do_create_game

    users = [User.objects.filter(username=n).first() or User.objects.create_user(
        username=n, email=f"{n}@example.com", password=PASSWORD) for n in names]
    seats = get_ruleset("btwixt").seat_names(len(users) + bots)
    seating = {s: (users[i] if i < len(users) else None) for i, s in enumerate(seats)}
    game = do_create_game(ruleset="btwixt", seating=seating, seed=11, time_limit=86400)
    if dead:
        game = Game.objects.get(pk=game.pk)
        allies = game.state["decks"]["allies"]
        game.state["dead"] = [allies.pop() for _ in range(dead)]
        game.save(update_fields=["state"])
    print(f"game {game.pk} " + json.dumps({u.username: s for s, u in seating.items() if u}))


def _stage(server, call: str) -> tuple[int, dict]:
    out = server.manage("shell", "-c", f"from tests.browser.test_btwixt_page_more import *; {call}")
    match = re.search(r"game (\d+) ?(.*)", out)
    rest = match.group(2).strip()
    return int(match.group(1)), (json.loads(rest) if rest.startswith("{") else {"status": rest})


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 2, f"the page is {width}px wide on a {page.viewport_size['width']}px screen"


def _no_json(text: str) -> None:
    assert not re.search(r"[{}\[\]]|\"\w+\":", text), f"JSON on the page: {text[:300]}"


# ---------------------------------------------------------------------- the replay

def test_the_replay_draws_the_table_with_each_step_in_words(live_asgi_server, new_page, artifacts):
    game_id, info = _stage(live_asgi_server, "stage_finished_game()")
    assert info["status"] == "finished"
    for width, height in WIDTHS:
        page = new_page(width, height)
        page.goto(f"{live_asgi_server.url}/games/{game_id}/replay")
        page.wait_for_selector("#replay-pos:has-text('Step 0 of')")
        page.wait_for_selector("#replay-table .bt-seat")
        assert page.locator("#replay-table .bt-seat").count() == 3
        assert page.locator("#replay-table .bt-council").count() == 3
        assert page.locator("#replay-summary").count() == 0
        assert "as it started" in page.locator("#replay-entry").inner_text()
        for n in range(1, 4):
            page.click("button[data-step=next]")
            page.wait_for_selector(f"#replay-pos:has-text('Step {n} of')")
        entry = page.locator("#replay-entry").inner_text()
        assert page.locator("#replay-entry .log-event").count() >= 1
        _no_json(entry)
        _no_json(page.locator("#replay-table").inner_text())
        _no_json(page.locator("#replay-pos").inner_text())
        # viewed as a leader: that leader's hand, with the card texts
        seat = page.eval_on_selector("#replay-as", "s => s.options[1].value")
        name = page.eval_on_selector("#replay-as", "s => s.options[1].textContent")
        assert "_" not in name and " " in name  # "Cersei Lannister", not cersei
        page.select_option("#replay-as", seat)
        page.wait_for_selector(f".replay-hand h2:has-text(\"{name}\")")
        assert page.locator(f"#replay-table #seat-{seat}.me").count() == 1
        page.screenshot(path=str(artifacts / f"btwixt-replay-step-{width}.png"), full_page=True)
        _no_sideways_scroll(page)
        page.click("button[data-step=last]")
        page.wait_for_selector("#replay-pos:has-text('Game over')")
        assert page.locator("#replay-table .badge.won").count() >= 1
        _no_json(page.locator("#replay-entry").inner_text())
        page.screenshot(path=str(artifacts / f"btwixt-replay-end-{width}.png"), full_page=True)
        _no_sideways_scroll(page)


# ---------------------------------------------------------------------- notice and chat

def test_notice_and_chat_on_the_btwixt_page(live_asgi_server, new_page, artifacts):
    names = ["btc_ann", "btc_ben", "btc_cat"]
    game_id, seats = _stage(live_asgi_server, f"stage_table({names!r})")
    url = f"{live_asgi_server.url}/games/{game_id}/"
    pages = {}
    for name in names:
        page = new_page(1440, 900)
        log_in(page, live_asgi_server.url, name)
        page.goto(url)
        page.wait_for_selector("#conn.on")
        page.wait_for_selector("#chat-panel:not([hidden])")
        pages[name] = page
    ann, ben, cat = (pages[n] for n in names)

    notice = ann.locator("#cardset-notice").inner_text()
    assert "Played with the site's reference card set" in notice
    assert ".yaml" not in notice and notice.lower().count("reference") <= 2  # the phrase, and the set's name
    assert ann.locator("text=reference set").count() <= 1

    # the table channel: everyone, live; senders named with their leader
    ann.fill("#chat-text", "Winter is coming")
    ann.click("#chat-form button")
    for page in pages.values():
        page.wait_for_selector("#chat-messages >> text=Winter is coming")
    leader_of_ann = ann.locator(".leader-name").inner_text()
    assert f"btc_ann ({leader_of_ann})" in ben.locator("#chat-messages").inner_text()

    # a private channel between two leaders: the third neither sees it nor its messages
    pair = ann.eval_on_selector("#chat-channel", f"s => [...s.options].map(o => o.value).find(v => v.includes('{seats['btc_ben']}'))")
    label = ann.eval_on_selector("#chat-channel", f"s => [...s.options].find(o => o.value === '{pair}').textContent")
    assert label.startswith("Private: ") and "_" not in label
    ann.select_option("#chat-channel", pair)
    ann.fill("#chat-text", "An alliance?")
    ann.click("#chat-form button")
    ann.wait_for_selector("#chat-messages >> text=An alliance?")
    ben.wait_for_function(f"[...document.querySelector('#chat-channel').options].find(o => o.value === '{pair}').textContent.endsWith('•')")
    ben.select_option("#chat-channel", pair)
    ben.wait_for_selector("#chat-messages >> text=An alliance?")
    assert pair not in cat.eval_on_selector("#chat-channel", "s => [...s.options].map(o => o.value).join(' ')")
    assert "An alliance?" not in cat.locator("#chat-panel").inner_text()
    ann.locator("#chat-panel").scroll_into_view_if_needed()
    ann.screenshot(path=str(artifacts / "btwixt-chat-1440.png"), full_page=True)

    phone = new_page(390, 844)
    log_in(phone, live_asgi_server.url, "btc_ben")
    phone.goto(url)
    phone.wait_for_selector("#chat-panel:not([hidden])")
    phone.wait_for_selector("#chat-messages >> text=Winter is coming")
    _no_sideways_scroll(phone)
    phone.screenshot(path=str(artifacts / "btwixt-chat-390.png"), full_page=True)
    phone.locator("#chat-panel").screenshot(path=str(artifacts / "btwixt-chat-panel-390.png"))


# ---------------------------------------------------------------------- the dead pile's order

def test_reorder_the_dead_pile_with_the_keyboard(live_asgi_server, new_page, artifacts):
    for width, height in WIDTHS:
        name = f"btd_{width}"
        game_id, _ = _stage(live_asgi_server, f"stage_table([{name!r}], bots=2, dead=3)")
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, name)
        page.goto(f"{live_asgi_server.url}/games/{game_id}/")
        page.wait_for_selector("#conn.on")
        page.wait_for_selector("#reorder-dead-open")
        before = game_state(page)["summary"]["dead"]
        assert len(before) == 3
        page.focus("#reorder-dead-open")
        page.evaluate("window.__westerosGame.load()")  # a live update redraws the page: the focus stays
        assert page.evaluate("document.activeElement.id") == "reorder-dead-open"
        page.keyboard.press("Enter")
        page.wait_for_selector("#dead-order li")
        assert page.locator("#reorder-dead-save").is_disabled()  # nothing changed yet
        # the first ally's "down" button has the focus: Enter twice moves it to the bottom
        assert page.evaluate("document.activeElement.dataset.move") == "down"
        page.keyboard.press("Enter")
        page.evaluate("window.__westerosGame.load()")
        page.keyboard.press("Enter")
        order = page.eval_on_selector_all("#dead-order li", "items => items.map(li => li.dataset.card)")
        assert order == [before[1], before[2], before[0]]
        # the ally that is now on top goes down one with its button
        page.click(f"#dead-order button[data-move=down][data-card={before[1]}]")
        order = page.eval_on_selector_all("#dead-order li", "items => items.map(li => li.dataset.card)")
        assert order == [before[2], before[1], before[0]]
        labels = page.eval_on_selector_all("#dead-order button", "bs => bs.map(b => b.getAttribute('aria-label'))")
        assert all(label.startswith("Move ") and "_" not in label for label in labels)
        page.screenshot(path=str(artifacts / f"btwixt-dead-reorder-editing-{width}.png"), full_page=True)
        page.locator("#piles-info").screenshot(path=str(artifacts / f"btwixt-dead-reorder-control-{width}.png"))
        _no_sideways_scroll(page)
        version = game_state(page)["version"]
        page.click("#reorder-dead-save")
        page.wait_for_function(f"window.__westerosGame.state().version > {version}")
        assert game_state(page)["summary"]["dead"] == order
        assert page.locator("#error").is_hidden()
        assert page.locator("#dead-order").count() == 0
        leader = page.locator(".leader-name").inner_text()
        page.wait_for_selector(f"#log >> text={leader} reorders the dead pile, top first")
        _no_json(page.locator("#piles-info").inner_text())
        page.locator("#piles-info").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"btwixt-dead-reorder-saved-{width}.png"), full_page=True)
        _no_sideways_scroll(page)


def test_the_agot_page_chat_uses_the_shared_chat_code(live_asgi_server, demo_game, new_page, request):
    """static/js/chat.js serves both game pages: the AGoT page's table chat still works."""
    page = new_page(1440, 900)
    log_in(page, live_asgi_server.url, request.node.demo_user)
    page.goto(f"{live_asgi_server.url}/games/{demo_game}/")
    page.wait_for_selector("#chat-panel:not([hidden])")
    labels = page.eval_on_selector("#chat-channel", "s => [...s.options].map(o => o.textContent)")
    assert labels[0] == "Table (everyone)" and any(label == "Private: Lannister" for label in labels)
    page.fill("#chat-text", "The north remembers")
    page.click("#chat-form button")
    page.wait_for_selector("#chat-messages >> text=The north remembers")
    assert "(Stark)" in page.locator("#chat-messages").inner_text()


# ---------------------------------------------------------------------- the lobby form

def test_the_lobby_form_offers_succession_for_btwixt(live_asgi_server, new_page, artifacts):
    live_asgi_server.manage("shell", "-c", "from tests.browser.test_btwixt_page_more import *; stage_table(['btl_dora'], bots=2)")
    for width, height in WIDTHS:
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, "btl_dora")
        page.goto(live_asgi_server.url + "/lobbies/new/")
        assert page.locator("input[name=tides_of_battle]").is_visible()
        assert not page.locator("input[name=btwixt_succession]").is_visible()
        page.select_option("select[name=ruleset]", "btwixt")
        assert not page.locator("input[name=tides_of_battle]").is_visible()
        page.check("input[name=btwixt_succession]")
        page.fill("input[name=name]", f"Heirs {width}")
        _no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"btwixt-lobby-form-{width}.png"), full_page=True)
        page.click("main form button[type=submit]")
        page.wait_for_url(re.compile(r"/lobbies/\d+/$"))
        lobby = page.request.get(page.url.replace("/lobbies/", "/api/v1/lobbies/").rstrip("/")).json()
        assert lobby["ruleset"] == "btwixt" and lobby["options"] == {"succession": True}


def test_the_lobby_form_names_btwixt_modes_and_says_what_is_wrong(live_asgi_server, new_page, artifacts):
    live_asgi_server.manage("shell", "-c", "from tests.browser.test_btwixt_page_more import *; stage_table(['btl_eddy'], bots=2)")
    for width, height in WIDTHS:
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, "btl_eddy")
        page.goto(live_asgi_server.url + "/lobbies/new/")
        seats_label = page.locator("label:has(select[name=house_choice])")
        assert seats_label.inner_text().startswith("Houses")
        page.select_option("select[name=ruleset]", "btwixt")
        assert seats_label.inner_text().startswith("Leaders")
        assert not page.locator("select[name=seat]").is_visible()
        form = page.locator("main form")
        for label in ("Advanced game", "Draft the hands", "Succession Assembly", "Allies in Sight", "Short game"):
            assert form.get_by_label(label).is_visible()
        assert page.locator("#help_btwixt_short").inner_text() == "One season less: 3-4 leaders start in Autumn, 5-6 in Winter."
        assert "the site's reference card set" in form.inner_text()
        _no_json(form.inner_text())
        form.get_by_label("Short game").check()
        form.get_by_label("Allies in Sight").check()
        page.fill("input[name=seats]", "8")
        page.click("main form button[type=submit]")
        page.wait_for_selector(".errors[role=alert]")
        assert "B'Twixt is played by 3 to 6 players." in page.locator(".errors").inner_text()
        # what was chosen is still chosen, B'Twixt's section still the one shown
        assert form.get_by_label("Short game").is_checked() and form.get_by_label("Allies in Sight").is_checked()
        assert not form.get_by_label("Advanced game").is_checked()
        assert not page.locator("input[name=tides_of_battle]").is_visible()
        _no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"btwixt-lobby-form-error-{width}.png"), full_page=True)
        page.fill("input[name=seats]", "5")
        page.click("main form button[type=submit]")
        page.wait_for_url(re.compile(r"/lobbies/\d+/$"))
        assert "Allies in Sight" in page.locator("main").inner_text() and "Short game" in page.locator("main").inner_text()
        lobby = page.request.get(page.url.replace("/lobbies/", "/api/v1/lobbies/").rstrip("/")).json()
        assert lobby["options"] == {"short": True, "allies_in_sight": True} and lobby["seats"] == 5
        page.screenshot(path=str(artifacts / f"btwixt-lobby-created-{width}.png"), full_page=True)
