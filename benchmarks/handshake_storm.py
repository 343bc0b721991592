"""Handshake storm probe (not a test): N game sockets connecting at once to one Daphne process.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/x REDIS_URL=redis://127.0.0.1:6379/13 \\
        python benchmarks/handshake_storm.py [--sockets 200] [--games 50] [--rounds 3] [--database NAME]

What a Daphne node lives through when the other node dies or Redis fails over (issue 28): every
socket it is to serve arrives at the same instant. Starts the production server
(`westeros.asgi_server`, as the systemd unit does) on a free port against a fresh database of its
own (PostgreSQL when DATABASE_URL is set, else a SQLite file) and the channel layer REDIS_URL names
(in memory without it); creates `--games` started AGoT games whose players each hold an API token,
one socket per player (`--sockets` in all), then `--rounds` times: opens every socket at once,
times each from its TCP connect to the `hello` message, and closes them all. Prints per round the
handshakes' median, p99 and slowest, how many got their hello within 2 s and 5 s (the issue's goals)
and how many failed (Daphne drops a handshake its application has not accepted after
its 5 s connect timeout), with the machine's load average (`uptime`) before each round.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from server_api import RUN_DIR, make_tables, percentile, prepare_django, setup_environment  # noqa: E402

from westeros.ports import free_port  # noqa: E402

SERVER_LOG = RUN_DIR / "daphne.log"


def start_server(env: dict[str, str], profile: str | None = None) -> tuple[subprocess.Popen, int]:
    """The production server (deploy/systemd's ExecStart) on a free port, under cProfile when
    `profile` names the file to write (at exit); returns once it answers."""
    port = free_port()
    profiling = ["-m", "cProfile", "-o", profile] if profile else []
    server = subprocess.Popen(
        [sys.executable, *profiling, "-m", "westeros.asgi_server", "-e", f"tcp:port={port}:interface=127.0.0.1:backlog=2048",
         "westeros.asgi:application"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=open(SERVER_LOG, "w"))
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=1).read()
            break
        except urllib.error.HTTPError:
            break
        except OSError:
            time.sleep(0.1)
    return server, port


async def one(url: str, results: list, sockets: list, start: asyncio.Event) -> None:
    import websockets

    await start.wait()
    began = time.perf_counter()
    try:
        ws = await websockets.connect(url, origin="http://127.0.0.1", open_timeout=30, max_queue=None)
        while "/ws/games/" in url and json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] != "hello":
            pass  # a game socket is ready at its hello; the ping socket once open
    except Exception as error:
        results.append((None, f"{type(error).__name__}: {error}"[:90]))
        return
    results.append((time.perf_counter() - began, None))
    sockets.append(ws)


async def storm(port: int, urls: list[str]) -> tuple[list, list]:
    results: list = []
    sockets: list = []
    start = asyncio.Event()
    tasks = [asyncio.create_task(one(f"ws://127.0.0.1:{port}{u}", results, sockets, start)) for u in urls]
    await asyncio.sleep(0.2)  # every task waiting at the start line
    start.set()
    await asyncio.gather(*tasks)
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    return results, sockets


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system, every thread)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def report(round_: int, results: list, load: str, cpu: float) -> None:
    times = [t for t, _ in results if t is not None]
    failed = [e for _, e in results if e is not None]
    within2 = sum(t <= 2 for t in times)
    within5 = sum(t <= 5 for t in times)
    line = (f"round {round_}: {len(results)} sockets, {len(failed)} failed; "
            f"hello within 2 s {within2}, within 5 s {within5}")
    if times:
        line += (f"; median {statistics.median(times):.2f} s, p99 {percentile(times, .99):.2f} s, "
                 f"slowest {max(times):.2f} s")
    print(f"{line}; server CPU {cpu:.2f} s ({cpu / max(1, len(results)) * 1000:.1f} ms a socket, "
          f"connect and close)   [{load}]", flush=True)
    reasons: dict[str, int] = {}
    for error in failed:
        reasons[error] = reasons.get(error, 0) + 1
    for error, count in sorted(reasons.items(), key=lambda kv: -kv[1])[:3]:
        print(f"    {count} x {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pause", type=float, default=3.0, help="seconds between rounds")
    parser.add_argument("--database", default=None)
    parser.add_argument("--ping", action="store_true",
                        help="the /ws/ping/ socket instead (no database call at all): the floor of the server and client")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile, its statistics written to FILE")
    args = parser.parse_args()
    env = setup_environment(args.database)
    prepare_django(env)
    players = max(1, -(-args.sockets // args.games))
    tables = make_tables(args.games, f"storm{os.getpid()}_", players=min(6, max(3, players)))
    urls = [f"/ws/ping/?token={token}" if args.ping else f"/ws/games/{game}/?token={token}"
            for game, tokens in tables for token in tokens.values()][:args.sockets]
    server, port = start_server(env, args.profile)
    print(f"{len(urls)} sockets over {len(tables)} games, one server process on port {port} "
          f"({'PostgreSQL' if env['DATABASE_URL'].startswith('postgres') else 'SQLite'}, "
          f"{'Redis' if env.get('REDIS_URL') else 'in-memory'} layer); server log {SERVER_LOG}", flush=True)
    try:
        for n in range(1, args.rounds + 1):
            load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip().split("load average")[-1]
            cpu = cpu_seconds(server.pid)
            results, _ = asyncio.run(storm(port, urls))
            time.sleep(1)  # the closes handled too
            report(n, results, "load average" + load, cpu_seconds(server.pid) - cpu)
            time.sleep(args.pause)
    finally:
        server.send_signal(signal.SIGINT)  # Daphne stops cleanly (and cProfile writes its file)
        server.wait(30)


if __name__ == "__main__":
    main()
