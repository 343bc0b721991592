from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from westeros.parsers import SafeJsonFrames


class PingConsumer(SafeJsonFrames, AsyncJsonWebsocketConsumer):
    """A health check for the websocket stack: answers every message with who the server sees (a
    frame that is not JSON gets a bad_message error; the socket stays open)."""

    async def connect(self) -> None:
        await self.accept()

    async def receive_json(self, content, **kwargs) -> None:
        user = self.scope.get("user")
        username = user.username if user is not None and user.is_authenticated else None
        await self.send_json({"type": "pong", "user": username, "echo": content})
