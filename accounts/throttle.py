"""Log-in throttling: too many failed attempts for one username, or from one IP, lock further
attempts for a window. Counted in the cache (Redis in production, so it holds across workers)."""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache


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
        user_failures = cache.get(_user_key(self.username), 0) if self.username else 0
        ip_failures = cache.get(_ip_key(self.ip), 0)
        return user_failures >= settings.LOGIN_FAILURES_PER_USER or ip_failures >= settings.LOGIN_FAILURES_PER_IP

    def record_failure(self) -> None:
        window = settings.LOGIN_FAILURE_WINDOW_SECONDS
        keys = [_ip_key(self.ip)] + ([_user_key(self.username)] if self.username else [])
        for key in keys:
            if cache.add(key, 1, window):
                continue
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.set(key, 1, window)

    def clear_user(self) -> None:
        """A successful log-in clears that user's failures (the IP's count stays)."""
        if self.username:
            cache.delete(_user_key(self.username))

    @staticmethod
    def retry_after_seconds() -> int:
        return settings.LOGIN_FAILURE_WINDOW_SECONDS

    @property
    def message(self) -> str:
        minutes = max(1, settings.LOGIN_FAILURE_WINDOW_SECONDS // 60)
        return f"Too many failed log-in attempts. Try again in {minutes} minutes."
