"""The battlefield page composes an attack in full (issue 32), every choice made by clicking: the Combat
zone's free Attack (M35) with a melee attack's re-face and alignment (M58, M59), with a ranged attack's
2 in shift (M52) and (rules revision 5) against a Destructible piece, and the Attack action against a
Destructible terrain piece (M78); the hill (Elevated, the random terrain's 7) is drawn and named. Each position is the
engine's scenario setup (tests/browser/stage_minis_attacks.py); the server's state after the click is
checked. Screenshots of the controls at 1440 and 390 px go to test-artifacts/."""
from __future__ import annotations

import re

import pytest

from tests.browser.test_minis_battle import _act, _no_ids, _pending
from tests.browser.util import PASSWORD, game_state, log_in, wait_until

pytestmark = pytest.mark.browser


def _stage(server, names: list[str], setup: str) -> int:
    out = server.manage("shell", "-c", "from tests.browser.stage_minis_attacks import attack_game; "
                        f"attack_game({names!r}, {PASSWORD!r}, {setup!r})")
    return int(re.search(r"game (\d+)", out).group(1))


def _open(new_page, server, name: str, game_id: int, width: int = 1440, height: int = 1000):
    page = new_page(width, height)
    log_in(page, server.url, name)
    page.goto(f"{server.url}/games/{game_id}/")
    page.wait_for_selector("#conn.on")
    page.wait_for_selector("#decision h2:has-text('Your decision')")
    return page


def _status(page, start: str) -> str:
    """The attack's check, once answered (its line starts with `start`)."""
    page.wait_for_function("(() => { const b = document.getElementById('attack-status');"
                           " return b && /^(The attack can be made|Not allowed)/.test(b.textContent); })()")
    text = page.locator("#attack-status").inner_text()
    assert text.startswith(start), text
    return text


def _claim_the_combat_zone(page) -> None:
    box = page.locator("#decision")
    _act(page, box.locator("button.choice", has_text="Activate Tyrion Lannister"))
    _act(page, box.locator("button[data-action*=claim]", has_text="Claim Combat"))
    assert _pending(page) == "choose"
    page.wait_for_selector("#decision h2:has-text('the Combat zone')")


def test_the_combat_zones_free_attack_re_faces_and_aligns_in_melee(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    game_id = _stage(server, ["mac_cersei", "mac_jon"], "zone_melee")
    page = _open(new_page, server, "mac_jon", game_id)
    _claim_the_combat_zone(page)
    box = page.locator("#decision")
    # the one unit that can attack is chosen for the player; its target and attack, then the form
    assert "Attack with Lannister Guardsmen" in box.inner_text()
    box.locator("button[data-target=sworn_swords]").click()
    # as it stands the enemy is in the Guardsmen's flank: aligning alone is refused (M59), in words
    box.locator("#attack-align").select_option("left")
    _status(page, "Not allowed: Stark Sworn Swords is not in Lannister Guardsmen's Front")
    assert page.locator("#confirm").is_disabled()
    box.locator("#attack-face").check()
    _status(page, "The attack can be made")
    _no_ids(box.inner_text())
    page.screenshot(path=str(artifacts / "minis-zone-melee-1440.png"), full_page=False)
    phone = _open(new_page, server, "mac_jon", game_id, 390, 844)
    phone.locator("#decision button[data-target=sworn_swords]").click()
    phone.locator("#decision #attack-face").check()
    phone.locator("#decision #attack-align").select_option("left")
    _status(phone, "The attack can be made")
    phone.locator("#decision").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "minis-zone-melee-390.png"), full_page=False)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    _act(page, "#confirm")
    s = game_state(page)["view"]
    # re-faced to front the Sworn Swords (facing east), then 50 % aligned to their left (scenario 38's pose, slid 2.75 in)
    assert s["units"]["guardsmen"]["facing"] == 90 and s["units"]["guardsmen"]["at"] == [26.75, 14.85]
    la = s["last_attack"]
    assert (la["attacker"], la["defender"], la["kind"], la["arc"]) == ("guardsmen", "sworn_swords", "melee", "front")


def test_the_combat_zones_free_ranged_attack_shifts_first(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    game_id = _stage(server, ["mac_tywin", "mac_arya"], "zone_ranged")
    page = _open(new_page, server, "mac_arya", game_id)
    _claim_the_combat_zone(page)
    box = page.locator("#decision")
    # the server lists no attack as the units stand (13.5 in away): the crossbowmen are offered for the shift
    target = box.locator("button[data-target=sworn_swords][data-attack=Crossbow]")
    wait_until(page, lambda: "beyond 12 in" in box.inner_text(), "the check of the attack as it stands")
    assert "as it stands, Stark Sworn Swords is beyond 12 in (a shift of up to 2 in may bring it in)" in box.inner_text()
    target.click()
    _status(page, "Not allowed: Stark Sworn Swords is beyond 12 in")
    box.locator("#attack-shift").select_option("back")
    box.locator("#attack-shift-distance").select_option("2")
    _status(page, "Not allowed: after the shift the target is out of range")
    assert page.locator("#field .mn-shift-preview").count() == 1
    box.locator("#attack-shift").select_option("forward")
    box.locator("#attack-shift-distance").select_option("2")
    _status(page, "The attack can be made")
    _no_ids(box.inner_text())
    page.screenshot(path=str(artifacts / "minis-zone-ranged-1440.png"), full_page=False)
    phone = _open(new_page, server, "mac_arya", game_id, 390, 844)
    phone.locator("#decision button[data-target=sworn_swords]").click()
    phone.locator("#decision #attack-shift").select_option("forward")
    phone.locator("#decision #attack-shift-distance").select_option("2")
    _status(phone, "The attack can be made")
    phone.locator("#decision #attack-shift").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "minis-zone-ranged-390.png"), full_page=False)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    _act(page, "#confirm")
    s = game_state(page)["view"]
    assert s["units"]["xbows"]["at"] == [24, 12]
    la = s["last_attack"]
    assert (la["attacker"], la["defender"], la["attack"], la["kind"]) == ("xbows", "sworn_swords", "Crossbow", "ranged")


def test_a_unit_attacks_a_destructible_piece_away(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    game_id = _stage(server, ["mac_robb", "mac_jaime"], "terrain")
    page = _open(new_page, server, "mac_robb", game_id)
    box = page.locator("#decision")
    _act(page, box.locator("button.choice", has_text="Activate Stark Sworn Swords"))
    box.locator("[data-sub=terrain]").click()
    # the two Destructible pieces within 1 in, by name, distance and side; not the Forest nor the far Palisade
    page.wait_for_function("!/checking/.test(document.getElementById('decision').innerText)")
    offered = box.locator("button[data-terrain-id]")
    assert offered.count() == 2
    words = box.inner_text()
    assert "Destroy the Hedge, 0.2 in away, to the left" in words or "Destroy the Hedge, 0.3 in away, to the left" in words, words
    assert "Destroy the Palisade, 0.5 in away, up the table" in words, words
    _no_ids(words)
    box.locator("button[data-terrain-id=palisade]").click()
    assert page.locator("#field .mn-terrain-pick").count() == 1
    page.screenshot(path=str(artifacts / "minis-terrain-attack-1440.png"), full_page=False)
    phone = _open(new_page, server, "mac_robb", game_id, 390, 844)
    phone.locator("#decision [data-sub=terrain]").click()
    phone.locator("#decision button[data-terrain-id=hedge]").click()
    phone.wait_for_function("!/checking/.test(document.getElementById('decision').innerText)")
    phone.locator("#decision").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "minis-terrain-attack-390.png"), full_page=False)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    _act(page, box.locator("#confirm", has_text="Destroy the Palisade"))
    s = game_state(page)["view"]
    assert sorted(t["id"] for t in s["terrain"]) == ["far_palisade", "forest", "hedge"]
    assert s["units"]["sworn_swords"]["activated"] and s["decision"]["seats"] == ["lannister"]
    wait_until(page, lambda: page.locator("#field [data-terrain=palisade]").count() == 1, "the far Palisade alone drawn")


def test_the_combat_zones_free_attack_destroys_a_piece_and_the_hill_is_named(live_asgi_server, new_page, artifacts):
    """Revision 5 (scenario 77): the zone offers the Destructible pieces within 1 in of the unit, as the
    server lists them, by name, distance and side; the Forest (not Destructible) is not offered."""
    server = live_asgi_server
    game_id = _stage(server, ["mac_edmure", "mac_kevan"], "zone_terrain")
    page = _open(new_page, server, "mac_kevan", game_id)
    hill = page.locator("#field [data-terrain=hill]")
    assert hill.locator("text").text_content() == "Hill" and hill.locator("circle.mn-hill-contour").count() == 2
    assert hill.locator("title").first.text_content() == "Hill: elevated"
    _claim_the_combat_zone(page)
    box = page.locator("#decision")
    # no enemy in reach: the one unit the server lists is chosen for the player, its pieces offered
    words = box.inner_text()
    assert "Attack with Lannister Guardsmen" in words and "No target." not in words, words
    assert "A Destructible piece within 1 in can be attacked: it is removed from the game." in words
    offered = box.locator("button[data-terrain-id]")
    assert sorted(offered.evaluate_all("bs => bs.map(b => b.dataset.terrainId)")) == ["hedge", "wall"]
    # Lannister's page shows its own edge at the bottom: the Hedge, north of the Guardsmen, lies down the screen
    assert "Destroy the Hedge, 0.5 in away, down the table" in words, words
    assert re.search(r"Destroy the Wall, 0\.[23] in away, to the right", words), words
    assert "Forest" not in words
    _no_ids(words)
    box.locator("button[data-terrain-id=hedge]").click()
    assert page.locator("#field .mn-terrain-pick").count() == 1
    page.screenshot(path=str(artifacts / "minis-zone-terrain-1440.png"), full_page=False)
    phone = _open(new_page, server, "mac_kevan", game_id, 390, 844)
    phone.locator("#decision button[data-terrain-id=hedge]").click()
    phone.locator("#decision #confirm").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "minis-zone-terrain-390.png"), full_page=False)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    _act(page, box.locator("#confirm", has_text="Destroy the Hedge"))
    s = game_state(page)["view"]
    assert sorted(t["id"] for t in s["terrain"]) == ["forest", "hill", "wall"]
    assert s["units"]["guardsmen"]["wounds"] == 12 and s["board"]["swords"] in ("30104", None)
    wait_until(page, lambda: page.locator("#field [data-terrain=hedge]").count() == 0, "the Hedge gone from the battlefield")
    wait_until(page, lambda: "Lannister Guardsmen attacks the hedge and removes it from the battlefield." in
               page.inner_text("body"), "the log's sentence")


def _compose_in_both(pages, version: int, steps) -> None:
    """The same choices clicked on each page (Spanish, English) once it shows `version`."""
    for page in pages:
        page.wait_for_function(f"window.__westerosGame.state().version >= {version}")
        page.wait_for_selector("#decision h2 .deadline, #decision h2")
        steps(page)
        page.wait_for_function("!/checking|comprobando/i.test(document.getElementById('decision').innerText)")


def test_the_attack_controls_read_in_spanish(live_asgi_server, new_page, artifacts):
    from tests.browser.test_minis_page_in_spanish import english_left, only_names

    server = live_asgi_server
    for setup, name in (("terrain", "mac_es_robb"), ("zone_melee", "mac_es_jon"), ("zone_terrain", "mac_es_kevan")):
        game_id = _stage(server, [name, name + "_b"] if setup == "terrain" else [name + "_b", name], setup)
        spanish, english = new_page(1440, 1000, locale="es-ES"), new_page(1440, 1000, locale="en-GB")
        for page in (spanish, english):
            log_in(page, server.url, name)
            page.goto(f"{server.url}/games/{game_id}/")
            page.wait_for_selector("#conn.on")
        spanish.wait_for_selector("#decision h2:has-text('Tu decisión')")
        box = spanish.locator("#decision")
        if setup == "terrain":
            _act(spanish, box.locator("button.choice[data-action*=activate]"))

            def steps(page):
                page.locator("#decision [data-sub=terrain]").click()
                page.locator("#decision button[data-terrain-id=palisade]").click()
        elif setup == "zone_terrain":
            _act(spanish, box.locator("button.choice[data-action*=activate]"))
            _act(spanish, box.locator("button[data-action*=swords]"))

            def steps(page):
                page.locator("#decision button[data-terrain-id=hedge]").click()
        else:
            _act(spanish, box.locator("button.choice[data-action*=activate]"))
            _act(spanish, box.locator("button[data-action*=swords]"))

            def steps(page):
                page.locator("#decision button[data-target=sworn_swords]").click()
                page.locator("#decision #attack-face").check()
                page.locator("#decision #attack-align").select_option("left")
                page.wait_for_function("/^(The attack can be made|El ataque se puede hacer)/.test(document.getElementById('attack-status').textContent)")
        _compose_in_both((spanish, english), game_state(spanish)["version"], steps)
        words = spanish.inner_text("#decision")
        expected = {"terrain": "Destruye: Empalizada, a 0,5”, arriba", "zone_terrain": "Destruye: Seto, a 0,5”, abajo",
                    "zone_melee": "El ataque se puede hacer."}[setup]
        assert expected in words, words
        if setup == "zone_terrain":  # the hill, a piece the seed does not print, named in each language
            assert spanish.locator("#field [data-terrain=hill] text").text_content() == "Colina"
            assert english.locator("#field [data-terrain=hill] text").text_content() == "Hill"
        # lines with this test's players' names: the names aside, Spanish
        left = {line for line in english_left(spanish, english) if not only_names(re.sub(r"mac_es_\w+", " ", line))}
        assert not left, f"{setup}: English left on the Spanish page: {sorted(left)}"
        spanish.screenshot(path=str(artifacts / f"es-minis-attack-{setup}-1440.png"), full_page=False)
