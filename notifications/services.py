"""Notifications: it is your turn, a deadline is near, a game started, a game ended.

Deciding happens inside the game's transaction (`game_changed`, called by games.services.play.settle)
or in the periodic warning sweep (`warn_deadlines`): each decision is a `Notification` row with a
unique key, so nothing is notified twice, and a rolled-back change notifies nothing. Sending happens
in a Celery task enqueued with `transaction.on_commit`, never inside the request's transaction; the
task claims the row first (at most once), then e-mails through Django's configured backend and posts
the optional webhook (Discord-compatible JSON: {"content": "..."}), each failure logged, never raised.

Settings are read twice: when deciding (a user who wants nothing of a kind gets no row) and when
sending (a channel switched off meanwhile is skipped).
"""
from __future__ import annotations

import http.client
import ipaddress
import json
import logging
import socket
import ssl
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.urls import NoReverseMatch, reverse
from django.utils import dateformat, timezone
from django.utils.translation import gettext_lazy

from accounts.models import User
from games.decision_words import decision_words
from games.engine import get_ruleset
from games.lobby_names import own_name
from games.models import Game, GameAction, GameSeat
from notifications import conf
from notifications.models import Kind, Notification, NotificationSettings
from ratings.templatetags.site_words import ruleset_name, seat_name
from westeros import live
from westeros.i18n import in_language_of

log = logging.getLogger(__name__)

DISCORD_CONTENT_LIMIT = 2000
SETTING_FIELDS = (
    "email_your_turn", "email_deadline_near", "email_game_started", "email_game_ended", "webhook_url",
    "webhook_your_turn", "webhook_deadline_near", "webhook_game_started", "webhook_game_ended",
    "email_challenge", "webhook_challenge",  # notifications/challenges.py
)


# --- settings -------------------------------------------------------------------------------------

def settings_for(user: User) -> NotificationSettings:
    """The user's settings (the defaults, unsaved, when they never changed them)."""
    return NotificationSettings.objects.filter(user=user).first() or NotificationSettings(user=user)


def settings_by_user(user_ids: Iterable[int]) -> dict[int, NotificationSettings]:
    ids = set(user_ids)
    found = {s.user_id: s for s in NotificationSettings.objects.filter(user_id__in=ids)}
    return {uid: found.get(uid) or NotificationSettings(user_id=uid) for uid in ids}


def validate_webhook_url(url: str) -> None:
    """http(s) with a host that is not a private address; raises django's ValidationError.

    The host is resolved now: an address that is not public (private, loopback, link-local,
    unspecified, multicast, reserved; see `is_public_address`), or a name resolving to one, is
    refused. A name that does not resolve now is accepted (DNS may be down, or the name new): the
    address is checked again, and pinned, when sending (`post_webhook`), which is the real guard."""
    if not url:
        return
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise ValidationError(WEBHOOK_URL_MESSAGE, code="invalid") from None
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise ValidationError(WEBHOOK_URL_MESSAGE, code="invalid")
    if conf.get("NOTIFY_WEBHOOK_ALLOW_PRIVATE"):
        return
    host = parts.hostname
    if host == "localhost" or host.endswith((".localhost", ".localhost.")):
        raise ValidationError(PRIVATE_ADDRESS_MESSAGE, code="private_address")
    try:
        addresses = resolve(host, port or (443 if parts.scheme == "https" else 80),
                            within=conf.get("NOTIFY_WEBHOOK_CHECK_RESOLVE_SECONDS"))
    except OSError:
        return  # unresolvable now, or not in time: checked when sending
    if not addresses or not all(is_public_address(address) for address in addresses):
        raise ValidationError(PRIVATE_ADDRESS_MESSAGE, code="private_address")


WEBHOOK_URL_MESSAGE = gettext_lazy("Enter an http:// or https:// URL.")
PRIVATE_ADDRESS_MESSAGE = gettext_lazy("The webhook must be on a public address, not a private, loopback, "
                                       "link-local, multicast or reserved one.")


def is_public_address(text: str) -> bool:
    """Whether an IP address is one a webhook may be sent to: globally routable unicast. Refused:
    private (10/8, 172.16/12, 192.168/16, fc00::/7, ...), loopback, link-local (169.254/16 with the
    cloud metadata service, fe80::/10), unspecified (0.0.0.0, ::), multicast, reserved, shared
    (100.64/10), and IPv4 written as IPv6 (::ffff:127.0.0.1, 6to4, Teredo) by the IPv4 inside."""
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])  # fe80::1%eth0: drop the scope
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address):
        inner = address.ipv4_mapped or address.sixtofour or (address.teredo[1] if address.teredo else None)
        if inner is not None and not is_public_address(str(inner)):
            return False
    return bool(address.is_global and not (
        address.is_private or address.is_loopback or address.is_link_local or address.is_unspecified
        or address.is_multicast or address.is_reserved))


# The threads that resolve a name for `resolve(..., within=...)`: getaddrinfo cannot be interrupted, so a
# lookup that outlives its wait finishes on one of these, never on the request's own thread.
_RESOLVERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="webhook-resolve")


def resolve(host: str, port: int, within: float | None = None) -> list[str]:
    """The IP addresses `host` resolves to (itself if it is one), in getaddrinfo's order; OSError
    when it does not resolve, or (`within` seconds given) has not resolved by then: a resolver that
    does not answer keeps a request waiting its own timeout, 5 s and more a try."""
    try:
        return [str(ipaddress.ip_address(host))]
    except ValueError:
        pass
    if within is None:
        infos = _getaddrinfo(host, port)
    else:
        try:
            infos = _RESOLVERS.submit(_getaddrinfo, host, port).result(timeout=within)
        except TimeoutError:
            raise OSError(f"{host} did not resolve within {within:g} s") from None
    return [info[4][0] for info in infos]


def _getaddrinfo(host: str, port: int) -> list:
    return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)


@transaction.atomic
def do_update_settings(user: User, **values: Any) -> NotificationSettings:
    """Change some of the user's settings (the others keep their value)."""
    unknown = set(values) - set(SETTING_FIELDS)
    if unknown:
        raise ValueError(f"unknown notification settings: {sorted(unknown)}")
    if "webhook_url" in values:
        values["webhook_url"] = (values["webhook_url"] or "").strip()
        validate_webhook_url(values["webhook_url"])
    prefs, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
    for name, value in values.items():
        setattr(prefs, name, value)
    prefs.save()
    return prefs


# --- deciding -------------------------------------------------------------------------------------

def game_changed(
    game: Game, pending_before: set[str], records: list[GameAction], *, started: bool | None = None,
    seats: list[GameSeat] | None = None,
) -> list[Notification]:
    """Called inside the game's transaction after every change (games.signals.game_changed, sent by
    games.services.play.settle after the bots played, the game ended if over and the deadlines were
    renewed; `records` are all the actions of this change, bots included; `seats` the game's seats
    as settle read them, so they are not read again). Notifies: game started (`started`, or when not
    given: no seat was pending before and the version was 0), game ended (the game is no longer
    active), and your turn for each player's seat that has just become pending (or timed out and is
    pending again). Returns the notifications decided (sent after commit). Every decision of the
    change is made together: one query for the players and their settings, one for the keys already
    decided, one INSERT (issue 20: this runs for every timed-out game of a deadline sweep)."""
    if seats is None:
        seats = list(GameSeat.objects.filter(game=game))
    prefs = players_settings(seats)
    seats = [s for s in seats if s.user_id in prefs]
    if not seats:
        return []
    wanted: list[Wanted] = []
    label = game_label(game)
    if started is None:
        started = not pending_before and game.version - len(records) == 0
    if not game.is_active():
        for seat in seats:
            wanted.append((prefs[seat.user_id], game, Kind.GAME_ENDED, f"game_ended:{game.pk}:{seat.user_id}",
                           {"seat": seat.seat, "status": game.status, "label": label}))
        return _decide_many(wanted)
    pending = get_ruleset(game.ruleset).pending(game.state)
    timed_out = {r.seat for r in records if r.source == GameAction.Source.TIMEOUT}
    for seat in seats:
        if started and prefs[seat.user_id].wants(Kind.GAME_STARTED):
            wanted.append((prefs[seat.user_id], game, Kind.GAME_STARTED, f"game_started:{game.pk}:{seat.user_id}",
                           {"seat": seat.seat, "pending": pending.get(seat.seat), "label": label}))
            continue  # the start message says whether it is their turn
        if seat.is_bot or seat.seat not in pending:
            continue
        if seat.seat in pending_before and seat.seat not in timed_out:
            continue  # still deciding (or just acted and has the next decision): they are at the table
        wanted.append((prefs[seat.user_id], game, Kind.YOUR_TURN, f"your_turn:{game.pk}:{seat.seat}:{game.version}",
                       {"seat": seat.seat, "decision": pending[seat.seat], "version": game.version,
                        "deadline_at": _iso(seat.deadline_at), "label": label}))
    return _decide_many(wanted)


def players_settings(seats: list[GameSeat]) -> dict[int, NotificationSettings]:
    """{user id: settings} of the active players among `seats`: taken from the seats when their users
    and settings were read with them (`select_related("user__notification_settings")`, as an action
    and a deadline sweep read them: no query), else read in one query."""
    users = []
    for seat in seats:
        if seat.user_id is None:
            continue
        if not GameSeat.user.is_cached(seat) or not User.notification_settings.is_cached(seat.user):
            return active_players_settings(s.user_id for s in seats if s.user_id is not None)
        users.append(seat.user)
    return {user.pk: _settings_of(user) for user in users if user.is_active}


def _settings_of(user: User) -> NotificationSettings:
    try:
        return user.notification_settings
    except NotificationSettings.DoesNotExist:  # no row: the defaults
        return NotificationSettings(user_id=user.pk)


def active_players_settings(user_ids: Iterable[int]) -> dict[int, NotificationSettings]:
    """{user id: settings} for the active users among `user_ids`, in one query (defaults for a user
    without a settings row)."""
    ids = set(user_ids)
    if not ids:
        return {}
    users = User.objects.filter(pk__in=ids, is_active=True).select_related("notification_settings")
    return {user.pk: _settings_of(user) for user in users}


def warning_window(time_limit: int) -> timedelta:
    fraction = float(conf.get("NOTIFY_DEADLINE_WARNING_FRACTION"))
    return timedelta(seconds=max(float(conf.get("NOTIFY_DEADLINE_WARNING_MIN_SECONDS")), time_limit * fraction))


def warn_deadlines(now: datetime | None = None) -> int:
    """Decide a warning for every player's seat whose deadline falls within the warning window of its
    game's time limit and was not warned about yet (one key per seat and deadline: an extension gets
    its own warning). One query per distinct time limit among active games. Returns how many were
    decided; never raises (the deadline runner and beat call it in a loop)."""
    try:
        return _warn_deadlines(now or timezone.now())
    except Exception:
        log.exception("the deadline warning sweep failed")
        return 0


def _warn_deadlines(now: datetime) -> int:
    # Games with a clock (live play, docs/clocks.md) get no warnings: their players watch the clocks
    # at the table, and a warning per decision would be a message per move.
    limits = set(
        Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__isnull=False, clock_bank__isnull=True)
        .order_by().values_list("time_limit", flat=True).distinct()
    )
    due: list[GameSeat] = []
    for limit in limits:
        horizon = now + warning_window(limit)
        due += GameSeat.objects.filter(
            game__status=Game.Status.ACTIVE, game__time_limit=limit, game__clock_bank__isnull=True,
            game__deadline_at__lte=horizon,
            deadline_at__gt=now, deadline_at__lte=horizon, is_bot=False, user__isnull=False, user__is_active=True,
        ).select_related("game", "game__lobby").defer("game__state", "game__options", "game__ranking")
        # (this runs every second over every seat near its deadline: the snapshots, the bulk of
        # each row, are never read by a warning)
    keys = {_deadline_key(seat): seat for seat in due}
    known = set(Notification.objects.filter(key__in=list(keys)).values_list("key", flat=True))
    fresh = [(key, seat) for key, seat in keys.items() if key not in known]
    if not fresh:
        return 0
    prefs = settings_by_user(seat.user_id for _, seat in fresh)
    decided = 0
    for key, seat in fresh:
        with transaction.atomic():
            decided += len(_decide(prefs[seat.user_id], seat.game, Kind.DEADLINE_NEAR, key,
                                   {"seat": seat.seat, "deadline_at": _iso(seat.deadline_at),
                                    "label": game_label(seat.game)}))
    return decided


def _deadline_key(seat: GameSeat) -> str:
    return f"deadline_near:{seat.game_id}:{seat.seat}:{_iso(seat.deadline_at)}"


Wanted = tuple  # (settings, game, kind, key, data)


def _decide(prefs: NotificationSettings, game: Game, kind: str, key: str, data: dict[str, Any]) -> list[Notification]:
    """Record the notification (once per key) and send it after commit; [] when the user wants none
    of this kind or it was already decided."""
    return _decide_many([(prefs, game, kind, key, data)])


def _decide_many(wanted: list[Wanted]) -> list[Notification]:
    """Record each wanted notification (once per key: the keys already decided are skipped, in one
    query) in one INSERT, and send them after commit. Two transactions deciding one key at once is
    refused by the key's unique index (the caller's savepoint rolls back, never the move): keys
    name a game's version or a seat's deadline, and a game's changes are serialized by its lock."""
    wanted = [w for w in wanted if w[0].wants(w[2])]
    if not wanted:
        return []
    known = set(Notification.objects.filter(key__in=[w[3] for w in wanted]).values_list("key", flat=True))
    fresh = {w[3]: w for w in wanted if w[3] not in known}  # a key once, even if asked twice
    if not fresh:
        return []
    created = Notification.objects.bulk_create([
        Notification(user_id=prefs.user_id, game=game, kind=kind, key=key, data=data)
        for prefs, game, kind, key, data in fresh.values()])
    ids = [n.pk for n in created]

    def enqueue() -> None:
        from notifications.tasks import deliver_notification

        if settings.NOTIFY_OUTBOX_ONLY:
            # No broker (embedded mode): an eager task would send inside the request. The row is
            # the outbox; the embedded deadline runner delivers it (games/runner.py, deliver_pending).
            return
        for notification_id in ids:
            try:
                deliver_notification.apply_async((notification_id,), queue=conf.get("NOTIFY_QUEUE"))
            except Exception:
                log.exception("could not enqueue notification %s", notification_id)

    # in the web server, handed to a background thread: the answer to the action does not wait for
    # the broker (the rows are the outbox, and deliver_pending sends any whose task never came)
    transaction.on_commit(lambda: live.off_the_request(enqueue, log, "enqueue notifications"), robust=True)
    return created


# --- retention ------------------------------------------------------------------------------------

def purge_old(now: datetime | None = None, batch: int = 5000) -> int:
    """Delete the notifications sent (claimed) more than NOTIFICATION_RETENTION_DAYS ago, `batch` rows
    per statement so no DELETE holds its locks long; returns how many. A notification is an outbox
    row and the key that keeps a decision from being made twice: once sent, and its game's version
    or deadline long past, it serves nothing (a third of a finished game's rows: README,
    "Performance"). One never claimed is kept, whatever its age: it has not been sent yet."""
    days = getattr(settings, "NOTIFICATION_RETENTION_DAYS", 30)
    if not days:
        return 0
    cutoff = (now or timezone.now()) - timedelta(days=days)
    old = Notification.objects.filter(created_at__lt=cutoff, claimed_at__isnull=False)
    deleted = 0
    while True:
        ids = list(old.values_list("pk", flat=True)[:batch])
        if not ids:
            return deleted
        deleted += Notification.objects.filter(pk__in=ids).delete()[0]


# --- sending --------------------------------------------------------------------------------------

def deliver_pending(limit: int = 200, older_than: timedelta = timedelta(0)) -> int:
    """Send notifications no task has claimed: all of them in embedded mode (no broker), and in
    production those whose task was lost (the beat schedule passes `older_than` so that a task
    still on its way is not raced; the claim makes a race harmless anyway). Returns how many."""
    cutoff = timezone.now() - older_than
    ids = list(Notification.objects.filter(claimed_at__isnull=True, created_at__lte=cutoff)
               .order_by("created_at").values_list("pk", flat=True)[:limit])
    return sum(1 for notification_id in ids if not deliver(notification_id).skipped)


@dataclass(frozen=True)
class Delivery:
    emailed: bool = False
    webhook: bool = False
    skipped: bool = False  # already claimed by another task


def deliver(notification_id: int) -> Delivery:
    """Send one notification by the channels its user wants now. Claims it first, so a task run twice
    sends once; failures are logged on the row, never raised."""
    now = timezone.now()
    if not Notification.objects.filter(pk=notification_id, claimed_at__isnull=True).update(claimed_at=now):
        return Delivery(skipped=True)
    notification = Notification.objects.select_related("user", "game", "game__lobby").get(pk=notification_id)
    prefs = settings_for(notification.user)
    subject, text = compose(notification)
    emailed = webhook = False
    errors = []
    if prefs.wants_email(notification.kind) and notification.user.email:
        try:
            send_mail(subject, text, settings.DEFAULT_FROM_EMAIL, [notification.user.email])
            emailed = True
            notification.emailed_at = timezone.now()
        except Exception as error:
            log.exception("could not e-mail notification %s", notification_id)
            errors.append(f"e-mail: {error}")
    if prefs.wants_webhook(notification.kind):
        error = post_webhook(prefs.webhook_url, text)
        if error is None:
            webhook = True
            notification.webhook_at = timezone.now()
        else:
            errors.append(f"webhook: {error}")
    notification.error = "; ".join(errors)[:300]
    notification.save(update_fields=["emailed_at", "webhook_at", "error"])
    return Delivery(emailed=emailed, webhook=webhook)


# Every sentence of the game notifications, in one place, said in the recipient's language (compose). {game} is the game in
# words ("Game 12", or "Game 12 “Friday night”" when its lobby has a name), {ruleset} the game's name
# ("A Game of Thrones: The Board Game"), {seat} the house, leader or player the person plays
# ("Stark", "Cersei Lannister", "Player 1"), {decision} what they decide (games/decision_words.py).
NOTIFICATION_WORDS = {
    "game": gettext_lazy("Game {number}"),
    "game_named": gettext_lazy("Game {number} “{name}”"),
    "your_turn_subject": gettext_lazy("Your turn in {game}, {ruleset}"),
    "your_turn": gettext_lazy("Your turn in {game}, {ruleset}: {decision}. You play as {seat}."),
    "your_deadline": gettext_lazy(" Decide by {deadline}."),
    "deadline_near_subject": gettext_lazy("Deadline near in {game}, {ruleset}"),
    "deadline_near": gettext_lazy("Your time to decide in {game}, {ruleset}, runs out on {deadline}. You play as "
                                  "{seat}; if you have not decided by then, the usual default is played for you."),
    "started_subject": gettext_lazy("{game}, {ruleset}, has started"),
    "started": gettext_lazy("{game}, {ruleset}, has started: you play as {seat}."),
    "started_your_turn": gettext_lazy(" It is your turn: {decision}."),
    "ended_subject": gettext_lazy("{game}, {ruleset}, is over"),
    "ended": gettext_lazy("{game}, {ruleset}, is over."),
    "abandoned": gettext_lazy("{game}, {ruleset}, was abandoned before its end."),
    "won": gettext_lazy(" You won as {seat}."),
    "shared_win": gettext_lazy(" You shared the victory as {seat}."),
    "placed": gettext_lazy(" You placed {place} of {count} as {seat}."),
    "its_deadline": gettext_lazy("its deadline"),
    "deadline_format": gettext_lazy("{day} {month} {year}, {time} UTC"),
}
ORDINALS = {1: gettext_lazy("first"), 2: gettext_lazy("second"), 3: gettext_lazy("third"), 4: gettext_lazy("fourth"),
            5: gettext_lazy("fifth"), 6: gettext_lazy("sixth")}


def game_label(game: Game) -> str:
    """The game in words: "Game 12", or "Game 12 “Friday night”" when its lobby has a name."""
    # a name someone gave the lobby; the site's own ("Rematch of game 12") would only repeat the game
    name = own_name(game.lobby.name) if game.lobby_id and game.lobby else ""
    if name:
        return NOTIFICATION_WORDS["game_named"].format(number=game.pk, name=name)
    return NOTIFICATION_WORDS["game"].format(number=game.pk)


def game_link(game: Game) -> str:
    """The game's page (its API resource if the site has no page for games)."""
    try:
        path = reverse("web-game", args=[game.pk])
    except NoReverseMatch:
        path = f"/api/v1/games/{game.pk}"
    return f"{settings.SITE_URL.rstrip('/')}{path}"


def compose(notification: Notification) -> tuple[str, str]:
    """(e-mail subject, text); the text is also the webhook's content. In the recipient's language
    (their account's setting, else English): no request tells it, as for the sign-up's note to an
    address's owner (accounts/services.py)."""
    with in_language_of(notification.user):
        return _compose(notification)


def _compose(notification: Notification) -> tuple[str, str]:
    if notification.kind == Kind.CHALLENGE:  # no game yet: notifications/challenges.py
        from notifications.challenges import compose as compose_challenge

        return compose_challenge(notification)
    game, data = notification.game, notification.data
    seat = data.get("seat", "")
    words = {"game": game_label(game), "ruleset": ruleset_name(game.ruleset),
             "seat": seat_name(seat, game.ruleset)}
    link = game_link(game)
    w = NOTIFICATION_WORDS
    if notification.kind == Kind.YOUR_TURN:
        subject = w["your_turn_subject"].format(**words)
        text = w["your_turn"].format(**words, decision=decision_words(game.ruleset, data.get("decision")))
        if data.get("deadline_at"):
            text += w["your_deadline"].format(deadline=_human(data["deadline_at"]))
    elif notification.kind == Kind.DEADLINE_NEAR:
        subject = w["deadline_near_subject"].format(**words)
        text = w["deadline_near"].format(**words, deadline=_human(data.get("deadline_at")))
    elif notification.kind == Kind.GAME_STARTED:
        subject = w["started_subject"].format(**words)
        text = w["started"].format(**words)
        if data.get("pending"):
            text += w["started_your_turn"].format(decision=decision_words(game.ruleset, data["pending"]))
    else:
        subject = w["ended_subject"].format(**words)
        abandoned = data.get("status", game.status) == Game.Status.ABANDONED
        text = w["abandoned" if abandoned else "ended"].format(**words)
        text += _place_words(game, seat, words["seat"])
    return f"[Westeros] {subject}", f"{text}\n{link}"


def _place_words(game: Game, seat: str, seat_words: str) -> str:
    """" You won as Stark." / " You placed second of 4 as Stark." ("" when the seat has no place). A
    ruleset whose players may share a place (B'Twixt's shared victory, B56) says so by its placements."""
    if not game.ranking or seat not in game.ranking:
        return ""
    place = game.ranking.index(seat) + 1
    try:
        placements = getattr(get_ruleset(game.ruleset), "placements", None)
        places = placements(game.state) if placements is not None else None
    except Exception:  # the order of the ranking is the place
        places = None
    if isinstance(places, dict) and isinstance(places.get(seat), int):
        place = places[seat]
    shared = isinstance(places, dict) and list(places.values()).count(place) > 1
    if place == 1:
        return NOTIFICATION_WORDS["shared_win" if shared else "won"].format(seat=seat_words)
    return NOTIFICATION_WORDS["placed"].format(place=ORDINALS.get(place, str(place)), count=len(game.ranking),
                                               seat=seat_words)


def webhook_body(content: str) -> dict[str, Any]:
    """Discord-compatible: `content` (at most 2000 characters), and no pings whatever the text says
    (lobby names are user input)."""
    if len(content) > DISCORD_CONTENT_LIMIT:
        content = content[:DISCORD_CONTENT_LIMIT - 1] + "…"
    return {"content": content, "allowed_mentions": {"parse": []}}


class WebhookRefused(Exception):
    pass


def pinned_address(host: str, port: int) -> str:
    """Resolve `host` once and return the address to connect to: every address it resolves to must
    be public (unless NOTIFY_WEBHOOK_ALLOW_PRIVATE). The connection then goes to this very address,
    never resolving the name again, so a DNS answer that changes in between (DNS rebinding: public
    for the check, 127.0.0.1 for the connection) cannot redirect it."""
    try:
        addresses = resolve(host, port)
    except OSError as error:
        raise WebhookRefused(f"the host does not resolve ({error})") from None
    if not addresses:
        raise WebhookRefused("the host does not resolve")
    if not conf.get("NOTIFY_WEBHOOK_ALLOW_PRIVATE") and not all(is_public_address(a) for a in addresses):
        raise WebhookRefused("the address is not public")
    return addresses[0]


class PinnedHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to `address`, with `host` in the Host header."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class PinnedHTTPSConnection(http.client.HTTPSConnection):
    """An HTTPS connection to `address` whose TLS handshake sends `host` (SNI) and verifies the
    certificate for `host` (the default context: CERT_REQUIRED and check_hostname), not for the
    address: pinning the address does not weaken the certificate check."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float,
                 context: ssl.SSLContext | None = None) -> None:
        super().__init__(host, port, timeout=timeout, context=context or ssl.create_default_context())
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        try:
            self.sock = self._context.wrap_socket(sock, server_hostname=self.host)
        except BaseException:
            sock.close()
            raise


def post_webhook(url: str, content: str, *, context: ssl.SSLContext | None = None) -> str | None:
    """POST the Discord-compatible body; None when it answered 2xx, else what went wrong. Short
    timeout, no redirects (http.client follows none: a 3xx is an error), no private addresses unless
    NOTIFY_WEBHOOK_ALLOW_PRIVATE, and the name resolved once: the connection goes to the address
    that was checked (`pinned_address`). Never raises. `context`: TLS settings (tests)."""
    try:
        parts = urlsplit(url)
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            return "not an http(s) URL"
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            address = pinned_address(parts.hostname, port)
        except WebhookRefused as refused:
            return str(refused)
        timeout = float(conf.get("NOTIFY_WEBHOOK_TIMEOUT_SECONDS"))
        if parts.scheme == "https":
            connection = PinnedHTTPSConnection(parts.hostname, port, address=address, timeout=timeout, context=context)
        else:
            connection = PinnedHTTPConnection(parts.hostname, port, address=address, timeout=timeout)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        try:
            connection.request("POST", target, body=json.dumps(webhook_body(content)).encode(), headers={
                "Content-Type": "application/json", "User-Agent": "Westeros-Notifications/1"})
            status = connection.getresponse().status
        finally:
            connection.close()
        return None if 200 <= status < 300 else f"HTTP {status}"
    except Exception as error:  # timeouts, refused connections, TLS failures, bad URLs: logged, never raised
        log.warning("webhook %s failed: %s", url, error)
        return type(error).__name__


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _human(iso: str | None) -> str:
    if not iso:
        return NOTIFICATION_WORDS["its_deadline"]
    moment = datetime.fromisoformat(iso).astimezone(UTC)
    return NOTIFICATION_WORDS["deadline_format"].format(day=moment.day, month=dateformat.format(moment, "F"),
                                                        year=moment.year, time=moment.strftime("%H:%M"))
