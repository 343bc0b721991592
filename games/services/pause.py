"""Pausing a game by unanimous vote (issue 7).

Every player still at the table (seats not played by the bot) and still in the game must vote to pause: a player
out of it (the miniatures game's free-for-all, M131; the card game's melee: the summary's `eliminated`) neither
votes nor is waited for. While paused,
deadlines and clocks are frozen (each seat keeps the time it had left), and actions are refused, so nothing
moves. Any one player resumes the game: the consent that paused it no longer holds. A vote may be
vetoed through games.signals.vote_check (tournaments lock votes that could spoil results).
"""
from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.engine import get_ruleset
from games.errors import GameError, conflict, game_over
from games.models import Game
from games.services import clocks, notify
from games.services.play import lock_game
from games.signals import vote_check


def do_vote_pause(game_id: int, user, *, pause: bool) -> Game:
    with transaction.atomic():
        game = lock_game(game_id)
        seat = game.seat_for(user)
        if seat is None or seat.is_bot:
            raise GameError("forbidden", gettext("Only players at the table vote."), status_code=403)
        if not game.is_active():
            raise game_over(game)
        if seat.seat in out_of_the_game(game):
            raise GameError("forbidden", gettext("You are out of the game: the players still in it decide a pause."),
                            status_code=403)
        for _receiver, reason in vote_check.send(sender=Game, game=game, seat=seat.seat, kind="pause"):
            if isinstance(reason, str):
                raise conflict("votes_locked", reason, version=game.version)
        if pause:
            _vote_to_pause(game, seat.seat)
        else:
            _resume_or_withdraw(game, seat.seat)
        game.save()
        notify.after_commit(game, [], seats_changed=True)
        return game


def out_of_the_game(game: Game) -> set[str]:
    """The seats the game has eliminated (its summary's `eliminated`; none in most games)."""
    eliminated = get_ruleset(game.ruleset).summary(game.state).get("eliminated")
    return set(eliminated) if isinstance(eliminated, list) else set()


def _vote_to_pause(game: Game, seat: str) -> None:
    if game.is_paused():
        raise conflict("already_paused", gettext("The game is already paused."), version=game.version)
    if seat not in game.pause_votes:
        game.pause_votes = sorted([*game.pause_votes, seat])
    players = set(game.seats.filter(is_bot=False).values_list("seat", flat=True)) - out_of_the_game(game)
    if players <= set(game.pause_votes):
        _freeze(game)


def _freeze(game: Game) -> None:
    now = timezone.now()
    for seat in game.seats.all():
        if seat.deadline_at is not None:
            seat.paused_remaining = max(0.0, (seat.deadline_at - now).total_seconds())
            seat.deadline_at = None
            clocks.freeze(seat, now)  # a running clock stops: the pause costs no time
            seat.save(update_fields=["paused_remaining", "deadline_at", "clock_remaining", "clock_started_at"])
    game.deadline_at = None
    game.paused_at = now
    game.pause_votes = []


def _resume_or_withdraw(game: Game, seat: str) -> None:
    if not game.is_paused():
        if seat not in game.pause_votes:
            raise conflict("not_paused", gettext("The game is not paused and you have not voted to pause."),
                           version=game.version)
        game.pause_votes = [s for s in game.pause_votes if s != seat]
        return
    now = timezone.now()
    earliest = None
    for s in game.seats.all():
        if s.paused_remaining is not None:
            s.deadline_at = now + timedelta(seconds=s.paused_remaining)
            s.paused_remaining = None
            if game.has_clock() and s.clock_remaining is not None:
                s.clock_started_at = now  # its clock runs again, with the bank it had
            s.save(update_fields=["deadline_at", "paused_remaining", "clock_started_at"])
            earliest = s.deadline_at if earliest is None else min(earliest, s.deadline_at)
    game.deadline_at = earliest
    game.paused_at = None
