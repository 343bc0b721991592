"""Server benchmark (not a test): action latency through the API against a bare DRF endpoint.

    python benchmarks/server_api.py [--games 50] [--rate 15] [--paced-seconds 60] [--rounds 3] [--database NAME]

Starts Daphne on a free 127.0.0.1 port against a fresh benchmark database (PostgreSQL when
DATABASE_URL is set, else a temporary SQLite file), creates `--games` 3-player games whose players
each hold an API token, then drives every game concurrently from its own client thread: each
client submits the pending seats' actions (the engine's default action, read from the database)
through `POST /api/v1/games/<id>/actions`, and between actions calls the bare endpoint
`GET /api/v1/me` (token auth, one query). Three runs: unloaded (one client), paced (`--games`
clients sending about `--rate` actions/s together for `--paced-seconds`) and saturated (the same
number of clients without pause, `--rounds` AGoT rounds each).
Each prints its load, sample counts, the median and p99 of both, their ratio, and every crashed
client thread and failed request. Goal (README, "Performance"): action p99 <= 3x the bare
endpoint's p99, unloaded, at 15 actions/s and at 50 games.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RUN_DIR = Path(tempfile.mkdtemp(prefix="westeros-bench-"))  # this run's logs (and SQLite file)
SERVER_LOG = RUN_DIR / "daphne.log"  # the server's errors, if any

from westeros.ports import free_port  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def request(url: str, token: str, body: dict | None = None) -> tuple[int, float]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method="POST" if body is not None else "GET")
    req.add_header("Authorization", f"Token {token}")
    req.add_header("Content-Type", "application/json")
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    return status, time.perf_counter() - start


def setup_environment(database: str | None = None) -> dict[str, str]:
    """The benchmark's environment: a fresh database of its own (PostgreSQL when DATABASE_URL is set:
    `database`, default westeros_bench_<pid>, so two runs never share one; else a SQLite file in
    this run's directory)."""
    env = dict(os.environ)
    if env.get("DATABASE_URL"):
        name = database or f"westeros_bench_{os.getpid()}"
        base = env["DATABASE_URL"].rsplit("/", 1)[0]
        env["DATABASE_URL"] = f"{base}/{name}"
        subprocess.run(["dropdb", "--if-exists", "-h", "127.0.0.1", "-U", "postgres", name], check=False)
        subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=True)
    else:
        env["DATABASE_URL"] = f"sqlite:///{RUN_DIR}/bench.sqlite3"
    env.update(SECRET_KEY="bench", DEBUG="false", ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="false",
               DJANGO_SETTINGS_MODULE="westeros.settings", LOG_LEVEL="WARNING",
               EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend")  # mail "sent" in memory
    return env


def prepare_django(env: dict[str, str]) -> None:
    """Django in this process, for the client threads' reads: without a connection pool (its 20
    connections ran out with 50 client threads, which then crashed), a connection per thread."""
    os.environ.update(env)
    os.environ["DB_POOL_SIZE"] = "0"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_tables(count: int, prefix: str, players: int = 3) -> list[tuple[int, dict[str, str]]]:
    """`count` started AGoT games of `players`; each seat's user holds an API token."""
    from django.contrib.auth.hashers import make_password

    from accounts.models import ApiToken, User
    from games.engine import get_ruleset
    from games.services.play import do_create_game

    seats = get_ruleset("agot").seat_names(players)
    password = make_password("pw-bench-123")  # hashed once: the users are not what is measured
    tables = []
    for n in range(count):
        users = User.objects.bulk_create(User(username=f"{prefix}{n}_{i}", email=f"{prefix}{n}_{i}@x.org",
                                              password=password) for i in range(players))
        game = do_create_game(ruleset="agot", seating=dict(zip(seats, users, strict=True)), seed=n)
        tables.append((game.pk, {seat: ApiToken.issue(user, "bench")[1] for seat, user in zip(seats, users, strict=True)}))
    return tables


def start_daphne(env: dict[str, str]) -> tuple[subprocess.Popen, int]:
    """Daphne on a free 127.0.0.1 port, its errors in SERVER_LOG; returns once it answers."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "westeros.asgi:application"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=open(SERVER_LOG, "w"))
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read()
            break
        except OSError:
            time.sleep(0.1)
    return server, port


def drive(base: str, tables: list[tuple[int, dict[str, str]]], rounds: int, rate: float | None,
          sequential: bool = False, duration: float | None = None) -> dict:
    """Every game played from its own client thread: the pending seat's action, then the bare
    endpoint, until `rounds` AGoT rounds are played (or `duration` seconds have passed). With
    `rate`, each client waits between its actions so that all of them together send about `rate`
    actions/s (None: as fast as they can). A client thread that crashes is counted and its error
    kept, never silently lost."""
    from games.engine import get_ruleset
    from games.models import Game

    engine = get_ruleset("agot")
    action_times: list[float] = []
    bare_times: list[float] = []
    errors: list[str] = []
    crashed: list[str] = []
    conflicts: list[int] = []
    lock = threading.Lock()
    pause = len(tables) / rate if rate else 0.0

    def play(game_id: int, tokens: dict[str, str]) -> None:
        from django.db import connection

        next_at = time.perf_counter() + random.uniform(0, pause)  # staggered: no synchronised bursts
        try:
            while duration is None or time.perf_counter() - started < duration:
                if pause:
                    time.sleep(max(0.0, next_at - time.perf_counter()))
                    next_at += pause
                game = Game.objects.get(pk=game_id)
                if game.state["round"] > rounds or not game.is_active():
                    return
                pending = engine.pending(game.state)
                for seat in pending:
                    action = engine.default_action(game.state, seat)
                    status, took = request(f"{base}/api/v1/games/{game_id}/actions", tokens[seat],
                                           {"version": game.version, "action": action})
                    bare_status, bare_took = request(f"{base}/api/v1/me", tokens[seat])
                    with lock:
                        if status == 200:
                            action_times.append(took)
                        elif status == 409:  # a simultaneous seat may have moved the version on
                            conflicts.append(game_id)
                        else:
                            errors.append(f"game {game_id}: action HTTP {status}")
                        if bare_status == 200:
                            bare_times.append(bare_took)
                        else:
                            errors.append(f"game {game_id}: GET /me HTTP {bare_status}")
                    break
        except Exception as error:  # counted and reported below
            with lock:
                crashed.append(f"game {game_id}: {type(error).__name__}: {error}")
        finally:
            connection.close()

    def one_after_another() -> None:
        for table in tables:
            play(*table)

    started = time.perf_counter()
    threads = ([threading.Thread(target=one_after_another)] if sequential
               else [threading.Thread(target=play, args=table) for table in tables])
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"actions": action_times, "bare": bare_times, "errors": errors, "crashed": crashed, "conflicts": conflicts,
            "elapsed": time.perf_counter() - started, "clients": len(threads)}


def print_run(label: str, run: dict) -> None:
    actions, bare = run["actions"], run["bare"]
    achieved = len(actions) / run["elapsed"] if run["elapsed"] else 0
    print(f"{label}: {run['clients']} client thread(s), {len(actions)} actions + {len(bare)} bare requests in "
          f"{run['elapsed']:.1f} s ({achieved:.1f} actions/s achieved); load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if actions and bare:
        for name, values in (("action POST", actions), ("bare GET /me", bare)):
            print(f"{name:>15}: median {statistics.median(values) * 1000:6.1f} ms   p99 "
                  f"{percentile(values, .99) * 1000:6.1f} ms   ({len(values)} samples)")
        print(f"  p99 ratio action/bare: {percentile(actions, .99) / percentile(bare, .99):.2f} (goal <= 3)")
    print(f"  {len(run['crashed'])} client thread(s) crashed, {len(run['errors'])} failed request(s), "
          f"{len(run['conflicts'])} action(s) refused as stale (409)")
    for line in (run["crashed"] + run["errors"])[:5]:
        print(f"    {line}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50, help="games (client threads) of the saturated run")
    parser.add_argument("--rate", type=float, default=15.0, help="actions/s of the paced run")
    parser.add_argument("--rounds", type=int, default=3, help="AGoT rounds to play in every game")
    parser.add_argument("--paced-seconds", type=float, default=60.0,
                        help="how long the paced run lasts (its games are long enough not to end before)")
    parser.add_argument("--database", help="PostgreSQL database to (re)create for this run")
    args = parser.parse_args()

    env = setup_environment(args.database)
    prepare_django(env)
    unloaded, paced, saturated = (make_tables(21, "solo"), make_tables(args.games, "paced"),
                                  make_tables(args.games, "bench"))
    server, port = start_daphne(env)
    base = f"http://127.0.0.1:{port}"
    backend = "PostgreSQL" if "postgres" in env["DATABASE_URL"] else "SQLite"
    print(f"server: one Daphne process on {backend}, port {port} (errors: {SERVER_LOG})")
    try:
        drive(base, unloaded[:1], 1, None)  # warm-up (imports, first connections): not reported
        print_run("unloaded (one client, one request at a time)",
                  drive(base, unloaded[1:], args.rounds, None, sequential=True))
        # The paced run is bounded by time, not by rounds: games of unequal length would otherwise
        # leave a sparse tail (the run reached 8.1 actions/s of 15 asked over all its actions that way)
        print_run(f"paced ({args.games} games, about {args.rate:g} actions/s for {args.paced_seconds:g} s)",
                  drive(base, paced, 10, args.rate, duration=args.paced_seconds))
        print_run(f"saturated ({args.games} games, no pause)", drive(base, saturated, args.rounds, None))
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
