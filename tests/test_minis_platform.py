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

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games.engine import get_ruleset
from games.engine.base import HIDDEN
from games.models import Game, GameAction, GameSeat
from games.services.replay import snapshot_matches_log
from games.tasks import sweep_deadlines
from ratings.models import Rating
from tests import platform_helpers as platform
from tests.factories import api_client_for, make_game

MINIS = get_ruleset("minis")
SEATS = ("stark", "lannister")
NAME = "A Song of Ice and Fire: Tabletop Miniatures"


@pytest.fixture
def finished(db):
    """A ranked minis lobby game (random terrain) played to its end by deadlines alone: (game, creator, guest)."""
    return platform.finished_lobby_game("minis", options={"terrain": "random"})


# --------------------------------------------------------------------------- deadlines


@pytest.mark.django_db
def test_a_ranked_lobby_game_is_played_to_its_end_by_deadlines_alone_with_the_timeout_defaults():
    game, creator, guest = platform.lobby_game("minis", options={"terrain": "random"})
    assert game.ruleset == "minis" and game.ranked and game.time_limit == platform.LIMIT
    assert sorted(game.seat_names()) == sorted(SEATS)
    assert {s.user for s in game.seats.all()} == {creator, guest}
    view = api_client_for(creator).get(reverse("api-game", args=[game.pk])).json()
    assert view["ruleset"] == "minis" and view["deadline_at"] is not None
    platform.play_by_deadlines(game, checks=True)
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
        platform.expire_deadlines(game)
    assert sweep_deadlines() == 3  # what beat sends every second
    assert sweep_deadlines() == 0
    for game in games:
        chooser = next(iter(MINIS.pending(game.state)))
        game.refresh_from_db()
        (timeout,) = game.actions.all()
        assert timeout.source == GameAction.Source.TIMEOUT and timeout.action == {"choose": chooser}
        assert game.state["first_player"] == chooser
        assert game.deadline_at is not None and snapshot_matches_log(game)
    platform.expire_deadlines(games[0])
    platform.run_deadlines_once()  # the embedded runner's tick
    (deployed,) = games[0].actions.filter(version=2)
    assert "deploy" in deployed.action and deployed.source == GameAction.Source.TIMEOUT


@pytest.mark.django_db
def test_a_seat_timing_out_n_times_in_a_row_goes_to_the_engines_player_and_the_game_ends():
    game = make_game(2, ruleset="minis", seed=3, time_limit=3600, max_consecutive_timeouts=2, ranked=True)
    sleeper = next(iter(MINIS.pending(game.state)))  # the first to decide never answers
    awake = next(s for s in SEATS if s != sleeper)
    platform.play_with_a_sleeper(game, awake, limit=2000)  # the awake player answers in time, as a player
    bot_moves = platform.assert_the_sleeper_went_to_the_engines_player(game, sleeper, awake, seats=SEATS)
    # the engine's player maneuvers, marches or fights (the default would only ever answer no_action)
    assert any(set(a.action) & {"maneuver", "march", "charge", "attack"} for a in bot_moves)


# --------------------------------------------------------------------------- ratings


def test_the_finished_ranked_game_rates_both_players_and_shows_on_the_leaderboard_and_profiles(finished):
    game, creator, guest = finished
    winner, loser = platform.assert_rated_on_the_leaderboard_and_profile(game, "minis", unrated="lcg")
    assert not Rating.objects.exclude(ruleset="minis").exists()
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
    client, mine, other = platform.seat_page_client(game, creator)
    steps = game.version
    # the steps whose events draw Tactics cards (the hands at the start, Cleanup's draws), per seat
    draws: dict[str, list[int]] = {}
    for record in game.actions.order_by("version"):
        for event in record.events:
            if event.get("type") == "draw":
                draws.setdefault(event["seat"], []).append(record.version)
    assert set(draws) == set(SEATS)
    sample = sorted({1, 2, 3, steps // 3, steps // 2, steps - 1, steps, *draws[mine][:2], *draws[other][:2]})
    for body, spectator in platform.replay_steps(client, game, sample, mine):
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
        assert all(p["hand"] == HIDDEN for p in spectator["view"]["players"].values())
        assert set(spectator["summary"]["hands"].values()) == {HIDDEN}
    platform.last_replay_step(client, game)
    ongoing, _, _ = platform.lobby_game("minis")
    platform.assert_no_replay_while_playing(ongoing)
    # The fairness payload replays to the published end, by verify_replay too.
    payload, path = platform.verified_fairness_payload(game, tmp_path)
    assert payload["ruleset"] == "minis"
    # A timeout default swapped for another legal answer no longer replays to the published state:
    # the First Player chosen by the roll-off winner becomes the other seat.
    first = payload["actions"][0]
    assert first["action"] == {"choose": first["seat"]}
    first["action"] = {"choose": next(s for s in SEATS if s != first["seat"])}
    platform.assert_not_verified(payload, path)

    def tamper(state: dict) -> None:
        state["vp"]["stark"] += 3

    # check_game rebuilds finished and ongoing minis games, and catches a tampered snapshot.
    platform.assert_check_game(game, ongoing, tamper)
