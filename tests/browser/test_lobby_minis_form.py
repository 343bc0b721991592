"""The new-lobby form in Chromium with the miniatures game chosen (issue 19): the Players field
goes (two seats), the seats are "Armies", the starter armies are named unit by unit, the modes
other than Here We Stand are listed but cannot be chosen, random terrain; the lobby made says its
options in words and a second player picks the free army on the lobby page. At 1440 and 390 px,
screenshots in test-artifacts/."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import PASSWORD, log_in

pytestmark = pytest.mark.browser
WIDTHS = ((1440, 900), (390, 844))


def stage_users(names: list[str]) -> None:
    from accounts.models import User

    for n in names:
        if not User.objects.filter(username=n).exists():
            User.objects.create_user(username=n, email=f"{n}@example.com", password=PASSWORD)
    print("users", *names)


def test_minis_lobby_form(live_asgi_server, new_page, artifacts):
    names = [f"mlf_{w}_{r}" for w, _ in WIDTHS for r in ("a", "b")]
    live_asgi_server.manage("shell", "-c", f"from tests.browser.test_lobby_minis_form import *; stage_users({names!r})")
    for width, height in WIDTHS:
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, f"mlf_{width}_a")
        page.goto(live_asgi_server.url + "/lobbies/new/")
        page.select_option("select[name=ruleset]", "minis")
        form = page.locator("main form")
        assert not page.locator("input[name=seats]").is_visible()  # two seats
        assert page.locator("label:has(select[name=house_choice])").inner_text().startswith("Armies")
        assert not page.locator("select[name=seat]").is_visible() and not page.locator("select[name=my_deck]").is_visible()
        text = form.inner_text()
        assert "Stark Sworn Swords with Robb Stark, The Wolf Lord (commander)" in text
        assert "Lannister Guardsmen with Jaime Lannister, The Kingslayer (commander)" in text
        assert not re.search(r"list_|\b\d{5}\b|[{}\[\]]", text), text[:400]
        mode = page.locator("select[name=minis_mode]")
        assert mode.input_value() == "here_we_stand"
        assert mode.locator("option[disabled]").count() == 9
        assert "A Clash of Kings (not available yet)" in mode.inner_text()
        page.select_option("select[name=house_choice]", "pick")
        page.select_option("select[name=army]", "lannister")
        form.get_by_label(re.compile("Random terrain")).check()
        width_now = page.evaluate("document.documentElement.scrollWidth")
        assert width_now <= width + 2, f"the form is {width_now}px wide at {width}px"
        page.screenshot(path=str(artifacts / f"minis-lobby-form-{width}.png"), full_page=True)
        page.click("main form button[type=submit]")
        page.wait_for_url(re.compile(r"/lobbies/\d+/$"))
        main = page.locator("main").inner_text()
        assert "A Song of Ice and Fire: Tabletop Miniatures" in main and "Here We Stand" in main
        assert "random terrain" in main and "seats: players pick in join order (a saved army takes a seat of its house)" in main
        assert f"mlf_{width}_a · Lannister" in main
        lobby_url = page.url
        other = new_page(width, height)
        log_in(other, live_asgi_server.url, f"mlf_{width}_b")
        other.goto(lobby_url)
        army = other.get_by_label("Army", exact=True)
        assert army.locator("option").all_inner_texts() == ["Stark"]
        other.screenshot(path=str(artifacts / f"minis-lobby-join-{width}.png"), full_page=True)
        other.click("#join")
        other.wait_for_url(re.compile(r"/games/\d+/$"))


def stage_armies(names: list[str]) -> None:
    """Each user with a saved 40-point army of the starter box: the first Lannister (Gregor commands), the second Stark."""
    from accounts.models import User
    from games.models import Army

    lannister = {"faction": "lannister", "commander": "20116", "ncus": ["30104", "30105"],
                 "units": [{"unit": "10101", "attachment": "20116"}, {"unit": "10101", "attachment": "20102"},
                           {"unit": "10102", "attachment": "20101"}, {"unit": "10103", "attachment": "20117"}]}
    stark = {"faction": "stark", "commander": "20201", "ncus": ["30201"],
             "units": [{"unit": "10201", "attachment": "20201"}, {"unit": "10201"}, {"unit": "10203", "attachment": "20203"},
                       {"unit": "10202"}, {"unit": "10204"}]}
    for n, army, name in zip(names, (lannister, stark), ("Mountain Host", "Winter Host"), strict=True):
        user = User.objects.filter(username=n).first() or User.objects.create_user(
            username=n, email=f"{n}@example.com", password=PASSWORD)
        Army.objects.create(owner=user, name=name, game_size=40, **army)
    print("armies", *names)


def test_two_against_two_lobby_with_each_persons_army(live_asgi_server, new_page, artifacts):
    """Issue 33: the table (two against two), the game size (40) and your saved army on the form; a second person
    joins with theirs from the lobby page; the computer plays the other two seats and the game starts."""
    for width, height in WIDTHS:
        names = [f"mlt_{width}_a", f"mlt_{width}_b"]
        live_asgi_server.manage("shell", "-c", f"from tests.browser.test_lobby_minis_form import *; stage_armies({names!r})")
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, names[0])
        page.goto(live_asgi_server.url + "/lobbies/new/")
        page.select_option("select[name=ruleset]", "minis")
        page.select_option("select[name=minis_table]", "teams")
        page.select_option("select[name=game_size]", "40")
        page.select_option("select[name=my_army]", label="Mountain Host (40 points)")
        page.fill("input[name=computer_seats]", "2")
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
        page.screenshot(path=str(artifacts / f"minis-lobby-form-2v2-{width}.png"), full_page=True)
        page.click("main form button[type=submit]")
        page.wait_for_url(re.compile(r"/lobbies/\d+/$"))
        main = page.locator("main").inner_text()
        assert "two against two" in main and "armies of 40 points" in main and "Mountain Host (your army)" in main
        lobby_url = page.url
        other = new_page(width, height)
        log_in(other, live_asgi_server.url, names[1])
        other.goto(lobby_url)
        assert "an army of Lannister (33 points)" in other.locator("main").inner_text()
        other.select_option("select[name=army]", label="Winter Host")
        other.screenshot(path=str(artifacts / f"minis-lobby-join-2v2-{width}.png"), full_page=True)
        other.click("#join")
        other.wait_for_url(re.compile(r"/games/\d+/$"))
        other.locator("#scoreline .mn-team").first.wait_for()
        assert other.locator("#scoreline .mn-team").count() == 2
        assert f"{names[1]} (Stark)" in other.inner_text("#scoreline")


def test_an_assign_lobby_says_what_each_seat_brings_and_a_swap_keeps_the_armies(live_asgi_server, new_page, artifacts):
    """Issue 33: the lobby's page says, seat by seat, the saved army each person brings or the starter army they play;
    the creator of an "assign" lobby gives their own seat to a person without an army: the creator's army follows
    them to the other Lannister seat."""
    for width, height in WIDTHS:
        names = [f"mla_{width}_a", f"mla_{width}_b"]
        newcomer = f"mla_{width}_c"
        live_asgi_server.manage("shell", "-c", f"from tests.browser.test_lobby_minis_form import *; stage_armies({names!r}); "
                                               f"stage_users([{newcomer!r}])")
        page = new_page(width, height)
        log_in(page, live_asgi_server.url, names[0])
        page.goto(live_asgi_server.url + "/lobbies/new/")
        page.select_option("select[name=ruleset]", "minis")
        page.select_option("select[name=minis_table]", "teams")
        page.select_option("select[name=game_size]", "40")
        page.select_option("select[name=house_choice]", "assign")
        page.select_option("select[name=my_army]", label="Mountain Host (40 points)")
        page.click("main form button[type=submit]")
        page.wait_for_url(re.compile(r"/lobbies/\d+/$"))
        lobby_url = page.url
        for name, army in ((names[1], "Winter Host"), (newcomer, None)):
            other = new_page(width, height)
            log_in(other, live_asgi_server.url, name)
            other.goto(lobby_url)
            if army:
                other.select_option("select[name=army]", label=army)
            other.click("#join")
            other.wait_for_url(lobby_url)
        page.goto(lobby_url)
        members = page.locator("#members")
        assert "seats: given by the creator (a saved army takes a seat of its house)" in page.locator("main").inner_text()
        assert "armies: " not in page.locator("main").inner_text()
        lines = members.locator("> li")
        assert re.search(rf"{names[0]} · Lannister · brings Mountain Host \(your army\)", lines.nth(0).inner_text())
        assert re.search(rf"{names[1]} · Stark · brings an army of Stark \(\d+ points\)", lines.nth(1).inner_text())
        assert re.search(rf"{newcomer} · plays the starter army of the seat they are given", lines.nth(2).inner_text())
        # the creator gives the newcomer their own seat: the creator moves, with their army, to Lannister's second army
        page.get_by_label(f"Army for {newcomer}").select_option("lannister")
        lines.nth(2).get_by_role("button", name="Assign").click()
        page.wait_for_url(lobby_url)
        text = members.inner_text()
        assert f"{names[0]} · Lannister (second army) · brings Mountain Host (your army)" in text, text
        assert f"{newcomer} · Lannister · plays the Lannister starter army" in text, text
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 2
        page.screenshot(path=str(artifacts / f"minis-lobby-assign-{width}.png"), full_page=True)
