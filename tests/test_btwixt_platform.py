"""B'Twixt on the platform (issue 10): a 4-seat ranked lobby through the API starts a game; the
deadline machinery alone (every decision timing out to its documented default) plays it to the
end; the game is rated per ruleset and its log rebuilds it."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.engine import get_ruleset
from games.models import Game, GameSeat
from games.services.deadlines import resolve_overdue
from games.services.replay import snapshot_matches_log
from ratings.models import RatingChange
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db


def test_a_btwixt_lobby_game_runs_to_the_end_on_timeouts_and_is_rated():
    creator = make_user()
    lobby = api_client_for(creator).post(reverse("api-lobbies"), {
        "ruleset": "btwixt", "seats": 4, "time_limit": 600, "ranked": True, "max_consecutive_timeouts": 0,
    }, format="json").json()
    for _ in range(3):
        body = api_client_for(make_user()).post(reverse("api-lobby-join", args=[lobby["id"]]), {}, format="json").json()
    game = Game.objects.get(pk=body["game"])
    assert len(game.seat_names()) == 4
    view = api_client_for(creator).get(reverse("api-game", args=[game.pk])).json()
    assert view["ruleset"] == "btwixt" and view["summary"]["season"]
    now = timezone.now()
    for _ in range(2000):
        game.refresh_from_db()
        if not game.is_active():
            break
        now += timedelta(seconds=601)
        resolve_overdue(game.pk, now=now)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and sorted(game.ranking) == sorted(game.seat_names())
    assert GameSeat.objects.filter(game=game, deadline_at__isnull=False).count() == 0
    assert RatingChange.objects.filter(game=game, ruleset="btwixt").count() == 4
    assert snapshot_matches_log(game)
    # Token values are revealed to everyone once the game is over (SCENARIOS.md, btwixt views).
    summary = api_client_for(make_user()).get(reverse("api-game", args=[game.pk])).json()["summary"]
    assert summary["winners"] and get_ruleset("btwixt").is_over(game.state)
