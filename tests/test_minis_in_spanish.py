"""The miniatures game's log in Spanish (issue 29): games/engine/minis/narrate.py says every sentence
through one translatable template (games.engine.narration), so the same stored events read in each
reader's language. Over the events of whole seeded random games of the engine, narrated as each seat
and a spectator read them (after event_view), every Spanish sentence differs from its English one
unless it is only names, holds no English sentence word, no placeholder and no "None", and uses the
Spanish core rules' words (games/i18n/glossary/minis.yaml, seed 003); the log API narrates in the
reader's language (Accept-Language), and the English narration is the one the engine says without
Django. The page's catalogue (web/minis.page_catalogue) names cards and zones in the reader's language."""
from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.engine import get_ruleset, narration
from games.engine.minis import data, narrate
from games.i18n import glossary
from tests.factories import api_client_for, make_game, make_user, seat_client
from tests.narrated import told_three_ways
from tests.platform_helpers import submit, whole_log

MINIS = get_ruleset("minis")
SEATS = ["stark", "lannister"]
SEEDS = range(4)
CARDS = data.content()["cards"]
SEAT = re.compile(r"\{(stark|lannister)\}")
# Words of an English sentence that no Spanish sentence of the log holds (names taken out first).
ENGLISH_WORDS = re.compile(
    r"\b(the|and|with|from|to|of|their|its|it|wins|draws|plays|is|has|at|by|for|an|on|in|charges|attacks|"
    r"rolls|suffers|wounds?|hits?|dice|die|round|begins|ends|token|cards?|moves|facing|blocked|needing|passes|"
    r"fails|test|unit|zone|quadrant|victory|points?|battle|over|nobody|activates|activation|deploys|"
    r"battlefield|left|keeps|discards|gives|places|claims|holds|scores|maneuvers|marches|retreats|shifts|"
    r"pivots|heals|destroyed|removed|gains|falls|every|charge|attack|defense|ranks?|more|now|nothing|enemy)\b",
    re.I)


def _names() -> list[str]:
    """What the Spanish log names as printed (the glossary's Spanish, else the English name): units,
    cards, attacks, abilities and Orders; longest first."""
    with translation.override("es"):
        names = {narrate.card(cid) for cid in CARDS}
        for c in CARDS.values():
            names |= {str(a["name"]) for a in c.get("attacks") or []}
            names |= {narrate.ability(a["name"]) for a in c.get("abilities") or []}
        names |= {narrate.tr("Counterplot"), narrate.tr("Last Stand"), narrate.ability("Order: Reckless Heroism")}
    return sorted(names, key=len, reverse=True)


NAMES = _names()


def _events() -> list[dict]:
    """Every event of four seeded random games (random terrain in every other) as Stark, Lannister
    and a spectator read it."""
    out = []
    for seed in SEEDS:
        state = MINIS.new_game(SEATS, {"terrain": "random"} if seed % 2 else {}, seed)
        rnd = random.Random(seed)
        while not state["over"]:
            seat = rnd.choice(sorted(MINIS.pending(state)))
            state, events = MINIS.apply(state, seat, MINIS.random_action(state, seat, rnd))
            out += [MINIS.event_view(ev, viewer) for ev in events for viewer in ("stark", "lannister", None)]
    return out


@pytest.fixture(scope="module")
def told() -> list[tuple[dict, dict, dict, dict]]:
    """(event, the English line without the site's words, the English line, the Spanish line)."""
    return told_three_ways(MINIS.describe_event, _events())


def _without_names(text: str) -> str:
    text = SEAT.sub(" ", text)
    for name in NAMES:
        text = text.replace(name, " ")
    return text


def test_the_english_log_is_the_engines_own(told):
    """The site's English is word for word what the engine says without Django (and what the log
    tests of the engine assert)."""
    assert len(told) > 3000
    for _, bare, english, _ in told:
        assert english == bare


def test_every_spanish_sentence_is_spanish(told):
    kinds = set()
    for event, _, english, spanish in told:
        kinds.add(event["type"])
        text = spanish["text"]
        assert text and "%(" not in text and not narration.MISSING.search(text), (event, text)
        assert not re.search(r"\{(?!(stark|lannister)\})", text), (event, text)  # braces only around a seat
        assert narration.text(spanish["parts"]) == text
        assert sorted(spanish.get("seats", [])) == sorted(english.get("seats", [])), (event, text)
        if re.search(r"[A-Za-z]{2}", _without_names(english["text"])):
            assert text != english["text"], (event, text)
        found = ENGLISH_WORDS.findall(_without_names(text))
        assert not found, (event, text, found)
        assert not re.search(r"\d+(\.\d+)? in\b", text), (event, text)  # inches as the seed writes them: 2”
        # the line's other keys are the same in both languages
        assert {k: v for k, v in spanish.items() if k not in ("text", "parts", "seats")} == \
            {k: v for k, v in english.items() if k not in ("text", "parts", "seats")}
    assert {"first_player", "deploy", "draw", "round", "activate", "move", "charge", "attack", "attack_dice",
            "defense_dice", "wounds", "destroyed", "test", "claim", "play", "cleanup", "game_over"} <= kinds


# The glossary's words the log uses, each with the seed line that gives it (games/i18n/glossary/minis.yaml).
SEED_TERMS = {
    ("Cleanup phase", "phase"): ("Fase de Ordenamiento", "003:274"),
    ("Panic Test", "combat"): ("prueba de Pánico", "003:1701"),
    ("Tactics card", "card"): ("carta de Tácticas", "003:1666"),
    ("Stark Sworn Swords", "unit"): ("Espadas Juramentadas Stark", "003:964-967"),
    ("Lannister Guardsmen", "unit"): ("Guardias Lannister", "003:942"),
    ("Critical Blow", "keyword"): ("Golpe brutal", "003:3121"),
    ("Tactics board", "zone"): ("tablero de Tácticas", "003:1518"),
}


def test_the_spanish_log_says_the_rulebooks_words(told):
    said = "\n".join(spanish["text"] for _, _, _, spanish in told)
    for (english, kind), (spanish, line) in SEED_TERMS.items():
        entry = glossary.entry("minis", english, kind)
        assert entry["spanish"] == spanish and line in [s["line"] for s in entry["seed"]], english
        assert spanish in said, f"{spanish} ({line}) is not in the Spanish log"
    assert "cartas de Tácticas" in said and "Carga" in said and "dados de Ataque" in said
    with translation.override("es"):
        assert narrate.unit("sworn_swords_2") == "Espadas Juramentadas Stark 2"
        assert narrate.zone("crown") == "la zona de Corona"  # 003:1524
        assert narrate.condition("panicked") == "Espantada"  # 003:3137
        assert narrate.inches(3.5) == "3,5”"
    with translation.override("en"):
        assert narrate.unit("sworn_swords_2") == "Stark Sworn Swords 2" and narrate.zone("crown") == "the Crown zone"
        assert narrate.inches(3.5) == "3.5 in"


def test_sentences_in_spanish_by_example():
    with translation.override("es"):
        say = narrate.narrate
        assert say({"type": "round", "round": 2}) == "Comienza la ronda 2."
        assert say({"type": "cleanup", "round": 2}) == "Termina la ronda 2: Fase de Ordenamiento."
        assert say({"type": "draw", "seat": "stark", "count": 2}) == "{stark} roba dos cartas de Tácticas."
        assert say({"type": "draw", "seat": "stark", "count": 0}) == "{stark} no roba ninguna carta de Tácticas."
        assert say({"type": "activation_end", "unit": "sworn_swords"}) == \
            "Termina la Activación de Espadas Juramentadas Stark."
        assert say({"type": "wounds", "unit": "guardsmen", "wounds": 3, "left": 9, "ranks": 3, "ranks_lost": 1,
                    "ranks_left": 2}) == "Guardias Lannister sufre 3 Heridas y pierde una fila: le quedan dos filas."
        assert say({"type": "game_over", "winner": "stark", "result": "vp", "vp": {"stark": 8, "lannister": 3}}) == \
            "La batalla ha terminado: gana {stark} por Puntos de victoria, 8 a 3."
        # a seat keeps its own piece where the Spanish puts it
        ncu = next(cid for cid, c in CARDS.items() if c["kind"] == "ncu" and c["name"].startswith("Cersei"))
        parts = narrate.parts({"type": "claim", "seat": "lannister", "ncu": ncu, "zone": "money"})
        assert parts == [{"text": "Cersei Lannister, Reina Regente de "}, {"text": "{lannister}", "seat": "lannister"},
                         {"text": " reclama la zona de Riqueza del tablero de Tácticas."}]
    with translation.override("en"):
        assert narrate.narrate({"type": "activation_end", "unit": "sworn_swords"}) == \
            "Stark Sworn Swords' activation ends."


@pytest.mark.django_db
def test_the_log_api_narrates_in_the_readers_language():
    game = make_game(2, ruleset="minis", seed=12)
    while game.state["phase"] == "deployment":  # the First Player's choice and the deployment (M23, M24)
        seat = next(iter(MINIS.pending(game.state)))
        r = seat_client(game, seat).post(reverse("api-game-actions", args=[game.id]),
                                         {"version": game.version, "action": MINIS.default_action(game.state, seat)},
                                         format="json")
        assert r.status_code == 200, r.json()
        game.refresh_from_db()
    names = {s: game.seats.get(seat=s).user.username for s in SEATS}

    def read(client, language):
        def get_json(path):
            response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200
            return response.json()

        return [line["text"] for e in whole_log(get_json, game.id)["entries"] for line in e["lines"]]

    for client in (seat_client(game, "stark"), api_client_for(make_user())):
        english, spanish = read(client, "en"), read(client, "es")
        assert len(english) == len(spanish) > 10
        first = names[game.state["first_player"]]
        assert f"{first} is the First Player." in english and f"{first} es el jugador inicial." in spanish
        assert "Stark Sworn Swords deploys on the battlefield." in english
        assert "Espadas Juramentadas Stark se despliega en el Campo de batalla." in spanish
        assert "Guardias Lannister 2 se despliega en el Campo de batalla." in spanish
        assert "Round 1 begins." in english and "Comienza la ronda 1." in spanish
        assert not set(english) & set(spanish)
    # the drawer reads the names of the cards drawn; the others the count
    own = read(seat_client(game, "stark"), "es")
    assert any(re.fullmatch(rf"{names['stark']} roba tres cartas de Tácticas: .+ y .+\.", t) for t in own), own
    assert f"{names['stark']} roba tres cartas de Tácticas." in read(seat_client(game, "lannister"), "es")


@pytest.mark.django_db
def test_the_page_names_cards_and_zones_in_the_readers_language():
    game = make_game(2, ruleset="minis", seed=3)
    client = Client()
    client.force_login(game.seats.get(seat="stark").user)

    def page(language):
        html = client.get(f"/games/{game.id}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        found = re.search(r'<script id="minis-cards" type="application/json">(.*?)</script>', html, re.S)
        return html, json.loads(found.group(1))

    spanish, es = page("es")
    english, en = page("en")
    names = {c["name"] for c in es["cards"].values()}
    assert "Espadas Juramentadas Stark" in names and "Stark Sworn Swords" not in names
    assert es["zones"]["crown"] == {"name": "Corona", "text": "Una unidad enemiga hace una prueba de Pánico con -1."}
    assert es["conditions"]["panicked"]["name"] == "Espantada" and es["factions"]["stark"] == "Casa Stark"
    assert es["terrain"]["weirwood"]["name"] == "Árbol arciano" and es["quadrants"]["sw"] == "suroeste"
    assert "Herramientas del Campo de batalla" in spanish and "Toda la mesa" in spanish
    assert "Stark Sworn Swords" in {c["name"] for c in en["cards"].values()} and en["zones"]["crown"]["name"] == "Crown"
    assert "Whole table" in english and "Toda la mesa" not in english


@pytest.mark.django_db
def test_a_refusal_is_said_in_the_readers_language():
    """The engine's refusal of an illegal act (games/engine/minis/flow.py) in the reader's language,
    the unit still named by its key for the page to put its name in (static/js/minis.js namesIn)."""
    game = make_game(2, ruleset="minis", seed=12)
    while "deploy" not in MINIS.pending(game.state).values():  # the First Player's choice
        seat = next(iter(MINIS.pending(game.state)))
        submit(game, seat, MINIS.default_action(game.state, seat))
        game.refresh_from_db()
    seat = next(iter(MINIS.pending(game.state)))
    action = MINIS.default_action(game.state, seat)
    action["deploy"]["at"] = [24, 24]  # the middle of the table: outside either deployment zone
    said = {}
    for language in ("en", "es"):
        r = seat_client(game, seat).post(reverse("api-game-check", args=[game.id]),
                                         {"version": game.version, "action": action}, format="json",
                                         HTTP_ACCEPT_LANGUAGE=language)
        said[language] = r.json()
    assert said["en"]["ok"] is False and said["es"]["ok"] is False
    assert "the tray must be entirely inside your deployment zone" in said["en"]["reason"]
    assert "la bandeja debe quedar por completo dentro de tu zona de despliegue" in said["es"]["reason"]


def test_the_line_of_sight_reasons_are_said_in_the_readers_language():
    """What the page's sight tool shows for a unit it cannot see (games/engine/minis/table.py sight)."""
    from tests.browser.stage_minis import battle_state

    state = battle_state(SEATS, 7)
    ask = {"line_of_sight": {"from": "guardsmen", "to": "halberdiers"}}
    english = MINIS.check(state, "lannister", ask)
    with translation.override("es"):
        spanish = MINIS.check(state, "lannister", ask)
        seen = MINIS.check(state, "lannister", {"line_of_sight": {"from": "guardsmen", "to": "sworn_swords"}})
    assert english == {"ok": False, "error": "no_line_of_sight", "reason": "halberdiers is outside the Front arc of guardsmen"}
    assert spanish["reason"] == "halberdiers está fuera del arco de Frente de guardsmen"
    assert seen == {"ok": True, "reason": "guardsmen tiene línea de visión hasta sworn_swords"}
