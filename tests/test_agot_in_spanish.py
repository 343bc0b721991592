"""The board game's log in Spanish (issue 29): games/engine/agot/narrate.py writes each sentence as one
translatable template (games.engine.narration), so the same stored events read in the reader's
language. Over the events of seeded random engine games and hand-made events of the kinds random games
rarely reach: in Spanish every sentence differs from its English one, holds no English sentence words
(names the rulebooks leave in English taken out), no placeholder and no "None"; it uses the glossary's
terms (games/i18n/glossary/agot.yaml, the Spanish rulebook's words); the site's English is the engine's
own English; and the log API narrates in the language of the request."""
from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.engine import get_ruleset
from games.engine.agot import narrate
from games.engine.agot.data import HOUSES, _load, board, house_cards, westeros_cards
from games.i18n import glossary
from tests.engine.agot_helpers import R
from tests.factories import api_client_for, make_game, seat_client
from tests.narrated import engine_alone
from tests.platform_helpers import submit

AGOT = get_ruleset("agot")

# Words of an English sentence that no Spanish sentence holds (once the names are taken out).
ENGLISH = re.compile(r"\b(the|and|with|from|to|of|in|is|are|its|for|by|has|loses|gains|places|takes|order|orders|"
                     r"card|cards|units|round|battle|wins|bid|bids|nobody|none|face-down|strength|power|tokens?)\b"
                     r"|'s\b", re.IGNORECASE)
RAW = re.compile(r"%\(|%s|\bNone\b|[_{}\[\]]")


def _events(players: int, seed: int, tides: bool, cap: int = 4000):
    rnd = random.Random(seed * 31 + players)
    state = R.new_game(R.seat_names(players), {"tides_of_battle": True} if tides else {}, seed)
    n = 0
    while not R.is_over(state) and n < cap:
        seat = rnd.choice(sorted(R.pending(state)))
        state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
        yield from events
        n += 1


# Kinds and variants random games rarely reach: the house cards' abilities, neutral forces, a tie...
HAND_MADE = [
    {"type": "card_ability", "house": "tyrell", "card": "queen_of_thorns", "declined": True},
    {"type": "card_ability", "house": "martell", "card": "doran_martell", "opponent": "stark",
     "cancelled": "eddard_stark"},
    {"type": "card_ability", "house": "tyrell", "card": "mace_tyrell", "opponent": "stark", "discarded": "robb_stark"},
    {"type": "card_ability", "house": "stark", "card": "eddard_stark", "prevented_by": "tyrion_lannister"},
    {"type": "card_ability", "house": "tyrell", "card": "ser_loras_tyrell", "upgraded": True, "area": "highgarden"},
    {"type": "card_ability", "house": "martell", "card": "doran_martell", "moved": "lannister",
     "track": "kings_court"},
    {"type": "card_ability", "house": "lannister", "card": "tywin_lannister", "power": 2},
    {"type": "card_ability", "house": "greyjoy", "card": "aeron_damphair", "paid": 2},
    {"type": "card_ability", "house": "stark", "card": "roose_bolton", "hand_returned": True},
    {"type": "card_ability", "house": "martell", "card": "arianne_martell", "to": "sunspear",
     "returned": ["knight", "footman"]},
    {"type": "card_ability", "house": "tyrell", "card": "ser_loras_tyrell", "from": "the_reach", "to": "highgarden"},
    {"type": "card_ability", "house": "baratheon", "card": "renly_baratheon"},
    {"type": "neutral_force_holds", "house": "stark", "area": "the_eyrie", "strength": 4, "needed": 6},
    {"type": "neutral_force_destroyed", "house": "baratheon", "area": "kings_landing", "strength": 5},
    {"type": "combat_won", "area": "the_twins", "winner": "stark", "loser": "lannister", "casualties": 2,
     "strength": {"stark": 4, "lannister": 4}, "decided_by": "fiefdoms_tie"},
    {"type": "combat_started", "attacker": "stark", "area": "moat_cailin", "origin": "winterfell",
     "units": ["knight", "siege_engine", "siege_engine"], "neutral": 4},
    {"type": "support_declared", "house": "tyrell", "for": "lannister", "area": "the_reach"},
    {"type": "units_destroyed", "house": "stark", "area": "winterfell", "units": ["footman"], "reason": "mace_tyrell"},
    {"type": "units_destroyed", "house": "stark", "units": {"winterfell": ["knight"]}, "why": "supply"},
    {"type": "units_destroyed", "house": "stark", "units": {"winterfell": ["knight"]}, "why": "crow_killers"},
    {"type": "raid_removed", "house": "stark", "area": "winterfell", "token": "raid*", "reason": "only_defense"},
    {"type": "march_removed", "house": "stark", "area": "winterfell", "token": "march-1", "reason": "routed"},
    {"type": "raid_removed", "house": "stark", "area": "winterfell", "token": "raid", "forced": True},
    {"type": "house_card_replaced", "house": "greyjoy", "card": "balon_greyjoy", "area": "pyke"},
    {"type": "ships_replaced", "house": "greyjoy", "area": "port_of_lannisport", "count": 2},
    {"type": "units_replaced", "house": "stark", "units": {"winterfell": ["knight"]},
     "destroyed": {"winterfell": ["footman"]}, "forced": True},
    {"type": "retreat", "house": "stark", "from": "winterfell", "units": []},
    {"type": "westeros_done", "restrictions": []},
    {"type": "westeros_card", "card": "mustering", "deck": "westeros_1"},
    {"type": "winter_is_coming", "deck": "westeros_2", "card": "clash_of_kings"},
    {"type": "wildling_card", "card": "crow_killers", "nights_watch": True, "highest": "stark"},
    {"type": "wildling_result", "strength": 6, "total": 9, "nights_watch": True, "threat": 0},
    {"type": "dominance", "house": "stark", "token": "iron_throne"},
    {"type": "game_over", "winner": "stark", "instant": True, "ranking": ["stark", "lannister", "greyjoy"]},
    {"type": "combat_over", "area": "the_twins"},
    {"type": "muster", "house": "stark", "recruited": {}, "upgraded": {"winterfell": ["knight"]},
     "source": "a_throne_of_blades"},
    {"type": "power_gained", "house": "stark", "gained": 1, "card": "game_of_thrones"},
    {"type": "tides_drawn_detail", "house": "stark", "card": None},
]


@pytest.fixture(scope="module")
def samples() -> list[dict]:
    """One event per (kind, set of keys) over seeded random 3- to 6-player games, and the hand-made ones."""
    out: dict[tuple, dict] = {}
    for players in (3, 4, 5, 6):
        for seed in (0, 1):
            for ev in _events(players, seed, tides=bool(seed % 2)):
                out.setdefault((ev["type"], tuple(sorted(ev))), ev)
    return list(out.values()) + HAND_MADE


@pytest.fixture(scope="module")
def names_kept_in_english() -> list[str]:
    """Names the Spanish keeps in English (the seeds give no Spanish one), longest first."""
    names = {e["english"] for e in glossary.entries("agot") if e["spanish"] is None}
    names |= {h.capitalize() for h in HOUSES}
    for info in board().areas.values():
        names.add(glossary.term("agot", info["name"], "area"))
    names |= {glossary.term("agot", c["name"], "house_card") for c in house_cards().values()}
    names |= {glossary.term("agot", c["name"], "wildling_card") for c in _load("wildling_cards.yaml")["cards"]}
    return sorted(names, key=len, reverse=True)


def _in(language: str, ev: dict) -> dict:
    with translation.override(language):
        return narrate.describe(ev)


def _bare(text: str, names: list[str]) -> str:
    for name in names:
        text = text.replace(name, " ")
    return text


def test_random_games_reach_the_main_kinds(samples):
    kinds = {ev["type"] for ev in samples}
    for kind in ("orders_placed", "orders_revealed", "march", "raid", "combat_started", "combat_won", "muster",
                 "westeros_revealed", "bids_revealed", "track", "wildling_result", "game_over"):
        assert kind in kinds


def test_every_sentence_reads_in_spanish(samples, names_kept_in_english):
    for ev in samples:
        english, spanish = _in("en", ev), _in("es", ev)
        es = spanish["text"]
        assert es and not RAW.search(es), (ev, es)
        assert "".join(p["text"] for p in spanish["parts"]) == es
        bare_en = re.sub(r"[\W\d]+", "", _bare(english["text"], names_kept_in_english))
        if bare_en:  # not only names and numbers: the Spanish is another sentence
            assert es != english["text"], (ev, es)
        left = ENGLISH.findall(_bare(es, names_kept_in_english))
        assert not left, (ev, es, left)
        # the houses stay pieces a page colours, in Spanish as in English
        assert [p.get("house") for p in spanish["parts"] if "house" in p] == \
            [p.get("house") for p in english["parts"] if "house" in p] or ev["type"] == "card_ability", (ev, es)
        for key in ("key", "headline", "private", "areas", "round", "phase"):
            assert spanish.get(key) == english.get(key), (ev, key)


def test_spanish_uses_the_rulebooks_words():
    """The glossary's terms, which cite the Spanish rulebook (seed 000) line by line."""
    def es(ev):
        return _in("es", ev)["text"]

    battle = es({"type": "combat_started", "attacker": "stark", "defender": "lannister", "area": "the_twins",
                 "origin": "winterfell", "units": ["knight", "footman", "footman", "siege_engine"], "neutral": None})
    # 000:413 "U: Un Barco, Soldado, Caballero o Torre de asedio."; 000:423 Invernalia; 000:741 Los Gemelos
    assert battle == ("Batalla en Los Gemelos: Stark ataca desde Invernalia con un Caballero, dos Soldados y "
                      "una Torre de asedio a Lannister.")
    assert glossary.entry("agot", "Footman")["seed"][0]["line"] == "000:413"
    # 000:1270 "La orden de Avance", 000:3310 "Avance +1"; 000:69 "Cuervo mensajero"
    assert es({"type": "raven_replace", "house": "stark", "area": "winterfell", "old": "march+1*",
               "new": "defense+1"}) == ("Stark usa el Cuervo mensajero para cambiar una orden especial de Avance +1 "
                                        "en Invernalia por una orden de Defensa +1.")
    # 000:3165 "UN TRONO DE ESPADAS", 000:365 "Mazo de Poniente I"
    assert es({"type": "westeros_card", "card": "a_throne_of_blades", "deck": "westeros_1"}) == \
        "Se resuelve Un Trono de Espadas (Mazo de Poniente I)."
    # 000:45 "Avatares de la guerra", 000:3267 "Icono de Espada"
    tides = es({"type": "tides_drawn_detail", "house": "stark", "card": _tides_with_a_sword()})
    assert tides.startswith("Stark roba una carta de Avatares de la guerra de valor ") and "icono de Espada" in tides
    # 000:2266 "Guardia de la Noche", 000:193 "Salvajes"
    assert es({"type": "wildling_result", "strength": 6, "total": 9, "nights_watch": True, "threat": 0}) == \
        ("Contra la fuerza 6 de los Salvajes, las Casas apuestan 9: la Guardia de la Noche resiste. "
         "La Amenaza queda en 0.")
    # a name the seeds do not give stays English (Silence at the Wall: spanish null)
    assert "Silence at the Wall" in es({"type": "wildling_card", "card": "silence_at_the_wall",
                                        "nights_watch": False, "lowest": "stark"})
    # the Westeros card names, every one of them, come from the glossary
    for c in westeros_cards().values():
        with translation.override("es"):
            assert narrate.card(c["id"]) == glossary.term("agot", c["name"], "westeros_card")


def _tides_with_a_sword() -> str:
    from games.engine.agot.data import tides_cards

    return next(cid for cid, info in tides_cards().items() if info["swords"])


def test_the_sites_english_is_the_engines_own(samples):
    """In English the site's words change nothing: each sentence is what the engine says without them."""
    with translation.override("en"):
        on_site = [narrate.describe(ev) for ev in samples]
    with engine_alone():
        own = [narrate.describe(ev) for ev in samples]
    assert on_site == own
    assert own[0]["text"]  # and a few sentences exactly as they always read
    assert narrate.narrate({"type": "raid", "house": "stark", "area": "winterfell", "token": "raid*"}) == \
        "Stark raids from Winterfell with a special Raid order."
    assert narrate.narrate({"type": "power_gained", "house": "stark", "gained": 0, "area": "winterfell"}) == \
        "Stark gains no Power tokens in Winterfell."


@pytest.mark.django_db
def test_the_log_api_narrates_in_the_requests_language():
    game = make_game(3, seed=21)
    while game.state["phase"] == "planning":  # orders, then the Messenger Raven
        seat = sorted(AGOT.pending(game.state))[0]
        submit(game, seat, AGOT.default_action(game.state, seat))
        game.refresh_from_db()

    def said(client, language):
        r = client.get(reverse("api-game-log", args=[game.id]), HTTP_ACCEPT_LANGUAGE=language)
        assert r.status_code == 200
        return [line["text"] for e in r.json()["entries"] for line in e["lines"]]

    stark = seat_client(game, "stark")
    english, spanish = said(stark, "en"), said(stark, "es")
    assert any(t.startswith("The orders are revealed.") for t in english)
    assert any(t.startswith("Se muestran las órdenes.") for t in spanish)
    assert any(t.startswith("Stark places") for t in english)
    assert any(t.startswith("Stark coloca") for t in spanish)
    assert any("visibles solo para Stark" in t for t in spanish)  # Stark's own orders, to Stark alone
    assert len(english) == len(spanish) and all(e != s for e, s in zip(english, spanish, strict=True))
    other = said(api_client_for(game.seats.get(seat="lannister").user), "es")
    assert not any("Stark" in t and "visibles solo" in t for t in other)


@pytest.mark.django_db
def test_a_refused_action_is_explained_in_the_requests_language():
    """The engine's refusal of an illegal act (games/engine/agot/planning.py) reaches the player in
    their language; the error code stays English."""
    game = make_game(3, seed=21)
    stark = seat_client(game, "stark")

    def refused(language):
        r = stark.post(reverse("api-game-actions", args=[game.id]),
                       {"version": game.version, "action": {"place_orders": {"pyke": "raid"}}}, format="json",
                       HTTP_ACCEPT_LANGUAGE=language)
        assert r.status_code in (400, 409, 422), r.json()
        return r.json()

    english, spanish = refused("en"), refused("es")
    assert english["error"] == spanish["error"] == "illegal_action"
    # names, not ids, and no rule numbers: those are in the error's "rules", for programs
    assert english["detail"] == "Stark has no units in Pyke to give an order"
    assert spanish["detail"] == "Stark no tiene unidades en Pyke a las que dar una orden"
    assert english["rules"] == spanish["rules"] == ["R112", "R121"]


@pytest.mark.django_db
def test_the_board_data_names_areas_and_cards_in_the_readers_language(client):
    """/board/agot.json (web/board.py): areas and cards by the glossary's names and the Westeros cards'
    effects as the Spanish rulebook prints them (web/data/westeros_cards_es.yaml) for a Spanish
    reader; English otherwise."""
    english = client.get(reverse("web-board-data"), HTTP_ACCEPT_LANGUAGE="en").json()
    spanish = client.get(reverse("web-board-data"), HTTP_ACCEPT_LANGUAGE="es").json()
    assert english["areas"]["winterfell"]["name"] == "Winterfell" and spanish["areas"]["winterfell"]["name"] == "Invernalia"
    assert spanish["areas"]["castle_black"]["name"] == "Castle Black"  # spanish: null in the glossary
    assert spanish["westeros_cards"]["a_throne_of_blades"]["name"] == "Un Trono de Espadas"  # 000:3165
    assert spanish["house_cards"]["euron_crows_eye"]["name"] == "Euron Ojo de Cuervo"  # 000:1939
    assert english["westeros_cards"]["rains_of_autumn"]["effect"].startswith("The special March +1 order")
    assert spanish["westeros_cards"]["rains_of_autumn"]["effect"] == (  # 000:3066-3069
        "Los jugadores no pueden asignar la Orden especial de Avance +1 durante la siguiente fase de Planificación.")
    assert set(spanish["westeros_cards"]) == set(english["westeros_cards"])
    assert all(spanish["westeros_cards"][c]["effect"] != english["westeros_cards"][c]["effect"]
               for c in english["westeros_cards"])


def test_the_westeros_cards_effects_are_the_seeds_words():
    """Each effect of web/data/westeros_cards_es.yaml is the text of the seed lines it cites (ligatures
    and line ends joined), when ../shared/seeds is there."""
    from pathlib import Path

    from games.engine import yamlfile

    seed = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds" / "000_4bc5a92fd4dd1b7e.txt"
    if not seed.exists():
        pytest.skip("the seeds are not next to the project")
    lines = seed.read_text().split("\n")
    squash = lambda text: re.sub(r"[\s\-]+", "", text)  # noqa: E731
    for card in yamlfile.load(Path("web/data/westeros_cards_es.yaml"))["cards"]:
        first, last = (int(n) for n in card["seed"].split(":")[1].split("-"))
        assert squash(card["effect"]) in squash(" ".join(lines[first - 1:last + 1])), card["id"]


def test_every_card_text_of_the_page_is_marked_and_said_in_spanish():
    """The house cards' abilities and the wildling cards' texts the page shows (web/board.py) are all
    marked in web/agot_texts.py, and a Spanish reader reads each in Spanish."""
    from web.agot_texts import TEXTS
    from web.board import agot_board

    english, spanish = agot_board("en"), agot_board("es")
    for cid, card in english["house_cards"].items():
        if card["ability"]:
            assert card["ability"] in TEXTS, cid
            assert spanish["house_cards"][cid]["ability"] not in ("", card["ability"]), cid
    for cid, card in english["wildling_cards"].items():
        for line in ("highest_bidder", "lowest_bidder", "everyone_else"):
            assert card[line] in TEXTS, (cid, line)
            assert spanish["wildling_cards"][cid][line] not in ("", card[line]), (cid, line)
    assert spanish["wildling_cards"]["mammoth_riders"]["lowest_bidder"] == \
        "Destruye 3 de sus unidades en cualquier lugar del tablero."
