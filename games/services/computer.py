"""Playing against the computer (issue 26): one click makes a game where the engine's players (the
smarter player of each ruleset, `bot_action`) take every seat but yours, and a rematch of a finished game.

Both go through the lobby services, so a game against the computer is validated, seated and started
like any lobby game (options judged by the engine, decks drawn, houses picked or random); the lobby
starts at once because its only person has joined. Such games are unrated for everyone
(lobbies.COMPUTER_UNRATED). The engine's players answer at once (games/services/play.py settle);
the person has the usual time per decision, and can pause alone (games/services/pause.py: every
person at the table has voted when the only one has)."""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from games import rulesets
from games.engine import get_ruleset
from games.errors import GameError, conflict, forbidden
from games.models import Game, Lobby
from games.services import lobbies

# What one click plays, per game: the full table of A Game of Thrones, four leaders of B'Twixt
DEFAULT_SEATS = {"agot": 6, "btwixt": 4}
DEFAULT_TIME_LIMIT = 24 * 60 * 60  # the lobby form's default time per decision: a day


@dataclass(frozen=True)
class ComputerGame:
    """A game against the computer as the person asks for it; empty fields take the defaults."""

    ruleset: str
    seats: int | None = None  # how many seats in all (yours included); the game's default when None
    seat: str = ""  # your house, leader or army; empty: drawn at random
    options: dict[str, Any] = field(default_factory=dict)
    deck: str = ""  # the card game: your deck (empty: drawn at random)
    their_deck: str = ""  # the card game: the computer's deck (empty: drawn at random)
    time_limit: int = DEFAULT_TIME_LIMIT
    clock_bank: int | None = None
    clock_increment: int = 0


def seat_count(ruleset: str, seats: int | None) -> int:
    engine = get_ruleset(ruleset)
    if seats is None:
        return min(max(DEFAULT_SEATS.get(ruleset, engine.min_seats), engine.min_seats), engine.max_seats)
    return seats


def do_play_computer(user: User, request: ComputerGame) -> Game:
    """A new game of `request.ruleset` with the user in one seat and the computer in all the others."""
    if why := rulesets.refusal(request.ruleset):
        raise lobbies.invalid("ruleset", why)
    count = seat_count(request.ruleset, request.seats)
    deck, decks = request.deck, []
    if request.their_deck:  # the computer's deck chosen: all assigned in join order, the person's first
        mine = request.deck or secrets.choice(sorted(lobbies.deck_choices(request.ruleset)) or [""])
        decks, deck = [mine] + [request.their_deck] * (count - 1), ""  # a melee: each computer player brings it
    settings = lobbies.LobbySettings(
        ruleset=request.ruleset, seat_count=count, time_limit=request.time_limit,
        name="", clock_bank=request.clock_bank,  # worded when shown, in the reader's language (games/lobby_names.py)
        clock_increment=request.clock_increment, ranked=False,
        house_choice=Lobby.HouseChoice.PICK if request.seat else Lobby.HouseChoice.RANDOM,
        options=request.options, computer_seats=count - 1, decks=decks)
    lobby = lobbies.do_create_lobby(user, settings, join=True, seat=request.seat, deck=deck)
    game = lobbies.lobby_game(lobby)
    if game is None:  # cannot happen: one person fills a lobby whose other seats are the computer's
        raise GameError("invalid", gettext("The game could not start."), status_code=500)
    return game


@dataclass(frozen=True)
class Rematch:
    game: Game | None  # started: every other seat is the computer's, or the last player just joined
    lobby: Lobby  # the lobby gathering the players again (started when `game` is set)


def do_rematch(game_id: int, user: User) -> Rematch:
    """The same game again: same seats for the same people, same options, the computer in the same
    seats. Alone against the computer it starts at once. With other people it opens a lobby (private
    when the game was) in which the user takes their old seat; each player's "Rematch" joins that lobby
    in theirs, and the game starts when the last one has."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise GameError("not_found", gettext("No such game."), status_code=404)
        seats = list(game.seats.all())
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise forbidden(gettext("Only the game's players may ask for a rematch."))
        if game.is_active():
            raise conflict("game_active", gettext("The game is still being played."), version=game.version)
        open_lobby = (Lobby.objects.select_for_update().filter(rematch_of=game, status=Lobby.Status.OPEN)
                      .order_by("-created_at").first())
        if open_lobby is not None:
            if user.pk not in open_lobby.member_ids():
                lobbies.do_join_lobby(open_lobby.pk, user, seat=mine.seat, invite=open_lobby.invite_token,
                                      deck=_deck_of(game, mine.seat))
            open_lobby.refresh_from_db()
            return Rematch(lobbies.lobby_game(open_lobby), open_lobby)
        computers = sum(1 for s in seats if s.is_computer())
        people = len(seats) - computers
        # decks: brought again below; action_windows: each player's setting, carried in when the game starts
        options = {k: v for k, v in (game.options or {}).items() if k not in ("decks", "action_windows")}
        settings = lobbies.LobbySettings(
            ruleset=game.ruleset, seat_count=len(seats), time_limit=game.time_limit,
            name="", clock_bank=game.clock_bank, clock_increment=game.clock_increment,  # "Rematch of game N" when shown
            ranked=game.ranked and not computers, private=game.private, house_choice=Lobby.HouseChoice.PICK,
            options=options, max_consecutive_timeouts=game.max_consecutive_timeouts, private_chat=game.private_chat,
            spectator_chat=game.spectator_chat, computer_seats=computers, rematch_of=game,
            # anyone who does not come back may be replaced by the computer when the creator starts
            fill_with_computer=True)
        lobby = lobbies.do_create_lobby(user, settings, join=True, seat=mine.seat, deck=_deck_of(game, mine.seat))
        return Rematch(lobbies.lobby_game(lobby) if people == 1 else None, lobby)


def _deck_of(game: Game, seat: str) -> str:
    """The deck a seat brought (the card game), to bring it again; '' elsewhere."""
    decks = (game.options or {}).get("decks")
    deck = decks.get(seat, "") if isinstance(decks, dict) else ""
    if isinstance(deck, dict):  # a saved deck copied into the game (issue 30): the same saved deck again
        return deck.get("ref", "") if isinstance(deck.get("ref"), str) else ""
    return deck if isinstance(deck, str) else ""


def open_rematch(game: Game) -> Lobby | None:
    """The lobby gathering this game's players again, while it waits for them."""
    return Lobby.objects.filter(rematch_of=game, status=Lobby.Status.OPEN).order_by("-created_at").first()
