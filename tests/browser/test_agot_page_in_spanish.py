"""The board game's page in a Spanish browser (issue 29): every kind of decision the page shows (one
staged game per kind: tests/browser/stage_agot_es.py) reads in Spanish, with no visible sentence of the
same page in English left but names (players, houses, the areas and cards the seeds leave in English);
the cards' texts read in Spanish too (web/board.py); the game's log reads in Spanish with the rulebook's
words; screenshots at 1440 and 390 px in test-artifacts/es-agot-*.png."""
from __future__ import annotations

import re

from tests.browser.util import PASSWORD, log_in

# The page's visible text (what innerText shows: closed groups and hidden panels left out), without
# the deadlines' clocks.
VISIBLE = """() => {
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll('script, .deadline').forEach((n) => n.remove());
  document.body.appendChild(copy);
  copy.style.position = 'absolute'; copy.style.left = '-99999px';
  const text = copy.innerText;
  copy.remove();
  return text;
}"""
# The board data's names, as the page reads them (web/board.py): areas and cards.
BOARD_WORDS = """() => {
  const B = window.Westeros.board(), out = [];
  for (const a of Object.values(B.areas)) out.push(a.name);
  for (const group of [B.house_cards, B.westeros_cards, B.wildling_cards]) for (const c of Object.values(group)) out.push(c.name);
  return out.filter(Boolean);
}"""
PLAYERS = ["Iria", "Anton", "Brais"]
NAMES = {"Westeros", "API", "English", "Español", "BOT", "Stark", "Lannister", "Baratheon", "Greyjoy", "Tyrell",
         "Martell", "I", "II", "III", "Chat", *PLAYERS}


def _parts(text: str) -> set[str]:
    """Each line and each ' · ' piece of a text, as tests/test_i18n.py's visible_texts cuts them."""
    out = set()
    for line in text.split("\n"):
        for part in re.split(r"\s+·\s+|\s+—\s+", line):
            part = " ".join(part.split()).strip(" .:;,·()★◆◉+●○↓←→↑▲▼✔−")
            if re.search(r"[A-Za-z]{2}", part):
                out.add(part)
    return out


def _english_left(spanish: str, english: str, names: list[str]) -> set[str]:
    """The pieces of the Spanish page also on the English one that are more than names."""
    for name in names:  # the cards' texts and names first (longest first), then compare
        spanish, english = spanish.replace(name, " "), english.replace(name, " ")
    out = set()
    for part in _parts(spanish) & _parts(english):
        rest = re.sub(r"[^A-Za-z]+", " ", part).strip()
        if re.search(r"[A-Za-z]{2}", rest):
            out.add(part)
    return out


def _open(page, base: str, game_id: str, kind: str) -> None:
    page.goto(f"{base}/games/{game_id}/")
    page.wait_for_function("window.__westerosGame && window.__westerosGame.state()")
    if kind == "log":
        page.wait_for_selector("#log .log-line")
    else:
        page.wait_for_function(f"window.__westerosGame.state().pending.stark === {kind!r}")
        page.wait_for_selector("#decision .decision-title")
    page.wait_for_selector("#tracks h3")


def test_every_decision_of_the_board_game_in_spanish(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage_agot_es import decision_games; "
                                  f"decision_games({PLAYERS!r}, {PASSWORD!r})")
    games = [g.split(":") for g in re.search(r"games (\S+)", out).group(1).split(",")]
    pages = {}
    for language, locale in (("es", "es-ES"), ("en", "en-GB")):
        pages[language] = new_page(1440, 1000, locale=locale)
        log_in(pages[language], base, PLAYERS[0])
    phone = new_page(390, 844, locale="es-ES")
    log_in(phone, base, PLAYERS[0])
    seen = []
    for game_id, kind in games:
        texts, words = {}, set(NAMES)
        for language, page in pages.items():
            _open(page, base, game_id, kind)
            assert page.locator("html").get_attribute("lang") == language
            texts[language] = page.evaluate(VISIBLE)
            board = page.evaluate(BOARD_WORDS)
            words.update(board + [w.replace(" ", "") for w in board])  # the board's labels: two lines, no space
        es = texts["es"]
        left = _english_left(es, texts["en"], sorted(words, key=len, reverse=True))
        assert not left, (kind, sorted(left))
        page = pages["es"]
        title = page.locator("#decision .decision-title").inner_text() if kind != "log" else ""
        assert kind == "log" or title != pages["en"].locator("#decision .decision-title").inner_text(), title
        assert page.evaluate("document.documentElement.scrollWidth") <= 1440
        focus = "#log" if kind == "log" else "#decision"
        page.locator(focus).scroll_into_view_if_needed()
        name = f"{kind}-{len([k for _, k in seen if k == kind]) + 1}" if kind in [k for _, k in seen] else kind
        page.screenshot(path=str(artifacts / f"es-agot-{name}-1440.png"))
        _open(phone, base, game_id, kind)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, kind
        phone.locator(focus).scroll_into_view_if_needed()
        phone.screenshot(path=str(artifacts / f"es-agot-{name}-390.png"))
        seen.append((game_id, kind))
        if kind == "log":
            log = page.locator("#log").inner_text()
            # Spanish sentences with the rulebook's words (seed 000: "fase de Planificación" 557,
            # "Cuervo mensajero" 69), never the English ones
            assert "coloca" in log and "bocabajo" in log and "Se muestran las órdenes" in log, log
            assert "fase de Planificación" in log or "Fase de Planificación" in log, log
            assert "places" not in log and "The orders are revealed" not in log and "face down" not in log, log
    kinds = {k for _, k in seen}
    assert {"place_orders", "raven", "raid", "march", "consolidate", "house_card", "blade", "muster", "bid",
            "break_tie", "choose", "log"} <= kinds
