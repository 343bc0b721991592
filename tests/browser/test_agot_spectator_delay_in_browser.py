"""The spectators' delay in the browser (issue 34, games/spectators.py): a fogged game with
`spectator_delay: 1`, played to round 3 by its three players. A logged-out spectator's game page says in
words that it shows the game with a delay (English and Spanish), draws the whole board without the fog as it
stood when round 2 began, and its log stops there; a player's page keeps the fog and says nothing of a delay.
Screenshots at 1440 and 390 px: test-artifacts/play-now-agot-spectator-delay-*.png."""
from __future__ import annotations

import re

import pytest

from tests.browser.test_play_now import shoot
from tests.browser.util import PASSWORD, game_state, log_in

pytestmark = pytest.mark.browser


def test_a_spectator_sees_the_whole_board_a_round_late_and_is_told_so(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    names = ["delay_a", "delay_b", "delay_c"]
    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage_spectator_delay import delayed_game; "
                                  f"delayed_game({names!r}, {PASSWORD!r})")
    game_id = int(re.search(r"game (\d+)", out).group(1))
    assert "round 3" in out
    for language, locale, words in (("en", "en-GB", "You are watching with a delay of 1 round"),
                                    ("es", "es-ES", "Estás viendo la partida con un retraso de 1 ronda")):
        page = new_page(1440, 1000, locale=locale)
        page.goto(f"{base}/games/{game_id}/")
        page.wait_for_selector("#conn.on")
        page.wait_for_function("window.__westerosGame && window.__westerosGame.state()")
        assert words in page.locator("#spectator-delay").inner_text()
        game = game_state(page)
        assert game["spectator_delay"] == {"rounds": 1, "version": game["spectator_delay"]["version"], "round": 2}
        assert "fog" not in game["view"]
        assert page.locator("#board .fogged").count() == 0  # the whole board, no area shaded
        decision = page.locator("#decision").inner_text()
        assert ("Spectating with a delay" if language == "en" else "Como espectador, con retraso") in decision
        assert ("round 2" if language == "en" else "ronda 2") in decision
        log_versions = [int(v) for v in page.locator("#log [data-version]").evaluate_all("es => es.map(e => e.dataset.version)")]
        assert log_versions and max(log_versions) <= game["spectator_delay"]["version"]
        shoot(page, artifacts, f"agot-spectator-delay-{language}")
    player = new_page(1440, 1000)
    log_in(player, base, names[0])
    player.goto(f"{base}/games/{game_id}/")
    player.wait_for_selector("#conn.on")
    player.wait_for_function("window.__westerosGame && window.__westerosGame.state()")
    assert player.locator("#spectator-delay").count() == 0
    assert game_state(player)["spectator_delay"] is None and player.locator("#board .fogged").count() > 0
    shoot(player, artifacts, "agot-spectator-delay-player")
