"""The pages around the game (issue 15, "The log and the rest of the page"), in Chromium at 1440 and
390 px, with screenshots in test-artifacts/site-*.png: the lobby list and My games name the game and
give times in words; no page reachable from the header scrolls sideways at 390 px (logged in and
out); the skip link to the decision and the phone header's menu; the turn signal (tab title, favicon,
optional sound); rating charts with axes and values, leaderboard names linking to profiles, the copy
button for a new token, and the API docs inside the site's layout. Server: conftest.py."""
from __future__ import annotations

import itertools
import json
import re

import pytest

from tests.browser.util import PASSWORD, log_in

pytestmark = pytest.mark.browser

WIDTHS = {"desktop": (1440, 900), "phone": (390, 844)}
STAGINGS = itertools.count(1)


def stage_site(username: str, password: str) -> None:
    """Run in the live server's environment (`manage.py shell -c`): `username` plays an AGoT game
    against two bots, organizes a running Swiss tournament with long player names, has ranked
    rating history in both games; open lobbies of both games. Prints the ids as JSON."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import User
    from games.engine import get_ruleset
    from games.services.lobbies import LobbySettings, do_create_lobby
    from games.services.play import do_create_game
    from ratings.models import Rating, RatingChange
    from tournaments.services import TournamentSettings, do_create_tournament, do_register, do_start

    me = User.objects.create_user(username=username, email=f"{username}@example.com", password=password)
    others = [User.objects.create_user(username=f"{username[:12]}_{name}", email=f"{name}.{username}@example.com",
                                       password=password)
              for name in ("lady_catelyn_of_house_tully", "brienne", "davos", "samwell", "ygritte")]
    seats = get_ruleset("agot").seat_names(3)
    game = do_create_game(ruleset="agot", seating={s: (me if i == 0 else None) for i, s in enumerate(seats)},
                          time_limit=7200)
    bt_seats = get_ruleset("btwixt").seat_names(4)
    btwixt = do_create_game(ruleset="btwixt", seating={s: (me if i == 0 else None) for i, s in enumerate(bt_seats)},
                            seed=5)
    do_create_lobby(others[1], LobbySettings(ruleset="agot", seat_count=6, time_limit=86400,
                                             name="Six kings, one throne", ranked=True), join=True)
    do_create_lobby(others[2], LobbySettings(ruleset="btwixt", seat_count=4, time_limit=600), join=True)
    t = do_create_tournament(me, TournamentSettings(name="The Tourney at Harrenhal", seats_per_table=3, rounds=2,
                                                    time_limit=7200))
    for user in [me, *others]:
        do_register(t.pk, user)
    do_start(t.pk, me)
    # rating history: finished ranked games are staged as rating changes on the played game
    now = timezone.now()
    for ruleset, values in (("agot", [1500, 1516, 1531, 1522, 1547, 1560]), ("btwixt", [1500, 1488])):
        for i, (before, after) in enumerate(zip(values, values[1:], strict=False)):
            g = do_create_game(ruleset=ruleset, seating=dict.fromkeys(get_ruleset(ruleset).seat_names(
                3 if ruleset == "agot" else 4)))
            RatingChange.objects.create(user=me, game=g, ruleset=ruleset, seat="stark", placement=1, before=before,
                                        after=after, played_at=now - timedelta(days=10 - i))
        Rating.objects.create(user=me, ruleset=ruleset, rating=values[-1], games=len(values) - 1, last_played=now)
    for n, other in enumerate(others):
        Rating.objects.create(user=other, ruleset="agot", rating=1490 + 7 * n, games=12, last_played=now)
    print(json.dumps({"game": game.pk, "btwixt": btwixt.pk, "tournament": t.pk}))


@pytest.fixture(scope="module")
def site(live_asgi_server) -> dict:
    """One staged world for the module's tests: they read it (and add API tokens, a tab's sound
    setting, which no other test looks at), so staging it again for each test checks nothing more."""
    name = f"sitepages{next(STAGINGS)}"  # a module fixture is set up again when xdist comes back to the module
    out = live_asgi_server.manage(
        "shell", "-c", f"from tests.browser.test_site_pages import stage_site; stage_site({name!r}, {PASSWORD!r})")
    ids = json.loads(out.strip().splitlines()[-1])
    return {"user": name, **ids}


def sideways(page) -> tuple[int, list[str]]:
    """The page's scroll width and what sticks out past 390 px."""
    wide = page.evaluate("""[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 392
        && e.getClientRects().length && !e.closest('.table-scroll') && (!(e instanceof SVGElement) || e.tagName === 'svg'))
        .slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 40))""")
    return page.evaluate("document.documentElement.scrollWidth"), wide


def shoot(page, artifacts, name: str, full_page: bool = True) -> None:
    page.screenshot(path=str(artifacts / f"site-{name}.png"), full_page=full_page)


def test_lobby_list_and_my_games_name_the_game_in_words(live_asgi_server, site, new_page, artifacts):
    base = live_asgi_server.url
    for label, (width, height) in WIDTHS.items():
        page = new_page(width, height)
        log_in(page, base, site["user"])
        page.goto(base + "/lobbies/")
        lobbies = page.locator("table.lobbies").inner_text()
        assert "A Game of Thrones: The Board Game" in lobbies and "B'Twixt" in lobbies
        assert "Six kings, one throne" in lobbies and "'s lobby" in lobbies
        if label == "desktop":
            assert "1 day per decision" in lobbies and "10 minutes per decision" in lobbies
            assert not re.search(r"\d+ s\b", lobbies) and "lobby #" not in lobbies
        shoot(page, artifacts, f"lobbies-{label}")
        page.goto(base + "/games/")
        mine = page.locator("table.my-games").inner_text()
        assert "A Game of Thrones: The Board Game" in mine and "2 hours" in mine and "7200" not in mine
        shoot(page, artifacts, f"my-games-{label}")


def header_pages(page) -> list[str]:
    return page.eval_on_selector_all(".site-header a[href^='/']", "els => [...new Set(els.map(e => e.getAttribute('href')))]")


def test_no_page_scrolls_sideways_on_a_phone(live_asgi_server, site, new_page, artifacts):
    base = live_asgi_server.url
    page = new_page(390, 844, has_touch=True, is_mobile=True)
    extra = ["/accounts/signup/", "/accounts/login/", f"/tournaments/{site['tournament']}/"]
    page.goto(base + "/")
    logged_out = header_pages(page) + extra
    for path in logged_out:
        page.goto(base + path)
        width, wide = sideways(page)
        assert width <= 392, (path, wide)
    page.goto(base + "/")
    assert page.locator(".site-header").bounding_box()["height"] <= 56
    shoot(page, artifacts, "home-logged-out-phone", full_page=False)
    log_in(page, base, site["user"])
    page.goto(base + "/")
    logged_in = header_pages(page) + extra[2:] + [f"/users/{site['user']}/", "/tournaments/new/", "/lobbies/new/",
                                                   f"/games/{site['game']}/", f"/games/{site['btwixt']}/",
                                                   "/leaderboards/btwixt/", "/accounts/password/change/"]
    assert {"/accounts/tokens/", "/tournaments/", "/games/", "/api/docs/"} <= set(logged_in)
    for path in logged_in:
        page.goto(base + path)
        if path == "/api/docs/":
            page.wait_for_selector(".swagger-ui .opblock")
        width, wide = sideways(page)
        assert width <= 392, (path, wide)
    page.goto(f"{base}/tournaments/{site['tournament']}/")
    shoot(page, artifacts, "tournament-phone")
    page.goto(f"{base}/tournaments/")
    shoot(page, artifacts, "tournaments-phone")
    desktop = new_page(1440, 900)
    log_in(desktop, base, site["user"])
    desktop.goto(f"{base}/tournaments/{site['tournament']}/")
    shoot(desktop, artifacts, "tournament-desktop")


def test_skip_link_and_the_phone_header(live_asgi_server, site, new_page, artifacts):
    base = live_asgi_server.url
    for label, (width, height) in WIDTHS.items():
        page = new_page(width, height)
        log_in(page, base, site["user"])
        page.goto(f"{base}/games/{site['game']}/")
        page.wait_for_selector("#decision button")
        skip = page.locator("a.skip-link")
        assert skip.inner_text() == "Skip to your decision" and skip.get_attribute("href") == "#decision"
        assert skip.bounding_box()["y"] < 0  # out of sight until focused
        page.keyboard.press("Tab")  # the first thing the keyboard reaches
        assert page.evaluate("document.activeElement.className") == "skip-link"
        assert skip.bounding_box()["y"] >= 0
        shoot(page, artifacts, f"skip-link-{label}", full_page=False)
        page.keyboard.press("Enter")
        page.wait_for_function("location.hash === '#decision'")
        box = page.locator("#decision").bounding_box()
        assert -1 <= box["y"] < height  # scrolled to its top (less than a pixel off after zoomed layouts)
        header = page.locator(".site-header").bounding_box()
        if label == "phone":
            assert header["height"] <= 56, header  # one compact row
            assert page.locator(".site-header .nav-links").is_hidden()
            toggle = page.locator(".menu-toggle")
            toggle.focus()
            page.keyboard.press("Enter")
            assert toggle.get_attribute("aria-expanded") == "true"
            assert page.locator(".site-header a[href='/games/']").is_visible()
            assert page.evaluate("document.activeElement.getAttribute('href')") == "/lobbies/"
            page.evaluate("window.scrollTo(0, 0)")
            shoot(page, artifacts, "header-menu-phone", full_page=False)
            page.keyboard.press("Escape")
            assert toggle.get_attribute("aria-expanded") == "false" and page.locator(".site-header .nav-links").is_hidden()
        else:
            assert page.locator(".menu-toggle").is_hidden() and page.locator(".site-header a[href='/games/']").is_visible()
            assert header["height"] <= 60
    # other pages skip to their content
    page.goto(base + "/lobbies/")
    assert page.locator("a.skip-link").get_attribute("href") == "#content"


def favicon(page) -> str:
    return page.get_attribute("link[rel~='icon']", "href")


def test_turn_signal_title_favicon_and_sound(live_asgi_server, site, new_page, artifacts):
    base = live_asgi_server.url
    for label, (width, height) in WIDTHS.items():
        page = new_page(width, height)
        log_in(page, base, site["user"])
        page.goto(f"{base}/games/{site['game']}/")
        page.wait_for_selector("#decision button")
        # Stark's orders are pending: the tab says so and the icon is the red dot
        page.wait_for_function("document.title.startsWith('● Your move — ')")
        assert "d0302a" in favicon(page)
        toggle = page.locator("#turn-sound")
        assert toggle.get_attribute("aria-pressed") == "false" and "off" in toggle.inner_text()
        shoot(page, artifacts, f"turn-signal-{label}", full_page=False)
    # the sound: off by default, the toggle is remembered; it chimes when the turn comes back
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('westeros.turnSound')") == "on"
    chimes = page.evaluate("window.__westerosTurnChimes || 0")
    assert chimes == 1  # the sample played on switching it on
    page.reload()
    page.wait_for_selector("#decision button")
    assert page.locator("#turn-sound").get_attribute("aria-pressed") == "true"
    # not our move any more (as after submitting), then our move again: title, icon and one chime
    page.evaluate("""() => { const g = window.__westerosGame.state();
        WesterosTurn.update({...g, pending: {}}); }""")
    assert not page.title().startswith("●") and "d0302a" not in favicon(page)
    page.evaluate("WesterosTurn.update(window.__westerosGame.state())")
    assert page.title().startswith("● Your move — ") and "d0302a" in favicon(page)
    assert page.evaluate("window.__westerosTurnChimes") == 1
    # the B'Twixt page uses the same signal
    page.goto(f"{base}/games/{site['btwixt']}/")
    page.wait_for_function("window.__westerosGame.state() && window.WesterosTurn.yourTurn() !== null")
    mine = page.evaluate("(() => { const g = window.__westerosGame.state(); return Boolean(g.pending[g.your_seat]); })()")
    assert page.title().startswith("● Your move — ") == mine and ("d0302a" in favicon(page)) == mine
    assert page.locator("#turn-sound").get_attribute("aria-pressed") == "true"
    page.screenshot(path=str(artifacts / "site-turn-signal-btwixt.png"))
    # a spectator gets neither the signal nor the toggle
    spectator = new_page(1440, 900)
    spectator.goto(f"{base}/games/{site['game']}/")
    spectator.wait_for_selector("#decision >> text=Spectating")
    assert not spectator.title().startswith("●") and spectator.locator("#turn-sound").count() == 0


def test_charts_leaderboard_tokens_and_api_docs(live_asgi_server, site, new_page, artifacts):
    base = live_asgi_server.url
    for label, (width, height) in WIDTHS.items():
        page = new_page(width, height)
        log_in(page, base, site["user"])
        # rating charts: axes with rating values and game numbers, each point's value
        page.goto(f"{base}/users/{site['user']}/")
        chart = page.locator("figure.rating-chart").first
        labels = chart.locator("svg text").all_text_contents()
        assert {"1500", "1560"} <= set(labels), labels
        assert "Ranked games" in " ".join(labels) and "Rating" in " ".join(labels)
        assert chart.locator("svg line.axis").count() == 2 and chart.locator("svg circle.point").count() == 6
        assert "A Game of Thrones: The Board Game" in chart.locator("figcaption").inner_text()
        assert chart.locator("svg").bounding_box()["width"] <= width
        shoot(page, artifacts, f"rating-chart-{label}")
        # the leaderboard links each name to the public profile
        page.goto(base + "/leaderboards/")
        link = page.locator(f"table.leaderboard a[href='/users/{site['user']}/']")
        assert link.inner_text() == site["user"]
        shoot(page, artifacts, f"leaderboard-{label}")
        link.click()
        page.wait_for_url(f"{base}/users/{site['user']}/")
        # a new token: a copy button puts it on the clipboard
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.goto(base + "/accounts/tokens/")
        page.fill("input[name=name]", f"script on my {label}")
        page.click("main form.card button[type=submit]")
        key = page.locator(".new-token .token-key").inner_text()
        page.click("button.copy-token")
        page.wait_for_selector("button.copy-token >> text=Copied")
        assert page.evaluate("navigator.clipboard.readText()") == key
        shoot(page, artifacts, f"tokens-{label}")
        # the API docs: Swagger UI between the site's header and footer
        page.goto(base + "/api/docs/")
        page.wait_for_selector(".swagger-ui .opblock")
        assert page.locator(".site-header").is_visible() and page.locator(".site-footer").count() == 1
        assert page.locator("main > h1").inner_text() == "API documentation"
        page.screenshot(path=str(artifacts / f"site-api-docs-{label}.png"))
