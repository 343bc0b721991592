"""Challenges: create, accept, decline, cancel; expiry checked lazily; a rate limit per challenger.

Each change runs in one transaction with the challenge row locked, and the users concerned hear of
it on their event stream after the commit (events/services.py). When the last invitee accepts, the
game is started by the lobby services (a lobby filled by the challenger and the invitees, started
at once), so a challenge's game is like any lobby game: same options, validation, seating, ratings."""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from rest_framework.exceptions import Throttled

from accounts.models import User
from challenges.models import Challenge, Invite
from events.services import send_after_commit
from games.errors import GameError, conflict, forbidden, not_found
from games.models import Game
from games.services import lobbies

# lichess's decline reasons, in words: English here (the API's reason_text, the event stream), in the
# reader's language on the pages (decline_reason_words).
DECLINE_REASONS = {
    "generic": gettext_noop("I'm not accepting challenges at the moment."),
    "later": gettext_noop("This is not the right time for me, please ask again later."),
    "too_fast": gettext_noop("This time limit is too fast for me, please challenge again with a slower game."),
    "too_slow": gettext_noop("This time limit is too slow for me, please challenge again with a faster game."),
    "time_limit": gettext_noop("I'm not accepting challenges with this time limit."),
    "ranked": gettext_noop("Please send me a ranked challenge instead."),
    "casual": gettext_noop("Please send me a casual challenge instead."),
    "ruleset": gettext_noop("I'm not accepting challenges to this game at the moment."),
    "options": gettext_noop("I'm not accepting challenges with these options."),
    "no_bot": gettext_noop("I'm not accepting challenges from bots."),
    "only_bot": gettext_noop("I'm only accepting challenges from bots."),
}


def decline_reason_words(reason: str) -> str:
    """A decline reason in the active language ("" for none)."""
    return gettext(DECLINE_REASONS[reason]) if reason in DECLINE_REASONS else ""


def decline_reason_choices() -> list[tuple[str, str]]:
    """The decline form's reasons, in the active language."""
    return [(key, gettext(words)) for key, words in DECLINE_REASONS.items()]


def conf(name: str) -> Any:
    defaults = {"CHALLENGES_PER_HOUR": 20, "CHALLENGE_EXPIRY_SECONDS": 24 * 3600}
    return getattr(settings, name, defaults[name])


def invalid(field: str, message: str) -> GameError:
    return GameError("invalid", gettext("Some fields are not valid."), fields={field: [message]})


@dataclass(frozen=True)
class ChallengeRequest:
    ruleset: str
    users: list[str]
    time_limit: int
    ranked: bool = False
    options: dict[str, Any] | None = None
    deck: str = ""  # the card game: the challenger's deck (a ready-made one, or "deck:<id>" of their saved decks)


# --- reading ------------------------------------------------------------------------------------------

def pending_now(now: datetime | None = None):
    """Challenges still waiting for answers: pending and not past their expiry. Expiry is checked
    lazily, when challenges are read or answered; reads store nothing (an expired challenge is
    stored as such when someone tries to answer it, or never: it is shown as expired all the same)."""
    return Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__gt=now or timezone.now())


def waiting_count(user: User) -> int:
    """How many challenges wait for the user's answer (pending_now's, with the user's invite pending):
    counted by the user's invites, one per challenge and user (a constraint), so without the DISTINCT
    over a join that counting challenges needs. The navigation shows it on every page (issue 27): its
    query compiled once per process (westeros/compiled.py), the user and the time now given per call."""
    from westeros import compiled

    counted = compiled.rows("challenges:waiting-count", _waiting_count_query, user_id=user.pk, now=timezone.now())
    return counted[0]["n"] if counted else 0


def _waiting_count_query(user_id: int, now: datetime):
    """waiting_count's query: one row (the user's) with their count, or none when nothing waits."""
    return (Invite.objects.filter(user_id=user_id, status=Invite.Status.PENDING,
                                  challenge__status=Challenge.Status.PENDING, challenge__expires_at__gt=now)
            .order_by().values("user_id").annotate(n=Count("pk")))


def shown_status(challenge: Challenge) -> str:
    if challenge.is_pending() and challenge.expires_at <= timezone.now():
        return Challenge.Status.EXPIRED
    return challenge.status


def invites_with_people() -> Prefetch:
    """A challenge's invites with their players, in one query."""
    return Prefetch("invites", queryset=Invite.objects.select_related("user"))


def with_people(queryset):
    return queryset.select_related("challenger").prefetch_related(invites_with_people())


LISTED = 200  # the most challenges of each kind a list shows


def challenges_of(user: User, *, answered: int = 0) -> dict[str, list[Challenge]]:
    """The user's pending challenges, newest first, at most LISTED of each kind: `in` (waiting for
    their answer), `out` (sent by them) and `accepted` (they accepted, the others have not yet); with
    `answered`, also `past`: their last `answered` challenges no longer waiting (answered_lately).
    Three or four queries, each compiled once per process (the user and the time now their parameters):
    the ones sent, the ones received (one invite per user and challenge: no duplicates), the answered
    ones, then the invites with their players of all of them at once, found by the same queries as
    subqueries (a list of their ids made the invites' query anew for every page; issue 27)."""
    from westeros import compiled

    values = {"user_id": user.pk, "now": timezone.now()}
    outgoing = compiled.models("challenges:sent", _sent_query, **values)
    received = compiled.models("challenges:received", _received_query, **values)
    past = list(answered_lately(user, values["now"], answered)) if answered else []
    shown = [*outgoing, *received, *past]
    invites: dict[int, list[Invite]] = {c.pk: [] for c in shown}
    if shown:
        for invite in compiled.models(f"challenges:invites-of:{answered}", partial(_invites_query, answered=answered),
                                      **values):
            invites[invite.challenge_id].append(invite)
    for challenge in shown:
        compiled.put_prefetched(challenge, "invites", invites[challenge.pk], "challenge")
    mine = {"in": [], "out": outgoing, "accepted": [], "past": past}
    kinds = {Invite.Status.PENDING: "in", Invite.Status.ACCEPTED: "accepted"}
    for challenge in received:
        invite = next((i for i in challenge.invites.all() if i.user_id == user.pk), None)
        kind = kinds.get(invite.status) if invite is not None else None  # None: answered in between
        if kind is not None and len(mine[kind]) < LISTED:
            mine[kind].append(challenge)
    return mine


def _invites_query(user_id: int, now: datetime, answered: int):
    """The invites, with their players, of the challenges challenges_of lists, in the order of Invite's Meta."""
    shown = (Q(challenge_id__in=_sent_query(user_id, now).values("pk"))
             | Q(challenge_id__in=_received_query(user_id, now).values("pk")))
    if answered:
        shown |= Q(challenge_id__in=_answered_query(user_id, now, answered).values("pk"))
    return Invite.objects.filter(shown).select_related("user").order_by("challenge_id", *Invite._meta.ordering)


def _sent_query(user_id: int, now: datetime):
    return pending_now(now).filter(challenger_id=user_id).select_related("challenger")[:LISTED]


def _received_query(user_id: int, now: datetime):
    answering = (Invite.Status.PENDING, Invite.Status.ACCEPTED)
    return (pending_now(now).filter(invites__user_id=user_id, invites__status__in=answering)
            .select_related("challenger")[:2 * LISTED])


def waiting_for(user: User, limit: int) -> list[Challenge]:
    """The user's newest `limit` challenges waiting for their answer (`challenges_of(user)["in"][:limit]`),
    read alone: the home page lists ten, and reading every kind of a busy player's challenges to show
    them took a third of its time (issue 27). Two queries, each compiled once per process and limit
    (westeros/compiled.py: the user and the time now are their parameters, given on every call); their
    rows read afresh every time and made into models as the ORM makes them, the invites with their
    players put on each challenge as prefetch_related(invites_with_people()) puts them."""
    from westeros import compiled

    values = {"user_id": user.pk, "now": timezone.now()}
    waiting = compiled.models(f"challenges:waiting-for:{limit}", partial(_waiting_query, limit=limit), **values)
    if not waiting:
        return waiting
    invites: dict[int, list[Invite]] = {c.pk: [] for c in waiting}
    for invite in compiled.models(f"challenges:waiting-for-invites:{limit}",
                                  partial(_waiting_invites_query, limit=limit), **values):
        invites[invite.challenge_id].append(invite)
    for challenge in waiting:
        compiled.put_prefetched(challenge, "invites", invites[challenge.pk], "challenge")
    return waiting


def _waiting_query(user_id: int, now: datetime, limit: int):
    return (pending_now(now).filter(invites__user_id=user_id, invites__status=Invite.Status.PENDING)
            .select_related("challenger")[:limit])


def _waiting_invites_query(user_id: int, now: datetime, limit: int):
    """The invites of _waiting_query's challenges, with their players, in the order of Invite's Meta."""
    shown = _waiting_query(user_id, now, limit).values("pk")
    return (Invite.objects.filter(challenge_id__in=shown).select_related("user")
            .order_by("challenge_id", *Invite._meta.ordering))


def answered_lately(user: User, now: datetime | None = None, count: int = 10):
    """The user's last `count` challenges (sent or received) no longer waiting for answers: answered,
    canceled or expired. Their challengers are read with them; their invites are not."""
    from westeros import compiled

    return compiled.models(f"challenges:answered-lately:{count}", partial(_answered_query, count=count),
                           user_id=user.pk, now=now or timezone.now())


def _answered_query(user_id: int, now: datetime, count: int):
    received = Invite.objects.filter(user_id=user_id).values("challenge_id")
    return (Challenge.objects.filter(Q(challenger_id=user_id) | Q(pk__in=received))
            .exclude(status=Challenge.Status.PENDING, expires_at__gt=now)
            .select_related("challenger")[:count])


def visible_challenge(user: User, challenge_id: int) -> Challenge:
    """A challenge the user takes part in (as challenger or invitee), else 404."""
    challenge = with_people(Challenge.objects.filter(pk=challenge_id)).first()
    if challenge is None or not _takes_part(challenge, user):
        raise not_found("challenge")
    return challenge


def _takes_part(challenge: Challenge, user: User) -> bool:
    return challenge.challenger_id == user.pk or any(i.user_id == user.pk for i in challenge.invites.all())


def payload(challenge: Challenge) -> dict[str, Any]:
    """The challenge as the API and the event stream show it."""
    return {
        "id": challenge.pk,
        "status": shown_status(challenge),
        "challenger": challenge.challenger.username,
        "challenger_bot": challenge.challenger.is_bot,
        "ruleset": challenge.ruleset,
        "options": challenge.options,
        "time_limit": challenge.time_limit,
        "ranked": challenge.ranked,
        "seats": 1 + len(challenge.invites.all()),
        "invites": [{"user": i.user.username, "bot": i.user.is_bot, "status": i.status,
                     "reason": i.reason or None, "reason_text": DECLINE_REASONS.get(i.reason)}
                    for i in challenge.invites.all()],
        "created_at": challenge.created_at,
        "expires_at": challenge.expires_at,
        "game": challenge.game_id,
    }


def waiting_challenge_events(user: User) -> list[dict]:
    """The stream's first lines: a `challenge` event for every challenge waiting for the user's answer."""
    return [{"type": "challenge", "challenge": payload(c)} for c in challenges_of(user)["in"]]


# --- changing -----------------------------------------------------------------------------------------

def _json(challenge: Challenge) -> dict[str, Any]:
    """The payload with dates as text (what the stream sends)."""
    data = payload(challenge)
    for key in ("created_at", "expires_at"):
        data[key] = data[key].isoformat().replace("+00:00", "Z")
    return data


def _notify(challenge: Challenge, kind: str, user_ids) -> None:
    event = {"type": kind, "challenge": _json(challenge)}
    send_after_commit((uid, event) for uid in user_ids)


def _check_rate(challenger: User, now: datetime) -> None:
    limit = int(conf("CHALLENGES_PER_HOUR"))
    since = now - timedelta(hours=1)
    recent = list(Challenge.objects.filter(challenger=challenger, created_at__gt=since)
                  .order_by("created_at").values_list("created_at", flat=True)[:limit])
    if len(recent) >= limit:
        wait = max(1, math.ceil((recent[0] + timedelta(hours=1) - now).total_seconds()))
        raise Throttled(wait=wait, detail=gettext("At most %(limit)d challenges an hour.") % {"limit": limit})


def _invitees(challenger: User, names: list[str], ruleset: str) -> list[User]:
    if not names:
        raise invalid("users", gettext("Name at least one player to challenge."))
    if len(set(names)) != len(names):
        raise invalid("users", gettext("Name each player once."))
    if challenger.username in names:
        raise invalid("users", gettext("You cannot challenge yourself: name the other players."))
    found = {u.username: u for u in User.objects.filter(username__in=names, is_active=True)}
    missing = [n for n in names if n not in found]
    if missing:
        raise invalid("users", gettext("No player named %(names)s.") % {"names": ", ".join(repr(n) for n in missing)})
    return [found[n] for n in names]


def do_create_challenge(challenger: User, request: ChallengeRequest) -> Challenge:
    """Validate (the lobby's own checks for the ruleset, the seats, the time limit and the options),
    count against the rate limit, store, and tell every invitee."""
    with transaction.atomic():
        now = timezone.now()
        User.objects.select_for_update().filter(pk=challenger.pk).first()  # one challenger at a time
        _check_rate(challenger, now)
        invitees = _invitees(challenger, request.users, request.ruleset)
        try:
            lobbies.validate_settings(_lobby_settings(request.ruleset, 1 + len(invitees), request.time_limit,
                                                      request.ranked, request.options or {}))
        except GameError as error:  # the lobby's field names are the challenge's, but seats are users
            if "seats" in error.fields:
                raise invalid("users", error.fields["seats"][0]) from None
            raise
        deck = _checked_deck(request.ruleset, request.deck, challenger, request.options)
        challenge = Challenge.objects.create(
            challenger=challenger, ruleset=request.ruleset, options=request.options or {}, deck=deck,
            time_limit=request.time_limit, ranked=request.ranked, created_at=now,
            expires_at=now + timedelta(seconds=int(conf("CHALLENGE_EXPIRY_SECONDS"))))
        Invite.objects.bulk_create(Invite(challenge=challenge, user=u, position=i) for i, u in enumerate(invitees))
        challenge = with_people(Challenge.objects.filter(pk=challenge.pk)).get()
        _notify(challenge, "challenge", [u.pk for u in invitees])
    return challenge


def _lobby_settings(ruleset, seats, time_limit, ranked, options) -> lobbies.LobbySettings:
    return lobbies.LobbySettings(ruleset=ruleset, seat_count=seats, time_limit=time_limit, ranked=ranked,
                                 options=options, name="", private=False, auto_start=True)


def _lock(challenge_id: int, user: User) -> Challenge:
    """The challenge, locked, if the user takes part in it and it is still pending."""
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    if challenge is None:
        raise not_found("challenge")
    challenge = with_people(Challenge.objects.filter(pk=challenge.pk)).get()
    if not _takes_part(challenge, user):
        raise not_found("challenge")
    if challenge.is_pending() and challenge.expires_at <= timezone.now():
        challenge.status = Challenge.Status.EXPIRED  # refused below; shown as expired by every read
    if not challenge.is_pending():
        raise conflict(f"challenge_{challenge.status}", gettext("This challenge is %(status)s.") % {
            "status": gettext(challenge.get_status_display())})
    return challenge


def _my_invite(challenge: Challenge, user: User) -> Invite:
    invite = next((i for i in challenge.invites.all() if i.user_id == user.pk), None)
    if invite is None:
        raise forbidden(gettext("Only the players challenged can answer a challenge."))
    if invite.status != Invite.Status.PENDING:
        answered = (gettext("You already accepted this challenge.") if invite.status == Invite.Status.ACCEPTED
                    else gettext("You already declined this challenge."))
        raise conflict("already_answered", answered)
    return invite


def _others(challenge: Challenge, user: User) -> list[int]:
    return [uid for uid in [challenge.challenger_id, *(i.user_id for i in challenge.invites.all())] if uid != user.pk]


def _checked_deck(ruleset: str, deck: str, user: User, options: dict | None = None) -> str:
    """The deck a player brings to the card game (issue 30): a ready-made one, or one of their saved decks that is
    legal and played by the engine; '' for a deck drawn at random. The miniatures game (issue 33): one of their saved
    armies ("army:<id>") of the game's size, which takes a seat of its house. A refusal says why in words."""
    if not deck:
        return ""
    if ruleset == "minis":
        from games.services import armies as saved

        saved.usable(deck, user, (options or {}).get("game_size", 30))
        return deck
    choices = lobbies.deck_choices(ruleset)
    if not choices:
        raise invalid("deck", gettext("%(ruleset)s is not played with decks.") % {"ruleset": ruleset})
    if lobbies.saved_deck_id(deck) is not None:
        from games.services import decks as saved

        saved.usable(deck, user)
        return deck
    if deck not in choices:
        raise invalid("deck", gettext("Unknown deck %(deck)r; choose among: %(choices)s.") % {
            "deck": deck, "choices": ", ".join(choices)})
    return deck


def do_accept(challenge_id: int, user: User, deck: str = "") -> Challenge:
    """Accept (with the deck the player brings, for the card game); when every invitee has, the game starts (a
    lobby of all of them, started at once)."""
    with transaction.atomic():
        challenge = _lock(challenge_id, user)
        invite = _my_invite(challenge, user)
        invite.deck = _checked_deck(challenge.ruleset, deck, user, challenge.options)
        invite.status, invite.answered_at = Invite.Status.ACCEPTED, timezone.now()
        invite.save(update_fields=["status", "answered_at", "deck"])
        if all(i.status == Invite.Status.ACCEPTED for i in challenge.invites.all()):
            challenge.game = _start_game(challenge)
            challenge.status, challenge.ended_at = Challenge.Status.STARTED, timezone.now()
            challenge.save(update_fields=["game", "status", "ended_at"])
        _notify(challenge, "challengeAccepted", _others(challenge, user))
    return challenge


def _start_game(challenge: Challenge) -> Game:
    invitees = [i.user for i in challenge.invites.all()]
    settings = _lobby_settings(challenge.ruleset, 1 + len(invitees), challenge.time_limit, challenge.ranked,
                               challenge.options)
    lobby = lobbies.do_create_lobby(challenge.challenger, settings, deck=challenge.deck)
    for invite in challenge.invites.all():
        lobby = lobbies.do_join_lobby(lobby.pk, invite.user, deck=invite.deck)
    game = lobbies.lobby_game(lobby)
    if game is None:  # a lobby full of its players always starts (auto_start)
        raise conflict("not_started", gettext("The game could not be started."))
    return game


def do_decline(challenge_id: int, user: User, reason: str = "generic") -> Challenge:
    """Decline: the challenge ends (its game needs everyone); the others hear why."""
    if reason not in DECLINE_REASONS:
        raise invalid("reason", gettext("Choose one of: %(reasons)s.") % {"reasons": ", ".join(DECLINE_REASONS)})
    with transaction.atomic():
        challenge = _lock(challenge_id, user)
        invite = _my_invite(challenge, user)
        now = timezone.now()
        invite.status, invite.reason, invite.answered_at = Invite.Status.DECLINED, reason, now
        invite.save(update_fields=["status", "reason", "answered_at"])
        challenge.status, challenge.ended_at = Challenge.Status.DECLINED, now
        challenge.save(update_fields=["status", "ended_at"])
        _notify(challenge, "challengeDeclined", _others(challenge, user))
    return challenge


def do_cancel(challenge_id: int, user: User) -> Challenge:
    with transaction.atomic():
        challenge = _lock(challenge_id, user)
        if challenge.challenger_id != user.pk:
            raise forbidden(gettext("Only the challenger can cancel a challenge; decline it instead."))
        challenge.status, challenge.ended_at = Challenge.Status.CANCELED, timezone.now()
        challenge.save(update_fields=["status", "ended_at"])
        _notify(challenge, "challengeCanceled", _others(challenge, user))
    return challenge
