"""Notifications: which changes notify whom (your turn, game started, game ended, deadline near),
per-user settings respected, nothing sent before the commit (Celery task enqueued on commit),
e-mail through the configured backend (locmem outbox here), a Discord-compatible webhook posted to a
local server, deadline warnings deduplicated, the settings API and page."""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse

from games.engine import get_ruleset
from games.models import Game, GameAction
from games.signals import game_changed as game_changed_signal
from notifications import receivers, services
from notifications.models import Kind, Notification, NotificationSettings
from tests.factories import api_client_for, make_game, make_user
from westeros.celery import app as celery_app

pytestmark = pytest.mark.django_db
AGOT = get_ruleset("agot")


@pytest.fixture(autouse=True)
def eager_tasks(settings):
    """A task is sent on commit (as with a broker) and runs inline, whatever REDIS_URL says;
    test_embedded_mode_* below covers the outbox without a broker."""
    settings.NOTIFY_OUTBOX_ONLY = False
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


@pytest.fixture(autouse=True)
def unwired(request):
    """Most tests call game_changed themselves: the signal receiver is off unless a test asks for `wired`."""
    if "wired" in request.fixturenames:
        yield
        return
    game_changed_signal.disconnect(dispatch_uid="notifications.game_changed")
    yield
    receivers.connect()


@pytest.fixture
def wired() -> None:
    """The real flow: games.signals.game_changed (sent by play.settle) reaches notifications."""


class Hook:
    """A local webhook receiver on 127.0.0.1: records each JSON body; answers `status`."""

    def __init__(self) -> None:
        self.bodies: list[dict] = []
        self.headers: list[dict] = []
        self.status = 204
        self.delay = 0.0
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                hook.headers.append(dict(self.headers))
                hook.bodies.append(json.loads(self.rfile.read(length)))
                time.sleep(hook.delay)
                self.send_response(hook.status)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hook(settings) -> Iterator[Hook]:
    settings.NOTIFY_WEBHOOK_ALLOW_PRIVATE = True
    server = Hook()
    yield server
    server.close()


def seat_users(game: Game) -> dict:
    return {s.seat: s.user for s in game.seats.select_related("user")}


def prefs(user, **values) -> NotificationSettings:
    return services.do_update_settings(user, **values)


def changed(game: Game, pending_before: set[str], records: list[GameAction], capture) -> list[Notification]:
    with capture(execute=True):
        return services.game_changed(game, pending_before, records)


# --- deciding -----------------------------------------------------------------------------------

def test_a_new_game_notifies_every_player_that_it_started(django_capture_on_commit_callbacks, mailoutbox):
    game = make_game()
    users = seat_users(game)
    decided = changed(game, set(), [], django_capture_on_commit_callbacks)
    assert {(n.kind, n.user_id) for n in decided} == {(Kind.GAME_STARTED, u.pk) for u in users.values()}
    assert sorted(m.to[0] for m in mailoutbox) == sorted(u.email for u in users.values())
    stark = next(m for m in mailoutbox if m.to == [users["stark"].email])
    assert stark.subject == f"[Westeros] Game {game.pk}, A Game of Thrones: The Board Game, has started"
    assert "you play as Stark" in stark.body
    assert stark.body.endswith(f"/games/{game.pk}/")  # the game's page
    if "stark" in AGOT.pending(game.state):
        assert "It is your turn: " in stark.body


def test_your_turn_goes_to_seats_that_just_became_pending(django_capture_on_commit_callbacks, mailoutbox):
    game = make_game()
    pending = set(AGOT.pending(game.state))
    assert len(pending) >= 2
    was, *now_theirs = sorted(pending)
    users = seat_users(game)
    decided = changed(game, {was}, [], django_capture_on_commit_callbacks)
    assert {(n.kind, n.data["seat"]) for n in decided} == {(Kind.YOUR_TURN, s) for s in now_theirs}
    assert sorted(m.to[0] for m in mailoutbox) == sorted(users[s].email for s in now_theirs)
    assert mailoutbox[0].subject == f"[Westeros] Your turn in Game {game.pk}, A Game of Thrones: The Board Game"
    # The same change seen twice (a retried task, a second call) notifies nobody again.
    assert changed(game, {was}, [], django_capture_on_commit_callbacks) == []
    assert len(mailoutbox) == len(now_theirs)


def test_a_seat_that_timed_out_and_is_pending_again_is_told(django_capture_on_commit_callbacks):
    game = make_game()
    pending = set(AGOT.pending(game.state))
    seat = sorted(pending)[0]
    timeout = GameAction(game=game, version=game.version, seat=seat, action={}, source=GameAction.Source.TIMEOUT)
    played = GameAction(game=game, version=game.version, seat=seat, action={}, source=GameAction.Source.PLAYER)
    assert changed(game, pending, [played], django_capture_on_commit_callbacks) == []
    decided = changed(game, pending, [timeout], django_capture_on_commit_callbacks)
    assert [(n.kind, n.data["seat"]) for n in decided] == [(Kind.YOUR_TURN, seat)]


def test_bots_and_seats_that_left_get_nothing(django_capture_on_commit_callbacks):
    game = make_game()
    pending = sorted(AGOT.pending(game.state))
    game.seats.filter(seat=pending[0]).update(is_bot=True)
    decided = changed(game, {"nobody"}, [], django_capture_on_commit_callbacks)
    assert pending[0] not in {n.data["seat"] for n in decided}


def test_a_finished_game_notifies_every_player_with_their_place(django_capture_on_commit_callbacks, mailoutbox):
    game = make_game()
    ranking = game.seat_names()
    game.status, game.ranking = Game.Status.FINISHED, ranking
    game.save()
    decided = changed(game, set(AGOT.pending(game.state)), [], django_capture_on_commit_callbacks)
    assert {n.kind for n in decided} == {Kind.GAME_ENDED} and len(decided) == 3
    users = seat_users(game)
    last = next(m for m in mailoutbox if m.to == [users[ranking[-1]].email])
    assert f"You placed third of 3 as {ranking[-1].title()}." in last.body
    first = next(m for m in mailoutbox if m.to == [users[ranking[0]].email])
    assert f"You won as {ranking[0].title()}." in first.body
    assert changed(game, set(), [], django_capture_on_commit_callbacks) == []


def test_settings_are_respected_per_kind_and_channel(django_capture_on_commit_callbacks, mailoutbox, hook):
    game = make_game()
    users = seat_users(game)
    quiet, hooked, default = (users[s] for s in game.seat_names())
    prefs(quiet, email_game_started=False, email_your_turn=False)
    prefs(hooked, email_game_started=False, webhook_url=hook.url, webhook_your_turn=False)
    decided = changed(game, set(), [], django_capture_on_commit_callbacks)
    assert {n.user_id for n in decided} == {hooked.pk, default.pk}  # the quiet one wants nothing of it
    assert [m.to for m in mailoutbox] == [[default.email]]
    assert len(hook.bodies) == 1 and f"Game {game.pk}, A Game of Thrones: The Board Game, has started" in hook.bodies[0]["content"]


def test_a_user_without_an_email_address_gets_only_the_webhook(django_capture_on_commit_callbacks, mailoutbox, hook):
    game = make_game()
    user = seat_users(game)["stark"]
    user.email = ""
    user.save(update_fields=["email"])
    prefs(user, webhook_url=hook.url)
    changed(game, set(), [], django_capture_on_commit_callbacks)
    assert len(mailoutbox) == 2 and "" not in [m.to[0] for m in mailoutbox]
    assert len(hook.bodies) == 1


# --- sending ------------------------------------------------------------------------------------

def test_nothing_is_sent_before_the_transaction_commits(django_capture_on_commit_callbacks, mailoutbox, hook):
    game = make_game()
    prefs(seat_users(game)["stark"], webhook_url=hook.url)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with transaction.atomic():
            decided = services.game_changed(game, set(), [])
            assert len(decided) == 3
        assert mailoutbox == [] and hook.bodies == []
    assert callbacks  # the Celery tasks are enqueued on commit ...
    for callback in callbacks:
        callback()
    assert len(mailoutbox) == 3 and len(hook.bodies) == 1  # ... and send when they run


def test_a_rolled_back_change_notifies_nobody(django_capture_on_commit_callbacks, mailoutbox):
    game = make_game()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                services.game_changed(game, set(), [])
                raise RuntimeError("the change failed")
        except RuntimeError:
            pass
    assert callbacks == [] and mailoutbox == [] and not Notification.objects.exists()


def test_the_webhook_body_is_discord_compatible(django_capture_on_commit_callbacks, hook):
    game = make_game()
    user = seat_users(game)["stark"]
    prefs(user, webhook_url=hook.url)
    changed(game, set(), [], django_capture_on_commit_callbacks)
    [body] = hook.bodies
    assert isinstance(body["content"], str) and 0 < len(body["content"]) <= 2000
    assert body["allowed_mentions"] == {"parse": []}
    assert hook.headers[0]["Content-Type"] == "application/json"
    assert Notification.objects.get(user=user).webhook_at is not None
    long = services.webhook_body("@everyone " + "x" * 5000)
    assert len(long["content"]) == 2000 and long["allowed_mentions"] == {"parse": []}


def test_a_failing_webhook_is_recorded_and_never_raises(django_capture_on_commit_callbacks, mailoutbox, hook, settings):
    game = make_game()
    user = seat_users(game)["stark"]
    prefs(user, webhook_url=hook.url)
    hook.status = 500
    changed(game, set(), [], django_capture_on_commit_callbacks)
    notification = Notification.objects.get(user=user)
    assert notification.error == "webhook: HTTP 500" and notification.webhook_at is None
    assert notification.emailed_at is not None  # the e-mail still went out
    settings.NOTIFY_WEBHOOK_TIMEOUT_SECONDS = 0.2
    hook.status, hook.delay = 204, 1.0
    # the answer comes after 1 s, the timeout is 0.2 s: the webhook gives up (no wall-clock limit
    # asserted here, a loaded machine may take longer; without the timeout it would answer None)
    assert services.post_webhook(hook.url, "slow") == "TimeoutError"
    hook.delay = 0
    assert services.post_webhook("http://127.0.0.1:1/closed", "x") is not None
    assert services.post_webhook("ftp://example.com/", "x") == "not an http(s) URL"


def test_webhooks_to_private_addresses_are_refused_by_default(settings, hook):
    settings.NOTIFY_WEBHOOK_ALLOW_PRIVATE = False
    assert services.post_webhook(hook.url, "hello") == "the address is not public"
    assert hook.bodies == []


def test_a_notification_is_sent_once_even_if_its_task_runs_twice(django_capture_on_commit_callbacks, mailoutbox):
    game = make_game()
    decided = changed(game, set(), [], django_capture_on_commit_callbacks)
    assert len(mailoutbox) == 3
    again = services.deliver(decided[0].pk)
    assert again.skipped and len(mailoutbox) == 3


def test_a_channel_switched_off_after_deciding_is_skipped_when_sending(django_capture_on_commit_callbacks, mailoutbox):
    game = make_game()
    user = seat_users(game)["stark"]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.game_changed(game, set(), [])
    prefs(user, email_game_started=False)
    for callback in callbacks:
        callback()
    assert user.email not in [m.to[0] for m in mailoutbox] and len(mailoutbox) == 2


# --- deadline warnings --------------------------------------------------------------------------

def test_deadline_warnings_go_out_once_inside_the_window(django_capture_on_commit_callbacks, mailoutbox):
    game = make_game(time_limit=3600)  # window: max(60 s, 10 % of 3600 s) = 360 s
    seats = list(game.seats.filter(deadline_at__isnull=False))
    assert seats
    deadline = min(s.deadline_at for s in seats)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.warn_deadlines(deadline - timedelta(seconds=400)) == 0
        warned = services.warn_deadlines(deadline - timedelta(seconds=300))
        assert warned == len([s for s in seats if s.deadline_at == deadline])
        assert services.warn_deadlines(deadline - timedelta(seconds=200)) == 0
        assert services.warn_deadlines(deadline + timedelta(seconds=1)) == 0
    assert len(mailoutbox) == warned
    assert mailoutbox[0].subject == f"[Westeros] Deadline near in Game {game.pk}, A Game of Thrones: The Board Game"
    assert "runs out on" in mailoutbox[0].body
    assert Notification.objects.filter(kind=Kind.DEADLINE_NEAR).count() == warned


def test_the_warning_pass_never_loads_a_game_snapshot():
    """It runs every second over every seat near its deadline (issue 20): the game's state, the
    bulk of each row, is not read for a warning."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = make_game(time_limit=3600)
    deadline = min(s.deadline_at for s in game.seats.filter(deadline_at__isnull=False))
    with CaptureQueriesContext(connection) as queries:  # deciding only (the delivery is a task of its own)
        decided = services.warn_deadlines(deadline - timedelta(seconds=300))
    assert decided >= 1  # the warnings were decided, each naming its game
    assert Notification.objects.filter(kind=Kind.DEADLINE_NEAR, game=game).count() == decided
    loaded = [q["sql"] for q in queries.captured_queries if '"games_game"."state"' in q["sql"]]
    assert not loaded, loaded


def test_a_new_deadline_gets_its_own_warning_and_short_limits_warn_a_minute_ahead(django_capture_on_commit_callbacks):
    game = make_game(time_limit=120)  # window: max(60 s, 12 s) = 60 s
    seat = game.seats.filter(deadline_at__isnull=False).first()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.warn_deadlines(seat.deadline_at - timedelta(seconds=61)) == 0
        assert services.warn_deadlines(seat.deadline_at - timedelta(seconds=59)) >= 1
        extended = seat.deadline_at + timedelta(seconds=120)
        game.seats.filter(pk=seat.pk).update(deadline_at=extended)
        Game.objects.filter(pk=game.pk).update(deadline_at=min(
            s.deadline_at for s in game.seats.filter(deadline_at__isnull=False)))
        assert services.warn_deadlines(extended - timedelta(seconds=30)) >= 1
    assert Notification.objects.filter(kind=Kind.DEADLINE_NEAR, data__seat=seat.seat).count() == 2


def test_no_warning_for_bots_finished_games_or_users_who_want_none(django_capture_on_commit_callbacks):
    game = make_game(time_limit=3600)
    seats = list(game.seats.filter(deadline_at__isnull=False).select_related("user"))
    deadline = max(s.deadline_at for s in seats)
    prefs(seats[0].user, email_deadline_near=False)
    with django_capture_on_commit_callbacks(execute=True):
        services.warn_deadlines(deadline - timedelta(seconds=10))
    warned = set(Notification.objects.filter(kind=Kind.DEADLINE_NEAR).values_list("user_id", flat=True))
    assert seats[0].user_id not in warned and warned == {s.user_id for s in seats[1:]}
    other = make_game(time_limit=3600)
    Game.objects.filter(pk=other.pk).update(status=Game.Status.FINISHED)
    assert services.warn_deadlines(deadline - timedelta(seconds=10)) == 0


def test_the_warning_sweep_is_scheduled_and_run_by_the_embedded_runner(settings, monkeypatch):
    schedule = settings.CELERY_BEAT_SCHEDULE["warn-deadlines"]
    assert schedule["task"] == "notifications.tasks.warn_deadlines"
    from notifications import tasks

    assert tasks.warn_deadlines.name == "notifications.tasks.warn_deadlines"
    calls = []
    monkeypatch.setattr("games.runner.warn_deadlines", lambda: calls.append(1) or 0)
    call_command("run_deadlines", "--once")
    assert calls == [1]


def test_the_sweep_never_raises(monkeypatch):
    def broken(now):
        raise RuntimeError("database down")

    monkeypatch.setattr(services, "_warn_deadlines", broken)
    assert services.warn_deadlines() == 0


# --- settings: API and page ---------------------------------------------------------------------

def test_settings_api_reads_the_defaults_and_changes_only_what_is_sent(user):
    client = api_client_for(user)
    url = reverse("api-my-notifications")
    defaults = client.get(url).json()
    assert defaults == {field: True for field in services.SETTING_FIELDS if field != "webhook_url"} | {"webhook_url": ""}
    changed_ = client.put(url, {"email_your_turn": False, "webhook_url": "https://discord.com/api/webhooks/1/x"},
                          format="json")
    assert changed_.status_code == 200
    assert changed_.json()["email_your_turn"] is False and changed_.json()["email_game_ended"] is True
    assert client.get(url).json()["webhook_url"] == "https://discord.com/api/webhooks/1/x"
    assert client.put(url, {"webhook_url": ""}, format="json").json()["webhook_url"] == ""


@pytest.mark.parametrize("url", ["ftp://example.com/hook", "not a url", "javascript:alert(1)"])
def test_settings_api_refuses_a_bad_webhook_url(user, url):
    response = api_client_for(user).put(reverse("api-my-notifications"), {"webhook_url": url}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid" and "webhook_url" in response.json()["fields"]


def test_settings_api_needs_a_user(api):
    assert api.get(reverse("api-my-notifications")).status_code in {401, 403}


def test_the_settings_page_is_linked_from_the_profile_and_saves(logged_in, user):
    profile = logged_in.get(reverse("profile"))
    assert reverse("notification-settings").encode() in profile.content
    page = logged_in.get(reverse("notification-settings"))
    assert page.status_code == 200 and b"webhook" in page.content.lower()
    data = {"email_your_turn": "on", "email_game_ended": "on", "webhook_url": "https://example.com/hook",
            "webhook_game_ended": "on"}
    response = logged_in.post(reverse("notification-settings"), data)
    assert response.status_code == 302
    saved = NotificationSettings.objects.get(user=user)
    assert saved.email_your_turn and not saved.email_deadline_near and saved.webhook_game_ended
    assert saved.webhook_url == "https://example.com/hook"
    bad = logged_in.post(reverse("notification-settings"), {"webhook_url": "ftp://example.com"})
    assert bad.status_code == 400


def test_the_settings_page_needs_a_login(client):
    response = client.get(reverse("notification-settings"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


# --- the real flow (games.signals.game_changed, sent by play.settle) ----------------------------

def test_the_real_flow_notifies_after_the_commit(wired, django_capture_on_commit_callbacks, mailoutbox):
    from games.services.deadlines import resolve_overdue

    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(time_limit=3600)
    assert set(Notification.objects.filter(game=game).values_list("kind", flat=True)) == {Kind.GAME_STARTED}
    assert len(mailoutbox) == 3
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        timeouts = resolve_overdue(game.pk, now=game.deadline_at + timedelta(seconds=1))
    assert timeouts
    game.refresh_from_db()
    pending = set(AGOT.pending(game.state)) if game.is_active() else set()
    expected = {r.seat for r in timeouts} & pending
    told = set(Notification.objects.filter(game=game, kind=Kind.YOUR_TURN).values_list("data__seat", flat=True))
    assert expected <= told


def test_an_api_request_sends_nothing_before_its_commit(wired, django_capture_on_commit_callbacks, mailoutbox):
    """The request's transaction decides; the sending is an on-commit Celery task."""
    from games.models import Lobby

    creator, second, third = make_user(), make_user(), make_user()
    lobby = api_client_for(creator).post(reverse("api-lobbies"), {"seats": 3, "time_limit": 3600}, format="json")
    api_client_for(second).post(reverse("api-lobby-join", args=[lobby.json()["id"]]), {}, format="json")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = api_client_for(third).post(reverse("api-lobby-join", args=[lobby.json()["id"]]), {}, format="json")
        assert response.status_code == 200
    assert Lobby.objects.get(pk=lobby.json()["id"]).status == Lobby.Status.STARTED
    assert mailoutbox == []  # the game started inside the request: nothing sent yet
    assert Notification.objects.filter(kind=Kind.GAME_STARTED).count() == 3
    for callback in callbacks:
        callback()
    assert sorted(m.to[0] for m in mailoutbox) == sorted(u.email for u in (creator, second, third))


def test_a_failing_decision_never_undoes_the_move(wired, monkeypatch, django_capture_on_commit_callbacks):
    def broken(*args, **kwargs):
        raise RuntimeError("notifications are down")

    monkeypatch.setattr(services, "game_changed", broken)
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game()
    assert Game.objects.filter(pk=game.pk).exists() and not Notification.objects.exists()


def test_embedded_mode_sends_nothing_in_the_request_and_the_runner_delivers(wired, settings, mailoutbox,
                                                                            django_capture_on_commit_callbacks):
    from django.core.management import call_command

    settings.NOTIFY_OUTBOX_ONLY = True  # no broker
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(time_limit=3600)
    assert mailoutbox == []
    assert Notification.objects.filter(game=game, claimed_at__isnull=True).count() == 3
    call_command("run_deadlines", "--once")
    assert len(mailoutbox) == 3
    assert not Notification.objects.filter(game=game, claimed_at__isnull=True).exists()
    call_command("run_deadlines", "--once")
    assert len(mailoutbox) == 3  # claimed once, sent once


def test_players_settings_come_from_seats_read_with_them_or_from_one_query(django_assert_num_queries):
    """An action and a deadline sweep read the seats with their players and settings (issue 20):
    the decisions then need no query for them; seats read without them cost one."""
    game = make_game()
    stark, lannister, baratheon = (game.seats.get(seat=s).user for s in ("stark", "lannister", "baratheon"))
    NotificationSettings.objects.create(user=stark, email_your_turn=False)
    baratheon.is_active = False
    baratheon.save()
    with django_assert_num_queries(1):
        seats = list(game.seats.select_related("user__notification_settings"))
    with django_assert_num_queries(0):
        prefs = services.players_settings(seats)
    assert set(prefs) == {stark.pk, lannister.pk}  # not the deactivated account
    assert prefs[stark.pk].email_your_turn is False and prefs[lannister.pk].email_your_turn is True  # a row, the defaults
    plain = list(game.seats.all())
    with django_assert_num_queries(1):
        again = services.players_settings(plain)
    assert {k: v.email_your_turn for k, v in again.items()} == {k: v.email_your_turn for k, v in prefs.items()}
