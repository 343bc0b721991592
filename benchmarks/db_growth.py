"""Database growth benchmark (not a test): what a finished 6-player AGoT game leaves in PostgreSQL.

    DATABASE_URL=postgres://... python benchmarks/db_growth.py [--games 10] [--humans 6]
        [--stored 0] [--autovacuum-wait 0] [--reloptions OPTIONS] [--database NAME] [--keep]

PostgreSQL only (the growth measured is PostgreSQL's: row versions, TOAST, VACUUM); on SQLite it
exits with a message. A fresh database of its own (`--database`, default westeros_bench_<pid>),
dropped at the end unless `--keep`.

`--games` six-player AGoT games are played to their end through the service layer
(games.services.play: `do_create_game`, then `do_submit_action` for every action of the `--humans`
seats played by users, the engine's player choosing their actions; the other seats are bot seats,
played inside the same transactions, as on the site). The games are played side by side, one
action per game in turn, so the rows of live games are rewritten among each other, as on a server.
With 6 human seats every action is its own transaction and rewrites the game's row once: the most
churn per action. `--stored K` first stores K finished games (copies of one played game) so that
games_game is as big as on a site that has run for a while: autovacuum's trigger grows with it.

Sizes are read with pg_relation_size (heap), the TOAST relation's size, pg_indexes_size and
pg_total_relation_size, with pg_stat_user_tables' live and dead tuples (and the TOAST table's), at:
  1. before: users created, no game;
  2. after the games, before any vacuum;
  3. after autovacuum had its chance (only when autovacuum is on and `--autovacuum-wait` > 0:
     waits up to that many seconds for autovacuum to process games_game);
  4. after an explicit VACUUM (not FULL) of every table;
  5. after as many games again, played after that VACUUM (the space it freed is reused);
  6. after a VACUUM again.
It prints bytes per finished game and per action, which table holds what, its load and every
failure. A run takes 3-4 minutes with the defaults (plus `--autovacuum-wait`), so `dev.py bench`
does not run it; the README's figures come from `--games 30 --autovacuum-wait 90` on a PostgreSQL
with autovacuum on, and `--stored 20000` with and without `--reloptions none`.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = 6
# Tables whose growth is reported (others are printed only when they changed).
WATCHED = ("games_game", "games_gameaction", "games_gameseat", "notifications_notification",
           "chat_chatmessage", "ratings_ratedgame", "ratings_ratingchange")


def setup_environment(database: str | None) -> tuple[dict[str, str], str]:
    env = dict(os.environ)
    url = env.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("db_growth.py measures PostgreSQL (row versions, TOAST, VACUUM): set DATABASE_URL to a "
                 "PostgreSQL server, e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres "
                 "(a database of its own is created there and dropped). SQLite is not measured.")
    name = database or f"westeros_bench_{os.getpid()}"
    base = url.rsplit("/", 1)[0]
    host, port = _host_port(base)
    subprocess.run(["dropdb", "--if-exists", "-h", host, "-p", port, "-U", "postgres", name], check=False)
    subprocess.run(["createdb", "-h", host, "-p", port, "-U", "postgres", name], check=True)
    env["DATABASE_URL"] = f"{base}/{name}"
    # No Redis: the channel layer in memory and Celery eager (mail in memory), so that nothing of
    # this run lands in a shared broker; the database writes are the same.
    env.pop("REDIS_URL", None)
    env.update(SECRET_KEY="bench", DEBUG="false", ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="false",
               DJANGO_SETTINGS_MODULE="westeros.settings", LOG_LEVEL="WARNING", DB_POOL_SIZE="0",
               DB_CONN_MAX_AGE="0", EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend")
    return env, name


def _host_port(base: str) -> tuple[str, str]:
    netloc = base.split("://", 1)[1].rsplit("@", 1)[-1]
    host, _, port = netloc.partition(":")
    return host or "127.0.0.1", port or "5432"


def prepare_django(env: dict[str, str]) -> None:
    os.environ.clear()
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# --- measuring ------------------------------------------------------------------------------------

SIZES = """
SELECT c.relname, pg_relation_size(c.oid), COALESCE(pg_relation_size(NULLIF(c.reltoastrelid, 0)), 0),
       pg_indexes_size(c.oid), pg_total_relation_size(c.oid),
       COALESCE(s.n_live_tup, 0), COALESCE(s.n_dead_tup, 0), COALESCE(t.n_dead_tup, 0),
       COALESCE(s.n_tup_upd, 0), COALESCE(s.n_tup_hot_upd, 0),
       COALESCE(s.autovacuum_count, 0), COALESCE(t.autovacuum_count, 0)
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
LEFT JOIN pg_stat_all_tables t ON t.relid = c.reltoastrelid
WHERE c.relkind = 'r'
"""
FIELDS = ("heap", "toast", "indexes", "total", "live", "dead", "toast_dead", "upd", "hot_upd",
          "autovacuums", "toast_autovacuums")


def flush_stats() -> None:
    """Statistics reach pg_stat_* when a backend flushes them (at most once a second while busy):
    close this process's connections and wait, so that the next read sees every change."""
    from django.db import connections

    connections.close_all()
    time.sleep(1.2)


def measure() -> dict[str, dict[str, int]]:
    from django.db import connection

    flush_stats()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(SIZES)
        return {row[0]: dict(zip(FIELDS, row[1:], strict=True)) for row in cursor.fetchall()}


def vacuum(tables: list[str]) -> float:
    """VACUUM (not FULL) of every table; returns the seconds it took."""
    from django.db import connection

    started = time.perf_counter()
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f'VACUUM "{table}"')
    return time.perf_counter() - started


def setting(name: str) -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting(%s)", [name])
        return cursor.fetchone()[0]


def reloptions(table: str) -> tuple[list[str], list[str]]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT c.reloptions, t.reloptions FROM pg_class c LEFT JOIN pg_class t "
                       "ON t.oid = c.reltoastrelid WHERE c.relname = %s", [table])
        own, toast = cursor.fetchone()
    return own or [], toast or []


def set_reloptions(spec: str | None) -> None:
    """`--reloptions`: none resets games_game's storage options (those of the migrations too); a
    comma-separated list (fillfactor=70,toast.autovacuum_vacuum_threshold=500) resets them, then sets
    these: the run measures that setting instead of the migrations'."""
    if spec is None:
        return
    from django.db import connection

    own, toast = reloptions("games_game")
    names = [o.split("=", 1)[0] for o in own] + [f"toast.{o.split('=', 1)[0]}" for o in toast]
    with connection.cursor() as cursor:
        if names:
            cursor.execute(f"ALTER TABLE games_game RESET ({', '.join(names)})")
        if spec != "none":
            cursor.execute(f"ALTER TABLE games_game SET ({spec})")


def autovacuum_triggers() -> tuple[float, float]:
    """The dead row versions at which autovacuum takes games_game, and dead chunks for its TOAST
    table: threshold + scale factor x the rows PostgreSQL estimates (reltuples), the table's own
    settings first, the server's otherwise."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT c.reltuples, t.reltuples FROM pg_class c JOIN pg_class t ON t.oid = c.reltoastrelid "
                       "WHERE c.relname = 'games_game'")
        rows, chunks = cursor.fetchone()
    own, toast = (dict(o.split("=", 1) for o in options) for options in reloptions("games_game"))
    base_threshold = float(setting("autovacuum_vacuum_threshold"))
    base_scale = float(setting("autovacuum_vacuum_scale_factor"))

    def trigger(options: dict, tuples: float) -> float:
        return (float(options.get("autovacuum_vacuum_threshold", base_threshold))
                + float(options.get("autovacuum_vacuum_scale_factor", base_scale)) * max(0.0, tuples))
    return trigger(own, rows), trigger(toast, chunks)


def live_bytes(game_ids: list[int]) -> dict[str, int]:
    """The bytes the live rows of these games hold, per table (pg_column_size of each row: its
    stored size, compressed and TOASTed values included; without page and index overhead)."""
    from django.db import connection

    queries = {
        "games_game": "SELECT SUM(pg_column_size(t.*)) FROM games_game t WHERE id = ANY(%s)",
        "games_gameaction": "SELECT SUM(pg_column_size(t.*)) FROM games_gameaction t WHERE game_id = ANY(%s)",
        "games_gameseat": "SELECT SUM(pg_column_size(t.*)) FROM games_gameseat t WHERE game_id = ANY(%s)",
        "notifications_notification": "SELECT SUM(pg_column_size(t.*)) FROM notifications_notification t "
                                      "WHERE game_id = ANY(%s)",
    }
    found = {}
    with connection.cursor() as cursor:
        for table, query in queries.items():
            cursor.execute(query, [game_ids])
            found[table] = cursor.fetchone()[0] or 0
    return found


def wait_for_autovacuum(before: dict, seconds: float) -> float | None:
    """Waits until autovacuum processed games_game (its count moved on); the seconds waited, or None."""
    from django.db import connection

    started = time.monotonic()
    while time.monotonic() - started < seconds:
        time.sleep(5)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute("SELECT autovacuum_count FROM pg_stat_user_tables WHERE relname = 'games_game'")
            if cursor.fetchone()[0] > before["games_game"]["autovacuums"]:
                return time.monotonic() - started
    return None


# --- playing --------------------------------------------------------------------------------------

def make_games(count: int, humans: int, prefix: str) -> list[tuple[int, dict]]:
    from django.contrib.auth.hashers import make_password

    from accounts.models import User
    from games.engine import get_ruleset
    from games.services.play import do_create_game

    seats = get_ruleset("agot").seat_names(PLAYERS)
    password = make_password("pw-bench-123")
    games = []
    for n in range(count):
        users = User.objects.bulk_create(User(username=f"{prefix}{n}_{i}", email=f"{prefix}{n}_{i}@x.org",
                                              password=password) for i in range(humans))
        seating = {seat: (users[i] if i < humans else None) for i, seat in enumerate(seats)}
        game = do_create_game(ruleset="agot", seating=seating, seed=1000 + n)
        games.append((game.pk, {seat: user for seat, user in seating.items() if user is not None}))
    return games


def play(games: list[tuple[int, dict]], failures: list[str]) -> float:
    """Every game to its end, one action per game in turn (round robin), each action submitted by
    its seat's user through do_submit_action; the engine's player picks it. Returns the seconds."""
    from games.engine import get_ruleset
    from games.errors import GameError
    from games.models import Game
    from games.services.play import do_submit_action

    engine = get_ruleset("agot")
    started = time.perf_counter()
    active = list(games)
    while active:
        still = []
        for game_id, users in active:
            game = Game.objects.get(pk=game_id)
            if not game.is_active():
                continue
            seat = next((s for s in engine.pending(game.state) if s in users), None)
            if seat is None:
                failures.append(f"game {game_id}: no human seat pending at version {game.version}")
                continue
            try:
                do_submit_action(game_id, users[seat], action=engine.bot_action(game.state, seat),
                                 version=game.version)
            except GameError as error:
                failures.append(f"game {game_id} v{game.version} {seat}: {error.code}: {error.message}")
                continue
            except Exception:  # reported, never hidden
                failures.append(f"game {game_id} v{game.version} {seat}: {traceback.format_exc(limit=3)}")
                continue
            still.append((game_id, users))
        active = still
    return time.perf_counter() - started


def store_finished(count: int, template_id: int) -> None:
    """`count` copies of a finished game's row (state, ranking and all): games_game as on a site with
    that many finished games. Their actions are not copied (the game row is what churns)."""
    from django.db import connection

    if not count:
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT column_name FROM information_schema.columns WHERE table_name = 'games_game' "
                       "AND column_name NOT IN ('id', 'lobby_id') ORDER BY ordinal_position")
        columns = ", ".join(f'"{c}"' for (c,) in cursor.fetchall())
        cursor.execute(f"INSERT INTO games_game ({columns}) SELECT {columns} FROM games_game, "
                       f"generate_series(1, %s) WHERE id = %s", [count, template_id])
    vacuum(["games_game"])  # as an older table would be: its pages all visible, nothing dead


# --- reporting ------------------------------------------------------------------------------------

def kb(value: float) -> str:
    return f"{value / 1024:,.1f} KB" if abs(value) < 10 * 1024 * 1024 else f"{value / 1024 / 1024:,.1f} MB"


def print_phase(label: str, now: dict, base: dict) -> None:
    print(f"\n{label}")
    print(f"  {'table':<28}{'heap':>11}{'toast':>11}{'indexes':>11}{'total':>11}{'growth':>11}"
          f"{'live':>8}{'dead':>7}{'t.dead':>7}{'upd':>8}{'hot':>6}{'av':>4}")
    shown = [t for t in now if t in WATCHED or now[t]["total"] != base.get(t, {}).get("total", 0)]
    for table in sorted(shown, key=lambda t: -now[t]["total"]):
        r = now[table]
        growth = r["total"] - base.get(table, {}).get("total", 0)
        print(f"  {table:<28}{kb(r['heap']):>11}{kb(r['toast']):>11}{kb(r['indexes']):>11}{kb(r['total']):>11}"
              f"{kb(growth):>11}{r['live']:>8}{r['dead']:>7}{r['toast_dead']:>7}{r['upd']:>8}{r['hot_upd']:>6}"
              f"{r['autovacuums'] + r['toast_autovacuums']:>4}")


def print_triggers() -> None:
    rows, chunks = autovacuum_triggers()
    print(f"  autovacuum takes games_game at {rows:,.0f} dead row versions, its TOAST table at {chunks:,.0f} dead chunks")


def total(phase: dict) -> int:
    return sum(r["total"] for r in phase.values())


def print_growth(label: str, after: dict, before: dict, games: int, actions: int) -> None:
    grown = total(after) - total(before)
    game_grown = after["games_game"]["total"] - before["games_game"]["total"]
    print(f"  {label}: the database grew {kb(grown)} for {games} finished games and {actions} actions: "
          f"{kb(grown / games)} per game, {grown / actions:,.0f} bytes per action "
          f"(games_game alone {kb(game_grown / games)} per game, {game_grown / actions:,.0f} bytes per action)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10, help="six-player games played to their end, per batch")
    parser.add_argument("--humans", type=int, default=6, help="seats played by users through do_submit_action")
    parser.add_argument("--stored", type=int, default=0, help="finished games stored first (copies)")
    parser.add_argument("--autovacuum-wait", type=float, default=0,
                        help="seconds to wait for autovacuum after the games (when autovacuum is on)")
    parser.add_argument("--database", help="PostgreSQL database to (re)create for this run")
    parser.add_argument("--reloptions", help="games_game's storage options for this run instead of the "
                        "migrations' ('none', or e.g. 'toast_tuple_target=8160,fillfactor=70')")
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)

    env, name = setup_environment(args.database)
    failures: list[str] = []
    try:
        prepare_django(env)
        from games.models import Game, GameAction
        from notifications.models import Notification

        set_reloptions(args.reloptions)
        autovacuum = setting("autovacuum")
        own, toast = reloptions("games_game")
        print(f"PostgreSQL {setting('server_version')}, database {name}; autovacuum {autovacuum} "
              f"(naptime {setting('autovacuum_naptime')}, scale factor {setting('autovacuum_vacuum_scale_factor')}, "
              f"threshold {setting('autovacuum_vacuum_threshold')}); games_game reloptions {own or 'none'}, "
              f"its TOAST table's {toast or 'none'}")
        print(f"load: {args.games} six-player AGoT games per batch, {args.humans} seats played by users "
              f"(one transaction per action), {PLAYERS - args.humans} bot seats; {args.stored} finished games "
              f"stored first; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

        if args.stored:
            template = make_games(1, args.humans, "template")
            play(template, failures)
            store_finished(args.stored, template[0][0])
        before = measure()
        batch = make_games(args.games, args.humans, "first")
        seconds = play(batch, failures)
        ids = [g for g, _ in batch]
        actions = GameAction.objects.filter(game_id__in=ids).count()
        finished = Game.objects.filter(pk__in=ids, status=Game.Status.FINISHED).count()
        print(f"\nbatch 1: {finished} of {len(ids)} games finished, {actions} actions "
              f"({actions / max(1, len(ids)):.0f} per game) in {seconds:.1f} s; load average {os.getloadavg()[0]:.1f}")
        after = measure()
        print_phase("2. after the games, before any vacuum", after, before)
        print_growth("before vacuum", after, before, len(ids), actions)
        print_triggers()

        phase = after
        if args.autovacuum_wait and autovacuum == "on":
            waited = wait_for_autovacuum(after, args.autovacuum_wait)
            phase = measure()
            outcome = (f"ran after {waited:.0f} s" if waited is not None
                       else f"did not run in {args.autovacuum_wait:.0f} s")
            print_phase(f"3. after autovacuum ({outcome})", phase, before)
            print_growth("after autovacuum", phase, before, len(ids), actions)
        elif args.autovacuum_wait:
            print(f"\n3. autovacuum is {autovacuum} on this server: not waited for")

        tables = sorted(after)
        took = vacuum(tables)
        vacuumed = measure()
        print_phase(f"4. after VACUUM of every table ({took:.1f} s)", vacuumed, before)
        print_growth("after VACUUM", vacuumed, before, len(ids), actions)
        live = live_bytes(ids)
        print("  the live rows of one finished game (pg_column_size, no page or index overhead): "
              + ", ".join(f"{t} {kb(b / len(ids))}" for t, b in live.items())
              + f"; {actions / len(ids):.0f} action rows, "
              f"{Notification.objects.filter(game_id__in=ids).count() / len(ids):.0f} notification rows")

        second = make_games(args.games, args.humans, "second")
        seconds = play(second, failures)
        ids2 = [g for g, _ in second]
        actions2 = GameAction.objects.filter(game_id__in=ids2).count()
        again = measure()
        print(f"\nbatch 2: {Game.objects.filter(pk__in=ids2, status=Game.Status.FINISHED).count()} of {len(ids2)} "
              f"games finished, {actions2} actions in {seconds:.1f} s")
        print_phase("5. after as many games again, played after that VACUUM (no vacuum since)", again, vacuumed)
        print_growth("batch 2 before vacuum", again, vacuumed, len(ids2), actions2)
        took = vacuum(tables)
        final = measure()
        print_phase(f"6. after VACUUM again ({took:.1f} s)", final, vacuumed)
        print_growth("batch 2 after VACUUM", final, vacuumed, len(ids2), actions2)
        print_growth("both batches after VACUUM", final, before, len(ids) + len(ids2), actions + actions2)
    finally:
        print(f"\n{len(failures)} failure(s)")
        for line in failures[:20]:
            print(f"  {line}")
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # Django may not have started
            pass
        if not args.keep:
            host, port = _host_port(env["DATABASE_URL"].rsplit("/", 1)[0])
            subprocess.run(["dropdb", "--if-exists", "-h", host, "-p", port, "-U", "postgres", name], check=False)


if __name__ == "__main__":
    main()
