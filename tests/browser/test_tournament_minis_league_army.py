"""A miniatures league or Swiss event of one against one takes armies (issue 33): its registration form offers your saved army and the starter armies,
says that two armies of one house meet in a mirror match, and registers you with the army chosen. At 1440 and 390
px, screenshots in test-artifacts/ (tournament-league-army-*, tournament-swiss-army-*)."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import log_in

pytestmark = pytest.mark.browser
WIDTHS = ((1440, 900), (390, 844))


@pytest.mark.parametrize("fmt", ["league", "swiss"])
def test_register_to_a_league_or_swiss_event_with_your_army(live_asgi_server, new_page, artifacts, fmt):
    for width, height in WIDTHS:
        names = [f"t{fmt[0]}a_{width}", f"t{fmt[0]}a_org_{width}"]
        live_asgi_server.manage("shell", "-c",
                                f"from tests.browser.test_lobby_minis_form import *; stage_armies({names!r})")
        out = live_asgi_server.manage("shell", "-c", (
            "from accounts.models import User\n"
            "from tournaments import services as T\n"
            f"org = User.objects.get(username={names[1]!r})\n"
            f"t = T.do_create_tournament(org, T.TournamentSettings(name='The Red Fork {fmt}', ruleset='minis',"
            f" format={fmt!r}, seats_per_table=2, options={{'game_size': 40}}))\n"
            "print('id', t.pk)\n"))
        tid = re.search(r"id (\d+)", out).group(1)
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, names[0])
        page.goto(f"{live_asgi_server.url}/tournaments/{tid}/")
        select = page.locator("label.register-army select[name=army]")
        assert select.is_visible()
        options = select.locator("option").all_inner_texts()
        assert "Mountain Host (your army)" in options and "Stark starter army" in options
        assert "a mirror match" in page.locator(".actions").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
        page.locator(".actions").screenshot(path=str(artifacts / f"tournament-{fmt}-army-{width}.png"))
        select.select_option(label="Mountain Host (your army)")
        page.locator(".actions form button[type=submit]").first.click()
        page.wait_for_url(re.compile(rf"/tournaments/{tid}/$"))
        assert "Your army: Mountain Host (Lannister" in page.locator(".actions").inner_text()
        page.screenshot(path=str(artifacts / f"tournament-{fmt}-army-registered-{width}.png"), full_page=True)
