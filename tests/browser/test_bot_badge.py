"""A bot account (issue 21, docs/bots.md) is shown as BOT beside its name on every game page's seat
list: the board game, B'Twixt, the card game and the miniatures game. A seat the engine plays is
"bot" without the badge (the badge is for programs playing through the API).

The live server, its database and Chromium are set up in conftest.py (read it first)."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import PASSWORD, log_in

pytestmark = pytest.mark.browser

RULESETS = (("agot", 3), ("btwixt", 3), ("lcg", 2), ("minis", 2))


def stage_bot_badge_games() -> None:
    """A person and a bot account at a table of each game (the other seats: the engine)."""
    from accounts.models import User
    from games.engine import get_ruleset
    from games.services.play import do_create_game

    person = User.objects.create_user(username="bb_person", email="bb_person@example.com", password=PASSWORD)
    bot = User.objects.create_user(username="bb_program", email="bb_program@example.com", password=PASSWORD,
                                   is_bot=True)
    for ruleset, count in RULESETS:
        seats = get_ruleset(ruleset).seat_names(count)
        seating = {seat: (person if i == 0 else bot if i == 1 else None) for i, seat in enumerate(seats)}
        game = do_create_game(ruleset=ruleset, seating=seating)
        print("game", ruleset, game.pk)


def test_bot_badge(live_asgi_server, new_page):
    out = live_asgi_server.manage("shell", "-c", "from tests.browser.test_bot_badge import stage_bot_badge_games; "
                                                 "stage_bot_badge_games()")
    games = dict(re.findall(r"game (\w+) (\d+)", out))
    page = new_page(1440, 900)
    log_in(page, live_asgi_server.url, "bb_person")
    for ruleset, _ in RULESETS:
        page.goto(f"{live_asgi_server.url}/games/{games[ruleset]}/")
        page.wait_for_selector("#conn.on")
        badge = page.locator(".bot-badge", has_text="BOT").first
        badge.wait_for()
        # beside the bot account's name, and only there
        holder = badge.locator("xpath=..")
        assert "bb_program" in holder.inner_text(), (ruleset, holder.inner_text())
        assert page.locator(".bot-badge").count() == 1, ruleset
