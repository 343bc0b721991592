"""Lobby actions: create, join, leave, kick, assign seats, cancel, start. Each runs in one
transaction with the lobby row locked, so two joins racing for the last seat cannot both win."""
from __future__ import annotations

import dataclasses
import functools
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import get_language, gettext, gettext_noop, ngettext, pgettext_lazy

from accounts.models import User
from games import rulesets
from games.engine import EngineError, get_ruleset
from games.engine.base import ScenarioSetupError
from games.errors import GameError, conflict, forbidden, not_found
from games.models import (
    MAX_CLOCK_BANK,
    MAX_CLOCK_INCREMENT,
    MAX_TIME_LIMIT,
    MIN_CLOCK_BANK,
    MIN_TIME_LIMIT,
    Game,
    Lobby,
    LobbyMember,
)
from ratings.services import meets_requirements


@dataclass(frozen=True)
class LobbySettings:
    ruleset: str
    seat_count: int
    time_limit: int
    name: str = ""
    # live play: each seat's time bank and the increment per decision, in seconds (None: no clock)
    clock_bank: int | None = None
    clock_increment: int = 0
    ranked: bool = False
    private: bool = False
    password: str = ""
    house_choice: str = Lobby.HouseChoice.RANDOM
    options: dict[str, Any] | None = None
    auto_start: bool = True
    max_consecutive_timeouts: int = 3
    min_rating: int | None = None
    min_reliability: float | None = None
    private_chat: bool = True
    spectator_chat: bool = True
    # games played with decks (the card game): the decks the creator assigns, in join order (the
    # creator's first); empty: each player picks one when joining (or gets one drawn at random)
    decks: tuple[str, ...] | list[str] = ()
    # seats the engine's players take from the start (a game that starts with any is unrated for everyone)
    computer_seats: int = 0
    # the creator may start before every seat is taken: the empty seats go to the engine's players
    fill_with_computer: bool = False
    rematch_of: Game | None = None


# marked for translation; the pages and the API's refusal translate it where they say it (gettext)
COMPUTER_UNRATED = gettext_noop("Games that start with computer players are unrated for everyone.")
# A lobby's status in the refusals' words ("This lobby is started."), in the reader's language.
STATUS_WORDS = {"open": pgettext_lazy("a lobby", "open"), "started": pgettext_lazy("a lobby", "started"),
                "cancelled": pgettext_lazy("a lobby", "cancelled")}


def status_words(status: str) -> str:
    return str(STATUS_WORDS.get(status, status))


def invalid(field: str, message: str) -> GameError:
    return GameError("invalid", gettext("Some fields are not valid."), fields={field: [message]})


def validate_settings(s: LobbySettings) -> None:
    if why := rulesets.refusal(s.ruleset):
        raise invalid("ruleset", why)
    ruleset = get_ruleset(s.ruleset)
    if not ruleset.min_seats <= s.seat_count <= ruleset.max_seats:
        raise invalid("seats", rulesets.players_words(s.ruleset, ruleset.min_seats, ruleset.max_seats))
    if not MIN_TIME_LIMIT <= s.time_limit <= MAX_TIME_LIMIT:
        raise invalid("time_limit", gettext("The time limit is from %(low)d seconds to %(high)d (7 days).") % {
            "low": MIN_TIME_LIMIT, "high": MAX_TIME_LIMIT})
    if s.clock_bank is not None and not MIN_CLOCK_BANK <= s.clock_bank <= MAX_CLOCK_BANK:
        raise invalid("clock_bank", gettext("A time bank is from %(low)d seconds to %(high)d (a day).") % {
            "low": MIN_CLOCK_BANK, "high": MAX_CLOCK_BANK})
    if not 0 <= s.clock_increment <= MAX_CLOCK_INCREMENT:
        raise invalid("clock_increment", gettext("The increment is from 0 to %(high)d seconds (10 minutes).") % {
            "high": MAX_CLOCK_INCREMENT})
    if s.clock_bank is None and s.clock_increment:
        raise invalid("clock_increment", gettext("An increment needs a clock: give a time bank (clock_bank) too."))
    if s.house_choice not in Lobby.HouseChoice.values:
        raise invalid("house_choice", gettext("Choose one of: %(choices)s.") % {"choices": ", ".join(Lobby.HouseChoice.values)})
    if s.min_reliability is not None and not 0 <= s.min_reliability <= 1:
        raise invalid("min_reliability", gettext("A reliability is a share between 0 and 1."))
    if not 0 <= s.computer_seats < s.seat_count:
        raise invalid("computer_seats", gettext("Computer players: from 0 to %(most)d (one seat at least is a person's).") % {
            "most": s.seat_count - 1})
    if s.computer_seats and s.ranked:
        raise invalid("ranked", gettext("%(unrated)s Leave Ranked unticked, or give no seat to the computer.") % {
            "unrated": gettext(COMPUTER_UNRATED)})
    _validate_decks(s)
    if why := rulesets.options_refusal(s.ruleset, s.options or {}):
        raise invalid("options", why)
    seats = ruleset.seat_names(s.seat_count)
    if s.ruleset == "minis" and s.seat_count == 2:  # Stark and Lannister, or one house's two armies (issue 33)
        from games.services import armies as saved

        if why := saved.duel_armies_refusal(s.options or {}):
            raise invalid("options", why)
        seats = saved.duel_seats(s.options or {})
    # The engine is the judge of its options: it must accept them for a table of this size.
    try:
        ruleset.new_game(seats, s.options or {}, 0)
    except (EngineError, ScenarioSetupError) as error:
        raise invalid("options", getattr(error, "reason", None) or str(error)) from None


def deck_choices(ruleset: str) -> dict[str, str]:
    """{deck id: name} when players of `ruleset` bring decks (games/engine/base.py), else {}."""
    return dict(_deck_choices_in(ruleset, get_language()))


@functools.cache
def _deck_choices_in(ruleset: str, language: str) -> dict[str, str]:
    """deck_choices in one language, worked out once per process: the engine's decks do not change
    while it runs, and the home page, the challenge and lobby forms list them on every request (issue 27)."""
    hook = getattr(get_ruleset(ruleset), "deck_choices", None)
    return hook() if hook else {}


def _deck_names(ruleset: str) -> str:
    return ", ".join(f"{key} ({name})" for key, name in deck_choices(ruleset).items())


def unknown_deck(field: str, deck: str, ruleset: str) -> GameError:
    """The refusal of a deck no one has: `detail` says so in a sentence; the field's message keeps every deck the
    site plays with its key, for programs (what they may send instead)."""
    return GameError("invalid", gettext("There is no deck called “%(deck)s”: choose one of the ready-made decks or "
                                        "one of your saved decks.") % {"deck": deck},
                     fields={field: [gettext("Unknown deck %(deck)r; choose among: %(choices)s.") % {
                         "deck": deck, "choices": _deck_names(ruleset)}]})


def _validate_decks(s: LobbySettings) -> None:
    choices = deck_choices(s.ruleset)
    if not choices:
        if s.decks:
            raise invalid("decks", gettext("%(ruleset)s is not played with decks.") % {"ruleset": s.ruleset})
        return
    if "decks" in (s.options or {}):
        raise invalid("options", gettext("Decks are not an option here: assign them with `decks` (in join order, "
                                         "yours first) or let each player pick one with `deck` when joining."))
    people = s.seat_count - s.computer_seats  # then the computer's, in seat order, or drawn at random
    if s.decks and len(s.decks) not in (people, s.seat_count):
        raise invalid("decks", gettext("Assign one deck per player (%(people)d), in join order, or none to let each player "
                                        "pick.") % {"people": people})
    for i, deck in enumerate(s.decks):
        if i == 0 and saved_deck_id(deck) is not None:
            continue  # the creator's own saved deck (issue 30): checked with its owner, do_create_lobby
        if deck not in choices:
            raise unknown_deck("decks", deck, s.ruleset)


def saved_deck_id(deck: str):
    from games.services import decks as saved

    return saved.saved_id(deck)


def check_deck(lobby: Lobby, deck: str, user: User | None = None) -> str:
    """The deck a joining player brings: their pick (a ready-made deck, or one of their saved decks that is
    legal and played by the engine, issue 30), or the next one the creator assigned."""
    choices = deck_choices(lobby.ruleset)
    if choices and deck and saved_deck_id(deck) is not None and not lobby.decks:
        from games.services import decks as saved

        saved.usable(deck, user)
        return deck
    if not choices:
        if deck:
            raise invalid("deck", gettext("%(ruleset)s is not played with decks.") % {"ruleset": lobby.ruleset})
        return ""
    if lobby.decks:
        if deck:
            raise invalid("deck", gettext("In this lobby the creator assigns the decks."))
        held = list(lobby.members.values_list("deck", flat=True))
        remaining = list(lobby.decks)
        for d in held:
            if d in remaining:
                remaining.remove(d)
        return remaining[0] if remaining else ""
    if deck and deck not in choices:
        raise unknown_deck("deck", deck, lobby.ruleset)
    return deck


def saved_game_deck(deck: str, user: User) -> object:
    """A ready-made deck's key, or a saved deck copied into the game (fixed from then on, issue 30)."""
    from games.services import decks as saved

    return saved.game_deck(deck, user)


def with_saved_armies(creator: User, settings: LobbySettings) -> LobbySettings:
    """The miniatures game (issue 33): a seat's army given as one of the creator's saved armies ("army:<id>") is
    copied into the options as the engine reads it, if it is the creator's, legal, of the seat's faction, of the
    game's size and fielded by the engine (else 400 in words); the game keeps that copy."""
    options = settings.options if isinstance(settings.options, dict) else None
    armies = options.get("armies") if settings.ruleset == "minis" and options else None
    if settings.ruleset == "minis" and options and settings.seat_count in (2, 3, 4):
        from games.services import armies as saved  # under 30 points: the starter armies cut down to the size

        seats = (saved.duel_seats(options) if settings.seat_count == 2
                 else get_ruleset("minis").seat_names(settings.seat_count))
        options = saved.with_fitted_armies(options, seats)
        settings = dataclasses.replace(settings, options=options)
        armies = options.get("armies")
    if not isinstance(armies, dict) or not any(isinstance(v, str) and v.startswith("army:") for v in armies.values()):
        return settings
    from games.services import armies as saved

    size = options.get("game_size", rulesets.MINIS_GAME_SIZE)
    copied = dict(armies)
    for seat, ref in armies.items():
        if not (isinstance(ref, str) and ref.startswith("army:")):
            continue
        army = saved.usable(ref, creator, size if isinstance(size, int) else None)
        if army.faction != saved.seat_house(seat):
            raise invalid("options", gettext("%(army)s is an army of %(house)s: it cannot take the %(seat)s seat.") % {
                "army": army.name, "house": saved.rules.house(army.faction),
                "seat": saved.rules.house(saved.seat_house(seat))})
        saved.fits_its_corner(settings.seat_count, options, army, seat)
        copied[seat] = saved.rules.engine_list(army.army())
    return dataclasses.replace(settings, options={**options, "armies": copied})


def lock_lobby(lobby_id: int) -> Lobby:
    lobby = Lobby.objects.select_for_update().filter(pk=lobby_id).first()
    if lobby is None:
        raise not_found("lobby")
    return lobby


def can_see(lobby: Lobby, user: User | None, invite: str | None = None) -> bool:
    if not lobby.private:
        return True
    if user is not None and user.is_authenticated and (lobby.creator_id == user.pk or user.pk in lobby.member_ids()):
        return True
    return invite is not None and secrets.compare_digest(invite, lobby.invite_token)


def seat_choices(lobby: Lobby) -> list[str]:
    if lobby.ruleset == "minis" and lobby.seat_count == 2:
        # Stark and Lannister, or one house's two armies once the lobby's options or a member's army made it a mirror
        # match (issue 33: games/services/armies.py duel_seats)
        from games.services.armies import duel_seats

        return duel_seats(lobby.options or {}, set(lobby.members.exclude(seat="").values_list("seat", flat=True)))
    return get_ruleset(lobby.ruleset).seat_choices(lobby.seat_count)


def free_seats(lobby: Lobby) -> list[str]:
    taken = set(lobby.members.exclude(seat="").values_list("seat", flat=True))
    return [seat for seat in seat_choices(lobby) if seat not in taken]


@transaction.atomic
def do_create_lobby(creator: User, settings: LobbySettings, *, join: bool = True, seat: str = "",
                    deck: str = "") -> Lobby:
    settings = with_saved_armies(creator, settings)
    validate_settings(settings)
    if settings.decks and saved_deck_id(settings.decks[0]) is not None:
        from games.services import decks as saved

        saved.usable(settings.decks[0], creator)  # the creator's own deck, legal and played by the engine
    lobby = Lobby(
        ruleset=settings.ruleset,
        name=settings.name,
        creator=creator,
        seat_count=settings.seat_count,
        ranked=settings.ranked,
        private=settings.private,
        time_limit=settings.time_limit,
        clock_bank=settings.clock_bank,
        clock_increment=settings.clock_increment,
        house_choice=settings.house_choice,
        options=settings.options or {},
        auto_start=settings.auto_start,
        max_consecutive_timeouts=settings.max_consecutive_timeouts,
        min_rating=settings.min_rating,
        min_reliability=settings.min_reliability,
        private_chat=settings.private_chat,
        spectator_chat=settings.spectator_chat,
        decks=list(settings.decks),
        computer_seats=settings.computer_seats,
        fill_with_computer=settings.fill_with_computer,
        rematch_of=settings.rematch_of,
    )
    lobby.set_password(settings.password)
    lobby.save()
    if join:
        _add_member(lobby, creator, seat, deck)
        if lobby.auto_start and lobby.is_full():  # every other seat is the computer's: play at once
            return _start(lobby)
    return lobby


def _add_member(lobby: Lobby, user: User, seat: str, deck: str = "") -> LobbyMember:
    if lobby.ruleset == "minis" and deck:  # issue 33: the person's saved army, which takes a seat of its house
        from games.services import armies as saved

        seat = saved.lobby_seat(lobby, deck, user, seat, free_seats(lobby))
        return LobbyMember.objects.create(lobby=lobby, user=user, seat=seat, deck=deck)
    deck = check_deck(lobby, deck, user)
    if seat:
        if lobby.house_choice != Lobby.HouseChoice.PICK:
            raise invalid("seat", gettext("In this lobby seats are not picked by the players."))
        if seat not in seat_choices(lobby):
            raise invalid("seat", gettext("Choose one of: %(choices)s.") % {"choices": ", ".join(seat_choices(lobby))})
        if seat not in free_seats(lobby):
            raise conflict("seat_taken", gettext("%(seat)s is already taken.") % {"seat": seat})
    elif lobby.house_choice == Lobby.HouseChoice.PICK:
        raise invalid("seat", gettext("Pick a seat: %(seats)s.") % {"seats": ", ".join(free_seats(lobby))})
    return LobbyMember.objects.create(lobby=lobby, user=user, seat=seat, deck=deck)


def do_join_lobby(
    lobby_id: int, user: User, *, seat: str = "", password: str | None = None, invite: str | None = None,
    deck: str = "", address: str | None = None,
) -> Lobby:
    """`address`: the client's address, for the password throttle's per-address count (the views pass it)."""
    with transaction.atomic():
        lobby = lock_lobby(lobby_id)
        if not can_see(lobby, user, invite):
            raise not_found("lobby")
        if not lobby.is_open():
            raise conflict("lobby_closed", gettext("This lobby is %(status)s.") % {"status": status_words(lobby.status)})
        if user.pk in lobby.member_ids():
            raise conflict("already_joined", gettext("You already have a seat in this lobby."))
        if lobby.is_full():
            raise conflict("lobby_full", gettext("Every seat is taken."))
        if lobby.has_password() and lobby.creator_id != user.pk:
            _check_lobby_password(lobby, user, password, address)
        if lobby.creator_id != user.pk and (reason := meets_requirements(user, lobby)) is not None:
            raise GameError("requirements_not_met", reason, status_code=403)
        _add_member(lobby, user, seat, deck)
        if lobby.auto_start and lobby.is_full():
            return _start(lobby)
        return lobby


class LobbyPasswordThrottled(GameError):
    """429 in the API's error shape; `wait` becomes the Retry-After header (DRF's handler)."""

    def __init__(self, wait: int, detail: str, *, code: str = "throttled", status_code: int = 429):
        super().__init__(code, detail, status_code=status_code, retry_after=wait)
        self.wait = wait


def _password_failures_key(lobby_id: int, user_id: int) -> str:
    return f"lobby-pass-fail:{lobby_id}:{user_id}"


def _lobby_failures_key(lobby_id: int) -> str:
    return f"lobby-pass-fail:lobby:{lobby_id}"


def _lobby_slow_key(lobby_id: int) -> str:
    return f"lobby-pass-slow:lobby:{lobby_id}"


def _address_failures_key(address: str) -> str:
    return f"lobby-pass-fail:ip:{address}"


def _check_lobby_password(lobby: Lobby, user: User, password: str | None, address: str | None = None) -> None:
    """Lobby passwords are throttled like log-ins (accounts/throttle.py), each count over
    LOGIN_FAILURE_WINDOW_SECONDS from its first failure, and checked before the password is:

    - per user and lobby: LOBBY_PASSWORD_FAILURES (5) wrong guesses lock that user out of that
      lobby's password (429, Retry-After the window);
    - per client address: LOBBY_PASSWORD_FAILURES_PER_IP (20) wrong guesses, whatever the users and
      lobbies, lock that address's lobby passwords (many accounts from one place);
    - per lobby across every user and address: past LOBBY_PASSWORD_CEILING (20) wrong guesses the
      lobby is slowed, never locked: one guess every LOGIN_SLOWDOWN_SECONDS (10) from everyone
      together, the others told "try again in N seconds" (429), so a campaign of many accounts is
      slowed to a crawl and the players the creator told the password still get in.

    When the counts cannot be read or written (Redis down) the guess is refused (503), as a log-in is."""
    from django.conf import settings as django_settings
    from django.core.cache import cache

    from accounts.throttle import count_failures, slowdown_seconds
    from westeros.outages import REDIS_ERRORS, RETRY_AFTER_SECONDS

    limit = getattr(django_settings, "LOBBY_PASSWORD_FAILURES", 5)
    per_address = getattr(django_settings, "LOBBY_PASSWORD_FAILURES_PER_IP", 20)
    ceiling = getattr(django_settings, "LOBBY_PASSWORD_CEILING", 20)
    window = django_settings.LOGIN_FAILURE_WINDOW_SECONDS
    keys = [_password_failures_key(lobby.pk, user.pk), _lobby_failures_key(lobby.pk)]
    if address:
        keys.append(_address_failures_key(address))
    try:
        counts = cache.get_many(keys)
        if counts.get(keys[0], 0) >= limit or (address and counts.get(keys[2], 0) >= per_address):
            minutes = max(1, window // 60)
            raise LobbyPasswordThrottled(window, gettext(
                "Too many wrong passwords for this lobby. Try again in %(minutes)d minutes, or ask its creator "
                "for the password or an invitation.") % {"minutes": minutes})
        if counts.get(keys[1], 0) >= ceiling and not cache.add(_lobby_slow_key(lobby.pk), 1, slowdown_seconds()):
            seconds = slowdown_seconds()
            raise LobbyPasswordThrottled(seconds, ngettext(
                "Too many wrong passwords for this lobby from many players. Try again in %(seconds)d second.",
                "Too many wrong passwords for this lobby from many players. Try again in %(seconds)d seconds.",
                seconds) % {"seconds": seconds})
        if lobby.password_matches(password):
            return
        count_failures(keys, window)
    except REDIS_ERRORS:
        raise LobbyPasswordThrottled(RETRY_AFTER_SECONDS, gettext("Joining a lobby with a password is temporarily "
                                     "unavailable. Try again in a minute."), code="unavailable",
                                     status_code=503) from None
    raise forbidden(gettext("Wrong lobby password."))


@transaction.atomic
def do_leave_lobby(lobby_id: int, user: User) -> Lobby:
    lobby = lock_lobby(lobby_id)
    if not lobby.is_open():
        raise conflict("lobby_closed", gettext("This lobby is %(status)s; leave the game instead.") % {
            "status": status_words(lobby.status)})
    deleted, _ = lobby.members.filter(user=user).delete()
    if not deleted:
        raise conflict("not_joined", gettext("You have no seat in this lobby."))
    return lobby


@transaction.atomic
def do_kick(lobby_id: int, creator: User, username: str) -> Lobby:
    lobby = _lock_open_lobby_of(lobby_id, creator)
    if username == creator.username:
        raise invalid("user", gettext("Leave the lobby or cancel it instead of kicking yourself."))
    deleted, _ = lobby.members.filter(user__username=username).delete()
    if not deleted:
        raise invalid("user", gettext("%(name)s has no seat in this lobby.") % {"name": username})
    return lobby


@transaction.atomic
def do_assign_seat(lobby_id: int, creator: User, username: str, seat: str) -> Lobby:
    lobby = _lock_open_lobby_of(lobby_id, creator)
    if lobby.house_choice != Lobby.HouseChoice.ASSIGN:
        raise invalid("seat", gettext("In this lobby the creator does not assign seats."))
    member = lobby.members.filter(user__username=username).first()
    if member is None:
        raise invalid("user", gettext("%(name)s has no seat in this lobby.") % {"name": username})
    if seat not in seat_choices(lobby):
        raise invalid("seat", gettext("Choose one of: %(choices)s.") % {"choices": ", ".join(seat_choices(lobby))})
    holder = lobby.members.filter(seat=seat).exclude(pk=member.pk).select_related("user").first()
    if lobby.ruleset == "minis":
        _assign_minis_seat(lobby, member, seat, holder)
    elif holder is not None:
        holder.seat = ""  # a swap frees the old holder (drawn a seat at the start)
        holder.save(update_fields=["seat"])
    member.seat = seat
    member.save(update_fields=["seat"])
    if lobby.ruleset == "minis" and member.deck:
        from games.services import armies as saved

        # M130: teammates' armies share no character, the seats as they now stand (refused: nothing is kept)
        if saved.lobby_teams(lobby) and (why := saved.lobby_team_refusal(lobby, saved.lobby_brought(lobby), mine=seat)):
            raise conflict("team_characters", why)
    return lobby


def _assign_minis_seat(lobby: Lobby, member: LobbyMember, seat: str, holder: LobbyMember | None) -> None:
    """The miniatures game (issue 33): an army brought takes a seat of its house, and follows its owner. The member
    given `seat` must bring no army or one of the seat's house; the seat's holder, if any, takes the member's old seat
    (a swap), or when that is not of their army's house (or the member had none) the first free seat of it; a holder
    who would have none left is not moved: refused in words. A holder without an army takes the member's old seat."""
    from games.engine.minis.armies import house as house_name
    from games.services.armies import brought_house, seat_house

    house = brought_house(member.deck)
    if house and seat_house(seat) != house:
        raise invalid("seat", gettext("%(name)s brings an army of %(house)s: give them a seat of its house.") % {
            "name": member.user.username, "house": house_name(house)})
    if holder is None:
        return
    theirs = brought_house(holder.deck)
    if theirs is None:
        holder.seat = member.seat
    else:
        room = [s for s in [member.seat, *free_seats(lobby)] if s and s != seat and seat_house(s) == theirs]
        if not room:
            raise invalid("seat", gettext("%(name)s brings an army of %(house)s and would have no seat of its house "
                                          "left: give them another seat of it first.") % {
                "name": holder.user.username, "house": house_name(theirs)})
        holder.seat = room[0]
    LobbyMember.objects.filter(pk=member.pk).update(seat="")  # a seat is held by one member at a time
    holder.save(update_fields=["seat"])


@transaction.atomic
def do_cancel(lobby_id: int, creator: User) -> Lobby:
    lobby = _lock_open_lobby_of(lobby_id, creator)
    lobby.status = Lobby.Status.CANCELLED
    lobby.save(update_fields=["status"])
    return lobby


@transaction.atomic
def do_start(lobby_id: int, creator: User) -> Lobby:
    lobby = _lock_open_lobby_of(lobby_id, creator)
    if not lobby.is_full() and not lobby.fill_with_computer:
        free = lobby.seats_free()
        raise conflict("lobby_not_full", ngettext(
            "%(count)d seat is still free: wait for players (this lobby does not give empty seats to the computer).",
            "%(count)d seats are still free: wait for players (this lobby does not give empty seats to the computer).",
            free) % {"count": free})
    return _start(lobby)


def _lock_open_lobby_of(lobby_id: int, creator: User) -> Lobby:
    """The lobby, locked, for an action only its creator may take while it is open."""
    lobby = lock_lobby(lobby_id)
    _require_creator(lobby, creator)
    if not lobby.is_open():
        raise conflict("lobby_closed", gettext("This lobby is %(status)s.") % {"status": status_words(lobby.status)})
    return lobby


def _require_creator(lobby: Lobby, user: User) -> None:
    if lobby.creator_id != user.pk:
        raise forbidden(gettext("Only the lobby's creator may do this."))


def _start(lobby: Lobby) -> Lobby:
    """Seat everyone (chosen or assigned seats kept, the others drawn at random), give the seats nobody
    took to the engine's players (the lobby's computer seats, or every empty seat when the creator
    starts early in a lobby that allows it), and create the game: unrated when a computer plays."""
    from games.services.play import do_create_game

    members = list(lobby.members.select_related("user"))
    open_seats = free_seats(lobby)
    secrets.SystemRandom().shuffle(open_seats)
    seating, decks = {}, {}
    choices = sorted(deck_choices(lobby.ruleset))
    brought = {}  # the miniatures game (issue 33): {seat: (saved army, its owner)}, the army with its owner
    for member in members:
        seat = member.seat or _drawn_seat(lobby, member, open_seats)
        seating[seat] = member.user
        if lobby.ruleset == "minis" and member.deck:
            brought[seat] = (member.deck, member.user)
        if choices:  # each player's deck: picked or assigned, else drawn at random; a saved deck is copied
            decks[seat] = saved_game_deck(member.deck, member.user) if member.deck else secrets.choice(choices)
    computers = lobby.seat_count - len(members)
    if lobby.rematch_of_id:  # a rematch: the computer plays the seats it played
        before = set(lobby.rematch_of.seats.filter(user=None, left_at=None).values_list("seat", flat=True))
        open_seats.sort(key=lambda seat: seat in before)
    computer_decks = list(lobby.decks[len(members):])  # the creator may choose the computer's decks too
    for seat in open_seats[-computers:] if computers else []:  # B'Twixt offers more leaders than seats
        seating[seat] = None
        if choices:
            decks[seat] = computer_decks.pop(0) if computer_decks else secrets.choice(choices)
    options = {**lobby.options, "decks": decks} if decks else lobby.options
    if lobby.ruleset == "minis":  # issue 33: the armies people brought, copied as they are now
        from games.services import armies as saved

        # M130: teammates' armies share no character (each join and seat change was checked; an army edited since
        # may share one now): never start into a game the engine refuses, say why instead
        if saved.lobby_teams(lobby) and (why := saved.lobby_team_refusal(lobby, brought)):
            raise conflict("team_characters", why)
        options = saved.lobby_armies(options, brought)
    game = do_create_game(
        ruleset=lobby.ruleset,
        seating=seating,
        options=options,
        lobby=lobby,
        ranked=lobby.ranked and not computers,
        private=lobby.private,
        time_limit=lobby.time_limit,
        max_consecutive_timeouts=lobby.max_consecutive_timeouts,
        clock_bank=lobby.clock_bank,
        clock_increment=lobby.clock_increment,
    )
    Game.objects.filter(pk=game.pk).update(private_chat=lobby.private_chat, spectator_chat=lobby.spectator_chat)
    lobby.status = Lobby.Status.STARTED
    lobby.save(update_fields=["status"])
    return lobby


def _drawn_seat(lobby: Lobby, member: LobbyMember, open_seats: list[str]) -> str:
    """A seat at random (open_seats is shuffled) for a member who has none; in the miniatures game one of the house of
    the army they brought when one is left (an army brought takes a seat of its house; lobbies made before a swap
    kept it with its owner could leave its owner seatless)."""
    if lobby.ruleset == "minis" and member.deck:
        from games.services.armies import brought_house, seat_house

        house = brought_house(member.deck)
        for i in range(len(open_seats) - 1, -1, -1):
            if seat_house(open_seats[i]) == house:
                return open_seats.pop(i)
    return open_seats.pop()


def lobby_game(lobby: Lobby) -> Game | None:
    return Game.objects.filter(lobby=lobby).first()
