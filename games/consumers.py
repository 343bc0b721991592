"""The game websocket, /ws/games/<id>/.

After each commit every connection receives {"type": "update", "version", "events"} with the
events filtered for its seat (spectators: the public view). Versions let a client see a gap and
re-fetch the game over REST, since Channels may drop messages. Presence (who is connected) is sent
to the whole table whenever it changes.

Chat (chat/services.py): a client sends {"type": "chat", "channel": "table" | "<seatA>-<seatB>",
"text": ...}; the message reaches only the channel's members as {"type": "chat", "id", "channel",
"sender", "seat", "text", "html", "created_at"} (`text` is raw: render it as text, or insert the
escaped `html`); a refusal comes back as {"type": "error", "error", "detail", "fields"}."""
from __future__ import annotations

import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from chat import services as chat
from games import queries
from games.errors import GameError
from games.models import Game, Presence
from games.services.notify import seat_group, spectator_group, table_group

log = logging.getLogger(__name__)


class GameConsumer(AsyncJsonWebsocketConsumer):
    groups: list[str]

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.groups = []
        user = self.scope.get("user")
        info = await self._join_info(user, self._invite())
        if info is None:
            await self.close(code=4404)
            return
        seat, version = info
        self.seat = seat
        own = seat_group(self.game_id, seat) if seat else spectator_group(self.game_id)
        for group in (own, table_group(self.game_id)):
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups.append(group)
        await self.accept()
        await self.send_json({"type": "hello", "game": self.game_id, "seat": seat, "version": version})
        await self._set_presence(user, present=True)
        await self._broadcast_presence()

    async def disconnect(self, code) -> None:
        for group in getattr(self, "groups", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "groups", None):
            await self._set_presence(self.scope.get("user"), present=False)
            await self._broadcast_presence()

    async def receive_json(self, content, **kwargs) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong", "version": await self._version()})
        elif kind == "chat":
            await self._chat(content)
        else:
            await self.send_json({"type": "error", "error": "bad_message",
                                  "detail": "Send {\"type\": \"ping\"} or {\"type\": \"chat\", \"channel\", \"text\"}; "
                                            "actions go to POST /api/v1/games/<id>/actions."})

    async def _chat(self, content: dict) -> None:
        try:
            await database_sync_to_async(chat.do_send_message)(
                self.game_id, self.scope.get("user"), content.get("channel"), content.get("text"))
        except GameError as error:
            await self.send_json(chat.error_payload(error, content.get("ref")))
        except Exception:  # keep the socket open; the message was not stored
            log.exception("chat message refused by a server error in game %s", self.game_id)
            await self.send_json({"type": "error", "error": "server_error", "fields": {},
                                  "detail": "The server failed; the message was not sent."})

    async def chat_message(self, message) -> None:
        members = message.get("seats")
        if members is not None and self.seat not in members:  # delivery is by group; this is a second lock
            return
        await self.send_json({"type": "chat", **message["message"]})

    async def game_update(self, message) -> None:
        await self.send_json({"type": "update", "version": message["version"], "status": message["status"],
                              "events": message["events"], "seats_changed": message.get("seats_changed", False)})

    async def table_presence(self, message) -> None:
        await self.send_json({"type": "presence", "connected": message["connected"]})

    def _invite(self) -> str | None:
        from urllib.parse import parse_qs

        return parse_qs(self.scope.get("query_string", b"").decode()).get("invite", [None])[0]

    @database_sync_to_async
    def _join_info(self, user, invite) -> tuple[str | None, int] | None:
        game = Game.objects.filter(pk=self.game_id).prefetch_related("seats").first()
        if game is None or not queries.can_view(game, user, invite):
            return None
        return queries.viewer_seat(game, user), game.version

    @database_sync_to_async
    def _version(self) -> int:
        return Game.objects.filter(pk=self.game_id).values_list("version", flat=True).first() or 0

    @database_sync_to_async
    def _set_presence(self, user, *, present: bool) -> None:
        if present:
            Presence.objects.create(game_id=self.game_id, channel_name=self.channel_name,
                                    user=user if user is not None and user.is_authenticated else None)
        else:
            Presence.objects.filter(channel_name=self.channel_name).delete()

    @database_sync_to_async
    def _connected(self) -> list[str]:
        names = Presence.objects.filter(game_id=self.game_id, user__isnull=False).values_list(
            "user__username", flat=True)
        return sorted(set(names))

    async def _broadcast_presence(self) -> None:
        await self.channel_layer.group_send(
            table_group(self.game_id), {"type": "table.presence", "connected": await self._connected()}
        )
