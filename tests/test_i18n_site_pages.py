"""The site's remaining pages in Spanish (issue 29): the lobby list, the new-lobby form with its errors,
a lobby in each state, My games, Games that need a player, each game's play page with its errors, the
leaderboards, the replay page, a profile's ratings, rating history and recent games, and the home page's
recent results (games/results.py's words, kept rendered per language). As tests/test_i18n.py checks: the
Spanish rendering keeps no visible sentence of the English one but names, and says its own sentences."""
from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import Game, Lobby
from games.services import lobbies
from games.services.play import do_concede
from ratings.templatetags.site_words import seat_name
from tests.factories import make_game, make_lobby, make_user
from tests.test_game_results import LAST_ROUND, near_the_end, new_game, play_out
from tests.test_i18n import english_left, html_lang, visible_texts

pytestmark = pytest.mark.django_db

HOUSES = {"Stark", "Lannister", "Baratheon", "Greyjoy", "Tyrell", "Martell"}
# words Spanish writes as English does
SAME = {"provisional"}


def deck_names() -> set[str]:
    """The card game's decks: names (the card game has no Spanish edition in the seeds: docs/glossary-es.md)."""
    return set(lobbies.deck_choices("lcg").values())


def but_names(left: set[str], names: set[str]) -> set[str]:
    """The texts left that say more than names, numbers and punctuation ("1. Stark: arya; 2. Lannister:
    brienne" is names only)."""
    out = set()
    for text in left:
        rest = text
        every = set(names) | SAME
        for name in sorted(every | {" ".join(n.split()).strip(" .:;,·()") for n in every}, key=len, reverse=True):
            rest = rest.replace(name, " ")
        if re.search(r"[A-Za-z]{2,}", rest):
            out.add(text)
    return out


def spanish_left(factory, url: str, names: set[str] = frozenset()) -> tuple[set[str], set[str]]:
    """tests/test_i18n.py's english_left, names taken out of mixed texts too; the viewer's own name is a name."""
    client = factory()
    me = {client.session.get("_auth_user_id")} - {None}
    from accounts.models import User

    names = set(names) | set(User.objects.filter(pk__in=me).values_list("username", flat=True)) | deck_names()
    left, spanish = english_left(lambda: client, url, names=names)
    return but_names(left, names), spanish


def logged_in(user):
    """A client factory for english_left: a new client logged in as `user` (who follows the browser)."""
    def factory() -> Client:
        client = Client()
        client.force_login(user)
        return client
    return factory


def posted_left(user, url: str, data: dict, names: set[str] = frozenset()) -> tuple[set[str], set[str], str]:
    """english_left for a form posted in both languages (its errors shown): the English texts the Spanish
    page keeps, the Spanish page's texts and its HTML."""
    pages = {}
    for language in ("en", "es"):
        client = logged_in(user)()
        response = client.post(url, data, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code in (200, 400) and html_lang(response) == language, (url, response.status_code)
        pages[language] = response.content.decode()
    english, spanish = visible_texts(pages["en"]), visible_texts(pages["es"])
    from tests.test_i18n import NAMES

    return but_names(english & spanish - NAMES, set(names) | deck_names() | {user.username}), spanish, pages["es"]


def leaders() -> set[str]:
    from web import btwixt

    return set(btwixt.catalogue()["leaders"].values())


# --- lobbies ------------------------------------------------------------------------------------------

def test_the_lobby_list_has_no_english_sentence_in_spanish():
    arya = make_user(username="arya")
    make_lobby(arya, time_limit=5400, ranked=True)
    make_lobby(make_user(username="brienne"), ruleset="btwixt", seat_count=4, time_limit=600, clock_bank=300,
               clock_increment=5, computer_seats=1)
    make_lobby(make_user(username="cersei"), name="Casa de los Siete", time_limit=86400, clock_bank=1200)
    for factory in (Client, logged_in(arya)):
        left, spanish = spanish_left(factory, "/lobbies/", names={"arya", "brienne", "cersei", "Casa de los Siete"})
        assert not left, f"English left on the Spanish lobby list: {sorted(left)}"
    assert {"Salas abiertas", "Sala de arya", "1 hora y 30 minutos por decisión", "10 minutos por decisión, reloj de "
            "5 minutos + 5 segundos", "2 de 4 ocupados (1 por el ordenador", "no puntuable: jugadores del ordenador",
            "puntuable", "amistosa", "Crear una sala", "con un asiento libre", "Partidas que necesitan un jugador",
            "Tierra de Nadie"} <= spanish, spanish


def test_the_new_lobby_form_has_no_english_sentence_in_spanish():
    arya = make_user(username="arya")
    # the miniatures' army lists name units the Spanish rules do not name: the English names are kept
    from games.engine.minis import data as minis_data
    from games.rulesets import minis_lists

    units = {minis_data.card(u)["name"] for lst in minis_lists().values()
             for u in [*(c["unit"] for c in lst["combat_units"]), *(c["attachment"] for c in lst["combat_units"]
                                                                    if c.get("attachment")), *lst["ncus"]]}
    left, spanish = spanish_left(logged_in(arya), "/lobbies/new/", names=HOUSES | leaders() | units)
    assert not left, f"English left on the Spanish lobby form: {sorted(left)}"
    assert {"Crear una sala", "Juego de Tronos: El Juego de Tablero", "Tierra de Nadie (juego de cartas, de 3 a 6 Líderes",
            "Tiempo por decisión", "1 día", "5 minutos + 5 segundos por decisión", "Modo corto", "Partida avanzada",
            "Modo Aliados a la vista", "Avatares de la guerra (regla opcional", "Tu Líder (cuando cada jugador elige",
            "Jon Nieve", "El mazo de tu rival (cuando asignas los dos", "Jugadores del ordenador (ocupan estos asientos "
            "desde el principio", "privada (solo con enlace de invitación"} <= spanish, spanish


@pytest.mark.parametrize("data, said", [
    ({"ruleset": "agot", "seats": "9", "time_limit": "7", "clock": "1+1"},
     ["Tiempo por decisión: elige uno de los tiempos de la lista.", "Reloj: elige ninguno o uno de los relojes de la lista."]),
    ({"ruleset": "agot", "seats": "", "time_limit": "3600", "tides_of_battle": "maybe", "computer_seats": "-1"},
     ["Jugadores: di cuántos (de 3 a 6).", "Avatares de la guerra: marca la casilla o déjala vacía.",
      "Jugadores del ordenador: 0 o más."]),
    ({"ruleset": "btwixt", "seats": "3", "time_limit": "3600", "house_choice": "pick"},
     ["Tu Líder: elige el Líder con el que juegas (en esta sala cada jugador elige su asiento)."]),
    ({"ruleset": "lcg", "time_limit": "3600", "deck_choice": "assign"},
     ["Para asignar los mazos: elige el tuyo y el de tu rival."]),
    ({"ruleset": "minis", "time_limit": "3600", "army": "targaryen"}, ["Tu ejército: elige Stark o Lannister."]),
])
def test_the_new_lobby_form_s_errors_are_in_spanish(data, said):
    arya = make_user(username="arya")
    left, spanish, page = posted_left(arya, "/lobbies/new/", data, names=HOUSES | leaders())
    assert not any(w in " ".join(left) for w in (" the ", "choose", "tick", "Players:")), sorted(left)
    assert "No se ha creado la sala:" in page
    for sentence in said:
        assert sentence in page, sentence


def lobby_in_each_state() -> dict[str, tuple[Lobby, object]]:
    arya, brienne = make_user(username="arya"), make_user(username="brienne")
    out = {
        "open": (make_lobby(arya, ranked=True, private=True, clock_bank=1200, clock_increment=10,
                            fill_with_computer=True, password="secreto"), arya),
        "pick": (make_lobby(arya, ruleset="btwixt", house_choice=Lobby.HouseChoice.PICK, seat="jon_snow",
                            options={"short": True, "advanced": True}, computer_seats=1, seat_count=4), arya),
        "assign": (make_lobby(arya, house_choice=Lobby.HouseChoice.ASSIGN, private_chat=False), arya),
        "decks": (make_lobby(arya, ruleset="lcg", seat_count=2), arya),
        "armies": (make_lobby(arya, ruleset="minis", seat_count=2, options={"mode": "here_we_stand", "terrain": "random"}),
                   arya),
    }
    started = make_lobby(arya, seat_count=3)
    for user in (brienne, make_user(username="cersei")):
        lobbies.do_join_lobby(started.pk, user)
    out["started"] = (Lobby.objects.get(pk=started.pk), brienne)
    cancelled = make_lobby(arya)
    lobbies.do_cancel(cancelled.pk, arya)
    out["cancelled"] = (Lobby.objects.get(pk=cancelled.pk), arya)
    lobbies.do_join_lobby(out["assign"][0].pk, brienne)
    return out


def test_a_lobby_in_each_state_has_no_english_sentence_in_spanish():
    states = lobby_in_each_state()
    names = {"arya", "brienne", "cersei", *HOUSES, *leaders()} | {str(lobby) for lobby, _ in states.values()}
    names |= set(lobbies.deck_choices("lcg").values())  # the card game's decks: no Spanish edition in the seeds
    seen: set[str] = set()
    for state, (lobby, member) in states.items():
        url = f"/lobbies/{lobby.pk}/" + (f"?invite={lobby.invite_token}" if lobby.private else "")
        for factory in (Client, logged_in(member), logged_in(make_user())):
            left, spanish = spanish_left(factory, url, names=names | {f"http://testserver{url}"})
            assert not left, f"English left on the Spanish lobby ({state}): {sorted(left)}"
            seen |= spanish
    assert {"esperando jugadores", "la partida ha empezado", "cancelada", "puntuable", "amistosa",
            "reloj de 20 minutos + 10 segundos por decisión", "Enlace de invitación",
            "Empezar ya: el ordenador juega los 2 asientos vacíos", "Cancelar la sala",
            "Unirte", "Salir", "Ir a la partida", "Asignar", "Quitar", "sin chat privado", "contraseña",
            "Líderes: los jugadores eligen por orden de llegada", "Modo corto", "Partida avanzada",
            "mazos: cada jugador elige", "Tu mazo", "sorteado", "El ordenador juega 1 asiento",
            "terreno al azar", "para unirte",
            "Casas: al azar al empezar"} <= seen, seen


def test_a_lobby_s_refusal_is_said_without_the_api_s_field_names(client):
    lobby = make_lobby(make_user(username="arya"), house_choice=Lobby.HouseChoice.PICK, seat="stark")
    client.force_login(make_user())
    response = client.post(f"/lobbies/{lobby.pk}/join", {"seat": "nope"}, HTTP_ACCEPT_LANGUAGE="es", follow=True)
    page = response.content.decode()
    said = page[page.index('<ul class="messages">'):page.index("</ul>", page.index('<ul class="messages">'))]
    assert html_lang(response) == "es" and "seat:" not in said and "Some fields" not in said, said
    assert "Algunos campos no son válidos." in said, said


# --- my games, games that need a player, play pages ---------------------------------------------------

def test_my_games_has_no_english_sentence_in_spanish():
    arya = make_user(username="arya")
    game = make_game(3, users=[arya, make_user(), make_user()], time_limit=5400)
    card_game = make_game(2, ruleset="lcg", users=[arya, make_user()])
    Game.objects.filter(pk=card_game.pk).update(status=Game.Status.FINISHED)
    seats = {seat_name(s.seat, g.ruleset) for g in (game, card_game) for s in g.seats.all()}
    left, spanish = spanish_left(logged_in(arya), "/games/", names={"arya", *seats})
    assert not left, f"English left on the Spanish My games: {sorted(left)}"
    assert {"Mis partidas", f"partida n.º {game.pk}", "en curso", "terminada", "repetición", "Tu asiento",
            "Juego de Tronos: El Juego de Tablero", "1 hora y 30 minutos"} <= spanish, spanish
    assert "Todavía no tienes partidas" in " ".join(spanish_left(logged_in(make_user()), "/games/")[1])


def test_games_that_need_a_player_have_no_english_sentence_in_spanish():
    users = [make_user() for _ in range(3)]
    game = make_game(users=users, clock_bank=1200, clock_increment=10)
    seat = game.seat_for(users[0]).seat
    do_concede(game.pk, users[0])
    lobby = make_lobby(min_rating=1400, min_reliability=0.8)
    Game.objects.filter(pk=game.pk).update(lobby=lobby)
    names = {seat_name(seat, "agot")}
    seen: set[str] = set()
    for factory in (Client, logged_in(make_user()), logged_in(users[1])):
        left, spanish = spanish_left(factory, "/games/needs-player/", names=names)
        assert not left, f"English left on the Spanish needs-a-player page: {sorted(left)}"
        seen |= spanish
    assert {"Partidas que necesitan un jugador", f"partida amistosa n.º {game.pk}", "Ocupar el asiento",
            "para ocupar un asiento", "puntuación de 1400 o más, fiabilidad del 80% o más", "Requisitos", "Progreso",
            "1 día por decisión, reloj de 20 minutos + 10 segundos", "ronda 1"} <= seen, seen
    # taking the seat: the message in Spanish
    taker = logged_in(make_user())()
    answer = taker.post(f"/games/needs-player/{game.pk}/{seat}/take", HTTP_ACCEPT_LANGUAGE="es", follow=True)
    assert "El asiento es tuyo: sigue jugando." in answer.content.decode()


@pytest.mark.parametrize("ruleset", ["agot", "btwixt", "lcg", "minis"])
def test_each_play_page_has_no_english_sentence_in_spanish(ruleset):
    from games.engine.minis import data as minis_data
    from games.rulesets import minis_lists

    units = {minis_data.card(u)["name"] for lst in minis_lists().values()
             for u in [*(c["unit"] for c in lst["combat_units"]), *(c["attachment"] for c in lst["combat_units"]
                                                                    if c.get("attachment")), *lst["ncus"]]}
    names = HOUSES | leaders() | units | set(lobbies.deck_choices("lcg").values())
    for factory in (Client, logged_in(make_user())):
        left, spanish = spanish_left(factory, f"/play/{ruleset}/", names=names)
        assert not left, f"English left on the Spanish play page of {ruleset}: {sorted(left)}"
    assert {"Juega ya contra el ordenador", "Juega contra otras personas", "Clasificación", "Tiempo por decisión",
            "Reloj"} <= spanish, spanish
    words = {"agot": "Tu Casa", "btwixt": "Tu Líder", "lcg": "El mazo del ordenador", "minis": "Terreno al azar"}
    assert words[ruleset] in spanish


def test_a_play_page_s_errors_are_in_spanish():
    left, spanish, page = posted_left(make_user(), "/play/agot/", {"seats": "3", "seat": "martell", "time_limit": "5"},
                                      names=HOUSES)
    assert "No se ha empezado la partida:" in page
    assert "Martell no juega en una mesa de 3: elige más jugadores u otra Casa." in page
    assert "Tiempo por decisión: elige uno de los tiempos de la lista." in page
    assert not any(" the " in text for text in left), sorted(left)


# --- results: leaderboards, replay, profile, home -----------------------------------------------------

@pytest.fixture
def finished():
    """A ranked card game played out by its two players (ratings, history), and a board game whose first
    player conceded in its last round (the computer played on)."""
    card_game, (arya, brienne) = new_game("lcg", 2, ranked=True)
    card_game = play_out(near_the_end(card_game))
    board_game, (alys, *_others) = new_game("agot", 3)
    board_game = play_out(near_the_end(board_game), until=lambda state: state["round"] >= LAST_ROUND)
    do_concede(board_game.pk, alys)
    board_game = play_out(board_game)
    cache.clear()  # the home page's recent results are kept a few seconds
    return card_game, board_game, arya, brienne, alys


def test_the_leaderboards_have_no_english_sentence_in_spanish(finished):
    card_game, _, arya, brienne, _ = finished
    for url in ("/leaderboards/", "/leaderboards/lcg/"):
        left, spanish = spanish_left(Client, url, names={arya.username, brienne.username})
        assert not left, f"English left on the Spanish leaderboard {url}: {sorted(left)}"
    assert {"Clasificación: A Game of Thrones: The Card Game", "Jugador", "Puntuación", "Partidas puntuables",
            "provisional", "Otras clasificaciones", "Tierra de Nadie"} <= spanish, spanish
    assert "Todavía no hay jugadores puntuados: primero tienen que terminar partidas puntuables" in \
        spanish_left(Client, "/leaderboards/minis/")[1]


def test_the_replay_page_has_no_english_sentence_in_spanish(finished):
    card_game, board_game, arya, brienne, alys = finished
    for game in (card_game, board_game):
        names = {s.user.username for s in game.seats.all() if s.user} | HOUSES | {seat_name(s, game.ruleset)
                                                                                   for s in game.seat_names()}
        left, spanish = spanish_left(Client, f"/games/{game.pk}/replay", names=names)
        assert not left, f"English left on the Spanish replay of {game.ruleset}: {sorted(left)}"
    assert {f"Repetición de la partida {board_game.pk}", "« Inicio", "◀ Atrás", "Siguiente ▶", "Final »", "Ver como",
            "un espectador", "Este paso", "Acercar", "Tablero entero"} <= spanish, spanish
    # each step in words in the reader's language (narrated from the stored events when asked): a board
    # game its two players left after their first orders
    from games.engine import get_ruleset
    from games.services.play import do_submit_action

    short, people = new_game("agot", 2)
    engine = get_ruleset("agot")
    for user in people:
        short.refresh_from_db()
        seat = short.seat_for(user).seat
        if seat in engine.pending(short.state):
            do_submit_action(short.pk, user, action=engine.bot_action(short.state, seat), version=short.version)
    for user in people:
        do_concede(short.pk, user)
    short.refresh_from_db()
    assert not short.is_active()
    said: dict[str, list[str]] = {"en": [], "es": []}
    for step in range(1, short.version + 1):
        for language in said:
            entry = Client().get(f"/games/{short.pk}/replay/{step}.json", HTTP_ACCEPT_LANGUAGE=language).json()["entry"]
            said[language] += [line["text"] for line in entry.get("lines", [])]
    assert said["en"] and len(said["en"]) == len(said["es"]) and not set(said["en"]) & set(said["es"]), said
    # a game in progress: its replay waits, in words
    game = make_game(3)
    answer = Client().get(f"/games/{game.pk}/replay/0.json", HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 409 and answer.json() == {
        "error": "not_finished", "detail": "Las repeticiones se abren cuando termina la partida."}


def test_a_profile_s_ratings_history_and_recent_games_have_no_english_sentence_in_spanish(finished):
    card_game, board_game, arya, brienne, alys = finished
    url = reverse("public-profile", args=[arya.username])
    names = {arya.username, brienne.username, *HOUSES, *(seat_name(s, "lcg") for s in card_game.seat_names())}
    names |= {f"{arya.username} (you)"}
    left, spanish = spanish_left(Client, url, names=names)
    assert not left, f"English left on the Spanish profile: {sorted(left)}"
    assert {"Puntuaciones", "Fiabilidad", "Historial de puntuación", "Partidas recientes", "Jugado por", "terminada",
            "Partidas puntuables", f"partida n.º {card_game.pk}", "puntuable", "Partidas jugadas"} <= spanish, spanish
    assert any(t.startswith("1 partida puntuable") for t in spanish) or "1 partida puntuable" in " ".join(spanish)
    # the seat its player left: in words of the reader's language
    left, spanish = spanish_left(Client, reverse("public-profile", args=[alys.username]), names={alys.username, *HOUSES})
    assert not left, f"English left on the Spanish profile: {sorted(left)}"
    assert f"{alys.username} (se fue en la ronda {LAST_ROUND}; el ordenador siguió jugando" in spanish, spanish


def test_the_home_page_s_recent_results_are_in_the_reader_s_language(finished):
    card_game, board_game, arya, brienne, alys = finished
    names = {u.username for u in (arya, brienne, alys)} | {s.user.username for s in board_game.seats.all() if s.user}
    names |= HOUSES | {seat_name(s, "lcg") for s in card_game.seat_names()}
    left, spanish = spanish_left(Client, "/", names=names)
    assert not left, f"English left on the Spanish home page: {sorted(left)}"
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    section = page[page.index("Resultados recientes"):]
    assert f"Stark: {alys.username} (se fue en la ronda {LAST_ROUND}; el ordenador siguió jugando)" in section
    english = Client().get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Stark: {alys.username} (left in round {LAST_ROUND}; the computer played on)" in english


def test_the_results_words_follow_the_active_language(finished):
    """games/results.py builds its sentences when they are asked for, in the active language (the game
    page's end screen, the API's `result`)."""
    from games.results import game_result

    _, board_game, _, _, alys = finished
    seats = list(board_game.seats.select_related("user"))
    with translation.override("es"):
        spanish = game_result(board_game, seats, None)
    english = game_result(board_game, seats, None)
    assert spanish["headline"] != english["headline"] and " won " in english["headline"] + " "
    assert "ganó" in spanish["headline"] and "Castillo" in spanish["headline"], spanish["headline"]
    stark = next(p for p in spanish["places"] if p["seat"] == "stark")
    assert stark["who"] == f"{alys.username} (se fue en la ronda {LAST_ROUND}; el ordenador siguió jugando)"


def test_the_btwixt_engine_refuses_in_the_reader_s_language():
    from games.engine import get_ruleset
    from games.engine.base import EngineError

    engine = get_ruleset("btwixt")
    seats = engine.seat_names(3)
    state = engine.new_game(seats, {}, 7)
    seat = next(iter(engine.pending(state)))
    with translation.override("es"), pytest.raises(EngineError) as refused:
        engine.apply(state, seat, {"play": "no_such_card"})
    assert refused.value.reason == "no_such_card no está en tu mano"
    with pytest.raises(EngineError) as refused:
        engine.apply(state, seat, {"play": "no_such_card"})
    assert refused.value.reason == "no_such_card is not in your hand"


def test_every_btwixt_card_text_is_marked_and_said_in_spanish():
    """The reference set's ability texts are the project's own: each is marked in web/btwixt_texts.py (a
    new or changed text in the YAML fails here) and the Spanish catalogue of the page says it in Spanish."""
    from games.engine.btwixt import data
    from web import btwixt
    from web.btwixt_texts import TEXTS

    english = data.catalogue()
    texts = {t["text"] for card in english["cards"].values() for t in card["texts"] if t.get("text")}
    assert texts <= set(TEXTS), sorted(texts - set(TEXTS))
    with translation.override("es"):
        spanish = btwixt.catalogue()
    assert spanish is not btwixt.catalogue()  # English outside the override
    for card_id, card in english["cards"].items():
        for said, told in zip(card["texts"], spanish["cards"][card_id]["texts"], strict=True):
            if said.get("text"):
                assert told["text"] != said["text"] and told["timing"] == said["timing"], (card_id, told)
    assert spanish["cards"]["iron_bank_loan"]["texts"][0]["text"] == \
        "Roba 2 cartas de Influencia y después descarta 1 carta de tu mano a tu elección."
    assert spanish["cards"]["betrayal"]["name"] == "Traición" and spanish["leaders"]["jon_snow"] == "Jon Nieve"
