"""Play now against the computer (issue 26): one click from the home page or a game's page makes a
game with the engine's players in every other seat, unrated; lobbies with computer seats and early
starts; the rematch of a finished game."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient as APIClientAnonymous

from games.engine import get_ruleset
from games.models import Game, GameSeat, Lobby
from games.services import computer, lobbies, pause, play
from games.services.computer import ComputerGame
from tests.factories import DEFAULT_PASSWORD, api_client_for, make_user

pytestmark = pytest.mark.django_db

RULESETS = ["agot", "btwixt", "lcg", "minis"]


def logged_in(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=DEFAULT_PASSWORD)
    return client


def people(game: Game) -> list[GameSeat]:
    return [s for s in game.seats.all() if not s.is_computer()]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_one_click_from_the_home_page_starts_an_unrated_game_against_the_computer(ruleset):
    user = make_user()
    client = logged_in(user)
    home = client.get(reverse("home")).content.decode()
    action = reverse("web-play", args=[ruleset])
    assert f'action="{action}"' in home  # the one-click form of each of the four games
    response = client.post(action)  # the button posts nothing but the CSRF token: the defaults
    assert response.status_code == 302
    game = Game.objects.get()
    assert response.url == reverse("web-game", args=[game.pk])
    assert game.ruleset == ruleset and game.is_active() and not game.ranked
    mine = [s for s in game.seats.all() if s.user_id == user.pk]
    others = [s for s in game.seats.all() if s.user_id != user.pk]
    assert len(mine) == 1 and others and all(s.is_computer() and s.is_bot and s.user_id is None for s in others)
    expected = {"agot": 6, "btwixt": 4}.get(ruleset, 2)
    assert game.seats.count() == expected
    # the engine's players answered at once: only the person has a decision pending, or nobody yet
    pending = get_ruleset(ruleset).pending(game.state)
    assert set(pending) <= {mine[0].seat}
    if pending:
        assert mine[0].deadline_at is not None
    payload = api_client_for(user).get(reverse("api-game", args=[game.pk])).json()
    assert payload["vs_computer"] is True and not payload["ranked"]
    assert sum(1 for s in payload["seats"] if s["computer"]) == expected - 1


def test_the_home_page_names_all_four_games_and_your_games_by_ruleset_and_seat():
    user = make_user()
    client = logged_in(user)
    game = computer.do_play_computer(user, ComputerGame("minis", seat="lannister"))
    page = client.get(reverse("home")).content.decode()
    for name in ("A Game of Thrones: The Board Game", "B&#x27;Twixt", "A Game of Thrones: The Card Game",
                 "A Song of Ice and Fire: Tabletop Miniatures"):
        assert name in page
    assert f"Game {game.pk}" in page and "you play Lannister against the computer" in page


def test_a_visitor_is_asked_to_log_in_first():
    client = Client()
    page = client.get(reverse("home")).content.decode()
    assert f"{reverse('login')}?next={reverse('web-play', args=['agot'])}" in page
    response = client.post(reverse("web-play", args=["agot"]))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not Game.objects.exists()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_games_page_offers_play_now_with_its_options(ruleset):
    client = logged_in(make_user())
    page = client.get(reverse("web-play", args=[ruleset])).content.decode()
    assert "Play now against the computer" in page and "unrated" in page
    words = {"agot": "Tides of Battle", "btwixt": "Draft the hands", "lcg": "The computer's deck",
             "minis": "Random terrain"}
    assert words[ruleset] in page


def test_the_options_of_a_game_against_the_computer_are_played():
    user = make_user()
    client = logged_in(user)
    response = client.post(reverse("web-play", args=["agot"]),
                           {"seats": "4", "seat": "greyjoy", "tides_of_battle": "on", "time_limit": "3600"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.seats.count() == 4 and game.options == {"tides_of_battle": True} and game.time_limit == 3600
    assert game.seat_for(user).seat == "greyjoy"


def test_both_decks_of_the_card_game_can_be_chosen():
    user = make_user()
    decks = sorted(lobbies.deck_choices("lcg"))
    mine, theirs = decks[0], decks[-1]
    client = logged_in(user)
    assert client.post(reverse("web-play", args=["lcg"]), {"my_deck": mine, "their_deck": theirs}).status_code == 302
    game = Game.objects.get()
    me = game.seat_for(user).seat
    other = next(s.seat for s in game.seats.all() if s.seat != me)
    assert game.options["decks"] == {me: mine, other: theirs}


@pytest.mark.parametrize(("ruleset", "fields", "said"), [
    ("agot", {"seats": "3", "seat": "martell"}, "Martell does not play at a table of 3"),
    ("agot", {"seats": "9"}, "is played by 3 to 6 players"),
    ("btwixt", {"seat": "nobody"}, "Your leader: choose one in the list."),
    ("lcg", {"my_deck": "no-such-deck"}, "Your deck: choose one of the decks in the list."),
    ("minis", {"time_limit": "5"}, "Time per decision: choose one of the times in the list."),
])
def test_bad_options_are_refused_in_words_and_start_nothing(ruleset, fields, said):
    client = logged_in(make_user())
    response = client.post(reverse("web-play", args=[ruleset]), fields)
    assert response.status_code == 200
    assert said in response.content.decode()
    assert not Game.objects.exists() and not Lobby.objects.exists()


def test_an_unknown_game_has_no_page():
    assert logged_in(make_user()).get("/play/chess/").status_code == 404


def test_a_lone_player_against_the_computer_pauses_alone():
    user = make_user()
    game = computer.do_play_computer(user, ComputerGame("btwixt", seats=3))
    game = pause.do_vote_pause(game.pk, user, pause=True)
    assert game.is_paused()
    game = pause.do_vote_pause(game.pk, user, pause=False)
    assert not game.is_paused()


def test_the_api_creates_a_lobby_with_computer_seats_that_starts_when_the_people_are_in():
    alys, bran = make_user(), make_user()
    body = api_client_for(alys).post(reverse("api-lobbies"), {"ruleset": "agot", "seats": 6, "time_limit": 3600,
                                                             "computer_seats": 4}, format="json").json()
    assert body["computer_seats"] == 4 and body["seats_free"] == 1
    joined = api_client_for(bran).post(reverse("api-lobby-join", args=[body["id"]]), {}, format="json")
    assert joined.status_code == 200
    game = Game.objects.get()
    assert len(people(game)) == 2 and sum(s.is_computer() for s in game.seats.all()) == 4
    assert not game.ranked


def test_computer_seats_and_ranked_do_not_go_together():
    response = api_client_for(make_user()).post(reverse("api-lobbies"), {
        "ruleset": "agot", "seats": 3, "time_limit": 3600, "computer_seats": 1, "ranked": True}, format="json")
    assert response.status_code == 400 and "ranked" in response.json()["fields"]
    response = api_client_for(make_user()).post(reverse("api-lobbies"), {
        "ruleset": "agot", "seats": 3, "time_limit": 3600, "computer_seats": 3}, format="json")
    assert response.status_code == 400 and "computer_seats" in response.json()["fields"]
    assert not Lobby.objects.exists()


def test_the_creator_starts_early_only_when_the_lobby_says_so():
    alys, bran = make_user(), make_user()
    strict = lobbies.do_create_lobby(alys, lobbies.LobbySettings("btwixt", 4, 3600, ranked=True))
    with pytest.raises(lobbies.GameError) as refused:
        lobbies.do_start(strict.pk, alys)
    assert refused.value.get_codes() == "lobby_not_full" and "3 seats are still free" in str(refused.value.detail)
    early = lobbies.do_create_lobby(alys, lobbies.LobbySettings("btwixt", 4, 3600, ranked=True,
                                                                fill_with_computer=True))
    lobbies.do_join_lobby(early.pk, bran)
    lobbies.do_start(early.pk, alys)
    game = Game.objects.get(lobby=early)
    assert len(people(game)) == 2 and sum(s.is_computer() for s in game.seats.all()) == 2
    assert not game.ranked  # a ranked lobby started with computer players is unrated for everyone


def test_a_full_ranked_lobby_that_allows_an_early_start_stays_rated():
    alys, bran, cat = make_user(), make_user(), make_user()
    lobby = lobbies.do_create_lobby(alys, lobbies.LobbySettings("btwixt", 3, 3600, ranked=True,
                                                                fill_with_computer=True))
    lobbies.do_join_lobby(lobby.pk, bran)
    lobbies.do_join_lobby(lobby.pk, cat)
    game = Game.objects.get(lobby=lobby)
    assert game.ranked and not any(s.is_computer() for s in game.seats.all())


def test_the_lobby_form_and_page_offer_computer_seats_and_say_the_game_is_unrated():
    alys = make_user()
    client = logged_in(alys)
    form = client.get(reverse("web-lobby-new")).content.decode()
    assert 'name="computer_seats"' in form and 'name="fill_with_computer"' in form
    response = client.post(reverse("web-lobby-new"), {"ruleset": "agot", "seats": "6", "time_limit": "86400",
                                                      "computer_seats": "4", "fill_with_computer": "on"})
    lobby = Lobby.objects.get()
    assert response.status_code == 302 and lobby.computer_seats == 4 and lobby.fill_with_computer
    page = logged_in(make_user()).get(reverse("web-lobby", args=[lobby.pk])).content.decode()  # a joiner's view
    assert "The computer plays 4 seats." in page and "the computer then plays the empty seats" in page
    assert lobbies.COMPUTER_UNRATED in page
    mine = client.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "Start now: the computer plays the 1 empty seat" in mine
    client.post(reverse("web-lobby-action", args=[lobby.pk, "start"]))
    game = Game.objects.get(lobby=lobby)
    assert len(people(game)) == 1 and game.seats.count() == 6


def test_the_lobby_form_refuses_ranked_with_computer_seats_in_words():
    client = logged_in(make_user())
    response = client.post(reverse("web-lobby-new"), {"ruleset": "agot", "seats": "3", "time_limit": "86400",
                                                      "computer_seats": "1", "ranked": "on"})
    assert response.status_code == 200 and lobbies.COMPUTER_UNRATED in response.content.decode()
    assert not Lobby.objects.exists()


def test_a_rematch_against_the_computer_starts_at_once_with_the_same_seats_and_options():
    user = make_user()
    first = computer.do_play_computer(user, ComputerGame("agot", seats=4, seat="stark",
                                                          options={"tides_of_battle": True}))
    play.do_concede(first.pk, user)
    first.refresh_from_db()
    assert not first.is_active()
    response = logged_in(user).post(reverse("web-rematch", args=[first.pk]))
    second = Game.objects.exclude(pk=first.pk).get()
    assert response.status_code == 302 and response.url == reverse("web-game", args=[second.pk])
    assert second.seat_for(user).seat == "stark" and second.seats.count() == 4
    assert second.options == {"tides_of_battle": True} and not second.ranked
    assert {s.seat for s in second.seats.all() if s.is_computer()} == {"lannister", "baratheon", "greyjoy"}


def test_a_rematch_between_people_waits_for_each_of_them_in_their_old_seat():
    alys, bran = make_user(), make_user()
    lobby = lobbies.do_create_lobby(alys, lobbies.LobbySettings("minis", 2, 3600, ranked=True,
                                                                house_choice=Lobby.HouseChoice.PICK),
                                    seat="lannister")
    lobbies.do_join_lobby(lobby.pk, bran, seat="stark")
    first = Game.objects.get(lobby=lobby)
    play.do_concede(first.pk, bran)
    play.do_concede(first.pk, alys)
    first.refresh_from_db()
    assert not first.is_active()
    response = logged_in(alys).post(reverse("web-rematch", args=[first.pk]))
    rematch = Lobby.objects.get(rematch_of=first)
    assert response.status_code == 302 and response.url == reverse("web-lobby", args=[rematch.pk])
    assert not Game.objects.filter(lobby=rematch).exists()
    response = logged_in(bran).post(reverse("web-rematch", args=[first.pk]))
    second = Game.objects.get(lobby=rematch)
    assert response.url == reverse("web-game", args=[second.pk])
    assert second.seat_for(alys).seat == "lannister" and second.seat_for(bran).seat == "stark" and second.ranked


def test_only_players_of_a_finished_game_ask_for_a_rematch():
    user, stranger = make_user(), make_user()
    game = computer.do_play_computer(user, ComputerGame("lcg"))
    response = logged_in(user).post(reverse("web-rematch", args=[game.pk]))
    assert response.status_code == 302 and response.url == reverse("web-game", args=[game.pk])  # still playing
    play.do_concede(game.pk, user)
    response = logged_in(stranger).post(reverse("web-rematch", args=[game.pk]))
    assert response.url == reverse("web-game", args=[game.pk])
    assert Game.objects.count() == 1
    assert logged_in(user).post(reverse("web-rematch", args=[99999])).status_code == 404


def test_the_api_plays_now_against_the_computer():
    user = make_user()
    client = api_client_for(user)
    response = client.post(reverse("api-games-computer"), {"ruleset": "btwixt", "seats": 3}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["vs_computer"] and not body["ranked"] and len(body["seats"]) == 3 and body["your_seat"]
    refused = client.post(reverse("api-games-computer"), {"ruleset": "agot", "seats": 9}, format="json")
    assert refused.status_code == 400 and "seats" in refused.json()["fields"]
    refused = client.post(reverse("api-games-computer"), {"ruleset": "chess"}, format="json")
    assert refused.status_code == 400 and "ruleset" in refused.json()["fields"]
    assert Game.objects.count() == 1
    assert APIClientAnonymous().post(reverse("api-games-computer"), {"ruleset": "lcg"}, format="json").status_code in (401, 403)


def test_the_computer_is_named_in_the_readers_language_in_the_log():
    """games/queries.seat_player_names: the names put into a narrated log per request; the computer's
    seats are "the computer" in English and "el ordenador" in Spanish."""
    from django.utils import translation

    from games.queries import get_visible_game, seat_player_names

    user = make_user()
    game = computer.do_play_computer(user, ComputerGame("minis", seat="lannister"))
    game = get_visible_game(user, game.pk)
    with translation.override("es"):
        assert seat_player_names(game) == {"lannister": user.username, "stark": "el ordenador"}
    with translation.override("en"):
        assert seat_player_names(game) == {"lannister": user.username, "stark": "the computer"}


def test_several_computer_seats_are_told_apart_in_the_log():
    """A card-game melee against two computer players: the log's "{p2} marshals..." must say which
    computer, so each is named with its seat ("the computer (Player 2)"), in the reader's language."""
    from django.utils import translation

    from games.queries import get_visible_game, seat_player_names

    user = make_user()
    game = computer.do_play_computer(user, ComputerGame("lcg", seat="p1", seats=3))
    game = get_visible_game(user, game.pk)
    with translation.override("en"):
        assert seat_player_names(game) == {"p1": user.username, "p2": "the computer (Player 2)",
                                           "p3": "the computer (Player 3)"}
    with translation.override("es"):
        assert seat_player_names(game) == {"p1": user.username, "p2": "el ordenador (Jugador 2)",
                                           "p3": "el ordenador (Jugador 3)"}
