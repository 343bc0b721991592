"""Browser tests: Playwright for Python driving Debian's Chromium (/usr/bin/chromium), headless.

How the live server works, and why:

- pytest-django's `live_server` is a WSGI server: no websockets. These tests need the real ASGI
  stack (HTTP + the game websocket), so each test worker starts its own server in a subprocess:
  `manage.py runserver 127.0.0.1:<free port> --noreload`, which with the `daphne` app installed is
  Daphne (ASGI, websockets, static files served from static/ because DEBUG is on).
- The server gets its own SQLite file database in a temporary folder (`DATABASE_URL=sqlite:////...`,
  migrated by `manage.py migrate` first), whatever database the test run itself uses (PostgreSQL in
  CI). A subprocess cannot see pytest-django's test database inside a transaction, and a file
  database shared by two processes is the simplest thing that works on SQLite and PostgreSQL runs
  alike. `REDIS_URL` is removed, so the channel layer is in-memory: HTTP actions and websockets run
  in the same server process, so that is enough. Its settings are the site's with a fast password hasher
  (tests/browser/server_settings.py), as the in-process tests have. The tests touch the database only through the
  server (the browser, or `manage.py` subprocesses with the same environment: see stage.py).
- Chromium runs with the flags this machine needs (no sandbox as root, no GPU, no background
  networking) and a fresh profile folder per browser.

Skipping: only when /usr/bin/chromium (or Playwright) is missing locally. With CI=true a missing
Chromium fails the tests instead (.ci/run installs Debian's chromium).
"""
from __future__ import annotations

import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser.util import PASSWORD
from tests.live_server import stop_process
from westeros.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: runs in headless Chromium against a live ASGI server (tests/browser)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            # their server has a SQLite database of its own whatever the run's backend: .ci/run runs
            # them on its first (PostgreSQL) pass only (tests/conftest.py)
            item.add_marker(pytest.mark.slow_once)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    missing = None
    if not Path(CHROMIUM).exists():
        missing = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "Playwright is not installed (pip install -e '.[test]')"
    if missing:
        if _in_ci():
            pytest.fail(f"CI=true but {missing}: browser tests must run in CI")
        pytest.skip(missing)
    return CHROMIUM


class LiveServer:
    def __init__(self, url: str, env: dict[str, str]):
        self.url = url
        self.env = env
        self.stager: subprocess.Popen | None = None
        self.staging = threading.Lock()

    def manage(self, *args: str, stdin: str | None = None) -> str:
        """Run manage.py against the server's database; returns stdout. `shell -c CODE` runs in the
        server's stager (tests/browser/stager.py), one process that starts Django once."""
        if len(args) == 3 and args[:2] == ("shell", "-c") and stdin is None:
            return self.stage(args[2])
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, input=stdin,
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def stage(self, code: str, timeout: float = 120) -> str:
        """What `manage.py shell -c CODE` would print, run in the stager; RuntimeError if it raised or
        did not finish within `timeout` seconds (a ceiling for a loaded machine)."""
        with self.staging:
            if self.stager is None or self.stager.poll() is not None:
                self.stager = subprocess.Popen([sys.executable, "-m", "tests.browser.stager"], cwd=ROOT, env=self.env,
                                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            self.stager.stdin.write(json.dumps({"code": code}) + "\n")
            self.stager.stdin.flush()
            # the stager answers every line, or has died; a staging that hangs is killed, as the
            # subprocess it replaces was after its timeout
            if not select.select([self.stager.stdout], [], [], timeout)[0]:
                self.stager.kill()
                raise RuntimeError(f"manage.py shell -c {code!r} did not finish within {timeout:g} s")
            line = self.stager.stdout.readline()
            if not line:
                raise RuntimeError(f"the stager died running manage.py shell -c {code!r}")
            answer = json.loads(line)
        if not answer["ok"]:
            raise RuntimeError(f"manage.py shell -c {code!r} failed:\n{answer['out']}\n{answer['error']}")
        return answer["out"]

    def close(self) -> None:
        if self.stager is not None:
            self.stager.stdin.close()
            stop_process(self.stager)


@pytest.fixture(scope="session")
def live_asgi_server(chromium_path):
    folder = Path(tempfile.mkdtemp(prefix="westeros-browser-"))
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}", DEBUG="true", SECURE_SSL_REDIRECT="false",
               DB_CONN_MAX_AGE="0", ALLOWED_HOSTS="127.0.0.1,localhost", PYTHONUNBUFFERED="1",
               DJANGO_SETTINGS_MODULE="tests.browser.server_settings")  # a fast password hasher
    port = free_port()
    server = LiveServer(f"http://127.0.0.1:{port}", env)
    server.manage("migrate", "--no-input", "-v", "0")
    log = (folder / "server.log").open("w")
    proc = subprocess.Popen([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(server.url + "/", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the live server did not start: " + (folder / "server.log").read_text()) from None
                time.sleep(0.3)
        yield server
    finally:
        server.close()
        stop_process(proc)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def playwright_browser(chromium_path):
    # Module scope, not session: while Playwright's sync API is open it keeps an asyncio loop
    # running in this thread, and every later test on the same worker that uses async_to_sync
    # (channel layer, notifications) would fail. pytest closes a module fixture as soon as a test
    # of another module runs, even when xdist interleaves modules.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.call_failed = report.failed
    return report


# a string that is a function already: "function ...", "(a, b) => ...", "x => ...", "async ..."
_A_FUNCTION = re.compile(r"\s*(async\b|function\b|\(([^()]|\([^()]*\))*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")


def _wait_without_eval(page) -> None:
    """The site's Content-Security-Policy forbids eval (script-src 'self', westeros/csp.py), and
    Playwright polls a wait_for_function given as an expression ("window.x && ...") by eval'ing it in
    the page, which the policy refuses (EvalError). Given as a function ("() => window.x && ...") it is
    compiled by the browser's debugger, which the policy does not govern: so each expression is turned
    into a function here, and the pages run under the real policy."""
    original = page.wait_for_function

    def wait_for_function(expression, *args, **kwargs):
        if isinstance(expression, str) and not _A_FUNCTION.match(expression):
            expression = f"() => ({expression.strip()})"
        return original(expression, *args, **kwargs)

    page.wait_for_function = wait_for_function


@pytest.fixture
def new_page(playwright_browser, request):
    """new_page(width, height) -> a page in a fresh context (its own cookies); page errors fail the
    test; when the test fails, every page's screenshot goes to test-artifacts/failed-<test>-<n>.png."""
    contexts = []
    errors: list[str] = []

    def make(width: int = 1366, height: int = 900, **kwargs):
        context = playwright_browser.new_context(viewport={"width": width, "height": height}, **kwargs)
        context.set_default_timeout(30000)  # a ceiling for a loaded machine; waits are on conditions
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        _wait_without_eval(page)
        return page

    yield make
    if getattr(request.node, "call_failed", False):
        ARTIFACTS.mkdir(exist_ok=True)
        for n, context in enumerate(contexts):
            for page in context.pages:
                page.screenshot(path=str(ARTIFACTS / f"failed-{request.node.name}-{n}.png"), full_page=True)
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def demo_game(live_asgi_server, request) -> int:
    """A fresh game for this test: its user (named after the test) plays Stark against two bots."""
    name = re.sub(r"\W", "", request.node.name)[:30]
    out = live_asgi_server.manage("shell", "-c", f"from tests.browser.stage import bot_game; bot_game({name!r}, {PASSWORD!r})")
    request.node.demo_user = name
    return int(re.search(r"game (\d+)", out).group(1))
