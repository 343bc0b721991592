"""Challenges in the browser (issue 26): one player challenges another from the other's profile; the
other accepts from the home page (on a phone) and lands at the game, and the challenger's
challenges page follows the challenge to the same game. Screenshots of each new page at 1440 and
390 px wide go to test-artifacts/."""
from __future__ import annotations

import re

from tests.browser.util import log_in, stage_users


def test_challenge_from_the_profile_accepted_from_the_home_page(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    stage_users(server, ["ch_ygritte", "ch_jon", "ch_ghost_bot"])
    server.manage("shell", "-c", "from accounts.models import User; "
                  "User.objects.filter(username='ch_ghost_bot').update(is_bot=True)")
    wide, phone = new_page(1440, 1000), new_page(390, 844)
    log_in(wide, server.url, "ch_ygritte")
    log_in(phone, server.url, "ch_jon")

    # the list of bots, on both widths
    for page, width in ((wide, 1440), (phone, 390)):
        page.goto(server.url + "/bots/")
        page.get_by_role("link", name="Challenge").first.wait_for()
        assert "ch_ghost_bot" in page.inner_text("main")
        page.screenshot(path=str(artifacts / f"challenge-bots-{width}.png"), full_page=True)

    # the form, from jon's profile; the phone's form too (jon challenging ygritte), not sent
    wide.goto(server.url + "/users/ch_jon/")
    wide.get_by_role("link", name="Challenge ch_jon").click()
    wide.wait_for_url(re.compile(r"/challenges/new/ch_jon/$"))
    wide.select_option("#ruleset", "btwixt")
    assert wide.locator("input[name=others]").is_visible()  # B'Twixt seats 3 to 6: name the others
    wide.screenshot(path=str(artifacts / "challenge-form-btwixt-1440.png"), full_page=True)
    phone.goto(server.url + "/challenges/new/ch_ygritte/")
    phone.select_option("#ruleset", "agot")
    phone.screenshot(path=str(artifacts / "challenge-form-agot-390.png"), full_page=True)

    # a refusal in words: B'Twixt with three players but nobody else named
    wide.click("button:has-text('Send the challenge')")
    assert "so name 2 players to challenge besides you" in wide.inner_text(".errors")
    wide.screenshot(path=str(artifacts / "challenge-form-refused-1440.png"), full_page=True)

    # the card game: two players (a joust) unless a melee is chosen, the names field hidden for the joust
    wide.select_option("#ruleset", "lcg")
    assert not wide.locator("input[name=others]").is_visible()
    wide.select_option("#id_lcg_seats", "4")
    assert wide.locator("input[name=others]").is_visible()  # a melee: name the others
    wide.screenshot(path=str(artifacts / "challenge-form-lcg-melee-1440.png"), full_page=True)
    wide.select_option("#id_lcg_seats", "2")
    assert not wide.locator("input[name=others]").is_visible()
    wide.check("input[name=ranked]")
    wide.click("button:has-text('Send the challenge')")
    wide.wait_for_url(re.compile(r"/challenges/$"))
    assert "Challenge sent to ch_jon." in wide.inner_text(".messages")
    assert "ch_jon: not answered yet" in wide.inner_text("#outgoing")
    wide.screenshot(path=str(artifacts / "challenges-outgoing-1440.png"), full_page=True)

    # jon: the navigation counts it; the challenges page and the home page offer Accept and Decline
    phone.goto(server.url + "/challenges/")
    phone.locator("#incoming .challenge").wait_for()
    assert "ch_ygritte challenges you to a ranked game of A Game of Thrones: The Card Game" in phone.inner_text("#incoming")
    phone.screenshot(path=str(artifacts / "challenges-incoming-390.png"), full_page=True)
    phone.set_viewport_size({"width": 1440, "height": 1000})
    phone.screenshot(path=str(artifacts / "challenges-incoming-1440.png"), full_page=True)
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(server.url + "/")
    section = phone.locator(".home-challenges")
    section.wait_for()
    section.scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "challenge-home-390.png"), full_page=True)
    phone.set_viewport_size({"width": 1440, "height": 1000})  # the same section, wide
    phone.screenshot(path=str(artifacts / "challenge-home-1440.png"), full_page=True)
    phone.set_viewport_size({"width": 390, "height": 844})
    section.get_by_role("button", name="Accept").click()
    phone.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = phone.url
    # the challenger's challenges page goes to the same game on its own
    wide.wait_for_url(game_url, timeout=30000)
    assert "Challenges (" not in phone.inner_text("header")
