"""Account actions. Views stay thin: they parse input, call one of these, and render the result."""
from __future__ import annotations

from django.contrib.auth import authenticate
from django.db import transaction
from django.http import HttpRequest

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
