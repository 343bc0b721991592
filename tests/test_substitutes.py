"""Substitutes for abandoned seats (issue 21): the public "needs a player" list of games where the
engine plays a seat its player left, taking such a seat over (one winner when two race), playing on
from the current state, the log line, and the rating rule of docs/ratings.md (the leaver keeps the
loss; the substitute's game is unrated for them)."""
from __future__ import annotations

import os
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from games.engine import get_ruleset
from games.errors import GameError
from games.models import Game, GameAction, GameSeat, SeatSubstitution
from games.services import deadlines
from games.services.play import do_concede, do_submit_action
from games.services.substitutes import do_take_seat, listing
from ratings import services as ratings
from ratings.models import RatingChange
from tests.factories import DEFAULT_PASSWORD, api_client_for, make_game, make_lobby, make_user

AGOT = get_ruleset("agot")
NEEDS = "/api/v1/games/needs-player"


def take_url(game_id, seat) -> str:
    return f"/api/v1/games/{game_id}/seats/{seat}/take"


def abandoned_game(**kwargs) -> tuple[Game, list, str]:
    """A three-player game whose first seat's player conceded: the engine plays it."""
    users = [make_user() for _ in range(3)]
    game = make_game(users=users, **kwargs)
    seat = game.seat_for(users[0]).seat
    do_concede(game.pk, users[0])
    game.refresh_from_db()
    return game, users, seat


def with_lobby(game: Game, **requirements) -> Game:
    lobby = make_lobby(**requirements)
    Game.objects.filter(pk=game.pk).update(lobby=lobby)
    game.refresh_from_db()
    return game


def others_play_until_pending(game: Game, seat: str, others: dict) -> Game:
    """The other players answer their decisions (the engine's default) until `seat` has one pending."""
    game.refresh_from_db()
    for _ in range(200):
        pending = AGOT.pending(game.state)
        if seat in pending:
            return game
        mover = next(s for s in pending if s in others)
        do_submit_action(game.pk, others[mover], action=AGOT.default_action(game.state, mover), version=game.version)
        game.refresh_from_db()
    raise AssertionError(f"{seat} never had a decision pending")


def listed(client_or_api) -> list[tuple[int, str]]:
    response = client_or_api.get(NEEDS)
    assert response.status_code == 200
    return [(row["game"], row["seat"]) for row in response.json()["results"]]


@pytest.mark.django_db
def test_listed_only_when_the_engine_plays_an_abandoned_seat(api):
    game, users, seat = abandoned_game()
    untouched = make_game()
    rows = api.get(NEEDS).json()["results"]
    assert [(r["game"], r["seat"]) for r in rows] == [(game.pk, seat)]
    row = rows[0]
    assert row["ruleset_name"] == "A Game of Thrones: The Board Game"
    assert row["seat_name"] == seat.replace("_", " ").title()
    assert row["time_limit"] == game.time_limit and row["round"] == game.state["round"]
    assert row["can_take"] is False and row["reason"] == "Log in to take a seat."  # anonymous
    assert (untouched.pk, "stark") not in listed(api)

    # a seat timed out too often (handed to the bot by the sweep) is listed too
    timed = make_game(max_consecutive_timeouts=1)
    late = timed.seat_names()[0]
    GameSeat.objects.filter(game=timed).exclude(seat=late).update(deadline_at=timezone.now() + timedelta(days=10))
    deadlines.resolve_overdue(timed.pk, now=timezone.now() + timedelta(days=2))
    assert GameSeat.objects.get(game=timed, seat=late).abandoned
    assert set(listed(api)) == {(game.pk, seat), (timed.pk, late)}


@pytest.mark.django_db
def test_not_listed_finished_tournament_or_private_games(api):
    from tournaments.models import Round, Table, Tournament

    finished, _, _ = abandoned_game()
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    cup, _, cup_seat = abandoned_game()
    organizer = make_user()
    t = Tournament.objects.create(name="Cup", organizer=organizer)
    Table.objects.create(round=Round.objects.create(tournament=t, number=1), number=1, game=cup)
    hidden, hidden_users, hidden_seat = abandoned_game(private=True)
    outsider = make_user()
    assert listed(api) == []
    assert listed(api_client_for(outsider)) == []
    # a player of the private game sees it listed, and may not take it (they play in it)
    rows = api_client_for(hidden_users[1]).get(NEEDS).json()["results"]
    assert [(r["game"], r["can_take"], r["reason"]) for r in rows] == [
        (hidden.pk, False, "You play, or played, in this game.")]

    answer = api_client_for(outsider).post(take_url(cup.pk, cup_seat))
    assert answer.status_code == 403 and "organizer" in answer.json()["detail"]
    assert api_client_for(outsider).post(take_url(hidden.pk, hidden_seat)).status_code == 404
    answer = api_client_for(outsider).post(take_url(finished.pk, "stark"))
    assert answer.status_code == 409 and answer.json()["error"] == "game_over"
    assert not SeatSubstitution.objects.exists()


@pytest.mark.django_db
def test_requirements_are_enforced_in_words(api):
    game, users, seat = abandoned_game()
    with_lobby(game, min_rating=1600)
    newcomer = make_user()
    row = api_client_for(newcomer).get(NEEDS).json()["results"][0]
    assert row["can_take"] is False and row["min_rating"] == 1600
    answer = api_client_for(newcomer).post(take_url(game.pk, seat))
    assert answer.status_code == 403
    assert answer.json()["error"] == "requirements_not_met"
    assert answer.json()["detail"] == ("This lobby requires a rating of at least 1600 in "
                                       "A Game of Thrones: The Board Game; yours counts as 1500.")
    assert GameSeat.objects.get(game=game, seat=seat).user_id == users[0].pk

    other, _, other_seat = abandoned_game()
    with_lobby(other, min_reliability=0.9)
    flaky = make_user()
    gone = make_game(users=[flaky, make_user(), make_user()])
    do_concede(gone.pk, flaky)  # one abandonment, no decision: reliability 0%
    answer = api_client_for(flaky).post(take_url(other.pk, other_seat))
    assert answer.status_code == 403 and "reliability of at least 90%" in answer.json()["detail"]


@pytest.mark.django_db
def test_players_of_the_game_cannot_take_a_seat(api):
    game, users, seat = abandoned_game()
    for user in users:  # the leaver and the two still seated
        answer = api_client_for(user).post(take_url(game.pk, seat))
        assert answer.status_code == 409 and answer.json()["error"] == "already_in_game"
    # a seat with its player is not open
    other_seat = game.seat_for(users[1]).seat
    answer = api_client_for(make_user()).post(take_url(game.pk, other_seat))
    assert answer.status_code == 409 and answer.json()["error"] == "seat_taken"


@pytest.mark.django_db
def test_the_second_taker_gets_a_409(api):
    game, users, seat = abandoned_game()
    first, second = make_user(), make_user()
    answer = api_client_for(first).post(take_url(game.pk, seat))
    assert answer.status_code == 200
    assert answer.json()["your_seat"] == seat and answer.json()["rated_for_you"] is False
    assert "does not count for your rating" in answer.json()["detail"]
    answer = api_client_for(second).post(take_url(game.pk, seat))
    assert answer.status_code == 409 and answer.json()["error"] == "seat_taken"
    assert GameSeat.objects.get(game=game, seat=seat).user_id == first.pk
    assert (game.pk, seat) not in listed(api)
    # a substitute who took a seat may not take a second one in the same game
    do_concede(game.pk, users[1])
    answer = api_client_for(first).post(take_url(game.pk, game.seats.get(user=users[1]).seat))
    assert answer.status_code == 409 and answer.json()["error"] == "already_in_game"


@pytest.mark.django_db
@pytest.mark.parametrize("bad", [
    take_url(999999, "stark"), take_url(1, "x" * 40), "/api/v1/games/1/seats//take",
    "/api/v1/games/1/seats/%00/take", take_url(1, "nobody"),
])
def test_bad_input_is_a_4xx(bad):
    game, _, _ = abandoned_game()
    answer = api_client_for(make_user()).post(bad.replace("/games/1/", f"/games/{game.pk}/"))
    assert 400 <= answer.status_code < 500
    assert not SeatSubstitution.objects.exists()


@pytest.mark.django_db
def test_anonymous_and_wrong_method(api):
    game, _, seat = abandoned_game()
    assert api.post(take_url(game.pk, seat)).status_code in (401, 403)
    assert api_client_for(make_user()).get(take_url(game.pk, seat)).status_code == 405
    assert api.post(NEEDS).status_code in (401, 403, 405)


@pytest.mark.django_db(transaction=True)
def test_the_substitute_plays_on_the_deadline_runs_for_them_and_the_log_says_it(django_capture_on_commit_callbacks):
    game, users, seat = abandoned_game()
    sub = make_user(username="dunk")
    do_take_seat(game.pk, seat, sub)
    game.refresh_from_db()
    row = GameSeat.objects.get(game=game, seat=seat)
    assert (row.user_id, row.is_bot, row.left_at, row.consecutive_timeouts) == (sub.pk, False, None, 0)

    log = api_client_for(users[1]).get(f"/api/v1/games/{game.pk}/log").json()["entries"]
    line = next(e for e in log if e["source"] == "substitute")
    assert line["text"] == f"dunk takes over {users[0].username}'s seat ({seat.replace('_', ' ').title()})."

    # play the others' decisions until the substitute's seat has one pending: it has a deadline, and
    # the bot no longer answers for it
    others = {s.seat: s.user for s in game.seats.select_related("user") if s.seat != seat}
    game = others_play_until_pending(game, seat, others)
    row.refresh_from_db()
    assert row.deadline_at is not None and row.deadline_at > timezone.now()
    version = game.version
    # the substitute may act ...
    action = AGOT.default_action(game.state, seat)
    done = do_submit_action(game.pk, sub, action=action, version=version)
    assert done.record.seat == seat and done.record.user_id == sub.pk and done.record.source == "player"
    game.refresh_from_db()
    # ... and times out like any player when they do not
    others_play_until_pending(game, seat, others)
    row.refresh_from_db()
    deadlines.resolve_overdue(game.pk, now=row.deadline_at + timedelta(seconds=1))
    row.refresh_from_db()
    assert row.consecutive_timeouts == 1 and row.user_id == sub.pk
    assert GameAction.objects.filter(game=game, seat=seat, source="timeout").exists()


@pytest.mark.django_db
def test_the_table_is_told_seats_changed(django_capture_on_commit_callbacks, monkeypatch):
    from games.services import notify

    sent = []
    original = notify.after_commit
    monkeypatch.setattr(notify, "after_commit",
                        lambda game, records, **kw: (sent.append(kw.get("seats_changed")), original(game, records, **kw)))
    game, _, seat = abandoned_game()
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        do_take_seat(game.pk, seat, make_user())
    assert sent == [True]


@pytest.mark.django_db
def test_the_leaver_keeps_the_loss_and_the_substitute_is_unrated():
    """docs/ratings.md: the seat taken over is rated for the player who left it, placed last; the
    substitute's result does not count for them (no rating change, whatever the seat's place)."""
    a, b, c, sub = make_user(), make_user(), make_user(), make_user()
    game = make_game(users=[a, b, c], ranked=True)
    seat_a = game.seat_for(a).seat
    do_concede(game.pk, a)
    do_take_seat(game.pk, seat_a, sub)
    game.refresh_from_db()
    seats = game.seat_names()
    # the substitute's seat wins
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now(),
                                           ranking=[seat_a, *[s for s in seats if s != seat_a]])
    game.refresh_from_db()
    ratings.record_finished_game(game)
    places = dict(RatingChange.objects.filter(game=game).values_list("user_id", "placement"))
    assert places == {b.pk: 1, c.pk: 2, a.pk: 3}
    assert sub.pk not in places and ratings.rating_of(sub, "agot") is None
    assert ratings.rating_of(a, "agot") < 1500
    # replaying every rated game gives the same
    assert not ratings.recompute_all().changed


@pytest.mark.django_db
def test_reliability_the_leaver_keeps_the_abandonment_the_substitute_starts_clean():
    users = [make_user() for _ in range(3)]
    game = make_game(users=users, max_consecutive_timeouts=2)
    leaver = users[0]
    seat = game.seat_for(leaver).seat
    others = {s.seat: s.user for s in game.seats.select_related("user") if s.seat != seat}
    for _ in range(4):
        row = GameSeat.objects.get(game=game, seat=seat)
        if row.is_bot:
            break
        game = others_play_until_pending(game, seat, others)
        row.refresh_from_db()
        now = row.deadline_at + timedelta(seconds=1)  # only the leaver's seat is overdue
        GameSeat.objects.filter(game=game).exclude(seat=seat).update(deadline_at=now + timedelta(days=10))
        deadlines.resolve_overdue(game.pk, now=now)
    assert GameSeat.objects.get(game=game, seat=seat).abandoned
    before = ratings.reliability_report(leaver)
    assert before.abandoned == 1 and before.timeouts == 2
    sub = make_user()
    do_take_seat(game.pk, seat, sub)
    assert ratings.reliability_report(leaver) == before  # unchanged by the take-over
    assert ratings.reliability_report(sub).missed == 0 and ratings.reliability_of(sub) == 1.0


@pytest.mark.django_db
def test_the_page_lists_and_takes_a_seat():
    game, users, seat = abandoned_game()
    anonymous = Client()
    page = anonymous.get("/games/needs-player/")
    assert page.status_code == 200
    html = page.content.decode()
    assert seat.replace("_", " ").title() in html and "Log in" in html
    sub = make_user()
    client = Client()
    assert client.login(username=sub.username, password=DEFAULT_PASSWORD)
    html = client.get("/games/needs-player/").content.decode()
    assert "Take the seat" in html and "does not count for your rating" in html
    answer = client.post(f"/games/needs-player/{game.pk}/{seat}/take")
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
    assert GameSeat.objects.get(game=game, seat=seat).user_id == sub.pk
    # the second taker is sent back to the list with the reason
    late = make_user()
    client.logout()
    assert client.login(username=late.username, password=DEFAULT_PASSWORD)
    answer = client.post(f"/games/needs-player/{game.pk}/{seat}/take", follow=True)
    assert "someone took it over already" in answer.content.decode()
    # the lobby list links to it
    assert "/games/needs-player/" in Client().get("/lobbies/").content.decode()


@pytest.mark.django_db
def test_listing_is_longest_waiting_first():
    first, _, seat1 = abandoned_game()
    second, _, seat2 = abandoned_game()
    assert [(r.game.pk, r.seat.seat) for r in listing(None)] == [(first.pk, seat1), (second.pk, seat2)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="row locks need PostgreSQL (DATABASE_URL)")
def test_two_takers_racing_get_one_winner():
    game, _, seat = abandoned_game()
    takers = [make_user() for _ in range(2)]
    barrier = threading.Barrier(2)
    results: list = []

    def take(user) -> None:
        try:
            barrier.wait()
            do_take_seat(game.pk, seat, user)
            results.append("won")
        except GameError as error:
            results.append(error.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=take, args=(u,)) for u in takers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(results, key=str) == sorted(["won", 409], key=str)
    assert SeatSubstitution.objects.filter(game=game).count() == 1
    assert GameSeat.objects.get(game=game, seat=seat).user_id in {u.pk for u in takers}


@pytest.mark.django_db
def test_in_a_clocked_game_the_substitute_starts_with_a_full_bank():
    game, _, seat = abandoned_game(clock_bank=600, clock_increment=10)
    GameSeat.objects.filter(game=game, seat=seat).update(clock_remaining=3.0)
    do_take_seat(game.pk, seat, make_user())
    assert GameSeat.objects.get(game=game, seat=seat).clock_remaining == 600.0


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_leavers_socket_no_longer_gets_the_seats_secrets(settings):
    """Hidden information: once a substitute holds the seat, a socket the leaver kept open is moved to
    the spectators, and an update filtered for the seat that was already on its way is stripped."""
    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer
    from channels.testing import WebsocketCommunicator

    from games.models import Presence
    from games.services.notify import seat_group
    from westeros.asgi import websocket_application

    settings.ALLOWED_HOSTS = ["testserver"]
    app = websocket_application()
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    game, users, seat = await sync_to_async(abandoned_game)()
    leaver, sub = users[0], await sync_to_async(make_user)()

    async def connect(user):
        communicator = WebsocketCommunicator(app, f"/ws/games/{game.pk}/", headers=headers)
        communicator.scope["user"] = user
        assert (await communicator.connect())[0]
        hello = await communicator.receive_json_from()
        return communicator, hello

    old, hello = await connect(leaver)
    assert hello["seat"] == seat  # the leaver still holds the seat the engine plays
    await sync_to_async(do_take_seat)(game.pk, seat, sub)
    while True:
        message = await old.receive_json_from(timeout=20)
        if message["type"] == "update":
            break
    assert message["seats_changed"] is True and message["events"] == []
    new, hello = await connect(sub)
    assert hello["seat"] == seat

    secret = {"type": "game.update", "from_version": game.version, "version": game.version + 1, "status": "active",
              "events": [{"type": "drew", "only": [seat], "card": "a secret card"}], "seats_changed": False,
              "viewer": seat}
    layer = get_channel_layer()
    await layer.group_send(seat_group(game.pk, seat), secret)
    got = await new.receive_json_from(timeout=20)
    while got["type"] != "update":
        got = await new.receive_json_from(timeout=20)
    assert got["events"][0]["card"] == "a secret card"  # the substitute gets their seat's secrets
    # the leaver's socket left the seat's group; and a message already queued for it is stripped
    channel = await sync_to_async(lambda: Presence.objects.filter(user=leaver).values_list(
        "channel_name", flat=True).get())()
    await layer.send(channel, secret)
    got = await old.receive_json_from(timeout=20)
    while got["type"] != "update":
        got = await old.receive_json_from(timeout=20)
    assert got["events"] == [] and "secret" not in str(got)
    # whatever else reaches the leaver's socket (a copy the seat's group sent before the socket left
    # it, a presence message) carries no secret either: read until nothing more comes
    while not await old.receive_nothing(timeout=1):
        extra = await old.receive_json_from(timeout=20)
        assert "secret" not in str(extra), extra
    await old.disconnect()
    await new.disconnect()
