"""The card game's per-player action windows (issue 30, as throneteki's "Action windows" user setting;
rules/lcg.md L90): the account says which action windows ask the player, with throneteki's defaults
(after attackers and after defenders are declared); the profile page and the API change it, in English
and Spanish; a game carries its players' settings as the option `action_windows` when it starts (a
computer seat: every window), and a lobby cannot set it for them.
"""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import get_ruleset
from games.engine.lcg import prompts
from games.models import Lobby
from games.services.play import do_create_game
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db

R = get_ruleset("lcg")
DECKS = {"decks": ["the_old_ways", "secrets_and_schemes"]}


def test_a_new_account_has_throneteki_defaults_and_the_api_changes_them():
    user = make_user()
    assert user.action_windows == ["after_attackers", "after_defenders"] == list(prompts.DEFAULT_ACTION_WINDOWS)
    client = api_client_for(user)
    assert client.get("/api/v1/me").json()["action_windows"] == ["after_attackers", "after_defenders"]
    answer = client.patch("/api/v1/me", {"action_windows": ["taxation", "plot"]}, format="json")
    assert answer.status_code == 200 and answer.json()["action_windows"] == ["plot", "taxation"]
    user.refresh_from_db()
    assert user.action_windows == ["plot", "taxation"]


def test_an_unknown_window_is_refused_and_changes_nothing():
    user = make_user()
    answer = api_client_for(user).patch("/api/v1/me", {"action_windows": ["marshaling"]}, format="json")
    assert answer.status_code == 400 and "action_windows" in answer.json()["fields"]
    user.refresh_from_db()
    assert user.action_windows == ["after_attackers", "after_defenders"]


@pytest.mark.parametrize("language, legend, box, help_words", [
    ("en", "Action windows you are asked in", "After defenders are declared",
     "tells nothing about your hand"),
    ("es", "Ventanas de acción en las que se te pregunta", "Tras declarar los defensores",
     "no dice nada de tu mano"),
])
def test_the_profile_page_sets_them(language, legend, box, help_words):
    user = make_user(language=language)
    client = Client()
    client.force_login(user)
    page = client.get(reverse("profile")).content.decode()
    assert legend in page and box in page and help_words in page
    for name in prompts.ACTION_WINDOWS:
        checked = page.split(f'id="action-window-{name}"')[1][:12].strip().startswith("checked")
        assert checked is (name in prompts.DEFAULT_ACTION_WINDOWS)
    response = client.post(reverse("action-windows"), {"action_windows": ["draw", "dominance", "nonsense"]})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.action_windows == ["draw", "dominance"]
    client.post(reverse("action-windows"), {})
    user.refresh_from_db()
    assert user.action_windows == []


def test_the_setting_needs_a_logged_in_player():
    response = Client().post(reverse("action-windows"), {"action_windows": ["plot"]})
    assert response.status_code == 302 and "login" in response["Location"]


def test_a_game_carries_its_players_settings_when_it_starts():
    """Each seat's windows are its player's when the game starts; a computer seat is asked in every
    window; a change made later leaves the game as it started (its log replays)."""
    alys, bran = make_user(), make_user(action_windows=["plot", "dominance"])
    game = do_create_game(ruleset="lcg", seating={"p1": alys, "p2": bran}, options=dict(DECKS), seed=11)
    chosen = {"p1": ["after_attackers", "after_defenders"], "p2": ["plot", "dominance"]}
    assert game.options["action_windows"] == chosen == game.state["options"]["action_windows"]
    alys.action_windows = []
    alys.save()
    game.refresh_from_db()
    assert game.options["action_windows"]["p1"] == ["after_attackers", "after_defenders"]
    replayed = R.new_game(game.seat_names(), game.options, game.seed)
    assert replayed["options"]["action_windows"] == chosen
    with_computer = do_create_game(ruleset="lcg", seating={"p1": alys, "p2": None}, options=dict(DECKS), seed=12)
    assert with_computer.options["action_windows"] == {"p1": []}


def test_a_lobby_cannot_set_a_players_windows():
    alys = make_user()
    answer = api_client_for(alys).post(reverse("api-lobbies"), {
        "ruleset": "lcg", "seats": 2, "time_limit": 3600, "options": {"action_windows": {"p2": []}}}, format="json")
    assert answer.status_code == 400 and "options" in answer.json()["fields"]
    assert not Lobby.objects.exists()
