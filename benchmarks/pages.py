"""Page benchmark (not a test): every page a person opens and every API GET, at a real site's size.

    python benchmarks/pages.py [--users 10000] [--games 50000] [--active 500] [--tournaments 200]
        [--busy-games 2000] [--busy-active 50] [--repeat 20] [--database NAME] [--keep]

Builds a database of its own (PostgreSQL when DATABASE_URL is set: `--database`, default
westeros_bench_pages, created here and dropped at the end unless `--keep`; else a SQLite file in a
temporary directory; never the test or the development database) at the stated size:
`--users` users (a few of them bot accounts), `--games` finished games across the four rulesets,
`--active` games in progress, `--tournaments` tournaments (registration, running and finished, their
tables being games of the pool), ratings with their history (a rating change per player of every
ranked game), open lobbies, challenges, notifications and chat, and one busy player with
`--busy-games` finished games and `--busy-active` games in progress. Rows are written directly
(bulk inserts): a few real games per ruleset and seat count are played first by the engines'
players, and every stored game is a copy of one of them (seed, final state and log), so that every
log replays. Games in progress are copies of a prefix of such a log.

Then Daphne is started on a free 127.0.0.1 port, with a pool of database connections as a production
server has (DB_POOL_SIZE), and with the benchmark's settings
(benchmarks/pages_settings.py: the site's settings plus a middleware, ServerTiming below, that
times each request inside the Django process, from the first middleware in to the response out,
and counts its database queries with connection.execute_wrapper; both come back as response
headers). Each page and API GET is requested `--repeat` times (after two warm-up requests), as
the busy player (a session for pages, an API token for the API) and as a visitor, in rounds (one
request of every row per round, so that a slow moment of the machine falls on every row alike),
together with the bare DRF endpoint GET /api/v1/me. For each row: server time p50 and p95, its CPU
time p50 (the request's thread: what a change of code changes, whatever else the machine runs), the
queries per request, the response's bytes and status, and the ratio of its p95 to the bare
endpoint's. Goal (issue 27): every row's p95 <= 50 ms and <= 3x the bare endpoint's p95; the rows
that miss it are listed, and every failed request is counted and printed. The time measured is
the server's (the client's round trip, p50 and p95, is printed beside it for reference). The server's garbage
collections are printed after the table: those during requests (in their server time) and those
Daphne makes between requests (westeros/heap.py), which a request arriving at that moment waits for.
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from server_api import percentile  # noqa: E402  (the other server benchmarks' own)

from westeros.ports import free_port  # noqa: E402

RULESETS = ("agot", "btwixt", "lcg", "minis")
# seat counts of the games stored per ruleset (each gets a few engine-played templates)
SEAT_COUNTS = {"agot": (3, 4, 6), "btwixt": (3, 4), "lcg": (2,), "minis": (2,)}
SHARE = {"agot": 0.4, "btwixt": 0.2, "lcg": 0.2, "minis": 0.2}  # of the finished games
TEMPLATE_SEEDS = (11, 12)
BUSY = "busy_player"
BUSY_PASSWORD = "bench-busy-password-123"
GOAL_MS = 50.0
GOAL_RATIO = 3.0


# --- the server-side measurement (loaded by benchmarks/pages_settings.py only) ---------------------

class Collections:
    """The server's garbage collections (gc.callbacks), those during a request apart from those between
    requests (westeros/heap.py): a request arriving during one of the latter waits for it, before
    Django sees it, so its time is printed beside the table rather than hidden."""

    def __init__(self):
        self.requests = 0  # in flight inside ServerTiming
        self.serving = False  # from the first request on (not the server's start)
        self.started = 0.0
        self.in_request = 0.0  # ms, the current request's
        self.between: list[float] = []  # ms, each
        gc.callbacks.append(self.timed)

    def timed(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.started = time.perf_counter()
            return
        took = (time.perf_counter() - self.started) * 1000
        if self.requests:
            self.in_request += took
        elif self.serving:
            self.between.append(took)

    def header(self) -> str:
        return f"{len(self.between)};{sum(self.between):.1f};{max(self.between, default=0):.1f}"


class ServerTiming:
    """Times the request inside Django (every other middleware, the view, the template) and counts
    its queries: `Server-Timing: app;dur=<ms>, cpu;dur=<ms>, gc;dur=<ms>` and `X-Bench-Queries: <n>`
    on the response. `cpu` is the CPU time of the request's thread (Django runs the middleware, the
    view and the template on one thread per request under ASGI): the time spent waiting, for a CPU on
    a busy machine or for PostgreSQL, is not in it, so it compares code across runs at different
    loads. `gc` is the garbage collections during the request; `X-Bench-Collections` counts those
    between requests so far (count;ms in all;longest ms)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.collections = Collections()

    def __call__(self, request):
        from django.db import connection

        count = [0]

        def counter(execute, sql, params, many, context):
            count[0] += 1
            return execute(sql, params, many, context)

        collections = self.collections
        collections.requests += 1
        collections.serving = True
        collections.in_request = 0.0
        started, cpu_started = time.perf_counter(), time.thread_time()
        try:
            with connection.execute_wrapper(counter):
                response = self.get_response(request)
                if hasattr(response, "render") and callable(response.render) and not response.is_rendered:
                    response.render()
        finally:
            collections.requests -= 1
        took, cpu = (time.perf_counter() - started) * 1000, (time.thread_time() - cpu_started) * 1000
        response["Server-Timing"] = f"app;dur={took:.2f}, cpu;dur={cpu:.2f}, gc;dur={collections.in_request:.2f}"
        response["X-Bench-Queries"] = str(count[0])
        response["X-Bench-Collections"] = collections.header()
        return response


# --- the database ---------------------------------------------------------------------------------

def setup_environment(database: str, run_dir: Path, reuse: bool = False) -> tuple[dict[str, str], str | None]:
    env = dict(os.environ)
    pg_name = None
    url = env.get("DATABASE_URL", "")
    if url:
        if not url.startswith(("postgres://", "postgresql://")):
            sys.exit("DATABASE_URL must name a PostgreSQL server (or be unset: SQLite).")
        base = url.rsplit("/", 1)[0]
        netloc = base.split("://", 1)[1].rsplit("@", 1)[-1]
        host, _, port = netloc.partition(":")
        pg_name = database
        args = ["-h", host or "127.0.0.1", "-p", port or "5432", "-U", "postgres", pg_name]
        if not reuse:
            subprocess.run(["dropdb", "--if-exists", "--force", *args], check=False)
            subprocess.run(["createdb", *args], check=True)
        env["DATABASE_URL"] = f"{base}/{pg_name}"
        env["_BENCH_PG_ARGS"] = " ".join(args)
    else:
        env["DATABASE_URL"] = f"sqlite:///{run_dir}/pages.sqlite3"
    env.pop("REDIS_URL", None)  # the in-memory channel layer and cache: nothing lands in a shared Redis
    # The database connections as a production server has them (deploy/westeros.env.example): a pool
    # of DB_POOL_SIZE per process. Without it, Daphne (ASGI: each request on a thread of its own)
    # opened a connection for every request, and every query of it was planned on a cold catalog
    # cache: 10-30 ms a request that the site does not pay (issue 27, fifth round).
    env.update(SECRET_KEY="bench", DEBUG="false", ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="false",
               DJANGO_SETTINGS_MODULE="benchmarks.pages_settings", LOG_LEVEL="WARNING", DB_POOL_SIZE="10",
               DB_CONN_MAX_AGE="0", STATIC_ROOT=str(run_dir / "static"), DEADLINE_RUNNER_IN_SERVER="false",
               EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend")
    return env, pg_name


def prepare_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def play_template(ruleset: str, players: int, seed: int) -> dict:
    """One game played to its end by the engine's players: its seats, final state, ranking and log."""
    from games.engine import get_ruleset

    engine = get_ruleset(ruleset)
    seats = engine.seat_names(players)
    state = engine.new_game(seats, {}, seed)
    log, midway = [], None
    for _ in range(20_000):
        if engine.is_over(state):
            break
        seat = sorted(engine.pending(state))[0]
        action = engine.bot_action(state, seat)
        state, events = engine.apply(state, seat, action)
        log.append((seat, action, events))
        if midway is None and len(log) >= 40 and not engine.is_over(state):
            midway = (len(log), state, sorted(engine.pending(state)))
    return {"ruleset": ruleset, "seats": seats, "seed": seed, "state": state, "log": log,
            "ranking": engine.ranking(state) if engine.is_over(state) else None, "midway": midway}


class Builder:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.rng = random.Random(2027)
        self.now = None
        self.templates: dict[tuple[str, int], list[dict]] = {}
        self.ratings: dict[tuple[int, str], list] = {}  # (user, ruleset) -> [rating, games, last]
        self.pending_changes: list = []

    def build(self) -> dict:
        from django.utils import timezone

        self.now = timezone.now()
        started = time.perf_counter()
        self.make_templates()
        self.make_users()
        self.make_finished_and_tournaments()
        self.make_active()
        self.make_ratings()
        self.make_lobbies_challenges_notifications()
        return {"seconds": time.perf_counter() - started}

    def step(self, text: str) -> None:
        print(f"  {text}", flush=True)

    # templates: real games, stored as themselves (unranked, the computer in every seat)
    def make_templates(self) -> None:
        from games.models import Game, GameAction, GameSeat

        for ruleset in RULESETS:
            for players in SEAT_COUNTS[ruleset]:
                for seed in TEMPLATE_SEEDS:
                    t = play_template(ruleset, players, seed)
                    salt = f"{seed:032x}"
                    game = Game.objects.create(
                        ruleset=ruleset, seed=seed, seed_salt=salt, seed_hash=Game.commitment(seed, salt),
                        state=t["state"], version=len(t["log"]), ranking=t["ranking"], status=Game.Status.FINISHED,
                        created_at=self.now - timedelta(days=800), finished_at=self.now - timedelta(days=799))
                    GameSeat.objects.bulk_create(GameSeat(game=game, seat=s, position=i, is_bot=True)
                                                 for i, s in enumerate(t["seats"]))
                    GameAction.objects.bulk_create(
                        (GameAction(game=game, version=v, seat=seat, action=action, events=events,
                                    source=GameAction.Source.BOT, created_at=game.created_at)
                         for v, (seat, action, events) in enumerate(t["log"], 1)), batch_size=500)
                    t["game_id"] = game.pk
                    self.templates.setdefault((ruleset, players), []).append(t)
        actions = sum(len(t["log"]) for ts in self.templates.values() for t in ts)
        self.step(f"{sum(map(len, self.templates.values()))} template games played by the engines' players "
                  f"({actions} actions)")

    def make_users(self) -> None:
        from django.contrib.auth.hashers import make_password

        from accounts.models import User

        password = make_password("bench-user-password-123")
        users = [User(username=f"user{n:05d}", email=f"user{n:05d}@bench.example", password=password,
                      date_joined=self.now - timedelta(days=self.rng.randint(1, 900)),
                      is_bot=n < 8, bot_since=self.now - timedelta(days=30) if n < 8 else None)
                 for n in range(self.args.users - 1)]
        User.objects.bulk_create(users, batch_size=2000)
        self.busy = User.objects.create_user(username=BUSY, email="busy@bench.example", password=BUSY_PASSWORD)
        self.user_ids = list(User.objects.filter(is_bot=False).exclude(pk=self.busy.pk).values_list("pk", flat=True))
        self.bot_ids = list(User.objects.filter(is_bot=True).values_list("pk", flat=True))
        self.step(f"{self.args.users} users ({len(self.bot_ids)} bot accounts, one busy player: {BUSY})")

    def spec(self, ruleset: str, players: int, users: list[int], *, ranked: bool, finished_at) -> dict:
        template = self.rng.choice(self.templates[(ruleset, players)])
        return {"t": template, "users": users, "ranked": ranked, "finished_at": finished_at}

    def random_users(self, count: int, including: int | None = None) -> list[int]:
        users = self.rng.sample(self.user_ids, count)
        if including is not None:
            users[self.rng.randrange(count)] = including
        return users

    def random_time(self):
        return self.now - timedelta(minutes=self.rng.randint(60, 720 * 24 * 60))

    def make_finished_and_tournaments(self) -> None:
        from tournaments.models import Registration, Round, Table, TableSeat, Tournament

        specs: list[dict] = []
        # tournaments: a third registering, a third running (rounds 1-2 played), a third finished
        tournaments, plans = [], []
        for n in range(self.args.tournaments):
            ruleset = RULESETS[n % 4]
            per_table = max(SEAT_COUNTS[ruleset])
            status = (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING, Tournament.Status.FINISHED)[n % 3]
            entrants = self.random_users(per_table * self.rng.randint(2, 4), self.busy.pk if n % 10 == 0 else None)
            created = self.random_time()
            tournaments.append(Tournament(
                name=f"Bench cup {n}", description="A tournament of the benchmark.", ruleset=ruleset, rounds=3,
                seats_per_table=per_table, min_seats_per_table=per_table, organizer_id=self.rng.choice(self.user_ids),
                status=status, current_round=0 if status == "registration" else (2 if status == "running" else 3),
                created_at=created, started_at=None if status == "registration" else created + timedelta(days=3),
                finished_at=created + timedelta(days=30) if status == "finished" else None, ranked=True))
            rounds = 0 if status == "registration" else (2 if status == "running" else 3)
            plans.append((ruleset, per_table, entrants, rounds, created))
        tournaments = Tournament.objects.bulk_create(tournaments)
        registrations = Registration.objects.bulk_create(
            Registration(tournament=t, user_id=u, seed_rank=i + 1, rating=1500)
            for t, (_, _, entrants, _, _) in zip(tournaments, plans, strict=True) for i, u in enumerate(entrants))
        by_tournament: dict[int, dict[int, Registration]] = {}
        for r in registrations:
            by_tournament.setdefault(r.tournament_id, {})[r.user_id] = r
        table_plans = []  # (tournament, round number, table number, game spec, registrations)
        for t, (ruleset, per_table, entrants, rounds, created) in zip(tournaments, plans, strict=True):
            for number in range(1, rounds + 1):
                order = entrants[:]
                self.rng.shuffle(order)
                for table in range(len(order) // per_table):
                    users = order[table * per_table:(table + 1) * per_table]
                    spec = self.spec(ruleset, per_table, users, ranked=True,
                                     finished_at=created + timedelta(days=3 + 7 * number))
                    table_plans.append((t, number, table + 1, spec, [by_tournament[t.pk][u] for u in users]))
                    specs.append(spec)
        tournament_games = len(specs)
        # the busy player's history, then everyone else's
        busy = min(self.args.busy_games, max(0, self.args.games - tournament_games))
        rest = max(0, self.args.games - tournament_games - busy)
        for n in range(busy + rest):
            ruleset = self.rng.choices(RULESETS, weights=[SHARE[r] for r in RULESETS])[0]
            players = self.rng.choice(SEAT_COUNTS[ruleset])
            users = self.random_users(players, self.busy.pk if n < busy else None)
            if n % 25 == 0 and self.bot_ids:  # bot accounts play too
                users[-1] = self.rng.choice([b for b in self.bot_ids if b not in users])
            specs.append(self.spec(ruleset, players, users, ranked=n % 5 != 0, finished_at=self.random_time()))
        specs.sort(key=lambda s: s["finished_at"])  # ratings move in the order games finished
        ids = self.insert_games(specs, active=False)
        self.step(f"{len(ids)} finished games ({tournament_games} of them tournament tables, {busy} of the busy "
                  "player) with their logs")
        rounds = Round.objects.bulk_create(
            Round(tournament=t, number=n, status=Round.Status.FINISHED if n < t.current_round or t.status == "finished"
                  else Round.Status.ACTIVE, started_at=t.started_at + timedelta(days=7 * (n - 1)))
            for t, plan in zip(tournaments, plans, strict=True) for n in range(1, plan[3] + 1))
        round_of = {(r.tournament_id, r.number): r for r in rounds}
        tables = Table.objects.bulk_create(
            Table(round=round_of[(t.pk, number)], number=table, game_id=spec["id"],
                  status=Table.Status.FINISHED, finished_at=spec["finished_at"])
            for t, number, table, spec, _ in table_plans)
        seats = []
        for table, (_, _, _, spec, regs) in zip(tables, table_plans, strict=True):
            ranking = spec["t"]["ranking"]
            for position, (seat, reg) in enumerate(zip(spec["t"]["seats"], regs, strict=True)):
                place = ranking.index(seat) + 1
                seats.append(TableSeat(table=table, registration=reg, seat=seat, position=position, place=place,
                                       points=max(0, 10 - 3 * (place - 1)), time_used=self.rng.uniform(60, 6000)))
        TableSeat.objects.bulk_create(seats, batch_size=2000)
        self.step(f"{len(tournaments)} tournaments ({len(registrations)} registrations, {len(tables)} tables)")

    def insert_games(self, specs: list[dict], *, active: bool) -> list[int]:
        """Game and seat rows for `specs` (bulk), then their logs copied from the templates' in SQL."""
        from django.db import connection, transaction

        from games.models import Game, GameSeat

        ids: list[int] = []
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS bench_copy")
            cursor.execute("CREATE TABLE bench_copy (game_id bigint, template_id bigint, upto integer)")
        chunk = 2000
        for start in range(0, len(specs), chunk):
            part = specs[start:start + chunk]
            with transaction.atomic():
                games = []
                for spec in part:
                    t = spec["t"]
                    done = spec["finished_at"]
                    if active:
                        version, state, _ = t["midway"]
                        games.append(Game(ruleset=t["ruleset"], seed=t["seed"], seed_salt=f"{t['seed']:032x}",
                                          seed_hash=Game.commitment(t["seed"], f"{t['seed']:032x}"), state=state,
                                          version=version, status=Game.Status.ACTIVE, ranked=spec["ranked"],
                                          created_at=done - timedelta(days=2),
                                          deadline_at=self.now + timedelta(hours=self.rng.randint(1, 23))))
                    else:
                        games.append(Game(ruleset=t["ruleset"], seed=t["seed"], seed_salt=f"{t['seed']:032x}",
                                          seed_hash=Game.commitment(t["seed"], f"{t['seed']:032x}"),
                                          state=t["state"], version=len(t["log"]), ranking=t["ranking"],
                                          status=Game.Status.FINISHED, ranked=spec["ranked"],
                                          created_at=done - timedelta(hours=self.rng.randint(1, 200)),
                                          finished_at=done))
                games = Game.objects.bulk_create(games, batch_size=500)
                seats = []
                for spec, game in zip(part, games, strict=True):
                    spec["id"] = game.pk
                    pending = set(spec["t"]["midway"][2]) if active else set()
                    for i, (seat, user) in enumerate(zip(spec["t"]["seats"], spec["users"], strict=True)):
                        seats.append(GameSeat(game=game, seat=seat, position=i, user_id=user,
                                              deadline_at=game.deadline_at if seat in pending else None))
                GameSeat.objects.bulk_create(seats, batch_size=2000)
                with connection.cursor() as cursor:
                    cursor.executemany("INSERT INTO bench_copy (game_id, template_id, upto) VALUES (%s, %s, %s)",
                                       [(s["id"], s["t"]["game_id"], s["t"]["midway"][0] if active else 1_000_000)
                                        for s in part])
                    cursor.execute(
                        "INSERT INTO games_gameaction (game_id, version, seat, action, events, source, user_id, "
                        "idempotency_key, request_hash, clocks, created_at) "
                        "SELECT c.game_id, a.version, a.seat, a.action, a.events, 'player', s.user_id, '', '', NULL, "
                        "g.created_at FROM bench_copy c JOIN games_gameaction a ON a.game_id = c.template_id "
                        "AND a.version <= c.upto JOIN games_game g ON g.id = c.game_id "
                        "LEFT JOIN games_gameseat s ON s.game_id = c.game_id AND s.seat = a.seat")
                    cursor.execute("DELETE FROM bench_copy")
            ids += [s["id"] for s in part]
            if start and start % 10_000 == 0:
                self.step(f"... {start} games stored")
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE bench_copy")
        if not active:
            self.finished_specs = getattr(self, "finished_specs", []) + specs
        return ids

    def make_active(self) -> None:
        from chat.models import ChatMessage
        from games.models import Game

        specs = []
        for n in range(self.args.active):
            ruleset = RULESETS[n % 4]
            players = self.rng.choice(SEAT_COUNTS[ruleset])
            users = self.random_users(players, self.busy.pk if n < self.args.busy_active else None)
            specs.append(self.spec(ruleset, players, users, ranked=n % 3 != 0, finished_at=self.now))
        ids = self.insert_games(specs, active=True)
        self.active_ids = ids
        messages = []
        for spec in specs:
            for k in range(20):
                seat_index = k % len(spec["users"])
                messages.append(ChatMessage(game_id=spec["id"], channel="table", sender_id=spec["users"][seat_index],
                                            sender_seat=spec["t"]["seats"][seat_index], text=f"Message {k}: your move."))
        ChatMessage.objects.bulk_create(messages, batch_size=2000)
        Game.objects.filter(pk__in=ids).update(time_limit=24 * 60 * 60)
        self.step(f"{len(ids)} games in progress ({min(self.args.busy_active, len(ids))} of the busy player), "
                  f"{len(messages)} chat messages")

    def make_ratings(self) -> None:
        from ratings.models import RatedGame, Rating, RatingChange

        changes, rated = [], []
        current: dict[tuple[int, str], list] = {}
        for spec in self.finished_specs:
            if not spec["ranked"]:
                continue
            t = spec["t"]
            rated.append(RatedGame(game_id=spec["id"]))
            count = len(t["seats"])
            for seat, user in zip(t["seats"], spec["users"], strict=True):
                key = (user, t["ruleset"])
                entry = current.setdefault(key, [1500.0, 0, None])
                place = t["ranking"].index(seat) + 1
                delta = 16.0 * (count + 1 - 2 * place) / count + self.rng.uniform(-2, 2)
                changes.append(RatingChange(user_id=user, game_id=spec["id"], ruleset=t["ruleset"], seat=seat,
                                            placement=place, before=entry[0], after=entry[0] + delta,
                                            played_at=spec["finished_at"]))
                entry[0] += delta
                entry[1] += 1
                entry[2] = spec["finished_at"]
        RatedGame.objects.bulk_create(rated, batch_size=5000)
        numbers = dict(RatedGame.objects.values_list("game_id", "sequence"))
        for change in changes:  # each change carries its game's number, as ratings/services.py _apply writes it
            change.sequence = numbers[change.game_id]
        RatingChange.objects.bulk_create(changes, batch_size=5000)
        Rating.objects.bulk_create((Rating(user_id=u, ruleset=r, rating=v[0], games=v[1], last_played=v[2])
                                    for (u, r), v in current.items()), batch_size=5000)
        self.step(f"{len(current)} ratings, {len(changes)} rating changes of {len(rated)} ranked games")

    def make_lobbies_challenges_notifications(self) -> None:
        from accounts.models import ApiToken
        from challenges.models import Challenge, Invite
        from games.models import Lobby, LobbyMember
        from notifications.models import Kind, Notification, NotificationSettings

        lobbies = []
        for n in range(120):
            ruleset = RULESETS[n % 4]
            seats = max(SEAT_COUNTS[ruleset])
            lobbies.append(Lobby(ruleset=ruleset, name=f"Lobby {n}", creator_id=self.busy.pk if n < 3 else
                                 self.rng.choice(self.user_ids), seat_count=seats, time_limit=86400,
                                 ranked=n % 2 == 0, created_at=self.now - timedelta(minutes=n * 7)))
        lobbies = Lobby.objects.bulk_create(lobbies)
        members = []
        for lobby in lobbies:
            takers = [lobby.creator_id] + self.rng.sample(self.user_ids, self.rng.randint(0, lobby.seat_count - 2))
            members += [LobbyMember(lobby=lobby, user_id=u) for u in dict.fromkeys(takers)]
        LobbyMember.objects.bulk_create(members)
        challenges, invites = [], []
        for n in range(60):
            incoming = n % 2 == 0
            challenger = self.rng.choice(self.user_ids) if incoming else self.busy.pk
            status = Challenge.Status.PENDING if n < 10 else Challenge.Status.DECLINED
            challenges.append(Challenge(challenger_id=challenger, ruleset=RULESETS[n % 4], time_limit=86400,
                                        status=status, created_at=self.now - timedelta(hours=n),
                                        expires_at=self.now + timedelta(days=1),
                                        ended_at=None if status == "pending" else self.now - timedelta(minutes=n)))
        challenges = Challenge.objects.bulk_create(challenges)
        for n, challenge in enumerate(challenges):
            invitee = self.busy.pk if n % 2 == 0 else self.rng.choice(self.user_ids)
            others = [] if challenge.ruleset in ("lcg", "minis") else [self.rng.choice(self.user_ids)]
            for position, user in enumerate([invitee, *others]):
                if user != challenge.challenger_id:
                    invites.append(Invite(challenge=challenge, user_id=user, position=position,
                                          status=Invite.Status.PENDING if challenge.status == "pending" else "declined"))
        Invite.objects.bulk_create(invites)
        NotificationSettings.objects.create(user=self.busy)
        notes = [Notification(user_id=self.busy.pk, game_id=spec["id"], kind=Kind.GAME_ENDED,
                              key=f"bench-{spec['id']}", created_at=spec["finished_at"], emailed_at=spec["finished_at"])
                 for spec in self.finished_specs if self.busy.pk in spec["users"]]
        Notification.objects.bulk_create(notes, batch_size=2000)
        for n in range(5):
            ApiToken.issue(self.busy, f"script {n}")
        self.step(f"{len(lobbies)} open lobbies, {len(challenges)} challenges, {len(notes)} notifications")


# --- the requests ---------------------------------------------------------------------------------

def start_daphne(env: dict[str, str], log: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "westeros.asgi:application"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=open(log, "w"))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=5).read()
            return server, port
        except urllib.error.HTTPError:
            return server, port
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.2)
    server.terminate()
    sys.exit(f"Daphne did not answer (its log: {log})")


def fetch(url: str, headers: dict[str, str]) -> dict:
    request = urllib.request.Request(url, headers=headers)
    started = time.perf_counter()
    try:
        response = urllib.request.urlopen(request, timeout=120)
    except urllib.error.HTTPError as error:
        response = error
    except OSError as error:
        return {"status": 0, "error": f"{type(error).__name__}: {error}"}
    body = response.read()
    took = (time.perf_counter() - started) * 1000
    timing = dict(part.strip().split(";dur=") for part in response.headers.get("Server-Timing", "").split(",")
                  if ";dur=" in part)
    server_ms = float(timing["app"]) if "app" in timing else None
    cpu_ms = float(timing["cpu"]) if "cpu" in timing else None
    queries = response.headers.get("X-Bench-Queries")
    return {"status": response.status if hasattr(response, "status") else response.code, "bytes": len(body),
            "client": took, "server": server_ms, "cpu": cpu_ms, "gc": float(timing.get("gc", 0)),
            "collections": response.headers.get("X-Bench-Collections"),
            "queries": int(queries) if queries is not None else None}


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def rows_to_measure(busy, build: Builder | None) -> list[tuple[str, str, str]]:
    """(label, who, path): every page a person opens and every API GET, as the busy player and as a
    visitor. `who` is 'player' (session or token) or 'visitor'."""
    from django.db.models import Count

    from challenges.models import Challenge
    from games.models import Game, GameSeat, Lobby
    from tournaments.models import Tournament

    mine = GameSeat.objects.filter(user=busy).values_list("game_id", flat=True)
    active = {r: Game.objects.filter(pk__in=mine, ruleset=r, status="active").order_by("pk").first() for r in RULESETS}
    done = {r: Game.objects.filter(pk__in=mine, ruleset=r, status="finished").order_by("-pk").first() for r in RULESETS}
    lobby = Lobby.objects.filter(status="open", private=False).order_by("-pk").first()
    running = (Tournament.objects.filter(status="running").annotate(n=Count("registrations"))
               .order_by("-n", "pk").first())
    finished_t = Tournament.objects.filter(status="finished").order_by("pk").first()
    challenge = Challenge.objects.filter(invites__user=busy).order_by("-pk").first()
    pages = [("home", "/"), ("lobby list", "/lobbies/"), ("lobby form", "/lobbies/new/"),
             ("lobby page", f"/lobbies/{lobby.pk}/" if lobby else None),
             ("your games", "/games/"), ("needs a player", "/games/needs-player/"),
             ("profile (own)", "/accounts/profile/"), ("profile (public)", f"/users/{busy.username}/"),
             ("leaderboards", "/leaderboards/"),
             *((f"leaderboard {r}", f"/leaderboards/{r}/") for r in RULESETS),
             ("tournaments", "/tournaments/"), ("tournament form", "/tournaments/new/"),
             ("tournament (running)", f"/tournaments/{running.pk}/" if running else None),
             ("tournament (finished)", f"/tournaments/{finished_t.pk}/" if finished_t else None),
             ("challenges", "/challenges/"), ("challenge form", "/challenges/new/user00100/"), ("bots", "/bots/"),
             ("notification settings", "/accounts/notifications/"), ("tokens", "/accounts/tokens/"),
             ("sign-up", "/accounts/signup/"), ("log-in", "/accounts/login/"),
             ("password change", "/accounts/password/change/"), ("password reset", "/accounts/password/reset/"),
             *((f"play {r}", f"/play/{r}/") for r in RULESETS), ("board data", "/board/agot.json"),
             ("API docs", "/api/docs/")]
    for r in RULESETS:
        if active[r]:
            pages.append((f"game {r}", f"/games/{active[r].pk}/"))
        if done[r]:
            pages.append((f"replay {r}", f"/games/{done[r].pk}/replay"))
            pages.append((f"replay step {r}", f"/games/{done[r].pk}/replay/{done[r].version // 2}.json"))
    api = [("API lobbies", "/api/v1/lobbies"), ("API lobby", f"/api/v1/lobbies/{lobby.pk}" if lobby else None),
           ("API my games", "/api/v1/me/games"), ("API needs a player", "/api/v1/games/needs-player"),
           ("API tokens", "/api/v1/me/tokens"), ("API notifications", "/api/v1/me/notifications"),
           ("API challenges", "/api/v1/challenges"),
           ("API challenge", f"/api/v1/challenges/{challenge.pk}" if challenge else None),
           *((f"API leaderboard {r}", f"/api/v1/ratings/{r}") for r in RULESETS),
           ("API profile", f"/api/v1/users/{busy.username}"),
           ("API tournaments", "/api/v1/tournaments"),
           ("API tournament", f"/api/v1/tournaments/{running.pk}" if running else None),
           ("API registrations", f"/api/v1/tournaments/{running.pk}/registrations" if running else None),
           ("API rounds", f"/api/v1/tournaments/{running.pk}/rounds" if running else None),
           ("API standings", f"/api/v1/tournaments/{running.pk}/standings" if running else None),
           ("API schema", "/api/schema/")]
    for r in RULESETS:
        if active[r]:
            g = active[r].pk
            api += [(f"API game {r}", f"/api/v1/games/{g}"), (f"API log {r}", f"/api/v1/games/{g}/log"),
                    (f"API chat {r}", f"/api/v1/games/{g}/chat"),
                    (f"API chat channels {r}", f"/api/v1/games/{g}/chat/channels")]
        if done[r]:
            api += [(f"API fairness {r}", f"/api/v1/games/{done[r].pk}/fairness"),
                    (f"API finished game {r}", f"/api/v1/games/{done[r].pk}"),
                    (f"API finished log {r}", f"/api/v1/games/{done[r].pk}/log"),
                    # a later page of the log (issue 27: the log is read a page at a time)
                    (f"API finished log, later page {r}", f"/api/v1/games/{done[r].pk}/log?after={done[r].version // 2}")]
    rows = []
    for label, path in pages + api:
        if path is None:
            continue
        for who in ("player", "visitor"):
            rows.append((label, who, path))
    return rows


def measure(base: str, rows: list, session: str, token: str, repeat: int,
            budget: float) -> tuple[dict, list[dict], list[str]]:
    """`repeat` rounds of one request per row; a row whose samples took `budget` seconds in all is
    not requested again (a page of several seconds would take the run hours): its count is printed."""
    opener = urllib.request.build_opener(NoRedirect)
    urllib.request.install_opener(opener)
    headers_for = {"player": {"Cookie": f"sessionid={session}", "Authorization": f"Token {token}"}, "visitor": {}}
    bare = ("bare GET /api/v1/me", "player", "/api/v1/me")
    samples: dict[tuple, list[dict]] = {row: [] for row in [bare, *rows]}
    failures: list[str] = []
    spent: dict[tuple, float] = {row: 0.0 for row in samples}
    warmups: dict[tuple, list[dict]] = {}
    for round_ in range(repeat + 2):
        for row in samples:
            label, who, path = row
            if spent[row] > budget:
                continue
            headers = dict(headers_for[who])
            if path.startswith("/api/") and who == "player" and row is not bare:
                headers.pop("Cookie")  # the API as a script reads it: with its token
            if not path.startswith("/api/"):
                headers.pop("Authorization", None)
            result = fetch(base + path, headers)
            spent[row] += result.get("client", 0) / 1000
            if result["status"] == 0 or result["status"] >= 500:
                failures.append(f"{label} as {who} ({path}): {result.get('error') or 'HTTP ' + str(result['status'])}")
                continue
            if round_ >= 2:  # two warm-up rounds (imports, first connections, caches)
                samples[row].append(result)
            else:
                warmups.setdefault(row, []).append(result)
    bare_samples = samples.pop(bare)
    return ({"bare": bare_samples}, [{"row": row, "samples": s, "warmups": warmups.get(row, [])}
                                     for row, s in samples.items()], failures)


def report(bare: list[dict], results: list[dict], failures: list[str], load: str) -> None:
    def p(values, q):
        return percentile(values, q) if values else float("nan")

    bare_p95 = p([s["server"] for s in bare], 0.95)
    print(f"\nServer time (inside Django, from the first middleware in to the response out; Server-Timing), "
          f"its CPU time (the request's thread: no wait for a CPU or the database, so comparable across "
          f"loads), queries per request (counted in the same middleware), response bytes. {load}")
    print(f"bare DRF endpoint GET /api/v1/me: p50 {p([s['server'] for s in bare], .5):.1f} ms, "
          f"p95 {bare_p95:.1f} ms, CPU p50 {p([s['cpu'] for s in bare if s['cpu'] is not None], .5):.1f} ms, "
          f"{bare[0]['queries'] if bare else '?'} queries ({len(bare)} samples)")
    print(f"{'row':34} {'as':8} {'status':>6} {'p50 ms':>7} {'p95 ms':>7} {'x bare':>6} {'queries':>8} "
          f"{'cpu p50':>7} {'bytes':>8} {'client p50':>10} {'p95':>5}")
    misses = []
    for item in results:
        label, who, path = item["row"]
        s = item["samples"]
        if not s:
            took = [x["server"] or x["client"] for x in item["warmups"] if x.get("status")]
            said = (f"no sample: its warm-up requests took {', '.join(f'{t / 1000:.1f} s' for t in took)} (server), "
                    "over the row's time budget" if took else "every request failed")
            print(f"{label[:34]:34} {who:8} {said}  MISS")
            misses.append(f"{label} as {who} ({path}): {said}")
            continue
        server = [x["server"] for x in s if x["server"] is not None]
        queries = sorted({x["queries"] for x in s if x["queries"] is not None})
        statuses = sorted({x["status"] for x in s})
        p95 = p(server, .95)
        ratio = p95 / bare_p95 if bare_p95 else float("nan")
        q = str(queries[0]) if len(queries) == 1 else f"{queries[0]}-{queries[-1]}" if queries else "?"
        few = f"  (only {len(s)} samples: over the row's time budget)" if len(s) < len(bare) else ""
        flag = "" if p95 <= GOAL_MS and ratio <= GOAL_RATIO else "  MISS"
        print(f"{label[:34]:34} {who:8} {'/'.join(map(str, statuses)):>6} {p(server, .5):7.1f} {p95:7.1f} "
              f"{ratio:6.1f} {q:>8} {p([x['cpu'] for x in s if x['cpu'] is not None], .5):7.1f} "
              f"{statistics.median(x['bytes'] for x in s):8.0f} "
              f"{p([x['client'] for x in s], .5):10.1f} {p([x['client'] for x in s], .95):5.1f}{flag}{few}")
        if flag:
            misses.append(f"{label} as {who} ({path}): p95 {p95:.1f} ms, {ratio:.1f}x the bare endpoint")
    print(f"\n{len(results)} rows; {len(results) - len(misses)} within the goal (p95 <= {GOAL_MS:g} ms and <= "
          f"{GOAL_RATIO:g}x the bare endpoint's p95), {len(misses)} miss it:")
    for line in misses:
        print(f"  {line}")
    every = [x for item in results for x in item["samples"]] + list(bare)
    during = [x["gc"] for x in every if x.get("gc")]
    between = max((tuple(map(float, x["collections"].split(";"))) for x in every if x.get("collections")),
                  default=(0, 0.0, 0.0))
    print(f"Garbage collections in the server (westeros/heap.py): during the {len(every)} requests measured, "
          f"{len(during)} requests met one ({sum(during):.1f} ms in all, the longest {max(during, default=0):.1f} ms: "
          f"in their server time); between requests, {between[0]:.0f} since its first request "
          f"({between[1]:.1f} ms in all, the longest {between[2]:.1f} ms: a request arriving during one waits, "
          "in its client time only)")
    print(f"{len(failures)} failed request(s) (no answer or 5xx)")
    for line in failures[:20]:
        print(f"  {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=50_000, help="finished games (tournament tables included)")
    parser.add_argument("--active", type=int, default=500, help="games in progress")
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--busy-games", type=int, default=2_000, help="the busy player's finished games")
    parser.add_argument("--busy-active", type=int, default=50, help="the busy player's games in progress")
    parser.add_argument("--repeat", type=int, default=20, help="requests per row (after two warm-up rounds)")
    parser.add_argument("--row-budget", type=float, default=20.0,
                        help="seconds of requests per row at most (a slow row gets fewer samples, said so)")
    parser.add_argument("--only", help="measure only the rows whose label contains this")
    parser.add_argument("--database", default="westeros_bench_pages", help="PostgreSQL database to (re)create")
    parser.add_argument("--keep", action="store_true", help="keep the PostgreSQL database (and the SQLite file)")
    parser.add_argument("--reuse", action="store_true",
                        help="PostgreSQL: measure the database a run with --keep left (no build; it is kept)")
    args = parser.parse_args()
    if args.users < 100:
        parser.error("--users must be at least 100 (tables of strangers are drawn from them)")

    run_dir = Path(tempfile.mkdtemp(prefix="westeros-bench-pages-"))
    if args.reuse and not os.environ.get("DATABASE_URL"):
        parser.error("--reuse measures a PostgreSQL database kept by an earlier run: set DATABASE_URL")
    env, pg_name = setup_environment(args.database, run_dir, args.reuse)
    backend = f"PostgreSQL (database {pg_name})" if pg_name else f"SQLite ({run_dir}/pages.sqlite3)"
    server = None
    try:
        prepare_django(env)
        builder = Builder(args)
        from django.db import connection

        if args.reuse:
            print("(reusing the database of an earlier run: not built again)", flush=True)
        else:
            print(f"Building the benchmark's database on {backend}: {args.users} users, {args.games} finished games, "
                  f"{args.active} in progress, {args.tournaments} tournaments, a busy player with {args.busy_games} "
                  f"finished and {args.busy_active} in progress", flush=True)
            built = builder.build()
            if pg_name:
                with connection.cursor() as cursor:
                    cursor.execute("VACUUM ANALYZE")
            print(f"built in {built['seconds']:.0f} s", flush=True)
        from django.contrib.auth import get_user_model
        from django.test import Client

        from accounts.models import ApiToken

        busy = get_user_model().objects.get(username=BUSY)
        client = Client()
        client.force_login(busy)
        session = client.cookies["sessionid"].value
        token = ApiToken.issue(busy, "benchmark")[1]
        rows = rows_to_measure(busy, builder)
        if args.only:
            rows = [r for r in rows if args.only in r[0]]
        connection.close()
        log = run_dir / "daphne.log"
        server, port = start_daphne(env, log)
        print(f"server: one Daphne process on {backend}, port {port} (errors: {log})", flush=True)
        bare, results, failures = measure(f"http://127.0.0.1:{port}", rows, session, token, args.repeat,
                                          args.row_budget)
        load = (f"{args.repeat} requests per row, one at a time; load average {os.getloadavg()[0]:.1f} "
                f"on {os.cpu_count()} cores")
        report(bare["bare"], results, failures, load)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        if pg_name and not (args.keep or args.reuse):  # a database measured again is kept again
            from django.db import connections

            connections.close_all()
            subprocess.run(["dropdb", "--if-exists", "--force", *env["_BENCH_PG_ARGS"].split()], check=False)
        if not args.keep:
            shutil.rmtree(run_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
