"""The miniatures game's page in a Spanish browser (issue 29), for every kind of decision the page
asks (tests/browser/stage_minis_decisions.py: one game per kind, from seeded engine games): the same
page is open for the same player in an English browser, and no line the Spanish page shows (its text,
aria-labels and titles) is also on the English one, names aside (players, and the units, cards,
attacks and abilities the seeds give no Spanish name for: docs/glossary-es.md); the cards' texts
(abilities, Tactics cards, their triggers) read in Spanish too (web/minis_texts.py); the decision's
title and the log read in Spanish, each log line differently from its English one. Screenshots at 1440 and 390 px go to
test-artifacts/es-minis-*.png. Waits are on conditions, never on durations."""
from __future__ import annotations

import re
from functools import cache

import pytest

from tests.browser.in_spanish import NOT_WORDS, VISIBLE, game_names, log_lines, shoot
from tests.browser.util import PASSWORD, log_in

pytestmark = pytest.mark.browser

PLAYERS = ("mnesana", "mnesbruno")
# the kinds whose page is photographed in Spanish at 1440 and 390 px
SHOT = ("choose:first_player", "deploy", "action:unit", "react:play", "choose:money", "discard:count", "spend:morale")


@cache
def spanish_card_texts() -> tuple[str, ...]:
    """The cards' texts and triggers as a Spanish reader reads them (web/minis_texts.py)."""
    from django.utils import translation
    from django.utils.translation import gettext

    from web.minis_texts import TEXTS, TRIGGERS

    with translation.override("es"):
        return tuple(gettext(t) for t in TEXTS + TRIGGERS)


@cache
def short_names() -> tuple[str, ...]:
    """The units' names on their trays (static/js/minis.js shortName: no house, no title)."""
    out = {re.sub(r", .*$", "", re.sub(r"^(Stark|Lannister|House) ", "", n)) for n in game_names()}
    return tuple(sorted(out, key=len, reverse=True))


@cache
def all_names() -> tuple[str, ...]:
    return tuple(sorted(set(PLAYERS + game_names() + short_names()), key=len, reverse=True))


def only_names(line: str) -> bool:
    rest = line
    for name in all_names():
        rest = rest.replace(name, " ")
    # words Spanish writes as English does: the chat, a total, the north-east and south-east quadrants
    rest = re.sub(r"\b(BOT|Stark|Lannister|D3|Chat|Total|NE|SE)\b", " ", rest)
    return not re.search(r"[A-Za-z]{2,}", rest)


def english_left(spanish, english) -> set[str]:
    es, en = set(spanish.evaluate(VISIBLE)), set(english.evaluate(VISIBLE))
    return {line for line in es & en if not NOT_WORDS.match(line) and not only_names(line)}


def open_game(page, base: str, game_id: str, heading: str) -> None:
    page.goto(f"{base}/games/{game_id}/")
    page.wait_for_selector(f"#decision h2:has-text('{heading}')")
    # the line of sight's and the targets' checks have answered
    page.wait_for_function("!/checking|comprobando/.test(document.getElementById('unit-card').innerText + "
                           "document.getElementById('decision').innerText)")


def test_every_decision_of_the_miniatures_page_reads_in_spanish(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage_minis_decisions import decision_games; "
                                  f"decision_games({list(PLAYERS)!r}, {PASSWORD!r})")
    games = [g.split("/") for g in re.search(r"games (\S+)", out).group(1).split(",")]
    pages = {}
    for seat, name in zip(("stark", "lannister"), PLAYERS, strict=True):
        pages[seat] = (new_page(1440, 1000, locale="es-ES"), new_page(1440, 1000, locale="en-GB"))
        for page in pages[seat]:
            log_in(page, base, name)
    kinds, left = set(), {}
    for game_id, key, seat in games:
        spanish, english = pages[seat]
        open_game(spanish, base, game_id, "Tu decisión")
        open_game(english, base, game_id, "Your decision")
        assert spanish.locator("html").get_attribute("lang") == "es"
        kinds.add(key)
        found = english_left(spanish, english)
        if found:
            left[key] = sorted(found)
        panel = spanish.inner_text("#decision")
        assert panel.startswith("Tu decisión:"), panel
        if key == "react:play":  # the hand's Tactics cards say their triggers and texts in Spanish
            hand = spanish.inner_text("#hand-panel")
            assert any(text in hand for text in spanish_card_texts()), hand
        if key in SHOT:
            shoot(spanish, artifacts, "minis-" + key.replace(":", "-"))
    assert not left, f"English left on the Spanish miniatures page: {left}"
    assert kinds >= {"choose:first_player", "deploy", "activate", "action:unit", "action:ncu", "retreat_move",
                     "reroll:attack", "spend:attack", "spend:defense", "spend:morale", "pivot", "surge",
                     "discard:free", "discard:count", "react", "react:play", "choose:crown", "choose:money",
                     "choose:letter", "choose:horse", "choose:swords", "choose:influence", "redeploy"}, kinds


def test_a_played_miniatures_game_and_its_log_read_in_spanish(live_asgi_server, new_page, artifacts):
    """A game the engine's player played into its second round: the page and its log in Spanish."""
    base = live_asgi_server.url
    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage_minis_es import played_minis; "
                                  f"played_minis({list(PLAYERS)!r}, {PASSWORD!r})")
    game_id, seat = re.search(r"game (\d+) (\w+)", out).groups()
    name = PLAYERS[0] if seat == "stark" else PLAYERS[1]
    spanish, english = new_page(1440, 1000, locale="es-ES"), new_page(1440, 1000, locale="en-GB")
    for page in (spanish, english):
        log_in(page, base, name)
    open_game(spanish, base, game_id, "Tu decisión")
    open_game(english, base, game_id, "Your decision")
    for page in (spanish, english):
        page.wait_for_function("document.querySelectorAll('#log li').length > 20")
    left = english_left(spanish, english)
    assert not left, f"English left on the Spanish miniatures page: {sorted(left)}"
    shown = spanish.inner_text("#log")
    for words in ("se despliega en el Campo de batalla", "Comienza la ronda 2.", "Termina la Activación de",
                  "Termina la ronda 1: Fase de Ordenamiento."):
        assert words in shown, words
    # the log API in each language: every line differs from its English one unless it is only names
    es_log, en_log = log_lines(spanish, int(game_id), "es"), log_lines(spanish, int(game_id), "en")
    assert len(es_log) == len(en_log) > 20
    for es_line, en_line in zip(es_log, en_log, strict=True):
        if not only_names(en_line):
            assert es_line != en_line, en_line
    said = "\n".join(es_log)
    assert "hace una Maniobra" in said or "hace una Marcha" in said or "carga contra" in said, said
    shoot(spanish, artifacts, "minis-log")
