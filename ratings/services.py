"""Ratings and reliability: the logic. Views, the command and the games app call these.

Which games count (issue 7, "Ratings"): a game changes ratings only when it is *ranked*, has ended
(status finished, or abandoned) **and has a ranking** (the engine's final order of seats). A game
abandoned by every human is ranked by who stayed longest (games/services/play.py
abandonment_ranking), so leaving first is never escaped. Casual games never change a rating.

Who is compared: the seats that have a user. A seat played by the bot from the start has no user
and takes no part; a player who left (GameSeat.left_at set) keeps the seat's user and ranks last.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from accounts.models import User
from games.engine import get_ruleset
from games.models import Game, GameAction, GameSeat, Lobby, SeatSubstitution
from ratings import conf, elo
from ratings.models import STANDARD_FORMAT, RatedGame, Rating, RatingChange

ENDED = (Game.Status.FINISHED, Game.Status.ABANDONED)
IN_PROGRESS = tuple(status for status in Game.Status if status not in ENDED)


def game_column(name: str) -> Subquery:
    """A seat's (or a rating change's) game's column, read by the game's primary key for each row.
    Sorting a player's seats by a column of their games joined every game to them: PostgreSQL hashes
    the player's seats and scans the whole games table (15 ms at 50,000 games for a player with
    2,000); a subquery per row reads their own games alone (issue 27)."""
    return Subquery(Game.objects.filter(pk=OuterRef("game_id")).order_by().values(name)[:1])


# ---- recording games ---------------------------------------------------------------------------


def format_of(game: Game) -> str:
    """The rating format of a game; every game is 'standard' until formats differ."""
    return STANDARD_FORMAT


def is_rated(game: Game) -> bool:
    return bool(game.ranked and game.status in ENDED and game.ranking)


@dataclass(frozen=True)
class Player:
    user_id: int
    seat: str
    placement: int


def players_of(game: Game) -> list[Player]:
    """The seats with a user, with their placement: the ranking, with leavers moved last (tied).
    In a game every player abandoned, the ranking is already the order of leaving (last to leave
    first, games/services/play.py abandonment_ranking), so it stands as it is."""
    seats = list(GameSeat.objects.filter(game=game, user__isnull=False).order_by("position"))
    everyone_left = game.status == Game.Status.ABANDONED
    leavers = [] if everyone_left else [s.seat for s in seats if s.left_at is not None]
    # A seat a substitute took over (games/services/substitutes.py) is rated for the player who left
    # it, placed last as any leaver; the substitute's game is unrated for them.
    original = {}
    for sub in SeatSubstitution.objects.filter(game=game).order_by("version", "id"):
        original.setdefault(sub.seat, sub.leaver_id)
    leavers += [seat for seat in original if seat not in leavers]
    places = elo.placements(_ranking_with_ties(game), leavers=leavers)
    players = []
    for s in seats:
        user_id = original.get(s.seat, s.user_id)
        if s.seat in places and user_id is not None:
            players.append(Player(user_id, s.seat, places[s.seat]))
    return players


def _ranking_with_ties(game: Game) -> list:
    """The stored ranking, with seats the ruleset says tied (a shared victory) grouped together."""
    ranking = list(game.ranking or [])
    teams = _teams(game)
    if teams:  # a team game is a two-sided result: teammates share their team's place, whoever fell first
        order = list(dict.fromkeys(teams[seat] for seat in ranking if seat in teams))
        return [[seat for seat in ranking if teams.get(seat) == team] for team in order]
    placements = getattr(get_ruleset(game.ruleset), "placements", None)
    shared = placements(game.state) if placements is not None and game.status == Game.Status.FINISHED else None
    if not shared:
        return ranking
    groups: list[list[str]] = []
    for seat in ranking:
        if groups and shared.get(seat) is not None and shared.get(seat) == shared.get(groups[-1][0]):
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


def _teams(game: Game) -> dict[str, str]:
    """{seat: team} of a game played in teams (the miniatures game's two against two, M130), else {}."""
    if game.ruleset != "minis":  # the only game with teams
        return {}
    multi = game.state.get("multi") if isinstance(game.state, dict) else None
    if not isinstance(multi, dict) or multi.get("kind") != "teams":
        return {}
    return dict(multi.get("teams") or {})


def record_finished_game(game: Game) -> list[RatingChange]:
    """Apply a finished game to its players' ratings, once. Safe to call again (and concurrently):
    the game row is locked and a game already rated (it has a RatedGame) is left alone.
    Returns the changes made (none for a casual, unranked or already recorded game)."""
    if not is_rated(game):
        return []
    with transaction.atomic():
        list(Game.objects.select_for_update().filter(pk=game.pk).values_list("pk", flat=True))
        if RatedGame.objects.filter(game_id=game.pk).exists():
            return []
        players = players_of(game)
        if len(players) < 2:
            return []
        return _apply(game, players)


def _apply(game: Game, players: list[Player]) -> list[RatingChange]:
    ratings = _locked_ratings([p.user_id for p in players], game.ruleset, format_of(game))
    number = RatedGame.objects.create(game_id=game.pk).sequence  # numbered only now, with the players' rows locked
    records = _step(game, players, ratings)
    for record in records:  # each change carries its game's number: a player's history reads its own rows
        record.sequence = number
    for rating in ratings.values():
        rating.save(update_fields=["rating", "games", "last_played"])
    return RatingChange.objects.bulk_create(records)


def _step(game: Game, players: list[Player], ratings: dict[int, Rating]) -> list[RatingChange]:
    """Apply one game to the players' Rating objects (in memory: the caller saves them) and return
    its history rows, unsaved. Every change uses the ratings from before the game."""
    ruleset, fmt = game.ruleset, format_of(game)
    standings = {p.user_id: elo.Standing(ratings[p.user_id].rating, ratings[p.user_id].games) for p in players}
    changes = elo.rating_changes(standings, {p.user_id: p.placement for p in players}, conf.elo_config())
    played_at = game.finished_at or timezone.now()
    records = []
    for p in players:
        rating = ratings[p.user_id]
        before = rating.rating
        rating.rating = before + changes[p.user_id]
        rating.games += 1
        rating.last_played = played_at if rating.last_played is None else max(rating.last_played, played_at)
        records.append(RatingChange(
            user_id=p.user_id, game_id=game.pk, ruleset=ruleset, format=fmt, seat=p.seat,
            placement=p.placement, before=before, after=rating.rating, played_at=played_at,
        ))
    return records


def _locked_ratings(user_ids: Iterable[int], ruleset: str, fmt: str) -> dict[int, Rating]:
    """The players' rating rows, created at 1500 when missing, locked in user id order (no deadlock
    between two games sharing players)."""
    ids = sorted(set(user_ids))
    for user_id in ids:
        Rating.objects.get_or_create(user_id=user_id, ruleset=ruleset, format=fmt)
    rows = Rating.objects.select_for_update().filter(user_id__in=ids, ruleset=ruleset, format=fmt).order_by("user_id")
    return {r.user_id: r for r in rows}


def rated_games() -> QuerySet[Game]:
    """Every game that counts, in the order to replay it: the games already rated in the order they
    were applied (RatedGame.sequence), then the games never rated (finished while ratings were off,
    say) by finish time and id."""
    return (Game.objects.filter(ranked=True, status__in=ENDED, ranking__isnull=False)
            .order_by(F("rated__sequence").asc(nulls_last=True), "finished_at", "id"))


# ---- recomputing -------------------------------------------------------------------------------


Key = tuple[int, str, str]  # user id, ruleset, format
Snapshot = dict[Key, tuple[float, int]]
TOLERANCE = 1e-9


@dataclass(frozen=True)
class Difference:
    user_id: int
    username: str
    ruleset: str
    format: str
    stored: tuple[float, int] | None  # (rating, games), None when there is no such row
    recomputed: tuple[float, int] | None

    @property
    def delta(self) -> float | None:
        return None if self.stored is None or self.recomputed is None else self.recomputed[0] - self.stored[0]


@dataclass(frozen=True)
class Recomputed:
    games: int
    ratings: int
    differences: list[Difference]
    never_rated: list[int]  # ids of the games replayed for the first time, in the order replayed
    written: bool

    @property
    def changed(self) -> bool:
        return bool(self.differences)


def snapshot() -> Snapshot:
    return {(r.user_id, r.ruleset, r.format): (r.rating, r.games) for r in Rating.objects.all()}


def differences(old: Snapshot, new: Snapshot) -> list[Difference]:
    keys = [key for key in sorted(set(old) | set(new)) if _differ(old.get(key), new.get(key))]
    names = dict(User.objects.filter(pk__in={key[0] for key in keys}).values_list("pk", "username"))
    return [Difference(key[0], names.get(key[0], "?"), key[1], key[2], old.get(key), new.get(key)) for key in keys]


def _differ(a: tuple[float, int] | None, b: tuple[float, int] | None) -> bool:
    return a is None or b is None or abs(a[0] - b[0]) > TOLERANCE or a[1] != b[1]


@dataclass
class Replay:
    ratings: dict[Key, Rating]
    history: list[RatingChange]
    games: int
    never_rated: list[int]


def replay() -> Replay:
    """Every rating and the whole history rebuilt in memory from the rated games, in the order of
    rated_games(): what the incremental updates gave, bit for bit. Writes nothing."""
    result = Replay(ratings={}, history=[], games=0, never_rated=[])
    recorded = set(RatedGame.objects.values_list("game_id", flat=True))
    for game in _in_replay_order():
        players = players_of(game)
        if not is_rated(game) or len(players) < 2:
            continue
        ruleset, fmt = game.ruleset, format_of(game)
        rows = {p.user_id: result.ratings.setdefault((p.user_id, ruleset, fmt),
                                                     Rating(user_id=p.user_id, ruleset=ruleset, format=fmt))
                for p in players}
        result.history += _step(game, players, rows)
        result.games += 1
        if game.pk not in recorded:
            result.never_rated.append(game.pk)
    return result


def _in_replay_order(chunk: int = 500) -> Iterator[Game]:
    ids = list(rated_games().values_list("id", flat=True))
    for start in range(0, len(ids), chunk):
        games = Game.objects.in_bulk(ids[start:start + chunk])
        yield from (games[pk] for pk in ids[start:start + chunk])


def recompute_all(*, write: bool = False) -> Recomputed:
    """Replay every rated game (replay()) and compare with the stored ratings. With write=True, the
    stored ratings and history are replaced by the replayed ones (_write), with the rating rows locked
    meanwhile. Without it, nothing is written and no row is locked; on PostgreSQL, when this is the
    outermost transaction, the comparison reads one consistent snapshot (REPEATABLE READ READ ONLY), so
    a game finishing meanwhile makes no difference appear."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        stored_ids: dict[Key, int] = {}
        if write:
            rows = Rating.objects.select_for_update().order_by("user_id", "ruleset", "format")
            stored_ids = {(u, r, f): pk for pk, u, r, f in rows.values_list("pk", "user_id", "ruleset", "format")}
        elif outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        old = snapshot()
        result = replay()
        new = {key: (r.rating, r.games) for key, r in result.ratings.items()}
        diff = differences(old, new)
        if write:
            _write(result, stored_ids)
    return Recomputed(games=result.games, ratings=len(new), differences=diff, never_rated=result.never_rated,
                      written=write)


def _write(result: Replay, stored_ids: dict[Key, int]) -> None:
    """Store a replay. Rating rows are updated in place, so a game that finished meanwhile and waits for
    one of them applies on top of the replay when it gets it; the games never rated get their RatedGame,
    after all the others; the history is rewritten, each change with its game's number."""
    rows = list(result.ratings.values())
    for key, row in result.ratings.items():
        row.pk = stored_ids.get(key)
    Rating.objects.bulk_update([r for r in rows if r.pk is not None], ["rating", "games", "last_played"],
                               batch_size=500)
    Rating.objects.bulk_create([r for r in rows if r.pk is None])
    Rating.objects.filter(pk__in=set(stored_ids.values()) - {r.pk for r in rows}).delete()
    RatedGame.objects.bulk_create([RatedGame(game_id=pk) for pk in result.never_rated])
    numbers = dict(RatedGame.objects.values_list("game_id", "sequence"))
    for change in result.history:
        change.sequence = numbers.get(change.game_id)
    RatingChange.objects.all().delete()
    RatingChange.objects.bulk_create(result.history)


# ---- reading ratings ---------------------------------------------------------------------------


def rating_row(user: User, ruleset: str, fmt: str = STANDARD_FORMAT) -> Rating | None:
    return Rating.objects.filter(user=user, ruleset=ruleset, format=fmt).first()


def rating_of(user: User, ruleset: str, fmt: str = STANDARD_FORMAT) -> float | None:
    row = rating_row(user, ruleset, fmt)
    return None if row is None else row.rating


def is_provisional(rating: Rating) -> bool:
    return elo.is_provisional(rating.games, conf.provisional_games())


def effective_rating(user: User, ruleset: str) -> float:
    """The rating a lobby filter compares: no rating or a provisional one counts as 1500."""
    row = rating_row(user, ruleset)
    return elo.START_RATING if row is None or is_provisional(row) else row.rating


def leaderboard(ruleset: str, fmt: str = STANDARD_FORMAT, *, now: datetime | None = None,
                bots: bool | None = None) -> Leaderboard:
    """Ratings of a ruleset, best first; players inactive longer than RATINGS_INACTIVE_DAYS are hidden.
    Bot accounts are rated in the same pool as people (docs/bots.md) and marked; `bots`: True for the
    bot accounts alone, False for people alone, None for everyone. A Leaderboard: pages are sliced
    from its `rows`, and it counts its players with a query of its own."""
    since = (now or timezone.now()) - conf.inactive_after()
    return Leaderboard(ruleset, fmt, bots, since)


def _shown_ratings(ruleset: str, fmt: str, bots: bool | None, since: datetime) -> QuerySet[Rating]:
    shown = Rating.objects.filter(ruleset=ruleset, format=fmt, last_played__gte=since)
    return shown if bots is None else shown.filter(user__is_bot=bots)


def _leaderboard_rows(ruleset: str, fmt: str, bots: bool | None, since: datetime) -> QuerySet[Rating]:
    return (_shown_ratings(ruleset, fmt, bots, since).filter(user__is_active=True).select_related("user")
            .order_by("-rating", "user__username", "user_id"))


def _leaderboard_count(ruleset: str, fmt: str, bots: bool | None, since: datetime) -> QuerySet:
    """The leaderboard's players counted without a join to every rated player's user: the leaderboard's
    index alone (rating_active_players, index-only) and the few accounts closed."""
    return (_shown_ratings(ruleset, fmt, bots, since).exclude(user__in=User.objects.filter(is_active=False))
            .order_by().values("ruleset").annotate(n=Count("*")))


# Slices of a leaderboard read by a query compiled once per process: those starting within this many
# rows of the top (the pages people open), each read as the smallest of COMPILED_SIZES that holds it
# (a last page, shorter, shares its label with a full one: a bounded number of compiled queries); a
# slice further down, or longer, is built by the ORM.
COMPILED_ROWS = 1000
COMPILED_SIZES = (10, 20, 50, 100, 200)


class Leaderboard:
    """A leaderboard as Django's Paginator (the page's and the API's) reads it: a page is a slice of
    `rows` (with their users); the count is counted's, the same ratings found without a join to every
    rated player's user (counting `rows` joined 8,000 users to their ratings: 10 ms, 4 ms now; issue 27).
    Both compiled once per process (westeros/compiled.py; the ruleset, format and filter in the label,
    the time the parameter): building them was 1.2 ms (the count) and 1.1 ms (a page) of a leaderboard's
    CPU (issue 27, ninth round)."""

    ordered = True  # as Paginator asks of a queryset

    def __init__(self, ruleset: str, fmt: str, bots: bool | None, since: datetime):
        self.ruleset, self.fmt, self.bots, self.since = ruleset, fmt, bots, since
        self.key = f"{ruleset}:{fmt}:{bots}"

    @property
    def rows(self) -> QuerySet[Rating]:
        return _leaderboard_rows(self.ruleset, self.fmt, self.bots, self.since)

    def count(self) -> int:
        from westeros import compiled

        counted = compiled.rows(f"ratings:leaderboard-count:{self.key}",
                                partial(_leaderboard_count, self.ruleset, self.fmt, self.bots), since=self.since)
        return counted[0]["n"] if counted else 0

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index):
        if (isinstance(index, slice) and index.step is None and isinstance(index.start, int)
                and isinstance(index.stop, int) and 0 <= index.start < COMPILED_ROWS
                and 0 < index.stop - index.start <= COMPILED_SIZES[-1]):
            from westeros import compiled

            start, wanted = index.start, index.stop - index.start
            size = next(size for size in COMPILED_SIZES if size >= wanted)

            def page(since: datetime) -> QuerySet[Rating]:
                return _leaderboard_rows(self.ruleset, self.fmt, self.bots, since)[start:start + size]

            return compiled.models(f"ratings:leaderboard:{self.key}:{start}:{size}", page, since=self.since)[:wanted]
        return self.rows[index]

    def __iter__(self) -> Iterator[Rating]:
        return iter(self.rows)


def ratings_of(user: User) -> list[Rating]:
    """The user's ratings, by ruleset and format: read afresh, the query compiled once per process
    (westeros/compiled.py; every profile shows them: issue 27)."""
    from westeros import compiled

    return compiled.models("ratings:of", _ratings_of_query, user_id=user.pk)


def _ratings_of_query(user_id: int):
    return Rating.objects.filter(user_id=user_id).order_by("ruleset", "format")


def in_applied_order(changes: QuerySet[RatingChange]) -> QuerySet[RatingChange]:
    """`changes` in the order they were applied, oldest first (their games' numbers, RatedGame.sequence,
    which each change carries as its `sequence`; a game never numbered before them), which is the order
    each `before` follows the previous `after` (games ending at one instant share a played_at)."""
    return changes.order_by(F("sequence").asc(nulls_first=True), "played_at", "id")


def history(user: User, limit: int | None = None) -> list[RatingChange]:
    """The user's latest `limit` rating changes, newest first (in_applied_order's reversed): those of the
    games numbered, read down the index (user, sequence) of the user's own changes, `limit` rows (it
    walked the numbered games backwards until the user's were found: 1,018 games read, 5 ms, for a
    player of 1,632 changes; issue 27), then, when fewer were found, those of games never numbered (none
    in a history the services wrote), by time. Both queries compiled once per process (westeros/compiled.py)."""
    from westeros import compiled

    limit = limit or int(conf.get("RATINGS_HISTORY_LENGTH"))
    rows = compiled.models(f"ratings:history:{limit}", partial(_numbered_history_query, limit=limit), user_id=user.pk)
    if len(rows) < limit:  # (one compiled query per limit; the rows past it, if any, left)
        rows += compiled.models(f"ratings:history-unnumbered:{limit}", partial(_unnumbered_history_query, limit=limit),
                                user_id=user.pk)[:limit - len(rows)]
    return rows


def _numbered_history_query(user_id: int, limit: int):
    """The ids of the user's latest `limit` numbered changes from the index (user, sequence) alone, then
    those rows. Asked in one step (the rows ordered by the index and cut at `limit`), a prepared
    statement's generic plan, which expects a player to have a dozen changes, read all 1,632 of the busy
    player's and sorted them (3.8 ms; 0.45 ms in two steps; issue 27)."""
    latest = (RatingChange.objects.filter(user_id=user_id, sequence__isnull=False)
              .order_by("-sequence").values("id")[:limit])
    return (RatingChange.objects.filter(id__in=latest).annotate(game_private=game_column("private"))
            .order_by("-sequence"))


def _unnumbered_history_query(user_id: int, limit: int):
    return (RatingChange.objects.filter(user_id=user_id, sequence__isnull=True)
            .annotate(game_private=game_column("private")).order_by("-played_at", "-id")[:limit])


# ---- reliability -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reliability:
    """Reliability over a user's last N decisions (N = RELIABILITY_DECISIONS):

    - a *decision* is a GameAction with source "player" or "timeout" in a seat the user held
      (timeout rows have no user: they are matched by game and seat), and every game the user
      abandoned (GameSeat.left_at set) counts as one more decision, at the time they left;
    - the last N of these, newest first, are counted; a timeout or an abandonment is a miss;
    - reliability = 1 - misses / decisions, between 0 and 1; 1.0 with no decision yet.
    """

    decisions: int
    timeouts: int
    abandoned: int

    @property
    def missed(self) -> int:
        return self.timeouts + self.abandoned

    @property
    def score(self) -> float:
        return 1.0 if self.decisions == 0 else 1.0 - self.missed / self.decisions


def reliability_report(user: User, window: int | None = None) -> Reliability:
    window = window or conf.reliability_decisions()
    subs = _substitutions(user)
    events = sorted(_decision_events(user, window, subs) + _abandon_events(user, window, subs), reverse=True)[:window]
    timeouts = sum(1 for _, kind in events if kind == "timeout")
    abandoned = sum(1 for _, kind in events if kind == "abandoned")
    return Reliability(decisions=len(events), timeouts=timeouts, abandoned=abandoned)


def reliability_of(user: User) -> float:
    return reliability_report(user).score


def shown_reliability(user: User) -> Reliability:
    """The reliability a profile shows (the page and GET /api/v1/users/{name}): reliability_report,
    kept RELIABILITY_SHOWN_SECONDS in the cache, so a profile opened again and again reads a busy
    player's latest decisions once a minute at most (issue 27: 10-15 ms a profile). Decisions that
    admit or refuse a player (lobbies, tournaments) read it afresh."""
    return cache.get_or_set(f"ratings:reliability:{user.pk}", lambda: reliability_report(user),
                            RELIABILITY_SHOWN_SECONDS)


RELIABILITY_SHOWN_SECONDS = 60


# The user's latest games whose decisions are read first (the rest, when needed, in one more query).
DECISION_GAMES = 64


def _decision_events(user: User, window: int, subs: list[tuple]) -> list[tuple[datetime, str]]:
    """The user's newest `window` decisions (created_at, source), newest first.

    The cost follows the window, not the player's whole history: a game's decisions are all logged
    before it ends (its finished_at), so the decisions of the user's latest DECISION_GAMES games (those
    in progress first, then the latest ended) are read first; the other games are read (in one query)
    only when the window is not full yet, or one of them ended after the window's oldest decision,
    and then only those."""
    decisions = [GameAction.Source.PLAYER, GameAction.Source.TIMEOUT]
    taken_over = SeatSubstitution.objects.filter(game_id=OuterRef("game_id"), seat=OuterRef("seat"))
    seats = GameSeat.objects.filter(user=user).exclude(Exists(taken_over))
    latest = list(seats.annotate(ended=game_column("finished_at"))
                  .order_by(F("ended").desc(nulls_first=True), "-game_id")
                  .values_list("game_id", "seat", "ended")[:DECISION_GAMES + 1])
    read = latest[:DECISION_GAMES]
    found: list[tuple[datetime, int, str]] = []  # (created_at, id, source), newest first
    if read:  # the user holds one seat a game: the game and the seat's user say which
        game_ids = [game_id for game_id, _, _ in read]
        # the seats of the games read alone (else PostgreSQL hashed every seat of the player's)
        held = GameSeat.objects.filter(game_id=OuterRef("game_id"), seat=OuterRef("seat"), user=user,
                                       game_id__in=game_ids)
        found = list(GameAction.objects.filter(Exists(held), game_id__in=game_ids, source__in=decisions)
                     .order_by("-created_at", "-id").values_list("created_at", "id", "source")[:window])
    if len(latest) > len(read):
        ended = latest[-1][2]  # the latest end of the games not read (None: one is in progress)
        full = len(found) >= window
        if not (full and ended is not None and found[-1][0] > ended):
            rest = seats.exclude(game_id__in=[game_id for game_id, _, _ in read])
            if full:  # only the games that may hold a decision newer than the window's oldest
                rest = rest.filter(Q(game__finished_at__isnull=True) | Q(game__finished_at__gte=found[-1][0]))
            more = (GameAction.objects.filter(game_id__in=rest.values("game_id"), source__in=decisions)
                    .filter(Exists(rest.filter(game_id=OuterRef("game_id"), seat=OuterRef("seat")))))
            if full:
                more = more.filter(created_at__gte=found[-1][0])
            more = more.order_by("-created_at", "-id").values_list("created_at", "id", "source")[:window]
            found = sorted([*found, *more], reverse=True)[:window]
    rows = [(at, source) for at, _, source in found]
    # seats a substitute took over: each player's decisions are those of their own time in the seat
    # (the leaver's up to the take-over, the substitute's from it on)
    spans = _seat_spans(user, subs)
    if spans:
        match = Q()
        for game_id, seat, after, until in spans:
            match |= Q(game_id=game_id, seat=seat, version__gt=after, **({} if until is None else {"version__lte": until}))
        rows += list(GameAction.objects.filter(match, source__in=decisions)
                     .order_by("-created_at", "-id").values_list("created_at", "source")[:window])
    return [(at, str(source)) for at, source in rows]


def _substitutions(user: User) -> list[tuple]:
    """(game, seat, version, leaver, substitute, left at) of every take-over of a seat the user left or
    took over (all the seat's take-overs, in order), read once for the spans and the abandonments."""
    return list(SeatSubstitution.objects.filter(
        Exists(SeatSubstitution.objects.filter(game_id=OuterRef("game_id"), seat=OuterRef("seat"))
               .filter(Q(leaver=user) | Q(substitute=user)))).order_by("game_id", "seat", "version", "id")
        .values_list("game_id", "seat", "version", "leaver_id", "substitute_id", "left_at"))


def _seat_spans(user: User, subs: list[tuple]) -> list[tuple[int, str, int, int | None]]:
    """(game, seat, after version, until version or None) of the user's time in each seat a substitute
    took over, the user's or one the user took over."""
    spans = []
    for index, (game_id, seat, version, leaver_id, substitute_id, _) in enumerate(subs):
        first = index == 0 or subs[index - 1][:2] != (game_id, seat)
        if leaver_id == user.pk:
            spans.append((game_id, seat, 0 if first else subs[index - 1][2], version))
        if substitute_id == user.pk:
            last = index + 1 == len(subs) or subs[index + 1][:2] != (game_id, seat)
            spans.append((game_id, seat, version, None if last else subs[index + 1][2]))
    return spans


def _abandon_events(user: User, window: int, subs: list[tuple]) -> list[tuple[datetime, str]]:
    rows = (GameSeat.objects.filter(user=user, left_at__isnull=False)
            .order_by("-left_at").values_list("left_at", flat=True)[:window])
    # seats left and then taken over by a substitute: the leaver keeps the abandonment
    rows = [*rows, *sorted((sub[5] for sub in subs if sub[3] == user.pk), reverse=True)[:window]]
    return [(at, "abandoned") for at in rows]


# ---- lobby filter ------------------------------------------------------------------------------


def meets_requirements(user: User, lobby: Lobby) -> str | None:
    """Why the user may not join the lobby (its min_rating or min_reliability), or None."""
    if lobby.min_rating is not None:
        rating = effective_rating(user, lobby.ruleset)
        if rating < lobby.min_rating:
            from django.utils.translation import gettext

            from games.rulesets import name

            return gettext("This lobby requires a rating of at least %(least)d in %(game)s; yours counts as "
                           "%(yours)s.") % {"least": lobby.min_rating, "game": gettext(name(lobby.ruleset)),
                                            "yours": f"{rating:.0f}"}
    if lobby.min_reliability is not None:
        reliability = reliability_of(user)
        if reliability < lobby.min_reliability:
            from django.utils.translation import gettext

            return gettext("This lobby requires a reliability of at least %(least)s; yours is %(yours)s.") % {
                "least": f"{lobby.min_reliability:.0%}", "yours": f"{reliability:.0%}"}
    return None


# ---- profile -----------------------------------------------------------------------------------


def games_played(user: User) -> int:
    """Games the user sat in that have ended (finished or abandoned), ranked or not: the user's seats
    less those in a game in progress, found by the games' status index (counting the seats of ended
    games joined every game to the user's seats: 16 ms for a player with 2,000 games, 3 ms now; their
    games counted, not their ids, from the index (user, game) alone: 0.75 ms). The query compiled once
    per process (westeros/compiled.py), the user its parameter (issue 27)."""
    from westeros import compiled

    counted = compiled.rows("ratings:games-played", _games_played_query, user_id=user.pk)
    return counted[0]["n"] if counted else 0


def _games_played_query(user_id: int):
    """games_played's query: one row (the user's) with the count, or none without a seat."""
    in_progress = Game.objects.filter(status__in=IN_PROGRESS).values("pk")
    return (GameSeat.objects.filter(user_id=user_id).exclude(game_id__in=in_progress)
            .order_by().values("user_id").annotate(n=Count("game_id")))


@dataclass(frozen=True)
class Profile:
    username: str
    date_joined: datetime
    games_played: int
    bot: bool
    reliability: Reliability
    ratings: list[Rating]
    history: list[RatingChange]


def public_profile(user: User) -> Profile:
    return Profile(
        username=user.username,
        date_joined=user.date_joined,
        games_played=games_played(user),
        bot=user.is_bot,
        reliability=shown_reliability(user),
        ratings=ratings_of(user),
        history=history(user),
    )
