"""The battle's strength table reads the engine's record (docs/engine-agot-state.md, "The combat
breakdown"): line by line with the Tides of Battle card each side drew (R300) and, once the victor is
decided, frozen (R229) and kept as the last combat with the rule that decided it. Staging: stage.py.
Screenshots at 1440 and 390 px go to test-artifacts/. Server: conftest.py."""
from __future__ import annotations

import pytest

from tests.browser.test_decisions_in_context import no_json, open_game
from tests.browser.util import game_state, scroll_to

pytestmark = pytest.mark.browser


def answer(page, action: dict) -> None:
    page.evaluate("(a) => window.__westerosGame.send(a)", action)


def test_the_table_shows_tides_of_battle_and_keeps_the_battle_as_it_was_decided(live_asgi_server, demo_game, new_page,
                                                                                 artifacts, request):
    base = live_asgi_server.url
    live_asgi_server.manage("shell", "-c", "from tests.browser.stage import stage_stark_attack_with_tides; "
                                          f"stage_stark_attack_with_tides({demo_game})")
    page = open_game(new_page, base, request.node.demo_user, demo_game, 1440, 900)
    page.wait_for_selector("#combat-breakdown")
    page.locator("#decision .cards.choose [data-card]").first.click()   # chosen, then confirmed (issue 26)
    page.click("#house-card-submit")
    # Stark holds the Valyrian Steel Blade: with Tides of Battle it may draw again (R301) first.
    page.wait_for_function("['blade', 'blade_redraw'].includes(window.__westerosGame.state().pending.stark)")
    text = page.locator("#combat-breakdown").inner_text()
    # Stark sees the card it drew (R299), never Baratheon's until both are revealed (R298).
    assert "Tides of Battle" in text and "a +3 card, drawn in secret" in text and "drawn, not yet revealed" in text, text
    assert "skull" not in text and "skull" not in str(game_state(page)["view"])
    no_json(text)
    # Stark keeps its card and leaves the blade, then loses a unit to Baratheon's skull (R302); the
    # bot answers for Baratheon (casualties, retreat); live updates bring the battle's end.
    for _ in range(10):
        state = game_state(page)
        if not state["view"]["combat"].get("_current"):
            break
        kind = state["pending"].get("stark")
        if kind:
            answer(page, {"blade": False} if kind in ("blade", "blade_redraw") else state["legal_actions"][0])
        page.wait_for_function(f"window.__westerosGame.state().version > {state['version']}")
    record = game_state(page)["view"]["combat"]
    # Stark's 3 + 1 and a +3 card against Baratheon's 1 + 1 and a skull: whatever the cards, Stark is
    # first on the Fiefdoms track, so it wins the battle, by strength or by the tie rule (R229).
    verdict = {"higher_strength": "Stark won: the higher strength.",
               "fiefdoms_tie": "Stark won: a tie, won by the house higher on the Fiefdoms track."}[record["decided_by"]]
    assert record["winner"] == "stark"
    assert record["breakdown"]["stark"]["total"] >= record["breakdown"]["baratheon"]["total"]
    assert not game_state(page)["view"]["units"].get("white_harbor", {}).get("baratheon")
    for width, height in ((1440, 900), (390, 844)):
        if width != 1440:
            page = open_game(new_page, base, request.node.demo_user, demo_game, width, height)
        table = page.locator("#last-combat-breakdown")
        table.wait_for()
        text = " ".join(table.inner_text().split())
        assert "Stark attacks Baratheon in White Harbor" in text
        assert verdict in text
        # Baratheon's footman has left White Harbor (retreated or destroyed, R230-R236), but the table
        # shows it as it stood when the battle was decided: its +1 stays.
        line = record["breakdown"]["baratheon"]
        assert line["unit_list"] == ["footman"] and line["units"] == 1
        for house in ("stark", "baratheon"):
            assert str(record["breakdown"][house]["total"]) in text
        assert "a +3 card" in text and "a skull" in text and "footman" in text
        no_json(text)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        scroll_to(table)
        page.screenshot(path=str(artifacts / f"combat-record-{width}.png"))
