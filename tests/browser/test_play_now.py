"""Play now (issue 26, "Done when"): a newcomer signs up and, for each of the four games, starts a
game against the computer from the home page in one click, makes real decisions through the page,
concedes from the seat bar and reads the end-of-game screen; and two people fill a 6-seat A Game of
Thrones lobby with four computer seats and play round 1 to its end through their pages.

Every decision is made with the page's own controls (tests/browser/agot_driver.py for the board
game). Waits are on conditions (the game's version, the pending seat), never on durations.
Screenshots at 1440 and 390 px go to test-artifacts/play-now-*.png. The live server, its database
and Chromium are set up in conftest.py."""
from __future__ import annotations

import re

import pytest

from tests.browser import agot_driver
from tests.browser.test_lcg_setup_replay import _setup_picks
from tests.browser.util import game_state, log_in, pick_hand_card, sign_up, wait_version

pytestmark = pytest.mark.browser

SEATS = {"agot": 6, "btwixt": 4, "lcg": 2, "minis": 2}   # one click: games/services/computer.py DEFAULT_SEATS
NAMES = {"agot": "A Game of Thrones", "btwixt": "B'Twixt", "lcg": "card game", "minis": "miniatures"}
RAW = re.compile(r"[{}\[\]]|\bnull\b|\bundefined\b|\b[a-z]+_[a-z_]+\b")

# What says where the game is: the board game's phase and step, B'Twixt's round, season and step,
# the card game's phase, the miniatures' phase and round. "The game moved on" = it changed, or the
# person has a decision again.
PROGRESS = """(() => { const s = window.__westerosGame.state(), v = s.view || {}, m = s.summary || {};
  return JSON.stringify([v.round, v.phase, v.step, m.round, m.season, m.step, m.phase, s.status]); })()"""
ROUND = "(() => { const s = window.__westerosGame.state(); return (s.view || {}).round ?? (s.summary || {}).round; })()"


def mine(page) -> str | None:
    s = game_state(page)
    return s["pending"].get(s["your_seat"]) if s["status"] == "active" else None


def shoot(page, artifacts, name: str, selector: str | None = None) -> None:
    """The page at 1440 and at 390 px (a phone), `selector` brought into view; back to 1440 after."""
    for width, height in ((1440, 1000), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        if selector:
            page.locator(selector).first.evaluate("e => e.scrollIntoView({block: 'start'})")
        else:
            page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"play-now-{name}-{width}.png"))
        if width < 400:   # nothing wider than the phone's screen
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width + 2, f"{name}: the page is {wide}px wide on a {width}px screen"
    page.set_viewport_size({"width": 1440, "height": 1000})


def acted(page, before_version: int, before_progress: str) -> None:
    """The decision was taken and the computer answered at once: the version went up, and the person
    has a decision again or the game is somewhere else (phase, step, round)."""
    wait_version(page, before_version)
    page.wait_for_function(f"""(() => {{ const s = window.__westerosGame.state();
        return s.version > {before_version} && (s.pending[s.your_seat] || {PROGRESS} !== {before_progress!r}); }})()""")


def wait_for_me(page, kinds: tuple[str, ...]) -> str:
    """Wait until the person is asked one of `kinds`; returns the kind."""
    page.wait_for_function(f"""(() => {{ const s = window.__westerosGame && window.__westerosGame.state();
        return s && {list(kinds)!r}.includes(s.pending[s.your_seat]); }})()""")
    return mine(page)


# --------------------------------------------------------------------------- each game's first decisions


def decide_agot(page) -> None:
    wait_for_me(page, ("place_orders",))
    version, progress = game_state(page)["version"], page.evaluate(PROGRESS)
    placed = agot_driver.place_safe_orders(page)
    assert placed and all(not t.startswith("march") for t in placed.values()), placed
    acted(page, version, progress)
    # the computer placed theirs at once: the planning phase went on (the Raven, the actions, or the
    # whole round when nothing else was asked of the person)
    assert mine(page) != "place_orders" or game_state(page)["view"]["round"] > 1


def decide_btwixt(page) -> None:
    wait_for_me(page, ("turn",))
    version, progress = game_state(page)["version"], page.evaluate(PROGRESS)
    page.wait_for_selector("#hand .bt-card.pickable")
    assert "Pick a card in your hand" in page.locator("#decision").inner_text()
    card, name = pick_hand_card(page)
    submit = page.locator("#hand-submit")
    assert submit.inner_text().startswith(f"Play {name}")
    submit.click()
    wait_version(page, version)
    # a card whose ability asks its player something more (a card of the hand, a choice): answered here
    for _ in range(4):
        kind = mine(page)
        if kind in (None, "turn"):
            break
        before = game_state(page)["version"]
        if page.locator("#hand .bt-card.pickable").count():
            page.locator("#hand .bt-card.pickable").first.click()
            page.click("#hand-submit")
        else:
            page.locator("#decision button.choice").first.click()
        wait_version(page, before)
    acted(page, version, progress)
    # the log says so once it is drawn (it comes after the state; the hand may hold a second copy)
    page.locator("#log li", has_text=f"plays {name}").first.wait_for()


def decide_lcg(page) -> None:
    wait_for_me(page, ("mulligan",))
    assert page.locator("#hand .lcg-card").count() == 7
    version, progress = game_state(page)["version"], page.evaluate(PROGRESS)
    page.click("#decision button:has-text('Keep this hand')")
    acted(page, version, progress)
    wait_for_me(page, ("setup",))
    version, progress = game_state(page)["version"], page.evaluate(PROGRESS)
    picks = _setup_picks(page)
    for cid in picks:
        page.locator(f"#hand .lcg-card.selectable[data-card={cid}]").first.click()
    page.click("#confirm-setup")
    acted(page, version, progress)
    # both setups revealed together: the cards placed are on the table, the game in its plot phase
    page.wait_for_function("window.__westerosGame.state().view.phase !== 'setup'")
    seat = game_state(page)["your_seat"]
    for cid in picks:
        page.locator(f"#area-{seat} .lcg-row .lcg-card[data-card={cid}]").first.wait_for()


def decide_minis(page) -> None:
    kind = wait_for_me(page, ("choose", "deploy"))
    if kind == "choose":   # the roll-off's loser chooses the First Player
        assert "choose the First Player" in page.locator("#decision").inner_text()
        version, progress = game_state(page)["version"], page.evaluate(PROGRESS)
        page.locator("#decision button.choice").first.click()
        acted(page, version, progress)
    deployed = 0
    for _ in range(12):   # every unit of the person's army, the computer deploying its own in turn
        if game_state(page)["summary"]["phase"] != "deployment":
            break
        wait_for_me(page, ("deploy",))
        version, progress = game_state(page)["version"], page.evaluate(PROGRESS)
        page.locator("#decision button.choice[data-unit]").first.click()
        page.wait_for_selector(".mn-ghost")
        page.wait_for_function("document.getElementById('ghost-status').textContent.startsWith('Allowed')")
        page.click("#confirm")
        acted(page, version, progress)
        deployed += 1
        page.wait_for_function("""(() => { const s = window.__westerosGame.state();
            return s.summary.phase !== 'deployment' || s.pending[s.your_seat] === 'deploy'; })()""")
    assert deployed >= 1 and game_state(page)["summary"]["phase"] != "deployment"


DECIDE = {"agot": decide_agot, "btwixt": decide_btwixt, "lcg": decide_lcg, "minis": decide_minis}


# --------------------------------------------------------------------------- test 1


def test_a_newcomer_plays_each_game_against_the_computer(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    name = "pn_newcomer"
    page = new_page(1440, 1000)
    sign_up(page, base, name)

    # the home page offers the four games, each with its Play now
    cards = page.locator("article.game-card")
    assert sorted(cards.evaluate_all("cs => cs.map(c => c.dataset.ruleset)")) == sorted(SEATS)
    for ruleset, words in NAMES.items():
        card = page.locator(f"article.game-card[data-ruleset={ruleset}]")
        assert words.lower() in card.inner_text().lower() and card.locator("button.play-now-button").count() == 1
        assert not RAW.search(card.inner_text()), card.inner_text()
    shoot(page, artifacts, "home-cards", "section.play-now")

    for ruleset in SEATS:
        page.goto(base + "/")
        # one click: the game page of a new game against the computer
        page.locator(f"article.game-card[data-ruleset={ruleset}] button.play-now-button").click()
        page.wait_for_url(re.compile(r".*/games/\d+/$"))
        game_id = int(re.search(r"/games/(\d+)/", page.url).group(1))
        page.wait_for_selector("#conn.on")
        page.wait_for_function("window.__westerosGame && window.__westerosGame.state()")
        s = game_state(page)
        assert s["ruleset"] == ruleset and s["status"] == "active" and s["vs_computer"] is True
        assert len(s["seats"]) == SEATS[ruleset]
        others = [x for x in s["seats"] if x["seat"] != s["your_seat"]]
        assert all(x["computer"] and x["user"] is None for x in others), others
        assert next(x for x in s["seats"] if x["seat"] == s["your_seat"])["user"] == name
        bar = page.locator("#table-controls")
        bar.wait_for(state="visible")
        assert page.locator("#tc-unrated").inner_text() == "Unrated: this game started with computer players."
        shoot(page, artifacts, f"{ruleset}-started")

        DECIDE[ruleset](page)
        assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()

        # concede from the seat bar, after its confirmation
        round_now = page.evaluate(ROUND)
        assert isinstance(round_now, int) and round_now >= 1, round_now
        page.click("#table-controls #concede")
        assert "The computer takes your seat" in page.locator(".tc-confirm").inner_text()
        page.click("#tc-concede-yes")
        page.wait_for_function("window.__westerosGame.state().status !== 'active'")
        screen = page.locator("#game-result")
        screen.wait_for(state="visible")
        assert bar.is_hidden()
        result = game_state(page)["result"]
        assert result["status"] == "abandoned" and not result["rated"]
        assert screen.locator("h2").inner_text() == "The game was abandoned"
        headline = f"{name} left in round {round_now}: the game was abandoned."
        assert page.locator("#tc-headline").inner_text() == headline == result["headline"]
        rows = screen.locator("tbody tr")
        assert rows.count() == SEATS[ruleset]
        me_row = None
        for n in range(rows.count()):
            text = rows.nth(n).inner_text()
            assert re.match(r"^\d+(st|nd|rd|th)", text), text
            assert result["places"][n]["seat_name"] in text
            if result["places"][n]["seat"] == s["your_seat"]:
                me_row = text
            else:
                assert "The computer" in text, text
            assert not RAW.search(text.replace(name, "")), text
        assert [p["place"] for p in result["places"]] == list(range(1, SEATS[ruleset] + 1))
        assert me_row and f"{name} (left in round {round_now}; the computer played on)" in me_row, me_row
        assert "not rated: it started with computer players" in screen.inner_text()
        assert "same seats, options and computer players" in screen.inner_text()
        replay = page.locator("#tc-replay")
        assert replay.inner_text() == "Watch the replay" and replay.get_attribute("href") == f"/games/{game_id}/replay"
        assert screen.locator("form.tc-rematch").get_attribute("action") == f"/games/{game_id}/rematch"
        assert page.locator("#tc-rematch").inner_text() == "Rematch"
        assert not re.search(r"\bnull\b|\bundefined\b|[{}]", screen.inner_text()), screen.inner_text()
        # the page's own box agrees: an abandoned game, not a draw or a win
        assert "draw" not in page.locator("#decision").inner_text().lower(), page.locator("#decision").inner_text()
        shoot(page, artifacts, f"{ruleset}-end", "#game-result")


# --------------------------------------------------------------------------- test 2


def play_until(watcher, pages: dict, done: str, limit: int = 80) -> list[tuple[str, str]]:
    """Each person answers what their page asks (agot_driver), whoever is asked first, until `done`
    (a JavaScript condition on the game state `s`, as `watcher` sees it) holds or the game is over.
    Returns the (seat, kind) answered, in order."""
    seen: list[tuple[str, str]] = []
    for _ in range(limit):
        watcher.wait_for_function(f"""(() => {{ const s = window.__westerosGame.state();
            return s.status !== 'active' || ({done}) || {list(pages)!r}.some(x => s.pending[x]); }})()""", timeout=60000)
        s = game_state(watcher)
        if s["status"] != "active" or watcher.evaluate(f"(() => {{ const s = window.__westerosGame.state(); return !!({done}); }})()"):
            return seen
        seat = next(x for x in pages if s["pending"].get(x))
        page = pages[seat]
        page.wait_for_function(f"window.__westerosGame.state().version >= {s['version']}")
        if not mine(page):   # the watcher saw a decision already taken on this page's side
            continue
        before = game_state(page)["version"]
        seen.append((seat, agot_driver.answer(page)))
        wait_version(page, before)
    raise AssertionError(f"not done after {limit} decisions: {seen}")



def test_two_people_and_four_computers_play_a_round_of_agot(live_asgi_server, new_page, artifacts):
    from tests.browser.util import stage_users

    base = live_asgi_server.url
    names = ("pn_host", "pn_guest")
    stage_users(live_asgi_server, names)
    host, guest = new_page(1440, 1000), new_page(1440, 1000)
    log_in(host, base, names[0])
    log_in(guest, base, names[1])

    # the host makes a 6-seat lobby with 4 computer players through the lobby form
    host.goto(base + "/lobbies/new/")
    host.fill("input[name=name]", "Two people and the computer")
    host.fill("input[name=seats]", "6")
    host.fill("input[name=computer_seats]", "4")
    host.click("main form button[type=submit]")
    host.wait_for_url(re.compile(r".*/lobbies/\d+/$"))
    note = host.locator("#computer-note").inner_text()
    assert "The computer plays 4 seats." in note and "unrated for everyone" in note, note
    assert "and 4 for the computer" in host.locator("main").inner_text()
    shoot(host, artifacts, "lobby-computer-seats", "#computer-note")

    # the guest finds it in the list: the computer's seats and that it is not ranked said there
    guest.goto(base + "/lobbies/")
    row = guest.locator("table.lobbies tr", has_text="Two people and the computer")
    text = row.inner_text()
    assert "5 of 6 taken (4 by the computer)" in text, text
    assert "unrated" in text.lower(), text
    shoot(guest, artifacts, "lobby-list-computer-seats", "table.lobbies")
    row.locator("a", has_text="Two people and the computer").click()
    assert "The computer plays 4 seats." in guest.locator("#computer-note").inner_text()
    guest.click("#join")
    guest.wait_for_url(re.compile(r".*/games/\d+/$"))
    game_url = guest.url
    host.wait_for_url(game_url)   # the lobby page follows the lobby into its game
    pages = {}
    for page in (host, guest):
        page.wait_for_selector("#conn.on")
        page.wait_for_function("window.__westerosGame && window.__westerosGame.state()")
        pages[game_state(page)["your_seat"]] = page
    s = game_state(host)
    assert len(s["seats"]) == 6 and s["vs_computer"] and len(pages) == 2
    computers = [x for x in s["seats"] if x["seat"] not in pages]
    assert len(computers) == 4 and all(x["is_bot"] for x in computers)
    assert host.locator("#tc-unrated").is_visible()

    # round 1: both people answer every decision their pages show, until round 2 begins
    seen = play_until(host, pages, "s.view.round > 1")
    assert sorted(x for x, k in seen if k == "place_orders") == sorted(pages), seen
    for page in pages.values():
        page.wait_for_function("window.__westerosGame.state().view.round > 1")
        assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
        assert game_state(page)["status"] == "active"
    for seat, page in pages.items():
        shoot(page, artifacts, f"agot-after-round-1-{seat}", None)
    # and round 2's Westeros phase (bids for the tracks, mustering, the wildlings...) until the people
    # are asked for their orders again: both at once, or one after the other in turn order when someone
    # is short of order tokens (R119), the first of them asked and the other still to be asked
    later = play_until(host, pages, f"s.view.round > 2 || (s.view.phase === 'planning' && "
                                    f"{list(pages)!r}.some(x => s.pending[x] === 'place_orders'))")
    state = game_state(host)
    planning = state["view"].get("planning") or {}
    assert state["view"]["round"] == 2 and all(x in planning.get("todo", ()) for x in pages), (state, later)
    asked = [x for x in pages if state["pending"].get(x) == "place_orders"]
    assert asked == ([x for x in planning["todo"] if x in pages][:1] if planning["sequential"] else list(pages)), (
        state["pending"], planning, later)
    for page in pages.values():
        assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
    print("decisions:", seen, later)
