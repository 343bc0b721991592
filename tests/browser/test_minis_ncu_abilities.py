"""The miniatures game's page asks the NCU abilities of rules revision 4 (Playing The Game, Cersei;
Repeating the Words, Sansa): from seeded games of the engine's player with armies fielding them
(tests/browser/stage_minis_decisions.py `ncu_ability_games`), the page titles the decision with the NCU
and the ability, shows the ability's text (and Cersei's tokens left), offers every answer the server
lists in words with no id, and an answer given on the page is accepted by the server. Screenshots at
1440 and 390 px go to test-artifacts/."""
from __future__ import annotations

import json
import re

import pytest

from tests.browser.test_minis_battle import _act, _no_ids
from tests.browser.util import PASSWORD, game_state, log_in

pytestmark = pytest.mark.browser

WORDS = {"choose:ncu_ability:30105:claim": ("Cersei Lannister, Queen Regent: Playing The Game",
                                            "Order tokens left on the card: 2.", "Spend an Order token and take ",
                                            "Decline"),
         "choose:ncu_ability:30202:activates": ("Sansa Stark, Little Bird: Repeating the Words", "Take ",
                                                " back into your hand", "Decline"),
         "choose:ncu_ability:30202:claim": ("Sansa Stark, Little Bird: Repeating the Words",
                                            "A card taken back replaces the zone's effect.", "Decline")}


@pytest.mark.parametrize("width", [1440, 390])
def test_minis_ncu_abilities_on_the_page(live_asgi_server, new_page, artifacts, width):
    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage_minis_decisions import ncu_ability_games; "
                                  f"ncu_ability_games(['mnnina{width}', 'mnotto{width}'], {PASSWORD!r})")
    games = [g.split("/") for g in re.search(r"games (\S+)", out).group(1).split(",")]
    assert {key for _g, key, _s in games} == set(WORDS)
    pages = {}
    for seat, name in (("stark", f"mnnina{width}"), ("lannister", f"mnotto{width}")):
        pages[seat] = new_page(width, 1000)
        log_in(pages[seat], live_asgi_server.url, name)
    for game_id, key, seat in games:
        page = pages[seat]
        page.goto(f"{live_asgi_server.url}/games/{game_id}/")
        page.wait_for_selector("#decision h2:has-text('Your decision')")
        panel = page.inner_text("#decision")
        _no_ids(panel)
        for word in WORDS[key]:
            assert word in panel, f"{key}: {word!r} not in {panel}"
        legal = game_state(page)["legal_actions"]
        offered = set(page.eval_on_selector_all("#decision button[data-action]", "bs => bs.map(b => b.dataset.action)"))
        missing = [a for a in legal if json.dumps(a, separators=(",", ":")) not in offered]
        assert not missing, f"{key}: {missing} not offered in {panel}"
        page.screenshot(path=str(artifacts / f"minis-{key.replace(':', '-')}-{width}.png"), full_page=True)
        page.locator("#decision").screenshot(path=str(artifacts / f"minis-{key.replace(':', '-')}-{width}-panel.png"))
        _act(page, page.locator("#decision .choices button.choice"))  # the server takes it (a refusal fails)
        _no_ids(page.inner_text("#decision"))
