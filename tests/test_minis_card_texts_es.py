"""The miniatures game's card texts in Spanish (issue 29): the units', attachments', NCUs' and
commanders' ability texts and the Tactics cards' texts, with their triggers, are the project's own
wording (never the printed cards'), so web/minis_texts.py marks each of them and the page's catalogue
(web/minis.page_catalogue, the JSON the battlefield page carries) says them in the reader's language
with the Spanish core rules' terms (games/i18n/glossary/minis.yaml, seed 003). A text or trigger the
data gains without being marked fails here; the English catalogue stays exactly as the data says it."""
from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from games.engine.minis import data
from games.i18n import glossary
from tests.factories import make_game
from web import minis
from web.minis_texts import TEXTS, TRIGGERS

CATALOGUE = re.compile(r'<script id="minis-cards" type="application/json">(.*?)</script>', re.S)
# Names a Spanish text keeps as printed in English (the glossary gives no Spanish for them).
NAMES = ("Halberd", "Counterplot", "Jaime", "Cersei", "Catelyn", "Sansa", "Robb", "Clegane", "Umber")
# Words of the English texts that no Spanish text holds once those names are taken out.
ENGLISH_WORDS = re.compile(
    r"\b(the|and|with|from|to|of|its|it|is|has|at|by|for|an|on|in|unit|units|attack|attacks|enemy|friendly|"
    r"wounds?|hits?|dice|die|rank|ranks|token|cards?|zone|test|charge|charges|gains|makes|may|when|while|after|"
    r"each|every|turn|round|game|this|that|your|you|before|instead|action|rolled|roll|control|crown|money|"
    r"swords|horse|Panicked|Weakened|Sundering|Vicious|Critical|Blow|Precision|Surge|Forth|NCU|Tactics)\b")


def _pieces(card: dict) -> list[dict]:
    return (card.get("abilities") or []) + (card.get("modes") or [])


def _data_texts() -> tuple[set[str], set[str]]:
    """Every text and trigger of the engine's card data, as the page shows them (spaces squashed)."""
    texts, triggers = set(), set()
    for card in data.content()["cards"].values():
        for piece in (card.get("abilities") or []) + (card.get("modes") or []):
            texts.add(" ".join(str(piece.get("effect", "")).split()))
            triggers.add(piece.get("trigger") or "")
    return texts - {""}, triggers - {""}


def test_every_card_text_and_trigger_of_the_data_is_marked():
    """A new or reworded text in games/engine/minis/data/starter_armies.yaml fails here until it is
    marked in web/minis_texts.py (and translated); nothing marked is stale."""
    texts, triggers = _data_texts()
    assert texts == set(TEXTS), (sorted(texts - set(TEXTS)), sorted(set(TEXTS) - texts))
    assert triggers == set(TRIGGERS), (sorted(triggers - set(TRIGGERS)), sorted(set(TRIGGERS) - triggers))
    assert len(TEXTS) == len(set(TEXTS)) and len(TRIGGERS) == len(set(TRIGGERS))


def test_every_marked_text_has_a_spanish_one():
    """Each text and trigger reads differently in Spanish, with no English word left but names, and
    in Spain's Spanish: the rules' "tú", the reader's opponent "tu rival"."""
    with translation.override("es"):
        spanish = {english: gettext(english) for english in TEXTS + TRIGGERS}
    for english, told in spanish.items():
        assert told and told != english, english
        bare = told
        for name in NAMES:
            bare = bare.replace(name, " ")
        assert not ENGLISH_WORDS.search(bare), (english, told)
        assert "%(" not in told and "usted" not in told.lower() and " su rival" not in told, told
    assert spanish["Draw 1 Tactics card."] == "Roba 1 carta de Tácticas."
    assert spanish["start of an opponent's turn"] == "al inicio de un turno de tu rival"


def test_the_translations_use_the_rulebooks_terms():
    """A few texts checked for the glossary's words: tests, keywords, conditions, zones, actions."""
    def term(english: str, kind: str | None = None) -> str:
        return glossary.term("minis", english, kind)

    with translation.override("es"):
        cat = minis.page_catalogue()
        guardsmen = cat["cards"]["10101"]["abilities"][0]
        counterplot = cat["cards"]["40105"]["modes"][0]
        grey_wind = {a["name"]: a for a in cat["cards"]["10204"]["abilities"]}
        overrun = cat["cards"]["20202"]["abilities"][0]
        ambush = cat["cards"]["10202"]["abilities"][2]
        cersei = cat["cards"]["30105"]["abilities"][0]
        hear_me_roar = cat["cards"]["40103"]["modes"][0]
    assert term("Panic Test") in guardsmen["text"] and term("Attacker") in guardsmen["text"]      # prueba de Pánico
    assert guardsmen["trigger"] == "después de que un enemigo complete un Ataque contra esta unidad"  # seed 003's card
    assert "zona de " + term("Crown", "zone") in counterplot["text"]                              # zona de Corona
    assert "la de " + term("Wealth", "zone") in counterplot["text"] and "1D6" in counterplot["text"]
    assert term("Sundering") in grey_wind["Tooth & Claw"]["text"]                                # Ensañamiento
    assert term("Maneuver", "action") in grey_wind["Direwolf"]["text"]                           # Maniobra
    assert term("Surge Forward") in overrun["trigger"]                                            # ¡Ímpetu irrefrenable!
    for condition in ("Panicked", "Vulnerable", "Weakened"):                                      # Espantada, Debilitada
        assert term(condition, "condition") in ambush["text"]
    assert "Flanco" in ambush["trigger"] and "Retaguardia" in ambush["trigger"]
    assert term("Hear Me Roar!") in cersei["text"] and term("Subjugation of Power") in cersei["text"]
    assert "fichas de Orden" in cersei["text"] and "tu mazo de Tácticas" in cersei["text"]
    assert term("Morale Test") in hear_me_roar["trigger"]                                         # prueba de Moral


@pytest.mark.django_db
def test_the_page_carries_its_readers_texts():
    """The battlefield page's catalogue (the JSON in its HTML): with Accept-Language es every text and
    trigger is the Spanish one; in English the data's, unchanged; the abilities' names stay the keys
    the page's script reads."""
    game = make_game(2, ruleset="minis", seed=1)
    client = Client()
    client.force_login(game.seats.get(seat="stark").user)

    def catalogue(language: str) -> dict:
        html = client.get(f"/games/{game.id}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        return json.loads(CATALOGUE.search(html).group(1))

    es, en = catalogue("es"), catalogue("en")
    assert en["cards"] == json.loads(json.dumps(minis.catalogue()["cards"]))  # English exactly as the data says
    with translation.override("es"):
        said = {english: gettext(english) for english in TEXTS + TRIGGERS}
    seen = 0
    for cid, card in en["cards"].items():
        for english, spanish in zip(_pieces(card), _pieces(es["cards"][cid]), strict=True):
            assert spanish.get("name") == english.get("name"), cid
            assert spanish["text"] == said[english["text"]] != english["text"], cid
            if english["trigger"]:
                assert spanish["trigger"] == said[english["trigger"]] != english["trigger"], cid
            else:
                assert spanish["trigger"] == "", cid
            seen += 1
    assert seen == sum(len(_pieces(c)) for c in minis.catalogue()["cards"].values()) > 70
    assert es["cards"]["40108"]["modes"][1] == {"trigger": "al inicio de cualquier turno",
                                                "text": "Roba 1 carta de Tácticas."}
    assert en["cards"]["40108"]["modes"][1] == {"trigger": "start of any turn", "text": "Draw 1 Tactics card."}
