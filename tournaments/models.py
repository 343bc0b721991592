"""Tournaments: an event, its registrations, rounds, tables (each linked to a games.Game) and the
seats of each table with their result. Pairing and scoring live in tournaments/pairing.py (pure);
tournaments/services.py holds every change."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy, pgettext_lazy

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
        REGISTRATION = "registration", pgettext_lazy("tournament status", "Registration")
        RUNNING = "running", pgettext_lazy("tournament status", "Running")
        FINISHED = "finished", pgettext_lazy("tournament status", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("tournament status", "Cancelled")

    name = models.CharField(gettext_lazy("name"), max_length=120)
    description = models.TextField(gettext_lazy("description"), blank=True)
    format = models.CharField(gettext_lazy("format"), max_length=12, choices=Format.choices, default=Format.SWISS)
    ruleset = models.CharField(gettext_lazy("ruleset"), max_length=32, default="agot")
    rounds = models.PositiveSmallIntegerField(gettext_lazy("rounds"), default=3,
                                              help_text=gettext_lazy("Swiss: number of rounds"))
    seats_per_table = models.PositiveSmallIntegerField(gettext_lazy("seats per table"), default=6)
    min_seats_per_table = models.PositiveSmallIntegerField(
        gettext_lazy("min seats per table"), default=3,
        help_text=gettext_lazy("short tables may have this many seats; equal to seats_per_table: byes instead"))
    advance_per_table = models.PositiveSmallIntegerField(
        gettext_lazy("advance per table"), default=2,
        help_text=gettext_lazy("elimination: the top N of each table go on"))
    division_size = models.PositiveSmallIntegerField(gettext_lazy("division size"), default=10,
                                                     help_text=gettext_lazy("league: players per division"))
    promotion = models.PositiveSmallIntegerField(
        gettext_lazy("promotion"), default=2, help_text=gettext_lazy("league: players promoted/relegated per division"))
    season = models.PositiveSmallIntegerField(gettext_lazy("season"), default=1)
    previous = models.ForeignKey("self", verbose_name=gettext_lazy("previous"), null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="next_seasons")
    scoring = models.CharField(gettext_lazy("scoring"), max_length=10, choices=Scoring.choices,
                               default=Scoring.PLACEMENT)
    placement_points = models.JSONField(gettext_lazy("placement points"), default=list, blank=True,
                                        help_text=gettext_lazy("points by place at a full table"))
    win_bonus = models.PositiveSmallIntegerField(gettext_lazy("win bonus"), default=10)
    tiebreakers = models.JSONField(gettext_lazy("tiebreakers"), default=list, blank=True)
    time_limit = models.PositiveIntegerField(gettext_lazy("time limit"), default=24 * 60 * 60,
                                             help_text=gettext_lazy("seconds per phase decision"))
    ranked = models.BooleanField(gettext_lazy("ranked"), default=False)
    options = models.JSONField(gettext_lazy("options"), default=dict, blank=True)
    max_consecutive_timeouts = models.PositiveSmallIntegerField(gettext_lazy("max consecutive timeouts"), default=3)
    max_no_shows = models.PositiveSmallIntegerField(gettext_lazy("max no shows"),
        default=2, help_text=gettext_lazy("a player who never acts in this many games is dropped (0: never)"))
    registration_opens = models.DateTimeField(gettext_lazy("registration opens"), null=True, blank=True)
    registration_closes = models.DateTimeField(gettext_lazy("registration closes"), null=True, blank=True)
    check_in_required = models.BooleanField(gettext_lazy("check in required"), default=False)
    capacity = models.PositiveIntegerField(gettext_lazy("capacity"), null=True, blank=True)
    min_rating = models.PositiveIntegerField(gettext_lazy("min rating"), null=True, blank=True)
    min_reliability = models.FloatField(gettext_lazy("min reliability"), null=True, blank=True)
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("organizer"),
                                  on_delete=models.CASCADE, related_name="organized_tournaments")
    co_organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("co organizers"),
                                           blank=True, related_name="co_organized_tournaments")
    auto_advance = models.BooleanField(gettext_lazy("auto advance"), default=True,
                                       help_text=gettext_lazy("start the next round when the last game ends"))
    lock_votes = models.BooleanField(
        gettext_lazy("lock votes"), default=True,
        help_text=gettext_lazy("in-game votes that could spoil results (draws, kicks, restarts) are locked"))
    bots_only = models.BooleanField(gettext_lazy("bots only"), default=False,
                                    help_text=gettext_lazy("simulation: every seat is played by the bot"))
    seed = models.BigIntegerField(gettext_lazy("seed"), default=0,
                                  help_text=gettext_lazy("the pairing seed (deterministic pairings)"))
    status = models.CharField(gettext_lazy("status"), max_length=14, choices=Status.choices,
                              default=Status.REGISTRATION, db_index=True)
    current_round = models.PositiveSmallIntegerField(gettext_lazy("current round"), default=0)
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)
    started_at = models.DateTimeField(gettext_lazy("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(gettext_lazy("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = gettext_lazy("tournament")
        verbose_name_plural = gettext_lazy("tournaments")
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
        REGISTERED = "registered", pgettext_lazy("registration status", "Registered")
        CHECKED_IN = "checked_in", pgettext_lazy("registration status", "Checked In")
        WITHDRAWN = "withdrawn", pgettext_lazy("registration status", "Withdrawn")
        DROPPED = "dropped", gettext_lazy("dropped (no-shows or by the organizer)")
        REPLACED = "replaced", pgettext_lazy("registration status", "Replaced")
        ELIMINATED = "eliminated", pgettext_lazy("registration status", "Eliminated")

    ACTIVE = (Status.REGISTERED, Status.CHECKED_IN)

    tournament = models.ForeignKey(Tournament, verbose_name=gettext_lazy("tournament"), on_delete=models.CASCADE,
                                   related_name="registrations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("user"), on_delete=models.CASCADE,
                             related_name="tournament_registrations")
    status = models.CharField(gettext_lazy("status"), max_length=12, choices=Status.choices, default=Status.REGISTERED)
    rating = models.FloatField(gettext_lazy("rating"), default=1500, help_text=gettext_lazy("the rating at seeding"))
    seed_rank = models.PositiveIntegerField(gettext_lazy("seed rank"), null=True, blank=True)
    division = models.PositiveSmallIntegerField(gettext_lazy("division"), default=0,
                                                help_text=gettext_lazy("league: 1 is the top division"))
    no_shows = models.PositiveSmallIntegerField(gettext_lazy("no shows"), default=0)
    replaces = models.ForeignKey("self", verbose_name=gettext_lazy("replaces"), null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="replaced_by")
    registered_at = models.DateTimeField(gettext_lazy("registered at"), default=timezone.now)
    deck = models.JSONField(gettext_lazy("deck"), null=True, blank=True, help_text=gettext_lazy(
        "the card game: the deck the player brings to every game of the event, fixed when they register (a "
        "ready-made deck's key, or a copy of their saved deck); empty: the tournament's options decide"))
    army = models.JSONField(gettext_lazy("army"), null=True, blank=True, help_text=gettext_lazy(
        "the miniatures game: the army the player brings to every game of the event, fixed when they register (a "
        "copy of their saved army, or a starter army); empty: each table gives them a house and its starter army"))
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("partner"), null=True,
                                blank=True, on_delete=models.SET_NULL, related_name="+", help_text=gettext_lazy(
                                    "two against two: the player named as partner (a team when both name each other)"))
    team = models.PositiveSmallIntegerField(gettext_lazy("team"), null=True, blank=True, help_text=gettext_lazy(
        "two against two: the team's number, given at the start"))

    class Meta:
        verbose_name = gettext_lazy("registration")
        verbose_name_plural = gettext_lazy("registrations")
        ordering = ["seed_rank", "registered_at", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_registration_per_user")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id} ({self.status})"

    def is_active(self) -> bool:
        return self.status in self.ACTIVE


class Round(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", pgettext_lazy("round status", "Active")
        FINISHED = "finished", pgettext_lazy("round status", "Finished")

    tournament = models.ForeignKey(Tournament, verbose_name=gettext_lazy("tournament"), on_delete=models.CASCADE,
                                   related_name="round_set")
    number = models.PositiveSmallIntegerField(gettext_lazy("number"))
    status = models.CharField(gettext_lazy("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    byes = models.ManyToManyField(Registration, verbose_name=gettext_lazy("byes"), blank=True,
                                  related_name="bye_rounds")
    started_at = models.DateTimeField(gettext_lazy("started at"), default=timezone.now)
    finished_at = models.DateTimeField(gettext_lazy("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = gettext_lazy("round")
        verbose_name_plural = gettext_lazy("rounds")
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_number")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


class Table(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", pgettext_lazy("table status", "Playing")
        FINISHED = "finished", pgettext_lazy("table status", "Finished")
        ADJUDICATED = "adjudicated", pgettext_lazy("table status", "Adjudicated")

    round = models.ForeignKey(Round, verbose_name=gettext_lazy("round"), on_delete=models.CASCADE,
                              related_name="tables")
    number = models.PositiveSmallIntegerField(gettext_lazy("number"))
    division = models.PositiveSmallIntegerField(gettext_lazy("division"), default=0)
    game = models.OneToOneField(Game, verbose_name=gettext_lazy("game"), null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="tournament_table")
    status = models.CharField(gettext_lazy("status"), max_length=12, choices=Status.choices, default=Status.PLAYING)
    finished_at = models.DateTimeField(gettext_lazy("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = gettext_lazy("table")
        verbose_name_plural = gettext_lazy("tables")
        ordering = ["round__number", "number"]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"

    def is_over(self) -> bool:
        return self.status != self.Status.PLAYING


class TableSeat(models.Model):
    table = models.ForeignKey(Table, verbose_name=gettext_lazy("table"), on_delete=models.CASCADE, related_name="seats")
    registration = models.ForeignKey(Registration, verbose_name=gettext_lazy("registration"), on_delete=models.CASCADE,
                                     related_name="seats")
    seat = models.CharField(gettext_lazy("seat"), max_length=32, help_text=gettext_lazy("the seat (house) in the game"))
    position = models.PositiveSmallIntegerField(gettext_lazy("position"))
    place = models.PositiveSmallIntegerField(gettext_lazy("place"), null=True, blank=True)
    points = models.FloatField(gettext_lazy("points"), null=True, blank=True)
    castles = models.PositiveSmallIntegerField(gettext_lazy("castles"), default=0)
    supply = models.PositiveSmallIntegerField(gettext_lazy("supply"), default=0)
    time_used = models.FloatField(gettext_lazy("time used"), default=0,
                                  help_text=gettext_lazy("seconds the player took to decide, in total"))
    abandoned = models.BooleanField(gettext_lazy("abandoned"), default=False)
    no_show = models.BooleanField(gettext_lazy("no show"), default=False)

    class Meta:
        verbose_name = gettext_lazy("table seat")
        verbose_name_plural = gettext_lazy("table seats")
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.registration_id} as {self.seat} at {self.table_id}"
