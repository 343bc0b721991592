"""The card game's log in Spanish (issue 29): games/engine/lcg/narrate.py says every sentence through
one translatable template (games.engine.narration), so the same stored events read in each reader's
language. Over the events of whole seeded games of the engine, narrated as each seat and a spectator
read them (after event_view), every Spanish sentence differs from its English one unless it is only
names, holds no English sentence word, no placeholder and no "None", and uses the Spanish Rules
Reference's words (games/i18n/glossary/lcg.yaml, seed 002); the log API narrates in the reader's
language (Accept-Language), and the English narration is the one the engine says without Django."""
from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from games.engine import get_ruleset, narration
from games.engine.lcg import data, narrate
from games.i18n import glossary
from tests.factories import api_client_for, make_game, make_user, seat_client
from tests.narrated import told_three_ways
from tests.platform_helpers import submit, whole_log

LCG = get_ruleset("lcg")
SEEDS = range(6)
CARD_NAMES = sorted({narrate.card(c) for c in data.cards()}, key=len, reverse=True)
# Words of an English sentence that no Spanish sentence of the log holds (card names taken out first).
ENGLISH_WORDS = re.compile(r"\b(the|and|with|from|to|of|their|wins|draws|plays|declares|kneels|stands|gains|loses|"
                           r"marshals|reveals|chooses|discards|card|cards|challenge|power|gold|phase|round|nobody|"
                           r"begins|takes|into|onto|against|claims|is|has|at|by|for|an)\b", re.I)
SEAT = re.compile(r"\{p[12]\}")


def _events() -> list[dict]:
    """Every event of six seeded games (both deck pairings, with and without every window) as p1,
    p2 and a spectator read it."""
    decks = data.deck_ids()
    out = []
    for seed in SEEDS:
        rnd = random.Random(seed)
        state = LCG.new_game(["p1", "p2"], {"decks": [decks[seed % 2], decks[(seed // 2) % 2]],
                                            "every_window": bool(seed % 2)}, seed)
        while not state["over"]:
            seat = sorted(LCG.pending(state))[0]
            state, events = LCG.apply(state, seat, LCG.random_action(state, seat, rnd))
            out += [LCG.event_view(ev, viewer) for ev in events for viewer in ("p1", "p2", None)]
    return out


@pytest.fixture(scope="module")
def told() -> list[tuple[dict, dict, dict, dict]]:
    """(event, the English line without the site's words, the English line, the Spanish line)."""
    return told_three_ways(LCG.describe_event, _events())


def _without_names(text: str) -> str:
    text = SEAT.sub(" ", text)
    for name in CARD_NAMES:
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
        assert not re.search(r"\{(?!p[12]\})", text), (event, text)  # braces only around a seat
        assert narration.text(spanish["parts"]) == text
        # the same seats as the English line names, each a piece of its own
        assert sorted(spanish.get("seats", [])) == sorted(english.get("seats", [])), (event, text)
        rest = _without_names(text)
        if re.search(r"[A-Za-z]{2}", _without_names(english["text"])):
            assert text != english["text"], (event, text)
        found = ENGLISH_WORDS.findall(rest)
        assert not found, (event, text, found)
        # the line's other keys are the same in both languages
        assert {k: v for k, v in spanish.items() if k not in ("text", "parts", "seats")} == \
            {k: v for k, v in english.items() if k not in ("text", "parts", "seats")}
    assert {"round", "phase", "mulligan", "draw", "plots_revealed", "initiative", "marshal", "challenge",
            "defenders", "challenge_result", "claim", "dominance", "game_over"} <= kinds


# The glossary's words the log uses, each with the seed line that gives it (games/i18n/glossary/lcg.yaml).
SEED_TERMS = {
    ("Marshaling phase", "phase"): ("fase de Reclutamiento", "002:545"),
    ("Plot phase", "phase"): ("fase de Trama", "002:553"),
    ("Intrigue challenge", "challenge"): ("reto de Intriga", "002:189"),
    ("Military challenge", "challenge"): ("reto Militar", "002:205"),
    ("Dominance", "keyword"): ("Dominación", "002:1466"),
    ("Initiative", "plot_value"): ("Iniciativa", "002:549"),
}


def test_the_spanish_log_says_the_rulebooks_words(told):
    said = "\n".join(spanish["text"] for _, _, _, spanish in told)
    for (english, kind), (spanish, line) in SEED_TERMS.items():
        entry = glossary.entry("lcg", english, kind)
        assert entry["spanish"] == spanish and line in [s["line"] for s in entry["seed"]], english
        assert spanish in said, f"{spanish} ({line}) is not in the Spanish log"
    # the glossary through the narrators' own term(): what the site installs for a Spanish reader
    with translation.override("es"):
        assert narration.term("lcg", "Marshaling phase", "phase") == "fase de Reclutamiento"
        assert narrate.phase("marshaling") == "fase de Reclutamiento"
        assert narrate.challenge("intrigue") == "un reto de Intriga"
        assert narrate.challenge("power", "the") == "el reto de Poder"
        assert narrate.pile("dead") == "pila de muertos"  # 002:874
    with translation.override("en"):
        assert narrate.phase("marshaling") == "Marshaling phase" and narrate.challenge("intrigue") == "an intrigue challenge"


def test_sentences_in_spanish_by_example():
    with translation.override("es"):
        def say(event):
            return narrate.narrate(event)

        assert say({"type": "round", "round": 2}) == "Comienza la ronda 2."
        assert say({"type": "phase", "round": 2, "phase": "challenges"}) == "Empieza la fase de Reto."
        assert say({"type": "draw", "seat": "p1", "count": 2}) == "{p1} roba dos cartas."
        assert say({"type": "draw", "seat": "p1", "count": 1, "cards": ["robb_stark"]}) == "{p1} roba una carta: Robb Stark."
        assert say({"type": "challenge", "seat": "p1", "challenge": "military", "defender": "p2",
                    "attackers": ["robb_stark", "grey_wind"]}) == \
            "{p1} declara un reto Militar contra {p2} y ataca con Robb Stark y Grey Wind."
        assert say({"type": "leaves_play", "seat": "p2", "card": "varys", "to": "dead", "reason": "claim"}) == \
            "Varys de {p2} muere (Conquista)."
        assert say({"type": "claim", "seat": "p1", "challenge": "military", "claim": 2}) == \
            "{p1} aplica una Conquista de 2 (Militar): el defensor debe matar a dos Personajes."
        assert say({"type": "game_over", "winner": "p2", "reason": "power"}) == \
            "La partida ha terminado: gana {p2} con 15 de Poder."
        # a seat keeps its own piece where the Spanish puts it
        parts = narrate.parts({"type": "kneel", "seat": "p2", "card": "varys", "reason": "intimidate"})
        assert parts == [{"text": "Intimidación: Varys de "}, {"text": "{p2}", "seat": "p2"}, {"text": " se arrodilla."}]


@pytest.mark.django_db
def test_the_log_api_narrates_in_the_readers_language():
    game = make_game(2, ruleset="lcg", seed=12)
    for seat, action in (("p1", {"mulligan": True}), ("p2", {"mulligan": False}), ("p1", {"setup": []}),
                         ("p2", {"setup": []})):
        game.refresh_from_db()
        submit(game, seat, action)
    game.refresh_from_db()
    p1, p2 = (game.seats.get(seat=s).user.username for s in ("p1", "p2"))

    def read(client, language):
        def get_json(path):
            response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200
            return response.json()

        return [line["text"] for e in whole_log(get_json, game.id)["entries"] for line in e["lines"]]

    for client in (seat_client(game, "p1"), api_client_for(make_user())):
        english, spanish = read(client, "en"), read(client, "es")
        assert len(english) == len(spanish) > 3
        assert f"{p2} keeps their opening hand." in english and f"{p2} se queda con su mano inicial." in spanish
        assert f"{p2} chooses their setup cards face down." in english
        assert f"{p2} elige sus cartas de inicio boca abajo." in spanish
        assert "Round 1 begins." in english and "Comienza la ronda 1." in spanish
        assert "The Plot phase begins." in english and "Empieza la fase de Trama." in spanish
        assert not set(english) & set(spanish)
    # the drawer reads the names of the cards drawn in both languages; the others the count
    own = read(seat_client(game, "p1"), "es")
    assert any(re.fullmatch(rf"{p1} roba siete cartas: .+ y .+\.", t) for t in own), own
    other = read(seat_client(game, "p2"), "es")
    assert f"{p1} roba siete cartas." in other


@pytest.mark.django_db
def test_a_refused_act_says_why_in_the_readers_language():
    """The engine's refusals (games/engine/lcg/actions.py) are said with games.engine.narration's
    words: the API's `detail` in the request's language; the error code stays English."""
    from django.urls import reverse

    game = make_game(2, ruleset="lcg", seed=12)
    for seat, action in (("p1", {"mulligan": False}), ("p2", {"mulligan": False})):
        submit(game, seat, action)
    game.refresh_from_db()
    hand = LCG.view(game.state, "p1")["players"]["p1"]["hand"]
    costly = {"setup": [c for c in hand if data.cards()[c]["type"] in ("character", "location")]}
    expensive = sum(data.cards()[c].get("cost", 0) for c in costly["setup"]) > 8
    events = [c for c in hand if data.cards()[c]["type"] in ("event", "plot", "agenda")]
    act = {"setup": [events[0]]} if events else costly
    assert events or expensive, hand
    said = {}
    for language in ("en", "es"):
        r = seat_client(game, "p1").post(reverse("api-game-actions", args=[game.id]), {"version": game.version, "action": act},
                                         format="json", HTTP_ACCEPT_LANGUAGE=language)
        assert r.status_code == 400 and r.json()["error"] == "illegal_action", r.json()
        said[language] = r.json()["detail"]
    if events:
        name = data.cards()[events[0]]["name"]
        assert said["en"].startswith(f"{name} is an event: setup cards are characters, locations and attachments")
        assert said["es"].startswith(f"{name} es de tipo Evento: las cartas de inicio son Personajes, Lugares y Accesorios")
    else:
        assert said["en"].startswith("setup cards cost") and said["es"].startswith("las cartas de inicio cuestan")
