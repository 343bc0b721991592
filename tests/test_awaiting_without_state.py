"""Whether a game awaits a player's decision is read from the seat's deadline columns, not from the
game's state (issue 27: the home page and My games read fifty states for it). This holds only while
the deadline service keeps a deadline on exactly the seats with a pending decision, frozen by a pause:
checked here at every step of a game, through a pause and its resume, and on the pages and the API."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine import get_ruleset
from games.models import Game, GameSeat
from games.services import deadlines
from games.services.pause import do_vote_pause
from tests.factories import api_client_for, make_game

pytestmark = pytest.mark.django_db


def assert_awaiting_is_pending(game: Game) -> set[str]:
    game.refresh_from_db()
    pending = set(get_ruleset(game.ruleset).pending(game.state)) if game.is_active() else set()
    awaiting = {s.seat for s in GameSeat.objects.filter(game=game) if s.awaits_decision()}
    assert awaiting == pending, (game.version, awaiting, pending)
    return pending


def test_awaiting_is_the_engines_pending_at_every_step_and_through_a_pause():
    game = make_game(3, seed=21, max_consecutive_timeouts=0)  # no seat goes to the computer
    now = timezone.now()
    for step in range(40):
        pending = assert_awaiting_is_pending(game)
        if not game.is_active():
            break
        if step == 5:  # every player votes to pause: deadlines freeze, the decisions stay pending
            for seat in game.seats.all():
                do_vote_pause(game.pk, seat.user, pause=True)
            game.refresh_from_db()
            assert game.is_paused() and pending
            assert_awaiting_is_pending(game)
            do_vote_pause(game.pk, game.seats.first().user, pause=False)
            assert_awaiting_is_pending(game)
            continue
        now += timedelta(seconds=game.time_limit + 1)
        assert deadlines.resolve_overdue(game.pk, now=now)


def test_my_games_pages_and_api_mark_exactly_the_games_awaiting_you():
    game = make_game(3, seed=22)
    pending = set(get_ruleset("agot").pending(game.state))
    for seat in game.seats.select_related("user"):
        mine = seat.seat in pending
        listed = api_client_for(seat.user).get(reverse("api-my-games") + "?awaiting=true").json()["results"]
        assert [g["id"] for g in listed] == ([game.pk] if mine else [])
        client = Client()
        client.force_login(seat.user)
        home = client.get(reverse("home")).content.decode()
        assert ("your move" in home) is mine and ("waiting for others" in home) is not mine
        assert ('class="awaiting"' in client.get(reverse("web-my-games")).content.decode()) is mine
