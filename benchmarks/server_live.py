"""Live benchmark (not a test): websocket fan-out and deadline resolution.

    python benchmarks/server_live.py [--games 200] [--players 6] [--samples 500] [--rate 25]
                                     [--deadline-games 300] [--celery | --in-server] [--only-deadlines] [--database NAME]

1. Fan-out: Daphne on a free 127.0.0.1 port, `--games` live games of `--players` with every seat's
   websocket connected (1,200 sockets for 200 six-player games). After two seconds of actions that
   warm the server (checked for losses, not timed), `--samples` actions are sent at
   about `--rate` actions/s, round robin over the games, each POST in its own thread so they
   overlap; for each, we time until *every* socket of that table has received an update covering
   its version: "POST sent -> last socket" (includes the action itself) and "first -> last socket"
   (the spread), and count every update a socket never received (LOST) and every "gap" notice.
   Goal: 0 lost and all sockets of a table updated within 100 ms p99 at 25 actions/s.
2. Deadlines: `--deadline-games` games whose deadlines all fall due at the same instant, resolved by
   the deadline runner (`manage.py run_deadlines`, the loop the server runs inside itself), or by Celery beat and a worker when
   REDIS_URL is set and --celery is given: we report how long after the deadline each game's first
   timeout was applied, and how many were never resolved. Goal: within 2 s p99, hundreds at once.
   `--in-server`: the runner inside Daphne without Redis instead (embedded mode, what `dev.py
   start` runs; SQLite when DATABASE_URL is not set).

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

WARMUP_SECONDS = 2.0


def post(url: str, token: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    req.add_header("Authorization", f"Token {token}")
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        error.read()
        return error.code, {}
    except OSError as error:
        return 0, {"error": str(error)}


def report(name: str, values: list[float]) -> None:
    print(f"{name:>28}: median {statistics.median(values) * 1000:7.1f} ms   p99 {percentile(values, .99) * 1000:7.1f} ms"
          f"   min {min(values) * 1000:.1f} ms   max {max(values) * 1000:.1f} ms   ({len(values)} samples)")

async def fan_out(base: str, ws_base: str, tables: list[tuple[int, dict[str, str]]], samples: int,
                  rate: float) -> None:
    """Every seat's socket connected; `samples` actions sent at about `rate` actions/s spread over the
    games (round robin, each POST in its own thread, so they overlap). For each applied action,
    every socket of its table must receive an update covering its version: the time from the POST
    being sent to the last socket, the spread first -> last socket, and every update never received
    (lost) or replaced by a "gap" notice are reported."""
    import websockets
    from asgiref.sync import sync_to_async

    from games.engine import get_ruleset
    from games.models import Game

    engine = get_ruleset("agot")
    received: dict[tuple[int, int], list[tuple[int, int, float]]] = {}  # (game, socket) -> updates
    gaps: list[tuple[int, int]] = []
    sockets: dict[int, list] = {}
    refused = 0
    for game_id, tokens in tables:
        sockets[game_id] = []
        for token in tokens.values():
            try:
                ws = await websockets.connect(f"{ws_base}/ws/games/{game_id}/?token={token}",
                                              origin="http://127.0.0.1", max_queue=None)
                await ws.recv()  # hello
            except Exception:
                refused += 1
                continue
            sockets[game_id].append(ws)

    async def listen(game_id: int, index: int, ws) -> None:
        log = received.setdefault((game_id, index), [])
        try:
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "update":
                    log.append((message["from_version"], message["version"], time.perf_counter()))
                elif message["type"] == "gap":
                    gaps.append((game_id, index))
        except Exception:
            pass

    listeners = [asyncio.create_task(listen(g, i, ws)) for g, wss in sockets.items() for i, ws in enumerate(wss)]
    await asyncio.sleep(1)
    sent: list[tuple[int, int, float]] = []  # (game, version applied, time sent)
    failures: list[str] = []

    async def act(game_id: int, tokens: dict[str, str]) -> None:
        game = await sync_to_async(Game.objects.get)(pk=game_id)
        pending = engine.pending(game.state)
        if not pending:
            return
        seat = sorted(pending)[0]
        action = engine.default_action(game.state, seat)
        started = time.perf_counter()
        status, body = await asyncio.to_thread(post, f"{base}/api/v1/games/{game_id}/actions", tokens[seat],
                                               {"version": game.version, "action": action})
        if status == 200:
            sent.append((game_id, body.get("version", game.version + 1), started))
        elif status != 409:
            failures.append(f"game {game_id}: HTTP {status} {body.get('error', '')}")

    tasks = []
    begin = time.perf_counter()
    # The first WARMUP_SECONDS of actions warm the server (its first requests, connections and
    # threads: they took up to 0.7 s): their updates are checked for losses, not timed.
    warmup = int(rate * WARMUP_SECONDS)
    for n in range(warmup + samples):
        await asyncio.sleep(max(0.0, begin + n / rate - time.perf_counter()))
        tasks.append(asyncio.create_task(act(*tables[n % len(tables)])))
    await asyncio.gather(*tasks)
    achieved = (warmup + samples) / (time.perf_counter() - begin)
    await asyncio.sleep(5)  # stragglers
    end_to_end, spread, lost, when = [], [], 0, []
    for game_id, version, started in sent:
        times = []
        for index in range(len(sockets[game_id])):
            covering = [t for lo, hi, t in received.get((game_id, index), []) if lo < version <= hi]
            if covering:
                times.append(min(covering))
            else:
                lost += 1
        if times:
            if started - begin >= WARMUP_SECONDS:
                end_to_end.append(max(times) - started)
                spread.append(max(times) - min(times))
                when.append(started - begin)
    for listener in listeners:
        listener.cancel()
    for wss in sockets.values():
        for ws in wss:
            await ws.close()
    connected = sum(len(w) for w in sockets.values())
    expected = sum(len(sockets[g]) for g, _, _ in sent)
    print(f"fan-out: {len(tables)} live {len(tables[0][1])}-player games, {connected} sockets ({refused} refused); "
          f"{len(sent)} actions applied at {achieved:.1f} actions/s (asked {rate:g}), the first {warmup} to warm "
          f"the server (checked for losses, not timed); load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  updates: {expected - lost} of {expected} received, {lost} LOST, {len(gaps)} gap notice(s); "
          f"{len(failures)} failed action(s)" + (f", first: {failures[0]}" if failures else ""))
    if end_to_end:
        report("POST sent -> last socket", end_to_end)
        report("first -> last socket", spread)
        slowest = sorted(zip(end_to_end, when, strict=True), reverse=True)[:5]
        print("  slowest POST -> last socket: " + ", ".join(f"{took * 1000:.0f} ms (sent at {at:.1f} s)"
                                                           for took, at in slowest))


def deadlines(env: dict[str, str], count: int, celery: bool, in_server: bool = False) -> None:
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
    from notifications.models import Kind, Notification
    from notifications.services import _deadline_key as deadline_key

    # All the deadlines fall due at one instant, `lead` seconds from now (time for the runners to
    # start). What the notifications would have done long before is done now, outside the runners:
    # the "game started" messages are dropped and the deadline warnings decided and marked sent (in
    # real play they go out a tenth of the time limit before; here they would all be decided, and
    # 900 e-mails sent, in the very second before the deadline).
    # The warnings are written here in one INSERT, with the keys warn_deadlines gives them (deciding
    # them one transaction each took 1.4 s), and the script says how long before the deadline the
    # runners started: one `dev.py bench` run measured every first timeout at least 1.03 s late, as
    # if its runner had started after the deadline (not explained; not seen in any other run).
    lead = 12
    Notification.objects.filter(kind="game_started").delete()
    due = timezone.now() + timedelta(seconds=lead)
    ids = [g.pk for g in games]
    GameSeat.objects.filter(game_id__in=ids).update(deadline_at=due)
    Game.objects.filter(pk__in=ids).update(deadline_at=due)
    sent = timezone.now()
    Notification.objects.bulk_create(
        Notification(user_id=seat.user_id, game_id=seat.game_id, kind=Kind.DEADLINE_NEAR, key=deadline_key(seat),
                     claimed_at=sent, emailed_at=sent) for seat in GameSeat.objects.filter(game_id__in=ids))
    Notification.objects.update(claimed_at=sent, emailed_at=sent)
    logs = Path(tempfile.mkdtemp(prefix="westeros-bench-deadlines-"))
    if celery:  # beat sends a sweep every second; two worker processes share the overdue games
        env = {**env, "REDIS_URL": env["REDIS_URL"].rsplit("/", 1)[0] + "/14"}  # a Redis database of its own
        runners = [subprocess.Popen([sys.executable, "-m", "celery", "-A", "westeros", *args, "-l", "info"],
                                    cwd=ROOT, env=env, stdout=(logs / f"{args[0]}.log").open("w"),
                                    stderr=subprocess.STDOUT)
                   for args in (["worker", "--concurrency", "2"], ["beat", "-s", str(logs / "beat-schedule")])]
    elif in_server:  # embedded mode as `dev.py start` runs it: no Redis, the runner inside Daphne
        embedded = {k: v for k, v in env.items() if k not in ("REDIS_URL", "DEADLINE_RUNNER_IN_SERVER")}
        runners = [start_daphne(embedded)[0]]
    else:  # as `dev.py start` runs it beside Daphne when REDIS_URL is set: no Celery, so the runner
        # sends the notification outbox itself and nothing hands notifications to a broker
        env = {**env, "NOTIFY_OUTBOX_ONLY": "true"}
        runners = [subprocess.Popen([sys.executable, "manage.py", "run_deadlines"], cwd=ROOT, env=env,
                                    stdout=(logs / "runner.log").open("w"), stderr=subprocess.STDOUT)]
    left = (due - timezone.now()).total_seconds()
    print(f"deadlines: the runners started {left:.1f} s before the deadline" + (
        "" if left > 5 else " (TOO LATE: their start is counted in the figures below)"))
    time.sleep(max(0.0, left))
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

    workers = (1 if env["DATABASE_URL"].startswith("sqlite")  # one writer at a time: always one sweep
               else env.get("DEADLINE_SWEEP_WORKERS", getattr(settings, "DEADLINE_SWEEP_WORKERS", 1)))
    print(f"deadlines: {count} games falling due at the same instant, resolved by "
          f"{'Celery beat + a worker with 2 processes' if celery else 'the runner inside Daphne without Redis (embedded mode, as dev.py start)' if in_server else 'the deadline runner (manage.py run_deadlines, 1 s interval, notifications from its outbox)'}"
          f", {workers} sweep thread(s) per tick; machine load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores: {len(delays)} resolved, {count - len(delays)} NOT resolved (logs: {logs})")
    if delays:
        report("deadline -> first timeout applied", delays)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--samples", type=int, default=500)
    parser.add_argument("--rate", type=float, default=25.0, help="actions/s sent across the games")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--deadline-games", type=int, default=300)
    parser.add_argument("--celery", action="store_true", help="resolve deadlines with a Celery worker (REDIS_URL)")
    parser.add_argument("--in-server", action="store_true",
                        help="resolve deadlines with the runner inside Daphne, without Redis (embedded mode)")
    parser.add_argument("--only-deadlines", action="store_true", help="skip the fan-out part")
    parser.add_argument("--database", help="PostgreSQL database to (re)create for this run")
    args = parser.parse_args()

    env = setup_environment(args.database)
    prepare_django(env)
    if not args.only_deadlines:
        fan_out_part(env, args.games, args.samples, args.rate, args.players)
    deadlines(env, args.deadline_games, args.celery, args.in_server)


def fan_out_part(env: dict[str, str], games: int, samples: int, rate: float, players: int) -> None:
    tables = make_tables(games, "live", players)
    server, port = start_daphne(env)
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        asyncio.run(fan_out(base, ws_base, tables, samples, rate))
    finally:
        server.terminate()
        server.wait(timeout=10)

if __name__ == "__main__":
    main()
