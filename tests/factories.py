"""Factories: build what a test needs with unique names, overriding only what the test is about."""
from __future__ import annotations

import itertools

from accounts.models import ApiToken, User

DEFAULT_PASSWORD = "a-long-and-unusual-passphrase-42"

_sequence = itertools.count(1)


def make_user(*, username: str | None = None, email: str | None = None, password: str = DEFAULT_PASSWORD, **extra) -> User:
    n = next(_sequence)
    username = username or f"player{n}"
    email = email or f"{username}@example.com"
    return User.objects.create_user(username=username, email=email, password=password, **extra)


def make_token(user: User | None = None, name: str = "script") -> tuple[ApiToken, str]:
    return ApiToken.issue(user or make_user(), name)
