"""Anonymous players (issue 34, Swords and Ravens' "faceless"; docs/rules-decisions.md "AGoT variants"):
a ranked 3-player game made with the lobby form's `anonymous` switch. While it runs, no other player's
username reaches anyone through what the site gives out: the API's game answer and log, the chat (API),
the game page, the lobby page and lists, the home page, My games, the replay step, the websocket's
updates and presence, the notifications. Each seat still reads its own name. Once the game is over the
names are shown and the game is rated as any other. The scanner is proved on a planted leak first."""
from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from django.urls import reverse

from games.consumers import connected_to
from games.engine import get_ruleset
from games.models import Game, Lobby, Presence
from games.services import play
from games.services.notify import fan_out
from notifications.models import Notification
from notifications.services import compose
from ratings.models import RatedGame
from tests.factories import api_client_for, make_user, whole_log

pytestmark = pytest.mark.django_db(transaction=False)

R = get_ruleset("agot")
FORM = {"ruleset": "agot", "name": "Faceless", "seats": "3", "time_limit": "3600", "house_choice": "random",
        "anonymous": "on", "ranked": "on"}


def names_in(text: str, names: list[str], own: str | None) -> set[str]:
    """The usernames of `names` (but `own`) that `text` holds."""
    return {n for n in names if n != own and n in text}


def outputs(game: Game, user, names: list[str]) -> dict[str, str]:
    """Everything the site gives `user` (None: a visitor not logged in) about the game, as text."""
    api = api_client_for(user) if user is not None else None
    web = Client()
    if user is not None:
        web.force_login(user)

    def get_json(path: str) -> dict:
        return (api or web).get(path).json()

    out = {
        "api game": json.dumps(get_json(reverse("api-game", args=[game.pk]))),
        "api log": json.dumps(whole_log(get_json, game.pk)),
        "game page": web.get(reverse("web-game", args=[game.pk])).content.decode(),
        "lobby page": web.get(reverse("web-lobby", args=[game.lobby_id])).content.decode(),
        "lobby list": web.get(reverse("web-lobbies")).content.decode(),
        "home": web.get("/").content.decode(),
        "replay step": web.get(reverse("web-replay-step", args=[game.pk, game.version])).content.decode(),
    }
    if user is not None:
        out["api chat"] = json.dumps(api.get(reverse("api-game-chat", args=[game.pk])).json())
        out["my games"] = web.get(reverse("web-my-games")).content.decode()
    return out


def leaks(game: Game, users: dict[str, object], spectator, names: list[str]) -> list[tuple[str, str, set[str]]]:
    found = []
    for seat, user in [*users.items(), ("spectator", spectator), ("visitor", None)]:
        own = user.username if user is not None else None
        for where, text in outputs(game, user, names).items():
            if hit := names_in(text, names, own if seat not in ("spectator", "visitor") else None):
                found.append((seat, where, hit))
    return found


def start(client_of_creator, others) -> Game:
    response = client_of_creator.post(reverse("web-lobby-new"), FORM)
    assert response.status_code == 302
    lobby = Lobby.objects.get()
    assert lobby.options == {"anonymous": True}
    for user in others:
        assert api_client_for(user).post(reverse("api-lobby-join", args=[lobby.pk]), {}, format="json").status_code == 200
    return Game.objects.get(lobby=lobby)


def test_names_are_hidden_until_the_end_then_shown_and_rated():
    users = [make_user(username=f"zqfaceless{n}") for n in range(3)]
    names = [u.username for u in users]
    creator = Client()
    creator.force_login(users[0])
    assert 'name="anonymous"' in creator.get(reverse("web-lobby-new")).content.decode()
    game = start(creator, users[1:])
    assert game.options["anonymous"] and game.ranked and game.is_active()
    by_seat = {s.seat: s.user for s in game.seats.select_related("user")}
    spectator = make_user(username="zqwatcher")
    assert "anonymous players" in creator.get(reverse("web-lobby", args=[game.lobby_id])).content.decode()

    # the scanner finds a name planted where a reader would see it
    planted = outputs(game, spectator, names)
    planted["api game"] = planted["api game"].replace('"seats": [', f'"seats": [{{"user": "{names[1]}"}}, ', 1)
    assert names_in(planted["api game"], names, None) == {names[1]}

    # players connected and chatting, a few moves played: nothing names another player
    for seat, user in by_seat.items():
        Presence.objects.create(game=game, user=user, channel_name=f"test.{seat}")
        api_client_for(user).post(reverse("api-game-chat", args=[game.pk]), {"text": f"I am {seat}"}, format="json")
    Presence.objects.create(game=game, user=spectator, channel_name="test.spectator")
    rng = random.Random(3)
    records = []
    for _ in range(25):
        seat = rng.choice(sorted(R.pending(game.state)))
        version = game.version
        game = play.do_submit_action(game.pk, by_seat[seat], action=R.random_action(game.state, seat, rng),
                                     version=version).game
        records += list(game.actions.filter(version__gt=version))
    assert game.is_active()
    assert not leaks(game, by_seat, spectator, names)
    # the scanner reads the places that name players: without the option they do
    game.options = {**game.options, "anonymous": False}
    game.save(update_fields=["options"])
    shown = {(seat, where) for seat, where, _ in leaks(game, by_seat, spectator, names)}
    assert {("spectator", "api game"), ("spectator", "api chat"), ("spectator", "lobby page"), ("visitor", "api game"),
            ("stark", "api chat")} <= shown, shown
    assert names_in(json.dumps(connected_to(game.pk)), names, None) == set(names)
    game.options = {**game.options, "anonymous": True}
    game.save(update_fields=["options"])
    own = api_client_for(by_seat["stark"]).get(reverse("api-game", args=[game.pk])).json()["seats"]
    assert {r["seat"]: r["user"] for r in own}["stark"] == by_seat["stark"].username   # each sees its own name
    assert {r["user"] for r in own if r["seat"] != "stark"} == {"a faceless player"}
    socket = json.dumps([fan_out(game.pk, game.ruleset, records, list(by_seat)), connected_to(game.pk)])
    assert not names_in(socket, names, None), socket
    assert sorted(connected_to(game.pk)) == sorted(f"seat:{s}" for s in by_seat)   # who is online, by seat
    for note in Notification.objects.filter(game=game).select_related("user"):
        assert not names_in(json.dumps([note.data, *compose(note)]), names, note.user.username), note.kind

    # to the end: the names are shown, and the game is rated as any other
    while game.is_active():
        seat = rng.choice(sorted(R.pending(game.state)))
        game = play.do_submit_action(game.pk, by_seat[seat], action=R.random_action(game.state, seat, rng),
                                     version=game.version).game
    seen = outputs(game, spectator, names)
    assert names_in(seen["api game"], names, None) == set(names)
    assert RatedGame.objects.filter(game=game).exists()
