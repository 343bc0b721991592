"""The card game's ability texts in Spanish (issue 29). The texts are the project's own paraphrases
(games/engine/lcg/data/SOURCES.md), so they are translated like every other word: web/lcg_texts.py marks
each text of the data, and web/lcg.py's `page_catalogue()` says them in the reader's language, with the
Spanish Rules Reference's terms (games/i18n/glossary/lcg.yaml, seed 002); the English catalogue is
unchanged. Card names and traits stay as printed (the seed gives none)."""
from __future__ import annotations

import json
import re
import unicodedata

import pytest
from django.urls import reverse
from django.utils import translation

from games.engine.lcg import data
from games.i18n import glossary
from tests.factories import make_game, make_user

CATALOGUE = re.compile(r'<script id="lcg-cards" type="application/json">(.*?)</script>', re.S)
MARK = re.compile(r"\[[a-z]+\]")


def _texts() -> dict[str, str]:
    """Each ability text of the data, by the first card that has it."""
    out: dict[str, str] = {}
    for card_id, card in data.cards().items():
        if card.get("ability"):
            out.setdefault(card["ability"], card_id)
    return out


def _spanish(text: str) -> str:
    with translation.override("es"):
        return translation.gettext(text)


def _names() -> list[str]:
    """Card names and traits (they stay as printed), longest first."""
    words = {c["name"] for c in data.cards().values() if c.get("name")}
    words |= {t for c in data.cards().values() for t in c.get("traits") or []}
    return sorted(words, key=len, reverse=True)


def _plain(text: str) -> str:
    """Without case and accents ("sálvalo" says "salv")."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


def _term(english: str) -> str:
    return glossary.term("lcg", english)


def _phase(english: str) -> str:
    """The phase's own word ("Reclutamiento" of "fase de Reclutamiento")."""
    return _term(english).removeprefix("fase de ")


def _challenge(english: str, icon: str) -> str:
    """The challenge with its icon's mark ("reto de [intrigue]"), as the seed writes it ("reto de Intriga")."""
    return _term(f"{english} challenge").replace(_term(english), f"[{icon}]")


def test_every_card_text_of_the_data_is_marked():
    """A new or changed ability text in the data fails here until it is marked (and translated)."""
    from web.lcg_texts import TEXTS

    texts = set(_texts())
    assert texts, "the data has ability texts"
    assert texts <= set(TEXTS), sorted(texts - set(TEXTS))
    assert set(TEXTS) <= texts, sorted(set(TEXTS) - texts)  # no text the data no longer has
    assert len(TEXTS) == len(set(TEXTS))


def test_every_card_text_has_its_own_spanish():
    """Each text reads differently in Spanish, keeps its icon and faction marks (the page draws them),
    and holds no English word once the names and traits are taken out."""
    english_words = re.compile(r"\b(the|and|your|you|of|to|with|from|into|card|cards|character|challenge|"
                               r"gains?|gets|kneel|stand|draw|discard|pick|opponent|player|phase|after|when|while)\b", re.I)
    for text, card_id in _texts().items():
        spanish = _spanish(text)
        assert spanish != text, (card_id, text)
        assert sorted(MARK.findall(spanish)) == sorted(MARK.findall(text)), (card_id, spanish)
        rest = MARK.sub(" ", spanish)
        for name in _names():
            rest = rest.replace(name, " ")
        assert not english_words.search(rest), (card_id, spanish)
        assert "%(" not in spanish and "  " not in spanish, (card_id, spanish)


# (the English words of a text, what its Spanish then says: the glossary's terms, seed 002)
TERMS = [
    (r"\bSTR\b", lambda: _term("STR")),
    (r"\[military\] challenge", lambda: _challenge("Military", "military")),
    (r"\[intrigue\] challenge", lambda: _challenge("Intrigue", "intrigue")),
    (r"\[power\] challenge", lambda: _challenge("Power", "power")),
    (r"^Marshaling Action:|\. Marshaling Action:", lambda: f"Acción de {_phase('Marshaling phase')}:"),
    (r"Challenges Action:", lambda: f"Acción de {_phase('Challenges phase')}:"),
    (r"^Dominance Action:", lambda: f"Acción de {_phase('Dominance phase')}:"),
    (r"^Action:|\. Action:", lambda: f"{_term('Action')}:"),
    (r"^Reaction:|\. Reaction:", lambda: f"{_term('Reaction')}:"),
    (r"^Interrupt:|\. Interrupt:", lambda: f"{_term('Interrupt')}:"),
    (r"^Forced Reaction:", lambda: "Reacción obligada:"),
    (r"^Forced Interrupt:", lambda: "Interrupción obligada:"),
    (r"^When revealed:", lambda: f"{_term('When revealed')}:"),
    (r"challenges phase", lambda: _term("Challenges phase")),
    (r"dominance phase", lambda: _term("Dominance phase")),
    (r"dead pile", lambda: _term("Dead pile")),
    (r"discard pile", lambda: _term("Discard pile")),
    (r"draw deck", lambda: _term("Draw deck")),
    (r"first player", lambda: _term("First player")),
    (r"defending player", lambda: _term("Defending player")),
    (r"attacking player", lambda: _term("Attacking player")),
    (r"unopposed", lambda: _term("Unopposed")),
    (r"claim value", lambda: _term("Claim value")),
    (r"reserve value", lambda: _term("Reserve value")),
    (r"treasury", lambda: _term("Treasury")),
    (r"\bgold\b", lambda: _term("Gold")),
    (r"\bambush\b", lambda: _term("Ambush")),
    (r"\brenown\b", lambda: _term("Renown")),
    (r"\binsight\b", lambda: _term("Insight")),
    (r"\bstealth\b", lambda: _term("Stealth")),
    (r"\bpillage\b", lambda: _term("Pillage")),
    (r"\bLimited\b", lambda: _term("Limited")),
    (r"\bTerminal\b", lambda: _term("Terminal")),
    (r"\bcharacters?\b", lambda: _term("Character")),
    (r"\blocation\b", lambda: _term("Location")),
    (r"\battachment\b", lambda: _term("Attachment")),
    (r"\bevent\b", lambda: _term("Event")),
    (r"\bplot\b", lambda: _term("Plot")),
    (r"\bopponent", lambda: _term("Opponent")),
    (r"your faction gains (\d) power", lambda: "de Poder para tu facción"),
    (r"\(Max 1 per challenge\.\)", lambda: "(Máximo 1 por reto.)"),
    (r"\(Limit ", lambda: "(Límite de "),
    (r"\bkneel", lambda: "arrodill"),
    (r"\bstands?\b", lambda: "en pie"),
    (r"\bsacrific", lambda: "sacrifi"),
    (r"\bcancel", lambda: "anul"),
    (r"\bsaved?\b", lambda: "salv"),
    (r"\bmarshal", lambda: "reclut"),
]


@pytest.mark.parametrize("english, said", TERMS, ids=[t[0] for t in TERMS])
def test_the_spanish_texts_say_the_rulebooks_terms(english, said):
    """Wherever an English text says a game term, its Spanish says the Spanish Rules Reference's one."""
    found = [(card_id, text) for text, card_id in _texts().items() if re.search(english, text)]
    assert found, f"no text says {english!r}: the table is stale"
    word = said()
    for card_id, text in found:
        spanish = _spanish(text)
        assert _plain(word) in _plain(spanish), (card_id, word, spanish)


def test_a_few_texts_read_as_the_rulebook_writes():
    cards = data.cards()
    assert _spanish(cards["robb_stark"]["ability"]) == (
        "Reacción: Después de que muera o se sacrifique un Personaje [stark] bajo tu control, todos los Personajes "
        "que controlas se ponen en pie. (Límite de 1 vez por ronda.)")
    assert _spanish(cards["lannisport_merchant"]["ability"]).startswith(
        "Acción de Reclutamiento: Arrodilla a Lannisport Merchant; el siguiente Personaje [lannister] que reclutes")
    assert _spanish(cards["gold_cloaks"]["ability"]).startswith("Interrupción obligada: Cuando termine una fase")
    assert "mediante Emboscada" in _spanish(cards["gold_cloaks"]["ability"])
    assert _spanish(cards["varys"]["ability"]).startswith("Interrupción: Cuando termine la fase de Dominación")


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["web-game", "web-replay"])
def test_the_page_gets_the_texts_in_the_readers_language(client, page):
    """The page's catalogue (the JSON the script reads) says the texts in Spanish to a Spanish browser and
    in English, unchanged, to an English one; everything else of a card is the same in both."""
    from web.lcg import catalogue

    game = make_game(2, ruleset="lcg", users=[make_user(), make_user()])
    if page == "web-replay":
        game.status = game.Status.FINISHED
        game.save(update_fields=["status"])
    read = {}
    for language in ("en", "es"):
        response = client.get(reverse(page, args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200 and response["Content-Language"] == language
        read[language] = json.loads(CATALOGUE.search(response.content.decode()).group(1))
    english = catalogue()
    assert read["en"] == json.loads(json.dumps(english))  # English as it always was
    assert read["es"]["decks"] == read["en"]["decks"] and read["es"]["factions"] == read["en"]["factions"]
    for card_id, card in read["en"]["cards"].items():
        told = read["es"]["cards"][card_id]
        assert {k: v for k, v in told.items() if k != "text"} == {k: v for k, v in card.items() if k != "text"}
        if card["text"]:
            assert told["text"] == _spanish(card["text"]) != card["text"], card_id
        else:
            assert told["text"] == ""
    assert read["es"]["cards"]["eddard_stark"]["text"] == (
        "Reacción: Después de que se inicie cualquier reto en el que seas el jugador defensor, pon en pie a Eddard Stark.")


def test_each_language_is_built_once_and_english_is_the_catalogue():
    from web import lcg

    with translation.override("es"):
        first = lcg.page_catalogue()
        assert lcg.page_catalogue() is first
    with translation.override("en"):
        assert lcg.page_catalogue() is lcg.catalogue()
    assert first["cards"]["robb_stark"]["text"] != lcg.catalogue()["cards"]["robb_stark"]["text"]
    assert "stand" in lcg.catalogue()["cards"]["robb_stark"]["text"]  # the English catalogue is not changed
