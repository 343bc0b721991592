"""Static files with DEBUG off under Daphne (issue 14): the README's production recipe collects them
(`manage.py collectstatic`) and WhiteNoise serves them from STATIC_ROOT, hashed, compressed and cached
for a year; the game pages and the API docs (drf-spectacular-sidecar's Swagger UI) load every CSS
and JavaScript file they name. With DEBUG on nothing needs collecting."""
from __future__ import annotations

import gzip
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.celery_worker import free_port, wait_for
from tests.live_server import embedded_env, running_server
from tests.test_server_backlog import documented_daphne_command

ROOT = Path(__file__).resolve().parent.parent
MAKE_GAMES = """
from accounts.models import User
from games.services.play import do_create_game
users = [User.objects.create_user(f"p{n}", f"p{n}@example.com", "a-long-passphrase-42") for n in range(3)]
agot = do_create_game(ruleset="agot", seating=dict(zip(["stark", "lannister", "baratheon"], users)))
btwixt = do_create_game(ruleset="btwixt", seating={seat: users[n] for n, seat in enumerate(
    __import__("games.engine", fromlist=["get_ruleset"]).get_ruleset("btwixt").seat_names(3))})
print("GAMES", agot.pk, btwixt.pk)
"""


def fetch(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=20) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def static_urls(html: str) -> list[str]:
    """The /static/ files a page loads: <script src> and <link href>."""
    return sorted(set(re.findall(r"""(?:src|href)=["'](/static/[^"']+)["']""", html)))


@pytest.fixture(scope="module")
def collected():
    """STATIC_ROOT after the README's `manage.py collectstatic --no-input`, with the production
    settings (DEBUG off): its own folder, never the checkout's staticfiles/."""
    folder = Path(tempfile.mkdtemp(prefix="westeros-static-"))
    env = embedded_env(folder, STATIC_ROOT=str(folder / "staticfiles"))
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"], cwd=ROOT, env=env,
                   check=True, timeout=300)
    yield folder / "staticfiles"
    shutil.rmtree(folder, ignore_errors=True)


def test_debug_off_daphne_serves_every_static_file_the_pages_and_api_docs_load(collected):
    assert (collected / "staticfiles.json").exists()
    with running_server(documented_daphne_command(), STATIC_ROOT=str(collected)) as server:
        agot, btwixt = re.search(r"GAMES (\d+) (\d+)", server.manage("shell", "-c", MAKE_GAMES)).groups()
        loaded: dict[str, list[str]] = {}
        for page in ["/", f"/games/{agot}/", f"/games/{btwixt}/", "/api/docs/"]:
            status, _, body = fetch(server.url + page)
            assert status == 200, (page, status, server.output())
            loaded[page] = static_urls(body.decode())
        # What each page needs: the site's CSS, the board and the shared game client, Swagger UI.
        assert any("/static/css/site." in url for url in loaded["/"])
        assert any("/static/js/gameclient." in url for url in loaded[f"/games/{agot}/"])
        assert any("/static/js/btwixt." in url for url in loaded[f"/games/{btwixt}/"])
        assert any("swagger-ui-bundle" in url for url in loaded["/api/docs/"]), loaded["/api/docs/"]
        for page, urls in loaded.items():
            for url in urls:
                status, headers, body = fetch(server.url + url)
                assert status == 200 and body, (page, url, status)
                kind = "text/css" if url.endswith(".css") else "javascript" if url.endswith(".js") else ""
                assert kind in headers["content-type"], (url, headers["content-type"])
        # Our own files carry the manifest's hash, so browsers may keep them for a year.
        site_css = next(url for url in loaded["/"] if "/static/css/site." in url)
        assert re.search(r"/static/css/site\.[0-9a-f]{12}\.css$", site_css), site_css
        status, headers, body = fetch(server.url + site_css, **{"Accept-Encoding": "gzip"})
        assert status == 200 and "immutable" in headers["cache-control"], headers
        assert headers.get("content-encoding") == "gzip" and gzip.decompress(body)
        assert fetch(server.url + "/static/css/no-such-file.css")[0] == 404


def test_debug_on_daphne_serves_static_files_without_collectstatic():
    """DEBUG on (embedded mode, dev.py start): straight from static/ and the apps, nothing collected."""
    folder = Path(tempfile.mkdtemp(prefix="westeros-no-static-"))
    env = {**embedded_env(folder), "DEBUG": "true", "STATIC_ROOT": str(folder / "never-collected"),
           "DEADLINE_RUNNER_IN_SERVER": "false"}
    port = free_port()
    command = [part.replace("{port}", str(port)) for part in documented_daphne_command()]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        assert wait_for(lambda: answers(url), timeout=60)
        for path in ["/static/css/site.css", "/static/js/gameclient.js",
                     "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js"]:
            assert fetch(url + path)[0] == 200, path
    finally:
        process.terminate()
        process.wait(timeout=15)
        shutil.rmtree(folder, ignore_errors=True)


def answers(url: str) -> bool:
    try:
        fetch(url + "/static/css/site.css")
        return True
    except OSError:
        return False
