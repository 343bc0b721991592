"""Live benchmark (not a test): websocket fan-out and deadline resolution.

    python benchmarks/server_live.py [--games 200] [--samples 200] [--deadline-games 50]

1. Fan-out: Daphne on a free 127.0.0.1 port, `--games` live 3-player games with every seat's
   websocket connected (600 sockets for 200 games). For `--samples` actions, one seat POSTs its
   action and we time until *every* socket of that table has received the update: reported as
   "POST sent -> last socket" (includes the action itself) and "first -> last socket" (the spread).
   Goal: all sockets of a table updated within 100 ms p99 with 200 live games.
2. Deadlines: `--deadline-games` games whose time limit is 2 s, with the embedded deadline runner
   (`manage.py run_deadlines`, or Celery when REDIS_URL is set and --celery is given): we report how
   long after each deadline the timeout was applied. Goal: within 2 s.

PostgreSQL when DATABASE_URL is set (a fresh `westeros_bench` database), else a temporary SQLite file.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
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
          f"   ({len(values)} samples)")


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
    from accounts.models import User
    from games.engine import get_ruleset
    from games.models import GameAction
    from games.services.play import do_create_game

    engine = get_ruleset("agot")
    runner_env = dict(env)
    if celery:
        runner_env["DEADLINE_TASKS"] = "true"
        runner = subprocess.Popen([sys.executable, "-m", "celery", "-A", "westeros", "worker", "--concurrency", "2",
                                   "-l", "warning"], cwd=ROOT, env=runner_env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        os.environ["DEADLINE_TASKS"] = "true"
        from django.conf import settings

        settings.DEADLINE_TASKS = True
    else:
        runner = subprocess.Popen([sys.executable, "manage.py", "run_deadlines", "--interval", "0.5"], cwd=ROOT,
                                  env=runner_env, stdout=subprocess.DEVNULL)
    time.sleep(3)
    games = []
    for n in range(count):
        users = [User.objects.create_user(f"late{n}_{i}", f"l{n}_{i}@x.org", "pw-bench-123") for i in range(3)]
        games.append(do_create_game(ruleset="agot", seating=dict(zip(engine.seat_names(3), users, strict=True)),
                                    time_limit=2, seed=n))
    time.sleep(6)
    runner.terminate()
    delays = []
    for game in games:
        first = GameAction.objects.filter(game=game, source="timeout").order_by("version").first()
        if first is not None:
            delays.append((first.created_at - game.created_at).total_seconds() - game.time_limit)
    print(f"deadlines: {count} games with a 2 s limit, resolved by {'Celery' if celery else 'run_deadlines'}: "
          f"{len(delays)} resolved")
    if delays:
        report("deadline -> timeout applied", delays)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--deadline-games", type=int, default=50)
    parser.add_argument("--celery", action="store_true", help="resolve deadlines with a Celery worker (REDIS_URL)")
    args = parser.parse_args()

    env = setup_environment()
    prepare_django(env)
    tables = make_tables(args.games, "live")
    server, port = start_daphne(env)
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        asyncio.run(fan_out(base, ws_base, tables, args.samples))
    finally:
        server.terminate()
        server.wait(timeout=10)
    deadlines(env, args.deadline_games, args.celery)


if __name__ == "__main__":
    main()
