"""Account actions. Views stay thin: they parse input, call one of these, and render the result."""
from __future__ import annotations

from django.contrib.auth import authenticate
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import ApiToken, User
from accounts.throttle import LoginThrottle


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
    """Create a player. Input must already be validated (accounts.forms.SignUpForm)."""
    return User.objects.create_user(username=username, email=email, password=password)


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
        return BotUpgradeRefused("already_bot", "This account is already a bot account.")
    if user.game_seats.filter(game__ranked=True).exists():
        return BotUpgradeRefused(
            "has_rated_games",
            "This account has played ranked games; only an account without any ranked game can become a bot. "
            "Create a new account for your bot.")
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
