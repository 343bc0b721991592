"""Challenges (lichess's): a player invites named players (people or bot accounts) to a game with
given options; each invitee accepts or declines; when all have accepted the game starts with every
seat taken by the challenger and the invitees. See challenges/services.py and docs/bots.md."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_noop


class Challenge(models.Model):
    class Status(models.TextChoices):
        # English labels (the API's words), marked for the pages, which say them in the reader's language
        PENDING = "pending", gettext_noop("waiting for answers")
        STARTED = "started", gettext_noop("accepted by everyone: the game started")
        DECLINED = "declined", gettext_noop("declined")
        CANCELED = "canceled", gettext_noop("canceled by the challenger")
        EXPIRED = "expired", gettext_noop("expired unanswered")

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent")
    ruleset = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    time_limit = models.PositiveIntegerField(help_text="seconds per decision")
    ranked = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    expires_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"challenge {self.pk} by {self.challenger_id} ({self.status})"

    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING


class Invite(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="invites")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenge_invites")
    position = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    reason = models.CharField(max_length=16, blank=True, help_text="why it was declined (a code)")
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["position", "id"]
        constraints = [models.UniqueConstraint(fields=["challenge", "user"], name="one_invite_per_user_per_challenge")]

    def __str__(self) -> str:
        return f"{self.user_id} invited to challenge {self.challenge_id} ({self.status})"
