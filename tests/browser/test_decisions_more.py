"""More decisions a player makes on the board (issue 15, "Decisions with their context"): a March
with its lone unit picked already, units picked by clicking them, only legal destinations, a
warning before a castle is left empty without a power token (R154) and "remove the order" as a
secondary button; the Messenger Raven's swap picked on the board; a wildling card's losses picked by
clicking areas; decision titles, the status line and the Players table in words and crests.
Staged positions below (stage.py). Screenshots at 1440 and 390 px go to test-artifacts/."""
from __future__ import annotations

import pytest

from tests.browser.util import game_state, log_in

pytestmark = pytest.mark.browser

WIDTHS = ((1440, 900), (390, 844))

# Stark has two March orders: Moat Cailin (a castle, a lone footman) and Winterfell (its home: a
# footman and a knight). Lannister holds The Twins, next to Moat Cailin.
MARCH_SETUP = {
    "units": {"moat_cailin": {"stark": ["footman"]}, "winterfell": {"stark": ["footman", "knight"]},
              "the_twins": {"lannister": ["footman"]}, "lannisport": {"lannister": ["footman"]},
              "dragonstone": {"baratheon": ["footman"]}},
    "orders": {"moat_cailin": {"stark": "march+0"}, "winterfell": {"stark": "march+1*"},
               "the_twins": {"lannister": "defense+1"}, "lannisport": {"lannister": "defense+1"},
               "dragonstone": {"baratheon": "defense+1"}},
    "tracks": {"iron_throne": ["stark", "lannister", "baratheon"], "kings_court": ["stark", "lannister", "baratheon"]},
}


def stage_march(game_id: int) -> None:
    from tests.browser.stage import stage

    stage(game_id, MARCH_SETUP, "action")


# Wildlings Attack with nobody holding power: the wildlings win, Mammoth Riders is drawn; Stark (Iron
# Throne) makes Lannister the lowest bidder (one unit: its loss is forced), then Stark, as everyone
# else, destroys 2 of its 3 units: a choice.
WILDLING_SETUP = {
    "round": 2,
    "units": {"winterfell": {"stark": ["footman", "knight"]}, "white_harbor": {"stark": ["footman"]},
              "lannisport": {"lannister": ["footman"]}, "dragonstone": {"baratheon": ["footman"]}},
    "tracks": {"iron_throne": ["stark", "lannister", "baratheon"]},
    "power": {"stark": 0, "lannister": 0, "baratheon": 0},
    "decks": {"westeros_1": ["last_days_of_summer"], "westeros_2": ["last_days_of_summer"],
              "westeros_3": ["wildlings_attack"], "wildlings": ["mammoth_riders"]},
}


def stage_wildling_losses(game_id: int) -> None:
    from tests.browser.stage import stage

    def lannister_lowest(engine, state):
        return engine.apply(state, "stark", {"break_tie": ["stark", "baratheon", "lannister"]})[0]

    stage(game_id, WILDLING_SETUP, "westeros", lannister_lowest)


def open_game(new_page, base, user, game_id, width, height):
    page = new_page(width, height)
    log_in(page, base, user)
    page.goto(f"{base}/games/{game_id}/")
    page.wait_for_selector("#board path.area")
    page.wait_for_selector("#decision h2")
    return page


def click_area(page, area: str) -> None:
    page.evaluate(f"document.querySelector('#board path.area[data-area={area}]').dispatchEvent(new MouseEvent('click', {{bubbles: true}}))")


def shoot(page, artifacts, name):
    page.locator("#decision").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"{name}.png"))


def no_ids(text: str) -> None:
    assert "_" not in text and "{" not in text and "[" not in text, text


def test_march_lone_unit_board_picks_legal_destinations_and_warning(live_asgi_server, demo_game, new_page, artifacts, request):
    out = live_asgi_server.manage("shell", "-c", f"from tests.browser.test_decisions_more import stage_march; stage_march({demo_game})")
    assert "('stark', 'march')" in out
    for width, height in WIDTHS:
        page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, width, height)
        assert page.locator("#decision h2 .decision-title").inner_text() == "Resolve one of your March orders"
        assert "Action phase: resolving March orders" in page.locator("#phase").inner_text()
        # Moat Cailin holds a lone footman: it is picked already
        page.click("button.choice[data-from=moat_cailin]")
        assert page.locator("#decision h2 .decision-title").inner_text() == "March from Moat Cailin"
        assert page.locator("input[data-unit=footman]").is_checked()
        assert page.locator("#board g[data-area=moat_cailin] path.unit.picked").count() == 1
        # only the land areas next to Moat Cailin are offered (no sea, nothing further away); The Twins
        # holds Lannister's army: a battle
        options = page.eval_on_selector_all("#march-dest option", "os => os.map(o => o.value).filter(Boolean)")
        assert sorted(options) == ["greywater_watch", "seagard", "the_twins", "white_harbor", "winterfell"], options
        labels = page.eval_on_selector_all("#march-dest option", "os => os.map(o => o.textContent)")
        assert any(t.startswith("The Twins (battle against Lannister") for t in labels), labels
        # "remove the order" is a secondary button, and March waits for a destination
        assert "secondary" in page.get_attribute("#march-remove", "class")
        assert "secondary" not in (page.get_attribute("#march-submit", "class") or "")
        assert page.locator("#march-submit").is_disabled()
        # the footman goes to Greywater Watch: Moat Cailin (a castle) is left empty, with no power token: warned
        page.select_option("#march-dest", "greywater_watch")
        page.click("#march-assign")
        warning = page.locator("#march-warning")
        warning.wait_for()
        assert "Moat Cailin will be left empty" in warning.inner_text() and "castle" in warning.inner_text()
        assert page.locator("#leave-token").count() == 1
        shoot(page, artifacts, f"decision-march-warning-{width}")
        page.check("#leave-token")
        assert page.locator("#march-warning").count() == 0
        no_ids(page.locator("#decision").inner_text())
    # the march goes through with the power token left behind
    page.click("#march-submit")
    page.wait_for_function("window.__westerosGame.state().view.units.greywater_watch !== undefined")
    state = game_state(page)
    assert state["view"]["power_tokens"].get("moat_cailin") == "stark"
    assert page.locator("#error").is_hidden()


def test_march_units_clicked_on_the_board(live_asgi_server, demo_game, new_page, artifacts, request):
    live_asgi_server.manage("shell", "-c", f"from tests.browser.test_decisions_more import stage_march; stage_march({demo_game})")
    for width, height in WIDTHS:
        page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, width, height)
        click_area(page, "winterfell")   # the March order in Winterfell: its two units, none picked
        page.wait_for_selector("input[data-unit=knight]")
        assert not page.locator("input[data-unit=knight]").is_checked()
        # a click on the knight on the board picks it alone
        page.evaluate("document.querySelector('#board g[data-area=winterfell] path.unit[data-index=\"1\"]')"
                      ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        page.wait_for_selector("#board g[data-area=winterfell] path.unit.picked")
        assert page.locator("input[data-unit=knight]").is_checked() and not page.locator("input[data-unit=footman]").is_checked()
        assert page.locator("#board g[data-area=winterfell] path.unit.picked").count() == 1
        # a non-adjacent area clicked on the board is refused in words; an adjacent one accepted
        click_area(page, "lannisport")
        page.locator("#error").wait_for(state="visible")
        assert "Lannisport" in page.locator("#error").inner_text() and "Winterfell" in page.locator("#error").inner_text()
        click_area(page, "castle_black")
        page.wait_for_selector("#decision .march-moves li:has-text('Castle Black')")
        assert "knight" in page.locator("#decision .march-moves").inner_text()
        # the footman is left: Winterfell (Stark's home) is not lost, so no warning
        assert page.locator("#march-warning").count() == 0
        shoot(page, artifacts, f"decision-march-board-picks-{width}")
    page.click("#march-submit")
    page.wait_for_function("(window.__westerosGame.state().view.units.castle_black || {}).stark !== undefined")
    assert game_state(page)["view"]["units"]["winterfell"]["stark"] == ["footman"]


def test_remove_the_order_is_the_secondary_choice(live_asgi_server, demo_game, new_page, request):
    live_asgi_server.manage("shell", "-c", f"from tests.browser.test_decisions_more import stage_march; stage_march({demo_game})")
    page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, 1440, 900)
    page.click("button.choice[data-from=moat_cailin]")
    page.click("#march-remove")
    page.wait_for_function("window.__westerosGame.state().view.orders.moat_cailin === undefined")
    assert game_state(page)["view"]["units"]["moat_cailin"]["stark"] == ["footman"]


def test_raven_swap_picked_on_the_board(live_asgi_server, demo_game, new_page, artifacts, request):
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_raven; stage_raven({demo_game})")
    for width, height in WIDTHS:
        page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, width, height)
        assert page.locator("#decision h2 .decision-title").inner_text() == "Use the Messenger Raven"
        assert "Planning phase: the Messenger Raven" in page.locator("#phase").inner_text()
        # the areas whose order may be swapped are highlighted; a click on one shows its tokens
        assert page.locator("#board path.area.choosable").count() == 2
        assert page.locator("button[data-raven-token]").count() == 0
        click_area(page, "lannisport")
        page.locator("#error").wait_for(state="visible")
        assert "Lannisport" in page.locator("#error").inner_text()
        click_area(page, "white_harbor")
        page.wait_for_selector("button[data-raven-token]")
        assert page.locator("#board path.area.selected[data-area=white_harbor]").count() == 1
        assert 0 < page.locator("button[data-raven-token]").count() < 12
        shoot(page, artifacts, f"decision-raven-board-{width}")
    page.click("button[data-raven-token=consolidate]")
    page.wait_for_function("window.__westerosGame.state().pending.stark !== 'raven'")
    assert game_state(page)["view"]["orders"]["white_harbor"]["token"] == "consolidate"


def test_wildling_losses_picked_on_the_board(live_asgi_server, demo_game, new_page, artifacts, request):
    out = live_asgi_server.manage("shell", "-c", f"from tests.browser.test_decisions_more import stage_wildling_losses; stage_wildling_losses({demo_game})")
    assert "('stark', 'choose')" in out
    for width, height in WIDTHS:
        page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, width, height)
        title = page.locator("#decision h2 .decision-title").inner_text()
        assert title == "Choose 2 units to destroy (Mammoth Riders)", title
        # the card comes from the board data (wildling_cards.yaml), not a copy in the page
        assert "Destroy 2 of their units anywhere on the board." in page.locator("#decision .wildling-card").inner_text()
        assert page.locator("#lose-submit").is_disabled()
        # White Harbor clicked on the board: its footman picked; Winterfell clicked: its first unit
        click_area(page, "white_harbor")
        page.wait_for_selector("#board g[data-area=white_harbor] path.unit.picked")
        click_area(page, "winterfell")
        page.wait_for_selector("#board g[data-area=winterfell] path.unit.picked")
        assert page.locator("#lose-status").inner_text().startswith("2 of 2 picked")
        assert page.locator("input[data-lose='white_harbor:0']").is_checked()
        # a third pick is refused until one is unpicked
        page.evaluate("document.querySelector('#board g[data-area=winterfell] path.unit[data-index=\"1\"]')"
                      ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        page.locator("#error").wait_for(state="visible")
        assert "picked 2 already" in page.locator("#error").inner_text()
        # the list of every possible choice stays as a fallback
        assert page.locator("details.lose-fallback button.choice").count() == 3
        submit = page.locator("#lose-submit").inner_text()
        assert "Destroy" in submit and "White Harbor" in submit and "Winterfell" in submit
        no_ids(page.locator("#decision").inner_text())
        shoot(page, artifacts, f"decision-wildling-losses-{width}")
    page.click("#lose-submit")
    page.wait_for_function("window.__westerosGame.state().pending.stark !== 'choose'")
    units = game_state(page)["view"]["units"]
    assert "white_harbor" not in units and units["winterfell"]["stark"] == ["knight"]
    assert page.locator("#error").is_hidden()


def test_players_table_shows_crests_and_pending_in_words(live_asgi_server, demo_game, new_page, artifacts, request):
    for width, height in WIDTHS:
        page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, width, height)
        seats = page.locator("#seats")
        assert seats.locator("svg.crest-icon").count() == 3
        text = seats.inner_text()
        assert "Place orders" in text and "place orders" not in page.locator("#phase").inner_text().split("waiting")[0]
        for letter_cell in seats.locator("td:first-child").all():
            assert letter_cell.inner_text().strip() in ("Stark", "Lannister", "Baratheon"), letter_cell.inner_text()
        phase = page.locator("#phase").inner_text()
        assert "Planning phase: placing orders" in phase and "(assign)" not in phase and "planning" not in phase, phase
        assert page.locator("#decision h2 .decision-title").inner_text() == "Place your orders"
        page.locator("#seats").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"players-crests-{width}.png"))


def test_describe_action_falls_back_to_words(live_asgi_server, demo_game, new_page, request):
    page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, 1440, 900)
    words = page.evaluate("""() => [
      window.Westeros.describeAction({muster: {winterfell: [{recruit: 'knight'}]}}),
      window.Westeros.describeAction({choose: {winterfell: ['footman', 'siege_engine'], white_harbor: ['ship']}}),
      window.Westeros.describeAction({break_tie: ['stark', 'greyjoy']}),
      window.Westeros.describeAction({something_new: {area: 'the_twins', house: 'lannister', units: ['knight']}}),
    ]""")
    for text in words:
        no_ids(text)
    assert words[1] == "Choose footman and siege engine in Winterfell; ship in White Harbor"
    assert words[2] == "Order: Stark and Greyjoy"
    assert "The Twins" in words[3] and "Lannister" in words[3] and "knight" in words[3]


def test_combat_titles_and_steps_in_words(live_asgi_server, demo_game, new_page, request):
    live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import stage_stark_attack; stage_stark_attack({demo_game})")
    page = open_game(new_page, live_asgi_server.url, request.node.demo_user, demo_game, 1440, 900)
    assert page.locator("#decision h2 .decision-title").inner_text() == "Choose a house card for the battle for White Harbor"
    assert "Action phase: battle for White Harbor" in page.locator("#phase").inner_text()
    combat = page.locator("#combat").inner_text()
    assert "Now: house cards are chosen" in combat, combat
    no_ids(combat)
