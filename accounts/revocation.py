"""Revoked credentials close the live connections opened with them, at once (issue 28).

A websocket (games, tournaments, ping) or an event stream (events/stream.py) is opened with one
credential: an API token, or a browser session. Every such connection joins its user's group
`credentials.<user id>` on the channel layer (in-memory or Redis alike). When a credential of the
user stops being valid, a `credential.revoked` message goes to that group after the commit:

- a token is revoked (ApiToken.revoke: the tokens page, DELETE /api/v1/me/tokens/<id>): the
  message names the token's id;
- a session logs out (Django's user_logged_out signal): the message names the session, by a hash
  of its key (the key itself never travels);
- the password changes (User.save with a new password): every session made before it holds the
  old password's session hash, which Django refuses from now on; the message names nothing.

Each connection that hears it closes when the message names its own credential, else checks its
credential against the database (a session still logged in with the current password's hash, a
token not revoked) and closes when that fails; a socket of another token of the same user stays
open. Websockets close with CLOSE_REVOKED (4001) and a reason, after an
{"type": "error", "error": "credential_revoked", "detail"} message; a stream ends with a last line
{"type": "credentialRevoked", "reason"}. A connection that missed the message (the layer dropped
it) finds out at its next check (the stream's keep-alive tick, a websocket's next chat message)."""
from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, user_logged_out
from django.db import transaction
from django.utils.crypto import constant_time_compare

from westeros.socket_db import socket_read

log = logging.getLogger(__name__)

MESSAGE_TYPE = "credential.revoked"
CLOSE_REVOKED = 4001  # the private range mirror of HTTP's 401
REASONS = {
    "token_revoked": "The API token this connection was opened with was revoked.",
    "logged_out": "The session this connection was opened with logged out.",
    "password_changed": "The account's password changed: log in again.",
    "invalid": "The credential this connection was opened with is no longer valid.",
}


def group(user_id: int) -> str:
    return f"credentials.{user_id}"


def session_digest(session_key: str) -> str:
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Credential:
    """What a live connection was opened with: a token (token_id) or a session (session_key)."""

    user_id: int
    token_id: int | None = None
    session_key: str | None = None

    @property
    def group(self) -> str:
        return group(self.user_id)

    def is_named_by(self, message: dict[str, Any]) -> bool:
        if self.token_id is not None:
            return message.get("token_id") == self.token_id
        return self.session_key is not None and message.get("session") == session_digest(self.session_key)


def credential_from_scope(scope: dict[str, Any]) -> Credential | None:
    """A websocket's credential: the token accounts.ws_auth put in the scope, else the session the
    user was read from; None for an anonymous socket (or a test's scope without either)."""
    user = scope.get("user")
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if scope.get("api_token_id") is not None:
        return Credential(user.pk, token_id=scope["api_token_id"])
    session = scope.get("session")
    key = getattr(session, "session_key", None) if session is not None else None
    if key and str(session.get(SESSION_KEY)) == str(user.pk):
        return Credential(user.pk, session_key=key)
    return None


def why_invalid(credential: Credential) -> str | None:
    """None while the credential still authenticates its user, else why it no longer does (a key of
    REASONS; a database read). A connection that finds out by asking, before the revocation's message
    reaches it, then says the same reason the message would have."""
    from accounts.models import ApiToken, User

    if credential.token_id is not None:
        token = ApiToken.objects.filter(pk=credential.token_id, user_id=credential.user_id).values_list(
            "revoked_at", "user__is_active").first()
        if token is None or token[0] is not None:
            return "token_revoked"
        return None if token[1] else "invalid"
    if credential.session_key is None:
        return None
    data = import_module(settings.SESSION_ENGINE).SessionStore(session_key=credential.session_key).load()
    if str(data.get(SESSION_KEY)) != str(credential.user_id):
        return "logged_out"
    user = User.objects.filter(pk=credential.user_id, is_active=True).first()
    if user is None:
        return "invalid"
    held = data.get(HASH_SESSION_KEY) or ""
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return None if any(constant_time_compare(held, current) for current in hashes) else "password_changed"


def is_valid(credential: Credential) -> bool:
    """Whether the credential still authenticates its user (a database read)."""
    return why_invalid(credential) is None


ais_valid = database_sync_to_async(is_valid)
awhy_invalid = database_sync_to_async(why_invalid)
# the websockets' check: on their own threads (westeros/socket_db.py), not asgiref's one sync thread;
# a read, asked again when SQLite's shared cache finds the session table locked by a request's write
socket_is_valid = socket_read(is_valid)
socket_why_invalid = socket_read(why_invalid)


async def revokes(credential: Credential | None, message: dict[str, Any], valid=ais_valid) -> bool:
    """Whether a credential.revoked message ends the connection opened with `credential` (`valid`:
    how the database is asked)."""
    if credential is None:
        return False
    return credential.is_named_by(message) or not await valid(credential)


def announce(user_id: int, reason: str, *, token_id: int | None = None, session_key: str | None = None) -> None:
    """Tell the user's live connections, after the commit, that one of the user's credentials ended."""
    message: dict[str, Any] = {"type": MESSAGE_TYPE, "reason": reason}
    if token_id is not None:
        message["token_id"] = token_id
    if session_key:
        message["session"] = session_digest(session_key)

    def send() -> None:
        from channels.layers import get_channel_layer

        from westeros import live

        live.send_in_order(get_channel_layer(), [(group(user_id), message)], log, f"a credential of user {user_id}")

    transaction.on_commit(send)


def on_logged_out(sender, request, user, **kwargs) -> None:
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if user is not None and key:
        announce(user.pk, "logged_out", session_key=key)


def connect() -> None:
    user_logged_out.connect(on_logged_out, dispatch_uid="accounts.revocation.logged_out")


class ClosesOnRevocation:
    """A websocket consumer mixin: `await self.watch_credential()` in connect() (after the consumer
    has decided to accept, before accept()) joins the user's credentials group, and returns False
    when the credential was revoked already (close instead). The group is left with the consumer's
    other groups (self.groups). A consumer that reads the database in one call of its own at
    connect (games/consumers.py) joins with `credential_groups()` instead, then checks `is_valid`
    in that call. The database is read on the sockets' threads (westeros/socket_db.py)."""

    credential: Credential | None = None
    credential_closed = False

    def credential_groups(self) -> list[str]:
        """The group to join before checking the credential ([] for an anonymous socket)."""
        self.credential = credential_from_scope(self.scope)
        return [] if self.credential is None else [self.credential.group]

    async def watch_credential(self) -> bool:
        for name in self.credential_groups():
            await self.channel_layer.group_add(name, self.channel_name)
            self.groups = [*(self.groups or []), name]
        if self.credential is None:
            return True
        # revoked between the middleware's authentication and joining the group: nobody told us
        return await socket_is_valid(self.credential)

    async def credential_still_valid(self) -> bool:
        """Check the credential now; when it is no longer valid, close the socket and say False."""
        reason = None if self.credential is None else await socket_why_invalid(self.credential)
        if reason is None:
            return True
        await self.close_revoked(reason)
        return False

    async def credential_revoked(self, message: dict[str, Any]) -> None:
        if not self.credential_closed and await revokes(self.credential, message, valid=socket_is_valid):
            await self.close_revoked(message.get("reason", "invalid"))

    async def close_revoked(self, reason: str) -> None:
        if self.credential_closed:
            return
        self.credential_closed = True
        self.frames_refused = True  # FrameLimits: nothing more the client sends is read
        detail = REASONS.get(reason, REASONS["invalid"])
        await self.send_json({"type": "error", "error": "credential_revoked", "detail": detail, "fields": {}})
        await self.close(code=CLOSE_REVOKED, reason=reason.replace("_", " "))
