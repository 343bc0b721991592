"""The deck builder page (issue 30, /decks/): linked from the site menu; it carries the Core Set's cards (no titles)
with their texts in the reader's language and the game's words (types, Houses, icons) from the Spanish rulebook's
terms; its script's sentences are all marked for translation and have their Spanish. The building itself, saving
and the refusals in words are the API's (tests/test_lcg_decks_api.py) and the browser's
(tests/browser/test_lcg_deck_builder.py)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import polib
import pytest
from django.urls import reverse

from games.engine.lcg import data
from tests.factories import make_user

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[1]


def _json(html: str, name: str):
    return json.loads(re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html, re.S).group(1))


def test_the_site_menu_links_the_deck_builder(client):
    home = client.get("/").content.decode()
    assert f'href="{reverse("web-decks")}"' in home and ">Decks</a>" in home
    spanish = client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert ">Mazos</a>" in spanish


def test_the_page_carries_every_deck_card_in_english(client):
    page = client.get(reverse("web-decks"))
    assert page.status_code == 200
    html = page.content.decode()
    cards = _json(html, "deck-cards")
    every = {cid for cid, c in data.cards().items() if c["type"] in ("character", "location", "attachment", "event",
                                                                     "plot", "agenda") and cid != "blank"}
    assert set(cards) == every and not any(c["type"] == "title" for c in cards.values())
    assert cards["daenerys_targaryen"]["text"] == data.cards()["daenerys_targaryen"]["ability"]
    words = _json(html, "deck-words")
    assert words["types"]["character"] == "Character" and words["factions"]["thenightswatch"] == "The Night's Watch"
    assert "js/deck_builder.js" in html and "Build a deck for A Game of Thrones" in html
    # a visitor may build and check; saving asks to log in
    assert "to save your decks and play with them" in html


def test_the_page_speaks_spanish_to_a_spanish_reader(client):
    user = make_user()
    client.force_login(user)
    html = client.get(reverse("web-decks"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    cards = _json(html, "deck-cards")
    assert cards["robb_stark"]["text"].startswith("Reacción: ")
    assert cards["robb_stark"]["name"] == "Robb Stark"  # names stay as printed
    words = _json(html, "deck-words")
    assert words["types"] == {"character": "Personaje", "location": "Lugar", "attachment": "Accesorio",
                              "event": "Evento", "plot": "Trama", "agenda": "Estrategia"}
    assert words["factions"]["stark"] == "Casa Stark" and words["icons"]["military"] == "Militar"
    for said in ("Mazos preparados", "Tus mazos", "Guardar como un mazo nuevo", "Cartas de la caja básica",
                 "Importar o exportar una lista (texto de ThronesDB)", "sin Estrategia"):
        assert said in html, said
    assert "to save your decks" not in html


def test_every_sentence_of_the_script_is_marked_and_has_its_spanish():
    script = (ROOT / "static/js/deck_builder.js").read_text()
    marked = set(re.findall(r'gettext\("((?:[^"\\]|\\.)*)"\)', script))
    marked |= set(re.findall(r'ngettext\("((?:[^"\\]|\\.)*)"', script))
    assert len(marked) > 25
    catalogue = {e.msgid: e for e in polib.pofile(str(ROOT / "locale/es/LC_MESSAGES/djangojs.po")) if not e.obsolete}
    for text in marked:
        entry = catalogue.get(text)
        assert entry is not None, text
        assert (entry.msgstr or all(entry.msgstr_plural.values())) and "fuzzy" not in entry.flags, text
    # no sentence is written outside gettext: the user-facing strings of h(...) calls are all marked
    bare = re.findall(r'h\("(?:p|li|span|button|strong)", \{[^}]*\}, "([A-Za-z][^"]+)"\)', script)
    assert bare == [], bare
