"""Elo ratings per (user, ruleset, format) and the history of every change."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from ratings import elo

STANDARD_FORMAT = "standard"


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("user"), on_delete=models.CASCADE,
                             related_name="ratings")
    ruleset = models.CharField(gettext_lazy("ruleset"), max_length=32)
    format = models.CharField(gettext_lazy("format"), max_length=32, default=STANDARD_FORMAT)
    rating = models.FloatField(gettext_lazy("rating"), default=elo.START_RATING)
    games = models.PositiveIntegerField(gettext_lazy("games"), default=0,
                                        help_text=gettext_lazy("ranked games counted in this rating"))
    last_played = models.DateTimeField(gettext_lazy("last played"), null=True, blank=True,
                                       help_text=gettext_lazy("when the last counted game finished"))

    class Meta:
        verbose_name = gettext_lazy("rating")
        verbose_name_plural = gettext_lazy("ratings")
        ordering = ["-rating", "user_id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "ruleset", "format"], name="one_rating_per_user_ruleset_format"),
        ]
        indexes = [
            models.Index(fields=["ruleset", "format", "-rating"], name="rating_leaderboard"),
            # the leaderboard's count of its players, active lately, read from the index alone (issue 27)
            models.Index(fields=["ruleset", "format", "last_played"], include=["user"], name="rating_active_players"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.ruleset}/{self.format}: {self.rating:.0f}"


class RatingChange(models.Model):
    """One player's rating before and after one ranked game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("user"), on_delete=models.CASCADE,
                             related_name="rating_changes")
    game = models.ForeignKey("games.Game", verbose_name=gettext_lazy("game"), on_delete=models.CASCADE,
                             related_name="rating_changes")
    ruleset = models.CharField(gettext_lazy("ruleset"), max_length=32)
    format = models.CharField(gettext_lazy("format"), max_length=32, default=STANDARD_FORMAT)
    seat = models.CharField(gettext_lazy("seat"), max_length=32)
    placement = models.PositiveSmallIntegerField(gettext_lazy("placement"),
                                                 help_text=gettext_lazy("1 = first; leavers share the last place"))
    before = models.FloatField(gettext_lazy("before"))
    after = models.FloatField(gettext_lazy("after"))
    played_at = models.DateTimeField(gettext_lazy("played at"), default=timezone.now,
                                     help_text=gettext_lazy("when the game finished"))
    # The game's RatedGame.sequence, copied here when the game is numbered (ratings/services.py _apply,
    # _write), so a player's history is read down its own index (user, sequence), not by walking every
    # numbered game until the player's are found (issue 27). Null: a game never numbered.
    sequence = models.BigIntegerField(gettext_lazy("sequence"), null=True, blank=True, editable=False,
                                      help_text=gettext_lazy("the order its game was applied to the ratings in"))

    class Meta:
        verbose_name = gettext_lazy("rating change")
        verbose_name_plural = gettext_lazy("rating changes")
        ordering = ["-played_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_change_per_user_per_game")]
        # the ids of a player's latest changes, read from the index alone (ratings/services.py history)
        indexes = [models.Index(fields=["user", "sequence"], include=["id"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.user_id} in game {self.game_id}: {self.before:.0f} -> {self.after:.0f}"

    @property
    def delta(self) -> float:
        return self.after - self.before


class RatedGame(models.Model):
    """A game applied to the ratings, once. `sequence` is the order it was applied in, and the order
    recompute_ratings replays. The row is inserted after the players' rating rows are locked, so of
    two games sharing a player the one applied second always gets the higher number, even when both
    finish at the same instant in two processes (PostgreSQL takes the number from the column's
    sequence at insert, one at a time; SQLite has one writer at a time). Games without a shared
    player may be numbered in either order: their results do not depend on it."""

    sequence = models.BigAutoField(gettext_lazy("sequence"), primary_key=True)
    game = models.OneToOneField("games.Game", verbose_name=gettext_lazy("game"), on_delete=models.CASCADE,
                                related_name="rated")

    class Meta:
        verbose_name = gettext_lazy("rated game")
        verbose_name_plural = gettext_lazy("rated games")
        ordering = ["sequence"]

    def __str__(self) -> str:
        return f"game {self.game_id} rated #{self.sequence}"
