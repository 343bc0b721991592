"""The card game's page in a Spanish browser (issue 29): every kind of decision the page asks (one
game per kind, from the engine's player against the random player: tests/browser/stage_lcg.py
decision_games) reads in Spanish, with no visible sentence of the same page in English left but
names (players, cards as printed and their traits, the decks): the cards' ability texts are the
project's own words and read in Spanish too (web/lcg_texts.py); a played game's log
reads in Spanish; screenshots at 1440 and 390 px in test-artifacts/es-lcg-*.png."""
from __future__ import annotations

import re

from tests.browser.util import PASSWORD, log_in, stage_users

# The page's visible texts, the cards' ability texts included (card names and traits stay as printed in
# English, docs/glossary-es.md: the Spanish seed names no card of the Core Set's decks; they are taken
# out as names).
VISIBLE = """() => {
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll('script, #card-detail, .deadline').forEach((n) => n.remove());
  document.body.appendChild(copy);
  copy.style.position = 'absolute'; copy.style.left = '-99999px';
  const text = copy.innerText;
  copy.remove();
  return text;
}"""
NAMES = {"Westeros", "API", "English", "Español", "BOT", "A Game of Thrones: The Card Game", "X", "M", "I", "P",
         "The Old Ways", "Secrets and Schemes", "Stark", "Lannister", "Greyjoy", "Tyrell", "Baratheon",
         "Martell", "Targaryen", "i", "Chat"}


def _parts(text: str) -> set[str]:
    """Each line and each ' · ' piece of a text, as tests/test_i18n.py's visible_texts cuts them."""
    out = set()
    for line in text.split("\n"):
        for part in re.split(r"\s+·\s+|\s+—\s+", line):
            part = " ".join(part.split()).strip(" .:;,·()★◆◉+●○↓")
            if re.search(r"[A-Za-z]{2}", part):
                out.add(part)
    return out


def _card_words(page) -> set[str]:
    catalogue = page.evaluate("JSON.parse(document.getElementById('lcg-cards').textContent)")
    words = set()
    for card in catalogue["cards"].values():
        words.add(card["name"])
        words.update(card.get("traits") or [])
    return words


def _english_left(spanish: str, english: str, names: set[str]) -> set[str]:
    left = _parts(spanish) & _parts(english)
    out = set()
    for part in left - NAMES - names:
        rest = part
        for name in sorted(names | NAMES, key=len, reverse=True):
            rest = rest.replace(name, " ")
        if re.search(r"[A-Za-z]{2}", re.sub(r"[^A-Za-z]+", " ", rest).strip()):
            out.add(part)
    return out


def test_every_decision_of_the_card_game_in_spanish(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage_lcg import decision_games; "
                                  f"decision_games(['Iria', 'Anton'], {PASSWORD!r})")
    games = [g.split(":") for g in re.search(r"games (\S+)", out).group(1).split(",")]
    pages = {}
    for seat, name in (("p1", "Iria"), ("p2", "Anton")):
        for language, locale in (("es", "es-ES"), ("en", "en-GB")):
            pages[seat, language] = new_page(1440, 1000, locale=locale)
            log_in(pages[seat, language], base, name)
    names = {"Iria", "Anton"}
    kinds, shot, ability_texts = set(), set(), set()
    for game_id, asked in games:
        seat = asked.split("+")[0]
        texts = {}
        for language, waits in (("es", "Tu decisión"), ("en", "Your decision")):
            page = pages[seat, language]
            page.goto(f"{base}/games/{game_id}/")
            assert page.locator("html").get_attribute("lang") == language
            page.wait_for_selector(f"#decision h2:has-text('{waits}')")
            texts[language] = page.evaluate(VISIBLE)
        page = pages[seat, "es"]
        state = page.evaluate("window.__westerosGame.state()")
        kind = state["pending"][state["your_seat"]]
        kinds.add(kind)
        card_words = _card_words(page)
        assert "Your hand" in texts["en"] and "Tu mano" in texts["es"]   # the two readings are compared
        left = _english_left(texts["es"], texts["en"], names | card_words)
        assert not left, f"{kind}: English left on the Spanish page: {sorted(left)}"
        for text in page.eval_on_selector_all(".c-text, .d-card .about", "ns => ns.map((n) => n.innerText)"):
            ability_texts.add(text)   # the cards' texts (web/lcg_texts.py) in Spanish, with the rulebook's words
            assert not re.search(r"\b(Constant|Reaction|Interrupt|Action|When revealed|Forced)\b", text), text
        panel = page.inner_text("#decision")
        assert "Tu decisión:" in panel and "Your" not in panel, panel
        if kind not in shot and kind in ("mulligan", "setup", "plot", "challenge", "defenders", "action", "kill"):
            shot.add(kind)
            page.screenshot(path=str(artifacts / f"es-lcg-{kind}-1440.png"), full_page=True)
            phone = new_page(390, 844, locale="es-ES")
            log_in(phone, base, {"p1": "Iria", "p2": "Anton"}[seat])
            phone.goto(f"{base}/games/{game_id}/")
            phone.wait_for_selector("#decision h2:has-text('Tu decisión')")
            assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390, kind
            phone.screenshot(path=str(artifacts / f"es-lcg-{kind}-390.png"), full_page=True)
            phone.context.close()
    assert {"mulligan", "setup", "plot", "action", "challenge", "defenders", "kill", "discard", "choose"} <= kinds
    assert any(re.search(r"\b(Constante|Reacción|Interrupción|Acción)\b", t) for t in ability_texts), ability_texts
    # a spectator's page: no decision, both areas alike
    stage_users(live_asgi_server, ["Xela"])
    texts = {}
    for language, locale, waits in (("es", "es-ES", "Como espectador"), ("en", "en-GB", "Spectating")):
        page = new_page(1440, 1000, locale=locale)
        log_in(page, base, "Xela")
        page.goto(f"{base}/games/{games[-1][0]}/")
        page.wait_for_selector(f"#decision h2:has-text('{waits}')")
        texts[language] = page.evaluate(VISIBLE)
    left = _english_left(texts["es"], texts["en"], names | {"Xela"} | card_words)
    assert not left, f"spectator: English left on the Spanish page: {sorted(left)}"


def test_a_played_card_game_and_its_log_in_spanish(live_asgi_server, new_page, artifacts):
    base = live_asgi_server.url
    out = live_asgi_server.manage("shell", "-c", "from tests.browser.stage_lcg import finished_lcg; "
                                  f"finished_lcg(['Nuria', 'Pau'], {PASSWORD!r})")
    game_id = re.search(r"game (\d+) finished", out).group(1)
    for width in (1440, 390):
        page = new_page(width, 1000 if width > 400 else 844, locale="es-ES")
        log_in(page, base, "Nuria")
        page.goto(f"{base}/games/{game_id}/")
        page.wait_for_selector("#decision h2:has-text('Fin de la partida')")
        page.wait_for_selector("#log .log-line")
        log = page.text_content("#log")   # the closed groups too
        for words in ("Comienza la ronda", "Ronda ", "Fase de Reclutamiento", "La partida ha terminado: gana", "recluta"):
            assert words in log, words
        for english in (" begins.", " draws ", " wins the ", "Round ", " phase", " marshals "):
            assert english not in log, english
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(artifacts / f"es-lcg-finished-{width}.png"), full_page=True)
    english = new_page(1440, 1000, locale="en-GB")
    log_in(english, base, "Nuria")
    english.goto(f"{base}/games/{game_id}/")
    english.wait_for_selector("#log .log-line")
    assert re.search(r"Round \d+ begins\.", english.text_content("#log"))
