"""The card game (lcg) on the platform (issue 17, "On the platform"): a ranked two-seat lobby game
through the API is played to its end by deadlines alone, every decision resolved by the ruleset's
timeout default (rules/lcg.md 5.3), through the sweep that Celery's task and the embedded runner run;
a seat that keeps timing out goes to the engine's player; the finished game is rated per ruleset
and shown on the leaderboard and profiles; its replay steps, fairness payload, `verify_replay` and
`check_game` work. The lobby's deck choice and the table page are tested elsewhere."""
from __future__ import annotations

import asyncio
import json
import re
import sys
import time
import urllib.request

import pytest
import websockets
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
from tests.celery_worker import celery_processes, needs_services, wait_for
from tests.factories import api_client_for, make_game
from tests.live_server import running_server

LCG = get_ruleset("lcg")


@pytest.fixture
def finished(db):
    """A ranked lcg lobby game played to its end by deadlines alone: (game, creator, guest)."""
    return platform.finished_lobby_game("lcg")


# --------------------------------------------------------------------------- deadlines


@pytest.mark.django_db
def test_a_ranked_lobby_game_is_played_to_its_end_by_deadlines_alone_with_the_timeout_defaults():
    game, creator, guest = platform.lobby_game("lcg")
    assert game.ruleset == "lcg" and game.ranked and game.time_limit == platform.LIMIT
    assert sorted(game.seat_names()) == ["p1", "p2"]
    assert {s.user for s in game.seats.all()} == {creator, guest}
    view = api_client_for(creator).get(reverse("api-game", args=[game.pk])).json()
    assert view["ruleset"] == "lcg" and view["deadline_at"] is not None
    platform.play_by_deadlines(game, checks=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert sorted(game.ranking) == ["p1", "p2"] and game.ranking[0] == game.state["winner"]
    assert game.deadline_at is None and not GameSeat.objects.filter(game=game, deadline_at__isnull=False).exists()
    assert not GameSeat.objects.filter(game=game, is_bot=True).exists()  # nobody was handed to the bot
    # Every decision was the engine's documented default for the state it was taken in (5.3).
    records = list(game.actions.order_by("version"))
    assert len(records) == game.version > 100
    assert {r.source for r in records} == {GameAction.Source.TIMEOUT}
    state = LCG.new_game(game.seat_names(), game.options, game.seed)
    for record in records:
        assert record.seat in LCG.pending(state)
        assert record.action == LCG.default_action(state, record.seat), record.version
        state, _ = LCG.apply(state, record.seat, record.action)
    assert state["over"] and snapshot_matches_log(game)


@pytest.mark.django_db
def test_the_celery_task_and_the_runner_tick_resolve_lcg_deadlines():
    games = [make_game(2, ruleset="lcg", seed=n, time_limit=3600) for n in range(3)]
    for game in games:
        # the first decision (a mulligan) is one seat's
        assert len(LCG.pending(game.state)) == 1
        platform.expire_deadlines(game)
    assert sweep_deadlines() == 3  # what beat sends every second
    assert sweep_deadlines() == 0
    for game in games:
        game.refresh_from_db()
        (timeout,) = game.actions.all()
        assert timeout.source == GameAction.Source.TIMEOUT and timeout.action == {"mulligan": False}
        assert game.deadline_at is not None and snapshot_matches_log(game)
    platform.expire_deadlines(games[0])
    platform.run_deadlines_once()  # the embedded runner's tick
    assert games[0].actions.count() == 2


@pytest.mark.django_db
def test_a_seat_timing_out_n_times_in_a_row_goes_to_the_engines_player_and_the_game_ends():
    game = make_game(2, ruleset="lcg", seed=3, time_limit=3600, max_consecutive_timeouts=2, ranked=True)
    sleeper = game.state["decision"]["seats"][0]  # the first to decide (a mulligan) never answers
    awake = next(s for s in ("p1", "p2") if s != sleeper)
    platform.play_with_a_sleeper(game, awake, limit=3000)  # the awake player answers in time, as a player
    platform.assert_the_sleeper_went_to_the_engines_player(game, sleeper, awake, seats=("p1", "p2"))


# --------------------------------------------------------------------------- ratings


def test_the_finished_ranked_game_rates_both_players_and_shows_on_the_leaderboard_and_profiles(finished):
    game, creator, guest = finished
    winner, loser = platform.assert_rated_on_the_leaderboard_and_profile(game, "lcg", unrated="agot")
    assert not Rating.objects.filter(ruleset__in=["agot", "btwixt"]).exists()
    # The pages name the game in words.
    page = Client().get("/leaderboards/lcg/").content.decode()
    assert "A Game of Thrones: The Card Game" in page and winner.username in page
    assert ">lcg<" not in page and "Lcg" not in page
    # Every open game's leaderboard can be reached from each leaderboard, named in words.
    names = {"agot": "A Game of Thrones: The Board Game", "btwixt": "B'Twixt", "lcg": "A Game of Thrones: The Card Game",
             "minis": "A Song of Ice and Fire: Tabletop Miniatures"}
    for ruleset, name in names.items():
        other = Client().get(f"/leaderboards/{ruleset}/").content.decode()
        for target, target_name in names.items():
            if target != ruleset:
                assert f'href="/leaderboards/{target}/">{escape(target_name)}</a>' in other, (ruleset, target)
        assert f"<h1>Leaderboard: {escape(name)}</h1>" in other
    profile = Client().get(reverse("public-profile", args=[winner.username])).content.decode()
    assert profile.count("A Game of Thrones: The Card Game") >= 2  # the rating and its history
    assert "Lcg" not in profile and ">p1<" not in profile and ">p2<" not in profile


# --------------------------------------------------------------------------- replays, fairness, check_game


def test_replays_fairness_verify_replay_and_check_game(finished, tmp_path):
    """Replay steps show each seat only its own hand; the fairness payload verifies; check_game rebuilds."""
    game, creator, guest = finished
    client, mine, other = platform.seat_page_client(game, creator)
    steps = game.version
    # the first steps whose events hold a seat's secret (the cards drawn), for each seat
    private = {}
    for record in game.actions.order_by("version"):
        for event in record.events:
            for owner in event.get("private") or {}:
                private.setdefault(owner, {}).setdefault(record.version, []).append(event["private"][owner])
    assert set(private) == {"p1", "p2"}
    sample = sorted({0, 1, 2, 3, steps // 3, steps // 2, steps - 1, steps,
                     *list(private["p1"])[:2], *list(private["p2"])[:2]})
    for body, spectator in platform.replay_steps(client, game, sample, mine):
        step = body["step"]
        players = body["view"]["players"]
        assert players[other]["hand"] == [HIDDEN] * len(players[other]["hand"])
        assert HIDDEN not in players[mine]["hand"]
        assert body["summary"]["hand"][other] == HIDDEN
        assert "rng" not in body["view"] and "rng" not in json.dumps(body["summary"])
        if body["entry"]:
            events = body["entry"]["events"]
            assert all("private" not in e for e in events)
            # an event with secrets names its cards to their owner only; an event without any (a
            # public discard, a reveal) may name cards to everyone and is shown as it is
            raw = game.actions.get(version=step).events
            assert len(raw) == len(events)
            for stored, seen in zip(raw, events, strict=True):
                secrets = stored.get("private") or {}
                expected = secrets[mine] if mine in secrets else stored.get("cards")
                assert seen.get("cards") == expected, (step, stored.get("type"))
                if other in secrets and mine not in secrets:
                    assert "cards" not in seen or seen["cards"] == stored.get("cards"), step
        assert all(set(p["hand"]) <= {HIDDEN} for p in spectator["view"]["players"].values())
    # The last step is the end of the game.
    last = platform.last_replay_step(client, game)
    # its step in words, the winner by name (the narrator's "{p1}" placeholders filled in)
    winner = GameSeat.objects.get(game=game, seat=game.ranking[0]).user.username
    said = " ".join(line["text"] for line in last["entry"]["lines"])
    assert f"The game is over: {winner} wins" in said and "{" not in said
    ongoing, _, _ = platform.lobby_game("lcg")
    platform.assert_no_replay_while_playing(ongoing)
    # The fairness payload replays to the published end, by verify_replay too.
    payload, path = platform.verified_fairness_payload(game, tmp_path)
    assert payload["ruleset"] == "lcg"
    # A timeout default swapped for another legal answer no longer replays to the published state.
    index = next(i for i, a in enumerate(payload["actions"]) if a["action"] == {"mulligan": False})
    payload["actions"][index]["action"] = {"mulligan": True}
    platform.assert_not_verified(payload, path)

    def tamper(state: dict) -> None:
        state["players"]["p1"]["gold"] += 5

    # check_game rebuilds finished and ongoing lcg games, and catches a tampered snapshot.
    platform.assert_check_game(game, ongoing, tamper)


# --------------------------------------------------------------------------- real processes


@pytest.mark.django_db(transaction=True)
@needs_services
def test_lcg_deadlines_are_resolved_by_beat_and_a_real_celery_worker():
    with celery_processes("test-lcg-deadlines") as celery:
        celery.start_worker()
        celery.start_beat()
        game = make_game(2, ruleset="lcg", time_limit=2, max_consecutive_timeouts=0)

        def timeouts() -> int:
            return GameAction.objects.filter(game=game, source="timeout").count()

        # the two mulligans (one seat after the other), then the setup both seats choose at once
        assert wait_for(lambda: timeouts() >= 4), celery.logs()
        first = list(GameAction.objects.filter(game=game).order_by("version")[:4])
        assert [a.action for a in first[:2]] == [{"mulligan": False}] * 2
        assert {a.seat for a in first} == {"p1", "p2"} and {a.source for a in first} == {"timeout"}
        game.refresh_from_db()
        assert snapshot_matches_log(game)


MAKE_GAME = """
from accounts.models import ApiToken, User
from games.services.play import do_create_game
users = [User.objects.create_user(f"p{n}", f"p{n}@example.com", "a-long-passphrase-42") for n in range(2)]
game = do_create_game(ruleset="lcg", seating=dict(zip(["p1", "p2"], users)), time_limit=3, max_consecutive_timeouts=0)
first = game.state["decision"]["seats"][0]
_, key = ApiToken.issue(users[["p1", "p2"].index(first)], "test")
print("GAME", game.pk, key, first)
"""


async def _socket_updates(url: str, game_id: int, key: str, wait: float, want: int) -> list[dict]:
    received = []
    async with websockets.connect(f"ws://{url}/ws/games/{game_id}/?token={key}", origin=f"http://{url}") as socket:
        stop_at = time.monotonic() + wait
        while time.monotonic() < stop_at and sum(m["type"] == "update" for m in received) < want:
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), stop_at - time.monotonic()))
            except TimeoutError:
                break
            received.append(message)
    return received


@pytest.mark.slow_once  # its own server on a SQLite file of its own: the same on both CI passes
def test_the_embedded_runner_in_the_server_times_out_lcg_decisions_live():
    with running_server([sys.executable, "manage.py", "serve", "127.0.0.1:{port}", "--noreload"]) as server:
        game_id, key, first = re.search(r"GAME (\d+) (\S+) (p\d)", server.manage("shell", "-c", MAKE_GAME)).groups()
        messages = asyncio.run(_socket_updates(f"127.0.0.1:{server.port}", int(game_id), key, wait=40, want=2))
        request = urllib.request.Request(f"{server.url}/api/v1/games/{game_id}/log",
                                         headers={"Authorization": f"Token {key}"})
        log = json.load(urllib.request.urlopen(request, timeout=10))
        updates = [m for m in messages if m["type"] == "update"]
        assert messages[0]["type"] == "hello" and len(updates) == 2, f"{messages}\n{server.output()}"
        assert updates[-1]["version"] <= log["version"]
        entries = log["entries"]
        assert len(entries) >= 2 and {e["source"] for e in entries} == {"timeout"}, entries
        assert entries[0]["version"] == 1 and entries[0]["seat"] == first  # the first decision: a mulligan
