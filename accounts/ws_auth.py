"""Websocket authentication by API token, for scripts: `?token=<key>` in the URL or an
`Authorization: Token|Bearer <key>` header. Browsers use their session (AuthMiddlewareStack)."""
from __future__ import annotations

from urllib.parse import parse_qs

from accounts.models import ApiToken
from westeros.socket_db import socket_database


@socket_database  # on the sockets' own threads, not asgiref's one (issue 28)
def _token_for_key(key: str) -> ApiToken | None:
    token = ApiToken.find_active(key)
    return token if token is not None and token.user.is_active else None


def _key_from_scope(scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            parts = value.decode("latin-1").split()
            if len(parts) == 2 and parts[0].lower() in ("token", "bearer"):
                return parts[1]
    query = parse_qs(scope.get("query_string", b"").decode())
    return query.get("token", [None])[0]


class TokenAuthMiddleware:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        key = _key_from_scope(scope)
        if key:
            token = await _token_for_key(key)
            if token is None:
                # A wrong token must not fall back to the session: refuse the connection.
                await send({"type": "websocket.close", "code": 4401})
                return
            # the token's id: the socket closes when it is revoked (accounts/revocation.py)
            scope = {**scope, "user": token.user, "api_token_id": token.pk}
        return await self.app(scope, receive, send)
