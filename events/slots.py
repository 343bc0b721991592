"""How many event streams a user may hold open at once (EVENT_STREAMS_PER_USER; lichess limits its
own): each open stream holds a slot in the cache that every server process shares (Redis; in
embedded mode the one process's memory). A slot is a key claimed atomically (`add`), renewed by its
stream while it runs, and freed when it ends; the slot of a stream whose process died frees itself
when it expires, SLOT_SECONDS after its last renewal."""
from __future__ import annotations

from django.core.cache import cache

SLOT_SECONDS = 30.0  # a stream renews its slot at least every KEEPALIVE_SECONDS (7 s)


def _key(user_id: int, slot: int) -> str:
    return f"events:stream:{user_id}:{slot}"


async def claim(user_id: int, stream_id: str, limit: int) -> int | None:
    """The number of the slot this stream now holds, or None when all `limit` are held."""
    for slot in range(limit):
        if await cache.aadd(_key(user_id, slot), stream_id, SLOT_SECONDS):
            return slot
    return None


async def renew(user_id: int, slot: int, stream_id: str) -> None:
    """Keep the slot while the stream runs (unless it expired and another stream took it)."""
    if await cache.aget(_key(user_id, slot)) == stream_id:
        await cache.atouch(_key(user_id, slot), SLOT_SECONDS)


async def release(user_id: int, slot: int, stream_id: str) -> None:
    if await cache.aget(_key(user_id, slot)) == stream_id:
        await cache.adelete(_key(user_id, slot))
