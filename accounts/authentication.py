"""API authentication by personal token: `Authorization: Token <key>` or `Authorization: Bearer <key>`."""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from rest_framework import authentication, exceptions

from accounts.models import ApiToken
from westeros.i18n import use_account_language

KEYWORDS = ("token", "bearer")
# Writing last_used_at on every request would turn every read into a write; a minute is precise enough.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class ApiTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request):
        header = authentication.get_authorization_header(request).decode("latin-1").split()
        if not header or header[0].lower() not in KEYWORDS:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Invalid token header: expected 'Token <key>' or 'Bearer <key>'.")
        token = ApiToken.find_active(header[1])
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        use_account_language(token.user)  # the account's language for a token client too (issue 29)
        return token.user, token

    def authenticate_header(self, request) -> str:
        return 'Token realm="api"'
