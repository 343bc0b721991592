"""The card game's melee page (issue 31) in two browsers: a 4-player melee, Alys and Bram with two computer
players, staged at round 1's plot phase (tests/browser/stage_lcg_melee.py). Alys chooses the first player,
then the titles are chosen by clicking (L203): each sees only that the other chose, face down, until all
are revealed together and shown in words by every area; Alys then declares a military challenge against
the opponent she chooses (Bram), and Bram's page asks him to defend it. Bram plays at 390 px, Alys at
1440 px; a 6-player melee's page at 390 and 1440 px with five opponents, folded. Screenshots go to
test-artifacts/."""
from __future__ import annotations

import json
from functools import partial

import pytest

from tests.browser.test_lcg_table import _act, _no_ids
from tests.browser.util import game_state, open_game, pending, stage_game, wait_until

pytestmark = pytest.mark.browser

_open = partial(open_game, ready=".lcg-area.me")


def _action(page, action: dict) -> str:
    return f"#decision button[data-action='{json.dumps(action, separators=(',', ':'))}']"


def _pass_until_alys_challenges(alys, bram) -> None:
    """Marshaling: both people pass until Alys is asked for a challenge."""
    def step() -> bool:
        if pending(alys) == "challenge":
            return True
        for page in (alys, bram):
            kind = pending(page)
            if kind in ("action", "reaction", "interrupt"):
                _act(page, "#decision button.pass")
        return False
    wait_until(alys, step, "Alys's challenges")


def test_title_selection_and_a_challenge_against_a_chosen_opponent(live_asgi_server, new_page, artifacts):
    names = ["Alys", "Bram"]
    game_id = stage_game(live_asgi_server, names, module="stage_lcg_melee", function="melee_game")
    alys = _open(new_page, live_asgi_server, names[0], game_id)
    bram = _open(new_page, live_asgi_server, names[1], game_id, width=390, height=844)

    # four areas: the three opponents' and one's own
    for page in (alys, bram):
        assert page.locator(".lcg-area").count() == 4
    assert pending(alys) == "first_player"
    _act(alys, alys.locator(_action(alys, {"first_player": "p1"})))

    # title selection (L203): Alys first, the titles offered to her alone
    wait_until(alys, lambda: pending(alys) == "title", "Alys to be asked for a title")
    offers = alys.locator("#decision .title-offer")
    assert offers.count() == 5  # one of six set aside at random with four players
    assert "Crown Regent" in alys.inner_text("#decision") and "Once this round you may redirect a challenge" in alys.inner_text("#decision")
    assert bram.locator("#decision .title-offer").count() == 0
    alys.screenshot(path=str(artifacts / "lcg-melee-titles-1440.png"), full_page=True)
    _act(alys, alys.locator(_action(alys, {"title": "crown_regent"})))

    # Bram chooses next: he sees that Alys chose, never what; Alys sees her own pick face down
    wait_until(bram, lambda: pending(bram) == "title", "Bram to be asked for a title")
    assert "title chosen (face down)" in bram.inner_text("#area-p1 summary")
    assert "Crown Regent" not in bram.inner_text("#table")
    assert "Crown Regent" not in bram.inner_text("#decision")
    wait_until(alys, lambda: "you chose Crown Regent" in alys.inner_text("#area-p1"), "Alys's own pick, face down")
    bram.screenshot(path=str(artifacts / "lcg-melee-titles-390.png"), full_page=True)
    # a spectator (reading in Spanish) sees that Alys chose, never what, and no hand
    watcher = new_page(1440, 1000, locale="es-ES")
    watcher.goto(f"{live_asgi_server.url}/games/{game_id}/")
    watcher.wait_for_selector("#conn.on")
    watcher.wait_for_selector("#area-p1")
    assert "Título elegido (boca abajo)" in watcher.inner_text("#area-p1 summary")
    assert "Crown Regent" not in watcher.inner_text("#table") and watcher.locator("#hand").count() == 0
    assert "Se eligen los Títulos en secreto" in watcher.inner_text("#melee-titles")
    _act(bram, bram.locator(_action(bram, {"title": "master_of_coin"})))

    # the computers choose; the titles are revealed together and said in words on both pages
    for page in (alys, bram):
        wait_until(page, lambda p=page: "Titles:" in p.inner_text("#table"), "the titles revealed")
        line = page.inner_text("#melee-titles")
        assert "Crown Regent" in line and "Master of Coin" in line
        assert page.locator(".title-chip[data-title]").count() == 4
    assert "Master of Coin" in alys.inner_text("#area-p2 summary")
    assert "Crown Regent" in bram.inner_text("#area-p1 summary")
    wait_until(alys, lambda: any("The titles are revealed" in t for t in alys.locator("#log li").all_inner_texts()),
               "the log saying the titles")
    # the spectator's page, in Spanish: the titles revealed, in words and in the log
    wait_until(watcher, lambda: "Títulos:" in watcher.inner_text("#table"), "the spectator's titles")
    assert "Alys ostenta Crown Regent" in watcher.inner_text("#melee-titles")
    wait_until(watcher, lambda: any("Se revelan los Títulos" in t for t in watcher.locator("#log li").all_inner_texts()),
               "the spectator's log saying the titles in Spanish")
    watcher.screenshot(path=str(artifacts / "lcg-melee-spectator-es-1440.png"), full_page=True)

    _pass_until_alys_challenges(alys, bram)

    # the challenge: Alys chooses whom (Bram) among her three opponents, the type, an attacker
    opponents = alys.locator("#decision button.opponent")
    assert opponents.count() == 3
    assert alys.locator("#confirm-challenge").is_disabled()
    alys.click("#decision button.opponent[data-seat='p2']")
    assert alys.locator("#decision button.opponent[data-seat='p2']").get_attribute("aria-checked") == "true"
    alys.click("#decision button.ctype[data-type='military']")
    alys.locator("#area-p1 .lcg-row.chars .lcg-card.selectable", has_text="Salty Navigator").click()
    alys.screenshot(path=str(artifacts / "lcg-melee-challenge-1440.png"), full_page=True)
    _act(alys, "#confirm-challenge")
    # Alys holds Crown Regent: she is asked whether to redirect her own challenge; she does not
    wait_until(alys, lambda: pending(alys) in ("redirect", None) or pending(bram) == "defenders", "the redirect question")
    if pending(alys) == "redirect":
        assert "Do not redirect the challenge" in alys.inner_text("#decision")
        _act(alys, alys.locator(_action(alys, {"redirect": False})))

    wait_until(bram, lambda: pending(bram) == "defenders", "Bram asked to defend")
    challenge = bram.inner_text("#challenge")
    assert "Military challenge: Alys attacks Bram" in challenge, challenge
    assert "Military challenge: Alys attacks Bram" in alys.inner_text("#challenge")
    assert "military against Bram" in alys.inner_text("#area-p1")
    bram.screenshot(path=str(artifacts / "lcg-melee-defend-390.png"), full_page=True)
    _no_ids(bram.inner_text("#decision"))
    _no_ids(alys.inner_text("#melee-titles"))
    assert game_state(bram)["pending"] == {"p2": "defenders"}


def test_a_six_player_melee_page_with_five_opponents_folded(live_asgi_server, new_page, artifacts):
    names = ["Cass"]
    game_id = stage_game(live_asgi_server, names, module="stage_lcg_melee", function="six_seats")
    for width, height in ((1440, 1000), (390, 844)):
        page = _open(new_page, live_asgi_server, names[0], game_id, width=width, height=height)
        assert page.locator(".lcg-area.opp").count() == 5
        opened = page.locator(".lcg-area.opp[open]").count()
        assert opened == (1 if width == 1440 else 0)
        # every folded opponent says its power, gold, hand and title on one line
        for area in page.locator(".lcg-area.opp:not([open]) > summary").all():
            text = area.inner_text()
            assert "Power" in text and "Hand" in text
        if game_state(page)["status"] == "active" and "Titles:" in page.inner_text("#table"):
            assert page.locator(".lcg-area .title-chip[data-title]").count() >= 5
        page.screenshot(path=str(artifacts / f"lcg-melee-six-{width}.png"), full_page=True)
        # no horizontal scroll of the page itself at 390
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1


def test_a_finished_melees_replay_shows_every_area_and_the_titles(live_asgi_server, new_page, artifacts):
    names = ["Dana"]
    game_id = stage_game(live_asgi_server, names, module="stage_lcg_melee", function="finished_melee")
    page = new_page(1440, 1000)
    from tests.browser.util import log_in

    log_in(page, live_asgi_server.url, names[0])
    page.goto(f"{live_asgi_server.url}/games/{game_id}/replay")
    page.wait_for_selector("#replay-table .lcg-area")
    page.select_option("#replay-as", "spectator")
    assert page.locator("#replay-table .lcg-area").count() == 4
    # step on until the titles are revealed (round 1's plot phase), then to the end
    wait_until(page, lambda: "Titles:" in page.inner_text("#replay-table") or page.click("#replay button[data-step='next']"),
               "the titles in the replay")
    assert page.locator("#replay-table #hand").count() == 0
    page.screenshot(path=str(artifacts / "lcg-melee-replay-1440.png"), full_page=True)
    page.click("#replay button[data-step='last']")
    wait_until(page, lambda: "Game over" in page.inner_text("#replay-pos"), "the replay's last step")
    assert "can no longer be replayed" not in page.inner_text("#replay")
