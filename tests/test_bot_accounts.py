"""Bot accounts (issue 21, "Bot accounts and the event stream"): an account without ranked games
becomes a bot account for good (API and the tokens page, confirmed by typing the username); a bot
acts only through the API with a token (its browser session may read, never act: 403 bot_api_only
in the API's error shape); it is shown as BOT on the pages and `bot: true` in the API; bots are
rated in the same pool as people, marked (docs/bots.md)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from games.engine import get_ruleset
from games.models import Game
from ratings.models import Rating
from tests.factories import make_game, make_lobby, make_token, make_user

pytestmark = pytest.mark.django_db
AGOT = get_ruleset("agot")
UPGRADE = "/api/v1/bot/account/upgrade"


def token_client(user) -> APIClient:
    _, key = make_token(user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def session_client(user) -> Client:
    client = Client(enforce_csrf_checks=False)
    client.force_login(user)
    return client


def make_bot(**kwargs) -> User:
    bot = make_user(**kwargs)
    bot.is_bot = True
    bot.bot_since = timezone.now()
    bot.save()
    return bot


def assert_error(response, status: int, code: str):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) >= {"error", "detail", "fields"}
    assert body["error"] == code
    return body


def test_an_account_without_ranked_games_becomes_a_bot_for_good():
    user = make_user()
    client = token_client(user)
    assert client.get("/api/v1/me").json()["bot"] is False
    response = client.post(UPGRADE)
    assert response.status_code == 200, response.content
    assert response.json()["bot"] is True
    user.refresh_from_db()
    assert user.is_bot and user.bot_since is not None
    assert client.get("/api/v1/me").json()["bot"] is True
    assert_error(client.post(UPGRADE), 409, "already_bot")


def test_an_account_with_a_ranked_game_cannot_become_a_bot():
    user = make_user()
    make_game(users=[user, make_user(), make_user()], ranked=True)
    body = assert_error(token_client(user).post(UPGRADE), 409, "has_rated_games")
    assert "ranked" in body["detail"]
    user.refresh_from_db()
    assert not user.is_bot


def test_casual_games_do_not_prevent_the_upgrade():
    user = make_user()
    make_game(users=[user, make_user(), make_user()], ranked=False)
    assert token_client(user).post(UPGRADE).status_code == 200


def test_the_upgrade_needs_an_account():
    assert_error(APIClient().post(UPGRADE), 401, "not_authenticated")


def test_the_tokens_page_upgrades_after_the_username_is_typed():
    user = make_user(username="deepraven")
    client = session_client(user)
    page = client.get("/accounts/tokens/").content.decode()
    assert "Bot account" in page and "cannot be undone" in page and "Turn deepraven into a bot account" in page
    wrong = client.post("/accounts/tokens/bot/", {"confirm": "someone else"})
    assert wrong.status_code == 400
    assert "Type your username, deepraven, exactly" in wrong.content.decode()
    user.refresh_from_db()
    assert not user.is_bot
    done = client.post("/accounts/tokens/bot/", {"confirm": "deepraven"}, follow=True)
    assert done.status_code == 200
    assert "is now a bot account" in done.content.decode()
    user.refresh_from_db()
    assert user.is_bot
    assert "This is a bot account since" in client.get("/accounts/tokens/").content.decode()


def test_the_tokens_page_says_why_an_account_with_ranked_games_cannot_be_a_bot():
    user = make_user()
    make_game(users=[user, make_user(), make_user()], ranked=True)
    page = session_client(user).get("/accounts/tokens/").content.decode()
    assert "only an account without any ranked game can become a bot" in page
    assert 'action="/accounts/tokens/bot/"' not in page


def test_a_bots_browser_session_may_read_but_not_act():
    bot = make_bot()
    game = make_game(users=[bot, make_user(), make_user()])
    seat = game.seats.get(user=bot).seat
    session = session_client(bot)
    assert session.get(f"/api/v1/games/{game.pk}").status_code == 200
    action = {"version": 0, "action": AGOT.default_action(game.state, seat)}
    refused = session.post(f"/api/v1/games/{game.pk}/actions", action, content_type="application/json")
    body = assert_error(refused, 403, "bot_api_only")
    assert "only through the API with a token" in body["detail"]
    assert Game.objects.get(pk=game.pk).version == 0
    lobby = session.post("/api/v1/lobbies", {"ruleset": "agot", "seats": 3, "time_limit": 3600},
                         content_type="application/json")
    assert_error(lobby, 403, "bot_api_only")
    # the site's own forms too (not under /api/): a sentence instead of JSON
    page = session.post(f"/lobbies/{make_lobby().pk}/join")
    assert page.status_code == 403 and "bot account" in page.content.decode()
    # with its token the same action is played
    played = token_client(bot).post(f"/api/v1/games/{game.pk}/actions", action, format="json")
    assert played.status_code == 200, played.content
    assert Game.objects.get(pk=game.pk).version >= 1


def test_a_bots_session_still_manages_its_tokens():
    bot = make_bot()
    session = session_client(bot)
    assert session.post("/accounts/tokens/", {"name": "engine"}).status_code == 200
    assert bot.active_tokens().filter(name="engine").exists()


def test_a_bot_is_marked_in_the_api():
    bot, person = make_bot(username="ironbot"), make_user(username="person")
    lobby = make_lobby(creator=bot)
    api = token_client(person)
    body = api.get(f"/api/v1/lobbies/{lobby.pk}").json()
    assert body["creator_bot"] is True
    assert body["members"][0]["user"] == "ironbot" and body["members"][0]["bot"] is True
    game = make_game(users=[bot, person, make_user()])
    rows = {row["user"]: row for row in api.get(f"/api/v1/games/{game.pk}").json()["seats"]}
    assert rows["ironbot"]["bot_account"] is True and rows["person"]["bot_account"] is False
    assert rows["ironbot"]["is_bot"] is False  # still played by its program, not the engine
    assert api.get("/api/v1/users/ironbot").json()["bot"] is True
    assert api.get("/api/v1/users/person").json()["bot"] is False


def test_bots_are_rated_in_the_same_pool_and_marked_on_the_leaderboard():
    bot, person = make_bot(username="ironbot"), make_user(username="person")
    for user, rating in ((bot, 1600), (person, 1500)):
        Rating.objects.create(user=user, ruleset="agot", rating=rating, games=20,
                              last_played=timezone.now() - timedelta(days=1))
    api = APIClient()
    everyone = api.get("/api/v1/ratings/agot").json()["results"]
    assert [(e["username"], e["bot"]) for e in everyone] == [("ironbot", True), ("person", False)]
    assert [e["username"] for e in api.get("/api/v1/ratings/agot", {"bots": "false"}).json()["results"]] == ["person"]
    assert [e["username"] for e in api.get("/api/v1/ratings/agot", {"bots": "true"}).json()["results"]] == ["ironbot"]
    assert_error(api.get("/api/v1/ratings/agot", {"bots": "maybe"}), 400, "invalid")
    page = Client().get("/leaderboards/agot/").content.decode()
    assert page.count('class="bot-badge"') == 1


def test_bot_is_shown_on_the_pages():
    bot = make_bot(username="ironbot")
    lobby = make_lobby(creator=bot)
    viewer = session_client(make_user())
    for url in ("/users/ironbot/", f"/lobbies/{lobby.pk}/", "/lobbies/", "/"):
        page = viewer.get(url).content.decode()
        assert 'class="bot-badge"' in page and ">BOT<" in page, url
    person = make_user(username="plainname")
    assert 'class="bot-badge"' not in viewer.get("/users/plainname/").content.decode()
    assert person.is_bot is False


def test_the_bots_page_lists_the_games_a_bot_played_at_once_after_a_new_one():
    """The bots page keeps each bot's games by ruleset in the cache under its newest game
    (challenges/views.py, issue 27): a new game makes a new entry, so the page is never behind."""
    bot = make_bot(username="tallybot")
    make_game(2, ruleset="lcg", users=[bot, make_user()])
    viewer = Client()

    def games_cell() -> str:
        page = viewer.get("/bots/").content.decode()
        row = page[page.index("tallybot"):]
        return row[:row.index("</tr>")]

    assert "Twixt" not in games_cell()
    make_game(3, ruleset="btwixt", users=[bot, make_user(), make_user()])
    assert "Twixt" in games_cell()
