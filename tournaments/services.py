"""Running tournaments: create, register, check in, seed, start rounds (games are created with the
event's settings), record results as games finish, standings, organizer actions.

Every public `do_*` function runs in one transaction with the tournament row locked, so two
organizers (or a finishing game and an organizer) cannot start the same round twice. Websocket
notices go to the group `tournament.<id>` after the transaction commits.

The hook: `on_game_finished(game)` records a table's result when its game ends. It is connected to
`games.signals.game_finished` (TournamentsConfig.ready), which games.services.play.settle sends
inside the game's transaction; it is idempotent, so calling it again for the same game is harmless.

Lock order: a game row, then its tournament row (the order settle imposes). Organizer actions
that touch a game (adjudicate, replace) lock the game first too.

In-game votes: `votes_locked(game)` is True for a game of a tournament whose `lock_votes` flag is
set (the default): any vote that could spoil results (a draw, a kick, a restart) must be refused for
such a game by whoever implements votes.
"""
from __future__ import annotations

import hashlib
import logging
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from accounts.models import User
from games import rulesets
from games.engine import EngineError, get_ruleset
from games.engine.base import ScenarioSetupError
from games.errors import GameError, conflict, forbidden, not_found
from games.models import MAX_TIME_LIMIT, MIN_TIME_LIMIT, Game, GameAction, GameSeat
from games.services import play
from tournaments import pairing as P
from tournaments.models import Registration, Round, Table, TableSeat, Tournament
from westeros import live

log = logging.getLogger(__name__)

DEFAULT_RATING = 1500.0


def group_name(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


# A tournament's status in words (the pages and the refusals), in the reader's language; Spanish says
# "finished" in the gender of what is finished, hence the contexts.
STATUS_WORDS = {"registration": gettext_lazy("open for registration"), "running": gettext_lazy("under way"),
                "finished": pgettext_lazy("a tournament", "finished"),
                "cancelled": pgettext_lazy("a tournament", "cancelled")}


def _status_words(status: str) -> str:
    return str(STATUS_WORDS.get(status, status))


def invalid(field_name: str, message: str) -> GameError:
    return GameError("invalid", gettext("Some fields are not valid."), fields={field_name: [message]})


# --------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class TournamentSettings:
    name: str
    format: str = Tournament.Format.SWISS
    ruleset: str = "agot"
    description: str = ""
    rounds: int = 3
    seats_per_table: int = 6
    min_seats_per_table: int | None = None
    advance_per_table: int = 2
    division_size: int = 10
    promotion: int = 2
    scoring: str = Tournament.Scoring.PLACEMENT
    placement_points: list[float] = field(default_factory=list)
    win_bonus: int = 10
    tiebreakers: list[str] = field(default_factory=lambda: ["wins"])
    time_limit: int = 24 * 60 * 60
    ranked: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    max_consecutive_timeouts: int = 3
    max_no_shows: int = 2
    registration_opens: datetime | None = None
    registration_closes: datetime | None = None
    check_in_required: bool = False
    capacity: int | None = None
    min_rating: int | None = None
    min_reliability: float | None = None
    auto_advance: bool = True
    lock_votes: bool = True
    bots_only: bool = False
    seed: int = 0


def validate_settings(s: TournamentSettings) -> None:
    if not s.name.strip():
        raise invalid("name", gettext("A name is required."))
    if s.format not in Tournament.Format.values:
        raise invalid("format", gettext("Choose one of: %(choices)s.") % {"choices": ", ".join(Tournament.Format.values)})
    if why := rulesets.refusal(s.ruleset):
        raise invalid("ruleset", why)
    ruleset = get_ruleset(s.ruleset)
    teams = s.ruleset == "minis" and (s.options or {}).get("multiplayer") == "teams"
    if teams:  # M130: two against two, fixed pairs (tournaments/README.md)
        if s.seats_per_table != 4:
            raise invalid("seats_per_table", gettext("Tables of two against two seat four players."))
        if s.format != Tournament.Format.SWISS:
            raise invalid("format", gettext("Tournaments of two against two are played in Swiss rounds."))
    elif not ruleset.min_seats <= s.seats_per_table <= rulesets.tournament_seats(s.ruleset)[1]:
        raise invalid("seats_per_table", rulesets.tournament_players_words(s.ruleset))
    if s.ruleset == "minis" and not teams and (s.options or {}).get("multiplayer") not in (None, "duel"):
        raise invalid("options", gettext("A tournament of the miniatures game is played one against one or two "
                                         "against two (multiplayer: teams)."))
    if s.ruleset == "minis" and (s.options or {}).get("game_size", rulesets.MINIS_GAME_SIZE) not in MINIS_SIZES:
        raise invalid("options", gettext("game_size is the army points of every player: 20, 30, 40 or 50."))
    low = _least_seats(s.ruleset, s.seats_per_table, s.min_seats_per_table, s.options)
    if not ruleset.min_seats <= low <= s.seats_per_table:
        raise invalid("min_seats_per_table", gettext("From %(low)d to the players per table (%(high)d).") % {"low": ruleset.min_seats, "high": s.seats_per_table})
    if not 1 <= s.rounds <= 30:
        raise invalid("rounds", gettext("From 1 to 30 rounds."))
    if s.format == Tournament.Format.ELIMINATION and not 1 <= s.advance_per_table < low:
        raise invalid("advance_per_table", gettext("From 1 to %(most)d: fewer than the smallest table.") % {"most": low - 1})
    if s.format == Tournament.Format.LEAGUE and not s.seats_per_table <= s.division_size <= 30:
        raise invalid("division_size", gettext("From one table (%(count)d) to 30 players.") % {"count": s.seats_per_table})
    if s.scoring not in Tournament.Scoring.values:
        raise invalid("scoring", gettext("Choose one of: %(choices)s.") % {"choices": ", ".join(Tournament.Scoring.values)})
    if any(not isinstance(x, int | float) or isinstance(x, bool) for x in s.placement_points):
        raise invalid("placement_points", gettext("A list of numbers, first place first."))
    unknown = [t for t in s.tiebreakers if t not in P.TIEBREAKERS]
    if unknown or len(set(s.tiebreakers)) != len(s.tiebreakers):
        raise invalid("tiebreakers", gettext("Distinct tie-breakers among: %(choices)s.") % {"choices": ", ".join(P.TIEBREAKERS)})
    if not MIN_TIME_LIMIT <= s.time_limit <= MAX_TIME_LIMIT:
        raise invalid("time_limit", gettext("The time limit is from %(low)d seconds to %(high)d (7 days).") % {
            "low": MIN_TIME_LIMIT, "high": MAX_TIME_LIMIT})
    if s.registration_opens and s.registration_closes and s.registration_closes <= s.registration_opens:
        raise invalid("registration_closes", gettext("Registration must close after it opens."))
    if s.capacity is not None and s.capacity < low:
        raise invalid("capacity", gettext("At least %(count)d players.") % {"count": low})
    if s.min_reliability is not None and not 0 <= s.min_reliability <= 1:
        raise invalid("min_reliability", gettext("A reliability is a share between 0 and 1."))
    options = s.options or {}
    if s.ruleset == "minis" and isinstance(options, dict):  # under 30 points: the starter armies cut down (lobbies')
        from games.services import armies as saved

        options = saved.with_fitted_armies(options, ruleset.seat_names(s.seats_per_table))
    if why := rulesets.options_refusal(s.ruleset, options):
        raise invalid("options", why)
    try:
        ruleset.new_game(ruleset.seat_names(s.seats_per_table), options, 0)
    except (EngineError, ScenarioSetupError) as error:
        raise invalid("options", getattr(error, "reason", None) or str(error)) from None


MINIS_SIZES = (20, 30, 40, 50)  # the game sizes a miniatures tournament is played at, as lobbies offer (M1, M130)


def _least_seats(ruleset: str, seats: int, asked: int | None, options: dict[str, Any] | None) -> int:
    """The fewest players at a table: what the organizer asked, else the game's least; a two-against-two table
    always seats four (no short tables: byes)."""
    if ruleset == "minis" and (options or {}).get("multiplayer") == "teams":
        return seats
    return asked if asked is not None else get_ruleset(ruleset).min_seats


def team_event(t: Tournament) -> bool:
    """Tables of two against two (the miniatures game, M130): pairs of players registered together."""
    return t.ruleset == "minis" and t.seats_per_table == 4 and (t.options or {}).get("multiplayer") == "teams"


def game_size(t: Tournament) -> int:
    """The army points of every player of a miniatures tournament (its options' game_size, as a lobby's)."""
    return int((t.options or {}).get("game_size", rulesets.MINIS_GAME_SIZE))


def sides_per_table(t: Tournament) -> int:
    """The places a table's result has: its seats, or two for tables of two teams."""
    return 2 if team_event(t) else t.seats_per_table


# --------------------------------------------------------------------------- helpers


def lock_tournament(tournament_id: int) -> Tournament:
    """The event, locked for a change (every change of an event locks it first): its page's kept
    rendering is dropped now and again after the commit (page_changed)."""
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise not_found("tournament")
    page_changed(t.pk)
    return t


PAGE_VERSION_SECONDS = 7 * 24 * 3600


def _page_version_key(tournament_id: int) -> str:
    return f"tournament:page-version:{tournament_id}"


def page_version(tournament_id: int) -> str:
    """The version of the event's page (its standings, rounds and players as tournaments/views.py keeps
    them rendered): a new random value at every change, so a kept rendering is never read after the
    event changed, and a version the cache lost is a new one too (never an old one again)."""
    try:
        version = cache.get(_page_version_key(tournament_id))
        if version is None:
            version = uuid.uuid4().hex
            cache.add(_page_version_key(tournament_id), version, PAGE_VERSION_SECONDS)
            version = cache.get(_page_version_key(tournament_id)) or version
    except Exception:  # the cache unreachable: a version of this request alone (its page is rendered afresh)
        log.warning("tournament %s: could not read its page version", tournament_id)
        version = uuid.uuid4().hex
    return version


def page_changed(tournament_id: int) -> None:
    """The event is changing: a new page version now (a page of this process in the same transaction
    sees it) and again once the change is committed (a page rendered meanwhile from the data before
    the commit was kept under the version in between, which nobody reads again)."""
    def renew() -> None:
        try:
            cache.set(_page_version_key(tournament_id), uuid.uuid4().hex, PAGE_VERSION_SECONDS)
        except Exception:  # the cache unavailable: its kept pages expire (views.SHARED_BODY_SECONDS)
            log.warning("tournament %s: could not renew its page version", tournament_id, exc_info=True)

    renew()
    transaction.on_commit(renew)


def _require_organizer(t: Tournament, user: User) -> None:
    if not t.is_organizer(user):
        raise forbidden(gettext("Only the organizers of this tournament may do that."))


def _require_status(t: Tournament, *statuses: str) -> None:
    if t.status not in statuses:
        raise conflict("wrong_status", gettext("This tournament is %(status)s.") % {"status": _status_words(t.status)})


def notify_after_commit(t: Tournament, kind: str, **data: Any) -> None:
    message = {"type": "tournament.update", "tournament": t.pk, "kind": kind, "status": t.status,
               "round": t.current_round, **data}

    def send() -> None:  # the commit stands if this fails (logged); pages re-fetch the standings
        live.send_in_order(get_channel_layer(), [(group_name(t.pk), message)], log, f"tournament {t.pk}")

    transaction.on_commit(send)


def rating_for(user: User, ruleset: str) -> float:
    """The seeding rating: the ratings app's rating when there is one, else 1500."""
    try:
        from ratings.services import rating_of
    except ImportError:  # pragma: no cover - the ratings app is optional
        return DEFAULT_RATING
    value = rating_of(user, ruleset)
    return DEFAULT_RATING if value is None else float(value)


def _requirements_problem(t: Tournament, user: User) -> str | None:
    if t.min_rating is None and t.min_reliability is None:
        return None
    try:
        from ratings.services import effective_rating, reliability_of
    except ImportError:  # pragma: no cover
        return None
    if t.min_rating is not None and (rating := effective_rating(user, t.ruleset)) < t.min_rating:
        from ratings.templatetags.site_words import ruleset_name

        return gettext("This tournament requires a rating at %(game)s of at least %(least)d; yours counts as "
                       "%(yours).0f.") % {"game": ruleset_name(t.ruleset), "least": t.min_rating, "yours": rating}
    if t.min_reliability is not None and (rel := reliability_of(user)) < t.min_reliability:
        return gettext("This tournament requires a reliability of at least %(least)s; yours is %(yours)s.") % {
            "least": f"{t.min_reliability:.0%}", "yours": f"{rel:.0%}"}
    return None


def houses_for(t: Tournament):
    engine = get_ruleset(t.ruleset)
    return lambda n: engine.seat_names(n)


def votes_locked(game: Game) -> bool:
    """True when the game belongs to a tournament that locks in-game votes (see the module doc)."""
    return Table.objects.filter(game=game, round__tournament__lock_votes=True).exists()


# --------------------------------------------------------------------------- create and register


@transaction.atomic
def do_create_tournament(organizer: User, s: TournamentSettings) -> Tournament:
    validate_settings(s)
    t = Tournament.objects.create(
        name=s.name.strip(), description=s.description, format=s.format, ruleset=s.ruleset, rounds=s.rounds,
        seats_per_table=s.seats_per_table,
        min_seats_per_table=_least_seats(s.ruleset, s.seats_per_table, s.min_seats_per_table, s.options),
        advance_per_table=s.advance_per_table, division_size=s.division_size, promotion=s.promotion,
        scoring=s.scoring, placement_points=list(s.placement_points), win_bonus=s.win_bonus,
        tiebreakers=list(s.tiebreakers), time_limit=s.time_limit, ranked=s.ranked, options=s.options or {},
        max_consecutive_timeouts=s.max_consecutive_timeouts, max_no_shows=s.max_no_shows,
        registration_opens=s.registration_opens, registration_closes=s.registration_closes,
        check_in_required=s.check_in_required, capacity=s.capacity, min_rating=s.min_rating,
        min_reliability=s.min_reliability, organizer=organizer, auto_advance=s.auto_advance,
        lock_votes=s.lock_votes, bots_only=s.bots_only, seed=s.seed,
    )
    return t


@transaction.atomic
def do_add_co_organizer(tournament_id: int, user: User, co_organizer: User) -> Tournament:
    t = lock_tournament(tournament_id)
    if user.pk != t.organizer_id:
        raise forbidden(gettext("Only the organizer may add co-organizers."))
    t.co_organizers.add(co_organizer)
    return t


@transaction.atomic
def do_remove_co_organizer(tournament_id: int, user: User, co_organizer: User) -> Tournament:
    t = lock_tournament(tournament_id)
    if user.pk != t.organizer_id:
        raise forbidden(gettext("Only the organizer may remove co-organizers."))
    t.co_organizers.remove(co_organizer)
    return t


def registration_deck(t: Tournament, deck: str, user: User) -> Any:
    """What a registration keeps of the deck a player brings to a card-game tournament (issue 30): a ready-made
    deck's key, or a copy of one of their saved decks that is legal and played by the engine (fixed from then on,
    as a game copies it); None when they name none (the tournament's options decide, as before). Refused in the
    lobby's words otherwise."""
    from games.services import decks as saved
    from games.services import lobbies

    if not deck:
        return None
    choices = lobbies.deck_choices(t.ruleset)
    if not choices:
        from ratings.templatetags.site_words import ruleset_name

        raise invalid("deck", gettext("%(ruleset)s is not played with decks.") % {"ruleset": ruleset_name(t.ruleset)})
    if saved.saved_id(deck) is not None:
        return saved.game_deck(deck, user)
    if deck not in choices:
        raise lobbies.unknown_deck("deck", deck, t.ruleset)
    return deck


def deck_words(t: Tournament, registration: Registration, viewer: User | None = None) -> dict[str, Any] | None:
    """A registration's deck as `viewer` may know it: all of it to its owner and when the tournament chose open deck
    lists (its options' open_decklists), else its faction and agenda only (what the rules reveal); a ready-made
    deck's key is public (its list is). None when the registration names no deck."""
    deck = registration.deck
    if deck is None:
        return None
    if isinstance(deck, str):
        return {"deck": deck}
    mine = viewer is not None and getattr(viewer, "pk", None) == registration.user_id
    shown: dict[str, Any] = {"faction": deck.get("faction"), "agenda": deck.get("agenda")}
    if mine:
        shown.update(name=deck.get("name", ""), ref=deck.get("ref"))
    if mine or (t.options or {}).get("open_decklists"):
        shown.update(plots=list(deck.get("plots") or []), draw=list(deck.get("draw") or []))
    return shown


def registration_army(t: Tournament, army: str, user: User) -> dict[str, Any] | None:
    """What a registration keeps of the army a player brings to a miniatures tournament (issue 33): one of their
    saved armies ("army:<id>") that is legal, of the tournament's game size and fielded by the engine, copied now
    (later edits change nothing, as a game keeps its copy), or the starter army of a house (a starter list's key);
    None when they name none (each table gives them a house and its starter army). Refused in the lobby's words
    (games/services/armies.py) otherwise."""
    from games.services import armies as saved

    if not army:
        return None
    if t.ruleset != "minis":
        from ratings.templatetags.site_words import ruleset_name

        raise invalid("army", gettext("%(ruleset)s is not played with armies.") % {"ruleset": ruleset_name(t.ruleset)})
    starters = saved.starter_armies()
    if army in starters:
        return {"ref": army, "faction": starters[army]["faction"], "starter": True}
    if saved.saved_id(army) is None:
        raise invalid("army", gettext("Unknown army: bring one of your saved armies or a starter army (%(choices)s).")
                      % {"choices": ", ".join(starters)})
    kept = saved.usable(army, user, game_size(t))
    return {"ref": army, "name": kept.name, "faction": kept.faction, "points": saved.rules.points(kept.army()),
            "list": saved.rules.engine_list(kept.army())}


def army_words(t: Tournament, registration: Registration, viewer: User | None = None) -> dict[str, Any] | None:
    """A registration's army as `viewer` may know it: its house and points, or which starter army it is; its name
    and list to its owner only (the others learn the list when the game shows the army on the table)."""
    army = registration.army
    if army is None:
        return None
    shown: dict[str, Any] = {"faction": army.get("faction")}
    if army.get("starter"):
        shown["starter"] = army.get("ref")
        return shown
    shown["points"] = army.get("points")
    if viewer is not None and getattr(viewer, "pk", None) == registration.user_id:
        shown.update(name=army.get("name", ""), ref=army.get("ref"), list=army.get("list"))
    return shown


def houses_brought(registrations) -> dict[str, int]:
    """How many active players bring an army of each house, and how many none ("": the tables give them one)."""
    counted = {"stark": 0, "lannister": 0, "": 0}
    for r in registrations:
        if r.is_active():
            house = (r.army or {}).get("faction") or ""
            counted[house] = counted.get(house, 0) + 1
    return counted


def _team_partner(t: Tournament, partner: str, user: User) -> User | None:
    """The partner a player names when registering for a two-against-two tournament (they register naming each
    other: a team)."""
    if not partner:
        return None
    if not team_event(t):
        raise invalid("partner", gettext("Only a tournament of two against two has partners."))
    found = User.objects.filter(username=partner.strip()).first()
    if found is None:
        raise invalid("partner", gettext("No player is named %(name)s.") % {"name": partner.strip()})
    if found.pk == user.pk:
        raise invalid("partner", gettext("Name another player as your partner."))
    return found


HOUSE_SEATS = {"stark": ("stark", "stark_2"), "lannister": ("lannister", "lannister_2")}


def _seat_list(t: Tournament, r: Registration, seat: str) -> dict[str, Any]:
    """The army list a registration plays at a seat (as `_table_options` gives it): its saved army's copy, else the
    starter army of the seat's house (cut down under 30 points)."""
    from games.engine.minis import data as engine_data
    from games.services import armies as saved

    if r.army and r.army.get("list"):
        return r.army["list"]
    given = saved.with_fitted_armies({"game_size": game_size(t)}, [seat]).get("armies") or {}
    house = seat.split("_")[0]
    return engine_data.read_list(house, given[seat]) if seat in given else engine_data.default_list(house,
                                                                                                    game_size(t))


def _army_of(r: Registration, viewer: User | None = None) -> str:
    """A registration's army in a sentence: the viewer's own by its name, another's by its player."""
    army = r.army or {}
    if viewer is not None and r.user_id == viewer.pk and army.get("name"):
        return gettext("your army %(name)s") % {"name": army["name"]}
    if viewer is not None and r.user_id == viewer.pk:
        return gettext("your army")
    return gettext("the army of %(user)s") % {"user": r.user.username}


def team_houses(t: Tournament, first: Registration, second: Registration) -> list[tuple[str, str]]:
    """M130: the houses two teammates may play, (first's, second's), their armies sharing no character (M7's
    reading); a player of a fixed house keeps it, one of none may take either (the starter army of the seat's
    house). Two starter armies of one house always share their Commander: such teammates play one of each."""
    from games.engine.minis import armies as rules

    out = []
    for h1 in [_fixed_house(first)] if _fixed_house(first) else list(HOUSE_SEATS):
        for h2 in [_fixed_house(second)] if _fixed_house(second) else list(HOUSE_SEATS):
            s1, s2 = HOUSE_SEATS[h1][0], HOUSE_SEATS[h2][1 if h1 == h2 else 0]
            if not rules.shared_characters(_seat_list(t, first, s1), _seat_list(t, second, s2)):
                out.append((h1, h2))
    return out


def team_refusal(t: Tournament, first: Registration, second: Registration, viewer: User | None = None) -> str:
    """Why two players cannot be a team of `t` ('' if they can): whatever houses they play, their armies share a
    character (M130), said naming the character and both armies (the fixed houses' or the first seating's)."""
    from games.engine.minis import armies as rules

    if not team_event(t) or team_houses(t, first, second):
        return ""
    h1 = _fixed_house(first) or "stark"
    h2 = _fixed_house(second) or h1
    s1, s2 = HOUSE_SEATS[h1][0], HOUSE_SEATS[h2][1 if h1 == h2 else 0]
    shared = rules.shared_characters(_seat_list(t, first, s1), _seat_list(t, second, s2))
    return rules.team_clash_words(shared, _army_of(first, viewer), _army_of(second, viewer))


def _table_options(t: Tournament, seats: list[tuple[str, Registration]],
                   teams: dict[str, str] | None = None) -> dict[str, Any]:
    """The options of a table's game: the tournament's, with each seat's registered deck (the card game, issue 30:
    the copy made when the player registered, the same for every game of theirs in the event) or army (the
    miniatures game, issue 33: the copy of the saved army; a starter army or none: the seat's house's starter
    army, cut down under 30 points as lobbies do), and the teams of a table of two against two (M130)."""
    if t.ruleset == "minis":
        from games.services import armies as saved

        options = dict(t.options or {})
        armies = dict(options.get("armies") or {})
        armies.update({seat: r.army["list"] for seat, r in seats if r.army and r.army.get("list")})
        options = {**options, "armies": armies} if armies else options
        options = saved.with_fitted_armies(options, [seat for seat, _ in seats])
        if teams:
            options["teams"] = dict(teams)
        return options
    decks = {house: r.deck for house, r in seats if r.deck is not None}
    if not decks:
        return t.options
    options = dict(t.options or {})
    chosen = options.get("decks")
    order = get_ruleset(t.ruleset).seat_names(len(seats))
    if isinstance(chosen, list) and len(chosen) == len(order):
        chosen = dict(zip(order, chosen, strict=True))
    options["decks"] = {**(chosen if isinstance(chosen, dict) else {}), **decks}
    return options


@transaction.atomic
def do_register(tournament_id: int, user: User, *, deck: str = "", army: str = "", partner: str = "",
                now: datetime | None = None) -> Registration:
    """Register; in the card game with the deck the player brings (`deck`: a ready-made deck's key or deck:<id> of
    their saved decks), in the miniatures game with the army they bring (`army`: army:<id> of their saved armies or
    a starter list's key), copied now and used for every game of theirs in the event; at two against two with the
    `partner` they name (a team when both name each other)."""
    t = lock_tournament(tournament_id)
    if not t.registration_open(now):
        raise conflict("registration_closed", gettext("Registration for this tournament is not open."))
    existing = Registration.objects.filter(tournament=t, user=user).first()
    if existing is not None and existing.is_active():
        raise conflict("already_registered", gettext("You are already registered."))
    if t.capacity is not None and t.registrations.filter(status__in=Registration.ACTIVE).count() >= t.capacity:
        raise conflict("full", gettext("This tournament is full."))
    if (problem := _requirements_problem(t, user)) is not None:
        raise GameError("requirements_not_met", problem, status_code=403)
    brought = registration_deck(t, deck, user)
    fielded = registration_army(t, army, user)
    mate = _team_partner(t, partner, user)
    if mate is not None:  # M130: told now, not when the event starts, that the two armies share a character
        theirs = Registration.objects.filter(tournament=t, user=mate, status__in=Registration.ACTIVE).first()
        if theirs is not None:
            me = Registration(tournament=t, user=user, army=fielded)
            if why := team_refusal(t, me, theirs, viewer=user):
                raise conflict("team_characters", why)
    rating = rating_for(user, t.ruleset)
    if existing is not None:
        existing.status = Registration.Status.REGISTERED
        existing.rating = rating
        existing.registered_at = timezone.now()
        existing.deck, existing.army, existing.partner = brought, fielded, mate
        existing.save(update_fields=["status", "rating", "registered_at", "deck", "army", "partner"])
        registration = existing
    else:
        registration = Registration.objects.create(tournament=t, user=user, rating=rating, deck=brought,
                                                   army=fielded, partner=mate)
    notify_after_commit(t, "registration")
    return registration


@transaction.atomic
def do_withdraw(tournament_id: int, user: User) -> Registration:
    """Before the start: leave the event. While it runs: leave it from the next round on (games in
    progress go on; conceding them is the player's choice)."""
    t = lock_tournament(tournament_id)
    _require_status(t, Tournament.Status.REGISTRATION, Tournament.Status.RUNNING)
    registration = Registration.objects.filter(tournament=t, user=user).first()
    if registration is None or not registration.is_active():
        raise conflict("not_registered", gettext("You are not registered."))
    registration.status = Registration.Status.WITHDRAWN
    registration.save(update_fields=["status"])
    notify_after_commit(t, "registration")
    return registration


@transaction.atomic
def do_check_in(tournament_id: int, user: User) -> Registration:
    t = lock_tournament(tournament_id)
    _require_status(t, Tournament.Status.REGISTRATION)
    if not t.check_in_required:
        raise conflict("no_check_in", gettext("This tournament has no check-in."))
    registration = Registration.objects.filter(tournament=t, user=user).first()
    if registration is None or not registration.is_active():
        raise conflict("not_registered", gettext("You are not registered."))
    registration.status = Registration.Status.CHECKED_IN
    registration.save(update_fields=["status"])
    notify_after_commit(t, "registration")
    return registration


# --------------------------------------------------------------------------- start and rounds


def _participants(t: Tournament) -> list[Registration]:
    return list(t.registrations.filter(status__in=Registration.ACTIVE).select_related("user"))


@transaction.atomic
def do_start(tournament_id: int, user: User) -> Tournament:
    """Close registration, seed by rating, and start round 1."""
    t = lock_tournament(tournament_id)
    _require_organizer(t, user)
    _require_status(t, Tournament.Status.REGISTRATION)
    if t.check_in_required:
        t.registrations.filter(status=Registration.Status.REGISTERED).update(status=Registration.Status.WITHDRAWN)
    players = _participants(t)
    if len(players) < t.min_seats_per_table:
        raise conflict("too_few_players", gettext("At least %(needed)d players are needed; %(registered)d registered.") % {
            "needed": t.min_seats_per_table, "registered": len(players)})
    if t.format == Tournament.Format.LEAGUE and len(players) < t.seats_per_table:
        raise conflict("too_few_players", gettext("A league division needs at least %(count)d players.") % {"count": t.seats_per_table})
    # Seeding: rating at the start, best first; ties by registration order.
    for registration in players:
        registration.rating = rating_for(registration.user, t.ruleset)
    players.sort(key=lambda r: (-r.rating, r.registered_at, r.pk))
    for rank, registration in enumerate(players, 1):
        registration.seed_rank = rank
    if t.format == Tournament.Format.LEAGUE:
        placed = [r.division for r in players if r.division]
        if not placed:  # a first season: divisions by seed
            for number, division in enumerate(P.league_divisions(players, t.division_size), 1):
                for registration in division:
                    registration.division = number
        else:  # a next season keeps its divisions; newcomers start in the lowest one
            for registration in players:
                registration.division = registration.division or max(placed)
    if team_event(t):
        _form_teams(t, players)
    Registration.objects.bulk_update(players, ["rating", "seed_rank", "division", "team"])
    t.status = Tournament.Status.RUNNING
    t.started_at = timezone.now()
    t.save(update_fields=["status", "started_at"])
    _start_next_round(t)
    _advance(t)
    notify_after_commit(t, "started")
    return t


def _fixed_house(r: Registration) -> str | None:
    """The house a registration's army plays (a seat of that house), or None: the table gives one."""
    return (r.army or {}).get("faction") or None


def _form_teams(t: Tournament, players: list[Registration]) -> None:
    """Two against two: the teams, numbered by their best seed. Two players who named each other are a team; the
    others are teamed by seed, the best with the lowest (a Stark army with a Lannister one where they can;
    tournaments/README.md). An odd field cannot be teamed (409, naming the player left over)."""
    by_user = {r.user_id: r for r in players}
    mates: dict[int, Registration] = {}
    for r in players:
        other = by_user.get(r.partner_id) if r.partner_id else None
        if other is not None and other.partner_id == r.user_id and other.pk != r.pk:
            mates[r.pk] = other
    alone = [r for r in players if r.pk not in mates]
    if len(alone) % 2:
        raise conflict("odd_team", gettext("Two against two needs an even number of players: %(name)s has no "
                                           "partner. Drop a player or find them one.") % {"name": alone[-1].user.username})
    for r in players:  # M130: named partners were told when registering; a pair still sharing a character
        if r.pk in mates and r.pk < mates[r.pk].pk and (why := team_refusal(t, r, mates[r.pk])):
            raise conflict("team_characters", why)
    while alone:
        first = alone.pop(0)
        house = _fixed_house(first)
        # the best seed left with the lowest (drawn teams are balanced), of the other house where armies allow,
        # whose army shares no character with first's (M130)
        fits = [r for r in reversed(alone) if not team_refusal(t, first, r)]
        if not fits:
            raise conflict("team_characters", gettext(
                "%(name)s can be teamed with nobody: %(why)s Drop a player or ask for another army.") % {
                "name": first.user.username, "why": team_refusal(t, first, alone[-1])})
        other = next((r for r in fits if house is None or _fixed_house(r) != house), fits[0])
        alone.remove(other)
        mates[first.pk], mates[other.pk] = other, first
    number = 0
    numbered: dict[int, int] = {}
    for r in players:
        if r.pk in numbered:
            continue
        number += 1
        numbered[r.pk] = numbered[mates[r.pk].pk] = number
    for r in players:
        r.team = numbered[r.pk]


@transaction.atomic
def do_start_round(tournament_id: int, user: User) -> Tournament:
    t = lock_tournament(tournament_id)
    _require_organizer(t, user)
    _require_status(t, Tournament.Status.RUNNING)
    _close_round_if_done(t)
    current = t.round_set.filter(number=t.current_round).first()
    if current is not None and current.status != Round.Status.FINISHED:
        raise conflict("round_in_progress", gettext("Round %(number)d is not over yet.") % {"number": current.number})
    if _is_complete(t):
        raise conflict("no_more_rounds", gettext("Every round has been played: end the tournament."))
    _start_next_round(t)
    _advance(t)
    return t


def _is_complete(t: Tournament) -> bool:
    """No round is left to play (the current one is finished)."""
    if t.format == Tournament.Format.SWISS:
        return t.current_round >= t.rounds
    if t.format == Tournament.Format.LEAGUE:
        return t.current_round >= 1
    last = t.round_set.filter(number=t.current_round).first()
    return last is not None and last.tables.count() == 1 and not last.byes.exists()


def _history(t: Tournament, fixed: dict[int, str | None] | None = None) -> P.History:
    """The event's meetings, houses played and byes. `fixed`: the houses armies fix (the miniatures game, issue
    33): those players' houses are not counted, so the pairing neither balances nor avoids them (the pairing's
    house gives way to the army's, pairing.duel_seats)."""
    history = P.History()
    tables = Table.objects.filter(round__tournament=t).prefetch_related("seats")
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        history.add_table([s.registration_id for s in seats], [s.seat for s in seats])
    for pk in [pk for pk, house in (fixed or {}).items() if house]:
        history.houses.pop(pk, None)
    for rnd in t.round_set.prefetch_related("byes"):
        for registration in rnd.byes.all():
            history.add_bye(registration.pk)
    return history


def _start_next_round(t: Tournament) -> Round:
    try:
        return _pair_and_create(t)
    except P.PairingError as error:
        raise conflict("cannot_pair", str(error)) from None


def _pair_and_create(t: Tournament) -> Round:
    number = t.current_round + 1
    seed = t.seed * 1000 + number
    players = _participants(t)
    if len(players) < t.min_seats_per_table:
        raise conflict("too_few_players", gettext("%(count)d players are left: not enough for a table.") % {"count": len(players)})
    by_id = {r.pk: r for r in players}
    rnd = Round.objects.create(tournament=t, number=number)
    t.current_round = number
    t.save(update_fields=["current_round"])
    tables: list[tuple[int, P.Table]] = []  # (division, table)
    byes: tuple[int, ...] = ()
    sides: dict[tuple[int, ...], dict[str, str]] = {}  # a table of teams' players -> {seat: team}
    # issue 33: armies fix houses; one against one, any two players may meet (two armies of one house: a mirror
    # match, seated below), two against two pairs sides whose houses fit the table's
    fixed = {r.pk: _fixed_house(r) for r in players} if t.ruleset == "minis" else {}
    if t.format == Tournament.Format.SWISS and team_event(t):
        standing = [line.player for line in compute_standings(t) if line.player in by_id]
        standing += [r.pk for r in sorted(players, key=lambda r: r.seed_rank or 0) if r.pk not in standing]
        tables, byes, sides = _fixed_house_tables(t, standing, by_id, first_round=number == 1)
    elif t.format == Tournament.Format.SWISS:
        standing = [line.player for line in compute_standings(t) if line.player in by_id]
        standing += [r.pk for r in sorted(players, key=lambda r: r.seed_rank or 0) if r.pk not in standing]
        pairing = P.swiss_round(standing, size=t.seats_per_table, min_size=t.min_seats_per_table,
                                history=_history(t, fixed), houses_for=houses_for(t), seed=seed,
                                first_round=number == 1)
        tables = [(0, table) for table in pairing.tables]
        byes = pairing.byes
    elif t.format == Tournament.Format.LEAGUE:
        engine = get_ruleset(t.ruleset)
        divisions: dict[int, list[int]] = {}
        for r in sorted(players, key=lambda r: (r.division, r.seed_rank or 0)):
            divisions.setdefault(r.division, []).append(r.pk)
        for division, members in sorted(divisions.items()):
            schedule = P.league_schedule(members, size=t.seats_per_table, houses=engine.seat_names(t.seats_per_table),
                                         seed=seed * 100 + division)
            tables.extend((division, table) for table in schedule.games)
    else:
        standing = _elimination_field(t, by_id)
        pairing = P.elimination_round(standing, size=t.seats_per_table, min_size=t.min_seats_per_table,
                                      history=_history(t, fixed), houses_for=houses_for(t), seed=seed)
        tables = [(0, table) for table in pairing.tables]
        byes = ()
        for pk in pairing.byes:  # cannot be seated: out
            Registration.objects.filter(pk=pk).update(status=Registration.Status.ELIMINATED)
    if byes:
        rnd.byes.add(*byes)
    if t.ruleset == "minis" and t.seats_per_table == 2:
        # issue 33: an army fixes its player's house; two armies of one house meet as the house's two seats
        tables = [(division, P.Table(tb.players, P.duel_seats(tb.players, tb.houses, fixed)))
                  for division, tb in tables]
    created: list[Table] = []
    for number_at, (division, pairing_table) in enumerate(tables, 1):
        table = Table.objects.create(round=rnd, number=number_at, division=division)
        seating: dict[str, User | None] = {}
        order = get_ruleset(t.ruleset).seat_names(len(pairing_table.players))  # the game's seat positions
        if t.ruleset == "minis" and not set(pairing_table.houses) <= set(order):  # a mirror match: stark, stark_2
            order = [s for s in get_ruleset(t.ruleset).seat_choices(len(pairing_table.players))
                     if s in pairing_table.houses]
        for pk, house in zip(pairing_table.players, pairing_table.houses, strict=True):
            TableSeat.objects.create(table=table, registration_id=pk, seat=house, position=order.index(house))
            seating[house] = None if t.bots_only else by_id[pk].user
        options = _table_options(t, [(house, by_id[pk]) for pk, house in
                                     zip(pairing_table.players, pairing_table.houses, strict=True)],
                                 sides.get(pairing_table.players))
        game = play.do_create_game(
            ruleset=t.ruleset, seating=seating, options=options, ranked=t.ranked and not t.bots_only,
            private=False, time_limit=t.time_limit, max_consecutive_timeouts=t.max_consecutive_timeouts,
            # A simulation replays the same from its seed; real games keep a fresh secret seed.
            seed=_simulation_seed(t.seed, number, number_at) if t.bots_only else None,
        )
        table.game = game
        table.save(update_fields=["game"])
        created.append(table)
    # Games that ended while being created (every seat a bot) are recorded now: the hook ran
    # before the table pointed at its game.
    for table in created:
        game = table.game
        if game is not None and not game.is_active():
            _record(t, table, game)
    notify_after_commit(t, "round_started", number=number)
    return rnd


def _fixed_house_tables(t: Tournament, standing: list[int], by_id: dict[int, Registration], *, first_round: bool
                        ) -> tuple[list[tuple[int, P.Table]], tuple[int, ...], dict[tuple[int, ...], dict[str, str]]]:
    """A Swiss round of the miniatures game of two against two (M130; one against one is paired as any Swiss event,
    issue 33): sides (a team of two) meet only when their armies' houses fit the table's seats (a Stark seat per
    Stark army), as pairing.fixed_house_round pairs them; each player takes a seat of their army's house, those who
    brought none the house they have played least (pairing.seat_sides). Returns the tables (players and seats),
    the byes (registrations) and each team table's {seat: team}."""
    teams = team_event(t)
    every = list(t.registrations.all())
    side_of = {r.pk: (r.team if teams else r.pk) for r in every}
    members: dict[int, list[int]] = {}
    for pk in standing:
        members.setdefault(side_of[pk], []).append(pk)
    # a team plays while both its players do (one withdrawn or dropped: the team is out)
    order = [side for side, pks in members.items() if len(pks) == (2 if teams else 1)]
    houses = {side: P._house_count(_fixed_house(by_id[pk]) for pk in members[side]) for side in order}
    allowed_houses: dict[int, set[tuple[str, str]]] = {}
    if teams:  # M130: the houses a team may play, its armies sharing no character; one of each: counted so
        for side in order:
            first, second = (by_id[pk] for pk in members[side])
            allowed_houses[side] = set(team_houses(t, first, second))
            if allowed_houses[side] and all(a != b for a, b in allowed_houses[side]):
                houses[side] = P._house_count(["stark", "lannister"])
    history = P.History()
    played: dict[int, Any] = {}
    for table in Table.objects.filter(round__tournament=t).prefetch_related("seats"):
        seated = sorted(table.seats.all(), key=lambda s: s.position)
        history.add_table(list(dict.fromkeys(side_of[s.registration_id] for s in seated)))
        for s in seated:
            played.setdefault(s.registration_id, Counter())[s.seat.split("_")[0]] += 1
    for rnd in t.round_set.prefetch_related("byes"):
        for side in dict.fromkeys(side_of[r.pk] for r in rnd.byes.all()):
            history.add_bye(side)
    pairing = P.fixed_house_round(order, houses, per_side=2 if teams else 1, history=history,
                                  first_round=first_round)
    if not pairing.tables:
        raise conflict("cannot_pair", gettext("No table can be made: a table of two against two needs two Stark "
                                              "armies and two Lannister ones, and the armies brought do not allow "
                                              "it."))
    seats = get_ruleset(t.ruleset).seat_names(t.seats_per_table)
    fixed = {pk: _fixed_house(by_id[pk]) for side in order for pk in members[side]}
    tables: list[tuple[int, P.Table]] = []
    sides: dict[tuple[int, ...], dict[str, str]] = {}
    for table in pairing.tables:
        def allowed(placed: list[tuple[int, str]], sides: tuple[int, ...] = table.players) -> bool:
            at = {pk: seat.split("_")[0] for pk, seat in placed}
            return all(not allowed_houses.get(side) or (at[members[side][0]], at[members[side][1]])
                       in allowed_houses[side] for side in sides)

        placed = P.seat_sides([members[side] for side in table.players], seats, fixed, played,
                              allowed if teams else None)
        players = tuple(pk for pk, _ in placed)
        tables.append((0, P.Table(players, tuple(seat for _, seat in placed))))
        if teams:
            first = set(members[table.players[0]])
            sides[players] = {seat: "a" if pk in first else "b" for pk, seat in placed}
    byes = tuple(pk for side in pairing.byes for pk in members[side])
    return tables, byes, sides


def _simulation_seed(seed: int, round_number: int, table_number: int) -> int:
    digest = hashlib.sha256(f"{seed}:{round_number}:{table_number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _elimination_field(t: Tournament, by_id: dict[int, Registration]) -> list[int]:
    """Round 1: everyone by seed. Later: the top N of each table of the last round (abandoned and
    no-show players do not advance), interleaved by place; the others are eliminated. A final table
    that would be too small takes the best of the rest by points."""
    last = t.round_set.filter(number=t.current_round - 1).first()
    if last is None:
        return [r.pk for r in sorted(by_id.values(), key=lambda r: r.seed_rank or 0)]
    placings = []
    for table in last.tables.prefetch_related("seats"):
        seats = sorted((s for s in table.seats.all() if s.place is not None), key=lambda s: s.place)
        placings.append([s.registration_id for s in seats if not (s.abandoned or s.no_show)
                         and s.registration_id in by_id])
    going = P.advancing(placings, t.advance_per_table)
    if len(going) < t.min_seats_per_table:
        rest = [line.player for line in compute_standings(t) if line.player in by_id and line.player not in going]
        going += rest[:t.min_seats_per_table - len(going)]
    out = [pk for pk in by_id if pk not in going]
    Registration.objects.filter(pk__in=out).update(status=Registration.Status.ELIMINATED)
    return going


def _advance(t: Tournament) -> None:
    """After results: close the round when its last table is over, then start the next one (when
    the event advances on its own) or end the event when none is left. Loops because rounds of
    bot-only tables end while they are created."""
    while t.status == Tournament.Status.RUNNING:
        if not _close_round_if_done(t):
            return
        if _is_complete(t):
            _finish(t)
            return
        if not t.auto_advance:
            return
        if len(_participants(t)) < t.min_seats_per_table:
            _finish(t)
            return
        _start_next_round(t)


def _close_round_if_done(t: Tournament) -> bool:
    """Mark the current round finished once none of its tables is playing; True when it is."""
    rnd = t.round_set.filter(number=t.current_round).first()
    if rnd is None or rnd.tables.filter(status=Table.Status.PLAYING).exists():
        return False
    if rnd.status != Round.Status.FINISHED:
        rnd.status = Round.Status.FINISHED
        rnd.finished_at = timezone.now()
        rnd.save(update_fields=["status", "finished_at"])
        notify_after_commit(t, "round_finished", number=rnd.number)
    return True


def _finish(t: Tournament) -> None:
    t.status = Tournament.Status.FINISHED
    t.finished_at = timezone.now()
    t.save(update_fields=["status", "finished_at"])
    notify_after_commit(t, "finished")


# --------------------------------------------------------------------------- results


def on_game_finished(game: Game) -> None:
    """Record the result of a tournament table when its game ends (finished or abandoned). Safe to
    call more than once, and for games of no tournament (it does nothing)."""
    table = Table.objects.filter(game_id=game.pk).select_related("round").first()
    if table is None or table.is_over():
        return
    with transaction.atomic():
        t = lock_tournament(table.round.tournament_id)
        table = Table.objects.select_related("round").get(pk=table.pk)
        if table.is_over():
            return
        _record(t, table, game)
        _close_round_if_done(t)
        try:
            with transaction.atomic():  # the result stands even if the next round cannot start
                _advance(t)
        except GameError as error:
            log.warning("tournament %s: the next round did not start (%s); the organizer can start it",
                        t.pk, error.detail)
            t.refresh_from_db()


# What a position is measured by, from the ruleset's summary, in order: castles and strongholds
# (the board game), power (the card game), victory points (the miniatures game), supply; a
# ruleset's summary has the ones that apply.
POSITION_KEYS = ("victory", "power", "vp", "supply")


def _ranking_of(game: Game) -> list[str]:
    """The engine's ranking; for an abandoned game, the position at that moment: most castles
    and strongholds (or power in the card game, victory points in the miniatures game), then supply,
    then seat order."""
    if game.ranking:
        return list(game.ranking)
    seats = list(GameSeat.objects.filter(game=game).order_by("position").values_list("seat", flat=True))
    summary = _summary(game)
    measures = [summary[key] for key in POSITION_KEYS if isinstance(summary.get(key), dict)]

    teams = summary.get("teams") if isinstance(summary.get("teams"), dict) else {}

    def amount(measure: dict, seat: str) -> int:
        value = measure.get(seat, measure.get(teams.get(seat), 0))  # a team game's VP are its teams' (M130)
        return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0

    return sorted(seats, key=lambda s: (*(-amount(m, s) for m in measures), seats.index(s)))


def _summary(game: Game) -> dict[str, Any]:
    try:
        return get_ruleset(game.ruleset).summary(game.state)
    except Exception:  # a ruleset without these numbers scores placement only
        log.exception("no summary for game %s", game.pk)
        return {}


def _time_used(game: Game) -> dict[str, float]:
    """Seconds per seat: for each player action, the time since the previous change of the game
    (an approximation of the time the seat took to decide)."""
    used: dict[str, float] = {}
    previous = game.created_at
    for seat, source, at in game.actions.order_by("version").values_list("seat", "source", "created_at"):
        if source == GameAction.Source.PLAYER:
            used[seat] = used.get(seat, 0.0) + max(0.0, (at - previous).total_seconds())
        previous = at
    return used


def _record(t: Tournament, table: Table, game: Game, *, ranking: list[str] | None = None,
            adjudicated: bool = False) -> None:
    ranking = ranking or _ranking_of(game)
    place = {seat: i for i, seat in enumerate(ranking, 1)}
    teams = (game.options or {}).get("teams") if team_event(t) else None
    if teams:  # M130: a team's players share its place, the first team's seat in the ranking first
        order = list(dict.fromkeys(teams.get(seat) for seat in ranking))
        place = {seat: order.index(team) + 1 for seat, team in teams.items()}
    summary = _summary(game)
    # per seat where the ruleset counts them (B'Twixt's summary has one supply number for the table)
    victory, supply = (summary.get(key) if isinstance(summary.get(key), dict) else {} for key in ("victory", "supply"))
    time_used = _time_used(game)
    game_seats = {s.seat: s for s in GameSeat.objects.filter(game=game)}
    acted = set(game.actions.filter(source=GameAction.Source.PLAYER).values_list("seat", flat=True).distinct())
    seats = list(table.seats.select_related("registration"))
    for seat in seats:
        gs = game_seats.get(seat.seat)
        seat.place = place.get(seat.seat, len(ranking) + 1)
        seat.castles = int(victory.get(seat.seat, 0))
        seat.supply = int(supply.get(seat.seat, 0))
        seat.time_used = time_used.get(seat.seat, 0.0)
        if not t.bots_only and gs is not None:
            seat.abandoned = gs.left_at is not None
            seat.no_show = seat.seat not in acted
        seat.points = P.score_seat(
            _pairing_seat(seat), 2 if teams else len(seats), scoring=t.scoring, full_size=sides_per_table(t),
            placement_points=t.placement_points or None, win_bonus=t.win_bonus)
    TableSeat.objects.bulk_update(seats, ["place", "castles", "supply", "time_used", "abandoned", "no_show", "points"])
    for seat in seats:
        if seat.no_show:
            registration = seat.registration
            registration.no_shows += 1
            fields = ["no_shows"]
            if t.max_no_shows and registration.no_shows >= t.max_no_shows and registration.is_active():
                registration.status = Registration.Status.DROPPED
                fields.append("status")
            registration.save(update_fields=fields)
    table.status = Table.Status.ADJUDICATED if adjudicated else Table.Status.FINISHED
    table.finished_at = timezone.now()
    table.save(update_fields=["status", "finished_at"])
    notify_after_commit(t, "table_finished", table=table.pk, game=game.pk)


def _pairing_seat(seat: TableSeat) -> P.Seat:
    return P.Seat(seat.registration_id, seat.place or 99, castles=seat.castles, supply=seat.supply,
                  time_used=seat.time_used, abandoned=seat.abandoned)


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class Standing:
    rank: int
    registration: Registration
    line: P.Line
    division: int


def played_rounds(t: Tournament) -> list[Round]:
    """The rounds in order, each with its tables (by number), their seats (by position) and its byes:
    four queries, whatever the size of the event. Standings are computed from them
    (`compute_standings`); the page and the API pass the rounds they read with more (players)."""
    seats = TableSeat.objects.order_by("position")
    tables = Table.objects.order_by("number").prefetch_related(Prefetch("seats", queryset=seats))
    return list(Round.objects.filter(tournament=t).order_by("number")
                .prefetch_related(Prefetch("tables", queryset=tables), "byes"))


def compute_standings(t: Tournament, rounds: list[Round] | None = None,
                      registrations: list[Registration] | None = None) -> list[P.Line]:
    """Lines best first over every finished table, byes included (pairing.standings). `rounds` as
    `played_rounds` reads them and the event's `registrations`, when the caller has them already."""
    registrations = list(t.registrations.all()) if registrations is None else registrations
    rounds = played_rounds(t) if rounds is None else rounds
    seed_order = [r.pk for r in sorted(registrations, key=lambda r: (r.seed_rank or 10**6, r.registered_at, r.pk))]
    tables = [table for rnd in rounds for table in rnd.tables.all()]
    sides = 2 if team_event(t) else None  # two teams: a game of two sides
    games = [P.GameRecord(tuple(_pairing_seat(s) for s in table.seats.all()), sides)
             for table in tables if table.status != Table.Status.PLAYING]
    byes = [r.pk for rnd in rounds for r in rnd.byes.all()]
    seated = {s.registration_id for table in tables for s in table.seats.all()}
    players = [r.pk for r in registrations if r.is_active() or r.pk in seated or r.pk in byes]
    return P.standings(players, games, scoring=t.scoring, full_size=sides_per_table(t),
                       tiebreakers=t.tiebreakers or (), byes=byes, seed_order=seed_order,
                       placement_points=t.placement_points or None, win_bonus=t.win_bonus)


def standings(t: Tournament, rounds: list[Round] | None = None,
              registrations: list[Registration] | None = None) -> list[Standing]:
    """The public standings. League: per division (top division first). Elimination: players who
    went further first, the final table in its finishing order. `rounds` (as `played_rounds` reads
    them) and `registrations` (with their users) when the caller read them already: then no query."""
    if registrations is None:
        registrations = list(t.registrations.select_related("user"))
    rounds = played_rounds(t) if rounds is None else rounds
    lines = compute_standings(t, rounds, registrations)
    by_pk = {r.pk: r for r in registrations}
    if t.format == Tournament.Format.ELIMINATION:
        reached: dict[int, tuple[int, int]] = {}
        for rnd in rounds:
            for table in rnd.tables.all():
                for seat in table.seats.all():
                    key = (rnd.number, -(seat.place or 99))
                    if seat.registration_id not in reached or key > reached[seat.registration_id]:
                        reached[seat.registration_id] = key
        order = {line.player: i for i, line in enumerate(lines)}
        final_number = max((rnd.number for rnd in rounds), default=0)

        def key(line: P.Line) -> tuple:
            number, neg_place = reached.get(line.player, (0, -99))
            in_final = number == final_number
            return (-number, -neg_place if in_final else 0, order[line.player])

        lines = sorted(lines, key=key)
    if t.format == Tournament.Format.LEAGUE:
        lines = [line for _, line in sorted(enumerate(lines), key=lambda x: (by_pk[x[1].player].division or 99, x[0]))]
    out = []
    rank_in: dict[int, int] = {}
    for line in lines:
        registration = by_pk[line.player]
        division = registration.division if t.format == Tournament.Format.LEAGUE else 0
        rank_in[division] = rank_in.get(division, 0) + 1
        line.rank = rank_in[division]
        out.append(Standing(rank_in[division], registration, line, division))
    return out


# --------------------------------------------------------------------------- organizer actions


@transaction.atomic
def do_adjudicate(tournament_id: int, user: User, table_id: int, ranking: list[str]) -> Table:
    """End a stuck game with the given ranking (every seat, first to last), or correct the ranking of
    a table already over. The game is marked finished and games.signals.game_finished is sent."""
    from games.signals import game_finished

    table = Table.objects.select_related("round").filter(pk=table_id, round__tournament_id=tournament_id).first()
    if table is None:
        raise not_found("table")
    if table.game_id is None:
        raise conflict("no_game", gettext("This table has no game."))
    game = play.lock_game(table.game_id)  # the game first, then the tournament (settle's order)
    t = lock_tournament(tournament_id)
    _require_organizer(t, user)
    _require_status(t, Tournament.Status.RUNNING)
    seats = set(game.seat_names())
    if not isinstance(ranking, list) or sorted(ranking) != sorted(seats) or len(set(ranking)) != len(ranking):
        raise invalid("ranking", gettext("List every seat once, first to last: %(seats)s.") % {"seats": ", ".join(sorted(seats))})
    table = Table.objects.select_related("round").get(pk=table.pk)
    ended_now = game.is_active()
    if ended_now:
        game.status = Game.Status.FINISHED
        game.ranking = list(ranking)
        game.finished_at = timezone.now()
        game.deadline_at = None
        game.save(update_fields=["status", "ranking", "finished_at", "deadline_at"])
        GameSeat.objects.filter(game=game).update(deadline_at=None)
    _record(t, table, game, ranking=list(ranking), adjudicated=True)
    if ended_now:
        game_finished.send(sender=Game, game=game)
    _advance(t)
    return table


@transaction.atomic
def do_replace_player(tournament_id: int, user: User, old: User, new: User) -> Registration:
    """The new player takes the old one's place: their registration, and their seats in games in
    progress (taken back from the bot if it had the seat). Results already recorded stay with the
    old player."""
    # Lock order: the games first, then the tournament (as settle does when a game ends).
    game_ids = sorted(TableSeat.objects.filter(registration__tournament_id=tournament_id, registration__user=old,
                                               table__status=Table.Status.PLAYING, table__game__isnull=False)
                      .values_list("table__game_id", flat=True))
    games = {game_id: play.lock_game(game_id) for game_id in game_ids}
    t = lock_tournament(tournament_id)
    _require_organizer(t, user)
    _require_status(t, Tournament.Status.REGISTRATION, Tournament.Status.RUNNING)
    before = Registration.objects.filter(tournament=t, user=old).first()
    if before is None:
        raise not_found("registration")
    if Registration.objects.filter(tournament=t, user=new, status__in=Registration.ACTIVE).exists():
        raise conflict("already_registered", gettext("%(name)s is already in this tournament.") % {"name": new.username})
    after, _ = Registration.objects.update_or_create(
        tournament=t, user=new,
        defaults={"status": Registration.Status.REGISTERED, "rating": before.rating, "seed_rank": before.seed_rank,
                  "division": before.division, "replaces": before, "no_shows": 0, "deck": before.deck,
                  "army": before.army, "team": before.team, "partner": before.partner},
    )
    before.status = Registration.Status.REPLACED
    before.save(update_fields=["status"])
    for seat in TableSeat.objects.filter(registration=before, table__status=Table.Status.PLAYING).select_related("table"):
        seat.registration = after
        seat.save(update_fields=["registration"])
        if seat.table.game_id is None or t.bots_only:
            continue
        game = games.get(seat.table.game_id) or play.lock_game(seat.table.game_id)
        if not game.is_active():
            continue
        game_seat = GameSeat.objects.get(game=game, seat=seat.seat)
        game_seat.user = new
        game_seat.is_bot = False
        game_seat.left_at = None
        game_seat.left_round = None
        game_seat.abandoned = False
        game_seat.consecutive_timeouts = 0
        game_seat.save(update_fields=["user", "is_bot", "left_at", "left_round", "abandoned", "consecutive_timeouts"])
        play.settle(game, set(), [], seats_changed=True)
    notify_after_commit(t, "registration")
    return after


@transaction.atomic
def do_drop_player(tournament_id: int, user: User, player: User) -> Registration:
    t = lock_tournament(tournament_id)
    _require_organizer(t, user)
    registration = Registration.objects.filter(tournament=t, user=player).first()
    if registration is None or not registration.is_active():
        raise not_found("registration")
    registration.status = Registration.Status.DROPPED
    registration.save(update_fields=["status"])
    notify_after_commit(t, "registration")
    return registration


@transaction.atomic
def do_end(tournament_id: int, user: User) -> Tournament:
    """End the event now. Tables still playing are adjudicated by their current position (most
    castles and strongholds, or power, then supply: `_ranking_of`); before the start, the event is
    cancelled."""
    from games.signals import game_finished

    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        raise not_found("tournament")
    playing = list(Table.objects.filter(round__tournament=t, status=Table.Status.PLAYING).order_by("pk"))
    games = {table.pk: play.lock_game(table.game_id) for table in playing if table.game_id}
    t = lock_tournament(tournament_id)
    _require_organizer(t, user)
    _require_status(t, Tournament.Status.REGISTRATION, Tournament.Status.RUNNING)
    if t.status == Tournament.Status.REGISTRATION:
        t.status = Tournament.Status.CANCELLED
        t.finished_at = timezone.now()
        t.save(update_fields=["status", "finished_at"])
        notify_after_commit(t, "cancelled")
        return t
    for table in playing:
        game = games.get(table.pk)
        if game is None:
            continue
        ranking = _ranking_of(game) if not game.ranking else list(game.ranking)
        if game.is_active():
            game.status = Game.Status.FINISHED
            game.ranking = ranking
            game.finished_at = timezone.now()
            game.deadline_at = None
            game.save(update_fields=["status", "ranking", "finished_at", "deadline_at"])
            GameSeat.objects.filter(game=game).update(deadline_at=None)
            _record(t, table, game, ranking=ranking, adjudicated=True)
            game_finished.send(sender=Game, game=game)
        else:
            _record(t, table, game)
    rnd = t.round_set.filter(number=t.current_round).first()
    if rnd is not None and rnd.status != Round.Status.FINISHED:
        rnd.status = Round.Status.FINISHED
        rnd.finished_at = timezone.now()
        rnd.save(update_fields=["status", "finished_at"])
    _finish(t)
    return t


@transaction.atomic
def do_next_season(tournament_id: int, user: User) -> Tournament:
    """League: a new season with promotion and relegation (the top `promotion` of each division go
    up one, the bottom ones go down), open for registration changes until the organizer starts it."""
    t = lock_tournament(tournament_id)
    _require_organizer(t, user)
    if t.format != Tournament.Format.LEAGUE:
        raise conflict("not_a_league", gettext("Only a league has seasons."))
    _require_status(t, Tournament.Status.FINISHED)
    by_division: dict[int, list[int]] = {}
    for s in standings(t):
        if s.registration.status in Registration.ACTIVE:
            by_division.setdefault(s.division, []).append(s.registration.user_id)
    final = [members for _, members in sorted(by_division.items())]
    moved = P.next_season(final, t.promotion)
    fields = {f.name: getattr(t, f.name) for f in Tournament._meta.concrete_fields
              if f.name not in ("id", "status", "current_round", "created_at", "started_at", "finished_at",
                                "season", "previous", "organizer", "registration_opens", "registration_closes", "seed")}
    nxt = Tournament.objects.create(**fields, organizer=t.organizer, season=t.season + 1, previous=t,
                                    seed=t.seed + 1)
    nxt.co_organizers.set(t.co_organizers.all())
    ratings = {r.user_id: r.rating for r in t.registrations.all()}
    for number, members in enumerate(moved, 1):
        for user_id in members:
            Registration.objects.create(tournament=nxt, user_id=user_id, division=number,
                                        rating=ratings.get(user_id, DEFAULT_RATING))
    return nxt


# --------------------------------------------------------------------------- simulation


@dataclass(frozen=True)
class Simulated:
    tournament: Tournament
    standings: list[Standing]


def simulate(players: int, *, fmt: str = Tournament.Format.SWISS, rounds: int = 3, seed: int = 1,
             seats_per_table: int = 6, ruleset: str = "agot", scoring: str = Tournament.Scoring.PLACEMENT,
             tiebreakers: list[str] | None = None, options: dict[str, Any] | None = None) -> Simulated:
    """A whole event played by bots: users are created (or reused) as sim-<seed>-<n>, registered,
    and every table's game is created with bot seats (the users are the players of record in the
    tournament; the engine's default player makes every decision), so the event runs to its end."""
    organizer, _ = User.objects.get_or_create(username=f"sim-{seed}-organizer",
                                              defaults={"email": f"sim-{seed}-organizer@example.invalid"})
    t = do_create_tournament(organizer, TournamentSettings(
        name=f"Simulated {fmt} ({players} players, seed {seed})", format=fmt, ruleset=ruleset, rounds=rounds,
        seats_per_table=seats_per_table, scoring=scoring, tiebreakers=tiebreakers or ["wins", "castles"],
        time_limit=MIN_TIME_LIMIT, bots_only=True, seed=seed, division_size=max(seats_per_table, 10),
        options=options or {},
    ))
    for n in range(1, players + 1):
        user, _ = User.objects.get_or_create(username=f"sim-{seed}-{n:03d}",
                                             defaults={"email": f"sim-{seed}-{n:03d}@example.invalid"})
        do_register(t.pk, user)
    do_start(t.pk, organizer)
    t.refresh_from_db()
    while t.status == Tournament.Status.RUNNING:  # auto_advance runs every round; this is a guard
        do_start_round(t.pk, organizer)
        t.refresh_from_db()
    return Simulated(t, standings(t))
