"""Lobbies and games. A game is its action log plus a state snapshot with a version; replaying the
log from the seed reproduces the snapshot exactly (games/services/replay.py checks it)."""
from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.jsonfield import OrderedJSONField
from games.replay import commitment

MIN_TIME_LIMIT = 2 * 60
MAX_TIME_LIMIT = 7 * 24 * 60 * 60
# Clocks (games/services/clocks.py): a time bank per seat, from one minute to a day, and an
# increment per decision of up to ten minutes.
MIN_CLOCK_BANK = 60
MAX_CLOCK_BANK = 24 * 60 * 60
MAX_CLOCK_INCREMENT = 10 * 60


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


class Lobby(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("lobby status", "Open")
        STARTED = "started", pgettext_lazy("lobby status", "Started")
        CANCELLED = "cancelled", pgettext_lazy("lobby status", "Cancelled")

    class HouseChoice(models.TextChoices):
        ASSIGN = "assign", gettext_lazy("the creator assigns seats")
        PICK = "pick", gettext_lazy("players pick in join order")
        RANDOM = "random", gettext_lazy("random at the start")

    ruleset = models.CharField(gettext_lazy("ruleset"), max_length=32)
    name = models.CharField(gettext_lazy("name"), max_length=80, blank=True)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("creator"),
                                on_delete=models.CASCADE, related_name="created_lobbies")
    seat_count = models.PositiveSmallIntegerField(gettext_lazy("seat count"))
    ranked = models.BooleanField(gettext_lazy("ranked"), default=False)
    private = models.BooleanField(gettext_lazy("private"), default=False)
    invite_token = models.CharField(gettext_lazy("invite token"), max_length=43, unique=True, default=new_invite_token)
    password_hash = models.CharField(gettext_lazy("password hash"), max_length=128, blank=True)
    time_limit = models.PositiveIntegerField(gettext_lazy("time limit"),
                                             help_text=gettext_lazy("seconds per phase decision"))
    clock_bank = models.PositiveIntegerField(gettext_lazy("clock bank"), null=True, blank=True, help_text=(
        gettext_lazy("live play: each seat's time bank in seconds (empty: no clock, only the time per decision)")))
    clock_increment = models.PositiveIntegerField(gettext_lazy("clock increment"), default=0,
                                                  help_text=gettext_lazy("seconds added to a seat's bank per decision"))
    house_choice = models.CharField(gettext_lazy("house choice"), max_length=8, choices=HouseChoice.choices,
                                    default=HouseChoice.RANDOM)
    options = models.JSONField(gettext_lazy("options"), default=dict, blank=True)
    decks = models.JSONField(gettext_lazy("decks"), default=list, blank=True, help_text=(
        gettext_lazy("for a game played with decks (the card game): the decks the creator assigned, in join order "
        "(the creator's first); empty: each player picks a deck when joining")))
    auto_start = models.BooleanField(gettext_lazy("auto start"), default=True)
    computer_seats = models.PositiveSmallIntegerField(gettext_lazy("computer seats"), default=0, help_text=(
        gettext_lazy("seats the creator gave to the engine's players; the game is unrated when it starts with any")))
    fill_with_computer = models.BooleanField(gettext_lazy("fill with computer"), default=False, help_text=(
        gettext_lazy("the creator may start before every seat is taken: the empty seats go to the engine's players")))
    max_consecutive_timeouts = models.PositiveSmallIntegerField(gettext_lazy("max consecutive timeouts"),
        default=3, help_text=gettext_lazy("a seat timing out this many times in a row is handed to the bot (0: never)")
    )
    min_rating = models.PositiveIntegerField(gettext_lazy("min rating"), null=True, blank=True)
    min_reliability = models.FloatField(gettext_lazy("min reliability"), null=True, blank=True)
    private_chat = models.BooleanField(gettext_lazy("private chat"), default=True,
                                       help_text=gettext_lazy("players may chat privately, two seats at a time"))
    spectator_chat = models.BooleanField(gettext_lazy("spectator chat"), default=True,
                                         help_text=gettext_lazy("spectators may read the table chat"))
    status = models.CharField(gettext_lazy("status"), max_length=10, choices=Status.choices, default=Status.OPEN,
                              db_index=True)
    rematch_of = models.ForeignKey("Game", verbose_name=gettext_lazy("rematch of"), null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="rematches",
                                   help_text=gettext_lazy("the finished game whose players this lobby gathers again"))
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("lobby")
        ordering = ["-created_at", "-id"]
        verbose_name_plural = gettext_lazy("lobbies")

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The name shown: the lobby's own, else what it is ("Rematch of game 12", "tyrion against the
        computer", "tyrion's lobby") in the reader's language (games/lobby_names.py, issue 29)."""
        from games.lobby_names import title_of

        return title_of(self)

    def set_password(self, raw: str | None) -> None:
        self.password_hash = make_password(raw) if raw else ""

    def has_password(self) -> bool:
        return bool(self.password_hash)

    def password_matches(self, raw: str | None) -> bool:
        return not self.password_hash or (raw is not None and check_password(raw, self.password_hash))

    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    def member_ids(self) -> set[int]:
        return set(self.members.values_list("user_id", flat=True))

    def people_seats(self) -> int:
        """The seats people take (the others are the computer's from the start)."""
        return self.seat_count - self.computer_seats

    def is_full(self) -> bool:
        return self.members.count() >= self.people_seats()

    def seats_free(self) -> int:
        return max(0, self.people_seats() - self.members.count())


class LobbyMember(models.Model):
    lobby = models.ForeignKey(Lobby, verbose_name=gettext_lazy("lobby"), on_delete=models.CASCADE,
                              related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("user"), on_delete=models.CASCADE,
                             related_name="lobby_memberships")
    seat = models.CharField(gettext_lazy("seat"), max_length=32, blank=True,
                            help_text=gettext_lazy("the seat (house) chosen or assigned, if any"))
    deck = models.CharField(gettext_lazy("deck"), max_length=40, blank=True,
                            help_text=gettext_lazy("the deck this player brings, for games played with decks "
                                                   "(empty: drawn at random)"))
    joined_at = models.DateTimeField(gettext_lazy("joined at"), default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("lobby member")
        verbose_name_plural = gettext_lazy("lobby members")
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["lobby", "user"], name="one_seat_per_user_per_lobby"),
            models.UniqueConstraint(
                fields=["lobby", "seat"], condition=~models.Q(seat=""), name="one_user_per_seat_per_lobby"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in lobby {self.lobby_id} ({self.seat or 'no seat yet'})"


class Game(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", pgettext_lazy("game status", "Active")
        FINISHED = "finished", pgettext_lazy("game status", "Finished")
        ABANDONED = "abandoned", pgettext_lazy("game status", "Abandoned")

    ruleset = models.CharField(gettext_lazy("ruleset"), max_length=32)
    lobby = models.OneToOneField(Lobby, verbose_name=gettext_lazy("lobby"), null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="game")
    options = models.JSONField(gettext_lazy("options"), default=dict, blank=True)
    ranked = models.BooleanField(gettext_lazy("ranked"), default=False)
    private = models.BooleanField(gettext_lazy("private"), default=False)
    time_limit = models.PositiveIntegerField(gettext_lazy("time limit"), default=24 * 60 * 60)
    clock_bank = models.PositiveIntegerField(gettext_lazy("clock bank"), null=True, blank=True, help_text=(
        gettext_lazy("each seat's time bank in seconds at the start (empty: no clock)")))
    clock_increment = models.PositiveIntegerField(gettext_lazy("clock increment"), default=0,
                                                  help_text=gettext_lazy("seconds added to a seat's bank per decision"))
    status = models.CharField(gettext_lazy("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE,
                              db_index=True)
    # The seed stays secret until the game ends; its commitment is public from the start.
    seed = models.BigIntegerField(gettext_lazy("seed"))
    seed_salt = models.CharField(gettext_lazy("seed salt"), max_length=32)
    seed_hash = models.CharField(gettext_lazy("seed hash"), max_length=64)
    state = OrderedJSONField(gettext_lazy("state"))  # the engine's keys in the engine's order (games/jsonfield.py)
    version = models.PositiveIntegerField(gettext_lazy("version"), default=0)
    ranking = models.JSONField(gettext_lazy("ranking"), null=True, blank=True)
    # The earliest deadline of any seat; the sweep finds overdue games by this column alone.
    deadline_at = models.DateTimeField(gettext_lazy("deadline at"), null=True, blank=True)
    max_consecutive_timeouts = models.PositiveSmallIntegerField(gettext_lazy("max consecutive timeouts"),
        default=3, help_text=gettext_lazy("a seat timing out this many times in a row is handed to the bot (0: never)")
    )
    private_chat = models.BooleanField(gettext_lazy("private chat"), default=True,
                                       help_text=gettext_lazy("players may chat privately, two seats at a time"))
    spectator_chat = models.BooleanField(gettext_lazy("spectator chat"), default=True,
                                         help_text=gettext_lazy("spectators may read the table chat"))
    paused_at = models.DateTimeField(gettext_lazy("paused at"), null=True, blank=True,
                                     help_text=gettext_lazy("set while the players agreed to pause"))
    pause_votes = models.JSONField(gettext_lazy("pause votes"), default=list, blank=True,
                                   help_text=gettext_lazy("seats that voted to pause"))
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)
    finished_at = models.DateTimeField(gettext_lazy("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = gettext_lazy("game")
        verbose_name_plural = gettext_lazy("games")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["deadline_at"], condition=models.Q(status="active"), name="active_game_deadline"),
            # the home page's recent results, newest first: without it, a scan of every game (issue 27)
            models.Index(fields=["-finished_at"], condition=models.Q(finished_at__isnull=False),
                         name="finished_game_recent"),
            # a player's games in the order they ended (the reliability's latest games): each seat's game's
            # finished_at read from the index alone (issue 27)
            models.Index(fields=["id"], include=["finished_at"], name="game_finished_at_by_id"),
        ]

    def __str__(self) -> str:
        return f"{self.ruleset} game #{self.pk}"

    @staticmethod
    def commitment(seed: int, salt: str) -> str:
        return commitment(seed, salt)

    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    def is_paused(self) -> bool:
        return self.paused_at is not None

    def has_clock(self) -> bool:
        return self.clock_bank is not None

    def seat_for(self, user) -> GameSeat | None:
        if user is None or not user.is_authenticated:
            return None
        return next((s for s in self.seats.all() if s.user_id == user.pk), None)

    def seat_names(self) -> list[str]:
        return [s.seat for s in self.seats.all()]


class GameSeat(models.Model):
    game = models.ForeignKey(Game, verbose_name=gettext_lazy("game"), on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(gettext_lazy("seat"), max_length=32)
    position = models.PositiveSmallIntegerField(gettext_lazy("position"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("user"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="game_seats"
    )
    is_bot = models.BooleanField(gettext_lazy("is bot"), default=False,
                                 help_text=gettext_lazy("played by the engine's default player"))
    left_at = models.DateTimeField(gettext_lazy("left at"), null=True, blank=True,
                                   help_text=gettext_lazy("when the player conceded or left"))
    abandoned = models.BooleanField(gettext_lazy("abandoned"), default=False,
                                    help_text=gettext_lazy("left by timing out too often, not by conceding"))
    left_round = models.PositiveSmallIntegerField(gettext_lazy("left round"), null=True, blank=True, help_text=(
        gettext_lazy("the game's round when the player left (the computer played the seat on from then)")))
    deadline_at = models.DateTimeField(gettext_lazy("deadline at"), null=True, blank=True,
                                       help_text=gettext_lazy("when this seat's pending decision times out"))
    consecutive_timeouts = models.PositiveSmallIntegerField(gettext_lazy("consecutive timeouts"), default=0)
    paused_remaining = models.FloatField(gettext_lazy("paused remaining"), null=True, blank=True,
                                         help_text=gettext_lazy("seconds left on the deadline when paused"))
    extension_used = models.BooleanField(gettext_lazy("extension used"), default=False)
    # The seat's clock, in a game with one: the bank in seconds as of clock_started_at while it runs
    # (the seat has a decision pending), or as it stopped.
    clock_remaining = models.FloatField(gettext_lazy("clock remaining"), null=True, blank=True,
                                        help_text=gettext_lazy("seconds left in the time bank"))
    clock_started_at = models.DateTimeField(gettext_lazy("clock started at"), null=True, blank=True,
                                            help_text=gettext_lazy("when the running clock last started"))

    class Meta:
        verbose_name = gettext_lazy("game seat")
        verbose_name_plural = gettext_lazy("game seats")
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="unique_seat_per_game"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=models.Q(user__isnull=False), name="one_seat_per_user_per_game"
            ),
        ]
        indexes = [
            # a player's games newest first, a page at a time (My games): without it, every game of a busy
            # player was joined and sorted for each page (issue 27)
            # (with the seat: the reliability reads a player's seats from the index alone)
            models.Index(fields=["user", "-game"], include=["seat"], name="seat_user_newest_game"),
            # the same for the seats a player still holds (left_at is null): counting a player's games, and
            # finding which of them are in progress, read this index alone, not a busy player's 2,000 seat
            # rows (My games' counts 2.5 and 1.7 ms to 0.7 and 0.3 ms at a real site's size; issue 27)
            models.Index(fields=["user", "-game"], include=["seat"], condition=models.Q(left_at__isnull=True),
                         name="seat_user_present_game"),
            # the seats the engine plays since their player left (games/services/substitutes.py open_seats):
            # the games that need a player are found from these few, not by reading every game in
            # progress's seats (2.2 to 0.1 ms at a real site's size; issue 27, thirteenth round)
            models.Index(fields=["game"], condition=models.Q(is_bot=True, left_at__isnull=False, user__isnull=False),
                         name="seat_engine_plays_for_leaver"),
        ]

    def __str__(self) -> str:
        return f"{self.seat} in game {self.game_id}"

    def has_left(self) -> bool:
        return self.left_at is not None

    # awaits_decision in SQL: a filter on seats
    AWAITING_DECISION = models.Q(is_bot=False) & (models.Q(deadline_at__isnull=False)
                                                  | models.Q(paused_remaining__isnull=False))

    def awaits_decision(self) -> bool:
        """Whether a decision of this seat's player is pending, without reading the game's state: the
        deadline service (games/services/deadlines.py) runs a deadline for exactly those seats, in the
        transaction that stores the state, and a pause freezes it as paused_remaining."""
        return not self.is_bot and (self.deadline_at is not None or self.paused_remaining is not None)

    def is_computer(self) -> bool:
        """Played by the engine from the start (a computer opponent), not taken over after a player left."""
        return self.user_id is None and self.left_at is None


class GameAction(models.Model):
    """One entry of a game's append-only log: who did what, and the version it produced."""

    class Source(models.TextChoices):
        PLAYER = "player", pgettext_lazy("action source", "Player")
        TIMEOUT = "timeout", pgettext_lazy("action source", "Timeout")
        BOT = "bot", pgettext_lazy("action source", "Bot")

    game = models.ForeignKey(Game, verbose_name=gettext_lazy("game"), on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField(gettext_lazy("version"),
                                          help_text=gettext_lazy("the game's version after this action"))
    seat = models.CharField(gettext_lazy("seat"), max_length=32)
    action = models.JSONField(gettext_lazy("action"))
    events = models.JSONField(gettext_lazy("events"), default=list)
    source = models.CharField(gettext_lazy("source"), max_length=8, choices=Source.choices, default=Source.PLAYER)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("user"), null=True, blank=True,
                             on_delete=models.SET_NULL)
    idempotency_key = models.CharField(gettext_lazy("idempotency key"), max_length=128, blank=True)
    # sha256 of the request a key was first used with (games/services/play.py, request_fingerprint):
    # the same key with another request is refused (422) instead of answered with this action.
    request_hash = models.CharField(gettext_lazy("request hash"), max_length=64, blank=True)
    # A clocked game's clocks right after this action, for replays: {seat: {"remaining": seconds,
    # "running": bool}}; null in games without a clock.
    clocks = models.JSONField(gettext_lazy("clocks"), null=True, blank=True)
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("game action")
        verbose_name_plural = gettext_lazy("game actions")
        ordering = ["version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_action_per_version"),
            models.UniqueConstraint(
                fields=["game", "seat", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="idempotency_key_once_per_seat",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} v{self.version}: {self.seat} {self.action}"


class Presence(models.Model):
    """One open websocket of a user on a game's table."""

    game = models.ForeignKey(Game, verbose_name=gettext_lazy("game"), on_delete=models.CASCADE,
                             related_name="presences")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("user"), null=True, blank=True,
                             on_delete=models.CASCADE)
    channel_name = models.CharField(gettext_lazy("channel name"), max_length=255, unique=True)
    connected_at = models.DateTimeField(gettext_lazy("connected at"), default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("presence")
        verbose_name_plural = gettext_lazy("presences")

    def __str__(self) -> str:
        return f"{self.user_id} watching game {self.game_id}"


class SeatSubstitution(models.Model):
    """A player took over a seat the engine played after its player left (games/services/substitutes.py).
    The seat row then holds the substitute; this row keeps the leaver on record (ratings: the leaver's
    loss and abandonment stand; the substitute's game is unrated for them, docs/ratings.md) and tells
    the log who took over from whom, at which version."""

    game = models.ForeignKey(Game, verbose_name=gettext_lazy("game"), on_delete=models.CASCADE,
                             related_name="substitutions")
    seat = models.CharField(gettext_lazy("seat"), max_length=32)
    leaver = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("leaver"), null=True, blank=True,
                               on_delete=models.SET_NULL,
                               related_name="seats_left_to_substitutes")
    substitute = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("substitute"), null=True,
                                   blank=True, on_delete=models.SET_NULL,
                                   related_name="seats_taken_over")
    left_at = models.DateTimeField(gettext_lazy("left at"),
                                   help_text=gettext_lazy("when the leaver left (conceded or timed out too often)"))
    abandoned = models.BooleanField(gettext_lazy("abandoned"), default=False,
                                    help_text=gettext_lazy("the leaver timed out too often (not a concession)"))
    left_round = models.PositiveSmallIntegerField(gettext_lazy("left round"), null=True, blank=True,
                                                  help_text=gettext_lazy("the game's round when the leaver left"))
    version = models.PositiveIntegerField(gettext_lazy("version"),
                                          help_text=gettext_lazy("the game's version when the substitute took over"))
    taken_at = models.DateTimeField(gettext_lazy("taken at"), default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("seat substitution")
        verbose_name_plural = gettext_lazy("seat substitutions")
        ordering = ["version", "id"]

    def __str__(self) -> str:
        return f"{self.substitute_id} took over {self.seat} from {self.leaver_id} in game {self.game_id}"


class Deck(models.Model):
    """A card-game deck a person built (issue 30): its faction, agenda, plot deck and draw deck as card ids
    (games/engine/lcg/decks.py judges it). A game copies it when it starts, so editing it later changes no game."""

    MAX_PER_OWNER = 200

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("owner"), on_delete=models.CASCADE,
                              related_name="decks")
    name = models.CharField(gettext_lazy("name"), max_length=80)
    faction = models.CharField(gettext_lazy("faction"), max_length=20)
    agenda = models.CharField(gettext_lazy("agenda"), max_length=60, blank=True)
    plots = models.JSONField(gettext_lazy("plots"), default=list, blank=True,
                             help_text=gettext_lazy("the plot deck: card ids, one per copy"))
    draw = models.JSONField(gettext_lazy("draw deck"), default=list, blank=True,
                            help_text=gettext_lazy("the draw deck: card ids, one per copy"))
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)
    updated_at = models.DateTimeField(gettext_lazy("updated at"), default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("deck")
        verbose_name_plural = gettext_lazy("decks")
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["owner", "-updated_at"], name="deck_owner_updated")]

    def __str__(self) -> str:
        return self.name

    def cards(self) -> dict:
        """The deck as the engine reads it."""
        return {"faction": self.faction, "agenda": self.agenda or None, "plots": list(self.plots),
                "draw": list(self.draw)}


class Army(models.Model):
    """A miniatures army a person built (issue 33): its faction, game size, Commander, combat units (each with at
    most one attachment) and NCUs as card ids (games/engine/minis/armies.py judges it). A game copies it when it
    starts, so editing it later changes no game."""

    MAX_PER_OWNER = 200

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("owner"), on_delete=models.CASCADE,
                              related_name="armies")
    name = models.CharField(gettext_lazy("name"), max_length=80)
    faction = models.CharField(gettext_lazy("faction"), max_length=20)
    game_size = models.PositiveIntegerField(gettext_lazy("game size"), default=30,
                                            help_text=gettext_lazy("the agreed points"))
    commander = models.CharField(gettext_lazy("commander"), max_length=20, blank=True)
    units = models.JSONField(gettext_lazy("combat units"), default=list, blank=True,
                             help_text=gettext_lazy("[{unit, attachment?}]: card ids"))
    ncus = models.JSONField(gettext_lazy("NCUs"), default=list, blank=True,
                            help_text=gettext_lazy("the non-combat units: card ids, one per copy"))
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)
    updated_at = models.DateTimeField(gettext_lazy("updated at"), default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("army")
        verbose_name_plural = gettext_lazy("armies")
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["owner", "-updated_at"], name="army_owner_updated")]

    def __str__(self) -> str:
        return self.name

    def army(self) -> dict:
        """The army as the engine reads it."""
        return {"faction": self.faction, "game_size": self.game_size, "commander": self.commander or None,
                "units": [dict(u) for u in self.units], "ncus": list(self.ncus)}
