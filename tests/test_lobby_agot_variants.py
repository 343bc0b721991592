"""The board game's variants (issue 34, docs/rules-decisions.md "AGoT variants") as lobby options:
the lobby form's switches reach the lobby, its page says them in words, and the game started from it
plays with them (games/engine/agot: random_starts, gift_power_tokens, draft_house_cards,
draft_tracks, fog_of_war, castles_to_win, rounds)."""
from __future__ import annotations

import html as html_lib
import re

import pytest
from django.urls import reverse

from games.models import Game, Lobby

pytestmark = pytest.mark.django_db

URL = reverse("web-lobby-new")
FORM = {"ruleset": "agot", "name": "Variants", "seats": "3", "time_limit": "3600", "house_choice": "random"}
SWITCHES = ("fog_of_war", "random_starts", "gift_power_tokens", "draft_house_cards", "draft_tracks")


def form_errors(response) -> str:
    match = re.search(r'<div class="errors" role="alert">(.*?)</div>', response.content.decode(), re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", match.group(1))) if match else ""


def test_the_form_offers_every_variant(logged_in):
    page = logged_in.get(URL).content.decode()
    for name in (*SWITCHES, "castles_to_win", "rounds"):
        assert f'name="{name}"' in page, name


def test_the_switches_make_a_lobby_and_a_game_with_the_variants(logged_in):
    response = logged_in.post(URL, {**FORM, **dict.fromkeys(SWITCHES, "on"), "castles_to_win": "6", "rounds": "8",
                                    "computer_seats": "2"})
    assert response.status_code == 302, form_errors(response)
    lobby = Lobby.objects.get()
    assert lobby.options == {**dict.fromkeys(SWITCHES, True), "castles_to_win": 6, "rounds": 8}
    page = html_lib.unescape(logged_in.get(reverse("web-lobby", args=[lobby.pk])).content.decode())
    for words in ("fog of war", "random start positions", "gifting power tokens", "house-card draft",
                  "Influence-track draft", "6 castles to win", "8 rounds"):
        assert words in page, words
    game = Game.objects.get(lobby=lobby)  # the creator and two computer players fill the table
    assert {k: game.options[k] for k in lobby.options} == lobby.options
    assert game.state["phase"] == "draft" and "homes" in game.state


def test_without_the_switches_the_options_stay_empty(logged_in):
    response = logged_in.post(URL, FORM)
    assert response.status_code == 302, form_errors(response)
    assert Lobby.objects.get().options == {}
