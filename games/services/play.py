"""Playing a game on the server: create it, apply actions, hand seats to the bot, finish it.

Every state change runs in one transaction with the game row locked (select_for_update), so
simultaneous submissions by several seats are applied one after the other and none is lost. The
websocket notification is sent only after the transaction commits, and carries the new version.
"""
from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from games.engine import EngineError, get_ruleset
from games.errors import GameError, conflict, from_engine, game_over, not_found
from games.models import Game, GameAction, GameSeat, Lobby
from games.services import notify
from games.signals import game_changed, game_finished

# A bot loop that has not ended after this many actions is an engine bug, not a long game.
MAX_BOT_ACTIONS = 20_000
SEED_BITS = 63  # fits a BigIntegerField; the public commitment also hides a 128-bit salt


@dataclass(frozen=True)
class Submitted:
    game: Game
    record: GameAction
    repeated: bool  # True when an Idempotency-Key matched an earlier submission
    seats: list[GameSeat]  # the game's seats (with their users) as the change left them


def do_create_game(
    *,
    ruleset: str,
    seating: dict[str, User | None],
    options: dict[str, Any] | None = None,
    lobby: Lobby | None = None,
    ranked: bool = False,
    private: bool = False,
    time_limit: int = 24 * 60 * 60,
    max_consecutive_timeouts: int = 3,
    seed: int | None = None,
    clock_bank: int | None = None,
    clock_increment: int = 0,
) -> Game:
    """A new game with a fresh secret seed; `seating` maps each of the ruleset's seats to its player
    (None: a bot from the start). `clock_bank`, `clock_increment`: a clock for live play, each
    player's time bank and what a decision adds to it, in seconds (games/services/clocks.py)."""
    engine = get_ruleset(ruleset)
    choices = engine.seat_choices(len(seating))
    if not set(seating) <= set(choices):
        raise GameError("invalid", gettext("Seats are chosen among: %(choices)s.") % {"choices": ", ".join(choices)})
    seats = [seat for seat in choices if seat in seating]  # the ruleset's seating order
    seed = secrets.randbits(SEED_BITS) if seed is None else seed
    salt = secrets.token_hex(16)
    if ruleset == "lcg":  # each player's action windows (their account's setting; a computer seat: every one)
        from games.engine.lcg.prompts import ACTION_WINDOWS

        options = {**(options or {}), "action_windows": {
            seat: [n for n in ACTION_WINDOWS if n in (user.action_windows or ())]
            for seat, user in seating.items() if user is not None}}
    try:
        state = engine.new_game(seats, options or {}, seed)
    except EngineError as error:
        raise GameError("invalid", error.reason, fields={"options": [error.reason]}) from None
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=ruleset,
            lobby=lobby,
            options=options or {},
            ranked=ranked,
            private=private,
            time_limit=time_limit,
            clock_bank=clock_bank,
            clock_increment=clock_increment if clock_bank is not None else 0,
            max_consecutive_timeouts=max_consecutive_timeouts,
            seed=seed,
            seed_salt=salt,
            seed_hash=Game.commitment(seed, salt),
            state=state,
        )
        GameSeat.objects.bulk_create(
            GameSeat(game=game, seat=seat, position=i, user=seating[seat], is_bot=seating[seat] is None,
                     clock_remaining=clock_bank if seating[seat] is not None else None)
            for i, seat in enumerate(seats)
        )
        settle(game, set(), [], started=True)
    return game


def lock_game(game_id: int) -> Game:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise not_found()
    return game


def do_submit_action(
    game_id: int, user: User, *, action: Any, version: Any, idempotency_key: str = ""
) -> Submitted:
    """Apply one action of the user's seat.

    `version` is the version the client saw. A client behind the current version is still served
    when its seat has not acted since then and still has a decision pending (simultaneous decisions
    land in some order); otherwise the submission is stale: 409 with the current version.

    `idempotency_key` (the Idempotency-Key header, unique per seat of a game): a retry is the same
    key with the same request, i.e. the same action (as JSON, key order aside) at the same version;
    it is answered with the action the key first applied (`repeated`), whatever happened since. The
    same key with another action or another version is a different request reusing the key: 422
    `idempotency_key_reused`, nothing applied (the convention of payment APIs). A client that
    re-fetched and wants to act again at a newer version sends a new key."""
    check_request(action, version)
    with transaction.atomic():
        game = lock_game(game_id)
        # read once, with their players and the players' notification settings: settle, the
        # notifications and the answer (games/api.py) reuse them
        seats = list(game.seats.select_related("user__notification_settings"))
        seat = next((s for s in seats if s.user_id == user.pk), None) if user.is_authenticated else None
        if seat is None:
            raise GameError("forbidden", gettext("You do not play in this game."), status_code=403)
        fingerprint = request_fingerprint(action, version) if idempotency_key else ""
        if idempotency_key:
            earlier = game.actions.filter(seat=seat.seat, idempotency_key=idempotency_key).first()
            if earlier is not None:
                # rows from before request_hash existed have none: they answer as before
                if earlier.request_hash and earlier.request_hash != fingerprint:
                    raise GameError(
                        "idempotency_key_reused",
                        gettext("This Idempotency-Key was already used with another request (action or version); "
                                "send a new key for a new request."),
                        status_code=422, fields={"Idempotency-Key": [gettext("Already used with another request.")]},
                        version=game.version, applied_version=earlier.version)
                return Submitted(game, earlier, repeated=True, seats=seats)
        engine = require_seat_may_act(game, seat, version)
        before = set(engine.pending(game.state))
        try:
            state, events = engine.apply(game.state, seat.seat, action)
        except EngineError as error:
            raise from_engine(error, game.version) from None
        record = _append(game, seat.seat, action, events, state, GameAction.Source.PLAYER, user, idempotency_key,
                         fingerprint)
        if seat.consecutive_timeouts:
            seat.consecutive_timeouts = 0
            seat.save(update_fields=["consecutive_timeouts"])
        settle(game, before, [record], seats=seats)
    return Submitted(game, record, repeated=False, seats=seats)


def check_request(action: Any, version: Any) -> None:
    """The shape of an action request: a version (a whole number) and an action (an object)."""
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise GameError("invalid", gettext("Some fields are not valid."),
                        fields={"version": [gettext("A whole number is required.")]})
    if not isinstance(action, dict):
        raise GameError("invalid", gettext("Some fields are not valid."), fields={"action": [gettext("An object is required.")]})


def require_seat_may_act(game: Game, seat: GameSeat, version: int):
    """The ruleset, if `seat` may act on `game` seen at `version`; else why not (409 or 400).

    A client behind the current version is still served when its seat has not acted since then and
    still has a decision pending (simultaneous decisions land in some order); otherwise the
    request is stale. Used by actions and by move checks (games/services/check.py)."""
    if not game.is_active():
        raise game_over(game)
    if seat.has_left():
        raise conflict("not_your_turn", gettext("You left this game; the computer plays your seat."), version=game.version)
    if game.is_paused():
        raise conflict("game_paused", gettext("The game is paused; any player may resume it."), version=game.version)
    if version > game.version:
        raise GameError("invalid", gettext("Version %(version)d does not exist yet; the game is at %(now)d.") % {
            "version": version, "now": game.version},
            fields={"version": [gettext("At most %(now)d.") % {"now": game.version}]}, version=game.version)
    engine = get_ruleset(game.ruleset)
    if version < game.version and (
        seat.seat not in engine.pending(game.state)
        or game.actions.filter(version__gt=version, seat=seat.seat).exists()
    ):
        raise conflict(
            "stale_version",
            gettext("The game moved on since version %(version)d: re-fetch it (now at version %(now)d).") % {
                "version": version, "now": game.version},
            version=game.version,
        )
    return engine


def do_concede(game_id: int, user: User) -> Game:
    """The user leaves the game: the bot takes the seat from now on, and the leaver is recorded.
    When no player is left at the table the game is abandoned."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = game.seat_for(user)
        if seat is None:
            raise GameError("forbidden", gettext("You do not play in this game."), status_code=403)
        if not game.is_active():
            raise game_over(game)
        if seat.has_left():
            raise conflict("already_left", gettext("You already left this game."), version=game.version)
        hand_to_bot(seat, abandoned=False, state=game.state)
        settle(game, set(get_ruleset(game.ruleset).pending(game.state)), [], seats_changed=True)
    return game


def abandonment_ranking(game: Game, seats: list[GameSeat] | None = None) -> list[str]:
    """Every player left: the computer's seats (they never left: such a game is unrated) rank first,
    then the one who stayed longest, the first to leave last (so a ranked game cannot be escaped by
    everyone leaving after you); seats whose player is gone from the site follow."""
    seats = list(game.seats.all()) if seats is None else seats
    players = sorted((s for s in seats if s.user_id is not None), key=lambda s: (s.left_at, s.position), reverse=True)
    computers = [s.seat for s in seats if s.is_computer()]
    return computers + [s.seat for s in players] + [s.seat for s in seats if s.user_id is None and not s.is_computer()]


def hand_to_bot(seat: GameSeat, *, abandoned: bool, state: dict | None = None) -> None:
    """The engine's default player takes the seat from now on; the leaver stays on record."""
    seat.left_at = timezone.now()
    seat.left_round = _round_of(state)
    seat.is_bot = True
    seat.abandoned = abandoned
    seat.deadline_at = None
    seat.save(update_fields=["left_at", "left_round", "is_bot", "abandoned", "deadline_at", "consecutive_timeouts"])


def _round_of(state: dict) -> int | None:
    """The round a game's state is in (every ruleset keeps it as `round`), for "left in round N"."""
    value = state.get("round") if isinstance(state, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def settle(
    game: Game, pending_before: set[str], records: list[GameAction], *, seats_changed: bool = False,
    now: datetime | None = None, started: bool = False, seats: list[GameSeat] | None = None,
    timed_out: list[GameSeat] = (),
) -> None:
    """After a change on a locked game: bots play their seats, the game ends if it is over (or is
    abandoned when no player is left), the new action rows are inserted (one query), deadlines are
    renewed, the row is saved, and the table is notified once the transaction commits. `seats`: the
    game's seats as the caller read them under the lock (read once here otherwise), so that the
    seats are read once per change rather than by every step; `timed_out`: seats among them whose
    consecutive_timeouts changed, written with the deadlines."""
    from games.services import deadlines

    seats = list(game.seats.all()) if seats is None else seats
    was_active = game.is_active()
    if (game.is_active() and not any(not s.is_bot for s in seats)
            and any(s.user_id is not None for s in seats)):
        game.status = Game.Status.ABANDONED
        game.finished_at = timezone.now()
        game.ranking = abandonment_ranking(game, seats)
    records = [*records, *_run_bots(game, seats)]
    _finish_if_over(game)
    deadlines.renew(game, pending_before, records, now, seats=seats, timed_out=timed_out)  # sets records' clocks
    _insert_actions(game)
    game.save()
    notify.after_commit(game, records, seats_changed=seats_changed, seat_names=[s.seat for s in seats])
    game_changed.send(sender=Game, game=game, pending_before=pending_before, records=records, started=started,
                      seats=seats)
    if was_active and not game.is_active():
        game_finished.send(sender=Game, game=game)


def apply_default(game: Game, seat: str, source: str) -> GameAction:
    """Apply the engine's action for `seat` on a locked game: the documented timeout default for a
    timeout, the engine's player (`bot_action`) for a seat the bot has taken over."""
    engine = get_ruleset(game.ruleset)
    if source == GameAction.Source.BOT:
        action = engine.bot_action(game.state, seat)
    else:
        action = engine.default_action(game.state, seat)
    state, events = engine.apply(game.state, seat, action)
    return _append(game, seat, action, events, state, source, None, "")


def request_fingerprint(action: Any, version: int) -> str:
    """sha256 of the request's canonical JSON (sorted keys, no spaces): what an Idempotency-Key is
    bound to."""
    canonical = json.dumps({"action": action, "version": version}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _append(game, seat, action, events, state, source, user, idempotency_key, request_hash="") -> GameAction:
    """The action's row, inserted by `settle` together with the others of the same change (one
    INSERT for a player's action and the bots' replies, or for a sweep's three timeouts)."""
    game.state = state
    game.version += 1
    record = GameAction(
        game=game,
        version=game.version,
        seat=seat,
        action=action,
        events=events,
        source=source,
        user=user,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
    )
    game.__dict__.setdefault("_unsaved_actions", []).append(record)
    return record


def _insert_actions(game: Game) -> None:
    """Insert the rows `_append` prepared (bulk_create sets their ids and created_at)."""
    unsaved = game.__dict__.pop("_unsaved_actions", [])
    if unsaved:
        GameAction.objects.bulk_create(unsaved)


def _auto_passers(engine, seats: list[GameSeat]) -> dict[str, GameSeat]:
    """The seats whose player chose "pass for me when I hold nothing playable" (issue 30; the card
    game's `nothing_to_play`), by seat name."""
    if getattr(engine, "nothing_to_play", None) is None:
        return {}
    return {s.seat: s for s in seats if not s.is_bot and s.user_id is not None and s.user.auto_pass}


def _run_bots(game: Game, seats: list[GameSeat]) -> list[GameAction]:
    """Let the engine's default player act for every bot seat that is pending, until none is; a
    player who chose "pass for me when I hold nothing playable" passes such windows at once (the
    engine says when: with their real hand nothing but pass is legal), as their own action."""
    if not game.is_active():
        return []
    engine = get_ruleset(game.ruleset)
    bots = {s.seat for s in seats if s.is_bot}
    passers = _auto_passers(engine, seats)
    records = []
    while (bots or passers) and not engine.is_over(game.state):
        pending = set(engine.pending(game.state))
        waiting = sorted(bots & pending)
        passing = sorted(s for s in set(passers) & pending if engine.nothing_to_play(game.state, s))
        if not waiting and not passing:
            break
        for seat in waiting:
            if seat in engine.pending(game.state):
                records.append(apply_default(game, seat, GameAction.Source.BOT))
        for seat in passing:
            if seat in engine.pending(game.state) and engine.nothing_to_play(game.state, seat):
                state, events = engine.apply(game.state, seat, {"pass": True})
                records.append(_append(game, seat, {"pass": True}, events, state, GameAction.Source.PLAYER,
                                       passers[seat].user, ""))
        if len(records) > MAX_BOT_ACTIONS:
            raise RuntimeError(f"bot loop in game {game.pk} did not end after {MAX_BOT_ACTIONS} actions")
    return records


def _finish_if_over(game: Game) -> None:
    engine = get_ruleset(game.ruleset)
    if game.is_active() and engine.is_over(game.state):
        game.status = Game.Status.FINISHED
        game.ranking = engine.ranking(game.state)
        game.finished_at = timezone.now()
