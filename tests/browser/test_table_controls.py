"""The seat bar and the end-of-game screen of the four game pages (issue 26, static/js/table_controls.js).

Concede, extend my deadline and the pause vote are reachable at any time, not only while the player
has a decision: a player whose opponents have the decision still sees and uses them. A lone player
against the computer pauses and resumes alone. When the game ends (here: the last person concedes)
the page shows each seat's place, who won and why, the ratings before and after in a ranked game
between people, and links to the replay and a rematch, also when the game ends while it is open.

The live server, its database and Chromium are set up in conftest.py (read it first). Screenshots
of the bar and of the end screen, at 1440 and 390 px, go to test-artifacts/table-controls-*.png."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import PASSWORD, log_in

pytestmark = pytest.mark.browser

SEATS = {"agot": 3, "btwixt": 3, "lcg": 2, "minis": 2}
RULESETS = tuple(SEATS)
NAMES = ("alys", "bran", "cat")


# --------------------------------------------------------------------------- staging (run by manage.py shell)


def _users(names, password):
    from accounts.models import User

    return [User.objects.filter(username=n).first()
            or User.objects.create_user(username=n, email=f"{n}@example.com", password=password) for n in names]


def people_game(ruleset: str, prefix: str, password: str) -> None:
    """A ranked game of `ruleset` between people only (`prefix`alys, bran, cat as the seats need), played
    by the engine's player as far as the first decision where alys has nothing to decide and another
    person has. Prints `game <id> <alys's seat>`."""
    from games.engine import get_ruleset
    from games.models import Game
    from games.services.play import do_create_game, do_submit_action

    engine = get_ruleset(ruleset)
    count = SEATS[ruleset]
    people = _users([prefix + n for n in NAMES[:count]], password)
    seats = engine.seat_names(count)
    game = do_create_game(ruleset=ruleset, seating=dict(zip(seats, people, strict=True)), ranked=True)
    by_seat = dict(zip(seats, people, strict=True))
    mine = seats[0]
    for _ in range(400):
        game = Game.objects.get(pk=game.pk)
        pending = engine.pending(game.state)
        if pending and mine not in pending:
            break
        seat = mine if mine in pending else sorted(pending)[0]
        do_submit_action(game.pk, by_seat[seat], action=engine.bot_action(game.state, seat), version=game.version)
    else:
        raise AssertionError("alys always had a decision")
    print(f"game {game.pk} {mine}")


def finished_people_game(ruleset: str, prefix: str, password: str) -> None:
    """A ranked game of `ruleset` between people (as people_game), each seat answered by the engine's
    player as its person until the game is over. Prints `game <id> <alys's seat>`."""
    from games.engine import get_ruleset
    from games.models import Game
    from games.services.play import do_create_game, do_submit_action

    engine = get_ruleset(ruleset)
    count = SEATS[ruleset]
    people = _users([prefix + n for n in NAMES[:count]], password)
    seats = engine.seat_names(count)
    by_seat = dict(zip(seats, people, strict=True))
    # the card game without a prompt at every window, the miniatures with prompts only for playable
    # reactions: fewer decisions, the same end (as stage_lcg.finished_lcg and stage_minis.finished_minis)
    options = {"lcg": {"every_window": False}, "minis": {"reaction_prompts": "playable"}}.get(ruleset)
    game = do_create_game(ruleset=ruleset, seating=by_seat, ranked=True, seed=5, options=options)
    for _ in range(20000):
        game = Game.objects.get(pk=game.pk)
        if not game.is_active():
            break
        seat = sorted(engine.pending(game.state))[0]
        do_submit_action(game.pk, by_seat[seat], action=engine.bot_action(game.state, seat), version=game.version)
    assert game.status == Game.Status.FINISHED, game.status
    print(f"game {game.pk} {seats[0]}")


def lone_game(ruleset: str, name: str, password: str) -> None:
    """`name` alone against the computer in every other seat (an unrated game). Prints `game <id> <seat>`."""
    from games.engine import get_ruleset
    from games.services.play import do_create_game

    (person,) = _users([name], password)
    seats = get_ruleset(ruleset).seat_names(SEATS[ruleset])
    game = do_create_game(ruleset=ruleset, seating={s: (person if i == 0 else None) for i, s in enumerate(seats)})
    print(f"game {game.pk} {seats[0]}")


def _stage(server, function: str, *args) -> tuple[int, str]:
    """`function(*args)` run against the server's database by its stager (one Django process for every
    staging, not a `manage.py shell` started for each), allowed 15 minutes: playing a game to its end
    takes a while on a loaded machine, longer than the stager's usual two."""
    call = ", ".join(repr(a) for a in args)
    out = server.stage(f"from tests.browser.test_table_controls import {function}; {function}({call})", timeout=900)
    found = re.search(r"game (\d+) (\w+)", out)
    return int(found.group(1)), found.group(2)


def _open(new_page, server, name: str, game_id: int, width: int = 1440, height: int = 1000):
    page = new_page(width, height)
    log_in(page, server.url, name)
    page.goto(f"{server.url}/games/{game_id}/")
    page.wait_for_selector("#conn.on")
    page.wait_for_function("window.__westerosGame && window.__westerosGame.state()")
    return page


def _state(page) -> dict:
    return page.evaluate("window.__westerosGame.state()")


def _shoot(page, artifacts, name: str, selector: str) -> None:
    """The whole page at its width and the element alone, at 1440 and 390 px."""
    for width in (1440, 390):
        page.set_viewport_size({"width": width, "height": 1000 if width > 400 else 844})
        page.locator(selector).scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"table-controls-{name}-{width}.png"))
        page.locator(selector).screenshot(path=str(artifacts / f"table-controls-{name}-{width}-part.png"))
    page.set_viewport_size({"width": 1440, "height": 1000})


# --------------------------------------------------------------------------- the seat bar without a decision


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_player_without_a_decision_pauses_and_concedes(live_asgi_server, new_page, artifacts, ruleset):
    prefix = f"nd{ruleset[:3]}"
    game_id, mine = _stage(live_asgi_server, "people_game", ruleset, prefix, PASSWORD)
    page = _open(new_page, live_asgi_server, prefix + "alys", game_id)
    state = _state(page)
    assert state["status"] == "active" and mine not in state["pending"] and state["pending"]
    # the decision box has nothing for this player; the bar is there all the same
    bar = page.locator("#table-controls")
    bar.wait_for(state="visible")
    assert page.locator("#decision #extend, #decision #concede").count() == 0
    extend = bar.locator("#extend")
    assert extend.is_disabled() and "when you have a decision" in extend.inner_text()  # no deadline of theirs runs
    others = [prefix + n for n in NAMES[1:SEATS[ruleset]]]
    pause = bar.locator("#tc-pause")
    want = (f"Pause: waits for {others[0]}'s vote" if len(others) == 1
            else f"Pause: waits for the votes of {others[0]} and {others[1]}")
    assert pause.inner_text() == want
    assert "Unrated" not in bar.inner_text()   # people only, ranked: no computer players
    _shoot(page, artifacts, f"{ruleset}-no-decision", "#table-controls")

    # the vote: cast, shown, withdrawn
    pause.click()
    page.wait_for_selector("#tc-withdraw")
    assert _state(page)["pause_votes"] == [mine]
    assert f"the game pauses when {others[0]}" in bar.inner_text()
    page.click("#tc-withdraw")
    page.wait_for_selector("#tc-pause")
    assert _state(page)["pause_votes"] == []

    # concede: a confirmation that says the computer takes the seat, then the seat is the computer's
    page.click("#concede")
    ask = page.locator(".tc-confirm")
    assert "The computer takes your seat" in ask.inner_text()
    _shoot(page, artifacts, f"{ruleset}-concede-confirm", "#table-controls")
    page.click("#tc-concede-no")
    assert page.locator(".tc-confirm").count() == 0
    page.click("#concede")
    page.click("#tc-concede-yes")
    page.wait_for_selector("#table-controls .tc-left")
    me = next(s for s in _state(page)["seats"] if s["seat"] == mine)
    assert me["is_bot"] and me["left"] and _state(page)["status"] == "active"   # the others play on
    assert page.locator("#concede").count() == 0 and page.locator("#tc-pause").count() == 0
    assert page.locator("#error").is_hidden() and page.locator(".tc-refused").count() == 0


# --------------------------------------------------------------------------- alone against the computer


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_lone_player_pauses_alone_and_reads_the_end_screen(live_asgi_server, new_page, artifacts, ruleset):
    name = f"lone{ruleset}"
    game_id, mine = _stage(live_asgi_server, "lone_game", ruleset, name, PASSWORD)
    page = _open(new_page, live_asgi_server, name, game_id)
    bar = page.locator("#table-controls")
    bar.wait_for(state="visible")
    assert page.locator("#tc-unrated").inner_text() == "Unrated: this game started with computer players."
    assert _state(page)["vs_computer"] is True
    assert page.locator("#tc-pause").inner_text() == "Pause the game"   # no one else to wait for
    page.click("#tc-pause")
    page.wait_for_selector("#tc-resume")
    assert _state(page)["paused_at"] and "paused" in bar.inner_text()
    _shoot(page, artifacts, f"{ruleset}-paused-alone", "#table-controls")
    page.click("#tc-resume")
    page.wait_for_selector("#tc-pause")
    assert _state(page)["paused_at"] is None

    # the last person concedes: everyone left, the game ends, and the end screen shows at once
    page.click("#concede")
    page.click("#tc-concede-yes")
    page.wait_for_function("window.__westerosGame.state().status !== 'active'")
    screen = page.locator("#game-result")
    screen.wait_for(state="visible")
    result = _state(page)["result"]
    assert result and result["status"] == "abandoned" and not result["rated"]
    assert page.locator("#tc-headline").inner_text() == result["headline"] and result["headline"]
    rows = screen.locator("tbody tr")
    assert rows.count() == SEATS[ruleset] == len(result["places"])
    first = rows.nth(0).inner_text()
    assert first.startswith("1st") or "Place: 1st" in first
    assert "1st" in rows.nth(0).inner_text() and result["places"][0]["seat_name"] in rows.nth(0).inner_text()
    for row, place in zip(range(rows.count()), result["places"], strict=True):
        assert place["who"] in rows.nth(row).inner_text()
    assert "not rated: it started with computer players" in screen.inner_text() and "null" not in screen.inner_text()
    assert "same seats, options and computer players" in screen.inner_text()
    assert bar.is_hidden()
    # the rematch: a form POSTing to the game's rematch address with the CSRF token
    form = screen.locator("form.tc-rematch")
    assert form.get_attribute("action") == result["rematch_url"] == f"/games/{game_id}/rematch"
    assert form.get_attribute("method") == "post"
    token = form.locator("input[name=csrfmiddlewaretoken]").get_attribute("value")
    assert token and token == next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    _shoot(page, artifacts, f"{ruleset}-end", "#game-result")
    # the replay link works
    assert page.locator("#tc-replay").get_attribute("href") == result["replay_url"]
    page.click("#tc-replay")
    page.wait_for_url(f"**/games/{game_id}/replay")
    page.wait_for_selector("#replay-pos")
    # the rematch form is accepted (its CSRF token is good): alone against the computer, a new game at once
    page.go_back()
    page.click("#tc-rematch")
    # a ceiling, not a measure: a new game's first moves wait on the shared SQLite file while other
    # workers stage whole games in it
    page.wait_for_url(re.compile(rf".*/games/(?!{game_id}/)\d+/$"), timeout=60000)
    page.wait_for_function("window.__westerosGame && window.__westerosGame.state()")
    again = _state(page)
    assert again["status"] == "active" and again["vs_computer"] and again["ruleset"] == ruleset
    page.locator("#table-controls #concede").wait_for(state="visible")


# --------------------------------------------------------------------------- a game played to its end


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_end_screen_of_a_finished_ranked_game(live_asgi_server, new_page, artifacts, ruleset):
    prefix = f"fin{ruleset[:3]}"
    game_id, mine = _stage(live_asgi_server, "finished_people_game", ruleset, prefix, PASSWORD)
    page = _open(new_page, live_asgi_server, prefix + "alys", game_id)
    screen = page.locator("#game-result")
    screen.wait_for(state="visible")
    assert page.locator("#table-controls").is_hidden()
    result = _state(page)["result"]
    assert result["status"] == "finished" and result["rated"]
    assert screen.locator("h2").inner_text() == "The game is over"
    assert page.locator("#tc-headline").inner_text() == result["headline"] and " won " in result["headline"]
    rows = screen.locator("tbody tr")
    assert rows.count() == SEATS[ruleset]
    for n, place in enumerate(result["places"]):
        text = rows.nth(n).inner_text()
        assert text.startswith(WORDS_ORDINAL[place["place"]]) and place["seat_name"] in text and place["who"] in text
        assert place["score"] and place["score"] in text            # what decided, in words
        assert f"{place['rating_before']} → {place['rating_after']}" in text
        assert ("tc-winner" in (rows.nth(n).get_attribute("class") or "")) == place["winner"]
    assert result["places"][0]["winner"] and result["places"][0]["player"] in result["headline"]
    assert "not rated" not in screen.inner_text() and "null" not in screen.inner_text()
    assert "same seats and options" in screen.inner_text()
    assert screen.locator("form.tc-rematch").get_attribute("action") == f"/games/{game_id}/rematch"
    assert page.locator("#tc-replay").get_attribute("href") == f"/games/{game_id}/replay"
    _shoot(page, artifacts, f"{ruleset}-finished", "#game-result")


WORDS_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


# --------------------------------------------------------------------------- two people, ranked, live


def test_a_ranked_game_between_two_people_ends_live_with_ratings(live_asgi_server, new_page, artifacts):
    prefix = "rk"
    game_id, mine = _stage(live_asgi_server, "people_game", "lcg", prefix, PASSWORD)
    alys = _open(new_page, live_asgi_server, prefix + "alys", game_id)
    bran = _open(new_page, live_asgi_server, prefix + "bran", game_id, 390, 844)
    other = next(s for s in _state(bran)["seats"] if s["seat"] != mine)["seat"]
    assert other in _state(bran)["pending"] and mine not in _state(bran)["pending"]

    # Bran has the decision: he extends his deadline from the bar, once
    before = next(s for s in _state(bran)["seats"] if s["seat"] == other)["deadline_at"]
    bran.locator("#extend").wait_for(state="visible")
    assert bran.locator("#extend").is_enabled()
    bran.click("#extend")
    bran.wait_for_function(f"window.__westerosGame.state().seats.find(s => s.seat === '{other}').extension_used")
    assert next(s for s in _state(bran)["seats"] if s["seat"] == other)["deadline_at"] > before
    assert bran.locator("#extend").count() == 0

    # the pause needs both: Alys votes, Bran's page says so and his vote pauses the game for both
    alys.click("#tc-pause")
    alys.wait_for_selector("#tc-withdraw")
    bran.wait_for_selector(f"#tc-pause:has-text('{prefix}alys voted to pause')")
    bran.click("#tc-pause")
    alys.wait_for_selector("#tc-resume")   # live, through the game's websocket
    bran.wait_for_selector("#tc-resume")
    alys.click("#tc-resume")
    bran.wait_for_selector("#tc-pause")

    # both concede: the game is over, and Alys's open page shows the end screen without a reload
    alys.click("#concede")
    alys.click("#tc-concede-yes")
    alys.wait_for_selector("#table-controls .tc-left")
    bran.wait_for_function(f"window.__westerosGame.state().seats.find(s => s.seat === '{mine}').left")
    bran.click("#concede")
    bran.click("#tc-concede-yes")
    alys.wait_for_selector("#game-result:not([hidden]) #tc-headline")
    result = _state(alys)["result"]
    assert result["rated"] and result["status"] == "abandoned"
    screen = alys.locator("#game-result")
    assert screen.locator("th", has_text="Rating").count() == 1 and "null" not in screen.inner_text()
    assert screen.locator("h2").inner_text() == "The game was abandoned" and result["headline"] in screen.inner_text()
    for n, place in enumerate(result["places"]):
        assert isinstance(place["rating_before"], int) and isinstance(place["rating_after"], int)
        text = screen.locator("tbody tr").nth(n).inner_text()
        assert f"{place['rating_before']} → {place['rating_after']}" in text
    # Bran stayed longer: first, rated up; Alys, who left first, second
    assert [p["player"] for p in result["places"]] == [prefix + "bran", prefix + "alys"]
    assert result["places"][0]["rating_after"] > result["places"][0]["rating_before"]
    for n, place in enumerate(result["places"]):   # an abandoned game has places but no winner
        assert ("tc-winner" in (screen.locator("tbody tr").nth(n).get_attribute("class") or "")) == place["winner"]
    assert result["rematch_url"] == f"/games/{game_id}/rematch"
    assert screen.locator("form.tc-rematch").get_attribute("action") == result["rematch_url"]
    _shoot(alys, artifacts, "lcg-ranked-end", "#game-result")
    bran.wait_for_selector("#game-result:not([hidden]) #tc-headline")
    bran.screenshot(path=str(artifacts / "table-controls-lcg-ranked-end-bran-390.png"))
