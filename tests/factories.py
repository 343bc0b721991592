"""Factories: build what a test needs with unique names, overriding only what the test is about."""
from __future__ import annotations

import itertools

from accounts.models import ApiToken, User

DEFAULT_PASSWORD = "a-long-and-unusual-passphrase-42"

_sequence = itertools.count(1)


def make_user(*, username: str | None = None, email: str | None = None, password: str = DEFAULT_PASSWORD, **extra) -> User:
    n = next(_sequence)
    username = username or f"player{n}"
    email = email or f"{username}@example.com"
    return User.objects.create_user(username=username, email=email, password=password, **extra)


def make_token(user: User | None = None, name: str = "script") -> tuple[ApiToken, str]:
    return ApiToken.issue(user or make_user(), name)


def make_lobby(creator: User | None = None, **overrides):
    from games.services.lobbies import LobbySettings, do_create_lobby

    settings = {"ruleset": "agot", "seat_count": 3, "time_limit": 3600}
    join = overrides.pop("join", True)
    seat = overrides.pop("seat", "")
    settings.update(overrides)
    return do_create_lobby(creator or make_user(), LobbySettings(**settings), join=join, seat=seat)


def make_game(players: int = 3, *, ruleset: str = "agot", seed: int = 7, users: list[User] | None = None, **kwargs):
    """A started game with a fresh user in every seat (or `users`, in seat order)."""
    from games.engine import get_ruleset
    from games.services.play import do_create_game

    seats = get_ruleset(ruleset).seat_names(players)
    users = users or [make_user() for _ in seats]
    return do_create_game(ruleset=ruleset, seating=dict(zip(seats, users, strict=True)), seed=seed, **kwargs)


def api_client_for(user: User):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(user)
    return client


def seat_client(game, seat: str):
    """An API client of the user in the game's `seat`."""
    return api_client_for(game.seats.get(seat=seat).user)


def whole_log(get_json, game_id: int, invite: str | None = None) -> dict:
    """A game's whole log as a reader gets it, a page at a time (GET /log?after=V, issue 27):
    `get_json(path)` answers the JSON of an API path. The last page's body with every page's entries
    (a take-over a page repeats is kept once: version, source and seat name it)."""
    entries, seen, after = [], set(), 0
    while True:
        path = f"/api/v1/games/{game_id}/log?after={after}" + (f"&invite={invite}" if invite else "")
        page = get_json(path)
        for entry in page["entries"]:
            key = (entry["version"], entry["source"], entry["seat"])
            if key not in seen:
                seen.add(key)
                entries.append(entry)
        if page["next"] is None:
            return {**page, "entries": entries}
        assert page["through"] > after, "a page must move on"
        after = page["through"]
