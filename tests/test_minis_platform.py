"""The miniatures game (minis) on the platform (issue 19, "On the platform"): a ranked two-seat
lobby game through the API is played to its end by deadlines alone, every decision resolved by the
ruleset's timeout default (rules/minis.md §5, docs/engine-minis.md "Decisions and their timeout
defaults"), through the sweep that Celery's task and the embedded runner run; a seat that keeps
timing out goes to the engine's player; the finished game is rated per ruleset and shown on the
leaderboard and profiles by the game's name; its replay steps never show a seat the other's Tactics
hand; its fairness payload, `verify_replay` and `check_game` work. Lobby options: test_lobby_minis.py;
the move check: test_move_check_api.py."""
from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from games.engine import get_ruleset
from games.engine.base import HIDDEN
from games.models import Game, GameAction, GameSeat
from games.replay import verify_published
from games.services import deadlines
from games.services.play import do_submit_action
from games.services.replay import snapshot_matches_log
from games.tasks import sweep_deadlines
from ratings.models import Rating, RatingChange
from tests.factories import api_client_for, make_game, make_user

MINIS = get_ruleset("minis")
SEATS = ("stark", "lannister")
NAME = "A Song of Ice and Fire: Tabletop Miniatures"
LIMIT = 600  # seconds per decision in the lobby games below


def lobby_game(*, ranked: bool = True, max_consecutive_timeouts: int = 0, options: dict | None = None):
    """A two-seat minis game started through the API: the creator opens the lobby, a second user joins."""
    creator, guest = make_user(), make_user()
    response = api_client_for(creator).post(reverse("api-lobbies"), {
        "ruleset": "minis", "seats": 2, "time_limit": LIMIT, "ranked": ranked,
        "max_consecutive_timeouts": max_consecutive_timeouts, "options": options or {},
    }, format="json")
    assert response.status_code == 201, response.json()
    joined = api_client_for(guest).post(reverse("api-lobby-join", args=[response.json()["id"]]), {}, format="json")
    assert joined.status_code == 200, joined.json()
    return Game.objects.get(pk=joined.json()["game"]), creator, guest


def play_by_deadlines(game: Game, *, checks: bool = False, limit: int = 2000) -> int:
    """Let every deadline pass, one time limit after the other, until the game is over. With
    `checks`, after each sweep: every pending seat has a deadline and the others have none."""
    now = timezone.now()
    sweeps = 0
    for _ in range(limit):
        game.refresh_from_db()
        if not game.is_active():
            return sweeps
        if checks:
            pending = set(MINIS.pending(game.state))
            with_deadline = set(GameSeat.objects.filter(game=game, deadline_at__isnull=False).values_list("seat", flat=True))
            assert pending and with_deadline == pending, (game.version, pending, with_deadline)
        now += timedelta(seconds=game.time_limit + 1)
        assert deadlines.resolve_overdue(game.pk, now=now), f"nothing was overdue at version {game.version}"
        sweeps += 1
    raise AssertionError(f"game {game.pk} did not end after {limit} deadlines")


@pytest.fixture
def finished(db):
    """A ranked minis lobby game (random terrain) played to its end by deadlines alone: (game, creator, guest)."""
    game, creator, guest = lobby_game(options={"terrain": "random"})
    play_by_deadlines(game)
    game.refresh_from_db()
    return game, creator, guest


def user_of(game: Game, seat: str):
    return GameSeat.objects.get(game=game, seat=seat).user


# --------------------------------------------------------------------------- deadlines


@pytest.mark.django_db
def test_a_ranked_lobby_game_is_played_to_its_end_by_deadlines_alone_with_the_timeout_defaults():
    game, creator, guest = lobby_game(options={"terrain": "random"})
    assert game.ruleset == "minis" and game.ranked and game.time_limit == LIMIT
    assert sorted(game.seat_names()) == sorted(SEATS)
    assert {s.user for s in game.seats.all()} == {creator, guest}
    view = api_client_for(creator).get(reverse("api-game", args=[game.pk])).json()
    assert view["ruleset"] == "minis" and view["deadline_at"] is not None
    play_by_deadlines(game, checks=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert sorted(game.ranking) == sorted(SEATS) and game.ranking[0] == game.state["winner"]
    assert game.state["round"] == 6  # nobody moves, nobody reaches the threshold: M127 after round 6
    assert game.deadline_at is None and not GameSeat.objects.filter(game=game, deadline_at__isnull=False).exists()
    assert not GameSeat.objects.filter(game=game, is_bot=True).exists()  # nobody was handed to the bot
    # Every decision was the engine's documented default for the state it was taken in (§5).
    records = list(game.actions.order_by("version"))
    assert len(records) == game.version > 300
    assert {r.source for r in records} == {GameAction.Source.TIMEOUT}
    kinds = set()
    state = MINIS.new_game(game.seat_names(), game.options, game.seed)
    for record in records:
        kinds.add(MINIS.pending(state)[record.seat])
        assert record.action == MINIS.default_action(state, record.seat), record.version
        state, _ = MINIS.apply(state, record.seat, record.action)
    # the first player's choice, deployment, activations, actions, reaction windows, Cleanup discards
    assert {"choose", "deploy", "activate", "action", "react", "discard"} <= kinds
    assert state["over"] and snapshot_matches_log(game)


@pytest.mark.django_db
def test_the_celery_task_and_the_runner_tick_resolve_minis_deadlines():
    games = [make_game(2, ruleset="minis", seed=n, time_limit=3600) for n in range(3)]
    for game in games:
        # the first decision (the roll-off winner picks the First Player, M23) is one seat's
        assert list(MINIS.pending(game.state).values()) == ["choose"]
        past = timezone.now() - timedelta(seconds=1)
        GameSeat.objects.filter(game=game, deadline_at__isnull=False).update(deadline_at=past)
        Game.objects.filter(pk=game.pk).update(deadline_at=past)
    assert sweep_deadlines() == 3  # what beat sends every second
    assert sweep_deadlines() == 0
    for game in games:
        chooser = next(iter(MINIS.pending(game.state)))
        game.refresh_from_db()
        (timeout,) = game.actions.all()
        assert timeout.source == GameAction.Source.TIMEOUT and timeout.action == {"choose": chooser}
        assert game.state["first_player"] == chooser
        assert game.deadline_at is not None and snapshot_matches_log(game)
    past = timezone.now() - timedelta(seconds=1)
    GameSeat.objects.filter(game=games[0], deadline_at__isnull=False).update(deadline_at=past)
    Game.objects.filter(pk=games[0].pk).update(deadline_at=past)
    out = StringIO()
    call_command("run_deadlines", "--once", stdout=out)  # the embedded runner's tick
    assert "applied 1 timeout default(s)" in out.getvalue()
    (deployed,) = games[0].actions.filter(version=2)
    assert "deploy" in deployed.action and deployed.source == GameAction.Source.TIMEOUT


@pytest.mark.django_db
def test_a_seat_timing_out_n_times_in_a_row_goes_to_the_engines_player_and_the_game_ends():
    game = make_game(2, ruleset="minis", seed=3, time_limit=3600, max_consecutive_timeouts=2, ranked=True)
    sleeper = next(iter(MINIS.pending(game.state)))  # the first to decide never answers
    awake = next(s for s in SEATS if s != sleeper)
    awake_user = user_of(game, awake)
    now = timezone.now()
    for _ in range(2000):
        game.refresh_from_db()
        if not game.is_active():
            break
        pending = MINIS.pending(game.state)
        if awake in pending:  # the awake player answers in time (with the default, as a player)
            do_submit_action(game.pk, awake_user, action=MINIS.default_action(game.state, awake), version=game.version)
        else:
            now += timedelta(seconds=3601)
            deadlines.resolve_overdue(game.pk, now=now)
    game.refresh_from_db()
    seat = GameSeat.objects.get(game=game, seat=sleeper)
    assert seat.is_bot and seat.abandoned and seat.left_at is not None
    timeouts = list(game.actions.filter(source=GameAction.Source.TIMEOUT).values_list("seat", flat=True))
    assert timeouts == [sleeper, sleeper]  # two in a row, then the engine's player
    bot_moves = game.actions.filter(seat=sleeper, source=GameAction.Source.BOT)
    assert bot_moves.count() > 10
    # the engine's player maneuvers, marches or fights (the default would only ever answer no_action)
    assert any(set(a.action) & {"maneuver", "march", "charge", "attack"} for a in bot_moves)
    assert not game.actions.filter(seat=awake).exclude(source=GameAction.Source.PLAYER).exists()
    assert game.status == Game.Status.FINISHED and sorted(game.ranking) == sorted(SEATS)
    assert snapshot_matches_log(game)
    assert GameSeat.objects.get(game=game, seat=awake).is_bot is False


# --------------------------------------------------------------------------- ratings


def test_the_finished_ranked_game_rates_both_players_and_shows_on_the_leaderboard_and_profiles(finished):
    game, creator, guest = finished
    winner, loser = user_of(game, game.ranking[0]), user_of(game, game.ranking[1])
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {winner.pk, loser.pk} and {c.ruleset for c in changes.values()} == {"minis"}
    assert changes[winner.pk].after > changes[winner.pk].before == 1500
    assert changes[loser.pk].after < changes[loser.pk].before == 1500
    assert Rating.objects.get(user=winner, ruleset="minis").rating > 1500 > Rating.objects.get(user=loser, ruleset="minis").rating
    assert not Rating.objects.exclude(ruleset="minis").exists()
    board = Client().get(reverse("api-leaderboard", args=["minis"])).json()["results"]
    assert [row["username"] for row in board] == [winner.username, loser.username]
    assert Client().get(reverse("api-leaderboard", args=["lcg"])).json()["results"] == []
    profile = Client().get(reverse("api-profile", args=[winner.username])).json()
    assert [(r["ruleset"], r["games"]) for r in profile["ratings"]] == [("minis", 1)]
    assert profile["history"][0]["ruleset"] == "minis" and profile["history"][0]["game"] == game.pk
    # The pages name the game in words, and every other open game's leaderboard is linked.
    page = Client().get("/leaderboards/minis/").content.decode()
    assert f"<h1>Leaderboard: {escape(NAME)}</h1>" in page and winner.username in page
    assert ">minis<" not in page and "Minis" not in page
    assert 'href="/leaderboards/lcg/">A Game of Thrones: The Card Game</a>' in page
    other = Client().get("/leaderboards/agot/").content.decode()
    assert f'href="/leaderboards/minis/">{escape(NAME)}</a>' in other
    profile = Client().get(reverse("public-profile", args=[winner.username])).content.decode()
    assert profile.count(escape(NAME)) >= 2  # the rating and its history
    assert "Minis" not in profile and ">stark<" not in profile and ">lannister<" not in profile


# --------------------------------------------------------------------------- replays, fairness, check_game


def test_replays_fairness_verify_replay_and_check_game(finished, tmp_path):
    """Replay steps show each seat its own Tactics hand only; the fairness payload verifies;
    check_game rebuilds."""
    game, creator, guest = finished
    client = Client()
    client.force_login(creator)
    mine = GameSeat.objects.get(game=game, user=creator).seat
    other = next(s for s in SEATS if s != mine)
    steps = game.version
    # the steps whose events draw Tactics cards (the hands at the start, Cleanup's draws), per seat
    draws: dict[str, list[int]] = {}
    for record in game.actions.order_by("version"):
        for event in record.events:
            if event.get("type") == "draw":
                draws.setdefault(event["seat"], []).append(record.version)
    assert set(draws) == set(SEATS)
    sample = sorted({1, 2, 3, steps // 3, steps // 2, steps - 1, steps, *draws[mine][:2], *draws[other][:2]})
    previous_round = 0
    for step in sample:
        body = client.get(reverse("web-replay-step", args=[game.pk, step])).json()
        assert body["step"] == step and body["steps"] == steps and body["seat"] == mine
        players = body["view"]["players"]
        assert players[other]["hand"] == HIDDEN and players[other]["deck"] == HIDDEN
        assert isinstance(players[mine]["hand"], list) and HIDDEN not in players[mine]["hand"]
        assert players[other]["hand_size"] == body["summary"]["hand_size"][other]  # the count is public
        assert body["summary"]["hands"][other] == HIDDEN and body["summary"]["decks"][mine] == HIDDEN
        assert "rng" not in body["view"] and "rng" not in json.dumps(body["summary"])
        if body["entry"]:
            for event in body["entry"]["events"]:
                if event.get("type") == "draw":
                    assert (event["cards"] == HIDDEN) == (event["seat"] == other), event
        assert body["view"]["round"] >= previous_round
        previous_round = body["view"]["round"]
        spectator = Client().get(reverse("web-replay-step", args=[game.pk, step]) + "?as=spectator").json()
        assert all(p["hand"] == HIDDEN for p in spectator["view"]["players"].values())
        assert set(spectator["summary"]["hands"].values()) == {HIDDEN}
    last = client.get(reverse("web-replay-step", args=[game.pk, steps])).json()
    assert last["view"]["over"] and last["view"]["winner"] == game.ranking[0]
    assert client.get(reverse("web-replay-step", args=[game.pk, steps + 1])).status_code == 404
    ongoing, _, _ = lobby_game()
    assert Client().get(reverse("web-replay-step", args=[ongoing.pk, 0])).status_code == 409
    # The fairness payload replays to the published end, by verify_replay too.
    payload = Client().get(reverse("api-game-fairness", args=[game.pk])).json()
    assert payload["ruleset"] == "minis" and payload["final_version"] == game.version == len(payload["actions"])
    assert verify_published(payload).ok
    path = tmp_path / "fairness.json"
    path.write_text(json.dumps(payload))
    out = StringIO()
    call_command("verify_replay", str(path), stdout=out)
    assert out.getvalue().startswith("VERIFIED") and f"to version {game.version}" in out.getvalue()
    # A timeout default swapped for another legal answer no longer replays to the published state:
    # the First Player chosen by the roll-off winner becomes the other seat.
    first = payload["actions"][0]
    assert first["action"] == {"choose": first["seat"]}
    first["action"] = {"choose": next(s for s in SEATS if s != first["seat"])}
    path.write_text(json.dumps(payload))
    with pytest.raises(CommandError, match="NOT VERIFIED"):
        call_command("verify_replay", str(path), stdout=StringIO())
    # check_game rebuilds finished and ongoing minis games, and catches a tampered snapshot.
    deadlines.resolve_overdue(ongoing.pk, now=timezone.now() + timedelta(seconds=LIMIT + 1))
    out = StringIO()
    call_command("check_game", game.pk, ongoing.pk, stdout=out)
    assert f"OK game {game.pk} (version {game.version})" in out.getvalue() and f"OK game {ongoing.pk}" in out.getvalue()
    ongoing.refresh_from_db()
    ongoing.state["vp"]["stark"] += 3
    ongoing.save(update_fields=["state"])
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_game", ongoing.pk, stdout=out)
    assert f"MISMATCH game {ongoing.pk}" in out.getvalue()
