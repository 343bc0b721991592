"""The websockets' database work runs on a bounded pool of threads of its own (issue 28).

Channels' `database_sync_to_async` is thread-sensitive, and neither Channels nor Daphne gives a
socket a ThreadSensitiveContext of its own (Django gives one to every HTTP request): so every
socket's database calls in a server process ran one at a time on asgiref's single sync thread. In a
reconnection storm every handshake's calls queued behind every other's, all of them finished
together at the end, and past Daphne's 5 s connect timeout every one was dropped (400 sockets at
once on one process: 400 failed; benchmarks/handshake_storm.py, docs/performance.md "Chaos").

`socket_database(func)` is `database_sync_to_async(func)` on WEBSOCKET_DB_THREADS threads shared by
every socket of the process: the sockets' calls proceed side by side, and the sockets never hold
more than that many database connections in a process (with DB_POOL_SIZE they come from the same
pool as the requests'). Old connections are closed before and after each call, as Channels does,
so a connection goes back to the pool between calls. A function run this way must not depend on
its thread: no transaction spans two calls, nothing is kept in thread-locals between them.

`PooledAuthMiddleware` is Channels' AuthMiddleware (the session's user) reading the user on that
pool, and not at all when the handshake carries no session cookie.

`HandshakeGate` lets 2 x WEBSOCKET_DB_THREADS handshakes of a process proceed at a time, the others
waiting their turn in the order they came. A server's handshakes share one processor: taken all at
once, each of a storm's hundreds got its share and all of them finished together, late (past the 5 s,
all dropped); taken in turn, the first ones are answered in milliseconds and the later ones in the
time the earlier took. A handshake whose client leaves while it waits (Daphne drops it after 5 s) is
never started."""
from __future__ import annotations

import asyncio
import functools
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from channels.auth import AuthMiddleware, UserLazyObject, get_user
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.db import OperationalError, close_old_connections

_pool: ThreadPoolExecutor | None = None


def threads() -> int:
    return max(1, int(getattr(settings, "WEBSOCKET_DB_THREADS", 8)))


def pool() -> ThreadPoolExecutor:
    """The process's socket threads, made on first use (settings are read then)."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=threads(), thread_name_prefix="socket-db")
    return _pool


class SocketDatabase(SyncToAsync):
    """channels.db.DatabaseSyncToAsync on the sockets' pool instead of the one sync thread. The old
    connections are closed inside the call, where it made them: this asgiref runs the function in
    the caller's context and keeps the connections made there in that context's storage, which
    Channels' close around it (in thread_handler) does not see, so its threads kept them open."""

    def __init__(self, func: Any) -> None:
        @functools.wraps(func)
        def closing(*args: Any, **kwargs: Any) -> Any:
            close_old_connections()
            try:
                return func(*args, **kwargs)
            finally:
                close_old_connections()

        super().__init__(closing, thread_sensitive=False, executor=pool())


# lower case, as Channels' database_sync_to_async: used as a decorator
socket_database = SocketDatabase

READ_ATTEMPTS = 8  # 10 ms doubling: about 2.5 s in all


def read_again_when_locked(func: Any) -> Any:
    """A read-only function asked again when SQLite says "database table is locked". In shared-cache
    mode (the embedded mode's in-memory database, as the tests run it) a read that meets another
    connection's write to the same table fails at once instead of waiting as it does for a busy
    file: a socket checking its session while the request that revoked it was still saving the new
    session failed so (a full run's failure). Only for functions that write nothing, so that asking
    again cannot do anything twice."""
    @functools.wraps(func)
    def reading(*args: Any, **kwargs: Any) -> Any:
        for attempt in range(READ_ATTEMPTS - 1):
            try:
                return func(*args, **kwargs)
            except OperationalError as exc:
                if "locked" not in str(exc):
                    raise
            time.sleep(0.01 * 2 ** attempt)
        return func(*args, **kwargs)

    return reading


def socket_read(func: Any) -> SocketDatabase:
    """socket_database for a function that only reads (read_again_when_locked)."""
    return SocketDatabase(read_again_when_locked(func))


class PooledAuthMiddleware(AuthMiddleware):
    """Channels' AuthMiddleware, its database read on the sockets' pool. A handshake without a
    session cookie is anonymous without a read (get_user would find an empty session: a script's
    socket authenticates by token, accounts/ws_auth.py); a user the scope already holds (a test's
    communicator) is kept."""

    async def resolve_scope(self, scope: dict) -> None:
        user = scope["user"]
        if not isinstance(user, UserLazyObject):
            return
        if not getattr(scope["session"], "session_key", None):
            from django.contrib.auth.models import AnonymousUser

            user._wrapped = AnonymousUser()
            return
        user._wrapped = await socket_database(get_user.func)(scope)


def PooledAuthMiddlewareStack(inner: Any) -> Any:
    """channels.auth.AuthMiddlewareStack with PooledAuthMiddleware."""
    return CookieMiddleware(SessionMiddleware(PooledAuthMiddleware(inner)))


_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()
# the messages that end a handshake: accepted, refused (before the accept, a close refuses), or an
# HTTP answer instead (Channels' denial extension)
HANDSHAKE_ENDS = {"websocket.accept", "websocket.close", "websocket.http.response.start"}


def handshake_slots() -> asyncio.Semaphore:
    """This event loop's handshake slots (a server's one loop; each test has its own)."""
    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = asyncio.Semaphore(2 * threads())
    return gate


class HandshakeGate:
    """ASGI middleware of the websocket stack: a handshake waits for a slot (handshake_slots(), in
    the order the handshakes came) before the application sees it, and frees it when the
    application accepts or refuses the socket, or ends. A handshake whose client leaves while it
    waits is dropped unseen. The application receives the client's messages as they came."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope.get("type") != "websocket":
            await self.app(scope, receive, send)
            return
        slots = handshake_slots()
        first = await receive()  # websocket.connect
        slot = asyncio.ensure_future(slots.acquire())
        after = asyncio.ensure_future(receive())  # before the accept, only a disconnect can come
        try:
            await asyncio.wait({slot, after}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            after.cancel()
            await give_back(slots, slot)
            raise
        if not slot.done():  # the client left first
            await give_back(slots, slot)
            return
        held = True

        def free() -> None:
            nonlocal held
            if held:
                held = False
                slots.release()

        async def gated_send(message: dict) -> None:
            if message.get("type") in HANDSHAKE_ENDS:
                free()
            await send(message)

        waiting: list[Any] = [first, after]

        async def in_order() -> dict:
            if waiting:
                message = waiting.pop(0)
                return message if isinstance(message, dict) else await message
            return await receive()

        try:
            await self.app(scope, in_order, gated_send)
        finally:
            free()
            after.cancel()


async def give_back(slots: asyncio.Semaphore, slot: asyncio.Future) -> None:
    """Stop waiting for a slot; release it if it was taken meanwhile."""
    slot.cancel()
    try:
        await slot
    except asyncio.CancelledError:
        return
    slots.release()
