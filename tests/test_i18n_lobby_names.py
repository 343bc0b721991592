"""The names of the lobbies the site makes ("Play now against the computer", "Rematch") are worded
when shown, in the reader's language (issue 29, games/lobby_names.py); a name someone gave a lobby is
shown as written; lobbies stored with the English words before this still read in each language."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import Game, Lobby
from games.services import computer, lobbies, play
from games.services.computer import ComputerGame
from tests.factories import DEFAULT_PASSWORD, api_client_for, make_lobby, make_user

pytestmark = pytest.mark.django_db


def shown(lobby: Lobby, language: str) -> str:
    with translation.override(language):
        return str(lobby)


def api_title(user, lobby: Lobby, language: str) -> dict:
    r = api_client_for(user).get(reverse("api-lobby", args=[lobby.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 200, r.json()
    return r.json()


def test_a_game_against_the_computer_is_named_in_each_readers_language():
    user = make_user(username="tyrion")
    game = computer.do_play_computer(user, ComputerGame("minis"))
    lobby = game.lobby
    assert lobby.name == ""  # nothing English is stored
    assert shown(lobby, "en") == "tyrion against the computer"
    assert shown(lobby, "es") == "tyrion contra el ordenador"
    en, es = api_title(user, lobby, "en"), api_title(user, lobby, "es")
    assert en["name"] == es["name"] == ""
    assert en["title"] == "tyrion against the computer" and es["title"] == "tyrion contra el ordenador"


def test_a_rematch_lobby_is_named_in_each_readers_language_on_its_page_and_in_the_list():
    alys, bran = make_user(username="alys"), make_user(username="bran")
    first_lobby = lobbies.do_create_lobby(alys, lobbies.LobbySettings("minis", 2, 3600, house_choice=Lobby.HouseChoice.PICK),
                                          seat="lannister")
    lobbies.do_join_lobby(first_lobby.pk, bran, seat="stark")
    first = Game.objects.get(lobby=first_lobby)
    play.do_concede(first.pk, bran)
    play.do_concede(first.pk, alys)
    rematch = computer.do_rematch(first.pk, alys).lobby
    assert rematch.name == ""
    assert shown(rematch, "en") == f"Rematch of game {first.pk}"
    assert shown(rematch, "es") == f"Revancha de la partida {first.pk}"
    reader = Client()
    assert reader.login(username=bran.username, password=DEFAULT_PASSWORD)
    for language, words in (("en", f"Rematch of game {first.pk}"), ("es", f"Revancha de la partida {first.pk}")):
        page = reader.get(reverse("web-lobby", args=[rematch.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f"<h1>{words}</h1>" in page
        listing = reader.get(reverse("web-lobbies"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert words in listing
        home = reader.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f">{words}</a>" in home  # the home page's open lobbies (web/views.py home_lobbies_html)
    assert api_title(bran, rematch, "es")["title"] == f"Revancha de la partida {first.pk}"


def test_names_stored_in_english_before_read_in_each_language_and_own_names_as_written():
    tyrion = make_user(username="tyrion")
    old_computer = make_lobby(tyrion, name="tyrion against the computer")
    old_rematch = make_lobby(tyrion, name="Rematch of game 12")
    own = make_lobby(tyrion, name="Viernes en Poniente")
    unnamed = make_lobby(tyrion)
    assert shown(old_computer, "es") == "tyrion contra el ordenador"
    assert shown(old_computer, "en") == "tyrion against the computer"
    assert shown(old_rematch, "es") == "Revancha de la partida 12"
    assert shown(own, "es") == shown(own, "en") == "Viernes en Poniente"
    assert shown(unnamed, "es") == "Sala de tyrion" and shown(unnamed, "en") == "tyrion's lobby"
