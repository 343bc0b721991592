"""Substitutes for abandoned seats (issue 21): a public list of games where the engine plays a seat
its player left (conceded, or timed out too often and was handed to the bot), and taking such a seat
over.

A seat is open to a substitute while the game is active, is not a tournament game (tournaments keep
the organizer's replacement, tournaments/services.py do_replace_player), and the seat is played by
the engine after its player left (GameSeat.is_bot and left_at). The taker must meet the lobby's rating
and reliability filters (ratings.services.meets_requirements) and must not hold, or have held, a seat
in the game. The take-over runs in one transaction with the game row locked: of two takers racing
for a seat one gets it and the other a 409.

Ratings (docs/ratings.md): the leaver keeps the loss (the original player of a seat taken over ranks
last, as any leaver); the substitute's game is unrated for them. Reliability: the leaver keeps the
abandonment and the decisions made before the take-over, the substitute is counted only from it on.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounts.models import User
from games.anonymity import hides_names
from games.engine import get_ruleset
from games.errors import GameError, conflict, game_over, not_found
from games.models import Game, GameSeat, SeatSubstitution
from games.queries import can_view, visible_games
from games.services import play

# lazy: the pages and the API say it in the reader's language
UNRATED_NOTE = gettext_lazy("Your result in this game does not count for your rating: the player who left keeps the loss.")


def open_seats(user=None) -> QuerySet[GameSeat]:
    """Seats a substitute may take, in games the user may see, the longest waiting first."""
    games = visible_games(user if user is not None and user.is_authenticated else None)
    return (GameSeat.objects
            .filter(game__in=games.filter(status=Game.Status.ACTIVE, tournament_table__isnull=True),
                    is_bot=True, left_at__isnull=False, user__isnull=False)
            .select_related("game", "game__lobby")
            .order_by("left_at", "game_id", "position"))


@dataclass(frozen=True)
class OpenSeat:
    seat: GameSeat
    round: int | None
    moves: int
    min_rating: int | None
    min_reliability: float | None
    allowed: bool  # the user meets the requirements and is not in the game (False when not logged in)
    reason: str | None  # why not, in words

    @property
    def game(self) -> Game:
        return self.seat.game


def listing(user=None, limit: int = 100) -> list[OpenSeat]:
    seats = list(open_seats(user)[:limit])
    if not seats:
        return []
    mine = set()
    if user is not None and user.is_authenticated:
        ids = [s.game_id for s in seats]
        mine = set(GameSeat.objects.filter(game_id__in=ids, user=user).values_list("game_id", flat=True))
        mine |= set(SeatSubstitution.objects.filter(game_id__in=ids, leaver=user).values_list("game_id", flat=True))
    rows = []
    for seat in seats:
        game, lobby = seat.game, seat.game.lobby
        reason = _why_not(user, game, seat, in_game=game.pk in mine) if user is not None and user.is_authenticated \
            else gettext("Log in to take a seat.")
        round_ = game.state.get("round") if isinstance(game.state, dict) else None
        rows.append(OpenSeat(
            seat=seat, round=round_ if isinstance(round_, int) and not isinstance(round_, bool) else None,
            moves=game.version, min_rating=lobby.min_rating if lobby else None,
            min_reliability=lobby.min_reliability if lobby else None, allowed=reason is None, reason=reason))
    return rows


def _why_not(user: User, game: Game, seat: GameSeat, *, in_game: bool) -> str | None:
    from ratings.services import meets_requirements

    if in_game:
        return gettext("You play, or played, in this game.")
    if game.lobby is not None:
        return meets_requirements(user, game.lobby)
    return None


def do_take_seat(game_id: int, seat_name: str, user: User) -> Game:
    """The user takes over the seat the engine plays since its player left, and plays on from the
    current state: the seat is theirs (is_bot off), a pending decision gets a fresh deadline (and a
    clocked game a fresh bank), the table is told (seats_changed) and the log says who took over."""
    from ratings.services import meets_requirements

    if not isinstance(seat_name, str) or not seat_name or len(seat_name) > 32:
        raise not_found("seat")
    with transaction.atomic():
        game = play.lock_game(game_id)
        if not can_view(game, user):
            raise not_found()
        if getattr(game, "tournament_table", None) is not None:
            raise GameError("forbidden", gettext("This is a tournament game: only its organizer replaces a player."),
                            status_code=403)
        seats = list(game.seats.all())
        seat = next((s for s in seats if s.seat == seat_name), None)
        if seat is None:
            raise not_found("seat")
        if not game.is_active():
            raise game_over(game)
        if any(s.user_id == user.pk for s in seats) or game.substitutions.filter(leaver=user).exists():
            raise conflict("already_in_game", gettext("You play, or played, in this game: you cannot take another seat."),
                           version=game.version)
        if not (seat.is_bot and seat.left_at is not None and seat.user_id is not None):
            raise conflict("seat_taken", gettext("This seat has a player: nobody left it, or someone took it over already."),
                           version=game.version)
        if game.lobby is not None:
            reason = meets_requirements(user, game.lobby)
            if reason is not None:
                raise GameError("requirements_not_met", reason, status_code=403)
        now = timezone.now()
        leaver = seat.user
        SeatSubstitution.objects.create(game=game, seat=seat.seat, leaver=leaver, substitute=user,
                                        left_at=seat.left_at, left_round=seat.left_round, abandoned=seat.abandoned,
                                        version=game.version,
                                        taken_at=now)
        seat.user = user
        seat.is_bot = False
        seat.left_at = None
        seat.left_round = None
        seat.abandoned = False
        seat.consecutive_timeouts = 0
        seat.extension_used = False
        seat.deadline_at = None
        fields = ["user", "is_bot", "left_at", "left_round", "abandoned", "consecutive_timeouts", "extension_used", "deadline_at"]
        if game.has_clock():  # the leaver's bank is not the substitute's: a fresh one
            seat.clock_remaining = float(game.clock_bank)
            seat.clock_started_at = None
            fields += ["clock_remaining", "clock_started_at"]
        seat.save(update_fields=fields)
        # the seat counts as newly pending: settle gives a pending decision a fresh deadline
        pending = set(get_ruleset(game.ruleset).pending(game.state)) - {seat.seat}
        play.settle(game, pending, [], seats_changed=True, now=now, seats=seats)
    return game


def log_entries(game: Game) -> list[dict]:
    """The take-overs of a game as log entries: "X takes over Y's seat." (public: who sits where is)."""
    from games.results import take_overs
    from ratings.templatetags.site_words import seat_name

    entries = []
    hidden = hides_names(game)  # anonymous players (games/anonymity.py): neither is named while the game runs
    for sub in take_overs(game):
        substitute, leaver = (None, None) if hidden else (sub.substitute, sub.leaver)
        # one whole sentence per case, in the reader's language (built per request, never stored)
        words = {"who": substitute.username if substitute else "", "seat": seat_name(sub.seat, game.ruleset),
                 "leaver": leaver.username if leaver else ""}
        if substitute and leaver:
            text = gettext("%(who)s takes over %(leaver)s's seat (%(seat)s).") % words
        elif substitute:
            text = gettext("%(who)s takes over the seat (%(seat)s).") % words
        elif leaver:
            text = gettext("A player takes over %(leaver)s's seat (%(seat)s).") % words
        else:
            text = gettext("A player takes over the seat (%(seat)s).") % words
        entries.append({"version": sub.version, "seat": sub.seat, "source": "substitute", "at": sub.taken_at,
                        "events": [{"type": "seat_taken_over", "seat": sub.seat, "version": sub.version,
                                    "player": substitute.username if substitute else None,
                                    "leaver": leaver.username if leaver else None}],
                        "lines": [{"text": text}], "text": text})
    return entries

