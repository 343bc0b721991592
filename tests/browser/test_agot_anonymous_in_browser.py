"""Anonymous players in the browser (issue 34; docs/rules-decisions.md "AGoT variants"): a person
makes a 3-seat lobby with the lobby form's "Anonymous players" switch, a second person joins, the
computer plays the third seat. On each person's game page the Players table names that person and
shows the other as "a faceless player", who is online included; the other's username is nowhere in
the page. Screenshots at 1440 and 390 px: test-artifacts/play-now-agot-anonymous-*.png."""
from __future__ import annotations

import re

import pytest

from tests.browser.test_play_now import shoot
from tests.browser.util import game_state, log_in, stage_users

pytestmark = pytest.mark.browser


def test_each_person_sees_only_their_own_name(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    names = ("anon_host", "anon_guest")
    stage_users(live_asgi_server, names)
    host, guest = new_page(1440, 1000), new_page(1440, 1000)
    log_in(host, base, names[0])
    log_in(guest, base, names[1])
    host.goto(base + "/lobbies/new/")
    host.fill("input[name=name]", "Faceless")
    host.fill("input[name=seats]", "3")
    host.fill("input[name=computer_seats]", "1")
    host.check("input[name=anonymous]")
    shoot(host, artifacts, "agot-anonymous-lobby-form", "input[name=anonymous]")
    host.click("main form button[type=submit]")
    host.wait_for_url(re.compile(r".*/lobbies/\d+/$"))
    assert "anonymous players" in host.locator("main").inner_text()
    guest.goto(host.url)
    guest.click("#join")
    guest.wait_for_url(re.compile(r".*/games/\d+/$"))
    host.wait_for_url(guest.url)
    for page, me, other in ((host, *names), (guest, names[1], names[0])):
        page.wait_for_selector("#conn.on")
        page.wait_for_function("window.__westerosGame && window.__westerosGame.state()")
        rows = {r["seat"]: r["user"] for r in game_state(page)["seats"]}
        assert sorted(u for u in rows.values() if u) == sorted([me, "a faceless player"]), rows
        table = page.locator("#seats")
        table.get_by_text("a faceless player").wait_for()
        assert me in table.inner_text() and other not in page.content()
    # both people are online: the other's row says so, by seat
    host.wait_for_function("document.querySelectorAll('#seats .presence.on').length >= 2")
    shoot(host, artifacts, "agot-anonymous-players", "#seats")
