"""The card game's deck choices in Chromium (issue 30): a card-game tournament's registration form offers your saved
legal decks and the ready-made ones, and registers you with the one chosen; the challenges page lets the person
accepting a card-game challenge choose their deck. At 1440 and 390 px, screenshots in test-artifacts/."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import log_in, stage_users

pytestmark = pytest.mark.browser
WIDTHS = ((1440, 900), (390, 844))


def stage(server, name: str, other: str) -> tuple[int, int, int]:
    """A saved legal deck of `name`'s, a card-game tournament open for registration and a card-game challenge from
    `other` to `name`: (deck id, tournament id, challenge id)."""
    code = (
        "from accounts.models import User\n"
        "from tests.test_lcg_saved_decks_play import playable_legal\n"
        "from games.models import Deck\n"
        "from tournaments import services as T\n"
        "from challenges.services import ChallengeRequest, do_create_challenge\n"
        f"me, other = User.objects.get(username={name!r}), User.objects.get(username={other!r})\n"
        "cards = playable_legal('tyrell')\n"
        "d = Deck.objects.create(owner=me, name='Roses of Highgarden', faction=cards['faction'], agenda='',"
        " plots=cards['plots'], draw=cards['draw'])\n"
        "t = T.do_create_tournament(other, T.TournamentSettings(name='Joust at the Tower of Joy', ruleset='lcg',"
        " seats_per_table=2, rounds=3))\n"
        "c = do_create_challenge(other, ChallengeRequest(ruleset='lcg', users=[me.username], time_limit=3600))\n"
        "print('ids', d.pk, t.pk, c.pk)\n")
    out = server.manage("shell", "-c", code)
    return tuple(int(x) for x in re.search(r"ids (\d+) (\d+) (\d+)", out).groups())


def test_register_and_accept_with_a_chosen_deck(live_asgi_server, new_page, artifacts):
    for width, height in WIDTHS:
        name, other = f"tcd_{width}", f"tcd_org_{width}"
        stage_users(live_asgi_server, [name, other])
        deck, tid, cid = stage(live_asgi_server, name, other)
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, name)

        page.goto(f"{live_asgi_server.url}/tournaments/{tid}/")
        select = page.locator("label.register-deck select[name=deck]")
        assert select.is_visible()
        options = select.locator("option").all_inner_texts()
        assert options[0] == "Roses of Highgarden (your deck)" and len(options) > 1
        assert "The others see only its House and agenda." in page.locator(".actions").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
        page.locator(".actions").screenshot(path=str(artifacts / f"tournament-register-deck-{width}.png"))
        select.select_option(f"deck:{deck}")
        page.locator(".actions form button[type=submit]").first.click()
        page.wait_for_url(re.compile(rf"/tournaments/{tid}/$"))
        assert "Your deck: Roses of Highgarden." in page.locator(".actions").inner_text()
        page.screenshot(path=str(artifacts / f"tournament-registered-deck-{width}.png"), full_page=True)

        page.goto(f"{live_asgi_server.url}/challenges/")
        row = page.locator(f"#challenge-{cid}")
        chooser = row.locator("select[name=deck]")
        assert chooser.is_visible()
        assert "Roses of Highgarden (your deck)" in chooser.locator("option").all_inner_texts()
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
        row.screenshot(path=str(artifacts / f"challenge-accept-deck-{width}.png"))
        chooser.select_option(f"deck:{deck}")
        row.locator("button.accept").click()
        page.wait_for_url(re.compile(r"/games/\d+/$"))


def test_the_organize_form_offers_open_deck_lists(live_asgi_server, new_page, artifacts):
    for width, height in WIDTHS:
        name = f"tcd_new_{width}"
        stage_users(live_asgi_server, [name])
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, name)
        page.goto(f"{live_asgi_server.url}/tournaments/new/")
        tick = page.locator("input[name=open_decklists]")
        assert tick.is_visible() and not tick.is_checked()
        assert "every player sees the others' deck lists" in page.locator("main").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
        tick.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"tournament-new-open-decklists-{width}.png"))
