"""Clocks for live play (issue 21, docs/clocks.md): a time bank per seat plus an increment per
decision. The clock runs only while the seat has a decision pending (every pending seat's at once);
an answered decision costs the time used and adds the increment; the seat's deadline is the earlier
of the per-decision deadline and its bank running out, enforced by the deadline sweep; running out
applies the default and counts as a timeout; pause freezes the clocks; the API, the lobby and the
replay show them."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.engine import get_ruleset
from games.models import Game, GameAction, GameSeat, Lobby
from games.services import deadlines
from games.services.pause import do_vote_pause
from games.services.play import do_concede, do_submit_action
from games.tasks import sweep_deadlines
from tests.factories import api_client_for, make_game, make_user

pytestmark = pytest.mark.django_db
AGOT = get_ruleset("agot")
LCG = get_ruleset("lcg")
HOUR = 3600


class Now:
    """A controllable clock: timezone.now() answers `self.at` (every service reads the time there)."""

    def __init__(self, monkeypatch):
        self.at: datetime = timezone.now().replace(microsecond=0)
        monkeypatch.setattr(timezone, "now", lambda: self.at)

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at


@pytest.fixture
def now(monkeypatch):
    return Now(monkeypatch)


def seat(game: Game, name: str) -> GameSeat:
    return GameSeat.objects.get(game=game, seat=name)


def answer(game: Game, name: str):
    """The seat's player answers its pending decision with the ruleset's default (a legal action)."""
    game.refresh_from_db()
    engine = get_ruleset(game.ruleset)
    return do_submit_action(game.id, seat(game, name).user, action=engine.default_action(game.state, name),
                            version=game.version)


def pending(game: Game) -> dict:
    game.refresh_from_db()
    return get_ruleset(game.ruleset).pending(game.state)


def test_the_bank_loses_the_time_used_and_gains_the_increment(now):
    start = now.at
    game = make_game(2, ruleset="lcg", seed=3, time_limit=HOUR, clock_bank=300, clock_increment=5)
    (first, kind), = pending(game).items()  # one player decides on a mulligan first
    second = next(s for s in game.seat_names() if s != first)
    a, b = seat(game, first), seat(game, second)
    # only the seat with a decision pending has its clock running
    assert (a.clock_remaining, a.clock_started_at, a.deadline_at) == (300, start, start + timedelta(seconds=300))
    assert (b.clock_remaining, b.clock_started_at, b.deadline_at) == (300, None, None)

    now.advance(30)
    answer(game, first)
    a, b = seat(game, first), seat(game, second)
    assert (a.clock_remaining, a.clock_started_at, a.deadline_at) == (300 - 30 + 5, None, None)
    assert b.clock_started_at == now.at and b.deadline_at == now.at + timedelta(seconds=300)

    now.advance(100)
    answer(game, second)
    assert seat(game, second).clock_remaining == 300 - 100 + 5
    # both set up at once: both clocks run, each toward its own bank
    assert set(pending(game)) == {first, second}
    a, b = seat(game, first), seat(game, second)
    assert a.clock_started_at == b.clock_started_at == now.at
    assert a.deadline_at == now.at + timedelta(seconds=275) and b.deadline_at == now.at + timedelta(seconds=205)
    assert Game.objects.get(pk=game.pk).deadline_at == b.deadline_at


def test_simultaneous_decisions_run_every_pending_seat_clock(now):
    game = make_game(time_limit=HOUR, clock_bank=1200, clock_increment=10)
    assert set(pending(game)) == {"stark", "lannister", "baratheon"}
    assert {s.seat: s.clock_started_at for s in game.seats.all()} == dict.fromkeys(game.seat_names(), now.at)
    now.advance(40)
    answer(game, "stark")
    now.advance(20)
    answer(game, "lannister")
    banks = {s.seat: (s.clock_remaining, s.clock_started_at is not None) for s in game.seats.all()}
    assert banks["stark"] == (1200 - 40 + 10, False)
    assert banks["lannister"] == (1200 - 60 + 10, False)
    assert banks["baratheon"] == (1200, True)  # still running since the start: 60 s used so far
    body = api_client_for(seat(game, "stark").user).get(reverse("api-game", args=[game.id])).json()
    clocks = {row["seat"]: row["clock"] for row in body["seats"]}
    assert clocks["baratheon"]["running"] and clocks["baratheon"]["remaining"] == 1140
    assert not clocks["stark"]["running"] and clocks["stark"]["remaining"] == 1170


def test_the_deadline_is_the_earlier_of_the_decision_limit_and_the_bank(now):
    game = make_game(time_limit=120, clock_bank=1200, clock_increment=10)
    assert seat(game, "stark").deadline_at == now.at + timedelta(seconds=120)  # the per-decision limit first
    now.advance(121)
    records = deadlines.sweep(now=now.at)
    assert records.timeouts == 3
    stark = seat(game, "stark")
    # the decision ended by its limit: 121 s used, the increment gained, a timeout counted
    assert stark.clock_remaining == 1200 - 121 + 10 and stark.consecutive_timeouts == 1


def test_running_out_applies_the_default_and_counts_as_a_timeout(now):
    start = now.at
    game = make_game(time_limit=HOUR, clock_bank=60, clock_increment=5)
    assert Game.objects.get(pk=game.pk).deadline_at == start + timedelta(seconds=60)
    now.advance(59)
    assert deadlines.sweep(now=now.at).timeouts == 0
    game.refresh_from_db()
    expected = {s: AGOT.default_action(game.state, s) for s in game.seat_names()}
    now.advance(2)
    assert deadlines.sweep(now=now.at).timeouts == 3
    records = list(GameAction.objects.filter(game=game).order_by("version"))
    assert [(r.seat, r.source, r.action) for r in records] == [(s, "timeout", expected[s]) for s in game.seat_names()]
    for s in GameSeat.objects.filter(game=game):
        assert s.consecutive_timeouts == 1
        # A Game of Thrones: out of time, each later decision gets the increment (docs/clocks.md)
        assert s.clock_remaining == 5 or s.clock_remaining == pytest.approx(5)
    for name in pending(game):
        assert seat(game, name).deadline_at == now.at + timedelta(seconds=5)


def test_a_duel_out_of_time_gets_defaults_at_once_and_goes_to_the_engine(now):
    """The card game (a joust): the flag falls as in chess. The seat's later decisions get the
    default at once, and the consecutive-timeout rule hands it to the engine's player."""
    game = make_game(2, ruleset="lcg", seed=3, time_limit=HOUR, clock_bank=60, clock_increment=5,
                     max_consecutive_timeouts=3)
    (slow, _kind), = pending(game).items()
    quick = next(s for s in game.seat_names() if s != slow)
    now.advance(61)
    assert deadlines.sweep(now=now.at).timeouts == 1
    flagged = seat(game, slow)
    assert (flagged.clock_remaining, flagged.consecutive_timeouts, flagged.is_bot) == (0, 1, False)
    for _ in range(20):
        if seat(game, slow).is_bot:
            break
        if quick in pending(game):
            answer(game, quick)  # the opponent plays on, quickly
        if slow in pending(game):
            assert seat(game, slow).deadline_at <= now.at  # nothing left: due at once
        now.advance(1)
        deadlines.sweep(now=now.at)
    flagged = seat(game, slow)
    assert flagged.is_bot and flagged.abandoned and flagged.clock_started_at is None
    assert GameAction.objects.filter(game=game, seat=slow, source="timeout").count() == 3
    assert seat(game, quick).consecutive_timeouts == 0


def test_the_sweep_enforces_clock_deadlines_once(now):
    game = make_game(time_limit=HOUR, clock_bank=60, clock_increment=5)
    now.advance(61)
    assert deadlines.sweep(now=now.at).timeouts == 3
    version = Game.objects.get(pk=game.pk).version
    banks = list(GameSeat.objects.filter(game=game).values_list("clock_remaining", "consecutive_timeouts"))
    assert deadlines.sweep(now=now.at).timeouts == 0
    assert deadlines.resolve_overdue(game.id, now=now.at) == []
    assert Game.objects.get(pk=game.pk).version == version
    assert list(GameSeat.objects.filter(game=game).values_list("clock_remaining", "consecutive_timeouts")) == banks


def test_the_celery_task_enforces_a_clock(now, settings):
    settings.DEADLINE_SWEEP_SECONDS = 0  # one sweep, no waiting for later deadlines
    game = make_game(time_limit=HOUR, clock_bank=60)
    now.advance(61)
    assert sweep_deadlines() == 3
    assert GameAction.objects.filter(game=game, source="timeout").count() == 3


def test_pause_freezes_the_clocks(now):
    game = make_game(time_limit=HOUR, clock_bank=1200, clock_increment=10)
    now.advance(100)
    for name in game.seat_names():
        do_vote_pause(game.id, seat(game, name).user, pause=True)
    assert all(s.clock_started_at is None and s.clock_remaining == 1100 for s in game.seats.all())
    now.advance(5000)  # far past every bank: nothing happens while paused
    assert deadlines.sweep(now=now.at).timeouts == 0
    body = api_client_for(seat(game, "stark").user).get(reverse("api-game", args=[game.id])).json()
    assert {(row["clock"]["remaining"], row["clock"]["running"]) for row in body["seats"]} == {(1100, False)}
    do_vote_pause(game.id, seat(game, "stark").user, pause=False)
    for s in game.seats.all():
        assert s.clock_started_at == now.at and s.clock_remaining == 1100
        assert s.deadline_at == now.at + timedelta(seconds=1100)
    now.advance(30)
    answer(game, "stark")
    assert seat(game, "stark").clock_remaining == 1100 - 30 + 10


def test_a_player_leaving_during_the_pause_starts_no_clock(now):
    """A change while paused (a player concedes, the engine's player answers for them) leaves the
    others' deadlines and clocks frozen: nothing times out during the pause."""
    game = make_game(time_limit=HOUR, clock_bank=1200, clock_increment=10)
    now.advance(100)
    for name in game.seat_names():
        do_vote_pause(game.id, seat(game, name).user, pause=True)
    do_concede(game.id, seat(game, "stark").user)
    game.refresh_from_db()
    assert game.deadline_at is None and game.is_paused()
    for name in ("lannister", "baratheon"):
        s = seat(game, name)
        assert (s.deadline_at, s.clock_started_at, s.clock_remaining, s.paused_remaining) == (None, None, 1100, 1100)
    now.advance(5000)
    assert deadlines.sweep(now=now.at).timeouts == 0
    do_vote_pause(game.id, seat(game, "lannister").user, pause=False)
    assert seat(game, "baratheon").deadline_at == now.at + timedelta(seconds=1100)


def test_the_api_shows_the_clocks(now):
    game = make_game(2, ruleset="lcg", seed=3, time_limit=HOUR, clock_bank=300, clock_increment=5)
    (first, _kind), = pending(game).items()
    now.advance(12)
    spectator = api_client_for(make_user()).get(reverse("api-game", args=[game.id])).json()
    assert spectator["clock"] == {"bank": 300, "increment": 5}
    rows = {row["seat"]: row["clock"] for row in spectator["seats"]}
    assert rows[first]["running"] and rows[first]["remaining"] == 288
    runs_out = datetime.fromisoformat(rows[first]["runs_out_at"].replace("Z", "+00:00"))
    assert runs_out == now.at + timedelta(seconds=288)
    second = next(s for s in game.seat_names() if s != first)
    assert rows[second] == {"remaining": 300, "running": False, "runs_out_at": None}
    plain = make_game(2, ruleset="lcg", seed=3, time_limit=HOUR)
    body = api_client_for(make_user()).get(reverse("api-game", args=[plain.id])).json()
    assert body["clock"] is None and all(row["clock"] is None for row in body["seats"])


def test_a_clocked_game_has_no_extension(now):
    game = make_game(time_limit=HOUR, clock_bank=300)
    response = api_client_for(seat(game, "stark").user).post(reverse("api-game-extend", args=[game.id]))
    assert response.status_code == 409 and response.json()["error"] == "clock_game"
    assert seat(game, "stark").deadline_at == now.at + timedelta(seconds=300)


def test_a_lobby_with_a_clock_starts_a_clocked_game():
    creator, other = make_user(), make_user()
    client = api_client_for(creator)
    body = {"ruleset": "lcg", "seats": 2, "time_limit": HOUR, "clock_bank": 1200, "clock_increment": 10}
    created = client.post(reverse("api-lobbies"), body, format="json")
    assert created.status_code == 201, created.json()
    assert (created.json()["clock_bank"], created.json()["clock_increment"]) == (1200, 10)
    lobby_id = created.json()["id"]
    joined = api_client_for(other).post(reverse("api-lobby-join", args=[lobby_id]), {}, format="json").json()
    game = Game.objects.get(pk=joined["game"])
    assert (game.clock_bank, game.clock_increment) == (1200, 10)
    assert {s.clock_remaining for s in game.seats.all()} == {1200}


@pytest.mark.parametrize("fields, field", [
    ({"clock_bank": 10}, "clock_bank"),
    ({"clock_bank": 10 ** 6}, "clock_bank"),
    ({"clock_bank": "1200"}, "clock_bank"),
    ({"clock_bank": 1200, "clock_increment": -1}, "clock_increment"),
    ({"clock_bank": 1200, "clock_increment": 3600}, "clock_increment"),
    ({"clock_increment": 10}, "clock_increment"),
])
def test_a_bad_clock_is_refused_with_its_field(fields, field):
    client = api_client_for(make_user())
    response = client.post(reverse("api-lobbies"), {"ruleset": "lcg", "seats": 2, "time_limit": HOUR, **fields},
                           format="json")
    assert response.status_code == 400 and field in response.json()["fields"], response.json()
    assert not Lobby.objects.exists()


def test_the_new_lobby_form_offers_clocks(client):
    user = make_user()
    client.force_login(user)
    page = client.get(reverse("web-lobby-new")).content.decode()
    assert "20 minutes + 10 seconds a decision" in page
    response = client.post(reverse("web-lobby-new"), {"ruleset": "agot", "seats": 3, "time_limit": 3600,
                                                      "house_choice": "random", "clock": "1200+10"})
    assert response.status_code == 302, response.content.decode()[:2000]
    lobby = Lobby.objects.get(creator=user)
    assert (lobby.clock_bank, lobby.clock_increment) == (1200, 10)
    page = client.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "clock 20 minutes + 10 seconds a decision" in page
    assert "1 hour per decision, clock 20 minutes + 10 seconds" in client.get(reverse("web-lobbies")).content.decode()


def test_the_replay_shows_each_step_clocks(now, client):
    game = make_game(2, ruleset="lcg", seed=3, time_limit=HOUR, clock_bank=300, clock_increment=5)
    (first, _kind), = pending(game).items()
    second = next(s for s in game.seat_names() if s != first)
    now.advance(30)
    answer(game, first)
    for name in (first, second):
        do_concede(game.id, seat(game, name).user)
    game.refresh_from_db()
    assert not game.is_active()
    start = client.get(reverse("web-replay-step", args=[game.id, 0])).json()
    assert {c["seat"]: (c["remaining"], c["running"]) for c in start["clocks"]} == {first: (300, True), second: (300, False)}
    after = client.get(reverse("web-replay-step", args=[game.id, 1])).json()
    assert {c["seat"]: (c["remaining"], c["running"]) for c in after["clocks"]} == {first: (275, False), second: (300, True)}
    assert {c["name"] for c in after["clocks"]} == {s.user.username for s in game.seats.all()}
    plain = make_game(2, ruleset="lcg", seed=3, time_limit=HOUR)
    for name in ("p1", "p2"):
        do_concede(plain.id, seat(plain, name).user)
    assert client.get(reverse("web-replay-step", args=[plain.id, 0])).json()["clocks"] is None


def test_a_clocked_game_sends_no_deadline_warnings(now, django_capture_on_commit_callbacks):
    """Live play: the players watch the clocks; a warning per decision would be a message per move."""
    from notifications.services import warn_deadlines

    plain, clocked = make_game(time_limit=HOUR), make_game(time_limit=HOUR, clock_bank=HOUR)
    deadline = min(s.deadline_at for s in clocked.seats.all())
    assert deadline == min(s.deadline_at for s in plain.seats.all())
    with django_capture_on_commit_callbacks(execute=False):
        assert warn_deadlines(deadline - timedelta(seconds=300)) == 3  # the plain game's three players only
