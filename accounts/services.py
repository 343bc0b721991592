"""Account actions. Views stay thin: they parse input, call one of these, and render the result."""
from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import authenticate
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import ApiToken, User
from accounts.throttle import LoginThrottle
from westeros.i18n import in_language_of

log = logging.getLogger(__name__)


class LoginLocked(Exception):
    """Too many failed attempts for this username or IP."""

    def __init__(self, throttle: LoginThrottle):
        super().__init__(throttle.message)
        self.throttle = throttle


def do_authenticate(request: HttpRequest, username: str, password: str) -> User | None:
    """The user for these credentials, None if they are wrong; LoginLocked when throttled,
    ThrottleUnavailable when the throttle's counts cannot be checked (the log-in is refused).

    A locked username or IP is refused before the password is checked, so a correct guess made
    while locked tells the attacker nothing."""
    throttle = LoginThrottle.for_request(request, username)
    if throttle.is_locked():
        raise LoginLocked(throttle)
    user = authenticate(request, username=username, password=password)
    if user is None:
        throttle.record_failure()
        return None
    throttle.clear_user()
    return user


@transaction.atomic
def do_create_user(*, username: str, email: str, password: str) -> User:
    """Create a player with a confirmed address (the admin, the demo account, tests)."""
    return User.objects.create_user(username=username, email=email, password=password)


EMAIL_CONFIRM_SALT = "accounts.email-confirm"
EMAIL_CONFIRM_MAX_AGE = 3 * 24 * 3600  # seconds a confirmation link stays valid


def do_sign_up(request: HttpRequest, *, username: str, email: str, password: str) -> User:
    """Create a player from the sign-up form, the same way whether or not an account holds `email`
    already (the answer must not tell which addresses have an account, issue 28): the account
    starts with the address waiting for confirmation, and one message goes to the address: a link
    that confirms it, or, when another account has it, a note to its owner that someone tried to
    sign up with it. Input must already be validated (accounts.forms.SignUpForm)."""
    with transaction.atomic():
        user = User.objects.create_user(username=username, email=None, password=password)
        user.pending_email = email
        user.save(update_fields=["pending_email"])
    send_confirmation(request, user)
    return user


def send_confirmation(request: HttpRequest, user: User) -> None:
    """The message to the address waiting in user.pending_email: a confirmation link, or, when
    another account has the address, a note to its owner (the same for the sender either way)."""
    email, username = user.pending_email, user.username
    if not email:
        return
    owner = User.objects.filter(email__iexact=email).exclude(pk=user.pk).first()
    if owner is not None:
        # in the owner's language (their account's setting), not the sender's
        with in_language_of(owner):
            subject = gettext("Someone signed up with your e-mail address")
            body = gettext(
                "Someone asked for the account %(username)s on Westeros to use this e-mail address, which your "
                "account already uses. Nothing changed for your account, and that account will not get this "
                "address.\n\nIf you forgot your password: %(reset_link)s\n"
            ) % {"username": username, "reset_link": request.build_absolute_uri(reverse("password_reset"))}
    else:  # in the language the new player signs up in
        link = request.build_absolute_uri(reverse("confirm-email", args=[email_confirmation_token(user, email)]))
        subject = gettext("Confirm your e-mail address")
        body = gettext(
            "Welcome to Westeros, %(username)s. Confirm that this address is yours, for password resets and "
            "notifications, with this link (valid for three days):\n\n%(link)s\n\n"
            "If you did not sign up, ignore this message.\n"
        ) % {"username": username, "link": link}
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [email])
    except Exception as error:  # e.g. no mail server configured: the account exists; it can ask again later
        log.warning("the confirmation message for %s could not be sent (%s)", username, error)


def email_confirmation_token(user: User, email: str) -> str:
    return signing.dumps({"u": user.pk, "e": email.lower()}, salt=EMAIL_CONFIRM_SALT, compress=True)


class EmailConfirmationRefused(Exception):
    pass


@transaction.atomic
def do_confirm_email(token: str) -> User:
    """Attach the address a confirmation link names to its account; EmailConfirmationRefused with the
    reason in words when the link is wrong, too old, already used, or another account has the address."""
    try:
        data = signing.loads(token, salt=EMAIL_CONFIRM_SALT, max_age=EMAIL_CONFIRM_MAX_AGE)
    except signing.SignatureExpired:
        raise EmailConfirmationRefused(gettext("This confirmation link is too old: ask for a new one on your "
                                               "profile page.")) from None
    except signing.BadSignature:
        raise EmailConfirmationRefused(gettext("This confirmation link is not valid.")) from None
    user = User.objects.select_for_update().filter(pk=data.get("u"), is_active=True).first()
    if user is None or (user.pending_email or "").lower() != data.get("e"):
        raise EmailConfirmationRefused(gettext("This confirmation link is not valid any more."))
    if User.objects.filter(email__iexact=data["e"]).exclude(pk=user.pk).exists():
        raise EmailConfirmationRefused(gettext("Another account uses this e-mail address."))
    user.email, user.pending_email = user.pending_email, ""
    user.save(update_fields=["email", "pending_email"])
    return user


def do_set_language(user: User, language: str) -> User:
    """The language the site speaks to `user` ("" follows the browser); the caller checked it is
    one of settings.LANGUAGES."""
    user.language = language
    user.save(update_fields=["language"])
    return user


def do_set_auto_pass(user: User, on: bool) -> User:
    """The card game's "pass for me when I hold nothing playable" (issue 30; games/services/play.py)."""
    user.auto_pass = bool(on)
    user.save(update_fields=["auto_pass"])
    return user


def do_set_action_windows(user: User, names: list[str]) -> User:
    """The card game's action windows `user` is asked in (games/engine/lcg/prompts.py ACTION_WINDOWS;
    the caller checked the names); games started from now on carry them (games/services/play.py)."""
    from games.engine.lcg.prompts import ACTION_WINDOWS

    user.action_windows = [n for n in ACTION_WINDOWS if n in set(names)]
    user.save(update_fields=["action_windows"])
    return user


def do_issue_token(user: User, name: str) -> tuple[ApiToken, str]:
    return ApiToken.issue(user, name)


def do_revoke_token(user: User, token_id: int) -> ApiToken | None:
    """Revoke one of the user's own tokens; None if the user has no such token."""
    token = user.api_tokens.filter(pk=token_id).first()
    if token is not None:
        token.revoke()
    return token


class BotUpgradeRefused(Exception):
    """The account cannot become a bot account; `code` for the API, the message in words."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def bot_upgrade_refusal(user: User) -> BotUpgradeRefused | None:
    """Why `user` cannot become a bot account now, or None. A bot account must not carry a human's
    rated history: an account that played a ranked game stays a person's (docs/bots.md)."""
    if user.is_bot:
        return BotUpgradeRefused("already_bot", gettext("This account is already a bot account."))
    if user.game_seats.filter(game__ranked=True).exists():
        return BotUpgradeRefused(
            "has_rated_games",
            gettext("This account has played ranked games; only an account without any ranked game can become a "
                    "bot. Create a new account for your bot."))
    return None


@transaction.atomic
def do_upgrade_to_bot(user: User) -> User:
    """Turn the account into a bot account, for good. Raises BotUpgradeRefused."""
    locked = User.objects.select_for_update().get(pk=user.pk)
    refusal = bot_upgrade_refusal(locked)
    if refusal is not None:
        raise refusal
    locked.is_bot = True
    locked.bot_since = timezone.now()
    locked.save(update_fields=["is_bot", "bot_since"])
    user.is_bot, user.bot_since = locked.is_bot, locked.bot_since
    return locked
