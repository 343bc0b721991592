"""Bursts (issue 13, item 8): Twisted listens with a backlog of 50, so 450 simultaneous POSTs to one
Daphne got about 120 TCP resets. The README's production command and `manage.py serve` (what
`python3 dev.py start` runs) listen with LISTEN_BACKLOG (2048): the kernel queues the burst."""
from __future__ import annotations

import asyncio
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.live_server import running_server

ROOT = Path(__file__).resolve().parent.parent
BURST = 450


def documented_daphne_command() -> list[str]:
    """The `.venv/bin/python -m westeros.asgi_server ...` line (the site's Daphne) of the README's
    production recipe, on a port of the test's own."""
    line = next(line for line in (ROOT / "README.md").read_text().splitlines()
                if line.startswith(".venv/bin/python -m westeros.asgi_server "))
    line = line.replace("port=8000", "port={port}").replace("interface=0.0.0.0", "interface=127.0.0.1")
    return [sys.executable, *line.split()[1:]]


def listen_backlog(port: int) -> int:
    """The backlog of the socket listening on `port`, as the kernel reports it (ss's Send-Q)."""
    out = subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True, check=True).stdout
    return int(out.split()[2])


async def post(port: int, path: str) -> str:
    """One POST on a fresh connection; the HTTP status, or the name of the connection error."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 60)
        body = b'{"version": 0, "action": {}}'
        writer.write(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (path.encode(), len(body), body))
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), 60)
        writer.close()
        return status.split(b" ")[1].decode() if status else "closed without an answer"
    except (TimeoutError, OSError) as error:
        return type(error).__name__


async def burst(port: int, count: int) -> Counter:
    return Counter(await asyncio.gather(*(post(port, "/api/v1/games/1/actions") for _ in range(count))))


def test_manage_py_serve_listens_with_a_large_backlog():
    """What `python3 dev.py start` runs."""
    with running_server([sys.executable, "manage.py", "serve", "127.0.0.1:{port}", "--noreload"]) as server:
        assert listen_backlog(server.port) == 2048, server.output()


def test_the_readme_production_command_listens_with_a_large_backlog_and_answers_a_burst_without_a_reset():
    # one server for both checks: the burst needs a server started this way, and starting one is most
    # of this test's cost
    with running_server(documented_daphne_command()) as server:
        assert listen_backlog(server.port) == 2048, server.output()
        outcomes = asyncio.run(burst(server.port, BURST))
    # Every connection got an HTTP answer (401: these POSTs carry no credentials).
    assert outcomes == Counter({"401": BURST}), outcomes
