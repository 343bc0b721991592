"""A reconnection storm never takes a Daphne node out of rotation for pages and the API (issue 28).

The chaos benchmark found it: when a node or the Redis primary dies, hundreds of websockets reconnect
at once; a Daphne drops (TCP reset) the handshakes it cannot finish within its 5 s handshake
timeout, and when `/ws/` shared the API's upstream, nginx counted each reset against the node
(`max_fails=3`) and, with both nodes out, answered every request 502 "no live upstreams".

Here the shipped deploy/nginx-westeros.conf (tests/test_deploy.py's rendering: its ports, paths and a
self-signed certificate, nothing else) runs in front of two Daphne processes started with the unit's
command, on the test's PostgreSQL database (no Redis: each has its in-memory channel layer, which a
handshake needs no more). The storm: node 1 is SIGKILLed, and while the API-token table is locked
(so every token handshake waits on the database longer than Daphne's handshake timeout, as on a node
overwhelmed by a storm) 60 handshakes are attempted through nginx: node 1 refuses them, node 2 resets
them, and nginx's error log shows the resets. Afterwards (the lock released): every page request
through nginx is answered by node 2, nginx never ran out of live nodes, handshakes succeed on node 2,
and once node 1 is started again (as systemd would) new sockets reach it at once."""
from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import time
import urllib.error
import urllib.request
import uuid

import pytest
import websockets
from django.db import connection, transaction

from tests.celery_worker import _database_url, free_ports, needs_postgres, wait_for
from tests.factories import make_token, make_user
from tests.test_deploy import (
    ROOT,
    SETTING_NAMES,
    UPSTREAM_HEADER,
    NoRedirect,
    answers,
    as_local,
    exec_start,
    needs_nginx,
    nginx_command,
    nginx_folder,
    nginx_main_config,
    render_nginx_site,
    self_signed_certificate,
    stop,
)

pytestmark = [pytest.mark.deploy]
STORM = 60  # handshakes attempted at once while node 1 is dead and node 2 cannot finish any


def daphne_env(folder, https: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTING_NAMES}
    env.update(DEBUG="false", SECRET_KEY=f"storm-test-{uuid.uuid4().hex}-{uuid.uuid4().hex}",
               ALLOWED_HOSTS="127.0.0.1,localhost", SITE_URL=f"https://127.0.0.1:{https}",
               DATABASE_URL=_database_url(), STATIC_ROOT=str(folder / "staticfiles"), DB_POOL_SIZE="4",
               EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend", PYTHONUNBUFFERED="1", LOG_LEVEL="INFO")
    return env


@needs_postgres
@needs_nginx
@pytest.mark.django_db(transaction=True)
def test_a_reconnection_storm_leaves_pages_and_sockets_working():
    from accounts.models import ApiToken

    folder = nginx_folder("westeros-storm-")
    https, http, *ports = free_ports(4)
    self_signed_certificate(folder)
    context = ssl.create_default_context(cafile=str(folder / "cert.pem"))
    (folder / "westeros.conf").write_text(render_nginx_site(folder, http=http, https=https, daphnes=ports,
                                                            static_root=folder / "staticfiles"))
    (folder / "nginx.conf").write_text(nginx_main_config(folder))
    env = daphne_env(folder, https)
    processes: dict[str, subprocess.Popen] = {}
    _, key = make_token(make_user())
    base = f"https://127.0.0.1:{https}"

    def start(name: str) -> None:
        port = ports[int(name[-1]) - 1]
        with (folder / f"{name}.log").open("a") as log:
            processes[name] = subprocess.Popen(as_local(exec_start("westeros-daphne@.service"), {"%i": str(port)}),
                                               cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                               start_new_session=True)

    def node(upstream: str | None) -> str:
        """daphne-1 or daphne-2, from the X-Westeros-Upstream header (the last address nginx tried)."""
        last = (upstream or "").rsplit(",", 1)[-1].strip()  # "westeros_daphne" when none was live
        port = int(last.rsplit(":", 1)[-1]) if re.fullmatch(r"127\.0\.0\.1:\d+", last) else None
        return f"daphne-{ports.index(port) + 1}" if port in ports else f"none ({upstream})"

    def page() -> tuple[int, str]:
        """GET / through nginx: the status and the node that answered."""
        opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=context), NoRedirect)
        try:
            with opener.open(base + "/", timeout=30) as response:
                return response.status, node(response.headers.get(UPSTREAM_HEADER))
        except urllib.error.HTTPError as error:
            return error.code, node(error.headers.get(UPSTREAM_HEADER))

    async def handshake(open_timeout: float) -> str:
        """A token websocket (/ws/ping/) through nginx: the node whose pong came back."""
        async with websockets.connect(f"wss://127.0.0.1:{https}/ws/ping/?token={key}", ssl=context,
                                      origin=base, open_timeout=open_timeout) as ws:
            await ws.send(json.dumps({"n": 1}))
            pong = json.loads(await asyncio.wait_for(ws.recv(), 30))
            assert pong["type"] == "pong" and pong["user"], pong
            return node(ws.response.headers.get(UPSTREAM_HEADER))

    async def attempt(open_timeout: float) -> str:
        try:
            return await handshake(open_timeout)
        except Exception as error:  # refused, reset, 502, timed out: a failed handshake
            return f"failed: {type(error).__name__}"

    async def storm() -> list[str]:
        return await asyncio.gather(*(attempt(open_timeout=90) for _ in range(STORM)))

    def handshakes(count: int) -> list[str]:
        """`count` handshakes through nginx at once; each must succeed (a ceiling of 120 s in all)."""
        async def all_of_them() -> list[str]:
            return await asyncio.wait_for(asyncio.gather(*(handshake(30) for _ in range(count))), 120)
        return asyncio.run(all_of_them())

    def error_log() -> str:
        return (folder / "error.log").read_text(errors="replace")

    def logs() -> str:
        return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
                         for path in sorted(folder.glob("*.log")))

    try:
        with (folder / "nginx.log").open("w") as log:
            processes["nginx"] = subprocess.Popen(nginx_command(folder), stdout=log, stderr=subprocess.STDOUT,
                                                  start_new_session=True)
        start("daphne-1")
        start("daphne-2")
        assert wait_for(lambda: all(answers(f"http://127.0.0.1:{port}/static/") for port in ports)
                        and answers(base + "/static/", context), timeout=120), logs()
        # Both nodes take handshakes through nginx before the storm.
        before = handshakes(4)
        assert set(before) == {"daphne-1", "daphne-2"}, before

        # The storm: node 1 dies; node 2 cannot finish a token handshake while the table is locked.
        os.killpg(processes["daphne-1"].pid, signal.SIGKILL)
        processes["daphne-1"].wait(timeout=10)
        started = time.monotonic()
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(f"LOCK TABLE {ApiToken._meta.db_table} IN ACCESS EXCLUSIVE MODE")
            outcomes = asyncio.run(storm())
        storm_seconds = time.monotonic() - started
        assert all(outcome.startswith("failed") for outcome in outcomes), outcomes
        # nginx saw node 2 drop the handshakes it could not finish in time (each one a failure that
        # used to count against the node), and node 1 refuse them.
        dropped = [line for line in error_log().splitlines() if f"127.0.0.1:{ports[1]}/ws/ping/" in line
                   and ("reset by peer" in line or "prematurely closed" in line)]
        refused = [line for line in error_log().splitlines() if f"127.0.0.1:{ports[0]}/ws/ping/" in line
                   and "refused" in line]
        assert len(dropped) >= 10 and refused, logs()

        # Right after it: pages are answered (node 2; node 1 is dead and skipped), never a 502.
        answered = [page() for _ in range(10)]
        assert answered == [(200, "daphne-2")] * 10, answered
        # Handshakes succeed again, on node 2.
        after = handshakes(6)
        assert set(after) == {"daphne-2"}, after
        # Node 1 comes back (systemd's Restart=always): new sockets reach it at once, and pages too.
        start("daphne-1")
        assert wait_for(lambda: answers(f"http://127.0.0.1:{ports[0]}/static/"), timeout=120), logs()
        back = handshakes(6)
        assert "daphne-1" in back, back
        assert wait_for(lambda: page() == (200, "daphne-1"), timeout=30), error_log()[-3000:]
        assert "no live upstreams" not in error_log(), error_log()[-3000:]
        print(f"storm: {STORM} handshakes failed in {storm_seconds:.1f} s ({len(dropped)} dropped by node 2, "
              f"{len(refused)} refused by node 1); pages after it: {answered[0]} x 10; sockets after it: {after}; "
              f"after node 1's restart: {back}")
    finally:
        for process in processes.values():
            stop(process)
        shutil.rmtree(folder, ignore_errors=True)
