"""Take the README's screenshots: `.venv/bin/python docs/screenshots/take_screenshots.py`.

Starts the site on a fresh SQLite database in a temporary folder (Daphne through `manage.py
runserver`, DEBUG on so static files are served, no Redis), stages demo data with
tests/browser/stage.py's `screenshot_scene` (alice against bots in an AGoT and a B'Twixt game, open
lobbies), logs in as alice in headless Chromium (/usr/bin/chromium, the browser tests' flags) at
1440 px wide and writes home.png, lobbies.png, agot-game.png and btwixt-game.png next to this file.
Needs the test extras (Playwright). Each PNG stays well under 300 KB (tests/test_readme.py checks):
the viewport is cut to what matters rather than the full page.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent
PASSWORD = "screenshots-only-password"
WIDTH = 1440
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
sys.path.insert(0, str(ROOT))
from tests.browser.conftest import CHROMIUM_ARGS  # noqa: E402
from westeros.ports import free_port  # noqa: E402


def manage(env: dict[str, str], *args: str) -> str:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True,
                          text=True, timeout=300).stdout


def main() -> None:
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="westeros-screenshots-"))
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}", DEBUG="true", SECURE_SSL_REDIRECT="false",
               ALLOWED_HOSTS="127.0.0.1,localhost", PYTHONUNBUFFERED="1")
    manage(env, "migrate", "--no-input", "-v", "0")
    ids = json.loads(manage(env, "shell", "-c", f"from tests.browser.stage import screenshot_scene; "
                                                f"screenshot_scene({PASSWORD!r})").strip().splitlines()[-1])
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = (folder / "server.log").open("w")
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/", timeout=2)
                break
            except OSError:
                time.sleep(0.3)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            page = browser.new_context(viewport={"width": WIDTH, "height": 900}).new_page()
            page.goto(base + "/accounts/login/")
            page.fill("input[name=username]", "alice")
            page.fill("input[name=password]", PASSWORD)
            page.click("main form button[type=submit]")
            page.wait_for_url(base + "/")
            shots = [("home.png", "/", 720), ("lobbies.png", "/lobbies/", 480),
                     ("agot-game.png", f"/games/{ids['agot']}/", 1000),
                     ("btwixt-game.png", f"/games/{ids['btwixt']}/", 1000)]
            for name, path, height in shots:
                page.set_viewport_size({"width": WIDTH, "height": height})
                page.goto(base + path)
                page.wait_for_load_state("networkidle")
                page.wait_for_timeout(1500)  # the websocket's hello and the first render
                page.screenshot(path=str(OUT / name))
                print(f"{name}: {(OUT / name).stat().st_size // 1024} KB")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=15)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
