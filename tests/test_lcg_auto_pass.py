"""The card game's per-player "pass for me when I hold nothing playable" and the lobby's "open deck
lists" (issue 30).

- The setting is the player's (account), off by default, set on the profile page (which says that the
  opponent may infer it from the timing, in English and Spanish) and in the API (`/api/v1/me`); a bad
  value is a 400 in the API's error shape that changes nothing.
- With it on, the server passes that player's action, interrupt and reaction windows at once when
  their real hand and cards in play hold nothing usable there (games/services/play.py); with it off
  the player is asked as the public judgement says (L90, L91-L98).
- A card-game lobby may choose open deck lists (form and API): the game's option `open_decklists`.
"""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import get_ruleset
from games.models import Game, GameAction, Lobby
from games.services.play import do_create_game, do_submit_action
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db

R = get_ruleset("lcg")
WINDOWS = ("action", "interrupt", "reaction")


# ------------------------------------------------------------------ the setting


def test_the_setting_is_off_by_default_and_the_api_changes_it():
    user = make_user()
    client = api_client_for(user)
    me = client.get("/api/v1/me").json()
    assert me["auto_pass"] is False
    answer = client.patch("/api/v1/me", {"auto_pass": True}, format="json")
    assert answer.status_code == 200 and answer.json()["auto_pass"] is True
    user.refresh_from_db()
    assert user.auto_pass is True


def test_a_bad_value_is_refused_and_changes_nothing():
    user = make_user()
    answer = api_client_for(user).patch("/api/v1/me", {"auto_pass": "sometimes"}, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert "auto_pass" in body["fields"]
    user.refresh_from_db()
    assert user.auto_pass is False


@pytest.mark.parametrize("language, words, warning", [
    ("en", "Pass for me when I hold nothing playable", "Your opponent may guess from how quickly you pass"),
    ("es", "Pasar por mí cuando no tenga nada que jugar", "Tu rival puede deducir por la rapidez con que pasas"),
])
def test_the_profile_page_sets_it_and_says_what_the_opponent_may_infer(language, words, warning):
    user = make_user(language=language)
    client = Client()
    client.force_login(user)
    page = client.get(reverse("profile")).content.decode()
    assert words in page and warning in page
    assert 'name="auto_pass"' in page and "checked" not in page.split('id="auto-pass"')[1][:20]
    response = client.post(reverse("auto-pass"), {"auto_pass": "on"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.auto_pass is True
    page = client.get(reverse("profile")).content.decode()
    assert page.split('id="auto-pass"')[1][:20].strip().startswith("checked")
    client.post(reverse("auto-pass"), {})
    user.refresh_from_db()
    assert user.auto_pass is False


def test_the_setting_needs_a_logged_in_player():
    response = Client().post(reverse("auto-pass"), {"auto_pass": "on"})
    assert response.status_code == 302 and "login" in response["Location"]


# ------------------------------------------------------------------ the server applies it


def _play_until(game: Game, users: dict, stop, limit: int = 400) -> Game:
    """Submit the timeout default for whichever seat is pending, until `stop(game)`."""
    for _ in range(limit):
        game.refresh_from_db()
        if stop(game) or not game.is_active():
            return game
        seat = sorted(R.pending(game.state))[0]
        do_submit_action(game.pk, users[seat], action=R.default_action(game.state, seat), version=game.version)
    return game


def test_with_the_setting_on_the_server_passes_a_window_where_nothing_can_be_used():
    """L90: an action window where the player's real hand and cards in play allow nothing but pass
    is passed at once, as the player's own action; a window where they could act is asked."""
    alys, bran = make_user(auto_pass=True), make_user()
    game = do_create_game(ruleset="lcg", seating={"p1": alys, "p2": bran},
                          options={"decks": ["the_old_ways", "secrets_and_schemes"]}, seed=11)
    users = {"p1": alys, "p2": bran}
    checked = 0

    def stop(g):
        nonlocal checked
        d = g.state["decision"]
        if d and "p1" in d["seats"] and d["kind"] in WINDOWS:
            # whenever p1 waits on a window, it has something it could use there
            assert not R.nothing_to_play(g.state, "p1"), (d, g.state["phase"])
            checked += 1
        return GameAction.objects.filter(game=g, seat="p1", user=alys, action={"pass": True},
                                         source=GameAction.Source.PLAYER).count() >= 3 and checked >= 1

    game = _play_until(game, users, stop)
    passes = GameAction.objects.filter(game=game, seat="p1", action={"pass": True}, source=GameAction.Source.PLAYER)
    assert passes.count() >= 3  # the server passed for alys without her submitting anything
    assert checked >= 1


def test_with_the_setting_off_the_player_is_asked_even_with_nothing_to_play():
    """Off by default: the public judgement asks the seat (L90), whatever its hand; it then passes itself."""
    alys, bran = make_user(), make_user()
    game = do_create_game(ruleset="lcg", seating={"p1": alys, "p2": bran},
                          options={"decks": ["the_old_ways", "secrets_and_schemes"]}, seed=11)
    users = {"p1": alys, "p2": bran}

    def waiting_with_nothing(g):
        d = g.state["decision"]
        return bool(d and d["kind"] in WINDOWS and any(R.nothing_to_play(g.state, s) for s in d["seats"]))

    game = _play_until(game, users, waiting_with_nothing)
    assert waiting_with_nothing(game)
    seat = game.state["decision"]["seats"][0]
    assert R.legal_actions(game.state, seat) == [{"pass": True}]


# ------------------------------------------------------------------ open deck lists


LCG = {"ruleset": "lcg", "seats": 2, "time_limit": 3600}


def test_a_lobby_chooses_open_deck_lists_through_the_api():
    alys, bran = make_user(), make_user()
    body = api_client_for(alys).post(reverse("api-lobbies"), {**LCG, "options": {"open_decklists": True}},
                                     format="json").json()
    assert body["options"] == {"open_decklists": True}
    game = Game.objects.get(pk=api_client_for(bran).post(reverse("api-lobby-join", args=[body["id"]]), {},
                                                         format="json").json()["game"])
    assert game.state["options"]["open_decklists"] is True


def test_a_bad_open_deck_lists_value_is_refused_and_creates_nothing():
    alys = make_user()
    answer = api_client_for(alys).post(reverse("api-lobbies"), {**LCG, "options": {"open_decklists": "yes"}},
                                       format="json")
    assert answer.status_code == 400 and "options" in answer.json()["fields"]
    assert not Lobby.objects.exists()


def test_the_lobby_form_offers_open_deck_lists(logged_in):
    url = reverse("web-lobby-new")
    html = logged_in.get(url).content.decode()
    section = html[html.index('data-ruleset="lcg"><legend>'):]
    section = section[:section.index("</fieldset>")]
    assert 'name="open_decklists"' in section and "Open deck lists" in section
    assert "The learn-to-play decks are always open." in section
    response = logged_in.post(url, {"ruleset": "lcg", "name": "Open", "seats": "2", "time_limit": "3600",
                                    "house_choice": "random", "open_decklists": "on"})
    assert response.status_code == 302
    lobby = Lobby.objects.get()
    assert lobby.options == {"open_decklists": True}
    page = logged_in.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "open deck lists" in page


def test_without_the_box_the_lobby_leaves_the_engine_default(logged_in):
    response = logged_in.post(reverse("web-lobby-new"), {"ruleset": "lcg", "name": "Closed", "seats": "2",
                                                         "time_limit": "3600", "house_choice": "random"})
    assert response.status_code == 302
    assert Lobby.objects.get().options == {}
