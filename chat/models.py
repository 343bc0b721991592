"""Game chat messages. The text is stored raw, as typed (cleaned of control characters); it is
escaped when rendered (templates autoescape; the JSON carries an escaped `html` copy beside it)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.models import Game

TABLE = "table"


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, verbose_name=gettext_lazy("game"), on_delete=models.CASCADE,
                             related_name="chat_messages")
    channel = models.CharField(gettext_lazy("channel"), max_length=80,
                               help_text=gettext_lazy('"table", or two seats in alphabetical order: "lannister-stark"'))
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("sender"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="chat_messages"
    )
    sender_seat = models.CharField(gettext_lazy("sender seat"), max_length=32)
    text = models.TextField(gettext_lazy("text"))
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)
    # Not stored: set by chat.services when the live fan-out failed (Redis down) after the commit.
    live_delivery_failed: bool = False

    class Meta:
        verbose_name = gettext_lazy("chat message")
        verbose_name_plural = gettext_lazy("chat messages")
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "channel", "-id"], name="chat_history")]

    def __str__(self) -> str:
        return f"game {self.game_id} {self.channel}: {self.sender_seat}"

    def is_private(self) -> bool:
        return self.channel != TABLE
