"""A card saying "an opponent" in a melee (issue 31; docs/rules-decisions.md, "Melee: 'an opponent'"):
Alys reveals Heads on Spikes in a 4-player melee (tests/browser/stage_lcg_melee_opponent.py) and her page
asks which opponent, by name, with no card of any hand; she picks Bram, whose only card (a character)
goes to his dead pile. Alys at 1440 px, Bram at 390 px; screenshots go to test-artifacts/."""
from __future__ import annotations

from functools import partial

import pytest

from tests.browser.test_lcg_melee import _action
from tests.browser.test_lcg_table import _act, _no_ids
from tests.browser.util import game_state, open_game, pending, stage_game, wait_until

pytestmark = pytest.mark.browser

_open = partial(open_game, ready=".lcg-area.me")


def test_heads_on_spikes_asks_which_opponent_by_name(live_asgi_server, new_page, artifacts):
    names = ["Alys", "Bram"]
    game_id = stage_game(live_asgi_server, names, module="stage_lcg_melee_opponent", function="heads_on_spikes")
    alys = _open(new_page, live_asgi_server, names[0], game_id)
    bram = _open(new_page, live_asgi_server, names[1], game_id, width=390, height=844)
    assert pending(alys) == "first_player"
    _act(alys, alys.locator(_action(alys, {"first_player": "p1"})))

    wait_until(alys, lambda: pending(alys) == "choose", "Alys to be asked which opponent")
    box = alys.locator("#decision")
    text = box.inner_text()
    assert "Heads on Spikes" in text and "Bram" in text
    for seat in ("p2", "p3", "p4"):
        assert alys.locator(_action(alys, {"choose": seat})).count() == 1
    assert alys.locator(_action(alys, {"choose": "p1"})).count() == 0
    assert "Burned Men" not in text   # no hand's card in the question
    _no_ids(text)
    alys.screenshot(path=str(artifacts / "lcg-melee-opponent-1440.png"), full_page=True)
    alys.set_viewport_size({"width": 390, "height": 844})
    alys.screenshot(path=str(artifacts / "lcg-melee-opponent-390.png"), full_page=True)
    alys.set_viewport_size({"width": 1440, "height": 1000})
    _act(alys, alys.locator(_action(alys, {"choose": "p2"})))

    wait_until(bram, lambda: game_state(bram)["pending"].get("p1") != "choose", "the choice answered")
    wait_until(bram, lambda: "Burned Men" in bram.inner_text("#area-p2"), "Bram's character in his dead pile")
    # the log says whom she named, in words
    wait_until(alys, lambda: "Alys chooses Bram as the opponent for Heads on Spikes." in alys.inner_text("#log"), "the log line")
    bram.screenshot(path=str(artifacts / "lcg-melee-opponent-after-390.png"), full_page=True)
