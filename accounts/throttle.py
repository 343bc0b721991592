"""Log-in throttling: too many failed attempts for one username, or from one IP, lock further
attempts for a window. Counted in the cache (Redis in production, so it holds across workers).

When the cache cannot be read or written (Redis down), log-ins fail closed: ThrottleUnavailable,
answered 503 "temporarily unavailable", because without the counts password guessing would be
unlimited. Users already logged in keep their sessions (stored in the database), and API tokens
keep working."""
from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from westeros.outages import REDIS_ERRORS

log = logging.getLogger(__name__)


class ThrottleUnavailable(Exception):
    """The failure counts cannot be checked or recorded: the log-in is refused (fail closed)."""

    message = "Log-in is temporarily unavailable. Try again in a minute."

    def __init__(self) -> None:
        super().__init__(self.message)


def client_ip(request) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is trivially forged unless a trusted proxy sets it.
    return request.META.get("REMOTE_ADDR") or "unknown"


def _user_key(username: str) -> str:
    return f"login-fail:user:{username.strip().lower()}"


def _ip_key(ip: str) -> str:
    return f"login-fail:ip:{ip}"


@dataclass(frozen=True)
class LoginThrottle:
    username: str
    ip: str

    @classmethod
    def for_request(cls, request, username: str) -> LoginThrottle:
        return cls(username=username or "", ip=client_ip(request))

    def is_locked(self) -> bool:
        """Whether the username or the IP is locked; ThrottleUnavailable when the counts cannot be read."""
        try:
            user_failures = cache.get(_user_key(self.username), 0) if self.username else 0
            ip_failures = cache.get(_ip_key(self.ip), 0)
        except REDIS_ERRORS as error:
            log.warning("log-in refused: the throttle counts cannot be read: %s", error)
            raise ThrottleUnavailable from error
        return user_failures >= settings.LOGIN_FAILURES_PER_USER or ip_failures >= settings.LOGIN_FAILURES_PER_IP

    def record_failure(self) -> None:
        """Count a failure; ThrottleUnavailable when it cannot be counted (an uncounted guess is refused)."""
        window = settings.LOGIN_FAILURE_WINDOW_SECONDS
        keys = [_ip_key(self.ip)] + ([_user_key(self.username)] if self.username else [])
        try:
            for key in keys:
                if cache.add(key, 1, window):
                    continue
                try:
                    cache.incr(key)
                except ValueError:  # expired between add and incr
                    cache.set(key, 1, window)
        except REDIS_ERRORS as error:
            log.warning("log-in refused: a failure could not be counted: %s", error)
            raise ThrottleUnavailable from error

    def clear_user(self) -> None:
        """A successful log-in clears that user's failures (the IP's count stays)."""
        if self.username:
            try:
                cache.delete(_user_key(self.username))
            except REDIS_ERRORS as error:  # the count stays until its window ends: harmless
                log.warning("could not clear the log-in failures of %r: %s", self.username, error)

    @staticmethod
    def retry_after_seconds() -> int:
        return settings.LOGIN_FAILURE_WINDOW_SECONDS

    @property
    def message(self) -> str:
        minutes = max(1, settings.LOGIN_FAILURE_WINDOW_SECONDS // 60)
        return f"Too many failed log-in attempts. Try again in {minutes} minutes."
