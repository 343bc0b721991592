from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class PingConsumer(AsyncJsonWebsocketConsumer):
    """A health check for the websocket stack: answers every message with who the server sees."""

    async def connect(self) -> None:
        await self.accept()

    async def receive_json(self, content, **kwargs) -> None:
        user = self.scope.get("user")
        username = user.username if user is not None and user.is_authenticated else None
        await self.send_json({"type": "pong", "user": username, "echo": content})
