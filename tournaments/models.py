"""Tournaments: an event, its registrations, rounds, tables (each linked to a games.Game) and the
seats of each table with their result. Pairing and scoring live in tournaments/pairing.py (pure);
tournaments/services.py holds every change."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.models import Game


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", gettext_lazy("Swiss tables")
        LEAGUE = "league", gettext_lazy("League (round robin of divisions)")
        ELIMINATION = "elimination", gettext_lazy("Elimination by tables")

    class Scoring(models.TextChoices):
        PLACEMENT = "placement", gettext_lazy("placement points")
        LEAGUE = "league", gettext_lazy("league points (win bonus + castles and strongholds held)")

    class Status(models.TextChoices):
        REGISTRATION = "registration"
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SWISS)
    ruleset = models.CharField(max_length=32, default="agot")
    rounds = models.PositiveSmallIntegerField(default=3, help_text="Swiss: number of rounds")
    seats_per_table = models.PositiveSmallIntegerField(default=6)
    min_seats_per_table = models.PositiveSmallIntegerField(
        default=3, help_text="short tables may have this many seats; equal to seats_per_table: byes instead")
    advance_per_table = models.PositiveSmallIntegerField(default=2, help_text="elimination: the top N of each table go on")
    division_size = models.PositiveSmallIntegerField(default=10, help_text="league: players per division")
    promotion = models.PositiveSmallIntegerField(default=2, help_text="league: players promoted/relegated per division")
    season = models.PositiveSmallIntegerField(default=1)
    previous = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_seasons")
    scoring = models.CharField(max_length=10, choices=Scoring.choices, default=Scoring.PLACEMENT)
    placement_points = models.JSONField(default=list, blank=True, help_text="points by place at a full table")
    win_bonus = models.PositiveSmallIntegerField(default=10)
    tiebreakers = models.JSONField(default=list, blank=True)
    time_limit = models.PositiveIntegerField(default=24 * 60 * 60, help_text="seconds per phase decision")
    ranked = models.BooleanField(default=False)
    options = models.JSONField(default=dict, blank=True)
    max_consecutive_timeouts = models.PositiveSmallIntegerField(default=3)
    max_no_shows = models.PositiveSmallIntegerField(
        default=2, help_text="a player who never acts in this many games is dropped (0: never)")
    registration_opens = models.DateTimeField(null=True, blank=True)
    registration_closes = models.DateTimeField(null=True, blank=True)
    check_in_required = models.BooleanField(default=False)
    capacity = models.PositiveIntegerField(null=True, blank=True)
    min_rating = models.PositiveIntegerField(null=True, blank=True)
    min_reliability = models.FloatField(null=True, blank=True)
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organized_tournaments")
    co_organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="co_organized_tournaments")
    auto_advance = models.BooleanField(default=True, help_text="start the next round when the last game ends")
    lock_votes = models.BooleanField(
        default=True, help_text="in-game votes that could spoil results (draws, kicks, restarts) are locked")
    bots_only = models.BooleanField(default=False, help_text="simulation: every seat is played by the bot")
    seed = models.BigIntegerField(default=0, help_text="the pairing seed (deterministic pairings)")
    status = models.CharField(max_length=14, choices=Status.choices, default=Status.REGISTRATION, db_index=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        # the lists' order, newest first: a page of them is read from the index (issue 27)
        indexes = [models.Index(fields=["-created_at", "-id"], name="tournament_newest_first")]

    def __str__(self) -> str:
        return self.name

    def is_organizer(self, user) -> bool:
        if user is None or not user.is_authenticated:
            return False
        return user.pk == self.organizer_id or self.co_organizers.filter(pk=user.pk).exists()

    def registration_open(self, now=None) -> bool:
        now = now or timezone.now()
        if self.status != self.Status.REGISTRATION:
            return False
        if self.registration_opens and now < self.registration_opens:
            return False
        return not (self.registration_closes and now > self.registration_closes)


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered"
        CHECKED_IN = "checked_in"
        WITHDRAWN = "withdrawn"
        DROPPED = "dropped", "dropped (no-shows or by the organizer)"
        REPLACED = "replaced"
        ELIMINATED = "eliminated"

    ACTIVE = (Status.REGISTERED, Status.CHECKED_IN)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_registrations")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERED)
    rating = models.FloatField(default=1500, help_text="the rating at seeding")
    seed_rank = models.PositiveIntegerField(null=True, blank=True)
    division = models.PositiveSmallIntegerField(default=0, help_text="league: 1 is the top division")
    no_shows = models.PositiveSmallIntegerField(default=0)
    replaces = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replaced_by")
    registered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["seed_rank", "registered_at", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_registration_per_user")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id} ({self.status})"

    def is_active(self) -> bool:
        return self.status in self.ACTIVE


class Round(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active"
        FINISHED = "finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    byes = models.ManyToManyField(Registration, blank=True, related_name="bye_rounds")
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_number")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


class Table(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing"
        FINISHED = "finished"
        ADJUDICATED = "adjudicated"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    division = models.PositiveSmallIntegerField(default=0)
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_table")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PLAYING)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round__number", "number"]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"

    def is_over(self) -> bool:
        return self.status != self.Status.PLAYING


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(max_length=32, help_text="the seat (house) in the game")
    position = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.FloatField(null=True, blank=True)
    castles = models.PositiveSmallIntegerField(default=0)
    supply = models.PositiveSmallIntegerField(default=0)
    time_used = models.FloatField(default=0, help_text="seconds the player took to decide, in total")
    abandoned = models.BooleanField(default=False)
    no_show = models.BooleanField(default=False)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.registration_id} as {self.seat} at {self.table_id}"
