"""Issue 26, "At the table" and "Words" on the game pages:

- AGoT: a house card is played after a confirmation, as B'Twixt cards and plots are: a click chooses
  a card (shown chosen, with its text), "Play <card>" sends it, another card changes the choice.
- B'Twixt: an after-the-bid ability (victory icon, B23) is labelled by whom it applies to ("If you
  lose the bid:", "If you win the bid:", "If a neighbour wins the bid:"), never "If you win:" for an
  ability of those who lost; when every other leader has knelt, kneeling ends the bid at once (B25,
  B29-B31: flow.next_turn resolves it) and the page says who wins it then.
- The miniatures: the ghost tray stops at the unit's move distance (its Speed for a Maneuver, M40)
  and says why; a facing is said as the player sees the table ("up the table").

Screenshots at 1440 and 390 px in test-artifacts/. Stagings run in the server's environment."""
from __future__ import annotations

import re
from functools import partial

import pytest

from tests.browser.test_decisions_in_context import open_game as open_agot
from tests.browser.util import PASSWORD, game_state, log_in, open_game, stage_game, wait_version

pytestmark = pytest.mark.browser


# ------------------------------------------------------------------ AGoT: the house card, confirmed

def _cards(page) -> list[str]:
    return page.eval_on_selector_all("#decision .cards.choose [data-card]", "cs => cs.map(c => c.dataset.card)")


def _chosen(page) -> list[str]:
    return page.eval_on_selector_all("#decision .cards.choose [aria-checked=true]", "cs => cs.map(c => c.dataset.card)")


def test_a_house_card_is_chosen_then_confirmed(live_asgi_server, demo_game, new_page, artifacts, request):
    base = live_asgi_server.url
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_stark_attack; stage_stark_attack({demo_game})")
    page = open_agot(new_page, base, request.node.demo_user, demo_game, 1440, 900)
    page.wait_for_selector("#decision .cards.choose [data-card]")
    page.wait_for_selector("#conn.on")
    before = game_state(page)["version"]
    names = page.evaluate("window.Westeros.board().house_cards")
    cards = _cards(page)
    assert len(cards) == 7 and _chosen(page) == []
    submit = page.locator("#house-card-submit")
    assert submit.is_disabled() and submit.inner_text() == "Play the chosen card"
    assert "Nothing chosen yet" in page.locator("#house-card-choice").inner_text()

    # a click chooses, nothing is sent: the card is marked, its text shown, the button names it
    page.locator(f"#decision .cards.choose [data-card={cards[0]}]").click()
    page.wait_for_function("document.querySelectorAll('#decision .cards.choose [aria-checked=true]').length === 1")
    assert _chosen(page) == [cards[0]]
    assert game_state(page)["version"] == before and game_state(page)["pending"]["stark"] == "house_card"
    first = names[cards[0]]
    choice = page.locator("#house-card-choice").inner_text()
    assert first["name"] in choice and f"strength {first['strength']}" in choice
    if first.get("ability"):
        assert first["ability"] in choice
    assert submit.inner_text() == f"Play {first['name']}" and submit.is_enabled()

    # another card changes the choice (by the keyboard: arrow to it, Enter)
    page.locator(f"#decision .cards.choose [data-card={cards[0]}]").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelector('#decision .cards.choose [data-card={cards[1]}]').getAttribute('aria-checked') === 'true'")
    assert _chosen(page) == [cards[1]]
    second = names[cards[1]]
    assert page.locator("#house-card-submit").inner_text() == f"Play {second['name']}"
    assert game_state(page)["version"] == before
    page.screenshot(path=str(artifacts / "house-card-chosen-1440.png"), full_page=True)
    page.locator("#decision").screenshot(path=str(artifacts / "house-card-decision-1440.png"))
    phone = open_agot(new_page, base, request.node.demo_user, demo_game, 390, 844)
    phone.wait_for_selector("#decision .cards.choose [data-card]")
    phone.locator(f"#decision .cards.choose [data-card={cards[2]}]").click()
    phone.wait_for_selector("#house-card-submit:not([disabled])")
    phone.locator("#house-card-choice").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "house-card-chosen-390.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 392

    # the confirmation plays the card chosen last on this page
    page.click("#house-card-submit")
    wait_version(page, before)
    page.wait_for_function("window.__westerosGame.state().pending.stark !== 'house_card'")
    state = game_state(page)
    combat = state["view"]["combat"] or {}
    played = (combat.get("_current") or combat).get("cards", {}).get("stark") \
        or state["view"].get("secret", {}).get("stark", {}).get("house_card")
    assert played == cards[1], (played, cards)


# ------------------------------------------------------------------ B'Twixt: labels and the last kneel

HAND = ["sellswords", "courtly_grace", "royal_favour", "gift_of_friendship", "a_feast_for_crows"]


def stage_last_bidder(name: str, mine: str, others: list[str]) -> None:
    """The user `name` plays the first leader against two bots; both bots have knelt with the piles
    `others`, hers holds `mine`, and it is her turn with the hand HAND. The current ally has no
    ability (no tie-break, no must-play)."""
    from accounts.models import User
    from games.engine import get_ruleset
    from games.models import Game
    from games.services.play import do_create_game

    user = User.objects.filter(username=name).first() or User.objects.create_user(
        username=name, email=f"{name}@example.com", password=PASSWORD)
    engine = get_ruleset("btwixt")
    seats = engine.seat_names(3)
    game = do_create_game(ruleset="btwixt", seating={s: (user if i == 0 else None) for i, s in enumerate(seats)},
                          seed=5, time_limit=86400)
    game = Game.objects.get(pk=game.pk)
    game.state = engine.scenario_game(seats, {}, 5, {
        "hands": {seats[0]: HAND}, "current_ally": "eddard_stark",
        "piles": {seats[0]: [mine], seats[1]: [others[0]], seats[2]: [others[1]]},
        "knelt": [seats[1], seats[2]], "turn": seats[0]}, "bidding")
    game.save(update_fields=["state"])
    print(f"game {game.pk}")


def _btwixt(server, new_page, name: str, mine: str, others: list[str], width: int = 1440, height: int = 900):
    out = server.manage("shell", "-c", f"from tests.browser.test_page_words import stage_last_bidder; "
                                       f"stage_last_bidder({name!r}, {mine!r}, {others!r})")
    game_id = int(re.search(r"game (\d+)", out).group(1))
    page = new_page(width, height)
    log_in(page, server.url, name)
    page.goto(f"{server.url}/games/{game_id}/")
    page.wait_for_selector("#conn.on")
    page.wait_for_selector("#hand .bt-card.pickable")
    return page


def _label(page, card: str) -> str:
    return page.locator(f"#hand .bt-card[data-card={card}] .bt-text em").first.inner_text().strip()


def test_btwixt_labels_say_whom_an_ability_is_for_and_the_last_kneel_wins(live_asgi_server, new_page, artifacts):
    page = _btwixt(live_asgi_server, new_page, "words_bt_win", "mounted_lances", ["sworn_sword", "ambush"])
    # abilities of those who lost the bid (card data: `if: lost`, `draw {who: losers}`) are labelled so
    assert _label(page, "sellswords") == "If you lose the bid:"
    assert _label(page, "courtly_grace") == "If you lose the bid:"
    assert _label(page, "royal_favour") == "If you win the bid:"
    assert _label(page, "gift_of_friendship") == "If a neighbour wins the bid:"
    assert _label(page, "a_feast_for_crows") == "After the bid, for those who lost it:"
    assert "If you win:" not in page.locator("#hand").inner_text()
    # everyone else has knelt: kneeling ends the bid, and she wins it with her 5
    last = page.locator("#last-bidder").inner_text()
    assert last.startswith("Everyone else has knelt") and "you win it with 5" in last, last
    kneel = page.locator("#decision button.kneel")
    assert kneel.inner_text() == "Kneel and win the bid"
    assert "you are out of this bid" not in page.locator("#decision").inner_text()
    page.screenshot(path=str(artifacts / "btwixt-last-kneel-wins-1440.png"), full_page=True)
    page.locator("#decision").screenshot(path=str(artifacts / "btwixt-last-kneel-decision-1440.png"))
    page.locator("#hand-panel").screenshot(path=str(artifacts / "btwixt-hand-labels-1440.png"))
    phone = _btwixt(live_asgi_server, new_page, "words_bt_phone", "mounted_lances", ["sworn_sword", "ambush"], 390, 844)
    # scrolled by the page's own script in one step: the table may be drawn again meanwhile (a late
    # websocket hello re-fetches the game), and Playwright's scroll waits for the element to stay put
    phone.locator("#last-bidder").evaluate("box => box.scrollIntoView({block: 'center'})")
    phone.screenshot(path=str(artifacts / "btwixt-last-kneel-wins-390.png"), full_page=True)
    phone.locator("#hand .bt-card[data-card=sellswords]").evaluate("card => card.scrollIntoView({block: 'center'})")
    phone.screenshot(path=str(artifacts / "btwixt-lose-label-390.png"))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 392
    # what the page said is what the engine does
    before = game_state(page)["version"]
    kneel.click()
    wait_version(page, before)
    state = game_state(page)
    assert state["summary"]["bid_winner"] == state["your_seat"]


def test_btwixt_the_last_kneel_names_who_wins_when_it_is_another(live_asgi_server, new_page, artifacts):
    page = _btwixt(live_asgi_server, new_page, "words_bt_lose", "sworn_sword", ["mounted_lances", "ambush"])
    state = game_state(page)
    winner = state["summary"]["seats"][1]
    leader = page.evaluate(f"window.BtwixtTable.leaderName({winner!r}, JSON.parse(document.getElementById('btwixt-cards').textContent))")
    last = page.locator("#last-bidder").inner_text()
    assert last.startswith("Everyone else has knelt") and f"{leader} wins it with 5" in last and "play cards" in last, last
    assert page.locator("#decision button.kneel").inner_text() == "Kneel"
    page.screenshot(path=str(artifacts / "btwixt-last-kneel-loses-1440.png"), full_page=True)
    before = state["version"]
    page.locator("#decision button.kneel").click()
    wait_version(page, before)
    assert game_state(page)["summary"]["bid_winner"] == winner


# ------------------------------------------------------------------ the miniatures: the ghost's reach

_stage_minis = partial(stage_game, module="stage_minis", function="minis_game")


def _drag(page, start, end, steps: int = 10) -> None:
    point = lambda x, y: page.evaluate(f"window.__westerosGame.toClient({x}, {y})")  # noqa: E731
    page.mouse.move(*point(*start))
    page.mouse.down()
    page.mouse.move(*point(*end), steps=steps)
    page.mouse.up()


def _act(page, target) -> None:
    before = game_state(page)["version"]
    page.locator(target).first.click() if isinstance(target, str) else target.first.click()
    wait_version(page, before)


@pytest.mark.parametrize("width,height", ((1440, 1000), (390, 844)))
def test_minis_ghost_stops_at_the_move_distance(live_asgi_server, new_page, artifacts, width, height):
    server = live_asgi_server
    game_id = _stage_minis(server, [f"mnw_a{width}", f"mnw_b{width}"])
    page = open_game(new_page, server, f"mnw_a{width}", game_id, width, height, ready="#field .mn-tray, #decision h2")
    _act(page, page.locator("#decision button.choice", has_text="Activate Stark Sworn Swords"))
    # the Sworn Swords (Speed 5) dragged 12 in towards the Guardsmen: the ghost stops at 5 in
    page.locator("#field").scroll_into_view_if_needed()
    _drag(page, (24, 17.6), (24, 29.6))
    page.wait_for_selector(".mn-ghost")
    move = page.evaluate("window.__westerosGame.ghostAction()")["maneuver"]
    assert move["forward"] == pytest.approx(5.0, abs=0.01), move
    page.wait_for_function("document.getElementById('ghost-status').textContent.includes('Allowed')")
    status = page.locator("#ghost-status").inner_text()
    assert status.startswith("The tray stops at 5 in: Stark Sworn Swords moves at most 5 in in a Maneuver (its Speed)."), status
    # the facing as this player sees it: Stark's edge is at the bottom, the tray points up the screen
    assert "facing up the table" in status and "north" not in status, status
    assert "(M" not in status
    page.locator("#ghost-status").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"minis-ghost-held-{width}.png"), full_page=width > 400)
    if width > 400:
        page.locator("#decision").screenshot(path=str(artifacts / "minis-ghost-held-decision-1440.png"))
    # a drag still further keeps it there; the confirmation sends 5 in, which the server takes
    _drag(page, (24, 22.6), (24, 40))
    assert page.evaluate("window.__westerosGame.ghostAction()")["maneuver"]["forward"] == pytest.approx(5.0, abs=0.01)
    assert page.locator("#confirm").is_enabled()
    _act(page, "#confirm")
    unit = game_state(page)["summary"]["units"]["sworn_swords"]
    assert unit["at"][1] == pytest.approx(25.0, abs=0.05) and unit["activated"]
    # the log says the facing as each player sees the table: Stark's edge is at the bottom of
    # Stark's screen, Lannister's at the bottom of Lannister's, so the tray Stark moved towards
    # Lannister points up the table for Stark and down it for Lannister
    page.locator("#log", has_text="Stark Sworn Swords maneuvers 5 in").wait_for()
    assert "Stark Sworn Swords maneuvers 5 in, facing up the table." in page.locator("#log").inner_text()
    if width > 400:
        other = open_game(new_page, server, f"mnw_b{width}", game_id, ready="#field .mn-tray, #decision h2")
        other.locator("#log", has_text="Stark Sworn Swords maneuvers 5 in").wait_for()
        log = other.locator("#log").inner_text()
        assert "Stark Sworn Swords maneuvers 5 in, facing down the table." in log and "north" not in log, log


def test_minis_server_stays_the_judge_of_a_long_move(live_asgi_server, new_page):
    """A move longer than the unit's Speed sent without the page's ghost is refused by the server, in words."""
    server = live_asgi_server
    game_id = _stage_minis(server, ["mnw_judge_a", "mnw_judge_b"])
    page = open_game(new_page, server, "mnw_judge_a", game_id, ready="#field .mn-tray, #decision h2")
    _act(page, page.locator("#decision button.choice", has_text="Activate Stark Sworn Swords"))
    before = game_state(page)["version"]
    page.evaluate("window.__westerosGame.send({maneuver: {face: 270, forward: 7}})")
    page.wait_for_selector("#error:not([hidden])")
    error = page.locator("#error").inner_text()
    assert error.startswith("Refused:") and "7 in is more than the 5 in allowed" in error, error
    assert game_state(page)["version"] == before
