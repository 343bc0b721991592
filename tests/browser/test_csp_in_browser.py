"""The Content-Security-Policy in Chromium (issue 28): the site's pages run their scripts, now all
static files, under the enforced policy with no violation: the home page's phone menu, a game table
drawn and connected over its websocket, the tournament form's tie-breakers, the tournament page's
socket, a new token's copy button, taking over a seat (its question), and Swagger UI on the API docs.
And the policy is really enforced: a script injected into a page does not run, and the browser
reports it. Server: conftest.py. The header itself and the pages' HTML: tests/test_csp.py."""
from __future__ import annotations

import json
import re

import pytest

from tests.browser.util import PASSWORD, log_in, wait_until

pytestmark = pytest.mark.browser

# every violation the page's document sees, with what was blocked (init scripts run outside the policy)
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber);
});
"""


def stage_csp(username: str, password: str) -> None:
    """Run in the live server's environment (`manage.py shell -c`): `username` plays an AGoT game and
    a B'Twixt game against bots and is registered in a tournament; another player's game has a seat
    the computer plays since its player left. Prints the ids as JSON."""
    from django.utils import timezone

    from accounts.models import User
    from games.engine import get_ruleset
    from games.models import GameSeat
    from games.services.play import do_create_game
    from tournaments.services import TournamentSettings, do_create_tournament, do_register

    me = User.objects.create_user(username=username, email=f"{username}@example.com", password=password)
    others = [User.objects.create_user(username=f"{username[:14]}_{n}", email=f"{n}.{username}@example.com",
                                       password=password) for n in range(3)]
    seats = get_ruleset("agot").seat_names(3)
    agot = do_create_game(ruleset="agot", seating={s: (me if i == 0 else None) for i, s in enumerate(seats)})
    bt_seats = get_ruleset("btwixt").seat_names(3)
    btwixt = do_create_game(ruleset="btwixt", seating={s: (me if i == 0 else None) for i, s in enumerate(bt_seats)},
                            seed=5)
    left = do_create_game(ruleset="agot", seating=dict(zip(seats, others, strict=True)))
    GameSeat.objects.filter(game=left, user=others[2]).update(is_bot=True, left_at=timezone.now())
    cup = do_create_tournament(others[0], TournamentSettings(name="The Tourney at Ashford", seats_per_table=3,
                                                             rounds=1, time_limit=7200))
    do_register(cup.pk, me)
    print(json.dumps({"agot": agot.pk, "btwixt": btwixt.pk, "left": left.pk, "tournament": cup.pk}))


@pytest.fixture
def staged(live_asgi_server, request) -> dict:
    name = ("c" + re.sub(r"\W", "", request.node.name))[:24]
    out = live_asgi_server.manage(
        "shell", "-c", f"from tests.browser.test_csp_in_browser import stage_csp; stage_csp({name!r}, {PASSWORD!r})")
    return {"user": name, **json.loads(out.strip().splitlines()[-1])}


class Watched:
    """A page whose CSP reports are all kept: Chromium's console messages about the policy, and the
    securitypolicyviolation events of each document (read before the page leaves it)."""

    def __init__(self, page):
        self.page = page
        self.console: list[str] = []
        self.events: list[str] = []
        page.add_init_script(RECORD_VIOLATIONS)
        page.on("console", self._console)

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.console.append(f"{message.type}: {message.text}")

    def collect(self, where: str) -> None:
        found = self.page.evaluate("window.__cspViolations || []")
        self.events += [f"{where}: {v}" for v in found]

    def goto(self, url: str) -> None:
        if self.page.url.startswith("http"):
            self.collect(self.page.url)
        response = self.page.goto(url)
        assert response.ok, url
        csp = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp, (url, csp)

    def clean(self) -> None:
        self.collect(self.page.url)
        assert not self.console and not self.events, {"console": self.console, "events": self.events}


def test_pages_run_their_scripts_with_no_csp_violation(live_asgi_server, staged, new_page, artifacts):
    base = live_asgi_server.url
    page = new_page(1440, 1000)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    watched = Watched(page)
    log_in(page, base, staged["user"])

    # the home page, then a game table: drawn from the API, connected over its websocket
    watched.goto(base + "/")
    assert page.locator("main h1, main h2").first.is_visible()
    watched.goto(f"{base}/games/{staged['agot']}/")
    page.wait_for_selector("#board path.area")
    page.wait_for_selector("#conn.on")
    page.wait_for_selector("#decision h2")
    assert page.evaluate("window.__westerosGame.state().version") >= 0
    page.screenshot(path=str(artifacts / "csp-agot-game.png"))
    watched.goto(f"{base}/games/{staged['btwixt']}/")
    page.wait_for_selector(".bt-seat")
    page.wait_for_selector("#conn.on")

    # the tournament form: only the chosen game's tie-breakers can be picked
    watched.goto(base + "/tournaments/new/")
    page.select_option("#id_ruleset", "btwixt")
    castles = page.locator("select[name^='tiebreaker_'] >> nth=0").locator("option[value='castles']")
    wait_until(page, lambda: castles.is_disabled(), "the castles tie-breaker disabled for B'Twixt")
    page.select_option("#id_ruleset", "agot")
    wait_until(page, lambda: castles.is_enabled(), "the castles tie-breaker back for the board game")

    # the tournament page opens its socket: the server accepts it (the page's script made it)
    watched.goto(f"{base}/tournaments/{staged['tournament']}/")
    assert page.locator("#tournament-live").get_attribute("data-socket") == f"/ws/tournaments/{staged['tournament']}/"

    # a new token, and its copy button
    watched.goto(base + "/accounts/tokens/")
    page.fill("input[name=name]", "csp script")
    page.click("main form.card button[type=submit]")
    key = page.locator(".new-token .token-key").inner_text()
    page.click("button.copy-token")
    page.wait_for_selector("button.copy-token >> text=Copied")
    assert page.evaluate("navigator.clipboard.readText()") == key

    # taking over a seat asks first; Cancel keeps the page, OK takes the seat
    watched.goto(base + "/games/needs-player/")
    questions: list[str] = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    page.click("button:has-text('Take the seat')")
    wait_until(page, lambda: questions, "the question before taking the seat")
    assert questions[0].startswith("Take over this seat?") and page.url == base + "/games/needs-player/"
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button:has-text('Take the seat')")
    page.wait_for_url(f"{base}/games/{staged['left']}/")
    page.wait_for_selector("#conn.on")

    # Swagger UI on the API docs, started by a static file; an operation opens
    watched.goto(base + "/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock")
    page.locator(".swagger-ui .opblock-summary").first.click()
    page.wait_for_selector(".swagger-ui .opblock.is-open")
    page.screenshot(path=str(artifacts / "csp-api-docs.png"))

    # the phone header's menu
    phone = new_page(390, 844)
    on_phone = Watched(phone)
    on_phone.goto(base + "/")
    phone.click(".menu-toggle")
    phone.wait_for_selector("#site-menu.open")
    assert phone.locator(".menu-toggle").get_attribute("aria-expanded") == "true"

    watched.clean()
    on_phone.clean()


def test_an_injected_script_is_refused_and_reported(live_asgi_server, new_page):
    """The policy is enforced, not reported only: a script put into the page does not run, an inline
    handler does not fire, and both are reported (so the test above can see a violation)."""
    page = new_page(1440, 900)
    watched = Watched(page)
    watched.goto(live_asgi_server.url + "/")
    page.evaluate("""() => {
      const s = document.createElement("script");
      s.textContent = "window.__injected = true";
      document.body.append(s);
      const b = document.createElement("button");
      b.id = "injected-button";
      b.setAttribute("onclick", "window.__clicked = true");
      b.textContent = "injected";
      document.body.append(b);
    }""")
    page.click("#injected-button")
    wait_until(page, lambda: len(page.evaluate("window.__cspViolations")) >= 2, "the two reports")
    assert page.evaluate("window.__injected === undefined && window.__clicked === undefined")
    watched.collect("home")
    assert all("script-src" in v for v in watched.events), watched.events
    wait_until(page, lambda: len(watched.console) >= 2, "Chromium's console messages about the policy")
