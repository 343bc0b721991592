"""Challenges (lichess's): a player invites named players (people or bot accounts) to a game with
given options; each invitee accepts or declines; when all have accepted the game starts with every
seat taken by the challenger and the invitees. See challenges/services.py and docs/bots.md."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy, gettext_noop


class Challenge(models.Model):
    class Status(models.TextChoices):
        # English labels (the API's words), marked for the pages, which say them in the reader's language
        PENDING = "pending", gettext_noop("waiting for answers")
        STARTED = "started", gettext_noop("accepted by everyone: the game started")
        DECLINED = "declined", gettext_noop("declined")
        CANCELED = "canceled", gettext_noop("canceled by the challenger")
        EXPIRED = "expired", gettext_noop("expired unanswered")

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("challenger"),
                                   on_delete=models.CASCADE, related_name="challenges_sent")
    ruleset = models.CharField(gettext_lazy("ruleset"), max_length=32)
    options = models.JSONField(gettext_lazy("options"), default=dict, blank=True)
    time_limit = models.PositiveIntegerField(gettext_lazy("time limit"), help_text=gettext_lazy("seconds per decision"))
    ranked = models.BooleanField(gettext_lazy("ranked"), default=False)
    status = models.CharField(gettext_lazy("status"), max_length=10, choices=Status.choices, default=Status.PENDING,
                              db_index=True)
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now, db_index=True)
    expires_at = models.DateTimeField(gettext_lazy("expires at"))
    ended_at = models.DateTimeField(gettext_lazy("ended at"), null=True, blank=True)
    deck = models.CharField(gettext_lazy("deck"), max_length=40, blank=True, help_text=gettext_lazy(
        "the card game: the deck the challenger brings, a ready-made one or their saved deck (empty: drawn at random)"))
    game = models.ForeignKey("games.Game", verbose_name=gettext_lazy("game"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = gettext_lazy("challenge")
        verbose_name_plural = gettext_lazy("challenges")
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

    challenge = models.ForeignKey(Challenge, verbose_name=gettext_lazy("challenge"), on_delete=models.CASCADE,
                                  related_name="invites")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("user"), on_delete=models.CASCADE,
                             related_name="challenge_invites")
    position = models.PositiveSmallIntegerField(gettext_lazy("position"), default=0)
    status = models.CharField(gettext_lazy("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    reason = models.CharField(gettext_lazy("reason"), max_length=16, blank=True,
                              help_text=gettext_lazy("why it was declined (a code)"))
    answered_at = models.DateTimeField(gettext_lazy("answered at"), null=True, blank=True)
    deck = models.CharField(gettext_lazy("deck"), max_length=40, blank=True, help_text=gettext_lazy(
        "the card game: the deck this player brings, chosen on accepting (empty: drawn at random)"))

    class Meta:
        verbose_name = gettext_lazy("invite")
        verbose_name_plural = gettext_lazy("invites")
        ordering = ["position", "id"]
        constraints = [models.UniqueConstraint(fields=["challenge", "user"], name="one_invite_per_user_per_challenge")]

    def __str__(self) -> str:
        return f"{self.user_id} invited to challenge {self.challenge_id} ({self.status})"
