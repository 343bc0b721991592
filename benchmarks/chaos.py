"""Chaos benchmark (not a test): the production shape on loopback, one process killed at a time
while play goes on (issue 28, "Any one process can die").

    python benchmarks/chaos.py [--quick] [--faults daphne,worker,workers,beat,redis,postgres,overload]
                               [--games 50] [--sockets 200] [--rate 10] [--recovery 30]

What it builds, every piece on private loopback ports in a temporary folder (never the shared
PostgreSQL or Redis):
- PostgreSQL: a cluster of its own (initdb, pg_ctl; as the `postgres` user when run as root).
- Redis: a primary, a replica and three sentinels (`redis-server conf --sentinel`, quorum 2,
  down-after 2 s, failover-timeout 5 s). The site reaches Redis through the sentinels when
  westeros/settings.py reads REDIS_SENTINELS, else through REDIS_URL at the primary (the run says which).
- nginx with deploy/nginx-westeros.conf (ports, certificate and paths substituted) in front of two
  Daphne nodes, two Celery workers and beat, each started with the ExecStart line of its systemd
  unit in deploy/systemd/ (workers get a node name each, as two machines would have). A process
  that dies is started again after its unit's RestartSec, as systemd's Restart=always would; the
  sentinels after 1 s; the Redis servers as the redis fault below says.

The load (printed at the start): `--games` games in play, a mix of the four rulesets (AGoT, the card
game, B'Twixt, miniatures); one game in five is a deadline game (a short time limit, nobody acts:
every decision times out, so deadlines fall due throughout the run); the others are played by their
players' API tokens through nginx at `--rate` actions/s in all (round robin, each with an
Idempotency-Key; a request whose outcome is unknown, a connection error or a 502/503/504, is sent
again once with the same key after a second). `--sockets` websockets watch the games through nginx
(the seats' players and spectators), each behaving as the game page's script (static/js/gameclient.js):
on close it reconnects after a random wait of up to 1 s, then up to 2, 4... (full jitter, 30 s at
most); after a close with 4503 (a service is down, try again) after 0.5-1.5 s, five times in a row
at most, before the back-off grows. A probe opens a new websocket every half second through nginx and times its handshake (to the
hello message).

Phases: a baseline (no fault), then each fault in turn, each followed by `--recovery` seconds of
play that are measured with it:
  daphne    SIGKILL a Daphne node (its unit restarts it)
  worker    SIGKILL a Celery worker and its pool (restarted)
  workers   SIGKILL both Celery workers and their pools at once (restarted): deadlines go on through the
            web servers' fallback sweep (DEADLINE_FALLBACK_IN_SERVER) until a worker is back
  beat      SIGKILL beat (restarted)
  redis     SIGKILL the Redis primary (Sentinel promotes the replica; the old primary is started
            again once that happened, as a machine that was lost and comes back, and the sentinels
            make it a replica: restarted at once, before the sentinels' 2 s down-after, it would
            come back as the primary with its data and no failover would be measured)
  postgres  `pg_ctl restart -m fast`
  overload  first the rate one Daphne node sustains is measured (clients sending back to back to
            node 1 directly for a few seconds), then actions at twice that rate through nginx

For each phase, one row: actions acknowledged (2xx) and how many of them are lost (their
Idempotency-Key not in the game's log afterwards) or doubled (in it twice); 500s; other failures
(any other non-2xx but 409, and connection errors); 409s; deadlines that fell due in the phase and
the p99/max lateness of their resolution (the timeout's log entry; unresolved ones count as late);
sockets back at the database's version within 5 s (every game's version is read every 0.3 s; a socket
is stale when a version of its game was seen in the database in the phase and the socket had not
learnt that version, or a later one, 5 s later: from an update, a gap notice, a hello, a keep-alive or
any message carrying the version), with how long after the database the sockets knew each version; new websocket handshakes in the
phase (reconnections and probes), how many failed and the slowest. Goals (issue 28): 0 lost or
doubled, 0 x 500, every deadline within 5 s, 99% of sockets back within 5 s, every handshake answered
within 2 s: PASS or FAIL each. Nothing here raises on a slow machine: failures are counted and printed.
Every process started is stopped at the end, also on Ctrl-C or an error; the logs stay in the
folder printed at the start.
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from server_api import percentile  # noqa: E402  (the other server benchmarks' own)

from westeros.ports import free_port, free_ports  # noqa: E402

DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PG_BIN = next((str(Path(p).parent) for p in ["/usr/local/bin/pg_ctl", *sorted(Path("/usr/lib/postgresql").glob(
    "*/bin/pg_ctl"), reverse=True)] if Path(p).exists()), "")
MASTER = "westeros"
STALE_AFTER = 5.0  # seconds: a socket that has not learnt a committed version by then is stale
HANDSHAKE_GOAL = 2.0
DEADLINE_GOAL = 5.0
SOCKETS_GOAL = 0.99
FAULTS = ("daphne", "worker", "workers", "beat", "redis", "postgres", "overload")


def wait_for(condition, timeout: float, interval: float = 0.2) -> bool:
    stop_at = time.monotonic() + timeout
    while time.monotonic() < stop_at:
        try:
            if condition():
                return True
        except Exception:
            pass
        time.sleep(interval)
    return False


def exec_start(unit: str) -> list[str]:
    text = (DEPLOY / "systemd" / unit).read_text()
    return re.search(r"^ExecStart=(.+)$", text, re.M).group(1).split()


def restart_sec(unit: str) -> float:
    found = re.search(r"^RestartSec=(\d+(?:\.\d+)?)s?$", (DEPLOY / "systemd" / unit).read_text(), re.M)
    return float(found.group(1)) if found else 0.1  # systemd's default RestartSec is 100 ms


def as_local(command: list[str], replacements: dict[str, str]) -> list[str]:
    """A unit's command with this checkout's python instead of /srv/westeros/.venv/bin/..."""
    program = Path(command[0]).name
    args = list(command[1:])
    for old, new in replacements.items():
        args = [part.replace(old, new) for part in args]
    return [sys.executable, *args] if program == "python" else [sys.executable, "-m", program, *args]


def sentinel_settings_landed() -> bool:
    return "REDIS_SENTINELS" in (ROOT / "westeros" / "settings.py").read_text() or (
        (ROOT / "westeros" / "redis_config.py").exists()
        and "REDIS_SENTINELS" in (ROOT / "westeros" / "redis_config.py").read_text())


# ---------------------------------------------------------------------------------------------
# The processes


@dataclass
class Proc:
    name: str
    command: list[str]
    log: Path
    restart_after: float | None  # seconds, as the unit's RestartSec; None: not restarted
    env: dict[str, str] | None = None
    popen: subprocess.Popen | None = None
    starts: int = 0
    died_at: float | None = None


class Cluster:
    """Every process of the run: started, killed, restarted like systemd would, and stopped at the end."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.chmod(0o755)  # PostgreSQL (the postgres user when run as root) and nginx's worker read below it
        self.logs = folder / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self.procs: dict[str, Proc] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.restarts: list[tuple[float, str]] = []
        self.pg: dict | None = None
        self.supervisor = threading.Thread(target=self._supervise, daemon=True)
        self.supervisor.start()

    def add(self, name: str, command: list[str], env: dict[str, str] | None, restart_after: float | None,
            cwd: Path = ROOT) -> Proc:
        proc = Proc(name, command, self.logs / f"{name}.log", restart_after, env)
        self.procs[name] = proc
        self._start(proc)
        return proc

    def _start(self, proc: Proc) -> None:
        with proc.log.open("a") as log:
            log.write(f"\n=== start {proc.starts + 1} at {time.strftime('%H:%M:%S')}\n")
            log.flush()
            proc.popen = subprocess.Popen(proc.command, cwd=ROOT, env=proc.env, stdout=log, stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL, start_new_session=True)
        proc.starts += 1
        proc.died_at = None

    def kill(self, name: str) -> None:
        """SIGKILL the process and everything in its process group (a worker's pool), as a crash would."""
        proc = self.procs[name]
        with self.lock:
            if proc.popen is not None and proc.popen.poll() is None:
                try:
                    os.killpg(proc.popen.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.popen.wait(timeout=10)

    def _supervise(self) -> None:
        while not self.stopping.is_set():
            now = time.monotonic()
            with self.lock:
                for proc in self.procs.values():
                    if proc.restart_after is None or proc.popen is None or proc.popen.poll() is None:
                        continue
                    if proc.died_at is None:
                        proc.died_at = now
                    elif now - proc.died_at >= proc.restart_after and not self.stopping.is_set():
                        self._start(proc)
                        self.restarts.append((time.time(), proc.name))
            self.stopping.wait(0.05)

    def stop_all(self) -> None:
        self.stopping.set()
        with self.lock:
            procs = list(self.procs.values())
        for proc in procs:
            if proc.popen is not None and proc.popen.poll() is None:
                try:
                    os.killpg(proc.popen.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        stop_at = time.monotonic() + 10
        for proc in procs:
            if proc.popen is None:
                continue
            try:
                proc.popen.wait(timeout=max(0.1, stop_at - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            if proc.popen.poll() is None:
                try:
                    os.killpg(proc.popen.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                try:
                    proc.popen.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    print(f"  could not stop {proc.name} (pid {proc.popen.pid})")
        if self.pg is not None:
            self.pg_ctl("stop", "-m", "immediate", check=False)

    # PostgreSQL -------------------------------------------------------------------------------

    def pg_ctl(self, *args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess:
        command = [f"{PG_BIN}/pg_ctl", "-D", str(self.pg["data"]), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if check and result.returncode != 0:
            raise RuntimeError(f"pg_ctl {' '.join(args)} failed: {result.stdout}{result.stderr}")
        return result

    def start_postgres(self) -> int:
        if not PG_BIN:
            raise RuntimeError("no pg_ctl found (/usr/local/bin or /usr/lib/postgresql/*/bin)")
        port = free_port()
        home = self.folder / "pg"
        home.mkdir()
        data = home / "data"
        as_postgres = os.geteuid() == 0
        if as_postgres:
            shutil.chown(home, "postgres", "postgres")
        init = [f"{PG_BIN}/initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]
        if as_postgres:
            init = ["runuser", "-u", "postgres", "--", *init]
        result = subprocess.run(init, capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            raise RuntimeError(f"initdb failed: {result.stdout}{result.stderr}")
        self.pg = {"data": data, "port": port, "log": home / "postgres.log"}
        options = (f"-p {port} -k {home} -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off "
                   f"-c synchronous_commit=off -c full_page_writes=off -c shared_buffers=128MB")
        self.pg["options"] = options
        self.pg_ctl("-o", options, "-l", str(self.pg["log"]), "-w", "-t", "120", "start")
        return port

    def restart_postgres(self) -> None:
        self.pg_ctl("-o", self.pg["options"], "-l", str(self.pg["log"]), "-m", "fast", "-w", "-t", "120", "restart")


def redis_command(port: int, *args: str, password: str = "") -> object:
    """One command to a Redis server or sentinel (redis-py, which the site depends on)."""
    import redis

    return redis.Redis(host="127.0.0.1", port=port, socket_timeout=2, password=password or None,
                       decode_responses=True).execute_command(*args)


def redis_answers(port: int, password: str) -> bool:
    try:
        return bool(redis_command(port, "PING", password=password))
    except Exception:
        return False


def current_primary(redis: dict) -> int | None:
    for port in redis["sentinels"]:
        try:
            _host, primary = redis_command(port, "SENTINEL", "get-master-addr-by-name", MASTER,
                                           password=redis["sentinel_password"])
            return int(primary)
        except Exception:
            continue
    return None


def recipe_lines(name: str, replacements: list[tuple[str, str]]) -> str:
    """A file of deploy/redis/ without its comments, every `pattern` line replaced (re.M regexes)."""
    text = "\n".join(line for line in (DEPLOY / "redis" / name).read_text().splitlines()
                     if line.strip() and not line.lstrip().startswith("#"))
    for pattern, value in replacements:
        text = re.sub(pattern, value, text, flags=re.M)
    return text + "\n"


def start_redis(cluster: Cluster) -> dict:
    """A primary, a replica and three sentinels from deploy/redis/'s files (their addresses, ports,
    passwords and folders substituted; everything else as shipped)."""
    folder = cluster.folder / "redis"
    folder.mkdir()
    password, sentinel_password = uuid.uuid4().hex, uuid.uuid4().hex
    primary, replica, *sentinels = free_ports(5)
    ports = {}
    for name, port in (("redis-a", primary), ("redis-b", replica)):
        (folder / name).mkdir()
        server = [(r"^bind .*$", "bind 127.0.0.1"), (r"^port .*$", f"port {port}"),
                  (r"^requirepass .*$", f"requirepass {password}"), (r"^masterauth .*$", f"masterauth {password}")]
        conf = (f"dir {folder / name}\nsave \"\"\n" + recipe_lines("redis.conf", server)
                + (recipe_lines("replica.conf", [(r"^replicaof .*$", f"replicaof 127.0.0.1 {primary}")])
                   if name == "redis-b" else ""))
        (folder / f"{name}.conf").write_text(conf)
        # Redis servers are not restarted by the supervisor: the redis fault restarts the old primary
        # itself once Sentinel has promoted the replica (a machine lost, then back)
        cluster.add(name, ["redis-server", str(folder / f"{name}.conf")], None, restart_after=None)
        ports[name] = port
    if not wait_for(lambda: redis_answers(primary, password) and redis_answers(replica, password), 20):
        raise RuntimeError("the Redis primary or replica did not start")
    for n, port in enumerate(sentinels, start=1):
        (folder / f"sentinel-{n}").mkdir()
        conf = f"dir {folder / f'sentinel-{n}'}\n" + recipe_lines("sentinel.conf", [
            (r"^bind .*$", "bind 127.0.0.1"), (r"^port .*$", f"port {port}"),
            (r"^requirepass .*$", f"requirepass {sentinel_password}"),
            (r"^sentinel monitor (\S+) \S+ \d+ (\d+)$", rf"sentinel monitor \1 127.0.0.1 {primary} \2"),
            (r"^sentinel auth-pass (\S+) .*$", rf"sentinel auth-pass \1 {password}")])
        (folder / f"sentinel-{n}.conf").write_text(conf)
        cluster.add(f"sentinel-{n}", ["redis-server", str(folder / f"sentinel-{n}.conf"), "--sentinel"], None,
                    restart_after=1.0)
    redis = {"ports": ports, "sentinels": sentinels, "primary": primary, "password": password,
             "sentinel_password": sentinel_password}
    if not wait_for(lambda: current_primary(redis) == primary, 30):
        raise RuntimeError("the sentinels do not name the primary")
    return redis


def render_nginx(folder: Path, https: int, http_port: int, daphnes: list[int]) -> None:
    site = (DEPLOY / "nginx-westeros.conf").read_text()
    site = re.sub(r"listen \[::\]:\d+[^;]*;\n", "", site)
    site = site.replace("    listen 80;\n", f"    listen 127.0.0.1:{http_port};\n")
    site = site.replace("    listen 443 ssl;\n", f"    listen 127.0.0.1:{https} ssl;\n")
    # each node is listed twice (the upstream for pages and the API, and the one for websockets)
    site = re.sub(r"server 127\.0\.0\.1:800([12]) ", lambda m: f"server 127.0.0.1:{daphnes[int(m[1]) - 1]} ", site)
    site = site.replace("/etc/letsencrypt/live/westeros.example/fullchain.pem", str(folder / "cert.pem"))
    site = site.replace("/etc/letsencrypt/live/westeros.example/privkey.pem", str(folder / "key.pem"))
    site = site.replace("/srv/westeros/staticfiles/", str(folder / "static") + "/")
    site = site.replace("/var/www/html", str(folder / "www"))
    site = site.replace("/var/log/nginx/access.log", str(folder / "access.log"))
    (folder / "westeros.conf").write_text(site)
    temp = "\n".join(f"    {kind}_temp_path {folder / 'temp' / kind};" for kind in
                     ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (folder / "nginx.conf").write_text(f"""daemon off;
worker_processes 1;
pid {folder / 'nginx.pid'};
error_log {folder / 'error.log'} notice;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
{temp}
    include {folder / 'westeros.conf'};
}}
""")


def start_site(cluster: Cluster, args) -> dict:
    """PostgreSQL, Redis with Sentinel, the migrations, then two Daphne nodes, two workers, beat and nginx."""
    pg_port = cluster.start_postgres()
    redis = start_redis(cluster)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REDIS_", "DATABASE_URL", "DB_", "DEADLINE_"))}
    via_sentinel = sentinel_settings_landed()
    env.update(DEBUG="false", SECRET_KEY=f"chaos-{uuid.uuid4().hex}{uuid.uuid4().hex}",
               ALLOWED_HOSTS="127.0.0.1,localhost", SECURE_SSL_REDIRECT="false",
               DATABASE_URL=f"postgres://postgres@127.0.0.1:{pg_port}/westeros",
               STATIC_ROOT=str(cluster.folder / "nginx" / "static"), PYTHONUNBUFFERED="1", LOG_LEVEL="WARNING",
               EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend", DJANGO_SETTINGS_MODULE="westeros.settings")
    if via_sentinel:
        env.update(REDIS_SENTINELS=",".join(f"127.0.0.1:{p}" for p in redis["sentinels"]),
                   REDIS_SENTINEL_MASTER=MASTER, REDIS_DB="0", REDIS_PASSWORD=redis["password"],
                   REDIS_SENTINEL_PASSWORD=redis["sentinel_password"])
    else:
        env["REDIS_URL"] = f"redis://:{redis['password']}@127.0.0.1:{redis['primary']}/0"
    import psycopg

    with psycopg.connect(f"host=127.0.0.1 port={pg_port} user=postgres dbname=postgres", autocommit=True) as conn:
        conn.execute("CREATE DATABASE westeros")
    migrated = subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=600)
    if migrated.returncode != 0:
        raise RuntimeError(f"migrate failed: {migrated.stdout[-2000:]}{migrated.stderr[-3000:]}")

    nginx_dir = cluster.folder / "nginx"
    for sub in ("www", "static", *(f"temp/{k}" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))):
        (nginx_dir / sub).mkdir(parents=True, exist_ok=True)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(nginx_dir / "key.pem"), "-out", str(nginx_dir / "cert.pem"), "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    https, http_port, *daphnes = free_ports(4)
    render_nginx(nginx_dir, https, http_port, daphnes)

    daphne_unit = "westeros-daphne@.service"
    for n, port in enumerate(daphnes, start=1):
        cluster.add(f"daphne-{n}", as_local(exec_start(daphne_unit), {"%i": str(port)}), env, restart_sec(daphne_unit))
    worker = exec_start("westeros-worker.service")
    for n in (1, 2):  # two machines' workers have two host names: here a node name each
        cluster.add(f"worker-{n}", as_local(worker, {}) + ["-n", f"worker{n}@%h"], env,
                    restart_sec("westeros-worker.service"))
    cluster.add("beat", as_local(exec_start("westeros-beat.service"), {"/var/lib/westeros": str(cluster.folder)}),
                env, restart_sec("westeros-beat.service"))
    nginx = [NGINX, "-p", str(nginx_dir), "-c", str(nginx_dir / "nginx.conf"), "-e", str(nginx_dir / "error.log")]
    checked = subprocess.run([*nginx, "-t"], capture_output=True, text=True, timeout=30)
    if checked.returncode != 0:
        raise RuntimeError(f"nginx -t: {checked.stderr}")
    cluster.add("nginx", nginx, None, restart_after=None)
    context = ssl.create_default_context(cafile=str(nginx_dir / "cert.pem"))
    site = {"env": env, "https": https, "daphnes": daphnes, "context": context, "redis": redis, "pg_port": pg_port,
            "via_sentinel": via_sentinel}
    ready = wait_for(lambda: all(http_status("127.0.0.1", p, "/api/v1/me") in (200, 401, 403) for p in daphnes)
                     and http_status("127.0.0.1", https, "/api/v1/me", context) in (200, 401, 403), 180, 0.5)
    if not ready:
        raise RuntimeError("the site did not answer within 180 s (see the logs)")
    if not wait_for(lambda: workers_ready(cluster), 120, 0.5):
        print("  (the workers' logs do not say 'ready' yet after 120 s; going on)")
    return site


def workers_ready(cluster: Cluster) -> bool:
    return all("ready" in cluster.procs[f"worker-{n}"].log.read_text(errors="replace") for n in (1, 2))


def http_status(host: str, port: int, path: str, context: ssl.SSLContext | None = None) -> int:
    try:
        conn = (http.client.HTTPSConnection(host, port, context=context, timeout=3) if context
                else http.client.HTTPConnection(host, port, timeout=3))
        conn.request("GET", path, headers={"Host": "127.0.0.1"})
        status = conn.getresponse().status
        conn.close()
        return status
    except OSError:
        return 0


# ---------------------------------------------------------------------------------------------
# The load


@dataclass
class Table:
    game_id: int
    ruleset: str
    tokens: dict[str, str]  # seat -> the player's token
    spectators: list[str]  # spectators' tokens
    deadline_game: bool
    players: dict[str, int] = field(default_factory=dict)  # seat -> user id
    slot: int = 0  # its place in the list of tables
    replaced: int = 0  # games that ended and were replaced by a new one between the same players


RULESETS = (("agot", 3), ("lcg", 2), ("btwixt", 3), ("minis", 2))


def make_tables(games: int, sockets: int, deadline_limit: int) -> list[Table]:
    from django.contrib.auth.hashers import make_password

    from accounts.models import ApiToken, User
    from games.engine import get_ruleset
    from games.services.play import do_create_game

    password = make_password("chaos-pw-123")
    per_game = max(1, sockets // games)
    tables = []
    for n in range(games):
        ruleset, players = RULESETS[n % len(RULESETS)]
        deadline_game = n % 5 == 4
        seats = get_ruleset(ruleset).seat_names(players)
        watchers = max(0, per_game - players) + (1 if n < sockets - per_game * games else 0)
        users = User.objects.bulk_create(User(username=f"c{n}_{i}", email=f"c{n}_{i}@x.org", password=password)
                                         for i in range(players + watchers))
        game = do_create_game(ruleset=ruleset, seating=dict(zip(seats, users[:players], strict=True)), seed=n,
                              time_limit=deadline_limit if deadline_game else 3600,
                              max_consecutive_timeouts=0 if deadline_game else 3)
        tables.append(Table(game.pk, ruleset,
                            {s: ApiToken.issue(u, "chaos")[1] for s, u in zip(seats, users[:players], strict=True)},
                            [ApiToken.issue(u, "chaos")[1] for u in users[players:]], deadline_game,
                            {s: u.pk for s, u in zip(seats, users[:players], strict=True)}, n))
    return tables


class Http:
    """A keep-alive HTTPS connection to one address per thread."""

    def __init__(self, port: int, context: ssl.SSLContext | None):
        self.port, self.context = port, context
        self.local = threading.local()

    def post(self, path: str, token: str, body: dict, key: str) -> tuple[int, dict]:
        data = json.dumps(body).encode()
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json", "Idempotency-Key": key,
                   "Host": "127.0.0.1"}
        for _attempt in (0, 1):  # a kept-alive connection the server closed meanwhile: once more on a new one
            conn = getattr(self.local, "conn", None)
            if conn is None:
                conn = (http.client.HTTPSConnection("127.0.0.1", self.port, context=self.context, timeout=30)
                        if self.context else http.client.HTTPConnection("127.0.0.1", self.port, timeout=30))
                self.local.conn = conn
                fresh = True
            else:
                fresh = False
            try:
                conn.request("POST", path, body=data, headers=headers)
                response = conn.getresponse()
                raw = response.read()
                try:
                    parsed = json.loads(raw or b"{}")
                except ValueError:
                    parsed = {}
                parsed = parsed if isinstance(parsed, dict) else {}
                if _attempt:
                    parsed["_resent"] = True  # sent again on a new connection: the kept-alive one had closed
                return response.status, parsed
            except (OSError, http.client.HTTPException) as error:
                conn.close()
                self.local.conn = None
                if fresh or isinstance(error, TimeoutError):
                    return 0, {"error": f"{type(error).__name__}: {error}"}
        return 0, {"error": "no connection"}


@dataclass
class Record:
    t: float
    game: int
    key: str
    status: int
    version: int | None
    detail: str = ""


@dataclass
class Load:
    tables: list[Table]
    http: Http
    records: list[Record] = field(default_factory=list)
    client_errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def act_once(load: Load, table: Table, http_client: Http | None = None) -> None:
    """The pending seat's default action, read from the database as the other benchmarks do, sent
    with an Idempotency-Key; sent once more with the same key if its outcome is unknown."""
    from django.db import connection

    from games.engine import get_ruleset
    from games.models import Game

    client = http_client or load.http
    try:
        game = Game.objects.only("state", "version", "status").get(pk=table.game_id)
    except Exception as error:
        connection.close()
        with load.lock:
            load.client_errors.append(f"read game: {type(error).__name__}: {str(error)[:100]}")
        return
    engine = get_ruleset(table.ruleset)
    pending = sorted(engine.pending(game.state)) if game.is_active() else []
    if not pending:
        if not game.is_active():  # it ended: the same players start another (a paused game waits)
            replace_game(table)
        return
    seat = random.choice(pending)
    if seat not in table.tokens:
        return
    action = engine.default_action(game.state, seat)
    key = uuid.uuid4().hex
    body = {"version": game.version, "action": action}
    for attempt in (0, 1):
        sent = time.time()
        status, answer = client.post(f"/api/v1/games/{table.game_id}/actions", table.tokens[seat], body, key)
        version = answer.get("version") if isinstance(answer.get("version"), int) else None
        detail = str(answer.get("error") or answer.get("detail") or "")[:120] + (
            " (resent on a new connection)" if answer.get("_resent") else "") + (" (second try)" if attempt else "")
        with load.lock:
            load.records.append(Record(sent, table.game_id, key, status, version, detail))
        if status in (0, 502, 503, 504) and attempt == 0:
            time.sleep(1.0)
            continue
        return


def replace_game(table: Table) -> None:
    """The game ended: the same players start another of the same ruleset, and its sockets follow
    (Watchers reads table.game_id), so the load stays what it was."""
    from accounts.models import User
    from games.services.play import do_create_game

    users = User.objects.in_bulk(list(table.players.values()))
    game = do_create_game(ruleset=table.ruleset, seating={s: users[u] for s, u in table.players.items()},
                          time_limit=3600, max_consecutive_timeouts=3)
    table.game_id = game.pk
    table.replaced += 1
    if GAME_IDS is not None:
        GAME_IDS[table.slot] = game.pk


def drive(load: Load, rate: float, stop: threading.Event, http_client: Http | None = None,
          threads: int = 24) -> tuple[int, float]:
    """Actions at `rate` actions/s over the played games, round robin, one in flight per game at most."""
    from concurrent.futures import ThreadPoolExecutor

    played = [t for t in load.tables if not t.deadline_game]
    busy: set[int] = set()
    busy_lock = threading.Lock()
    sent = 0
    begin = time.monotonic()

    def job(table: Table) -> None:
        from django.db import connection
        try:
            act_once(load, table, http_client)
        except Exception as error:
            with load.lock:
                load.client_errors.append(f"client: {type(error).__name__}: {error}")
            connection.close()
        finally:
            with busy_lock:
                busy.discard(table.game_id)

    skipped = 0
    with ThreadPoolExecutor(max_workers=threads) as pool:
        n = 0
        while not stop.is_set():
            due = begin + sent / rate
            delay = due - time.monotonic()
            if delay > 0:
                stop.wait(delay)
                continue
            table = played[n % len(played)]
            n += 1
            with busy_lock:
                if table.game_id in busy:
                    skipped += 1
                    if skipped % len(played) == 0:  # every game busy: wait a little
                        stop.wait(0.01)
                    continue
                busy.add(table.game_id)
            pool.submit(job, table)
            sent += 1
    return sent, time.monotonic() - begin


# ---------------------------------------------------------------------------------------------
# The sockets


@dataclass
class SocketLog:
    game: int
    index: int  # which of the watching sockets (a socket that follows a replacement game gets a new log)
    events: list[tuple[float, int]] = field(default_factory=list)  # (time, version learnt)
    handshakes: list[tuple[float, float, bool, str]] = field(default_factory=list)  # (start, took, ok, why)
    closes: list[float] = field(default_factory=list)
    # when the benchmark moved the socket to its table's next game (the game ended): a version it had
    # not learnt by then, committed less than STALE_AFTER s before, is not the site's miss but ours
    moved: float | None = None


def reason(error: Exception) -> str:
    """Why a handshake failed, in a few words (the close code of a refused websocket)."""
    rcvd = getattr(error, "rcvd", None)
    if rcvd is not None:
        return f"closed {rcvd.code}"
    response = getattr(error, "response", None)
    if response is not None and getattr(response, "status_code", None):
        return f"HTTP {response.status_code}"
    return type(error).__name__ if not isinstance(error, RuntimeError) else str(error)[:60]


class Unavailable(RuntimeError):
    """The server closed the handshake with 4503: a service it needs (Redis) is down, try again."""


UNAVAILABLE_TRIES = 5  # gameclient.js: after a 4503, this many short waits before the back-off grows


def unavailable_wait() -> float:
    """gameclient.js's wait after a 4503 close: 0.5-1.5 s."""
    return random.uniform(0.5, 1.5)


GAME_IDS = None  # the watchers' shared array of each table's current game (set by Watchers)


class Watchers:
    """The websockets and the handshake probe, in a process of their own (its own interpreter and
    event loop: the action threads of this process, busy reading games and sending actions, must
    not delay what the sockets receive or the handshakes' timing)."""

    def __init__(self, site: dict, tables: list[Table], count: int, cafile: Path):
        global GAME_IDS
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        GAME_IDS = context.Array("q", [t.game_id for t in tables], lock=False)
        self.stop_flag = context.Event()
        self.connected = context.Value("i", 0, lock=False)
        self.results = context.Queue()
        self.logs: list[SocketLog] = []
        self.probes: list[tuple[float, float, bool, str]] = []
        self.process = context.Process(target=watch_process, args=(site["https"], str(cafile), tables, count, GAME_IDS,
                                                                   self.stop_flag, self.connected, self.results),
                                       daemon=True)

    def start(self) -> None:
        self.process.start()

    def stop(self) -> None:
        """Stop the sockets and bring their logs here."""
        self.stop_flag.set()
        try:
            logs, probes = self.results.get(timeout=120)
            self.logs = [SocketLog(game, index, events, handshakes, closes, moved)
                         for game, index, events, handshakes, closes, moved in logs]
            self.probes = probes
        except Exception as error:
            print(f"  the sockets' process sent no logs ({type(error).__name__})")
        self.process.join(timeout=30)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=10)


def watch_process(https: int, cafile: str, tables: list[Table], count: int, game_ids, stop_flag, connected,
                  results) -> None:
    runner = SocketRunner(https, ssl.create_default_context(cafile=cafile), tables, count, game_ids, connected)
    try:
        asyncio.run(runner.main(stop_flag))
    except BaseException:
        traceback.print_exc()  # what was logged until then is still sent
    results.put(([(log.game, log.index, log.events, log.handshakes, log.closes, log.moved) for log in runner.logs],
                 runner.probes))


class SocketRunner:
    def __init__(self, https: int, context: ssl.SSLContext, tables: list[Table], count: int, game_ids, connected):
        self.https, self.context, self.tables, self.count = https, context, tables, count
        self.game_ids, self.connected = game_ids, connected
        self.logs: list[SocketLog] = []
        self.probes: list[tuple[float, float, bool, str]] = []
        self.ever: set[int] = set()  # sockets that connected once
        self.stopping = False

    async def main(self, stop_flag) -> None:
        plan = []
        for table in self.tables:
            for token in [*table.tokens.values(), *table.spectators]:
                plan.append((table, token))
        plan = plan[:self.count]
        tasks = []
        for index, (table, token) in enumerate(plan):
            tasks.append(asyncio.create_task(self._watch(table, token, index)))
            await asyncio.sleep(0.05)  # the run starts from a steady state, not from 200 handshakes in one burst
        tasks.append(asyncio.create_task(self._probe()))
        while not stop_flag.is_set():
            await asyncio.sleep(0.2)
        self.stopping = True  # the loops end (Python 3.11's wait_for may swallow a cancellation)
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=30)

    async def _open(self, game_id: int, token: str):
        import websockets

        https = self.https
        ws = await websockets.connect(f"wss://127.0.0.1:{https}/ws/games/{game_id}/?token={token}",
                                      ssl=self.context, origin=f"https://127.0.0.1:{https}",
                                      open_timeout=15, max_queue=None, ping_interval=None)
        hello = json.loads(await asyncio.wait_for(ws.recv(), 15))
        if hello.get("type") != "hello":
            await ws.close()
            if hello.get("error") == "unavailable":  # then closed with 4503
                raise Unavailable("closed 4503")
            raise RuntimeError(f"first message {hello.get('type')!r} {hello.get('error') or hello.get('detail') or ''}")
        return ws, hello

    async def _watch(self, table: Table, token: str, index: int) -> None:
        retry = 1.0
        unavailable = 0  # 4503 closes in a row (gameclient.js: a few short waits, then the back-off)
        log = None
        while not self.stopping:
            if log is None or log.game != self.game_ids[table.slot]:
                log = SocketLog(self.game_ids[table.slot], index)
                self.logs.append(log)
            started = time.time()
            try:
                ws, hello = await self._open(log.game, token)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.handshakes.append((started, time.time() - started, False, reason(error)))
                if isinstance(error, Unavailable) and unavailable < UNAVAILABLE_TRIES:
                    unavailable += 1
                    await asyncio.sleep(unavailable_wait())
                    continue
                await asyncio.sleep(random.uniform(0, retry))  # full jitter, as gameclient.js
                retry = min(retry * 2, 30.0)
                continue
            log.handshakes.append((started, time.time() - started, True, ""))
            log.events.append((time.time(), int(hello["version"])))
            if index not in self.ever:
                self.ever.add(index)
                self.connected.value += 1
            retry, unavailable = 1.0, 0
            closed_code = None
            try:
                while log.game == self.game_ids[table.slot] and not self.stopping:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 1.0)
                    except TimeoutError:
                        continue
                    message = json.loads(raw)
                    version = message.get("version") if isinstance(message, dict) else None
                    if isinstance(version, int) and message.get("type") not in ("chat", "presence", "error"):
                        log.events.append((time.time(), version))
                else:  # the game ended and the players started another: watch that one now
                    log.moved = time.time()
                    await ws.close()
                    continue
            except asyncio.CancelledError:
                await ws.close()
                raise
            except Exception as error:
                rcvd = getattr(error, "rcvd", None)
                closed_code = rcvd.code if rcvd is not None else None
            log.closes.append(time.time())
            if closed_code == 4503:  # gameclient.js: a service is down, try again soon
                unavailable += 1
                await asyncio.sleep(unavailable_wait())
                continue
            # gameclient.js: reconnect after a random wait of up to 1 s, then up to 2, 4... (30 s at most)
            await asyncio.sleep(random.uniform(0, retry))
            retry = min(retry * 2, 30.0)

    async def _probe(self) -> None:
        """A new websocket every half second: its handshake time, whatever else happens."""
        n = 0
        while not self.stopping:
            table = self.tables[n % len(self.tables)]
            n += 1
            token = (table.spectators or list(table.tokens.values()))[0]
            started = time.time()
            try:
                ws, _ = await asyncio.wait_for(self._open(self.game_ids[table.slot], token), 20)
                self.probes.append((started, time.time() - started, True, ""))
                await ws.close()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.probes.append((started, time.time() - started, False, reason(error)))
            await asyncio.sleep(0.5)



# ---------------------------------------------------------------------------------------------
# Deadlines seen, and the measurements


class DeadlineWatch:
    """Reads the deadline games' seat deadlines every 0.3 s (the run's own database): every deadline
    that was set, to compare with the timeouts' log entries afterwards."""

    def __init__(self, tables: list[Table]):
        self.tables = tables
        self.seen: set[tuple[int, str, float]] = set()
        self.failures = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        from django.db import connection

        from games.models import GameSeat

        while not self.stop.is_set():
            try:
                for game_id, seat, deadline in GameSeat.objects.filter(
                        game_id__in=[t.game_id for t in self.tables], deadline_at__isnull=False).values_list("game_id", "seat", "deadline_at"):
                    self.seen.add((game_id, seat, deadline.timestamp()))
            except Exception:
                self.failures += 1
                connection.close()
            self.stop.wait(0.3)


class VersionWatch:
    """Reads every game's version every 0.3 s: when each version was first seen in the database,
    i.e. committed (at most 0.3 s and one query earlier). A socket must know a version 5 s after that."""

    def __init__(self, tables: list[Table]):
        self.tables = tables
        self.timelines: dict[int, list[tuple[float, int]]] = defaultdict(list)
        self.failures = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        from django.db import connection

        from games.models import Game

        while not self.stop.is_set():
            try:
                rows = list(Game.objects.filter(pk__in=[t.game_id for t in self.tables]).values_list("pk", "version"))
                seen = time.time()
                for game_id, version in rows:
                    timeline = self.timelines[game_id]
                    if not timeline or timeline[-1][1] < version:
                        timeline.append((seen, version))
            except Exception:
                self.failures += 1
                connection.close()
            self.stop.wait(0.3)


@dataclass
class Phase:
    name: str
    start: float
    end: float = 0.0
    fault_at: float = 0.0
    rate: float = 0.0
    achieved: float = 0.0
    note: str = ""
    outcome: str | dict = ""


def moved_before(log: SocketLog, committed_at: float) -> bool:
    """Whether the benchmark moved this socket to its table's next game before a version committed at
    `committed_at` had its STALE_AFTER s: the game ended and its players started another, and the
    socket was taken away from the old one (so whether it would have learnt the version is unknown)."""
    return log.moved is not None and log.moved < committed_at + STALE_AFTER


def measure(phase: Phase, load: Load, watchers: Watchers, deadlines: DeadlineWatch, versions: dict,
            timeouts: dict, keys: dict) -> dict:
    records = [r for r in load.records if phase.start <= r.t < phase.end]
    acked = [r for r in records if 200 <= r.status < 300]
    acked_keys = {r.key for r in acked}
    lost = sum(1 for k in acked_keys if keys.get(k, 0) == 0)
    lost_records = [r for r in acked if keys.get(r.key, 0) == 0]
    doubled = sum(1 for k in acked_keys if keys.get(k, 0) > 1)
    errors_500 = [r for r in records if r.status == 500]
    conflicts = [r for r in records if r.status == 409]
    other = [r for r in records if not (200 <= r.status < 300) and r.status not in (500, 409)]
    # deadlines that fell due in the phase (leaving the last 2 s for the runner); unresolved ones count as late
    lateness = []
    unresolved = 0
    for game_id, seat, due in deadlines.seen:
        if not (phase.start <= due < phase.end - 2):
            continue
        done = [t for t in timeouts.get((game_id, seat), []) if t >= due - 0.001]
        if done:
            lateness.append(min(done) - due)
        else:
            unresolved += 1
    late = sorted(lateness) + [float("inf")] * unresolved
    # sockets: every version committed in the phase, learnt within STALE_AFTER s?
    stale_sockets: set[int] = set()
    watched_sockets: set[int] = set()
    for log in watchers.logs:
        committed = [(t, v) for t, v in versions.get(log.game, []) if phase.start <= t < phase.end - STALE_AFTER]
        if not committed:
            continue
        watched_sockets.add(log.index)
        events = sorted(log.events)
        for t, v in committed:
            learnt = next((te for te, ve in events if ve >= v and te >= t - 1.0), None)
            if learnt is None and moved_before(log, t):
                continue  # the benchmark took the socket away before its 5 s were up
            if learnt is None or learnt - t > STALE_AFTER:
                stale_sockets.add(log.index)
                break
    stale, watched = len(stale_sockets), len(watched_sockets)
    lags = []  # every (socket, version) pair: how long after the version was seen in the database the socket knew it
    moved_away = 0  # pairs not measured: the socket was moved to the next game before the version's 5 s
    for log in watchers.logs:
        events = sorted(log.events)
        for t, v in versions.get(log.game, []):
            if phase.start <= t < phase.end - STALE_AFTER:
                learnt = next((te for te, ve in events if ve >= v and te >= t - 1.0), None)
                if learnt is None and moved_before(log, t):
                    moved_away += 1
                    continue
                lags.append(float("inf") if learnt is None else max(0.0, learnt - t))
    handshakes = [h for log in watchers.logs for h in log.handshakes if phase.start <= h[0] < phase.end]
    handshakes += [h for h in watchers.probes if phase.start <= h[0] < phase.end]
    failed_handshakes = [h for h in handshakes if not h[2]]
    slowest = max((h[1] for h in handshakes), default=0.0)
    return {"acked": len(acked), "lost": lost, "doubled": doubled, "500": len(errors_500), "409": len(conflicts),
            "other": len(other), "other_kinds": summarize(other), "due": len(late), "unresolved": unresolved,
            "late_p99": percentile(late, .99) if late else None, "late_max": max(late) if late else None,
            "sockets": watched, "stale": stale, "handshakes": len(handshakes), "hs_failed": len(failed_handshakes),
            "hs_failed_kinds": summarize_handshakes(failed_handshakes), "hs_max": slowest,
            "records": len(records), "lag_p50": percentile(lags, .5) if lags else None,
            "lag_p99": percentile(lags, .99) if lags else None, "lag_never": sum(1 for x in lags if x == float("inf")), "moved_away": moved_away,
            "lags": len(lags), "lost_records": lost_records}


def summarize(records: list[Record]) -> str:
    kinds: dict[str, int] = defaultdict(int)
    for r in records:
        kinds[f"{r.status or 'no answer'}" + (f" {r.detail}" if r.detail and r.status else "")] += 1
    return "; ".join(f"{n} x {k}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])[:4])


def summarize_handshakes(failed: list) -> str:
    kinds: dict[str, int] = defaultdict(int)
    for h in failed:
        kinds[h[3]] += 1
    return ", ".join(f"{n} x {k}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])[:3])


def seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return "never" if value == float("inf") else f"{value:.2f} s"


def verdicts(m: dict) -> dict[str, bool]:
    share = 1 - m["stale"] / m["sockets"] if m["sockets"] else 0.0  # no socket data: not met
    return {"no loss": m["lost"] == 0 and m["doubled"] == 0,
            "no 500": m["500"] == 0,
            "deadlines <= 5 s": m["late_max"] is None or m["late_max"] <= DEADLINE_GOAL,
            "sockets 99%": share >= SOCKETS_GOAL,
            "handshakes <= 2 s": m["handshakes"] > 0 and m["hs_failed"] == 0 and m["hs_max"] <= HANDSHAKE_GOAL}


def print_table(rows: list[tuple[Phase, dict]]) -> None:
    print("\nCHAOS TABLE (one row per phase; goals: 0 lost/doubled, 0 x 500, deadlines <= 5 s late, "
          ">= 99% of sockets back within 5 s, handshakes answered within 2 s)")
    header = (f"{'phase':<10} {'rate':>10} {'acked':>6} {'lost':>5} {'dbl':>4} {'500':>4} {'other':>6} {'409':>5} "
              f"{'due':>4} {'late p99':>9} {'late max':>9} {'sockets back':>16} {'hs':>5} {'hs fail':>7} {'hs max':>8}  verdict")
    print(header)
    print("-" * len(header))
    for phase, m in rows:
        share = f"{m['sockets'] - m['stale']}/{m['sockets']}" + (
            f" {100 * (m['sockets'] - m['stale']) / m['sockets']:.0f}%" if m["sockets"] else "")
        v = verdicts(m)
        verdict = " ".join(f"{name}:{'PASS' if ok else 'FAIL'}" for name, ok in v.items())
        print(f"{phase.name:<10} {phase.achieved:>5.1f}/{phase.rate:<4g} {m['acked']:>6} {m['lost']:>5} {m['doubled']:>4} "
              f"{m['500']:>4} {m['other']:>6} {m['409']:>5} {m['due']:>4} {seconds(m['late_p99']):>9} "
              f"{seconds(m['late_max']):>9} {share:>16} {m['handshakes']:>5} {m['hs_failed']:>7} "
              f"{m['hs_max']:>6.2f} s  {verdict}")
    for phase, m in rows:
        notes = []
        if phase.note:
            notes.append(phase.note)
        if m["other"]:
            notes.append(f"other failures: {m['other_kinds']}")
        if m["lags"]:
            notes.append(f"a socket knew a new version {seconds(m['lag_p50'])} (median), {seconds(m['lag_p99'])} (p99) "
                         f"after the database had it; {m['lag_never']} of {m['lags']} never learnt by the end of the run"
                         + (f" ({m['moved_away']} not measured: the socket was moved to its table's next game, the old "
                            f"one having ended, before the version's {STALE_AFTER:g} s were up)" if m["moved_away"] else ""))
        for r in m["lost_records"][:5]:
            notes.append(f"LOST: game {r.game} answered HTTP {r.status} with version {r.version} at "
                         f"+{r.t - rows[0][0].start:.1f} s, key {r.key} not in its log ({r.detail or 'no detail'}); "
                         f"the log holds at that version: {r.__dict__.get('found', 'nothing')}")
        if m["unresolved"]:
            notes.append(f"{m['unresolved']} deadline(s) never resolved")
        if m["hs_failed"]:
            notes.append(f"failed handshakes: {m['hs_failed_kinds']}")
        if notes:
            print(f"  {phase.name}: " + "; ".join(notes))


# ---------------------------------------------------------------------------------------------


def inject(fault: str, cluster: Cluster, site: dict) -> str | dict:
    """Inject one fault; returns what was done, in words."""
    if fault == "daphne":
        cluster.kill("daphne-1")
        return "SIGKILL daphne-1; restarted by the supervisor after its unit's RestartSec"
    if fault == "worker":
        cluster.kill("worker-1")
        return "SIGKILL worker-1 and its pool; restarted after RestartSec"
    if fault == "workers":
        cluster.kill("worker-1")
        cluster.kill("worker-2")
        return "SIGKILL worker-1 and worker-2 and their pools; restarted after RestartSec"
    if fault == "beat":
        cluster.kill("beat")
        return "SIGKILL beat; restarted after RestartSec"
    if fault == "redis":
        primary = current_primary(site["redis"])
        name = next((n for n, p in site["redis"]["ports"].items() if p == primary), None)
        if name is None:
            return f"no Redis primary known to the sentinels (they said {primary}); nothing killed"
        cluster.kill(name)
        killed = time.monotonic()
        outcome = {"text": f"SIGKILL the Redis primary ({name})"}

        def follow() -> None:
            promoted = wait_for(lambda: current_primary(site["redis"]) not in (None, primary), 60, 0.1)
            took = time.monotonic() - killed
            cluster._start(cluster.procs[name])  # the machine is back: its Redis starts, Sentinel demotes it
            back = wait_for(lambda: redis_command(primary, "ROLE", password=site["redis"]["password"])[0] == "slave",
                            60, 0.2)
            outcome["text"] += ((f"; Sentinel promoted the replica {took:.1f} s later" if promoted
                                 else "; Sentinel did NOT promote the replica within 60 s")
                                + f"; the old primary restarted then, and is {'a replica' if back else 'NOT a replica'} "
                                f"{time.monotonic() - killed:.1f} s after the kill"
                                + ("" if site["via_sentinel"] else
                                   " (the site used REDIS_URL at the old primary: no Sentinel settings)"))

        follower = threading.Thread(target=follow, daemon=True)
        follower.start()
        return outcome  # completed by the thread
    if fault == "postgres":
        started = time.monotonic()
        try:
            cluster.restart_postgres()
            return f"pg_ctl restart -m fast: down and up again in {time.monotonic() - started:.1f} s"
        except Exception as error:
            return f"pg_ctl restart failed: {error}"
    raise ValueError(fault)


def measure_capacity(load: Load, site: dict, seconds_: float) -> float:
    """Actions/s one Daphne node applies when clients send back to back, straight to node 1."""
    direct = Http(site["daphnes"][0], None)
    stop = threading.Event()
    begin = time.time()
    runner = threading.Thread(target=drive, args=(load, 1000.0, stop, direct, 16))
    runner.start()
    time.sleep(seconds_)
    stop.set()
    runner.join(timeout=60)
    end = time.time()
    acked = sum(1 for r in load.records if begin <= r.t < end and 200 <= r.status < 300)
    return acked / (end - begin)


def run(args) -> int:
    folder = Path(tempfile.mkdtemp(prefix="westeros-chaos-"))
    cluster = Cluster(folder)
    print(f"chaos: logs in {cluster.logs} (kept); machine load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores at the start", flush=True)
    watchers = None
    stop_driving = threading.Event()
    deadlines = None
    try:
        started = time.monotonic()
        site = start_site(cluster, args)
        print(f"chaos: site up in {time.monotonic() - started:.0f} s: nginx (TLS) on {site['https']}, Daphne nodes "
              f"on {site['daphnes']}, 2 Celery workers, beat, PostgreSQL {site['pg_port']} (own cluster), Redis "
              f"primary+replica, 3 sentinels; the site reaches Redis "
              + ("through the sentinels (REDIS_SENTINELS)" if site["via_sentinel"]
                 else "through REDIS_URL at the primary (no REDIS_SENTINELS in the settings yet)"), flush=True)
        os.environ.update(site["env"])
        os.environ.update(DB_POOL_SIZE="0", DB_CONN_MAX_AGE="0")
        import django

        django.setup()
        tables = make_tables(args.games, args.sockets, args.deadline_limit)
        played = sum(1 for t in tables if not t.deadline_game)
        mix = ", ".join(f"{sum(1 for t in tables if t.ruleset == r)} {r}" for r, _ in RULESETS)
        print(f"load: {len(tables)} games ({mix}); {len(tables) - played} deadline games (time limit "
              f"{args.deadline_limit} s, nobody acts), {played} played through nginx at {args.rate:g} actions/s; "
              f"{args.sockets} websockets watching (players and spectators) + a handshake probe every 0.5 s; "
              f"{args.recovery:g} s measured per phase", flush=True)
        load = Load(tables, Http(site["https"], site["context"]))
        watchers = Watchers(site, tables, args.sockets, cluster.folder / "nginx" / "cert.pem")
        watchers.start()
        deadlines = DeadlineWatch([t for t in tables if t.deadline_game])
        deadlines.thread.start()
        version_watch = VersionWatch(tables)
        version_watch.thread.start()
        wait_for(lambda: watchers.connected.value >= args.sockets, 90, 0.5)
        print(f"sockets: {watchers.connected.value} of {args.sockets} connected", flush=True)

        rows: list[tuple[Phase, dict]] = []
        phases: list[Phase] = []
        driver = threading.Thread(target=drive, args=(load, args.rate, stop_driving), daemon=True)
        driver.start()
        time.sleep(args.warmup)
        for fault in ["none", *[f for f in args.faults if f != "overload"]]:
            phase = Phase(fault if fault != "none" else "baseline", time.time(), rate=args.rate)
            if fault != "none":
                phase.outcome = inject(fault, cluster, site)
                print(f"fault {fault}: {phase.outcome if isinstance(phase.outcome, str) else phase.outcome['text']}",
                      flush=True)
            remaining = phase.start + args.recovery - time.time()
            time.sleep(max(0.0, remaining))
            phase.end = time.time()
            phases.append(phase)
        stop_driving.set()
        driver.join(timeout=60)
        for phase in phases:
            phase.achieved = sum(1 for r in load.records if phase.start <= r.t < phase.end and r.key) / max(
                1e-9, phase.end - phase.start)
        if "overload" in args.faults:
            capacity = measure_capacity(load, site, args.capacity_seconds)
            rate = max(1.0, 2 * capacity)
            print(f"overload: one Daphne node applied {capacity:.1f} actions/s with 16 clients sending back to back "
                  f"for {args.capacity_seconds:g} s (straight to the node); now {rate:.1f} actions/s through nginx",
                  flush=True)
            time.sleep(3)
            stop_over = threading.Event()
            phase = Phase("overload", time.time(), rate=round(rate, 1))
            over = threading.Thread(target=drive, args=(load, rate, stop_over, None, 64), daemon=True)
            over.start()
            time.sleep(args.recovery)
            stop_over.set()
            over.join(timeout=60)
            time.sleep(STALE_AFTER)  # a socket has its 5 s to learn the last versions
            phase.end = time.time()
            phase.achieved = sum(1 for r in load.records if phase.start <= r.t < phase.end) / args.recovery
            phase.note = f"one node's measured capacity {capacity:.1f} actions/s; asked twice that"
            phases.append(phase)
        time.sleep(3)  # the last deadlines' runner
        deadlines.stop.set()
        version_watch.stop.set()
        watchers.stop()
        for phase in phases:
            if phase.outcome:
                phase.note = phase.outcome if isinstance(phase.outcome, str) else phase.outcome["text"]
        rows = collect(phases, load, watchers, deadlines, version_watch)
        print_table(rows)
        restarts = ", ".join(f"{name} at +{t - phases[0].start:.0f} s" for t, name in cluster.restarts)
        print(f"\nrestarts by the supervisor: {restarts or 'none'}")
        print(f"games that ended and were replaced by another between the same players (their sockets followed): "
              f"{sum(t.replaced for t in tables)}")
        print(f"client side: {len(load.client_errors)} action(s) not sent because the benchmark's own read of the "
              f"game failed (the database down) or its client failed"
              + (f", first: {load.client_errors[0]}" if load.client_errors else "")
              + f"; deadline reads failed {deadlines.failures} time(s)")
        nginx_log = (cluster.folder / "nginx" / "error.log").read_text(errors="replace")
        print(f"nginx's error log: {nginx_log.count('upstream server temporarily disabled')} time(s) a Daphne node "
              f"was taken out of rotation (max_fails), {nginx_log.count('no live upstreams')} request(s) answered 502 "
              f"with no node in rotation, {nginx_log.count('reset by peer) while reading response header')} "
              f"connection(s) reset by a node before its answer (a websocket handshake not accepted within Daphne's "
              f"5 s is dropped that way), {nginx_log.count('Connection refused')} refused")
        print(f"machine load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f} on "
              f"{os.cpu_count()} cores at the end")
        return 0
    finally:
        stop_driving.set()
        if deadlines is not None:
            deadlines.stop.set()
        if watchers is not None and watchers.process.is_alive():
            watchers.process.terminate()
            watchers.process.join(timeout=10)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        cluster.stop_all()
        shutil.rmtree(folder / "pg", ignore_errors=True)
        shutil.rmtree(folder / "redis", ignore_errors=True)
        print(f"chaos: every process stopped; logs in {cluster.logs}", flush=True)


def collect(phases: list[Phase], load: Load, watchers: Watchers, deadlines: DeadlineWatch,
            version_watch: VersionWatch) -> list[tuple[Phase, dict]]:
    """The database's log afterwards: versions' commit times, the timeouts, the keys."""
    from django.db import connection

    from games.models import GameAction

    for _ in range(30):
        try:
            connection.close()
            rows = list(GameAction.objects.values_list("game_id", "version", "seat", "source", "idempotency_key",
                                                       "created_at"))
            break
        except Exception:
            time.sleep(1)
    else:
        raise RuntimeError("the database did not answer after the run")
    timeouts: dict[tuple[int, str], list[float]] = defaultdict(list)
    keys: dict[str, int] = defaultdict(int)
    for game_id, _version, seat, source, key, created in rows:
        t = created.timestamp()
        if source == "timeout":
            timeouts[(game_id, seat)].append(t)
        if key:
            keys[key] += 1
    timelines = dict(version_watch.timelines)
    measured = [(phase, measure(phase, load, watchers, deadlines, timelines, timeouts, keys)) for phase in phases]
    for _phase, m in measured:
        for r in m["lost_records"][:5]:
            at = GameAction.objects.filter(game_id=r.game, version=r.version).values_list(
                "seat", "source", "idempotency_key", "created_at").first()
            r.found = f"{at[1]} by {at[0]}, key {at[2] or 'none'}, at {at[3]:%H:%M:%S.%f}" if at else "nothing"
    return measured


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: 8 games, 32 sockets, 12 s phases")
    parser.add_argument("--faults", default=",".join(FAULTS),
                        help=f"comma-separated, in order, among {', '.join(FAULTS)} (default: all)")
    parser.add_argument("--games", type=int)
    parser.add_argument("--sockets", type=int)
    parser.add_argument("--rate", type=float, help="actions/s through nginx over the played games")
    parser.add_argument("--recovery", type=float, help="seconds measured per phase (the fault, then recovery)")
    parser.add_argument("--deadline-limit", type=int, default=6, help="the deadline games' time limit (s)")
    args = parser.parse_args()
    quick = args.quick
    args.games = args.games or (8 if quick else 50)
    args.sockets = args.sockets or (32 if quick else 200)
    args.rate = args.rate or (4.0 if quick else 10.0)
    args.recovery = args.recovery or (12.0 if quick else 30.0)
    args.warmup = 5.0 if quick else 10.0
    args.capacity_seconds = 5.0 if quick else 15.0
    args.faults = [f.strip() for f in args.faults.split(",") if f.strip()]
    unknown = [f for f in args.faults if f not in FAULTS]
    if unknown:
        parser.error(f"unknown fault(s) {', '.join(unknown)}; choose among {', '.join(FAULTS)}")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        parser.error("running as root needs runuser to start PostgreSQL as the postgres user")

    def terminated(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, terminated)
    try:
        return run(args)
    except KeyboardInterrupt:
        print("chaos: interrupted; every process was stopped", file=sys.stderr)
        return 130
    except Exception:
        traceback.print_exc()
        print("chaos: the run failed (above); every process was stopped", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
