"""Live benchmark (not a test): websocket fan-out and deadline resolution.

    python benchmarks/server_live.py [--games 200] [--samples 200] [--deadline-games 300] [--celery] [--only-deadlines]

1. Fan-out: Daphne on a free 127.0.0.1 port, `--games` live 3-player games with every seat's
   websocket connected (600 sockets for 200 games). For `--samples` actions, one seat POSTs its
   action and we time until *every* socket of that table has received the update: reported as
   "POST sent -> last socket" (includes the action itself) and "first -> last socket" (the spread).
   Goal: all sockets of a table updated within 100 ms p99 with 200 live games.
2. Deadlines: `--deadline-games` games whose deadlines all fall due at the same instant, resolved by
   the deadline runner (`manage.py run_deadlines`, the loop the server runs inside itself), or by Celery beat and a worker when
   REDIS_URL is set and --celery is given: we report how long after the deadline each game's first
   timeout was applied, and how many were never resolved. Goal: within 2 s p99, hundreds at once.

PostgreSQL when DATABASE_URL is set (a fresh database of its own: `--database`, default
westeros_bench_<pid>), else a temporary SQLite file. Daphne listens on a free port of its own.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from server_api import make_tables, percentile, prepare_django, setup_environment, start_daphne  # noqa: E402


def post(url: str, token: str, body: dict) -> int:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    req.add_header("Authorization", f"Token {token}")
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        error.read()
        return error.code

def report(name: str, values: list[float]) -> None:
    print(f"{name:>28}: median {statistics.median(values) * 1000:7.1f} ms   p99 {percentile(values, .99) * 1000:7.1f} ms"
          f"   min {min(values) * 1000:.1f} ms   max {max(values) * 1000:.1f} ms   ({len(values)} samples)")

async def fan_out(base: str, ws_base: str, tables: list[tuple[int, dict[str, str]]], samples: int) -> None:
    import websockets
    from asgiref.sync import sync_to_async

    from games.engine import get_ruleset
    from games.models import Game

    engine = get_ruleset("agot")
    sockets: dict[int, list] = {}
    for game_id, tokens in tables:
        sockets[game_id] = []
        for token in tokens.values():
            ws = await websockets.connect(f"{ws_base}/ws/games/{game_id}/?token={token}",
                                          origin="http://127.0.0.1", max_queue=None)
            await ws.recv()  # hello
            sockets[game_id].append(ws)
    await asyncio.sleep(1)
    for wss in sockets.values():  # drop the presence messages of the connection burst
        for ws in wss:
            while True:
                try:
                    await asyncio.wait_for(ws.recv(), 0.01)
                except TimeoutError:
                    break

    async def updated(ws) -> float:
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "update":
                return time.perf_counter()

    end_to_end, spread = [], []
    for n in range(samples):
        game_id, tokens = tables[n % len(tables)]
        game = await sync_to_async(Game.objects.get)(pk=game_id)
        pending = engine.pending(game.state)
        if not pending:
            continue
        seat = sorted(pending)[0]
        action = engine.default_action(game.state, seat)
        waiters = [asyncio.create_task(updated(ws)) for ws in sockets[game_id]]
        sent = time.perf_counter()
        status = await asyncio.to_thread(post, f"{base}/api/v1/games/{game_id}/actions", tokens[seat],
                                         {"version": game.version, "action": action})
        if status != 200:
            for waiter in waiters:
                waiter.cancel()
            continue
        times = await asyncio.wait_for(asyncio.gather(*waiters), 10)
        end_to_end.append(max(times) - sent)
        spread.append(max(times) - min(times))
    for wss in sockets.values():
        for ws in wss:
            await ws.close()
    connected = sum(len(w) for w in sockets.values())
    print(f"fan-out: {len(tables)} live games, {connected} sockets")
    report("POST sent -> last socket", end_to_end)
    report("first -> last socket", spread)

def deadlines(env: dict[str, str], count: int, celery: bool) -> None:
    """`count` games whose deadlines all fall due at the same instant (set in one UPDATE), resolved by
    Celery (beat + a worker with 2 processes) or the embedded runner; reports how long after the
    deadline each game's first timeout was applied, and how many were not resolved at all."""
    from datetime import timedelta

    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from accounts.models import User
    from games.engine import get_ruleset
    from games.models import Game, GameAction, GameSeat
    from games.services.play import do_create_game

    engine = get_ruleset("agot")
    password = make_password("pw-bench-123")  # hashed once: the users are not what is measured
    users = User.objects.bulk_create(User(username=f"late{n}", email=f"late{n}@x.org", password=password)
                                     for n in range(3 * count))
    games = [do_create_game(ruleset="agot", seating=dict(zip(engine.seat_names(3), users[3 * n:3 * n + 3], strict=True)),
                            time_limit=3600, seed=n) for n in range(count)]
    from notifications.models import Notification
    from notifications.services import warn_deadlines

    # All the deadlines fall due at one instant, `lead` seconds from now (time for the runners to
    # start). What the notifications would have done long before is done now, outside the runners:
    # the "game started" messages are dropped and the deadline warnings decided and marked sent (in
    # real play they go out a tenth of the time limit before; here they would all be decided, and
    # 900 e-mails sent, in the very second before the deadline).
    lead = 12
    due = timezone.now() + timedelta(seconds=lead)
    ids = [g.pk for g in games]
    GameSeat.objects.filter(game_id__in=ids).update(deadline_at=due)
    Game.objects.filter(pk__in=ids).update(deadline_at=due)
    Notification.objects.filter(kind="game_started").delete()
    warn_deadlines()
    Notification.objects.update(claimed_at=timezone.now(), emailed_at=timezone.now())
    logs = Path(tempfile.mkdtemp(prefix="westeros-bench-deadlines-"))
    if celery:  # beat sends a sweep every second; two worker processes share the overdue games
        env = {**env, "REDIS_URL": env["REDIS_URL"].rsplit("/", 1)[0] + "/14"}  # a Redis database of its own
        runners = [subprocess.Popen([sys.executable, "-m", "celery", "-A", "westeros", *args, "-l", "info"],
                                    cwd=ROOT, env=env, stdout=(logs / f"{args[0]}.log").open("w"),
                                    stderr=subprocess.STDOUT)
                   for args in (["worker", "--concurrency", "2"], ["beat", "-s", str(logs / "beat-schedule")])]
    else:
        runners = [subprocess.Popen([sys.executable, "manage.py", "run_deadlines"], cwd=ROOT, env=env,
                                    stdout=(logs / "runner.log").open("w"), stderr=subprocess.STDOUT)]
    time.sleep(max(0.0, (due - timezone.now()).total_seconds()))
    if any(runner.poll() is not None for runner in runners):
        print("deadlines: a runner exited early; see", logs)
    time.sleep(max(10.0, count / 20))
    for runner in runners:
        runner.terminate()
        runner.wait(timeout=30)
    delays = []
    for game_id in ids:
        first = GameAction.objects.filter(game_id=game_id, source="timeout").order_by("version").first()
        if first is not None:
            delays.append((first.created_at - due).total_seconds())
    from django.conf import settings

    workers = env.get("DEADLINE_SWEEP_WORKERS", getattr(settings, "DEADLINE_SWEEP_WORKERS", 1))
    print(f"deadlines: {count} games falling due at the same instant, resolved by "
          f"{'Celery beat + a worker with 2 processes' if celery else 'the deadline runner (1 s interval, as dev.py start)'}"
          f", {workers} sweep thread(s) per tick; machine load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores: {len(delays)} resolved, {count - len(delays)} NOT resolved (logs: {logs})")
    if delays:
        report("deadline -> first timeout applied", delays)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--deadline-games", type=int, default=300)
    parser.add_argument("--celery", action="store_true", help="resolve deadlines with a Celery worker (REDIS_URL)")
    parser.add_argument("--only-deadlines", action="store_true", help="skip the fan-out part")
    parser.add_argument("--database", help="PostgreSQL database to (re)create for this run")
    args = parser.parse_args()

    env = setup_environment(args.database)
    prepare_django(env)
    if not args.only_deadlines:
        fan_out_part(env, args.games, args.samples)
    deadlines(env, args.deadline_games, args.celery)


def fan_out_part(env: dict[str, str], games: int, samples: int) -> None:
    tables = make_tables(games, "live")
    server, port = start_daphne(env)
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        asyncio.run(fan_out(base, ws_base, tables, samples))
    finally:
        server.terminate()
        server.wait(timeout=10)

if __name__ == "__main__":
    main()
