"""Per-user notification settings, and one row per notification decided (the dedupe key and the
delivery record)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.models import Game


class Kind(models.TextChoices):
    YOUR_TURN = "your_turn", gettext_lazy("It is your turn")
    DEADLINE_NEAR = "deadline_near", gettext_lazy("A deadline is near")
    GAME_STARTED = "game_started", gettext_lazy("A game started")
    GAME_ENDED = "game_ended", gettext_lazy("A game ended")
    CHALLENGE = "challenge", gettext_lazy("Someone challenged you")  # notifications/challenges.py (no game yet)


class NotificationSettings(models.Model):
    """A user's choices; a user without a row has the defaults (everything on, no webhook)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("user"), on_delete=models.CASCADE,
                                related_name="notification_settings")
    email_your_turn = models.BooleanField(gettext_lazy("e-mail: your turn"), default=True)
    email_deadline_near = models.BooleanField(gettext_lazy("e-mail: deadline near"), default=True)
    email_game_started = models.BooleanField(gettext_lazy("e-mail: game started"), default=True)
    email_game_ended = models.BooleanField(gettext_lazy("e-mail: game ended"), default=True)
    email_challenge = models.BooleanField(gettext_lazy("e-mail: someone challenged you"), default=True)
    webhook_url = models.URLField(
        gettext_lazy("webhook URL"), max_length=500, blank=True,
        help_text=gettext_lazy("optional; receives a Discord-compatible JSON body {\"content\": \"...\"}"),
    )
    webhook_your_turn = models.BooleanField(gettext_lazy("webhook: your turn"), default=True)
    webhook_deadline_near = models.BooleanField(gettext_lazy("webhook: deadline near"), default=True)
    webhook_game_started = models.BooleanField(gettext_lazy("webhook: game started"), default=True)
    webhook_game_ended = models.BooleanField(gettext_lazy("webhook: game ended"), default=True)
    webhook_challenge = models.BooleanField(gettext_lazy("webhook: someone challenged you"), default=True)
    updated_at = models.DateTimeField(gettext_lazy("updated at"), auto_now=True)

    class Meta:
        verbose_name = gettext_lazy("notification settings")
        verbose_name_plural = gettext_lazy("notification settings")

    def __str__(self) -> str:
        return f"notification settings of {self.user_id}"

    def wants_email(self, kind: str) -> bool:
        return bool(getattr(self, f"email_{kind}"))

    def wants_webhook(self, kind: str) -> bool:
        return bool(self.webhook_url) and bool(getattr(self, f"webhook_{kind}"))

    def wants(self, kind: str) -> bool:
        return self.wants_email(kind) or self.wants_webhook(kind)


class Notification(models.Model):
    """One notification to one user. `key` makes each one happen once (a deadline warned once per
    deadline, a turn once per version); the task claims the row before sending (at most once)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("user"), on_delete=models.CASCADE,
                             related_name="notifications")
    # none for a challenge (Kind.CHALLENGE: the game starts once everyone accepted)
    game = models.ForeignKey(Game, verbose_name=gettext_lazy("game"), on_delete=models.CASCADE,
                             related_name="notifications", null=True, blank=True)
    kind = models.CharField(gettext_lazy("kind"), max_length=16, choices=Kind.choices)
    key = models.CharField(gettext_lazy("key"), max_length=200, unique=True)
    data = models.JSONField(gettext_lazy("data"), default=dict, blank=True)
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)
    claimed_at = models.DateTimeField(gettext_lazy("claimed at"), null=True, blank=True,
                                      help_text=gettext_lazy("when a task took it for sending"))
    emailed_at = models.DateTimeField(gettext_lazy("emailed at"), null=True, blank=True)
    webhook_at = models.DateTimeField(gettext_lazy("webhook at"), null=True, blank=True,
                                      help_text=gettext_lazy("when the webhook answered 2xx"))
    error = models.CharField(gettext_lazy("error"), max_length=300, blank=True)

    class Meta:
        verbose_name = gettext_lazy("notification")
        verbose_name_plural = gettext_lazy("notifications")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at"], name="notifications_of_user")]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user_id} (game {self.game_id})"
