"""A Content-Security-Policy with no inline script (issue 28, "Accounts and tokens"): every page a
person opens sends an enforced policy whose scripts come only from the site itself (no
'unsafe-inline', no 'unsafe-eval'), and no page carries a script the policy would block: no
<script> without src unless it is data (json_script, type application/json), no on*= handler, no
javascript: URL, and (styles from the site's stylesheets only) no <style> block or style attribute.
The browser half, that the pages' scripts run with no violation, is tests/browser/test_csp_in_browser.py."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from challenges.models import Challenge, Invite
from games.models import Game, GameSeat, Lobby, LobbyMember
from ratings.models import Rating
from tests.factories import make_game, make_user
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
SEATS = {"agot": 3, "btwixt": 3, "lcg": 2, "minis": 2}
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "data")


def policy(response) -> dict[str, list[str]]:
    """The response's enforced Content-Security-Policy as {directive: [sources]}."""
    header = response.headers.get("Content-Security-Policy")
    assert header, f"{response.request['PATH_INFO']} sends no Content-Security-Policy header"
    directives = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


class InlineCode(HTMLParser):
    """What a strict policy would block in a page: inline scripts (a <script> without src that is not
    application/json data), event-handler attributes, javascript: URLs, inline styles."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.scripts = self.data_blocks = 0
        self._in_script: str | None = None

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>: an inline event handler")
            if name in URL_ATTRIBUTES and value and re.sub(r"[\s\x00-\x1f]", "", value).lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value!r}>: a javascript: URL")
            if name == "style":
                self.found.append(f"<{tag} style={value!r}>: a style attribute")
        if tag == "style":
            self.found.append("<style>: an inline style block")
        if tag == "script":
            kind = (values.get("type") or "").strip().lower()
            if values.get("src"):
                self.scripts += 1
            elif kind == "application/json":
                self.data_blocks += 1
            else:
                self.found.append(f"<script type={kind or 'none'!r}> without src: an inline script")
            self._in_script = tag

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = None


def inline_code(html: str) -> InlineCode:
    parser = InlineCode()
    parser.feed(html)
    parser.close()
    return parser


def test_the_checker_finds_what_the_policy_blocks():
    page = ('<script>alert(1)</script><script type="module">x()</script><script type="application/json">{}</script>'
            '<script src="/static/js/a.js"></script><button onclick="go()">Go</button><form onsubmit="return 0">'
            '<a href=" JavaScript:go()">x</a><p style="color:red">x</p><style>p{}</style>')
    found = inline_code(page)
    assert len(found.found) == 7, found.found
    assert (found.scripts, found.data_blocks) == (1, 1)
    assert not inline_code('<script src="/a.js"></script><a href="/javascript/">x</a><p data-on="1">x</p>').found


@pytest.fixture
def site():
    """A player with a game of each ruleset in progress, a finished one, a lobby, a tournament, a
    challenge each way, a rating, and a game whose seat waits for a substitute."""
    me, others = make_user(), [make_user() for _ in range(4)]
    games = {ruleset: make_game(seats, ruleset=ruleset, seed=11, users=[me, *others[:seats - 1]])
             for ruleset, seats in SEATS.items()}
    finished = make_game(2, ruleset="lcg", seed=12, users=[me, others[0]])
    finished.status, finished.ranking, finished.finished_at = Game.Status.FINISHED, ["p1", "p2"], timezone.now()
    finished.deadline_at = None
    finished.save()
    abandoned = make_game(3, ruleset="agot", seed=13, users=others[1:4])
    GameSeat.objects.filter(game=abandoned, user=others[3]).update(is_bot=True, left_at=timezone.now())
    lobby = Lobby.objects.create(ruleset="agot", creator=others[0], seat_count=3, time_limit=3600)
    LobbyMember.objects.create(lobby=lobby, user=others[0])
    cup = Tournament.objects.create(name="Cup", ruleset="agot", seats_per_table=3, organizer=others[1])
    Registration.objects.create(tournament=cup, user=me)
    for challenger, invited in ((others[0], me), (me, others[1])):
        challenge = Challenge.objects.create(challenger=challenger, ruleset="lcg", time_limit=3600,
                                             expires_at=timezone.now() + timedelta(days=1))
        Invite.objects.create(challenge=challenge, user=invited)
    Rating.objects.create(user=me, ruleset="agot", rating=1520, games=3, last_played=timezone.now())
    return {"me": me, "games": games, "finished": finished, "lobby": lobby, "tournament": cup,
            "other": others[0]}


def page_urls(site) -> list[str]:
    """Every page a person opens, logged in."""
    games = site["games"]
    return [
        "/", "/lobbies/", "/lobbies/new/", f"/lobbies/{site['lobby'].pk}/",
        *(f"/play/{ruleset}/" for ruleset in SEATS),
        *(f"/games/{games[ruleset].pk}/" for ruleset in SEATS),
        f"/games/{site['finished'].pk}/replay", "/games/", "/games/needs-player/",
        "/accounts/profile/", f"/users/{site['other'].username}/", "/accounts/tokens/", "/accounts/notifications/",
        "/accounts/password/change/",
        "/leaderboards/", "/leaderboards/agot/", "/tournaments/", "/tournaments/new/",
        f"/tournaments/{site['tournament'].pk}/", "/challenges/", f"/challenges/new/{site['other'].username}/",
        "/bots/", "/api/docs/",
    ]


PUBLIC_PAGES = ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/", "/lobbies/",
                "/leaderboards/", "/tournaments/", "/api/docs/", "/admin/login/"]


def assert_strict(response, url: str) -> None:
    directives = policy(response)
    script = directives.get("script-src", directives.get("default-src"))
    assert script == ["'self'"], f"{url}: script-src {script}"
    for directive, sources in directives.items():
        assert "'unsafe-eval'" not in sources, f"{url}: {directive} allows eval"
        if directive.startswith("script-src") or directive == "default-src":
            assert "'unsafe-inline'" not in sources, f"{url}: {directive} allows inline script"
    assert directives["default-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"], url
    assert directives["base-uri"] == ["'self'"] and directives["form-action"] == ["'self'"], url
    assert directives["img-src"] == ["'self'", "data:"], url
    assert directives["style-src"] == ["'self'"], url
    # the page's own websocket origin and nothing else beside 'self' (westeros/csp.py)
    assert directives["connect-src"] == ["'self'", "ws://testserver", "wss://testserver"], url
    assert "Content-Security-Policy-Report-Only" not in response.headers, f"{url}: the policy is enforced"


def test_every_page_sends_the_policy_and_carries_no_inline_code(site):
    client = Client()
    client.force_login(site["me"])
    checked = 0
    for url in page_urls(site):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_strict(response, url)
        found = inline_code(response.content.decode())
        assert not found.found, f"{url}: {found.found}"
        checked += 1
    assert checked == len(page_urls(site))


def test_the_pages_scripts_are_files_and_their_data_is_json(site):
    """The pages that had inline scripts still load their code, now as files, with the data in
    json_script blocks or data- attributes."""
    client = Client()
    client.force_login(site["me"])
    # the phone menu on every page
    home = client.get("/").content.decode()
    assert "/static/js/site_menu.js" in home and 'class="menu-toggle"' in home
    # the tournament page's socket path
    page = client.get(f"/tournaments/{site['tournament'].pk}/").content.decode()
    assert f'data-socket="/ws/tournaments/{site["tournament"].pk}/"' in page and "/static/js/tournament_live.js" in page
    # the tournament form's tie-breakers per game: data, and the code that reads it
    form = client.get("/tournaments/new/").content.decode()
    assert '<script id="ruleset-tiebreakers" type="application/json">' in form and "/static/js/tournament_form.js" in form
    assert inline_code(form).data_blocks == 1
    # the challenges page follows the challenges sent
    assert "/static/js/challenges_follow.js" in client.get("/challenges/").content.decode()
    # taking over a seat asks first, with the sentence in a data- attribute
    seats = client.get("/games/needs-player/").content.decode()
    assert 'data-confirm="Take over this seat?' in seats and "/static/js/confirm_submit.js" in seats
    assert "Take the seat" in seats
    # a new token's copy button
    created = client.post("/accounts/tokens/", {"name": "script"})
    page = client.get("/accounts/tokens/") if created.status_code == 302 else created
    text = page.content.decode()
    assert 'class="copy-token"' in text and "/static/js/copy_token.js" in text, "the new token's page"
    assert not inline_code(text).found
    assert_strict(page, "/accounts/tokens/ with a new token")


def test_the_api_docs_start_swagger_from_static_files(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    found = inline_code(html)
    assert not found.found, found.found
    assert found.scripts >= 3 and "/static/js/api_docs.js" in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    # the settings Swagger UI starts with, as data
    assert '<script id="swagger-ui-settings" type="application/json">' in html
    assert 'data-schema-url="/api/schema/"' in html
    # every script and stylesheet the page loads is the site's own
    for source in re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', html):
        assert source.startswith(("/", "data:")), source


@pytest.mark.parametrize("url", PUBLIC_PAGES)
def test_public_pages_send_the_policy(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    assert_strict(response, url)
    found = inline_code(response.content.decode())
    assert not found.found, f"{url}: {found.found}"


def test_the_admin_needs_no_exception(admin_client):
    """Django's admin runs under the same policy: its pages carry no inline script either."""
    from accounts.models import User

    user = User.objects.get(username="admin")
    for url in ("/admin/", "/admin/accounts/user/", "/admin/accounts/user/add/", f"/admin/accounts/user/{user.pk}/change/",
                "/admin/games/game/"):
        response = admin_client.get(url)
        assert response.status_code == 200, url
        assert_strict(response, url)
        found = inline_code(response.content.decode())
        assert not found.found and found.scripts, f"{url}: {found.found}"


def test_api_answers_still_work_and_carry_the_policy(logged_in, site):
    for url in ("/api/v1/me", "/api/v1/lobbies", f"/api/v1/games/{site['games']['agot'].pk}"):
        response = logged_in.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("application/json")
        assert_strict(response, url)
    schema = logged_in.get("/api/schema/")
    assert schema.status_code == 200 and b"openapi" in schema.content
    # an API error too, and a page that is not found
    assert logged_in.get("/api/v1/games/999999").status_code == 404
    assert logged_in.get("/api/v1/nothing-here").status_code == 404


def test_a_host_django_refuses_gets_self_alone(settings):
    """The websocket origin comes from the request's host only once Django has accepted it."""
    from django.test import RequestFactory

    settings.ALLOWED_HOSTS = ["localhost"]  # as DEBUG's default has it (a CI run sets its own hosts)

    from westeros.csp import websocket_sources

    factory = RequestFactory()
    assert websocket_sources(factory.get("/", HTTP_HOST="localhost")) == ["ws://localhost", "wss://localhost"]
    assert websocket_sources(factory.get("/", HTTP_HOST="evil.example")) == []


def test_no_template_holds_inline_script_or_handlers():
    """Every template file, rendered or not: a <script> without src is only ever json_script's (which
    templates write as a filter), no on*= attribute, no javascript: URL, no <style> block."""
    folders = [ROOT / "templates", *ROOT.glob("*/templates")]
    offenders = []
    checked = 0
    for folder in folders:
        for path in folder.rglob("*.html"):
            text = path.read_text()
            checked += 1
            for tag in re.findall(r"<script\b[^>]*>", text, flags=re.I):
                if "src=" not in tag and "application/json" not in tag:
                    offenders.append(f"{path.relative_to(ROOT)}: {tag}")
            for attr in re.findall(r"<[a-z][^>]*\s(on[a-z]+)\s*=", text, flags=re.I):
                offenders.append(f"{path.relative_to(ROOT)}: {attr}=")
            if re.search(r"javascript:", text, flags=re.I):
                offenders.append(f"{path.relative_to(ROOT)}: javascript: URL")
            if re.search(r"<style\b", text, flags=re.I) or re.search(r"\sstyle\s*=", text, flags=re.I):
                offenders.append(f"{path.relative_to(ROOT)}: inline style")
    assert checked >= 40
    assert not offenders, offenders


def test_a_report_address_from_the_environment():
    """CSP_REPORT_URI (off by default) adds report-uri to the enforced policy."""
    code = ("from django.conf import settings as s; import json; "
            "print(json.dumps(s.CONTENT_SECURITY_POLICY['DIRECTIVES'].get('report-uri')))")
    env = {k: v for k, v in os.environ.items() if k != "CSP_REPORT_URI"}
    env["DJANGO_SETTINGS_MODULE"] = "westeros.settings"
    off = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    on = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**env, "CSP_REPORT_URI": "/csp-reports/"},
                        capture_output=True, text=True, timeout=60)
    assert off.returncode == 0 and on.returncode == 0, off.stderr + on.stderr
    assert off.stdout.strip() == "null"
    assert on.stdout.strip() == '["/csp-reports/"]'
