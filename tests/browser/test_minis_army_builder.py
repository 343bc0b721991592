"""The army builder in the browser (issue 33): a person starts from the Stark starter army, makes it a 40-point
army (VP 10, M126), adds an NCU, sees a refusal in words (a second Catelyn Stark: characters are unique, M7),
takes it back, attaches a captain, saves it and finds it among their armies, then plays it against the computer
from the game's page (a 40-point game, 10 VP to win); on a phone, in Spanish, the army
opens with its words in Spanish and nothing runs off the screen. Screenshots at 1440 and 390 px wide go to
test-artifacts/."""
from __future__ import annotations

import re

from tests.browser.util import log_in, stage_users, wait_until


def test_build_a_40_point_army_see_a_refusal_in_words_and_save_it(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    stage_users(server, ["ab_robb"])
    page = new_page(1440, 1000)
    log_in(page, server.url, "ab_robb")
    page.get_by_role("link", name="Armies").first.click()
    page.wait_for_url(re.compile(r"/armies/$"))
    page.locator("#starter-armies li", has_text="Stark starter army").first.wait_for()
    page.locator("#starter-armies li", has_text="Stark starter army").get_by_role("button", name="Start from it").click()
    wait_until(page, lambda: "30 of 30 points" in page.inner_text("#army-status"), "the starter army judged")
    assert "This army follows the army-building rules." in page.inner_text("#army-status")
    assert page.input_value("#army-commander") == "20201"
    assert "2× Winter's Might" in page.inner_text("#army-tactics")

    page.fill("#army-size", "40")
    wait_until(page, lambda: "30 of 40 points · 10 victory points" in page.inner_text("#army-status"), "40 points, 10 VP")
    page.get_by_role("button", name="Add Catelyn Stark, Lady of Winterfell").click()
    wait_until(page, lambda: "Catelyn Stark appears more than once" in page.inner_text("#army-status"), "the refusal in words")
    assert "This army is not legal yet:" in page.inner_text("#army-status")
    page.screenshot(path=str(artifacts / "army-builder-illegal-1440.png"), full_page=False)
    page.locator("#army-ncus li").nth(1).get_by_role("button", name="Remove Catelyn Stark, Lady of Winterfell").click()
    page.get_by_role("button", name="Add Sansa Stark, Little Bird").click()
    second = page.locator("#army-units li").nth(1)
    second.get_by_role("combobox").select_option("20204")  # a Sworn Sword Captain on the second Sworn Swords
    wait_until(page, lambda: "35 of 40 points" in page.inner_text("#army-status"), "35 points")
    assert "This army follows the army-building rules." in page.inner_text("#army-status")
    assert "Sansa Stark, Little Bird (4)" in page.input_value("#army-export-text")

    page.fill("#army-name", "Winter Host")
    page.click("#army-save")
    wait_until(page, lambda: "Saved as “Winter Host”." in page.inner_text("#army-saved"), "saved")
    wait_until(page, lambda: "Winter Host" in page.inner_text("#my-armies"), "listed among your armies")
    assert "legal, playable" in page.inner_text("#my-armies")
    page.screenshot(path=str(artifacts / "army-builder-1440.png"), full_page=True)

    phone = new_page(390, 844, locale="es-ES")
    log_in(phone, server.url, "ab_robb")
    phone.goto(server.url + "/armies/")
    phone.locator("#my-armies li", has_text="Winter Host").get_by_role("button", name="Abrir").click()
    wait_until(phone, lambda: "Este ejército cumple las reglas de preparación de ejércitos." in phone.inner_text("#army-status"),
               "opened on a phone, in Spanish")
    assert "35 de 40 puntos" in phone.inner_text("#army-status")
    phone.screenshot(path=str(artifacts / "army-builder-390.png"), full_page=False)
    phone.locator("#army-units").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "army-builder-units-es-390.png"), full_page=False)
    wide = phone.evaluate("""[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map(e => e.tagName + '.' + e.className + '#' + e.id)""")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), wide

    # the army against the computer, through the pages: its faction, its 40 points, 10 VP to win (M126)
    page.goto(server.url + "/play/minis/")
    choice = page.locator("select[name=my_army] option", has_text="Winter Host (Stark, 35 of 40 points")
    page.select_option("select[name=my_army]", choice.get_attribute("value"))
    page.screenshot(path=str(artifacts / "army-play-computer-1440.png"), full_page=True)
    page.get_by_role("button", name="Play now against the computer").click()
    page.wait_for_url(re.compile(r"/games/\d+"))
    game_id = int(re.search(r"/games/(\d+)", page.url).group(1))
    out = server.manage("shell", "-c", f"from games.models import Game; g = Game.objects.get(pk={game_id}); "
                        "print(g.state['game_size'], g.state['threshold'], g.state['players']['stark']['list']['ncus'])")
    text = out if isinstance(out, str) else out.stdout
    assert "40 10 ['30201', '30202']" in text, text
