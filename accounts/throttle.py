"""Log-in throttling, as the trusted sites do it (issue 28). Counted in the cache (Redis in
production, so it holds across workers), each count over a window of LOGIN_FAILURE_WINDOW_SECONDS
(15 minutes) from its first failure:

- per username AND client address: LOGIN_FAILURES_PER_USER (5) wrong passwords lock that username
  from that address for the window. Nobody else is locked out, and nobody else can renew the lock:
  attempts from a locked address are refused before they are counted, and attempts from elsewhere
  count elsewhere.
- per address: LOGIN_FAILURES_PER_IP (20) failures, whatever the usernames, lock that address.
- per username across every address: past LOGIN_FAILURES_PER_USERNAME_CEILING (50) failures the
  username is slowed, never locked: one attempt every LOGIN_SLOWDOWN_SECONDS (10) from all addresses
  together, the others are told "try again in N seconds" (429, Retry-After N). A browser that logged
  in to the account before carries a signed device cookie (DEVICE_COOKIE) and is not slowed, so a
  guessing campaign from many addresses never keeps the owner out.

When the cache cannot be read or written (Redis down), log-ins fail closed: ThrottleUnavailable,
answered 503 "temporarily unavailable", because without the counts password guessing would be
unlimited. Users already logged in keep their sessions (stored in the database), and API tokens
keep working."""
from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_lazy, ngettext

from westeros.outages import REDIS_ERRORS

log = logging.getLogger(__name__)


class ThrottleUnavailable(Exception):
    """The failure counts cannot be checked or recorded: the log-in is refused (fail closed)."""

    message = gettext_lazy("Log-in is temporarily unavailable. Try again in a minute.")

    def __init__(self) -> None:
        super().__init__(self.message)


def client_ip(request) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is trivially forged unless a trusted proxy sets it.
    return request.META.get("REMOTE_ADDR") or "unknown"


def _name(username: str) -> str:
    return hashlib.sha256(username.strip().lower().encode()).hexdigest()[:32]


def _pair_key(username: str, ip: str) -> str:
    return f"login-fail:pair:{_name(username)}:{ip}"


def _user_key(username: str) -> str:
    return f"login-fail:user:{_name(username)}"


def _slow_key(username: str) -> str:
    return f"login-slow:user:{_name(username)}"


def _ip_key(ip: str) -> str:
    return f"login-fail:ip:{ip}"


DEVICE_COOKIE = "login_device"
DEVICE_SALT = "accounts.throttle.device"
DEVICE_MAX_AGE = 365 * 24 * 3600


def count_failures(keys: list[str], window: int) -> None:
    """One more failure under each key, counted over `window` seconds from its first (log-ins and lobby
    passwords). Redis errors are the caller's to handle."""
    for key in keys:
        if cache.add(key, 1, window):
            continue
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, window)


def username_ceiling() -> int:
    return getattr(settings, "LOGIN_FAILURES_PER_USERNAME_CEILING", 50)


def slowdown_seconds() -> int:
    return getattr(settings, "LOGIN_SLOWDOWN_SECONDS", 10)


def device_cookie_value(username: str) -> str:
    return _name(username)


def known_device(request, username: str) -> bool:
    """Whether this browser logged in to `username` before (the signed cookie names the account)."""
    cookies = getattr(request, "COOKIES", None)
    if not username or not cookies or DEVICE_COOKIE not in cookies:
        return False
    value = request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
    return value is not None and value == _name(username)


@dataclass
class LoginThrottle:
    username: str
    ip: str
    known_device: bool = False
    slowed: bool = False  # set by is_locked: refused by the per-username ceiling, not locked

    @classmethod
    def for_request(cls, request, username: str) -> LoginThrottle:
        username = username or ""
        return cls(username=username, ip=client_ip(request), known_device=known_device(request, username))

    def is_locked(self) -> bool:
        """Whether this attempt is refused: the username from this address, or the address, is
        locked, or the username is slowed and this attempt is not the one let through now.
        ThrottleUnavailable when the counts cannot be read."""
        try:
            keys = [_ip_key(self.ip)] + ([_pair_key(self.username, self.ip), _user_key(self.username)]
                                         if self.username else [])
            counts = cache.get_many(keys)
            if counts.get(_ip_key(self.ip), 0) >= settings.LOGIN_FAILURES_PER_IP:
                return True
            if not self.username:
                return False
            if counts.get(_pair_key(self.username, self.ip), 0) >= settings.LOGIN_FAILURES_PER_USER:
                return True
            if counts.get(_user_key(self.username), 0) >= username_ceiling() and not self.known_device:
                # one attempt per slowdown period for the username, from everywhere together
                self.slowed = not cache.add(_slow_key(self.username), 1, slowdown_seconds())
                return self.slowed
        except REDIS_ERRORS as error:
            log.warning("log-in refused: the throttle counts cannot be read: %s", error)
            raise ThrottleUnavailable from error
        return False

    def record_failure(self) -> None:
        """Count a failure; ThrottleUnavailable when it cannot be counted (an uncounted guess is refused)."""
        window = settings.LOGIN_FAILURE_WINDOW_SECONDS
        keys = [_ip_key(self.ip)]
        if self.username:
            keys += [_pair_key(self.username, self.ip), _user_key(self.username)]
        try:
            count_failures(keys, window)
        except REDIS_ERRORS as error:
            log.warning("log-in refused: a failure could not be counted: %s", error)
            raise ThrottleUnavailable from error

    def clear_user(self) -> None:
        """A successful log-in clears that username's failures from this address (the address' count
        and the username's count across addresses stay: an owner's log-in must not hand a guessing
        campaign a fresh allowance)."""
        if self.username:
            try:
                cache.delete(_pair_key(self.username, self.ip))
            except REDIS_ERRORS as error:  # the count stays until its window ends: harmless
                log.warning("could not clear the log-in failures of %r: %s", self.username, error)

    def retry_after_seconds(self) -> int:
        return slowdown_seconds() if self.slowed else settings.LOGIN_FAILURE_WINDOW_SECONDS

    @property
    def message(self) -> str:
        if self.slowed:
            seconds = slowdown_seconds()
            return ngettext("Too many failed log-in attempts for this account from many places. "
                            "Try again in %(seconds)d second.",
                            "Too many failed log-in attempts for this account from many places. "
                            "Try again in %(seconds)d seconds.", seconds) % {"seconds": seconds}
        minutes = max(1, settings.LOGIN_FAILURE_WINDOW_SECONDS // 60)
        return ngettext("Too many failed log-in attempts. Try again in %(minutes)d minute.",
                        "Too many failed log-in attempts. Try again in %(minutes)d minutes.", minutes) % {"minutes": minutes}
