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
from datetime import timedelta
from io import StringIO

import pytest
import websockets
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
from tests.celery_worker import celery_processes, needs_services, wait_for
from tests.factories import api_client_for, make_game, make_user
from tests.live_server import running_server

LCG = get_ruleset("lcg")
LIMIT = 600  # seconds per decision in the lobby games below


def lobby_game(*, ranked: bool = True, max_consecutive_timeouts: int = 0, time_limit: int = LIMIT):
    """A two-seat lcg game started through the API: the creator opens the lobby, a second user joins."""
    creator, guest = make_user(), make_user()
    response = api_client_for(creator).post(reverse("api-lobbies"), {
        "ruleset": "lcg", "seats": 2, "time_limit": time_limit, "ranked": ranked,
        "max_consecutive_timeouts": max_consecutive_timeouts,
    }, format="json")
    assert response.status_code == 201, response.json()
    joined = api_client_for(guest).post(reverse("api-lobby-join", args=[response.json()["id"]]), {}, format="json")
    assert joined.status_code == 200, joined.json()
    game = Game.objects.get(pk=joined.json()["game"])
    return game, creator, guest


def play_by_deadlines(game: Game, *, checks: bool = False, limit: int = 5000) -> int:
    """Let every deadline pass, one time limit after the other, until the game is over. With
    `checks`, after each sweep: every pending seat has a deadline and the others have none."""
    now = timezone.now()
    sweeps = 0
    for _ in range(limit):
        game.refresh_from_db()
        if not game.is_active():
            return sweeps
        if checks:
            pending = set(LCG.pending(game.state))
            with_deadline = set(GameSeat.objects.filter(game=game, deadline_at__isnull=False).values_list("seat", flat=True))
            assert pending and with_deadline == pending, (game.version, pending, with_deadline)
        now += timedelta(seconds=game.time_limit + 1)
        assert deadlines.resolve_overdue(game.pk, now=now), f"nothing was overdue at version {game.version}"
        sweeps += 1
    raise AssertionError(f"game {game.pk} did not end after {limit} deadlines")


@pytest.fixture
def finished(db):
    """A ranked lcg lobby game played to its end by deadlines alone: (game, creator, guest)."""
    game, creator, guest = lobby_game()
    play_by_deadlines(game)
    game.refresh_from_db()
    return game, creator, guest


def user_of(game: Game, seat: str):
    return GameSeat.objects.get(game=game, seat=seat).user


# --------------------------------------------------------------------------- deadlines


@pytest.mark.django_db
def test_a_ranked_lobby_game_is_played_to_its_end_by_deadlines_alone_with_the_timeout_defaults():
    game, creator, guest = lobby_game()
    assert game.ruleset == "lcg" and game.ranked and game.time_limit == LIMIT
    assert sorted(game.seat_names()) == ["p1", "p2"]
    assert {s.user for s in game.seats.all()} == {creator, guest}
    view = api_client_for(creator).get(reverse("api-game", args=[game.pk])).json()
    assert view["ruleset"] == "lcg" and view["deadline_at"] is not None
    play_by_deadlines(game, checks=True)
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
        past = timezone.now() - timedelta(seconds=1)
        GameSeat.objects.filter(game=game, deadline_at__isnull=False).update(deadline_at=past)
        Game.objects.filter(pk=game.pk).update(deadline_at=past)
    assert sweep_deadlines() == 3  # what beat sends every second
    assert sweep_deadlines() == 0
    for game in games:
        game.refresh_from_db()
        (timeout,) = game.actions.all()
        assert timeout.source == GameAction.Source.TIMEOUT and timeout.action == {"mulligan": False}
        assert game.deadline_at is not None and snapshot_matches_log(game)
    past = timezone.now() - timedelta(seconds=1)
    GameSeat.objects.filter(game=games[0], deadline_at__isnull=False).update(deadline_at=past)
    Game.objects.filter(pk=games[0].pk).update(deadline_at=past)
    out = StringIO()
    call_command("run_deadlines", "--once", stdout=out)  # the embedded runner's tick
    assert "applied 1 timeout default(s)" in out.getvalue()
    assert games[0].actions.count() == 2


@pytest.mark.django_db
def test_a_seat_timing_out_n_times_in_a_row_goes_to_the_engines_player_and_the_game_ends():
    game = make_game(2, ruleset="lcg", seed=3, time_limit=3600, max_consecutive_timeouts=2, ranked=True)
    sleeper = game.state["decision"]["seats"][0]  # the first to decide (a mulligan) never answers
    awake = next(s for s in ("p1", "p2") if s != sleeper)
    awake_user = user_of(game, awake)
    now = timezone.now()
    for _ in range(3000):
        game.refresh_from_db()
        if not game.is_active():
            break
        pending = LCG.pending(game.state)
        if awake in pending:  # the awake player answers in time (with the default, as a player)
            do_submit_action(game.pk, awake_user, action=LCG.default_action(game.state, awake), version=game.version)
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
    assert not game.actions.filter(seat=awake).exclude(source=GameAction.Source.PLAYER).exists()
    assert game.status == Game.Status.FINISHED and sorted(game.ranking) == ["p1", "p2"]
    assert snapshot_matches_log(game)
    # The player kept every decision of their own seat: the engine's player decided only the other.
    assert GameSeat.objects.get(game=game, seat=awake).is_bot is False


# --------------------------------------------------------------------------- ratings


def test_the_finished_ranked_game_rates_both_players_and_shows_on_the_leaderboard_and_profiles(finished):
    game, creator, guest = finished
    winner, loser = user_of(game, game.ranking[0]), user_of(game, game.ranking[1])
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {winner.pk, loser.pk} and {c.ruleset for c in changes.values()} == {"lcg"}
    assert changes[winner.pk].after > changes[winner.pk].before == 1500
    assert changes[loser.pk].after < changes[loser.pk].before == 1500
    assert Rating.objects.get(user=winner, ruleset="lcg").rating > 1500 > Rating.objects.get(user=loser, ruleset="lcg").rating
    assert not Rating.objects.filter(ruleset__in=["agot", "btwixt"]).exists()
    board = Client().get(reverse("api-leaderboard", args=["lcg"])).json()["results"]
    assert [row["username"] for row in board] == [winner.username, loser.username]
    assert Client().get(reverse("api-leaderboard", args=["agot"])).json()["results"] == []
    profile = Client().get(reverse("api-profile", args=[winner.username])).json()
    assert [(r["ruleset"], r["games"]) for r in profile["ratings"]] == [("lcg", 1)]
    assert profile["history"][0]["ruleset"] == "lcg" and profile["history"][0]["game"] == game.pk
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
    client = Client()
    client.force_login(creator)
    mine = GameSeat.objects.get(game=game, user=creator).seat
    other = next(s for s in ("p1", "p2") if s != mine)
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
    previous_round = 0
    for step in sample:
        body = client.get(reverse("web-replay-step", args=[game.pk, step])).json()
        assert body["step"] == step and body["steps"] == steps and body["seat"] == mine
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
        assert body["view"]["round"] >= previous_round
        previous_round = body["view"]["round"]
        spectator = Client().get(reverse("web-replay-step", args=[game.pk, step]) + "?as=spectator").json()
        assert all(set(p["hand"]) <= {HIDDEN} for p in spectator["view"]["players"].values())
    # The last step is the end of the game.
    last = client.get(reverse("web-replay-step", args=[game.pk, steps])).json()
    assert last["view"]["over"] and last["view"]["winner"] == game.ranking[0]
    # its step in words, the winner by name (the narrator's "{p1}" placeholders filled in)
    winner = GameSeat.objects.get(game=game, seat=game.ranking[0]).user.username
    said = " ".join(line["text"] for line in last["entry"]["lines"])
    assert f"The game is over: {winner} wins" in said and "{" not in said
    assert client.get(reverse("web-replay-step", args=[game.pk, steps + 1])).status_code == 404
    ongoing, _, _ = lobby_game()
    assert Client().get(reverse("web-replay-step", args=[ongoing.pk, 0])).status_code == 409
    # The fairness payload replays to the published end, by verify_replay too.
    payload = Client().get(reverse("api-game-fairness", args=[game.pk])).json()
    assert payload["ruleset"] == "lcg" and payload["final_version"] == game.version == len(payload["actions"])
    assert verify_published(payload).ok
    path = tmp_path / "fairness.json"
    path.write_text(json.dumps(payload))
    out = StringIO()
    call_command("verify_replay", str(path), stdout=out)
    assert out.getvalue().startswith("VERIFIED") and f"to version {game.version}" in out.getvalue()
    # A timeout default swapped for another legal answer no longer replays to the published state.
    index = next(i for i, a in enumerate(payload["actions"]) if a["action"] == {"mulligan": False})
    payload["actions"][index]["action"] = {"mulligan": True}
    path.write_text(json.dumps(payload))
    with pytest.raises(CommandError, match="NOT VERIFIED"):
        call_command("verify_replay", str(path), stdout=StringIO())
    # check_game rebuilds finished and ongoing lcg games, and catches a tampered snapshot.
    deadlines.resolve_overdue(ongoing.pk, now=timezone.now() + timedelta(seconds=LIMIT + 1))
    out = StringIO()
    call_command("check_game", game.pk, ongoing.pk, stdout=out)
    assert f"OK game {game.pk} (version {game.version})" in out.getvalue() and f"OK game {ongoing.pk}" in out.getvalue()
    ongoing.refresh_from_db()
    ongoing.state["players"]["p1"]["gold"] += 5
    ongoing.save(update_fields=["state"])
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_game", ongoing.pk, stdout=out)
    assert f"MISMATCH game {ongoing.pk}" in out.getvalue()


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
