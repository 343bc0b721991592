"""The card-game tournament page's list of players shows each player's deck as the rules allow (issue 30), the
same as the API (tournaments/services.py deck_words with no viewer): its House and agenda always, in words; the
whole list, by type with the count of each card, only when the tournament chose open deck lists. In English and
Spanish; the page kept for everyone but the organizers says the same as the organizers' page."""
from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.lcg import data
from tests.factories import api_client_for, make_user
from tests.test_lcg_saved_decks_play import save

pytestmark = pytest.mark.django_db

DRAGONS = "targaryen_lion_fire_and_gold"  # a ready-made Targaryen deck with an agenda (Banner of the Lion)


def event(org_user, **fields) -> int:
    response = api_client_for(org_user).post("/api/v1/tournaments", {
        "name": "Joust", "ruleset": "lcg", "format": "swiss", "seats_per_table": 2, "rounds": 2, **fields},
        format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def register(user, tid, deck):
    response = api_client_for(user).post(f"/api/v1/tournaments/{tid}/register", {"deck": deck}, format="json")
    assert response.status_code == 201, response.json()


def players_part(client: Client, tid: int) -> str:
    """The text of the page's list of players (the last <ul class="registrations">), tags out."""
    page = client.get(reverse("tournament", args=[tid])).content.decode()
    part = page[page.index('<ul class="registrations">'):]
    part = part[:part.index("</ul>")]
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", part))).strip()


def client_for(user=None, language="en") -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    client.cookies["django_language"] = language
    return client


def dragons() -> dict:
    deck = data.all_decks()[DRAGONS]
    return {"faction": deck["faction"], "agenda": deck["agenda"], "plots": list(deck["plots"]),
            "draw": list(deck["draw"])}


def only_in(deck: dict) -> str:
    """A card of the deck's draw deck no other registered deck of these tests holds (its name on the page)."""
    others = set(data.all_decks()["secrets_and_schemes"]["draw"])
    cards = data.cards()
    return next(cards[c]["name"] for c in deck["draw"] if c not in others and cards[c]["faction"] == "targaryen")


@pytest.mark.parametrize("language", ["en", "es"])
def test_closed_lists_show_each_players_house_and_agenda_and_no_card(language):
    org, alys, bran, watcher = make_user(), make_user(), make_user(), make_user()
    hers = save(alys, "Dragons of mine", **dragons())
    tid = event(org)
    register(alys, tid, f"deck:{hers.pk}")
    register(bran, tid, "secrets_and_schemes")
    said = {"en": ("Deck: House Targaryen, with Banner of the Lion.", "Deck: Secrets and Schemes"),
            "es": ("Mazo: Casa Targaryen, con Banner of the Lion.", "Mazo: Secrets and Schemes")}[language]
    secret = only_in(dragons())
    # a player, a visitor, the organizer (whose page is rendered afresh), the deck's owner: the same public words
    for viewer in (bran, watcher, None, org, alys):
        text = players_part(client_for(viewer, language), tid)
        assert said[0] in text, text
        assert said[1] in text, text
        assert secret not in text and "Dragons of mine" not in text, text
        assert {"en": "Deck list", "es": "Lista del mazo"}[language] not in text


@pytest.mark.parametrize("language", ["en", "es"])
def test_open_lists_show_the_whole_list_by_type_with_counts(language):
    org, alys, bran = make_user(), make_user(), make_user()
    cards = dragons()
    hers = save(alys, "Dragons of mine", **cards)
    tid = event(org, options={"open_decklists": True})
    register(alys, tid, f"deck:{hers.pk}")
    register(bran, tid, "secrets_and_schemes")
    text = players_part(client_for(bran, language), tid)
    words = {"en": ("Deck: House Targaryen, with Banner of the Lion.", "Deck list", "Plots (7)", "Characters ("),
             "es": ("Mazo: Casa Targaryen, con Banner of the Lion.", "Lista del mazo", "Tramas (7)", "Personajes (")}
    for said in words[language]:
        assert said in text, text
    names = data.cards()
    secret = next(c for c in cards["draw"] if names[c]["name"] == only_in(cards))
    assert f"{cards['draw'].count(secret)}× {names[secret]['name']}" in text, text
    assert "Dragons of mine" not in text  # the deck's name stays its owner's
    # the ready-made deck's list is shown with the others' when the lists are open
    ready = data.all_decks()["secrets_and_schemes"]
    one = next(c for c in ready["draw"] if names[c]["faction"] == "lannister")
    assert f"{ready['draw'].count(one)}× {names[one]['name']}" in text, text


def test_a_board_game_tournament_shows_no_deck():
    org, alys = make_user(), make_user()
    response = api_client_for(org).post("/api/v1/tournaments", {
        "name": "Siege", "ruleset": "agot", "format": "swiss", "seats_per_table": 3, "rounds": 1}, format="json")
    tid = response.json()["id"]
    assert api_client_for(alys).post(f"/api/v1/tournaments/{tid}/register").status_code == 201
    text = players_part(client_for(alys), tid)
    assert alys.username in text and "Deck" not in text
