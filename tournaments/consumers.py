"""The tournament websocket, /ws/tournaments/<id>/ (public, read-only).

After each committed change the connection receives {"type": "update", "tournament", "kind",
"status", "round", ...}; `kind` is one of registration, started, round_started, table_finished,
round_finished, finished, cancelled. Messages may be dropped: re-fetch
GET /api/v1/tournaments/{id}/standings (and /rounds) on every update. What a client sends is held to
the limits of every socket (westeros/consumers.py, FrameLimits: message size, frames a second). Its
database reads run on the sockets' own threads (westeros/socket_db.py), as the game socket's do."""
from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext

from accounts.revocation import CLOSE_REVOKED, ClosesOnRevocation
from tournaments.models import Tournament
from tournaments.services import group_name
from westeros.consumers import FrameLimits, PooledConsumer
from westeros.outages import scope_language
from westeros.parsers import SafeJsonFrames
from westeros.socket_db import socket_database


class TournamentConsumer(PooledConsumer, FrameLimits, ClosesOnRevocation, SafeJsonFrames, AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.group = None
        status = await self._status()
        if status is None:
            await self.close(code=4404)
            return
        if not await self.watch_credential():  # revoked since the handshake authenticated it
            await self.close(code=CLOSE_REVOKED)
            return
        self.group = group_name(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "hello", "tournament": self.tournament_id, "status": status})

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        with translation.override(scope_language(self.scope)):  # the socket's language, as the game socket's
            detail = gettext("This socket only sends updates.")
        await self.send_json({"type": "error", "error": "read_only", "detail": detail, "fields": {}})

    async def tournament_update(self, message: dict[str, Any]) -> None:
        await self.send_json({**message, "type": "update"})

    @socket_database
    def _status(self) -> str | None:
        return Tournament.objects.filter(pk=self.tournament_id).values_list("status", flat=True).first()
