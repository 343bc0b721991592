"""Pausing by unanimous vote: every player must vote; deadlines freeze with the time each seat had
left and actions are refused; any player resumes; tournament games that lock votes refuse it."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.engine import get_ruleset
from games.models import Game, GameSeat
from games.services import deadlines
from games.signals import vote_check
from tests.factories import api_client_for, make_game

pytestmark = pytest.mark.django_db
HOUR = 3600


def vote(game, seat, pause=True):
    client = api_client_for(game.seats.get(seat=seat).user)
    return client.post(reverse("api-game-pause", args=[game.id]), {"pause": pause}, format="json")


def test_the_game_pauses_only_when_every_player_voted():
    game = make_game(time_limit=HOUR)
    assert vote(game, "stark").json()["pause_votes"] == ["stark"]
    assert vote(game, "lannister").json()["paused_at"] is None
    body = vote(game, "baratheon").json()
    assert body["paused_at"] is not None and body["pause_votes"] == []
    assert body["deadline_at"] is None
    assert all(s["deadline_at"] is None and 0 < s["paused_remaining"] <= HOUR for s in body["seats"])


def test_a_paused_game_refuses_actions_and_never_times_out():
    game = make_game(time_limit=HOUR)
    for seat in game.seat_names():
        vote(game, seat)
    game.refresh_from_db()
    action = get_ruleset("agot").default_action(game.state, "stark")
    response = api_client_for(game.seats.get(seat="stark").user).post(
        reverse("api-game-actions", args=[game.id]), {"version": 0, "action": action}, format="json")
    assert response.status_code == 409 and response.json()["error"] == "game_paused"
    assert deadlines.resolve_overdue(game.id, now=timezone.now() + timedelta(days=30)) == []
    assert Game.objects.get(pk=game.pk).version == 0


def test_any_player_resumes_and_the_clock_restarts_with_the_time_left():
    game = make_game(time_limit=HOUR)
    for seat in game.seat_names():
        vote(game, seat)
    left = GameSeat.objects.get(game=game, seat="lannister").paused_remaining
    before = timezone.now()
    body = vote(game, "lannister", pause=False).json()
    assert body["paused_at"] is None
    deadline = GameSeat.objects.get(game=game, seat="lannister").deadline_at
    assert before + timedelta(seconds=left) <= deadline <= timezone.now() + timedelta(seconds=left)
    assert Game.objects.get(pk=game.pk).deadline_at is not None


def test_a_vote_can_be_withdrawn_and_bots_do_not_vote():
    game = make_game(users=None)
    vote(game, "stark")
    assert vote(game, "stark", pause=False).json()["pause_votes"] == []
    assert vote(game, "stark", pause=False).status_code == 409
    api_client_for(game.seats.get(seat="baratheon").user).post(reverse("api-game-concede", args=[game.id]))
    vote(game, "stark")
    assert vote(game, "lannister").json()["paused_at"] is not None  # the bot's seat is not asked


def test_a_vetoed_vote_is_refused():
    def locked(sender, game, **kwargs):
        return "This is a tournament game: its organizer locked in-game votes."

    vote_check.connect(locked)
    try:
        game = make_game()
        response = vote(game, "stark")
        assert response.status_code == 409 and response.json()["error"] == "votes_locked"
        assert Game.objects.get(pk=game.pk).pause_votes == []
    finally:
        vote_check.disconnect(locked)


def test_tournament_games_that_lock_votes_cannot_be_paused():
    from tests.factories import make_user
    from tournaments import services
    from tournaments.models import Round
    from tournaments.services import TournamentSettings

    organizer = make_user()
    tournament = services.do_create_tournament(
        organizer, TournamentSettings(name="Locked cup", time_limit=3600, seats_per_table=3, rounds=1))
    for _ in range(3):
        services.do_register(tournament.pk, make_user())
    services.do_start(tournament.pk, organizer)
    game = Round.objects.get(tournament=tournament, number=1).tables.get().game
    assert services.votes_locked(game)
    response = vote(game, game.seat_names()[0])
    assert response.status_code == 409 and response.json()["error"] == "votes_locked"


def test_a_player_out_of_a_free_for_all_neither_votes_nor_is_waited_for_M131():
    from games.engine.base import REFEREE
    from games.services.play import do_create_game
    from tests.browser.stage_minis_multiplayer import ELIMINATION_SETUP
    from tests.factories import make_user

    engine = get_ruleset("minis")
    seats = ["stark", "lannister", "stark_2", "lannister_2"]
    game = do_create_game(ruleset="minis", seating={s: make_user() for s in seats}, seed=5,
                          options={"multiplayer": "ffa"}, time_limit=HOUR)
    state = engine.scenario_game(seats, {"multiplayer": "ffa", "reaction_prompts": "playable"}, 5,
                                 ELIMINATION_SETUP, "activation")
    for action in ({"activate": "guards"}, {"attack": {"target": "wolves", "attack": "Long Sword"}}, {"surge": None}):
        state, _ = engine.apply(state, "lannister", action)
    assert engine.summary(state, REFEREE)["eliminated"] == ["stark_2"] and not state["over"]
    game.state = state
    game.save(update_fields=["state"])
    refused = vote(game, "stark_2")
    assert refused.status_code == 403 and "You are out of the game" in refused.json()["detail"], refused.json()
    assert Game.objects.get(pk=game.pk).pause_votes == []
    for seat in ("stark", "lannister"):
        assert vote(game, seat).json()["paused_at"] is None
    body = vote(game, "lannister_2").json()  # the last player still in the battle: stark_2 is not waited for
    assert body["paused_at"] is not None and body["pause_votes"] == []
    assert vote(game, "stark_2", pause=False).status_code == 403  # nor does it resume
    assert Game.objects.get(pk=game.pk).paused_at is not None
