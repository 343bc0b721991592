"""A mirror match on the site (issue 33): two people who both bring an army of one house to a two-player lobby, a
challenge or a game against the computer sit at that house's two seats (`stark` + `stark_2`) instead of being
refused; Stark against Lannister stays the default. What is still illegal is refused in words."""
from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from games.engine import get_ruleset
from games.engine.base import HIDDEN
from games.engine.minis import armies as rules
from games.models import Army, Game, Lobby
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db


def _saved(user, key: str = "list_stark_30", name: str = "Wolves", drop_ncu: bool = False) -> Army:
    army = copy.deepcopy(rules.starter_armies()[key])
    army.pop("name")
    a = Army(owner=user, name=name, faction=army["faction"], game_size=army["game_size"],
             commander=army["commander"], units=army["units"], ncus=army["ncus"][:1] if drop_ncu else army["ncus"])
    a.save()
    return a


def _create(user, **fields):
    return api_client_for(user).post(reverse("api-lobbies"), {"ruleset": "minis", "time_limit": 600, **fields},
                                     format="json")


def _join(user, lobby_id: int, **fields):
    return api_client_for(user).post(reverse("api-lobby-join", args=[lobby_id]), fields, format="json")


def _move_once(game: Game, user) -> None:
    engine = get_ruleset("minis")
    seat = game.seat_for(user).seat
    sent = api_client_for(user).post(reverse("api-game-actions", args=[game.pk]),
                                     {"version": game.version, "action": engine.bot_action(game.state, seat)},
                                     format="json")
    assert sent.status_code == 200, sent.json()


def test_two_people_bringing_stark_armies_sit_at_starks_two_seats_and_play():
    host, guest = make_user(), make_user()
    mine, theirs = _saved(host, name="North"), _saved(guest, name="Winterfell", drop_ncu=True)
    made = _create(host, seats=2, army=f"army:{mine.pk}")
    assert made.status_code == 201, made.json()
    joined = _join(guest, made.json()["id"], army=f"army:{theirs.pk}")
    assert joined.status_code == 200, joined.json()
    game = Game.objects.get(pk=joined.json()["game"])
    assert {s.seat: s.user for s in game.seats.all()} == {"stark": host, "stark_2": guest}
    assert game.seat_names() == ["stark", "stark_2"] and game.state["seats"] == ["stark", "stark_2"]
    # each seat fields the army its player brought (the guest's has one NCU)
    assert game.state["players"]["stark"]["list"]["ncus"] == mine.ncus
    assert game.state["players"]["stark_2"]["list"]["ncus"] == theirs.ncus[:1]
    # the game is played: whoever is asked moves (the roll-off and deployment first)
    engine = get_ruleset("minis")
    for _ in range(4):
        game.refresh_from_db()
        seat = sorted(engine.pending(game.state))[0]
        _move_once(game, host if seat == "stark" else guest)
    game.refresh_from_db()
    assert game.version >= 4 and game.is_active()
    # a player's view hides the other army's hand
    mine = api_client_for(host).get(reverse("api-game", args=[game.pk])).json()["summary"]
    theirs = api_client_for(guest).get(reverse("api-game", args=[game.pk])).json()["summary"]
    assert mine == engine.summary(game.state, "stark") and theirs == engine.summary(game.state, "stark_2")
    assert mine["hands"]["stark_2"] == HIDDEN and theirs["hands"]["stark"] == HIDDEN


def test_the_lobby_page_names_the_second_army_and_a_stark_and_lannister_lobby_is_unchanged(client):
    host, guest, third = make_user(), make_user(), make_user()
    made = _create(host, seats=2, army=f"army:{_saved(host).pk}")
    lobby = Lobby.objects.get(pk=made.json()["id"])
    # before a second Stark army comes, the seats are Stark and Lannister, as ever
    from games.services import lobbies

    assert lobbies.seat_choices(lobby) == ["stark", "lannister"] and lobbies.free_seats(lobby) == ["lannister"]
    lannister = _create(third, seats=2, army=f"army:{_saved(third, 'list_lannister_30', name='Red').pk}")
    joined = _join(guest, lannister.json()["id"], army=f"army:{_saved(guest, name='Grey').pk}")
    game = Game.objects.get(pk=joined.json()["game"])
    assert game.seat_names() == ["stark", "lannister"]
    client.force_login(host)
    other = make_user()
    _join(other, lobby.pk, army=f"army:{_saved(other, name='Bolton').pk}")
    page = client.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "Stark (second army)" in page


def test_a_challenge_between_two_stark_armies_is_a_mirror_match(client):
    from challenges.models import Challenge
    from challenges.services import ChallengeRequest, do_create_challenge

    alys, bran = make_user(), make_user()
    north, wolves = _saved(alys, name="North"), _saved(bran, name="Wolves", drop_ncu=True)
    made = do_create_challenge(alys, ChallengeRequest(ruleset="minis", users=[bran.username], time_limit=3600,
                                                      options={}, deck=f"army:{north.pk}"))
    client.force_login(bran)
    answered = client.post(reverse("challenge-answer", args=[made.pk, "accept"]), {"army": f"army:{wolves.pk}"})
    assert answered.status_code == 302
    game = Challenge.objects.get(pk=made.pk).game
    assert {s.seat: s.user for s in game.seats.all()} == {"stark": alys, "stark_2": bran}
    assert game.options["armies"]["stark_2"]["ncus"] == wolves.ncus[:1]


def test_play_your_army_against_the_computers_army_of_the_same_house():
    user = make_user()
    red = _saved(user, "list_lannister_30", name="Red")
    response = api_client_for(user).post(reverse("api-games-computer"), {
        "ruleset": "minis", "seat": "lannister",
        "options": {"armies": {"lannister": f"army:{red.pk}", "lannister_2": "list_lannister_30"}}}, format="json")
    assert response.status_code == 201, response.json()
    game = Game.objects.get(pk=response.json()["id"])
    assert {s.seat: (s.user, s.is_bot) for s in game.seats.all()} == {"lannister": (user, False),
                                                                       "lannister_2": (None, True)}
    assert game.state["players"]["lannister_2"]["list"]["commander"] == red.commander


@pytest.mark.parametrize(("armies", "said"), [
    ({"stark_2": "list_stark_30", "lannister": "list_lannister_30"}, "this game has no Lannister seat"),
    ({"stark_2": "list_stark_30", "lannister_2": "list_lannister_30"}, "this game has no Lannister (second army) seat"),
])
def test_armies_for_seats_a_two_player_game_does_not_have_are_refused_in_words(armies, said):
    user = make_user()
    response = api_client_for(user).post(reverse("api-games-computer"), {
        "ruleset": "minis", "seat": "stark", "options": {"armies": armies}}, format="json")
    assert response.status_code == 400, response.json()
    assert said in str(response.json()) and "one house's two armies" in str(response.json())
    assert not Lobby.objects.exists() and not Game.objects.exists()


def test_a_lobby_that_gives_the_lannister_seat_its_army_still_refuses_a_second_stark_army_in_words():
    host, guest = make_user(), make_user()
    made = _create(host, seats=2, army=f"army:{_saved(host).pk}", options={"armies": {"lannister": "list_lannister_30"}})
    assert made.status_code == 201, made.json()
    refused = _join(guest, made.json()["id"], army=f"army:{_saved(guest).pk}")
    assert refused.status_code == 409 and "Every Stark seat is taken" in refused.json()["detail"]
    assert Lobby.objects.get(pk=made.json()["id"]).members.count() == 1


def test_the_games_page_plays_your_army_against_the_computers_army_of_your_house(client):
    user = make_user()
    north = _saved(user, name="North", drop_ncu=True)
    client.force_login(user)
    page = client.get(reverse("web-play", args=["minis"])).content.decode()
    assert "The computer's army" in page and '<option value="list_stark_30" >the Stark starter army</option>' in page
    response = client.post(reverse("web-play", args=["minis"]), {"my_army": f"army:{north.pk}",
                                                                 "their_army": "list_stark_30"})
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get()
    assert {s.seat: s.user for s in game.seats.all()} == {"stark": user, "stark_2": None}
    assert game.state["players"]["stark"]["list"]["ncus"] == north.ncus[:1]
    assert game.state["players"]["stark_2"]["list"]["ncus"] == rules.starter_armies()["list_stark_30"]["ncus"]


def test_the_games_page_seats_you_against_the_computers_chosen_house_or_says_why_not_in_words(client):
    user = make_user()
    client.force_login(user)
    response = client.post(reverse("web-play", args=["minis"]), {"their_army": "list_stark_30"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert {s.seat: s.user for s in Game.objects.get().seats.all()} == {"stark": None, "lannister": user}
    refused = client.post(reverse("web-play", args=["minis"]), {"their_army": "list_stark_30", "seats": "3"})
    assert refused.status_code == 200 and "The computer&#x27;s army is chosen in a game of two players" in \
        refused.content.decode()
    spanish = client.post(reverse("web-play", args=["minis"]), {"their_army": "list_stark_30", "seats": "3"},
                          HTTP_ACCEPT_LANGUAGE="es")
    assert "El ejército del ordenador" in spanish.content.decode()
    assert Game.objects.count() == 1


def test_a_rematch_of_a_mirror_match_against_the_computer_seats_the_same_armies():
    from games.services import computer

    user = make_user()
    red = _saved(user, "list_lannister_30", name="Red")
    client = api_client_for(user)
    made = client.post(reverse("api-games-computer"), {
        "ruleset": "minis", "seat": "lannister",
        "options": {"armies": {"lannister": f"army:{red.pk}", "lannister_2": "list_lannister_30"}}}, format="json")
    game = Game.objects.get(pk=made.json()["id"])
    assert client.post(reverse("api-game-concede", args=[game.pk]), {}, format="json").status_code == 200
    again = computer.do_rematch(game.pk, user).game
    assert again is not None and again.pk != game.pk
    assert {s.seat: s.user for s in again.seats.all()} == {"lannister": user, "lannister_2": None}
    assert again.options["armies"] == game.options["armies"]
