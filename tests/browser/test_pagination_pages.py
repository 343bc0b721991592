"""The pager under a long list (issue 27), in a real browser at a desktop's and a phone's width: the
lobby list shows a page of 50 with "Older", which opens the next page keeping the filter, and
"Newer" leads back; screenshots in test-artifacts/."""
from __future__ import annotations

from tests.browser.util import wait_until

STAGE = """
from accounts.models import User
from games.models import Lobby
from tournaments.models import Tournament
creator = User.objects.create_user("pager_creator", password="x")
for n in range(60):
    Lobby.objects.create(ruleset="agot", creator=creator, seat_count=3, time_limit=3600, ranked=True,
                         name=f"Ranked table {n}")
for n in range(55):
    Tournament.objects.create(name=f"Pager cup {n}", organizer=creator)
"""


def test_lobby_list_pages_at_both_widths(live_asgi_server, new_page, artifacts):
    live_asgi_server.manage("shell", "-c", STAGE)
    base = live_asgi_server.url
    for width, height in ((1440, 900), (390, 844)):
        page = new_page(width, height)
        page.goto(f"{base}/lobbies/?ranked=true")
        pager = page.locator("nav.pager")
        assert pager.locator(".pager-where").inner_text() == "Page 1 of 2"
        assert page.locator("table.lobbies tbody tr").count() == 50
        assert page.locator("a", has_text="Ranked table 59").count() == 1
        page.screenshot(path=str(artifacts / f"pager-lobbies-{width}.png"), full_page=True)
        pager.get_by_role("link", name="Older").click()
        page.wait_for_url("**page=2**")
        assert "ranked=true" in page.url
        # the older page drawn (CI once counted 11 rows at once after the URL changed)
        wait_until(page, lambda p=page: p.locator("table.lobbies tbody tr").count() == 10, "the older page's 10 lobbies")
        assert page.locator("a", has_text="Ranked table 0").count() == 1
        assert page.locator("select[name=ranked]").input_value() == "true"
        page.locator("nav.pager").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"pager-lobbies-older-{width}.png"))
        page.locator("nav.pager").get_by_role("link", name="Newer").click()
        page.wait_for_url(lambda url: "page=" not in url)
        page.goto(f"{base}/tournaments/?page=2")
        assert page.locator("nav.pager .pager-where").inner_text() == "Page 2 of 2"
        page.screenshot(path=str(artifacts / f"pager-tournaments-{width}.png"), full_page=True)
