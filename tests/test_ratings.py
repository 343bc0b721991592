"""ratings/services.py (issue 7, "Ratings"): which games count, recording once, abandoning ranks last,
provisional K, recompute equals incremental, the management command, the lobby join filter."""
from __future__ import annotations

import random
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.engine import get_ruleset
from games.models import Game, GameSeat
from games.services.play import do_concede, do_submit_action
from ratings import services
from ratings.models import Rating, RatingChange
from tests.factories import make_game, make_lobby, make_user

pytestmark = pytest.mark.django_db

T0 = timezone.now() - timedelta(days=30)


def finish(game: Game, order: list | None = None, *, at=None, leavers=(), status=Game.Status.FINISHED) -> Game:
    """End `game` with `order` (users, first place first; default: seat order) as the engine's ranking."""
    seat_of = {s.user_id: s.seat for s in game.seats.all()}
    seats = [seat_of[u.pk] for u in order] if order else game.seat_names()
    seats += [s for s in game.seat_names() if s not in seats]  # bot seats after the players
    for user in leavers:
        GameSeat.objects.filter(game=game, user=user).update(left_at=at or timezone.now(), is_bot=True)
    game.status = status
    game.ranking = seats
    game.finished_at = at or timezone.now()
    game.save()
    return game


def ranked(users, **kwargs) -> Game:
    return make_game(len(users), users=users, ranked=True, **kwargs)


def rating(user, ruleset="agot") -> float | None:
    return services.rating_of(user, ruleset)


def test_a_ranked_finished_game_changes_ratings_from_1500():
    """Three newcomers (K 64, 2 opponents): +32, 0, -32; every rating starts at 1500."""
    a, b, c = make_user(), make_user(), make_user()
    changes = services.record_finished_game(finish(ranked([a, b, c])))
    assert {(ch.user_id, ch.placement, ch.before, ch.after) for ch in changes} == {
        (a.pk, 1, 1500.0, 1532.0), (b.pk, 2, 1500.0, 1500.0), (c.pk, 3, 1500.0, 1468.0)}
    assert [rating(u) for u in (a, b, c)] == [1532.0, 1500.0, 1468.0]
    assert Rating.objects.get(user=a).games == 1
    assert Rating.objects.get(user=a).format == "standard"


def test_recording_twice_changes_nothing():
    """Idempotent: the second call finds the game's rating changes and leaves everything alone."""
    a, b, c = make_user(), make_user(), make_user()
    game = finish(ranked([a, b, c]))
    services.record_finished_game(game)
    before = services.snapshot()
    assert services.record_finished_game(game) == []
    assert services.record_finished_game(Game.objects.get(pk=game.pk)) == []
    assert services.snapshot() == before
    assert RatingChange.objects.filter(game=game).count() == 3
    assert Rating.objects.get(user=a).games == 1


def test_casual_games_never_change_a_rating():
    """Only ranked games count; a casual one never changes a rating, nor creates one."""
    a, b, c = make_user(), make_user(), make_user()
    services.record_finished_game(finish(make_game(users=[a, b, c], ranked=False)))
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert services.recompute_all().games == 0


def test_an_unfinished_game_does_not_count():
    a, b, c = make_user(), make_user(), make_user()
    assert services.record_finished_game(ranked([a, b, c])) == []
    assert not Rating.objects.exists()


def test_a_game_everyone_abandoned_ranks_them_by_who_stayed_longest():
    """Leaving first cannot be escaped by the others leaving too: the last to leave ranks first."""
    first, second, last = make_user(), make_user(), make_user()
    game = ranked([second, last, first])
    for user in (first, second, last):
        game = do_concede(game.pk, user)
    assert game.status == Game.Status.ABANDONED
    assert game.ranking == [game.seat_for(last).seat, game.seat_for(second).seat, game.seat_for(first).seat]
    services.record_finished_game(game)  # also recorded by the game_finished signal: once
    places = dict(RatingChange.objects.filter(game=game).values_list("user_id", "placement"))
    assert places == {last.pk: 1, second.pk: 2, first.pk: 3}
    assert rating(first) < rating(second) < rating(last)


def test_an_abandoning_player_ranks_last():
    """The engine ranked the leaver first; the leaver still ranks after everyone else."""
    a, b, c = make_user(), make_user(), make_user()
    services.record_finished_game(finish(ranked([a, b, c]), [a, b, c], leavers=[a]))
    places = dict(RatingChange.objects.values_list("user_id", "placement"))
    assert places == {b.pk: 1, c.pk: 2, a.pk: 3}
    assert [rating(u) for u in (b, c, a)] == [1532.0, 1500.0, 1468.0]


def test_several_leavers_tie_for_last():
    a, b, c, d = (make_user() for _ in range(4))
    services.record_finished_game(finish(ranked([a, b, c, d]), [a, b, c, d], leavers=[a, c]))
    places = dict(RatingChange.objects.values_list("user_id", "placement"))
    assert places == {b.pk: 1, d.pk: 2, a.pk: 3, c.pk: 3}
    assert rating(a) == rating(c) < rating(d) < rating(b)


def test_a_game_played_to_the_end_after_two_players_left():
    """End to end: two players concede (the bot takes their seats), the third plays every decision
    until the engine ends the game; the stayer ranks first and the leavers tie for last."""
    stayer, left1, left2 = make_user(), make_user(), make_user()
    game = ranked([stayer, left1, left2])
    do_concede(game.pk, left1)
    do_concede(game.pk, left2)
    game.refresh_from_db()
    engine = get_ruleset(game.ruleset)
    seat = game.seat_for(stayer).seat
    while game.is_active():
        action = engine.default_action(game.state, seat)
        do_submit_action(game.pk, stayer, action=action, version=game.version)
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.ranking
    services.record_finished_game(game)
    places = dict(RatingChange.objects.filter(game=game).values_list("user_id", "placement"))
    assert places == {stayer.pk: 1, left1.pk: 2, left2.pk: 2}  # tied for last (after the only other seat)
    assert rating(stayer) == pytest.approx(1532.0)
    assert rating(left1) == rating(left2) == pytest.approx(1484.0)


def test_finishing_a_ranked_game_records_it_without_an_explicit_call():
    """The wiring: ratings listen to games.signals.game_finished, sent in the transaction that ends the
    game, so a ranked game played to the end is rated with no explicit call."""
    stayer, leaver, other = make_user(), make_user(), make_user()
    game = ranked([stayer, leaver, other])
    do_concede(game.pk, leaver)
    do_concede(game.pk, other)
    game.refresh_from_db()
    engine = get_ruleset(game.ruleset)
    seat = game.seat_for(stayer).seat
    while game.is_active():
        do_submit_action(game.pk, stayer, action=engine.default_action(game.state, seat), version=game.version)
        game.refresh_from_db()
    assert RatingChange.objects.filter(game=game).count() == 3
    assert rating(stayer) == pytest.approx(1532.0)


def test_a_casual_game_played_to_the_end_changes_nothing():
    """The same flow in a casual game: the signal fires, no rating is created."""
    make_game(users=[None, None, None])  # bots play it to the end at once
    user = make_user()
    game = make_game(users=[user, make_user(), make_user()], ranked=False)
    for seat in game.seats.exclude(user=user):
        do_concede(game.pk, seat.user)
    game.refresh_from_db()
    engine = get_ruleset(game.ruleset)
    while game.is_active():
        seat = game.seat_for(user).seat
        do_submit_action(game.pk, user, action=engine.default_action(game.state, seat), version=game.version)
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_bot_seats_take_no_part():
    """A seat played by the bot from the start has no user: the players are compared among themselves
    (a 2-player comparison here: +32 / -32 for newcomers)."""
    a, b = make_user(), make_user()
    game = make_game(3, users=[a, None, b], ranked=True)
    game.refresh_from_db()
    if game.is_active():
        finish(game, [a, b])
    services.record_finished_game(game)
    assert {ch.user_id for ch in RatingChange.objects.all()} == {a.pk, b.pk}
    assert sorted([rating(a), rating(b)]) == [1468.0, 1532.0]


def test_provisional_k_then_normal_k(settings):
    """Higher K while provisional: with RATINGS_PROVISIONAL_GAMES = 1, game one moves 64 * 0.5 = 32;
    game two (1532 vs 1468, E = 1 / (1 + 10^-0.16) = 0.5910756) moves 32 * 0.4089244 = 13.0856."""
    settings.RATINGS_PROVISIONAL_GAMES = 1
    a, b = make_user(), make_user()
    services.record_finished_game(finish(make_game(3, users=[a, b, None], ranked=True), [a, b], at=T0))
    assert (rating(a), rating(b)) == (1532.0, 1468.0)
    services.record_finished_game(finish(make_game(3, users=[a, b, None], ranked=True), [a, b], at=T0 + timedelta(1)))
    assert rating(a) == pytest.approx(1532.0 + 13.085581, abs=1e-5)
    assert rating(b) == pytest.approx(1468.0 - 13.085581, abs=1e-5)


def test_ratings_are_per_ruleset_and_format():
    a, b, c = make_user(), make_user(), make_user()
    services.record_finished_game(finish(ranked([a, b, c])))
    assert rating(a, "agot") == 1532.0
    assert rating(a, "some-other-ruleset") is None
    assert Rating.objects.filter(user=a).count() == 1


def _play_season(users, games: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    played = []
    for n in range(games):
        table = rng.sample(users, rng.choice([3, 4, 5]))
        order = table[:]
        rng.shuffle(order)
        leavers = [order[0]] if rng.random() < 0.2 else []
        game = finish(ranked(table, seed=n), order, at=T0 + timedelta(hours=n), leavers=leavers)
        if rng.random() < 0.2:
            game.ranked = False
            game.save()
        played.append(game)
    return played


def test_recompute_gives_the_same_numbers_as_incremental_updates(settings):
    """recompute_all rebuilds every rating and the history from the games in the order they were rated
    and gets exactly what the incremental updates produced (provisional K included)."""
    settings.RATINGS_PROVISIONAL_GAMES = 3
    users = [make_user() for _ in range(7)]
    for game in _play_season(users, 25, seed=1):
        services.record_finished_game(game)
    ratings = services.snapshot()
    history = sorted(RatingChange.objects.values_list("user_id", "game_id", "placement", "before", "after"))
    result = services.recompute_all(write=True)
    assert result.changed is False and result.differences == []
    assert result.ratings == len(ratings)
    assert services.snapshot() == ratings  # bit for bit
    assert sorted(RatingChange.objects.values_list("user_id", "game_id", "placement", "before", "after")) == history


def test_recompute_repairs_a_wrong_rating_and_says_so():
    a, b, c = make_user(), make_user(), make_user()
    services.record_finished_game(finish(ranked([a, b, c])))
    Rating.objects.filter(user=a).update(rating=2000.0)
    result = services.recompute_all(write=True)
    assert result.changed is True and len(result.differences) == 1
    assert rating(a) == 1532.0


def test_recompute_ratings_command(settings):
    a, b, c = make_user(), make_user(), make_user()
    services.record_finished_game(finish(ranked([a, b, c])))
    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    assert "Replayed 1 ranked games into 3 ratings." in out.getvalue()
    assert "No rating differs" in out.getvalue()
    Rating.objects.filter(user=b).update(rating=1234.0)
    out = StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("recompute_ratings", stdout=out)
    assert raised.value.returncode == 1
    assert "1 ratings differ from the replay; nothing written (dry run)." in out.getvalue()
    assert rating(b) == 1234.0
    out = StringIO()
    call_command("recompute_ratings", "--write", stdout=out)
    assert "1 ratings differed from the replay; written." in out.getvalue()
    assert rating(b) == 1500.0


# ---- the lobby join filter ---------------------------------------------------------------------


def lobby(**overrides):
    return make_lobby(make_user(), **overrides)


def test_meets_requirements_without_limits():
    assert services.meets_requirements(make_user(), lobby()) is None


def test_no_rating_counts_as_1500():
    newcomer = make_user()
    assert services.meets_requirements(newcomer, lobby(min_rating=1500)) is None
    reason = services.meets_requirements(newcomer, lobby(min_rating=1501))
    assert reason and "1501" in reason and "1500" in reason


def test_a_provisional_rating_counts_as_1500(settings):
    settings.RATINGS_PROVISIONAL_GAMES = 10
    user = make_user()
    Rating.objects.create(user=user, ruleset="agot", rating=1700.0, games=9)
    assert services.meets_requirements(user, lobby(min_rating=1600)) is not None
    Rating.objects.filter(user=user).update(games=10)
    assert services.meets_requirements(user, lobby(min_rating=1600)) is None
    assert services.meets_requirements(user, lobby(min_rating=1701)) is not None


def test_the_rating_of_the_lobby_ruleset_counts():
    user = make_user()
    Rating.objects.create(user=user, ruleset="other", rating=2000.0, games=50)
    assert services.meets_requirements(user, lobby(min_rating=1600)) is not None


def test_min_reliability(settings):
    user = make_user()
    game = make_game(users=[user, make_user(), make_user()])
    GameSeat.objects.filter(game=game, user=user).update(left_at=timezone.now())  # 1 decision, 1 miss
    assert services.reliability_of(user) == 0.0
    reason = services.meets_requirements(user, lobby(min_reliability=0.5))
    assert reason and "50%" in reason and "0%" in reason
    assert services.meets_requirements(make_user(), lobby(min_reliability=1.0)) is None


def test_recording_inside_the_finishing_transaction_before_the_game_row_is_saved():
    """How games/services/play.py calls it: in _finish_if_over, on the locked game, after status,
    ranking and finished_at are set and before game.save(); recompute later reads the saved game."""
    from django.db import transaction

    a, b, c = make_user(), make_user(), make_user()
    game = ranked([a, b, c])
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        locked.status, locked.ranking, locked.finished_at = Game.Status.FINISHED, locked.seat_names(), timezone.now()
        assert len(services.record_finished_game(locked)) == 3
        locked.save()
    assert [rating(u) for u in (a, b, c)] == [1532.0, 1500.0, 1468.0]
    assert services.recompute_all().changed is False


def test_joining_a_lobby_above_your_rating_is_refused():
    """The lobby join filter: a newcomer (counts as 1500) may not join a lobby asking for 1600."""
    from games.errors import GameError
    from games.services.lobbies import do_join_lobby

    room = lobby(min_rating=1600)
    with pytest.raises(GameError) as refused:
        do_join_lobby(room.pk, make_user())
    assert refused.value.status_code == 403
    assert "1600" in str(refused.value.detail)
    assert not room.members.exclude(user=room.creator).exists()


def test_joining_a_lobby_below_its_minimum_reliability_is_refused_over_the_api():
    from django.urls import reverse

    from tests.factories import api_client_for, make_game

    room = lobby(min_reliability=0.9)
    flaky = make_user()
    game = make_game(users=[flaky, make_user(), make_user()], time_limit=60)
    from datetime import timedelta

    from django.utils import timezone

    from games.services.deadlines import resolve_overdue

    resolve_overdue(game.pk, now=timezone.now() + timedelta(seconds=61))  # flaky misses a deadline
    response = api_client_for(flaky).post(reverse("api-lobby-join", args=[room.pk]), {}, format="json")
    assert response.status_code == 403
    assert response.json()["error"] == "requirements_not_met"
    assert api_client_for(make_user()).post(reverse("api-lobby-join", args=[room.pk]), {}, format="json").status_code == 200


def test_a_btwixt_shared_victory_is_a_draw_between_the_winners():
    """B56: equal lesser council, other council and allies share the victory: for Elo the winners
    draw each other (they are not ranked by seat order) and both beat the third."""
    from games.services.play import do_create_game

    a, b, c = make_user(), make_user(), make_user()
    seats = ["cersei", "tyrion", "euron"]
    game = do_create_game(ruleset="btwixt", seating=dict(zip(seats, [a, b, c], strict=True)), ranked=True)
    state = dict(game.state)
    state["step"] = "game_over"
    state["score"] = {"cersei": {"lesser": 7, "other": 9, "allies": 3}, "tyrion": {"lesser": 7, "other": 9, "allies": 3},
                      "euron": {"lesser": 4, "other": 9, "allies": 3}}
    state["ranking"] = seats
    assert get_ruleset("btwixt").placements(state) == {"cersei": 1, "tyrion": 1, "euron": 3}
    Game.objects.filter(pk=game.pk).update(state=state, status=Game.Status.FINISHED, ranking=seats,
                                           finished_at=timezone.now())
    game.refresh_from_db()
    services.record_finished_game(game)
    places = dict(RatingChange.objects.filter(game=game).values_list("user_id", "placement"))
    assert places == {a.pk: 1, b.pk: 1, c.pk: 3}
    assert rating(a, "btwixt") == rating(b, "btwixt") > 1500 > rating(c, "btwixt")
