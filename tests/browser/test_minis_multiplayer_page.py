"""The battlefield page with three or four armies (issue 33, M130 teams, M131 free-for-all): a colour per army, the
72 x 48 in table of two against two fitting the screen at 1440 px, the team's VP and the two teammates both asked
in their team's turn; a free-for-all's four corner zones and each player's VP; unit names at least 11 px high on a
390 px phone once zoomed in. The games are started through the lobby service and played on by the engine's player
to round 2 (tests/browser/stage_minis_multiplayer.py); screenshots at 1440 and 390 px go to test-artifacts/."""
from __future__ import annotations

import re

import pytest

from tests.browser.util import PASSWORD, log_in, wait_until

pytestmark = pytest.mark.browser

STAGE = ("from tests.browser.stage_minis_multiplayer import multiplayer_game; "
         "multiplayer_game({names!r}, {password!r}, seats={seats}, multiplayer={kind!r})")


def stage(server, names: list[str], seats: int, kind: str) -> str:
    out = server.manage("shell", "-c", STAGE.format(names=names, password=PASSWORD, seats=seats, kind=kind))
    return re.search(r"game (\d+)", out).group(1)


def name_height_when_zoomed(page) -> float:
    """Zoom in on the first unit of the viewer's army (the mouse wheel over it), then the on-screen height of its
    name."""
    page.locator("#field").scroll_into_view_if_needed()
    tray = page.locator("#field .mn-tray.clickable, #field .mn-tray").first
    box = tray.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(10):
        page.mouse.wheel(0, -100)
    tray.locator(".mn-name").scroll_into_view_if_needed()
    return page.evaluate("""(() => { const t = document.querySelector('#field .mn-tray.clickable .mn-name, #field .mn-tray .mn-name');
        const m = t.getScreenCTM(); return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); })()""")


def test_two_against_two_people_and_computers_on_the_72_by_48_table(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    game_id = stage(server, ["mp_robb", "mp_tywin"], 4, "teams")
    page = new_page(1440, 1000)
    log_in(page, server.url, "mp_robb")
    page.goto(f"{server.url}/games/{game_id}/")
    score = page.locator("#scoreline")
    score.locator(".mn-team").first.wait_for()
    assert score.locator(".mn-team").count() == 2
    teams = score.inner_text()
    assert "team: " in teams and "Stark (second army) (computer)" in teams and "Lannister (second army) (computer)" in teams
    assert "mp_tywin (Lannister)" in teams and "mp_robb (Stark)" in teams
    # every army on the table in its own colour
    for seat in ("stark", "lannister", "stark_2", "lannister_2"):
        assert page.locator(f"#field .mn-tray.seat-{seat}").count() > 0, seat
    assert page.get_attribute("#field", "viewBox") == "-2.5 -2.5 77 53"
    box = page.locator("#field").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1440 and box["width"] / box["height"] == pytest.approx(77 / 53, rel=0.02)
    assert "Round 2 of 6" in page.inner_text("#phase") and "Stark and Lannister" in page.inner_text("#phase")
    # the team's turn: both teammates are asked (either may activate, M130)
    wait_until(page, lambda: score.locator(".mn-seat.waiting").count() == 2, "both teammates asked")
    assert score.locator(".mn-seat.waiting.seat-stark").count() == 1
    assert score.locator(".mn-seat.waiting.seat-lannister").count() == 1
    # the quadrants' tags in each corner read whole, inside the drawing, each NCU placed there by its name (a
    # house's second copy of an NCU is keyed `30104_2`: it once read "a card")
    tags = page.evaluate("""(() => { const f = document.getElementById('field').getBoundingClientRect();
        return [...document.querySelectorAll('#field .mn-quad-label')].map(t => { const b = t.getBoundingClientRect();
          return {text: t.textContent, left: b.left - f.left, right: f.right - b.right}; }); })()""")
    assert len([t for t in tags if re.match(r"(NW|NE|SW|SE)\b", t["text"])]) == 4, tags
    for tag in tags:
        assert tag["left"] >= 0 and tag["right"] >= 0, tag
        assert "a card" not in tag["text"], tag
    placed = [t["text"] for t in tags if t["text"].endswith(" placed here")]
    assert placed and all(re.match(r"(Tyrion Lannister|Catelyn Stark|Cersei Lannister|Sansa Stark)", t) for t in placed), tags
    # each house plays its NCU twice: each copy says its army
    assert any(re.search(r" of (Stark|Lannister) \(second army\)", t) for t in placed), tags
    page.screenshot(path=str(artifacts / "minis-2v2-1440.png"), full_page=False)
    # Sight from one of mp_robb's units: a line to every unit of the other team, none to the teammate's (M130)
    seats_of = page.evaluate("""Object.fromEntries([...document.querySelectorAll('#field .mn-tray[data-unit]')]
        .map(t => [t.dataset.unit, [...t.classList].find(c => c.startsWith('seat-')).slice(5)]))""")
    mine = next(n for n, seat in seats_of.items() if seat == "stark")
    page.locator(f"#field .mn-tray[data-unit='{mine}']").click()
    foes = sorted(n for n, seat in seats_of.items() if seat in ("stark_2", "lannister_2"))
    wait_until(page, lambda: page.locator("#field .mn-sight-line").count() == len(foes), "a sight line to each foe")
    seen = sorted(page.evaluate("[...document.querySelectorAll('#field .mn-sight-line')].map(l => l.dataset.sight)"))
    assert seen == foes, (seen, foes)

    phone = new_page(390, 844)
    log_in(phone, server.url, "mp_tywin")
    phone.goto(f"{server.url}/games/{game_id}/")
    phone.locator("#scoreline .mn-team").first.wait_for()
    phone.locator("#field .mn-tray").first.wait_for()
    phone.screenshot(path=str(artifacts / "minis-2v2-390.png"), full_page=True)
    assert name_height_when_zoomed(phone) >= 11
    phone.screenshot(path=str(artifacts / "minis-2v2-zoomed-390.png"), full_page=False)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_four_player_free_for_all_shows_four_corners_and_each_players_vp(live_asgi_server, new_page, artifacts):
    server = live_asgi_server
    game_id = stage(server, ["mp_ned"], 4, "ffa")
    page = new_page(1440, 1000, locale="es-ES")
    log_in(page, server.url, "mp_ned")
    page.goto(f"{server.url}/games/{game_id}/")
    score = page.locator("#scoreline")
    score.locator(".mn-seat").first.wait_for()
    assert score.locator(".mn-seat").count() == 4 and score.locator(".mn-team").count() == 0
    assert "Casa Stark (segundo ejército) (ordenador)" in score.inner_text()
    assert page.locator("#field .mn-deploy.corner").count() == 4
    assert page.get_attribute("#field", "viewBox") == "-2.5 -2.5 53 53"
    labels = page.evaluate("[...document.querySelectorAll('#field .mn-zone-label')].map(t => t.textContent)")
    assert "Casa Lannister (segundo ejército)" in labels
    page.screenshot(path=str(artifacts / "minis-ffa-es-1440.png"), full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "minis-ffa-es-390.png"), full_page=True)
    assert name_height_when_zoomed(page) >= 11
    page.screenshot(path=str(artifacts / "minis-ffa-es-zoomed-390.png"), full_page=False)


def field_bottom(page) -> float:
    return page.evaluate("document.querySelector('#field').getBoundingClientRect().bottom")


@pytest.mark.parametrize("kind", ["ffa", "teams"])
def test_the_whole_table_shows_at_1440_by_900_when_the_score_line_wraps(live_asgi_server, new_page, artifacts, kind):
    """Long names wrap the score line (two rows for a free-for-all, three for two teams): the table still ends
    above the screen's bottom edge, the viewer's own corner or edge (at the bottom) included."""
    server = live_asgi_server
    names = [f"brynden_the_blackfish_{kind}", f"kevan_of_lannisport_{kind}"][:1 if kind == "ffa" else 2]
    game_id = stage(server, names, 4, kind)
    page = new_page(1440, 900)
    log_in(page, server.url, names[0])
    page.goto(f"{server.url}/games/{game_id}/")
    page.locator("#field .mn-tray").first.wait_for()
    score = page.locator("#scoreline").bounding_box()
    assert score["height"] > 50, "the score line should wrap to two rows or more here"
    box = page.locator("#field").bounding_box()
    assert box["y"] > 0 and field_bottom(page) <= 900, (box, score)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1440
    page.screenshot(path=str(artifacts / f"minis-{kind}-long-names-1440x900.png"), full_page=False)
