"""The B'Twixt hand is where a card is chosen: on your turn you pick the card to play in your hand
(click or keyboard, a marked "chosen" state, its targets and one button under the hand), and an
ability that asks for a card of your hand ("discard 1 card of your choice", Iron Bank Loan) is
answered there too. The decision panel never lists the hand a second time, and nothing on the page
is JSON: unknown actions and events, and a decision the server lists no choice for, are said in
words. Screenshots at 1440 and 390 px in test-artifacts/.

The staging function runs in the server's environment (`manage.py shell -c`), like stage.py."""
from __future__ import annotations

import json
import re

import pytest

from tests.browser.util import PASSWORD, game_state, log_in

pytestmark = pytest.mark.browser

WIDTHS = ((1440, 900), (390, 844))
HAND = ["intimidation", "ambush", "iron_bank_loan", "city_watch", "hedge_knight", "city_watch"]


def stage_hand(name: str) -> None:
    """The user `name` plays Cersei against two bots; it is Cersei's turn to bid with the hand HAND,
    her pile holding Mounted Lances (5), Tyrion's Sworn Sword (2), Euron's Ambush (2): Ambush and
    Intimidation each have two targets, Iron Bank Loan draws 2 then discards 1 from the hand."""
    from accounts.models import User
    from games.engine import get_ruleset
    from games.models import Game
    from games.services.play import do_create_game

    user = User.objects.filter(username=name).first() or User.objects.create_user(
        username=name, email=f"{name}@example.com", password=PASSWORD)
    engine = get_ruleset("btwixt")
    seats = engine.seat_names(3)
    game = do_create_game(ruleset="btwixt", seating={s: (user if i == 0 else None) for i, s in enumerate(seats)},
                          seed=3, time_limit=86400)
    game = Game.objects.get(pk=game.pk)
    game.state = engine.scenario_game(seats, {}, 3, {
        "hands": {seats[0]: HAND},
        "piles": {seats[0]: ["mounted_lances"], seats[1]: ["sworn_sword"], seats[2]: ["ambush"]},
        "turn": seats[0]}, "bidding")
    game.save(update_fields=["state"])
    print(f"game {game.pk}")


def _stage(server, name: str) -> int:
    out = server.manage("shell", "-c", f"from tests.browser.test_btwixt_hand import *; stage_hand({name!r})")
    return int(re.search(r"game (\d+)", out).group(1))


def _no_json(text: str) -> None:
    assert not re.search(r"[{}\[\]]|\"\w+\":", text), f"JSON on the page: {text[:300]}"
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), f"an id on the page: {text[:300]}"


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 2, f"the page is {width}px wide on a {page.viewport_size['width']}px screen"


def _picked(page) -> list[str]:
    return page.eval_on_selector_all("#hand .bt-card[aria-checked=true]", "cs => cs.map(c => c.dataset.card)")


@pytest.mark.parametrize("width,height", WIDTHS)
def test_the_hand_is_where_cards_are_picked(live_asgi_server, new_page, artifacts, width, height):
    name = f"bth_{width}"
    game_id = _stage(live_asgi_server, name)
    page = new_page(width, height)
    log_in(page, live_asgi_server.url, name)
    page.goto(f"{live_asgi_server.url}/games/{game_id}/")
    page.wait_for_selector("#conn.on")
    page.wait_for_selector("#hand .bt-card.pickable")

    # the decision says what to do; the cards are only in the hand, each playable one a choice
    decision = page.locator("#decision")
    assert page.locator("#decision .bt-card").count() == 0
    assert "Pick a card in your hand" in decision.inner_text()
    assert decision.locator("button.kneel").is_visible()
    assert page.eval_on_selector_all("#hand .bt-card", "cs => cs.map(c => c.dataset.card)") == HAND
    assert page.locator("#hand .bt-card.pickable").count() == len(HAND)
    assert page.locator("#hand [role=radiogroup]").count() == 1
    assert "pick a card to play" in page.locator("#hand-hint").inner_text()
    submit = page.locator("#hand-submit")
    assert submit.is_disabled() and submit.inner_text() == "Play the chosen card"
    assert _picked(page) == []
    page.locator("#hand-panel").screenshot(path=str(artifacts / f"btwixt-hand-to-pick-{width}.png"))

    # a card with two targets: picked (marked, "Chosen"), then its target, then the button
    page.click("#hand .bt-card[data-card=ambush]")
    assert _picked(page) == ["ambush"]
    chosen = page.locator("#hand .bt-card.picked")
    assert "Chosen" in chosen.inner_text()
    style = chosen.evaluate("c => getComputedStyle(c).boxShadow")
    assert "3px" in style  # the picked card stands out (also under the mouse)
    labels = page.eval_on_selector_all("#hand-targets label", "ls => ls.map(l => l.textContent.trim())")
    assert labels == ["Sworn Sword in Tyrion Lannister's pile", "Ambush in Euron Greyjoy's pile"]
    assert submit.is_disabled() and "choose where its ability applies" in submit.inner_text()
    page.check("#hand-targets input >> nth=0")
    assert not submit.is_disabled()
    assert submit.inner_text() == "Play Ambush → Sworn Sword in Tyrion Lannister's pile"
    _no_json(page.locator("#hand-panel").inner_text())
    _no_json(decision.inner_text())
    page.screenshot(path=str(artifacts / f"btwixt-hand-picked-{width}.png"), full_page=True)
    page.locator("#hand-panel").screenshot(path=str(artifacts / f"btwixt-hand-picked-panel-{width}.png"))
    page.locator("#hand .bt-card.picked").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"btwixt-hand-picked-view-{width}.png"))  # the bar sticks under the hand
    assert page.locator("#hand-submit").is_visible()
    _no_sideways_scroll(page)

    # another card instead, with the keyboard: one chosen at a time; a live redraw keeps the choice
    page.focus("#hand .bt-card[data-card=iron_bank_loan]")
    page.keyboard.press("Space")
    assert _picked(page) == ["iron_bank_loan"]
    page.evaluate("window.__westerosGame.load()")
    page.wait_for_selector("#hand .bt-card.picked[data-card=iron_bank_loan]")
    assert page.locator("#hand-targets").count() == 0
    assert submit.inner_text() == "Play Iron Bank Loan"
    assert json.loads(submit.get_attribute("data-action")) == {"play": "iron_bank_loan"}
    version = game_state(page)["version"]
    submit.click()
    page.wait_for_function(f"window.__westerosGame.state().version > {version}")

    # Iron Bank Loan drew 2: now a card of the hand is discarded, chosen in the hand as well
    page.wait_for_selector("#decision h2:has-text('discard a card of your hand')")
    state = game_state(page)
    hand = state["summary"]["hands"][state["your_seat"]]
    assert len(hand) == len(HAND) - 1 + 2
    assert "Iron Bank Loan: Draw 2 influence cards, then discard 1 card of your choice" in decision.inner_text()
    assert page.locator("#decision .bt-card").count() == 0 and page.locator("#decision button.choice").count() == 0
    assert page.locator("#hand .bt-card.pickable").count() == len(hand)
    assert page.locator("#hand-submit").inner_text() == "Discard the chosen card"
    page.click("#hand .bt-card[data-card=hedge_knight]")
    assert page.locator("#hand-submit").inner_text() == "Discard Hedge Knight"
    _no_json(decision.inner_text())
    _no_json(page.locator("#hand-panel").inner_text())
    page.screenshot(path=str(artifacts / f"btwixt-hand-discard-{width}.png"), full_page=True)
    _no_sideways_scroll(page)
    version = game_state(page)["version"]
    page.click("#hand-submit")
    page.wait_for_function(f"window.__westerosGame.state().version > {version}")
    state = game_state(page)
    assert "hedge_knight" not in state["summary"]["hands"][state["your_seat"]]
    assert "hedge_knight" in state["summary"]["discard"]
    assert page.locator("#error").is_hidden()
    page.wait_for_selector("#log >> text=plays Iron Bank Loan")
    _no_json(page.locator("#log").inner_text())


def test_no_json_for_unknown_actions_events_and_missing_choices(live_asgi_server, new_page, artifacts):
    game_id = _stage(live_asgi_server, "bth_words")
    page = new_page(1440, 900)
    log_in(page, live_asgi_server.url, "bth_words")
    page.goto(f"{live_asgi_server.url}/games/{game_id}/")
    page.wait_for_selector("#hand .bt-card.pickable")

    # what the page has no sentence for is still said in words: its kind, its values by name
    said = page.evaluate("""() => [
        BtwixtTable.describeEvent({type: "omen_seen", seat: "tyrion", cards: ["city_watch", "ambush"], extra: {council: "cersei-tyrion", n: 2}}),
        BtwixtTable.describeAction({bless_council: "cersei-tyrion", with: {card: "sworn_sword", seat: "euron"}, twice: true}),
        BtwixtTable.describeAction({play: "ambush", target: {seat: "euron", odd_key: ["hedge_knight"]}}),
    ]""")
    assert said[0] == ("Omen seen: seat: Tyrion Lannister; cards: City Watch, Ambush; "
                       "extra: council Cersei Lannister – Tyrion Lannister, n 2.")
    assert said[1] == ("Bless council: Cersei Lannister – Tyrion Lannister "
                       "(with card Sworn Sword, seat Euron Greyjoy, twice yes)")
    assert said[2] == "Play Ambush → Euron Greyjoy"
    for text in said:
        _no_json(text)

    # a pending decision the server lists no choice for: words and a reload, no JSON box
    def no_choices(route):
        body = route.fetch().json()
        body["legal_actions"] = []
        route.fulfill(json=body)

    page.route(re.compile(rf".*/api/v1/games/{game_id}(\?.*)?$"), no_choices)
    page.evaluate("window.__westerosGame.load()")
    page.wait_for_selector("#reload-game")
    text = page.locator("#decision").inner_text()
    assert "lists no choice for you" in text
    assert page.locator("#decision textarea").count() == 0
    _no_json(text)
    page.locator("#decision").screenshot(path=str(artifacts / "btwixt-no-choices-1440.png"))
    page.unroute(re.compile(rf".*/api/v1/games/{game_id}(\?.*)?$"))
    page.click("#reload-game")
    page.wait_for_selector("#hand .bt-card.pickable")
    assert page.locator("#reload-game").count() == 0
