"""Game chat messages. The text is stored raw, as typed (cleaned of control characters); it is
escaped when rendered (templates autoescape; the JSON carries an escaped `html` copy beside it)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game

TABLE = "table"


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    channel = models.CharField(max_length=80, help_text='"table", or two seats in alphabetical order: "lannister-stark"')
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="chat_messages"
    )
    sender_seat = models.CharField(max_length=32)
    text = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)
    # Not stored: set by chat.services when the live fan-out failed (Redis down) after the commit.
    live_delivery_failed: bool = False

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "channel", "-id"], name="chat_history")]

    def __str__(self) -> str:
        return f"game {self.game_id} {self.channel}: {self.sender_seat}"

    def is_private(self) -> bool:
        return self.channel != TABLE
