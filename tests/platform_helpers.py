"""Helpers shared by the tests of a two-seat game on the platform (the card game and the miniatures
game: test_lcg_platform.py, test_minis_platform.py, test_tournament_lcg.py, test_tournament_minis.py)
and of the log API in words (test_game_log_text.py, test_lcg_log_text.py): a lobby game started
through the API, a game played to its end by deadlines alone, the checks every finished ranked game
of a ruleset passes (ratings, leaderboard, profile, fairness payload, `verify_replay`,
`check_game`), a tournament's tables. Each takes the game or the ruleset it is about."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine import get_ruleset
from games.models import Game, GameAction, GameSeat
from games.replay import verify_published
from games.services import deadlines
from games.services.play import do_submit_action
from games.services.replay import snapshot_matches_log
from ratings.models import Rating, RatingChange
from tests.factories import api_client_for, make_user, seat_client, whole_log
from tournaments import services
from tournaments.models import Table, Tournament

LIMIT = 600  # seconds per decision in the lobby games of these tests
# How many deadlines a game of each ruleset may take before a test calls it endless.
DEADLINE_CAP = {"lcg": 5000, "minis": 2000}


# --------------------------------------------------------------------------- the API as a seat, the log


def submit(game: Game, seat: str, action: dict) -> None:
    """`seat` sends `action` through the API at the game's current version; it must be accepted."""
    game.refresh_from_db()
    r = seat_client(game, seat).post(reverse("api-game-actions", args=[game.id]),
                                     {"version": game.version, "action": action}, format="json")
    assert r.status_code == 200, r.json()


def log(game: Game, client) -> list[dict]:
    """The game's whole log as `client` reads it, page after page."""
    def get_json(path):
        r = client.get(path)
        assert r.status_code == 200
        return r.json()

    return whole_log(get_json, game.id)["entries"]


def texts(entries: list[dict]) -> list[str]:
    return [line["text"] for e in entries for line in e["lines"]]


# --------------------------------------------------------------------------- lobby games and deadlines


def lobby_game(ruleset: str, *, ranked: bool = True, max_consecutive_timeouts: int = 0, time_limit: int = LIMIT,
               options: dict | None = None) -> tuple[Game, object, object]:
    """A two-seat game of `ruleset` started through the API: the creator opens the lobby, a second
    user joins. (game, creator, guest)."""
    creator, guest = make_user(), make_user()
    response = api_client_for(creator).post(reverse("api-lobbies"), {
        "ruleset": ruleset, "seats": 2, "time_limit": time_limit, "ranked": ranked,
        "max_consecutive_timeouts": max_consecutive_timeouts, "options": options or {},
    }, format="json")
    assert response.status_code == 201, response.json()
    joined = api_client_for(guest).post(reverse("api-lobby-join", args=[response.json()["id"]]), {}, format="json")
    assert joined.status_code == 200, joined.json()
    return Game.objects.get(pk=joined.json()["game"]), creator, guest


def play_by_deadlines(game: Game, *, checks: bool = False, limit: int | None = None, strict: bool = True) -> int:
    """Let every deadline pass, one time limit after the other, until the game is over (at most
    `limit` deadlines, by default the ruleset's DEADLINE_CAP); returns how many sweeps it took. With
    `checks`, after each sweep: every pending seat has a deadline and the others have none. With
    `strict`, every sweep must have resolved something."""
    limit = limit or DEADLINE_CAP[game.ruleset]
    ruleset = get_ruleset(game.ruleset)
    now = timezone.now()
    sweeps = 0
    for _ in range(limit):
        game.refresh_from_db()
        if not game.is_active():
            return sweeps
        if checks:
            pending = set(ruleset.pending(game.state))
            with_deadline = set(GameSeat.objects.filter(game=game, deadline_at__isnull=False).values_list("seat", flat=True))
            assert pending and with_deadline == pending, (game.version, pending, with_deadline)
        now += timedelta(seconds=game.time_limit + 1)
        resolved = deadlines.resolve_overdue(game.pk, now=now)
        assert resolved or not strict, f"nothing was overdue at version {game.version}"
        sweeps += 1
    raise AssertionError(f"game {game.pk} did not end after {limit} deadlines")


def finish_by_deadlines(game: Game) -> None:
    """A tournament's game to its end by its deadlines (a sweep that finds nothing overdue is no error)."""
    play_by_deadlines(game, strict=False)


def finished_lobby_game(ruleset: str, **lobby) -> tuple[Game, object, object]:
    """A ranked lobby game of `ruleset` played to its end by deadlines alone: (game, creator, guest)."""
    game, creator, guest = lobby_game(ruleset, **lobby)
    play_by_deadlines(game)
    game.refresh_from_db()
    return game, creator, guest


def user_of(game: Game, seat: str):
    return GameSeat.objects.get(game=game, seat=seat).user


def expire_deadlines(game: Game) -> None:
    """Move the game's running deadlines one second into the past."""
    past = timezone.now() - timedelta(seconds=1)
    GameSeat.objects.filter(game=game, deadline_at__isnull=False).update(deadline_at=past)
    Game.objects.filter(pk=game.pk).update(deadline_at=past)


def run_deadlines_once() -> None:
    """The embedded runner's tick; one timeout default is due."""
    out = StringIO()
    call_command("run_deadlines", "--once", stdout=out)
    assert "applied 1 timeout default(s)" in out.getvalue()


def play_with_a_sleeper(game: Game, awake: str, *, limit: int) -> None:
    """The `awake` seat answers every decision of its own in time (with the default, as a player);
    the other seat's deadlines pass, one time limit after the other, until the game ends."""
    ruleset = get_ruleset(game.ruleset)
    awake_user = user_of(game, awake)
    now = timezone.now()
    for _ in range(limit):
        game.refresh_from_db()
        if not game.is_active():
            break
        if awake in ruleset.pending(game.state):
            do_submit_action(game.pk, awake_user, action=ruleset.default_action(game.state, awake), version=game.version)
        else:
            now += timedelta(seconds=game.time_limit + 1)
            deadlines.resolve_overdue(game.pk, now=now)


def assert_the_sleeper_went_to_the_engines_player(game: Game, sleeper: str, awake: str, seats: Iterable[str]):
    """After play_with_a_sleeper with two timeouts allowed in a row: the sleeper's seat went to the
    engine's player, which played on to the end; the awake player kept their own seat. Returns the
    engine's player's moves."""
    game.refresh_from_db()
    seat = GameSeat.objects.get(game=game, seat=sleeper)
    assert seat.is_bot and seat.abandoned and seat.left_at is not None
    timeouts = list(game.actions.filter(source=GameAction.Source.TIMEOUT).values_list("seat", flat=True))
    assert timeouts == [sleeper, sleeper]  # two in a row, then the engine's player
    bot_moves = game.actions.filter(seat=sleeper, source=GameAction.Source.BOT)
    assert bot_moves.count() > 10
    assert not game.actions.filter(seat=awake).exclude(source=GameAction.Source.PLAYER).exists()
    assert game.status == Game.Status.FINISHED and sorted(game.ranking) == sorted(seats)
    assert snapshot_matches_log(game)
    # The player kept every decision of their own seat: the engine's player decided only the other.
    assert GameSeat.objects.get(game=game, seat=awake).is_bot is False
    return bot_moves


# --------------------------------------------------------------------------- a finished ranked game


def assert_rated_on_the_leaderboard_and_profile(game: Game, ruleset: str, *, unrated: str):
    """Both players of the finished ranked `game` are rated for `ruleset` (the winner up, the loser
    down from 1500), in that order on its leaderboard, and on the winner's profile; the leaderboard
    of `unrated` stays empty. Returns (winner, loser)."""
    winner, loser = user_of(game, game.ranking[0]), user_of(game, game.ranking[1])
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {winner.pk, loser.pk} and {c.ruleset for c in changes.values()} == {ruleset}
    assert changes[winner.pk].after > changes[winner.pk].before == 1500
    assert changes[loser.pk].after < changes[loser.pk].before == 1500
    assert Rating.objects.get(user=winner, ruleset=ruleset).rating > 1500 > Rating.objects.get(user=loser, ruleset=ruleset).rating
    board = Client().get(reverse("api-leaderboard", args=[ruleset])).json()["results"]
    assert [row["username"] for row in board] == [winner.username, loser.username]
    assert Client().get(reverse("api-leaderboard", args=[unrated])).json()["results"] == []
    profile = Client().get(reverse("api-profile", args=[winner.username])).json()
    assert [(r["ruleset"], r["games"]) for r in profile["ratings"]] == [(ruleset, 1)]
    assert profile["history"][0]["ruleset"] == ruleset and profile["history"][0]["game"] == game.pk
    return winner, loser


def seat_page_client(game: Game, user) -> tuple[Client, str, str]:
    """A page client logged in as `user`: (client, their seat, the other seat)."""
    client = Client()
    client.force_login(user)
    mine = GameSeat.objects.get(game=game, user=user).seat
    other = next(s for s in game.seat_names() if s != mine)
    return client, mine, other


def replay_steps(client: Client, game: Game, sample: Iterable[int], mine: str) -> Iterator[tuple[dict, dict]]:
    """The replay steps of `sample` as `client` (seated at `mine`) and a spectator see them:
    (body, spectator's body) for each, after checking the step, the step count, the seat and that
    the rounds never go back."""
    previous_round = 0
    for step in sample:
        body = client.get(reverse("web-replay-step", args=[game.pk, step])).json()
        assert body["step"] == step and body["steps"] == game.version and body["seat"] == mine
        assert body["view"]["round"] >= previous_round
        previous_round = body["view"]["round"]
        spectator = Client().get(reverse("web-replay-step", args=[game.pk, step]) + "?as=spectator").json()
        yield body, spectator


def last_replay_step(client: Client, game: Game) -> dict:
    """The last replay step, the end of the game with its winner; there is none after it."""
    last = client.get(reverse("web-replay-step", args=[game.pk, game.version])).json()
    assert last["view"]["over"] and last["view"]["winner"] == game.ranking[0]
    assert client.get(reverse("web-replay-step", args=[game.pk, game.version + 1])).status_code == 404
    return last


def assert_no_replay_while_playing(game: Game) -> None:
    assert Client().get(reverse("web-replay-step", args=[game.pk, 0])).status_code == 409


def verified_fairness_payload(game: Game, tmp_path) -> tuple[dict, object]:
    """The finished game's fairness payload replays to the published end, by `verify_replay` too:
    (payload, the file it was written to)."""
    payload = Client().get(reverse("api-game-fairness", args=[game.pk])).json()
    assert payload["ruleset"] == game.ruleset and payload["final_version"] == game.version == len(payload["actions"])
    assert verify_published(payload).ok
    path = tmp_path / "fairness.json"
    path.write_text(json.dumps(payload))
    out = StringIO()
    call_command("verify_replay", str(path), stdout=out)
    assert out.getvalue().startswith("VERIFIED") and f"to version {game.version}" in out.getvalue()
    return payload, path


def assert_not_verified(payload: dict, path) -> None:
    """`verify_replay` refuses the (altered) payload."""
    path.write_text(json.dumps(payload))
    with pytest.raises(CommandError, match="NOT VERIFIED"):
        call_command("verify_replay", str(path), stdout=StringIO())


def assert_check_game(game: Game, ongoing: Game, tamper: Callable[[dict], None]) -> None:
    """check_game rebuilds the finished `game` and the `ongoing` one (after one deadline), and
    catches the ongoing game's snapshot altered by `tamper`."""
    deadlines.resolve_overdue(ongoing.pk, now=timezone.now() + timedelta(seconds=ongoing.time_limit + 1))
    out = StringIO()
    call_command("check_game", game.pk, ongoing.pk, stdout=out)
    assert f"OK game {game.pk} (version {game.version})" in out.getvalue() and f"OK game {ongoing.pk}" in out.getvalue()
    ongoing.refresh_from_db()
    tamper(ongoing.state)
    ongoing.save(update_fields=["state"])
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_game", ongoing.pk, stdout=out)
    assert f"MISMATCH game {ongoing.pk}" in out.getvalue()


# --------------------------------------------------------------------------- tournaments


def round_tables(tid: int, number: int) -> list[Table]:
    return list(Table.objects.filter(round__tournament_id=tid, round__number=number)
                .select_related("game").prefetch_related("seats__registration__user").order_by("number"))


def players_of(table: Table) -> frozenset:
    return frozenset(s.registration.user.username for s in table.seats.all())


def pairs(tables: list[Table]) -> set[frozenset]:
    return {players_of(t) for t in tables}


def start_event(org, ruleset: str, players: int, **fields) -> int:
    """A Swiss event of two-seat tables of `ruleset`, made by the organizer's API client `org` with
    `fields`, `players` fresh users registered, started. Returns its id."""
    response = org.post("/api/v1/tournaments", {
        "ruleset": ruleset, "format": "swiss", "seats_per_table": 2, **fields}, format="json")
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    assert response.json()["ruleset"] == ruleset and response.json()["min_seats_per_table"] == 2
    for user in [make_user() for _ in range(players)]:
        assert api_client_for(user).post(f"/api/v1/tournaments/{tid}/register").status_code == 201
    assert org.post(f"/api/v1/tournaments/{tid}/start").json()["status"] == "running"
    return tid


def organize_event(client, ruleset: str, game_name: str, event_name: str, *, rounds: int, players: int):
    """Through the organize page (as `client`, logged in as a fresh organizer): the form offers the
    game by name, makes a Swiss event of two-seat tables and refuses too many seats (in words for the
    miniatures game: three); then
    `players` fresh users register and the event starts. Returns (tournament, the event page)."""
    organizer = make_user()
    client.force_login(organizer)
    form = client.get(reverse("tournament-new")).content.decode()
    assert f'<option value="{ruleset}">{game_name}</option>' in form
    data = {"name": event_name, "ruleset": ruleset, "format": "swiss", "rounds": rounds, "seats_per_table": 2,
            "advance_per_table": 1, "division_size": 10, "scoring": "placement", "win_bonus": 10,
            "tiebreaker_1": "wins", "tiebreaker_2": "head_to_head", "time_limit_0": 1, "time_limit_1": "hours",
            "auto_advance": "on"}
    assert client.post(reverse("tournament-new"), data).status_code == 302
    t = Tournament.objects.get(name=event_name)
    assert (t.ruleset, t.seats_per_table, t.min_seats_per_table) == (ruleset, 2, 2)
    # too many a table: the miniatures game seats 2; the card game 2 to 6 (a melee from 3, issue 31), as the form's field
    crowded = 7 if ruleset == "lcg" else 3
    refused = client.post(reverse("tournament-new"), {**data, "name": "Crowded", "seats_per_table": crowded})
    assert refused.status_code == 200 and not Tournament.objects.filter(name="Crowded").exists()
    if ruleset != "lcg":
        said = refused.content.decode()
        assert (f"{game_name} is played by 2 players." in said
                or f"Tournaments of {game_name} are played at tables of 2 players" in said)
    for user in [make_user() for _ in range(players)]:
        services.do_register(t.pk, user)
    services.do_start(t.pk, organizer)
    return t, client.get(reverse("tournament", args=[t.pk])).content.decode()
