"""The deck builder in the browser (issue 30): a person pastes a Targaryen deck list as ThronesDB exports it, the
builder reads it and judges it (the server's validation: legal, and whether the site plays every card yet, in
words); an illegal list is refused in words (which rule, in a sentence); the deck is saved and listed among the
person's decks. Screenshots at 1440 and 390 px wide go to test-artifacts/."""
from __future__ import annotations

import re

from tests.browser.util import log_in, stage_users, wait_until

TARGARYEN = """Fire and Blood Test

House Targaryen
Banner of the Lion

Packs: From Core Set to Core Set

Plots (7):
1x A Clash of Kings (Core Set)
1x A Noble Cause (Core Set)
1x Calling the Banners (Core Set)
1x Counting Coppers (Core Set)
1x Heads on Spikes (Core Set)
1x Power Behind the Throne (Core Set)
1x Summons (Core Set)
"""


def _full_list(server) -> str:
    """The ready-made Targaryen deck's draw deck, as its export gives it (the plots above are ours)."""
    out = server.manage("shell", "-c", "from games.engine.lcg import data, decks; "
                        "print(decks.format_text(data.all_decks()['targaryen_lion_fire_and_gold'], 'x'))")
    text = out if isinstance(out, str) else out.stdout
    draw = text[text.index("Characters"):]
    return TARGARYEN + "\n" + draw


def test_build_a_targaryen_deck_by_paste_see_a_refusal_in_words_and_save_it(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    stage_users(server, ["db_daenerys"])
    page = new_page(1440, 1000)
    log_in(page, server.url, "db_daenerys")
    page.get_by_role("link", name="Decks").first.click()
    page.wait_for_url(re.compile(r"/decks/$"))
    page.get_by_role("heading", name="Ready-made decks").wait_for()
    # the list says "Loading…" until the decks API answers
    page.locator("#ready-decks li", has_text="Fire and Gold").first.wait_for()

    # an illegal list first: plots only, and a card that is not in the Core Set
    page.get_by_text("Import or export a list (ThronesDB text)").click()
    page.fill("#deck-import-text", TARGARYEN + "\nCharacters (1):\n3x Daenerys Targaryen (Core Set)\n1x Nobody Special (Core Set)\n")
    page.click("#deck-import")
    wait_until(page, lambda: "No card of the Core Set is called “Nobody Special”." in page.inner_text("#deck-import-said"),
               "the unread line told in words")
    wait_until(page, lambda: "The draw deck has 3 cards; it needs at least 60." in page.inner_text("#deck-status"),
               "the refusal in words")
    assert "This deck is not legal yet:" in page.inner_text("#deck-status")
    assert page.input_value("#deck-faction") == "targaryen" and page.input_value("#deck-agenda") == "banner_of_the_lion"
    page.screenshot(path=str(artifacts / "deck-builder-illegal-1440.png"), full_page=False)

    # the whole list: legal
    page.fill("#deck-import-text", _full_list(server))
    page.click("#deck-import")
    wait_until(page, lambda: "This deck follows the deck-building rules." in page.inner_text("#deck-status"),
               "the deck judged legal")
    status = page.inner_text("#deck-status")
    assert ("cannot be played on the site yet" in status) or ("You can bring it to a lobby" in status)
    assert "Plots: 7 of 7" in page.inner_text("#deck-counts")
    assert page.input_value("#deck-name") == "Fire and Blood Test"

    # one copy more of a card held three times: refused in words, then back
    page.locator("#deck-contents li", has_text="Daenerys Targaryen").get_by_role("button", name="One more copy of Daenerys Targaryen").click()
    wait_until(page, lambda: "Daenerys Targaryen appears 4 times; a deck may hold 3 copies of it at most." in page.inner_text("#deck-status"),
               "the copy limit in words")
    page.locator("#deck-contents li", has_text="Daenerys Targaryen").get_by_role("button", name="One copy of Daenerys Targaryen fewer").click()
    wait_until(page, lambda: "This deck follows the deck-building rules." in page.inner_text("#deck-status"), "legal again")

    # filters: the Targaryen characters of cost 7 with the Stormborn trait
    page.select_option("#filter-type", "character")
    page.fill("#filter-trait", "Stormborn")
    wait_until(page, lambda: "Daenerys Targaryen" in page.inner_text("#pool"), "the filtered pool")
    assert "Khal Drogo" not in page.inner_text("#pool")

    page.click("#deck-save")
    wait_until(page, lambda: "Saved as “Fire and Blood Test”." in page.inner_text("#deck-saved"), "saved")
    wait_until(page, lambda: "Fire and Blood Test" in page.inner_text("#my-decks"), "listed among your decks")
    assert "legal" in page.inner_text("#my-decks")
    page.screenshot(path=str(artifacts / "deck-builder-1440.png"), full_page=True)

    # on a phone, in Spanish (the browser's language): the script's words too
    phone = new_page(390, 844, locale="es-ES")
    log_in(phone, server.url, "db_daenerys")
    phone.goto(server.url + "/decks/")
    phone.locator("#my-decks li", has_text="Fire and Blood Test").get_by_role("button", name="Abrir").click()
    wait_until(phone, lambda: "Este mazo cumple las reglas de construcción de mazos." in phone.inner_text("#deck-status"),
               "opened on a phone, in Spanish")
    assert "Tramas: 7 de 7" in phone.inner_text("#deck-counts")
    phone.screenshot(path=str(artifacts / "deck-builder-390.png"), full_page=False)
    phone.locator("#pool").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "deck-builder-pool-es-390.png"), full_page=False)
    wide = phone.evaluate("""[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map(e => e.tagName + '.' + e.className + '#' + e.id)""")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), wide
