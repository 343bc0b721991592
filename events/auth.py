"""Authentication for async views (the event stream), where DRF's classes cannot run: the API token
of an `Authorization: Token|Bearer <key>` header (checked like accounts.authentication, off the event
loop), else the browser session (`request.auser()`)."""
from __future__ import annotations

from asgiref.sync import sync_to_async
from django.utils import timezone

from accounts.authentication import KEYWORDS, LAST_USED_RESOLUTION
from accounts.models import ApiToken
from accounts.revocation import Credential


class BadCredentials(Exception):
    """An Authorization header that is malformed, or a token that is unknown or revoked."""


def _token_for_key(key: str) -> ApiToken | None:
    token = ApiToken.find_active(key)
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


async def authenticate(request):
    """The user, None when the request carries no credentials; BadCredentials for wrong ones (a
    wrong token never falls back to the session)."""
    user, _credential = await authenticate_credential(request)
    return user


async def authenticate_credential(request) -> tuple:
    """(the user, the Credential it was authenticated with: accounts/revocation.py), (None, None)
    when the request carries no credentials; BadCredentials for wrong ones."""
    header = request.headers.get("Authorization", "").split()
    if header and header[0].lower() in KEYWORDS:
        if len(header) != 2:
            raise BadCredentials("Invalid token header: expected 'Token <key>' or 'Bearer <key>'.")
        token = await sync_to_async(_token_for_key)(header[1])
        if token is None:
            raise BadCredentials("Invalid or revoked token.")
        return token.user, Credential(token.user_id, token_id=token.pk)
    user = await request.auser()
    if not user.is_authenticated:
        return None, None
    return user, Credential(user.pk, session_key=request.session.session_key)
