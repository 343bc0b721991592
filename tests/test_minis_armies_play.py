"""Saved armies in games (issue 33): a lobby or a game against the computer takes one of the creator's saved armies
("army:<id>") for a seat, if it is theirs, legal, of the seat's faction, of the agreed size and fielded by the
engine; the game keeps a copy (editing the army later changes no game) and is won with the VP its size needs
(M126); the starter lists stay offered at any size that holds them. Refusals are 400s in words."""
from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from games.engine.minis import armies as rules
from games.models import Army, Game, Lobby
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db


def _saved(user, key="list_lannister_30", **changes) -> Army:
    army = copy.deepcopy(rules.starter_armies()[key])
    army.pop("name")
    army.update(changes)
    a = Army(owner=user, name="Host", faction=army["faction"], game_size=army["game_size"],
             commander=army["commander"], units=army["units"], ncus=army["ncus"])
    a.save()
    return a


def _mountain_40(user) -> Army:
    """A 40-point Lannister army within the starter box: Gregor commands, Jaime the Young Lion rides along."""
    return _saved(user, game_size=40, commander="20116",
                  units=[{"unit": "10101", "attachment": "20116"}, {"unit": "10101", "attachment": "20102"},
                         {"unit": "10102", "attachment": "20101"}, {"unit": "10103", "attachment": "20117"}],
                  ncus=["30104", "30105"])


def play(user, **fields):
    return api_client_for(user).post(reverse("api-games-computer"), {"ruleset": "minis", **fields}, format="json")


def test_play_a_saved_40_point_army_against_the_computer_M126():
    user = make_user()
    army = _mountain_40(user)
    assert rules.report(army.army())["playable"] and rules.points(army.army()) == 33
    response = play(user, seat="lannister", options={"game_size": 40, "armies": {"lannister": f"army:{army.pk}"}})
    assert response.status_code == 201, response.json()
    game = Game.objects.get(pk=response.json()["id"])
    assert game.state["game_size"] == 40 and game.state["threshold"] == 10  # M126: 40 points -> 10 VP
    mine = game.state["players"]["lannister"]["list"]
    assert mine["commander"] == "20116" and mine["ncus"] == ["30104", "30105"]
    assert sorted(game.state["players"]["lannister"]["deck"] + game.state["players"]["lannister"]["hand"]) == \
        sorted(rules.tactics_deck(army.army()))  # M16: Gregor's three cards, not Jaime's
    # the computer's Stark army: its starter list, offered at any size that holds it
    assert game.state["players"]["stark"]["list"]["commander"] == "20201"
    # the game keeps its copy: changing the saved army later changes nothing in it
    army.ncus = []
    army.save()
    game.refresh_from_db()
    assert game.options["armies"]["lannister"]["ncus"] == ["30104", "30105"]


@pytest.mark.parametrize(("case", "said"), [
    ("someone_elses", "That army is not one of your saved armies."),
    ("wrong_size", "Host cannot be played: It is an army of 40 points; this game is of 30."),
    ("wrong_seat", "Host is an army of Lannister: it cannot take the Stark seat."),
    ("illegal", "Host cannot be played: Jaime Lannister appears more than once"),
    ("beyond_the_box", "Host cannot be played: The site fields the starter box's contents: 3 copies of Lannister"),
])
def test_a_saved_army_that_cannot_be_brought_is_refused_in_words(case, said):
    user, other = make_user(), make_user()
    options = {"game_size": 40}
    if case == "someone_elses":
        army = _mountain_40(other)
    elif case == "wrong_size":
        army, options = _mountain_40(user), {"game_size": 30}
    elif case == "illegal":
        army = _mountain_40(user)
        army.units[3]["attachment"] = "20117"
        army.commander = army.units[0]["attachment"] = "20115"  # the Kingslayer and the Young Lion together
        army.save()
    elif case == "beyond_the_box":
        army = _mountain_40(user)
        army.units = army.units + [{"unit": "10101"}]
        army.save()
    else:
        army = _mountain_40(user)
    seat = "stark" if case == "wrong_seat" else "lannister"
    response = play(user, seat=seat, options={**options, "armies": {seat: f"army:{army.pk}"}})
    assert response.status_code == 400, response.json()
    assert response.json()["fields"]["options" if case == "wrong_seat" else "army"][0].startswith(said), response.json()
    assert not Lobby.objects.exists() and not Game.objects.exists()


def test_a_lobby_takes_the_creators_saved_army_and_the_game_its_size():
    creator, guest = make_user(), make_user()
    army = _mountain_40(creator)
    client = api_client_for(creator)
    made = client.post(reverse("api-lobbies"), {"ruleset": "minis", "name": "Ford", "seats": 2, "time_limit": 3600,
                                                "house_choice": "pick", "seat": "lannister",
                                                "options": {"game_size": 40,
                                                            "armies": {"lannister": f"army:{army.pk}"}}},
                       format="json")
    assert made.status_code == 201, made.json()
    joined = api_client_for(guest).post(reverse("api-lobby-join", args=[made.json()["id"]]), {"seat": "stark"},
                                        format="json")
    assert joined.status_code == 200, joined.json()
    game = Game.objects.get(pk=joined.json()["game"])
    assert game.state["threshold"] == 10 and game.state["players"]["lannister"]["list"]["commander"] == "20116"
