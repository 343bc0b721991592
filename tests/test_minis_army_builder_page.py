"""The army builder page (issue 33, /armies/): linked from the site menu; it carries the starter boxes' units,
attachments, Commanders and NCUs with their names in the reader's language; its script's sentences are all marked
for translation and have their Spanish. Building, saving and the refusals in words are the API's
(tests/test_minis_armies_api.py) and the browser's (tests/browser/test_minis_army_builder.py)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import polib
import pytest
from django.urls import reverse

from games.engine.minis import data
from tests.factories import make_user

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[1]


def _json(html: str, name: str):
    return json.loads(re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html, re.S).group(1))


def test_the_site_menu_links_the_army_builder(client):
    home = client.get("/").content.decode()
    assert f'href="{reverse("web-armies")}"' in home and ">Armies</a>" in home
    assert ">Ejércitos</a>" in client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()


def test_the_page_carries_every_army_card(client):
    page = client.get(reverse("web-armies"))
    assert page.status_code == 200
    html = page.content.decode()
    cards = _json(html, "army-cards")
    every = {cid for cid, c in data.content()["cards"].items() if c["kind"] != "tactics"}
    assert set(cards) == every
    assert cards["20201"]["commander"] and cards["20201"]["attaches_to"] == "infantry"
    assert cards["10204"]["solo"] and cards["10204"]["character"] == "Grey Wind"
    assert cards["10101"]["name"] == "Lannister Guardsmen" and cards["10101"]["cost"] == 5
    assert "js/army_builder.js" in html and "to save your armies and play with them" in html


def test_the_page_speaks_spanish_to_a_spanish_reader(client):
    client.force_login(make_user())
    html = client.get(reverse("web-armies"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    cards = _json(html, "army-cards")
    assert cards["10201"]["name"] == "Espadas Juramentadas Stark"
    assert cards["10202"]["type_name"] == "Caballería"
    for said in ("Ejércitos de inicio", "Tus ejércitos", "Guardar como un ejército nuevo", "Mazo de Tácticas",
                 "Tamaño de la partida (puntos)", "Comandante"):
        assert said in html, said


def test_every_sentence_of_the_script_is_marked_and_has_its_spanish():
    script = (ROOT / "static/js/army_builder.js").read_text()
    marked = set(re.findall(r'gettext\("((?:[^"\\]|\\.)*)"\)', script))
    marked |= set(re.findall(r'ngettext\("((?:[^"\\]|\\.)*)"', script))
    assert len(marked) > 25
    catalogue = {e.msgid: e for e in polib.pofile(str(ROOT / "locale/es/LC_MESSAGES/djangojs.po")) if not e.obsolete}
    for text in marked:
        entry = catalogue.get(text)
        assert entry is not None, text
        assert (entry.msgstr or all(entry.msgstr_plural.values())) and "fuzzy" not in entry.flags, text
    bare = re.findall(r'h\("(?:p|li|span|button|strong)", \{[^}]*\}, "([A-Za-z][^"]+)"\)', script)
    assert bare == [], bare
