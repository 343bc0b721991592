"""The deploy/ recipe end to end on loopback (issue 14): nginx with deploy/nginx-westeros.conf (its
ports, paths and a self-signed certificate substituted, nothing else), in front of two Daphne
processes and a Celery worker and beat, each started with the ExecStart line of its systemd unit,
all on one PostgreSQL database (the test's) and one Redis (a private redis-server).

It shows: the static files collected by `collectstatic` served by nginx; a websocket opened through
nginx to one Daphne seeing an action POSTed through nginx that the *other* Daphne applied; a 2 s
deadline resolved by the worker and seen through the proxy; a pg_dump backup restored.

Which Daphne served what: for this test only, nginx adds `X-Westeros-Upstream: <address>` to every
proxied response, the 101 of a websocket included (the one line the test adds to the config), and
each Daphne writes an access log of its own, which the test reads to confirm.

The two-machine shape (deploy/README.md, "Two machines") runs the same way: deploy/redis/'s Redis
primary, its replica and three sentinels (each a redis-server of the test's own on a free port), nginx,
two Daphne nodes, two workers and beat, all through REDIS_SENTINELS; the Redis primary is SIGKILLed and
play, log-in and deadlines go on once the sentinels have promoted the replica.

nginx runs as a foreground process with a prefix in a temporary folder (never the system's nginx,
configuration, logs or port 80). Needs PostgreSQL (the processes share the test database) and
nginx (`.ci/run` installs Debian's nginx-light).

deploy/deploy.sh is run too, as deploy/README.md's "Every deploy" says, as root on a checkout owned
by another user (`nobody` standing for `westeros`): the pull, the install into .venv/, `check
--deploy` on deploy/westeros.env.example's settings, the migration of a database of the test's own,
collectstatic and the restart (a systemctl that writes down its calls); then the Daphne unit serves
what it deployed."""
from __future__ import annotations

import asyncio
import json
import os
import pwd
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import websockets

from tests.celery_worker import (
    _database_url,
    free_port,
    free_ports,
    needs_postgres,
    private_redis,
    site_on_broker,
    wait_for,
)
from tests.factories import make_game, make_token

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
UPSTREAM_HEADER = "X-Westeros-Upstream"

needs_nginx = pytest.mark.skipif(
    not Path(NGINX).exists() and not IN_CI,
    reason="nginx is not installed (Debian's nginx-light; .ci/run installs it, and under CI=true this fails instead)",
)
pytestmark = [pytest.mark.deploy]

# Settings the app processes get from /etc/westeros/env in production; the test's own values.
SETTING_NAMES = ("DATABASE_URL", "REDIS_URL", "REDIS_SENTINELS", "REDIS_SENTINEL_MASTER", "REDIS_PASSWORD",
                 "REDIS_SENTINEL_PASSWORD", "REDIS_DB", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SITE_URL", "STATIC_ROOT",
                 "SECURE_SSL_REDIRECT", "DEADLINE_QUEUE", "NOTIFY_QUEUE", "EMAIL_HOST", "EMAIL_BACKEND",
                 "DB_POOL_SIZE", "DB_CONN_MAX_AGE", "CSRF_TRUSTED_ORIGINS")


# --------------------------------------------------------------------------- Redis with a replica and Sentinel

REDIS_RECIPE = DEPLOY / "redis"


def sentinel_master_name() -> str:
    """The primary's name in deploy/redis/sentinel.conf (REDIS_SENTINEL_MASTER)."""
    return re.search(r"^sentinel monitor (\S+) ", (REDIS_RECIPE / "sentinel.conf").read_text(), re.M).group(1)


def render_redis_conf(*, port: int, password: str, folder: Path, replica_of: int | None = None) -> str:
    """deploy/redis/redis.conf (and replica.conf for the replica) on loopback: the test's port,
    password and folder; every other line as shipped."""
    text = (REDIS_RECIPE / "redis.conf").read_text()
    text = replace_exactly(text, "\nbind 127.0.0.1 10.0.0.5\n", "\nbind 127.0.0.1\n")
    text = replace_exactly(text, "\nport 6379\n", f"\nport {port}\n")
    text = replace_exactly(text, "\nrequirepass PASSWORD\n", f"\nrequirepass {password}\n")
    text = replace_exactly(text, "\nmasterauth PASSWORD\n", f"\nmasterauth {password}\n")
    if replica_of is not None:
        replica = (REDIS_RECIPE / "replica.conf").read_text()
        text += replace_exactly(replica, "\nreplicaof 10.0.0.5 6379\n", f"\nreplicaof 127.0.0.1 {replica_of}\n")
    return text + f"dir {folder}\n"


def render_sentinel_conf(*, port: int, primary: int, password: str, sentinel_password: str, folder: Path) -> str:
    """deploy/redis/sentinel.conf on loopback: the test's ports, passwords and folder."""
    text = (REDIS_RECIPE / "sentinel.conf").read_text()
    text = replace_exactly(text, "\nbind 127.0.0.1 10.0.0.5\n", "\nbind 127.0.0.1\n")
    text = replace_exactly(text, "\nport 26379\n", f"\nport {port}\n")
    text = replace_exactly(text, "\nrequirepass SENTINEL_PASSWORD\n", f"\nrequirepass {sentinel_password}\n")
    text = replace_exactly(text, " 10.0.0.5 6379 2\n", f" 127.0.0.1 {primary} 2\n")
    text = replace_exactly(text, " PASSWORD\n", f" {password}\n")
    return text + f"dir {folder}\n"


@dataclass
class SentinelRedis:
    """deploy/redis/'s Redis on loopback: a primary, its replica and three sentinels, each a
    redis-server of the test's own on a free port (never the shared Redis)."""

    folder: Path
    primary: int
    replica: int
    sentinels: list[int]
    password: str
    sentinel_password: str
    master: str
    processes: dict[str, subprocess.Popen]

    @property
    def env(self) -> dict[str, str]:
        """The settings deploy/westeros.env.example names for Redis through Sentinel."""
        return {"REDIS_SENTINELS": ",".join(f"127.0.0.1:{port}" for port in self.sentinels),
                "REDIS_SENTINEL_MASTER": self.master, "REDIS_PASSWORD": self.password,
                "REDIS_SENTINEL_PASSWORD": self.sentinel_password}

    def server(self, port: int):
        import redis

        return redis.Redis(port=port, password=self.password, socket_timeout=5, socket_connect_timeout=5)

    def sentinel(self, port: int):
        import redis

        return redis.Redis(port=port, password=self.sentinel_password, socket_timeout=2, socket_connect_timeout=2,
                           decode_responses=True)

    def ask(self, port: int, ask) -> object:
        """`ask(client)` on one server or sentinel, None when it does not answer."""
        import redis

        client = self.sentinel(port) if port in self.sentinels else self.server(port)
        try:
            return ask(client)
        except redis.RedisError:
            return None
        finally:
            client.close()

    def role(self, port: int) -> str | None:
        info = self.ask(port, lambda client: client.info("replication"))
        return info["role"] if info else None

    def replica_in_sync(self) -> bool:
        info = self.ask(self.replica, lambda client: client.info("replication"))
        return bool(info) and info.get("master_link_status") == "up"

    def primary_seen_by_sentinels(self) -> set:
        """(host, port) of the primary according to each sentinel (None for one that did not say)."""
        return {self.ask(port, lambda client: client.sentinel_get_master_addr_by_name(self.master))
                for port in self.sentinels}

    def sentinels_ready(self) -> bool:
        """Each sentinel watches the primary, knows its replica and both other sentinels."""
        for port in self.sentinels:
            state = self.ask(port, lambda client: client.sentinel_master(self.master))
            if not state or state.get("num-slaves") != 1 or state.get("num-other-sentinels") != 2:
                return False
        return True

    def promoted(self) -> bool:
        """Every sentinel names the replica as the primary, and the replica says it is one."""
        return (self.primary_seen_by_sentinels() == {("127.0.0.1", self.replica)}
                and self.role(self.replica) == "master")

    def kill_primary(self) -> None:
        """SIGKILL, as a lost machine or the OOM killer would (never restarted here)."""
        process = self.processes["redis-primary"]
        process.kill()
        process.wait(timeout=10)

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-2000:]}"
                         for path in sorted(self.folder.glob("*.log")))


@contextmanager
def sentinel_redis() -> Iterator[SentinelRedis]:
    """Starts the primary, the replica (and waits until it has copied the primary), then the three
    sentinels (and waits until each knows the replica and the two others); stops them all after."""
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed (Debian's redis-server package)")
    folder = Path(tempfile.mkdtemp(prefix="westeros-sentinel-"))
    primary, replica, *sentinels = free_ports(5)
    cluster = SentinelRedis(folder, primary, replica, sentinels,
                            password=uuid.uuid4().hex, sentinel_password=uuid.uuid4().hex,
                            master=sentinel_master_name(), processes={})

    def start(name: str, config: str, *args: str) -> None:
        (folder / name).mkdir()
        (folder / f"{name}.conf").write_text(config)
        with (folder / f"{name}.log").open("w") as log:
            cluster.processes[name] = subprocess.Popen(["redis-server", str(folder / f"{name}.conf"), *args],
                                                       stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    try:
        start("redis-primary", render_redis_conf(port=cluster.primary, password=cluster.password,
                                                 folder=folder / "redis-primary"))
        start("redis-replica", render_redis_conf(port=cluster.replica, password=cluster.password,
                                                 folder=folder / "redis-replica", replica_of=cluster.primary))
        # conditions, waited for generously: a loaded CI machine once took over 30 s to see the replica's link up
        assert wait_for(cluster.replica_in_sync, timeout=120), cluster.logs()
        for n, port in enumerate(cluster.sentinels, start=1):
            start(f"sentinel-{n}", render_sentinel_conf(port=port, primary=cluster.primary, password=cluster.password,
                                                        sentinel_password=cluster.sentinel_password,
                                                        folder=folder / f"sentinel-{n}"), "--sentinel")
        assert wait_for(cluster.sentinels_ready, timeout=120), cluster.logs()
        yield cluster
    finally:
        for process in cluster.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def exec_start(unit: str) -> list[str]:
    """The ExecStart command of a unit in deploy/systemd/."""
    text = (DEPLOY / "systemd" / unit).read_text()
    return re.search(r"^ExecStart=(.+)$", text, re.M).group(1).split()


def as_local(command: list[str], replacements: dict[str, str], python: str = sys.executable) -> list[str]:
    """A unit's command with `python` (this checkout's) instead of /srv/westeros/.venv/bin/...: its
    python as it is, another program (celery) as `python -m program`."""
    program = Path(command[0]).name
    args = [replacements.get(part, part) for part in command[1:]]
    for old, new in replacements.items():
        args = [part.replace(old, new) for part in args]
    return [python, *args] if program == "python" else [python, "-m", program, *args]


def replace_exactly(text: str, old: str, new: str, count: int = 1) -> str:
    assert text.count(old) == count, f"deploy/nginx-westeros.conf no longer has {count} x {old!r}"
    return text.replace(old, new)


def render_nginx_site(folder: Path, *, http: int, https: int, daphnes: list[int], static_root: Path) -> str:
    """deploy/nginx-westeros.conf for loopback: free ports, the test's certificate and static folder,
    and the upstream header. Everything else is the file as shipped."""
    site = (DEPLOY / "nginx-westeros.conf").read_text()
    site = replace_exactly(site, "    listen 80;\n", f"    listen 127.0.0.1:{http};\n")
    site = replace_exactly(site, "    listen [::]:80;\n", "")
    site = replace_exactly(site, "    listen 443 ssl;\n", f"    listen 127.0.0.1:{https} ssl;\n")
    site = replace_exactly(site, "    listen [::]:443 ssl;\n", "")
    # each Daphne twice: in the upstream for pages and the API, and in the one for websockets
    site = replace_exactly(site, "server 127.0.0.1:8001 ", f"server 127.0.0.1:{daphnes[0]} ", count=2)
    site = replace_exactly(site, "server 127.0.0.1:8002 ", f"server 127.0.0.1:{daphnes[1]} ", count=2)
    site = replace_exactly(site, "/etc/letsencrypt/live/westeros.example/fullchain.pem", str(folder / "cert.pem"))
    site = replace_exactly(site, "/etc/letsencrypt/live/westeros.example/privkey.pem", str(folder / "key.pem"))
    site = replace_exactly(site, "alias /srv/westeros/staticfiles/;", f"alias {static_root}/;")
    site = replace_exactly(site, "root /var/www/html;", f"root {folder / 'www'};")
    site = replace_exactly(site, "/var/log/nginx/access.log", str(folder / "access.log"), count=2)
    for upstream in ("westeros_daphne", "westeros_daphne_ws"):
        site = replace_exactly(site, f"        proxy_pass http://{upstream};\n",
                               f"        proxy_pass http://{upstream};\n"
                               f"        add_header {UPSTREAM_HEADER} $upstream_addr always;\n")
    return site


def nginx_main_config(folder: Path) -> str:
    """The part of /etc/nginx/nginx.conf a site needs, with every path in the test's folder."""
    temp = "\n".join(f"    {kind}_temp_path {folder / 'temp' / kind};" for kind in
                     ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""daemon off;
worker_processes 1;
pid {folder / 'nginx.pid'};
error_log {folder / 'error.log'} notice;
events {{ worker_connections 512; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
{temp}
    include {folder / 'westeros.conf'};
}}
"""


@dataclass
class Site:
    folder: Path
    https: int
    http: int
    daphnes: list[int]
    context: ssl.SSLContext
    processes: dict[str, subprocess.Popen]

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https}"

    def request(self, path: str, *, method: str = "GET", body: dict | None = None, token: str | None = None,
                base: str | None = None, **headers: str) -> tuple[int, dict[str, str], bytes]:
        if token:
            headers["Authorization"] = f"Token {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request((base or self.url) + path, data=data, method=method, headers=headers)
        opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=self.context), NoRedirect)
        try:
            with opener.open(request, timeout=20) as response:
                return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
        except urllib.error.HTTPError as error:
            return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()

    def daphne_named(self, upstream: str) -> str:
        port = int(upstream.rsplit(":", 1)[1])
        assert port in self.daphnes, upstream
        return f"daphne-{self.daphnes.index(port) + 1}"

    def access_log(self, name: str) -> str:
        return (self.folder / f"{name}.access.log").read_text(errors="replace")

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
                         for path in sorted(self.folder.glob("*.log")))


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=10)


def answers(url: str, context: ssl.SSLContext | None = None) -> bool:
    """Any HTTP answer (Daphne redirects plain HTTP to HTTPS: an answer too)."""
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=context), NoRedirect)
    try:
        opener.open(url, timeout=2).close()
        return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


def nginx_folder(prefix: str) -> Path:
    """A temporary folder for an nginx of the test's own: its prefix, temp paths and web root."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o755)  # nginx's worker (nobody, when the test runs as root) reads static files here
    (folder / "www").mkdir()
    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / "temp" / kind).mkdir(parents=True)
    return folder


def self_signed_certificate(folder: Path) -> None:
    """cert.pem and key.pem in `folder`, for 127.0.0.1."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem"), "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)


def nginx_command(folder: Path) -> list[str]:
    """nginx with the site's configuration as written in `folder` (checked with -t first)."""
    nginx = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")]
    checked = subprocess.run([*nginx, "-t"], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    return nginx


@contextmanager
def deployed_site(redis: dict[str, str], workers: int = 1) -> Iterator[Site]:
    """nginx, two Daphne processes, `workers` Celery workers and beat, with the Redis settings `redis`
    (REDIS_URL, or REDIS_SENTINELS and the variables with it)."""
    folder = nginx_folder("westeros-deploy-")
    https, http, *daphnes = free_ports(4)
    static_root = folder / "staticfiles"
    env = {k: v for k, v in os.environ.items() if k not in SETTING_NAMES}
    env.update(DEBUG="false", SECRET_KEY=f"deploy-test-{uuid.uuid4().hex}-{uuid.uuid4().hex}",
               ALLOWED_HOSTS="127.0.0.1,localhost", SITE_URL=f"https://127.0.0.1:{https}",
               DATABASE_URL=_database_url(), STATIC_ROOT=str(static_root), **redis,
               DB_POOL_SIZE="4", EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
               PYTHONUNBUFFERED="1", LOG_LEVEL="INFO")
    # What deploy/deploy.sh does before (re)starting: collect the static files (the database is
    # pytest's, already migrated).
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"], cwd=ROOT, env=env,
                   check=True, timeout=300)
    self_signed_certificate(folder)
    (folder / "westeros.conf").write_text(render_nginx_site(folder, http=http, https=https, daphnes=daphnes,
                                                            static_root=static_root))
    (folder / "nginx.conf").write_text(nginx_main_config(folder))
    nginx = nginx_command(folder)

    commands = {"nginx": nginx}
    for n, port in enumerate(daphnes, start=1):
        # The unit's command line, with an access log of its own for the test.
        command = as_local(exec_start("westeros-daphne@.service"), {"%i": str(port)})
        commands[f"daphne-{n}"] = [*command[:-1], "--access-log", str(folder / f"daphne-{n}.access.log"), command[-1]]
    for n in range(1, workers + 1):
        # Two workers on one machine here: a node name each (on two machines their host names differ).
        commands[f"worker-{n}" if workers > 1 else "worker"] = [
            *as_local(exec_start("westeros-worker.service"), {}), *(["-n", f"worker-{n}@%h"] if workers > 1 else [])]
    commands["beat"] = as_local(exec_start("westeros-beat.service"), {"/var/lib/westeros": str(folder)})
    processes: dict[str, subprocess.Popen] = {}
    context = ssl.create_default_context(cafile=str(folder / "cert.pem"))
    site = Site(folder, https, http, daphnes, context, processes)
    try:
        for name, command in commands.items():
            with (folder / f"{name}.log").open("w") as log:
                processes[name] = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                                   start_new_session=True)
        ready = [f"http://127.0.0.1:{port}/static/" for port in daphnes]
        assert wait_for(lambda: all(answers(url) for url in ready) and answers(site.url + "/static/", context)
                        and all(p.poll() is None for p in processes.values()), timeout=90), site.logs()
        yield site
    finally:
        for process in processes.values():
            stop(process)
        print(site.logs())
        shutil.rmtree(folder, ignore_errors=True)


def assert_running(site: Site) -> None:
    dead = {name: p.returncode for name, p in site.processes.items() if p.poll() is not None}
    assert not dead, f"{dead}\n{site.logs()}"


async def open_socket(site: Site, game_id: int, key: str):
    socket = await websockets.connect(f"wss://127.0.0.1:{site.https}/ws/games/{game_id}/?token={key}",
                                      ssl=site.context, origin=f"https://127.0.0.1:{site.https}", open_timeout=20)
    hello = json.loads(await asyncio.wait_for(socket.recv(), 10))
    assert hello["type"] == "hello", hello
    return socket, site.daphne_named(socket.response.headers[UPSTREAM_HEADER])


async def next_update(socket, timeout: float) -> dict:
    stop_at = time.monotonic() + timeout
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), max(0.1, stop_at - time.monotonic())))
        if message["type"] == "update":
            return message


async def one_socket_on_each_daphne(site: Site, game_id: int, key: str) -> dict:
    """Sockets through nginx until each Daphne holds one (nginx takes turns; extra ones are closed)."""
    sockets: dict[str, object] = {}
    for _ in range(8):
        socket, daphne = await open_socket(site, game_id, key)
        if daphne in sockets:
            await socket.close()
        else:
            sockets[daphne] = socket
        if len(sockets) == 2:
            return sockets
    raise AssertionError(f"nginx sent every socket to {list(sockets)}")


@needs_postgres
@needs_nginx
@pytest.mark.django_db(transaction=True)
def test_the_deploy_recipe_serves_the_site_through_nginx(settings):
    from games.engine import get_ruleset

    with private_redis() as redis, site_on_broker(settings, redis.url, "celery"), deployed_site({"REDIS_URL": redis.url}) as site:
        # 1. Static files: nginx serves them from STATIC_ROOT (its own Cache-Control; no upstream).
        status, _, page = site.request("/")
        assert status == 200, site.logs()
        css = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page.decode()).group(1)
        status, headers, body = site.request(css, **{"Accept-Encoding": "gzip"})
        assert status == 200 and body, (css, status)
        assert headers["cache-control"] == "public, max-age=31536000, immutable", headers
        assert headers.get("content-encoding") == "gzip"  # collectstatic's .gz copy, sent as it is
        assert UPSTREAM_HEADER.lower() not in headers
        status, _, docs = site.request("/api/docs/")
        assert status == 200
        for url in re.findall(r'(?:src|href)="(/static/[^"]+)"', docs.decode()):
            status, headers, _ = site.request(url)
            assert status == 200 and UPSTREAM_HEADER.lower() not in headers, url
        # Plain HTTP is sent to HTTPS; pages through the proxy count as secure (X-Forwarded-Proto).
        status, headers, _ = site.request("/", base=f"http://127.0.0.1:{site.http}")
        assert status == 301 and headers["location"].startswith("https://127.0.0.1"), headers

        # 2. A socket through nginx on each Daphne; an action POSTed through nginx lands on one of them
        # and the socket on the other Daphne receives it (through the Redis channel layer).
        game = make_game(time_limit=3600)
        stark = game.seats.get(seat="stark").user
        _, key = make_token(stark)
        action = get_ruleset("agot").default_action(game.state, "stark")

        async def action_across_daphnes():
            sockets = await one_socket_on_each_daphne(site, game.pk, key)
            status, headers, body = await asyncio.to_thread(
                site.request, f"/api/v1/games/{game.pk}/actions", method="POST", token=key,
                body={"version": 0, "action": action})
            assert status == 200, body
            served_by = site.daphne_named(headers[UPSTREAM_HEADER.lower()])
            other = next(name for name in sockets if name != served_by)
            update = await next_update(sockets[other], timeout=15)
            for socket in sockets.values():
                await socket.close()
            return served_by, other, update

        served_by, other, update = asyncio.run(action_across_daphnes())
        assert (update["from_version"], update["version"]) == (0, 1), update
        # The Daphnes' own access logs agree: the POST on one, the socket that saw it on the other.
        assert wait_for(lambda: f"POST /api/v1/games/{game.pk}/actions" in site.access_log(served_by), timeout=10)
        assert f"POST /api/v1/games/{game.pk}/actions" not in site.access_log(other)
        assert f"WSCONNECT /ws/games/{game.pk}/" in site.access_log(other)

        # 3. A deadline: a 2 s time limit; beat's sweep, run by the worker, applies the defaults and the
        # socket through nginx sees the timeouts.
        timed = make_game(time_limit=2)
        _, timed_key = make_token(timed.seats.get(seat="stark").user)

        async def timeouts_seen():
            socket, _ = await open_socket(site, timed.pk, timed_key)
            # a ceiling, not a measure: the update comes once beat's sweep has run (a loaded machine is slow)
            update = await next_update(socket, timeout=90)
            await socket.close()
            return update

        update = asyncio.run(timeouts_seen())
        assert update["version"] >= 3, update
        status, _, body = site.request(f"/api/v1/games/{timed.pk}/log", token=timed_key)
        assert status == 200
        assert [entry["source"] for entry in json.loads(body)["entries"][:3]] == ["timeout"] * 3
        # nginx logs requests without their query string: no API token in its access log.
        log = (site.folder / "access.log").read_text()
        assert f"GET /ws/games/{game.pk}/ HTTP/1.1\" 101" in log and key not in log and timed_key not in log
        assert_running(site)


@contextmanager
def site_on_sentinel_broker(settings, redis: dict[str, str]) -> Iterator[None]:
    """This test process (which creates the games) publishes its tasks as the site's processes do,
    through the sentinels (tests/celery_worker.py's site_on_broker, for Sentinel)."""
    from westeros.celery import app
    from westeros.redis_config import celery_broker, redis_settings

    broker = celery_broker(redis_settings(redis))
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.DEADLINE_QUEUE = settings.NOTIFY_QUEUE = "celery"
    names = ("broker_url", "broker_transport", "broker_transport_options", "task_always_eager")
    saved = {name: app.conf[name] for name in names}
    app.conf.update(broker_url=broker["url"], broker_transport=broker["transport"],
                    broker_transport_options=broker["transport_options"], task_always_eager=False)
    app._pool, app.amqp._producer_pool = None, None  # the next publish connects to the new broker
    try:
        yield
    finally:
        app.conf.update(saved)
        app._pool, app.amqp._producer_pool = None, None


async def sockets_until_both_answer(site: Site, game_id: int, key: str, timeout: float) -> dict:
    """A socket on each Daphne, trying again while new handshakes fail (while a Daphne's channel
    layer has not yet reached the new primary, its handshakes are closed with 4503)."""
    stop_at = time.monotonic() + timeout
    while True:
        try:
            return await one_socket_on_each_daphne(site, game_id, key)
        except (TimeoutError, OSError, websockets.exceptions.WebSocketException, AssertionError, KeyError):
            if time.monotonic() > stop_at:
                raise
            await asyncio.sleep(0.2)


WORKER_RESOLVED = re.compile(r"games\.tasks\.sweep_deadlines\[[^]]+\] succeeded in [0-9.]+s: [1-9]")


def worker_logs(site: Site) -> dict[str, str]:
    return {path.name: path.read_text(errors="replace") for path in site.folder.glob("worker-*.log")}


def workers_resolved_since(site: Site, before: dict[str, str]) -> bool:
    """A worker's log says a deadline sweep resolved a game since `before` (worker_logs)."""
    return any(WORKER_RESOLVED.search(text[len(before.get(name, "")):]) for name, text in worker_logs(site).items())


async def what_came(ws, timeout: float) -> str:
    """"update" when the ws's next update came, or how it was closed ("closed 4503")."""
    try:
        await next_update(ws, timeout=timeout)
        return "update"
    except websockets.exceptions.ConnectionClosed as closed:
        return f"closed {closed.rcvd.code if closed.rcvd else 'without a code'}"
    except TimeoutError:
        return "nothing"


@needs_postgres
@needs_nginx
@pytest.mark.django_db(transaction=True)
def test_the_two_node_recipe_follows_sentinel_when_the_redis_primary_dies(settings):
    """deploy/README.md's "Two machines" on loopback: deploy/redis/'s Redis primary, its replica and
    three sentinels; nginx in front of two Daphne nodes, two Celery workers and beat, every one
    configured through REDIS_SENTINELS as deploy/westeros.env.example says. An action POSTed through
    nginx reaches a ws on the other Daphne and a 2 s deadline is resolved by the workers; then the
    Redis primary is SIGKILLed. Once the sentinels have promoted the replica: new websocket handshakes
    work on both Daphne nodes, an action reaches the other node's ws, log-in works (its throttle
    counts in the cache, and refuses with 503 without it), a new deadline is resolved, and no process
    of the site exited. Nothing is restarted. Sockets that were open when the primary died were closed
    with 4503 (the page reconnects and re-fetches) or go on receiving."""
    from django.conf import global_settings

    from games.engine import get_ruleset
    from tests.factories import DEFAULT_PASSWORD, make_user

    def new_game() -> tuple[object, str, dict]:
        game = make_game(time_limit=3600)
        _, key = make_token(game.seats.get(seat="stark").user)
        return game, key, get_ruleset("agot").default_action(game.state, "stark")

    async def post_action(game, key: str, action: dict) -> str:
        """The action through nginx; the name of the Daphne that applied it."""
        status, headers, body = await asyncio.to_thread(
            site.request, f"/api/v1/games/{game.pk}/actions", method="POST", token=key,
            body={"version": 0, "action": action})
        assert status == 200, body
        return site.daphne_named(headers[UPSTREAM_HEADER.lower()])

    async def action_reaches_the_other_daphne(handshake_timeout: float) -> None:
        game, key, action = await asyncio.to_thread(new_game)
        sockets = await sockets_until_both_answer(site, game.pk, key, handshake_timeout)
        served_by = await post_action(game, key, action)
        other = next(name for name in sockets if name != served_by)
        update = await next_update(sockets[other], timeout=30)
        assert (update["from_version"], update["version"]) == (0, 1), update
        for ws in sockets.values():
            await ws.close()

    async def deadline_resolved() -> float:
        """A game with a 2 s time limit; the seconds from its creation to the timeouts on its socket."""
        created = time.monotonic()
        timed = await asyncio.to_thread(make_game, time_limit=2)
        _, timed_key = await asyncio.to_thread(make_token, await asyncio.to_thread(
            lambda: timed.seats.get(seat="stark").user))
        ws, _ = await open_socket(site, timed.pk, timed_key)
        update = await next_update(ws, timeout=90)  # a ceiling: once beat's sweep has run
        await ws.close()
        assert update["version"] >= 3, update
        status, _, body = await asyncio.to_thread(site.request, f"/api/v1/games/{timed.pk}/log", token=timed_key)
        assert status == 200 and [e["source"] for e in json.loads(body)["entries"][:3]] == ["timeout"] * 3
        return time.monotonic() - created

    async def play() -> dict:
        await action_reaches_the_other_daphne(handshake_timeout=30)
        logs = worker_logs(site)
        times = {"a 2 s deadline resolved before": await deadline_resolved()}
        # by the workers (not by a Daphne's fallback sweep, if the site has one)
        assert await asyncio.to_thread(wait_for, lambda: workers_resolved_since(site, logs), 30), site.logs()
        assert redis.primary_seen_by_sentinels() == {("127.0.0.1", redis.primary)}
        held_game, held_key, held_action = await asyncio.to_thread(new_game)
        held = await one_socket_on_each_daphne(site, held_game.pk, held_key)

        # The Redis primary dies; the sentinels agree (2 of 3), promote the replica, and every
        # process finds it by asking them.
        logs = worker_logs(site)
        redis.kill_primary()
        killed = time.monotonic()
        assert await asyncio.to_thread(wait_for, redis.promoted, 60), redis.logs()
        times["promoted"] = time.monotonic() - killed

        await action_reaches_the_other_daphne(handshake_timeout=60)
        times["handshakes and an action across"] = time.monotonic() - killed
        settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS  # the site's, not the suite's fast one
        user = await asyncio.to_thread(make_user)
        status, _, body = await asyncio.to_thread(
            site.request, "/api/v1/auth/token", method="POST",
            body={"username": user.username, "password": DEFAULT_PASSWORD, "name": "cli"})
        assert status == 201, body
        times["a 2 s deadline resolved after"] = await deadline_resolved()
        # and the workers resolve deadlines again, on the new primary
        assert await asyncio.to_thread(wait_for, lambda: workers_resolved_since(site, logs), 30), site.logs()

        # The sockets open when the primary died: closed for the page to reconnect, or still live.
        await post_action(held_game, held_key, held_action)
        outcomes = {name: await what_came(ws, timeout=30) for name, ws in held.items()}
        for ws in held.values():
            await ws.close()
        print("seconds (after the Redis primary was killed, or for a deadline):",
              {k: round(v, 1) for k, v in times.items()},
              "; sockets open at the time:", outcomes)
        assert set(outcomes.values()) <= {"update", "closed 4503"}, outcomes
        return outcomes

    with sentinel_redis() as redis, site_on_sentinel_broker(settings, redis.env), \
            deployed_site(redis.env, workers=2) as site:
        asyncio.run(play())
        assert_running(site)


def test_nginx_takes_the_bodies_the_server_takes():
    """client_max_body_size is REQUEST_BODY_MAX_SIZE's default (the limit of westeros/asgi_server.py)."""
    from django.conf import settings

    site = (DEPLOY / "nginx-westeros.conf").read_text()
    [size] = re.findall(r"^\s*client_max_body_size (\d+)k;", site, re.M)
    assert int(size) * 1024 == settings.REQUEST_BODY_MAX_SIZE
    for limit in re.findall(r"at most (\d+) bytes", site):  # nginx's 413 says what Django's says
        assert int(limit) == settings.DATA_UPLOAD_MAX_MEMORY_SIZE


@needs_nginx
@pytest.mark.slow_once  # nginx and a Daphne on a SQLite file of their own: the same on both CI passes
def test_nginx_refuses_a_body_over_the_limit_before_it_reaches_a_daphne():
    """The shipped nginx in front of the Daphne unit's command: a body over the limit, announced or
    chunked, is answered 413 by nginx (no upstream), in the API's error shape under /api/; a body at
    the limit reaches the Daphne, whose Django answers (its own limit is 1 MiB)."""
    from django.conf import settings

    from tests.live_server import running_server
    from tests.test_body_limits import chunks_past, read_answer, request_head

    folder = nginx_folder("westeros-nginx-limits-")
    https = free_port()
    self_signed_certificate(folder)
    context = ssl.create_default_context(cafile=str(folder / "cert.pem"))
    command = as_local(exec_start("westeros-daphne@.service"), {"%i": "{port}"})
    nginx = None
    try:
        with running_server(command) as daphne:
            (folder / "westeros.conf").write_text(render_nginx_site(
                folder, http=free_port(), https=https, daphnes=[daphne.port, daphne.port],
                static_root=folder / "staticfiles"))
            (folder / "nginx.conf").write_text(nginx_main_config(folder))
            with (folder / "nginx.log").open("w") as log:
                nginx = subprocess.Popen(nginx_command(folder), stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
            assert wait_for(lambda: answers(f"https://127.0.0.1:{https}/", context) or nginx.poll() is not None,
                            timeout=60)

            def exchange(head: bytes, body: bytes = b"") -> tuple[int, dict, bytes]:
                with socket.create_connection(("127.0.0.1", https), timeout=60) as raw, \
                        context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                    tls.sendall(head + body)
                    return read_answer(tls)

            upstream = UPSTREAM_HEADER.lower()
            big = 16 * 2**20
            for path, content_type in (("/api/v1/auth/token", "application/json"),
                                       ("/lobbies/new", "text/plain; charset=utf-8")):
                status, headers, body = exchange(request_head("POST", path, Content_Length=big))
                assert (status, headers["content-type"], headers.get(upstream)) == (413, content_type, None), body
                assert b"at most 1048576 bytes" in body
            assert json.loads(exchange(request_head("POST", "/api/v1/auth/token", Content_Length=big))[2]) == {
                "error": "too_large", "detail": "The request body is too large (at most 1048576 bytes).", "fields": {}}
            # Chunked: answered once past the limit (the body's end is never sent).
            status, headers, _ = exchange(request_head("POST", "/api/v1/auth/token", Transfer_Encoding="chunked"),
                                          chunks_past(settings.REQUEST_BODY_MAX_SIZE))
            assert status == 413 and upstream not in headers
            # One byte over the limit: nginx; at the limit: through to Daphne, where Django refuses it.
            limit = settings.REQUEST_BODY_MAX_SIZE
            head = request_head("POST", "/api/v1/auth/token", Content_Type="application/json", Content_Length=limit + 1)
            status, headers, _ = exchange(head)
            assert status == 413 and upstream not in headers
            head = request_head("POST", "/api/v1/auth/token", Content_Type="application/json", Content_Length=limit)
            status, headers, body = exchange(head, b" " * limit)
            assert status == 413 and headers[upstream] == f"127.0.0.1:{daphne.port}", (headers, body)
            assert json.loads(body)["error"] == "too_large"
            assert "client intended to send too large" in (folder / "error.log").read_text()
    finally:
        if nginx is not None:
            stop(nginx)
        shutil.rmtree(folder, ignore_errors=True)


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_backup_by_deploy_backup_sh_restores_into_a_fresh_database(tmp_path):
    """deploy/backup.sh (run daily by westeros-backup.timer) writes a pg_dump that pg_restore reads
    back, as the README's restore step does."""
    if shutil.which("pg_dump") is None and not IN_CI:
        pytest.skip("pg_dump is not installed (Debian's postgresql-client)")
    game = make_game()
    env = {**os.environ, "DATABASE_URL": _database_url(), "BACKUP_DIR": str(tmp_path), "KEEP_DAYS": "14"}
    done = subprocess.run([str(DEPLOY / "backup.sh")], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    dump = Path(done.stdout.strip())
    assert dump.parent == tmp_path and re.fullmatch(r"westeros-\d{8}T\d{6}Z\.dump", dump.name)
    assert list(tmp_path.iterdir()) == [dump]  # no .partial left behind

    url = _database_url()
    scratch = f"restore_{uuid.uuid4().hex[:12]}"
    base, _, _ = url.rpartition("/")
    psql = ["psql", f"{base}/postgres", "-v", "ON_ERROR_STOP=1", "-tAc"]
    subprocess.run([*psql, f'CREATE DATABASE "{scratch}"'], check=True, capture_output=True, timeout=60)
    try:
        restored = subprocess.run(["pg_restore", "--no-owner", "-d", f"{base}/{scratch}", str(dump)],
                                  capture_output=True, text=True, timeout=120)
        assert restored.returncode == 0, restored.stderr
        count = subprocess.run(["psql", f"{base}/{scratch}", "-tAc", f"SELECT count(*) FROM games_game WHERE id = {game.pk}"],
                               capture_output=True, text=True, check=True, timeout=60)
        assert count.stdout.strip() == "1"
    finally:
        subprocess.run([*psql, f'DROP DATABASE IF EXISTS "{scratch}"'], capture_output=True, timeout=60)


# --------------------------------------------------------------------------- deploy/deploy.sh, run as documented

SERVICE_USER = "nobody"  # stands for `westeros`: a user other than root, present on every Debian
needs_postgres_server = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="deploy.sh migrates a PostgreSQL database of its own, on the server of DATABASE_URL",
)
needs_root = pytest.mark.skipif(
    os.geteuid() != 0 and not IN_CI,
    reason="deploy.sh runs as root and switches to the service user with runuser (under CI=true this fails instead)",
)


def readme_block(heading: str) -> str:
    """The sh block under a heading of deploy/README.md."""
    text = (DEPLOY / "README.md").read_text()
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def as_service_user(*command: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(["runuser", "-u", SERVICE_USER, "--", *command], capture_output=True, text=True, **kwargs)


def fake_systemctl(folder: Path) -> Path:
    """A systemctl that only writes down what it was asked (no systemd here: the units' commands are
    run by the nginx test above)."""
    (folder / "bin").mkdir()
    fake = folder / "bin" / "systemctl"
    fake.write_text(f'#!/bin/sh\necho "$*" >> {folder / "systemctl.calls"}\n')
    fake.chmod(0o755)
    return folder / "systemctl.calls"


def settings_file(path: Path, database_url: str, redis_url: str) -> None:
    """deploy/westeros.env.example with a secret key and the test's database and Redis; every other
    value as shipped (host westeros.example, SMTP, HSTS preload), so `check --deploy` judges them.
    Owned by root and readable by the service user's group, as the README installs it."""
    text = (DEPLOY / "westeros.env.example").read_text()
    for name, value in {"SECRET_KEY": f"deploy-test-{uuid.uuid4().hex}-{uuid.uuid4().hex}",
                        "DATABASE_URL": database_url, "REDIS_URL": redis_url}.items():
        text, count = re.subn(rf"^{name}=.*$", f"{name}='{value}'", text, flags=re.M)
        assert count == 1, name
    path.write_text(text)
    os.chown(path, 0, pwd.getpwnam(SERVICE_USER).pw_gid)
    path.chmod(0o640)


@contextmanager
def own_database() -> Iterator[str]:
    """A database of the test's own on the server of DATABASE_URL (never the suite's), dropped after."""
    base = os.environ["DATABASE_URL"].rpartition("/")[0]
    name = f"westeros_deploytest_{uuid.uuid4().hex[:12]}"
    psql = ["psql", f"{base}/postgres", "-v", "ON_ERROR_STOP=1", "-tAc"]
    subprocess.run([*psql, f'CREATE DATABASE "{name}"'], check=True, capture_output=True, timeout=60)
    try:
        yield f"{base}/{name}"
    finally:
        subprocess.run([*psql, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'], capture_output=True, timeout=60)


def checkout_owned_by_the_service_user(folder: Path) -> tuple[Path, str]:
    """/srv/westeros as the README makes it: a clone owned by the service user, with .venv/ made by
    deploy.sh's own command. Its origin is a copy of this repository, which then gets one commit more
    (this checkout's deploy/ folder), so the deploy has something to pull. Returns the checkout and the
    commit to be pulled.

    The virtual environment sees the packages of this checkout's .venv (a .pth file), so that pip
    installs only the project itself (and fetches only its build backend) instead of every dependency."""
    origin, app, work = folder / "origin.git", folder / "srv-westeros", folder / "work"
    git = ["git", "-c", "user.name=Deploy test", "-c", "user.email=deploy@westeros.example"]
    subprocess.run([*git, "clone", "--quiet", "--bare", str(ROOT), str(origin)], check=True, timeout=120)
    subprocess.run([*git, "clone", "--quiet", str(origin), str(app)], check=True, timeout=120)
    subprocess.run([*git, "clone", "--quiet", str(origin), str(work)], check=True, timeout=120)
    # The release: this checkout's committed code with its deploy/ folder as it is now (the files under test).
    shutil.copytree(DEPLOY, work / "deploy", dirs_exist_ok=True)
    subprocess.run([*git, "-C", str(work), "add", "deploy"], check=True, timeout=60)
    subprocess.run([*git, "-C", str(work), "commit", "--quiet", "--allow-empty", "-m", "The release to deploy"],
                   check=True, timeout=60)
    subprocess.run([*git, "-C", str(work), "push", "--quiet", "origin", "HEAD"], check=True, timeout=60)
    pulled = subprocess.run(["git", "-C", str(work), "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    user = pwd.getpwnam(SERVICE_USER)
    subprocess.run(["chown", "-R", f"{user.pw_uid}:{user.pw_gid}", str(origin), str(app)], check=True)
    made = as_service_user("python3", "-m", "venv", str(app / ".venv"), timeout=120)
    assert made.returncode == 0, made.stderr
    version = as_service_user(str(app / ".venv" / "bin" / "python"), "-c",
                              "import sys, sysconfig; print(sys.version_info[:2], sysconfig.get_paths()['purelib'])",
                              timeout=60)
    assert version.stdout.startswith(str(sys.version_info[:2])), f"the service user's python3 is {version.stdout}"
    packages = Path(version.stdout.split(") ", 1)[1].strip()) / "westeros-test-packages.pth"
    packages.write_text(sysconfig.get_paths()["purelib"] + "\n")
    os.chown(packages, user.pw_uid, user.pw_gid)
    return app, pulled


@needs_postgres_server
@needs_root
def test_every_deploy_as_documented_pulls_installs_migrates_collects_and_restarts():
    """deploy/README.md's "Every deploy" block, run as written (as root) on a checkout owned by the
    service user: the service user pulls, deploy.sh checks the settings (deploy/westeros.env.example's),
    installs, migrates a database of the test's own, collects the static files and restarts
    westeros.target (a systemctl that writes down its calls). Then the Daphne unit's command, on a
    port of its own, serves the deployed checkout. pip needs an index (the build backend)."""
    folder = Path(tempfile.mkdtemp(prefix="westeros-deploy-sh-"))
    folder.chmod(0o755)
    daphne = None
    try:
        app, pulled = checkout_owned_by_the_service_user(folder)
        # What the README used to say: git pull as root in the service user's checkout fails.
        as_root = subprocess.run(["git", "-C", str(app), "pull"], capture_output=True, text=True, timeout=60,
                                 env={**os.environ, "HOME": str(folder), "GIT_CONFIG_NOSYSTEM": "1"})
        assert as_root.returncode != 0 and "dubious ownership" in as_root.stderr, as_root.stderr

        calls = fake_systemctl(folder)
        block = readme_block("Every deploy")
        script = block.replace("/srv/westeros", str(app)).replace("runuser -u westeros ", f"runuser -u {SERVICE_USER} ")
        assert "/srv/westeros" not in script and "deploy.sh" in script, block
        with private_redis() as redis, own_database() as database:
            settings_file(folder / "env", database, redis.url)
            # The settings are the file's alone, as in production (none of the test run's, such as
            # SECURE_SSL_REDIRECT=false).
            env = {name: value for name, value in os.environ.items() if name not in SETTING_NAMES}
            env.update(PATH=f"{folder / 'bin'}:{os.environ['PATH']}", ENV_FILE=str(folder / "env"), RUN_AS=SERVICE_USER)
            done = subprocess.run(["sh", "-c", script], cwd="/", env=env, capture_output=True, text=True, timeout=900)
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]

            # Pulled by the service user; every file in the checkout is still the service user's.
            head = subprocess.run(["git", "-C", str(app), "rev-parse", "HEAD"], capture_output=True, text=True,
                                  env={**os.environ, "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory",
                                       "GIT_CONFIG_VALUE_0": str(app)})
            assert head.stdout.strip() == pulled, head.stderr
            uid = pwd.getpwnam(SERVICE_USER).pw_uid
            roots = [str(path) for path in [app, *app.rglob("*")] if path.lstat().st_uid != uid]
            assert roots == [], f"deploy left files the service user does not own: {roots[:10]}"
            # Checked, migrated, collected, then restarted (after the migration).
            assert "System check identified no issues" in done.stdout + done.stderr
            assert calls.read_text().splitlines()[:2] == ["daemon-reload", "restart westeros.target"]
            assert (app / "staticfiles" / "staticfiles.json").exists()
            assert (app / "locale" / "es" / "LC_MESSAGES" / "django.mo").exists()  # the Spanish pages (issue 29)
            migrated = as_service_user("sh", "-c", 'set -a; . "$0"; set +a; cd "$1"; .venv/bin/python manage.py '
                                       "migrate --check", str(folder / "env"), str(app), env=env, timeout=300)
            assert migrated.returncode == 0, migrated.stdout + migrated.stderr

            # The Daphne unit's command (as its User=, with its EnvironmentFile=) serves the deploy.
            port = free_port()
            command = as_local(exec_start("westeros-daphne@.service"), {"%i": str(port)},
                               python=str(app / ".venv" / "bin" / "python"))
            with (folder / "daphne.log").open("w") as log:
                daphne = subprocess.Popen(["runuser", "-u", SERVICE_USER, "--", "sh", "-c",
                                           'set -a; . "$0"; set +a; cd "$1"; shift; exec "$@"',
                                           str(folder / "env"), str(app), *command],
                                          env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            proxied = {"Host": "westeros.example", "X-Forwarded-Proto": "https"}  # as nginx sends them
            url = f"http://127.0.0.1:{port}"
            assert wait_for(lambda: answers(url + "/static/") or daphne.poll() is not None, timeout=90)
            assert daphne.poll() is None, (folder / "daphne.log").read_text()
            status, page = fetch(url + "/", proxied)
            assert status == 200, (folder / "daphne.log").read_text()[-3000:]
            css = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page.decode()).group(1)
            assert fetch(url + css, proxied)[0] == 200
    finally:
        if daphne is not None:
            stop(daphne)
        shutil.rmtree(folder, ignore_errors=True)


def fetch(url: str, headers: dict[str, str]) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers=headers)
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_the_backup_timer_is_started_when_it_is_enabled():
    """An enabled timer that is not started runs first after a reboot: the README enables it --now."""
    text = (DEPLOY / "README.md").read_text()
    timers = [line for line in text.splitlines() if "systemctl enable" in line and ".timer" in line]
    assert timers, "deploy/README.md no longer enables westeros-backup.timer"
    for line in timers:
        command = next(part for part in line.split("&&") if ".timer" in part)
        assert "--now" in command.split(), line


def test_the_deploy_scripts_and_units_are_well_formed(tmp_path):
    """`sh -n` for the scripts; `systemd-analyze verify` for the units where systemd's tools exist
    (with the checkout's programs standing in for /srv/westeros/.venv/bin/...)."""
    for script in ("deploy.sh", "backup.sh"):
        assert os.access(DEPLOY / script, os.X_OK), script
        subprocess.run(["sh", "-n", str(DEPLOY / script)], check=True)
    units = sorted((DEPLOY / "systemd").iterdir())
    assert {unit.name for unit in units} >= {"westeros-daphne@.service", "westeros-worker.service",
                                             "westeros-beat.service", "westeros.target", "westeros-backup.service",
                                             "westeros-backup.timer"}
    for unit in units:
        if unit.suffix == ".service":
            assert re.search(r"^Restart=always$", unit.read_text(), re.M) or "oneshot" in unit.read_text(), unit.name
    daphne = exec_start("westeros-daphne@.service")
    assert "backlog=2048" in " ".join(daphne)
    # the site's Daphne, with its body limits (tests/test_body_limits.py), not .venv/bin/daphne
    assert daphne[:3] == ["/srv/westeros/.venv/bin/python", "-m", "westeros.asgi_server"], daphne
    if shutil.which("systemd-analyze") is None:
        return
    (tmp_path / "env").write_text("")
    for unit in units:
        text = unit.read_text().replace("/etc/westeros/env", str(tmp_path / "env"))
        text = re.sub(r"/srv/westeros/\S+", "/bin/true", text)
        name = unit.name.replace("@.service", "@8001.service")
        (tmp_path / name).write_text(text)
        if name != unit.name:
            (tmp_path / unit.name).write_text(text)
    checked = subprocess.run(["systemd-analyze", "verify", "--man=no",
                              *[str(tmp_path / u.name.replace("@.service", "@8001.service")) for u in units]],
                             capture_output=True, text=True, timeout=60, env={**os.environ, "SYSTEMD_LOG_LEVEL": "err"})
    assert checked.returncode == 0, checked.stdout + checked.stderr
