"""Card-game decks in the API (issue 30, /api/v1/decks): your saved decks and the ready-made ones; create,
rename, change, copy, delete; validate (legal or why not, in words, in the reader's language); import and export
ThronesDB's plain text. Bad input is a 4xx in the API's error shape that changes nothing; nobody sees or changes
another person's decks."""
from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.engine.lcg import data
from games.engine.lcg import decks as rules
from games.models import Deck
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db

FIRE = "targaryen_lion_fire_and_gold"


def _cards(key: str = FIRE) -> dict:
    d = data.all_decks()[key]
    return {"faction": d["faction"], "agenda": d["agenda"], "plots": list(d["plots"]), "draw": list(d["draw"])}


def _create(client, name="Mine", **cards):
    return client.post(reverse("api-decks"), {"name": name, **(cards or _cards())}, format="json")


def test_the_list_offers_the_ready_made_decks_to_everyone():
    body = APIClient().get(reverse("api-decks")).json()
    assert body["decks"] == []
    keys = [d["key"] for d in body["ready_made"]]
    assert FIRE in keys and "the_old_ways" in keys
    fire = next(d for d in body["ready_made"] if d["key"] == FIRE)
    assert fire["faction_name"] == "House Targaryen" and fire["agenda_name"] == "Banner of the Lion"
    assert fire["report"]["legal"] is True and fire["report"]["counts"]["draw"] == 60
    ready = [d for d in body["ready_made"] if d["report"]["legal"]]
    assert len(ready) == 8  # the eight constructed decks first, all legal
    assert keys[:8] == [d["key"] for d in ready]


def test_create_list_retrieve_rename_and_delete_a_deck():
    me = make_user()
    client = api_client_for(me)
    made = _create(client, name="Dragons")
    assert made.status_code == 201, made.json()
    deck = made.json()
    assert deck["name"] == "Dragons" and deck["report"]["legal"] is True and deck["faction"] == "targaryen"
    assert client.get(reverse("api-decks")).json()["decks"][0]["id"] == deck["id"]
    assert client.get(reverse("api-deck", args=[deck["id"]])).json()["draw"] == _cards()["draw"]
    renamed = client.patch(reverse("api-deck", args=[deck["id"]]), {"name": "Fire"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Fire"
    assert renamed.json()["draw"] == _cards()["draw"]  # the cards stay
    assert client.delete(reverse("api-deck", args=[deck["id"]])).status_code == 204
    assert not Deck.objects.filter(pk=deck["id"]).exists()


def test_an_illegal_deck_may_be_saved_and_its_report_says_why_in_words():
    client = api_client_for(make_user())
    cards = _cards()
    for card in [c for c in cards["draw"] if data.cards()[c]["faction"] == "targaryen"][:10]:
        cards["draw"].remove(card)
    deck = _create(client, **cards).json()
    assert deck["report"]["legal"] is False
    assert deck["report"]["problems"] == [{"rule": "L19", "text": "The draw deck has 50 cards; it needs at least 60."}]
    changed = client.patch(reverse("api-deck", args=[deck["id"]]), {"draw": _cards()["draw"]}, format="json").json()
    assert changed["report"]["legal"] is True


def test_validate_judges_without_saving_in_the_readers_language():
    cards = _cards()
    cards["plots"] = cards["plots"][:6]
    before = Deck.objects.count()
    en = APIClient().post(reverse("api-decks-validate"), cards, format="json")
    assert en.status_code == 200
    assert en.json()["problems"] == [{"rule": "L18", "text": "The plot deck has 6 plots; it needs exactly seven."}]
    es = APIClient().post(reverse("api-decks-validate"), cards, format="json", HTTP_ACCEPT_LANGUAGE="es")
    text = es.json()["problems"][0]["text"]
    assert text != en.json()["problems"][0]["text"] and "Tramas" in text, text
    assert Deck.objects.count() == before
    assert sum(en.json()["counts"]["by_type"].values()) == 60
    assert "House Targaryen" in en.json()["text"] and "Plots (6):" in en.json()["text"]  # to export it


def test_validate_says_which_cards_the_site_does_not_play_yet():
    report = APIClient().post(reverse("api-decks-validate"), _cards(), format="json").json()
    missing = rules.unplayable(_cards())
    assert report["playable"] is (not missing)
    assert report["unplayable"] == [data.cards()[c]["name"] for c in missing]
    if missing:
        assert report["unplayable_text"].startswith(("These cards cannot be played on the site yet:",
                                                     "This card cannot be played on the site yet:"))


def test_copy_a_ready_made_deck_and_a_deck_of_your_own():
    me = make_user()
    client = api_client_for(me)
    copied = client.post(reverse("api-ready-deck-copy", args=[FIRE]))
    assert copied.status_code == 201
    assert copied.json()["name"] == data.all_decks()[FIRE]["name"] and copied.json()["report"]["legal"]
    again = client.post(reverse("api-deck-copy", args=[copied.json()["id"]]))
    assert again.status_code == 201 and again.json()["name"] == f"Copy of {data.all_decks()[FIRE]['name']}"
    assert again.json()["draw"] == copied.json()["draw"] and again.json()["id"] != copied.json()["id"]
    assert Deck.objects.filter(owner=me).count() == 2
    missing = client.post(reverse("api-ready-deck-copy", args=["no_such_deck"]))
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"


def test_import_and_export_thronesdb_text():
    client = api_client_for(make_user())
    text = APIClient().get(reverse("api-ready-deck-text", args=[FIRE])).json()["text"]
    assert "House Targaryen" in text and "Banner of the Lion" in text and "Plots (7):" in text
    read = client.post(reverse("api-decks-import"), {"text": text, "save": False}, format="json")
    assert read.status_code == 200 and read.json()["deck"] is None and read.json()["report"]["legal"]
    assert Deck.objects.count() == 0
    saved = client.post(reverse("api-decks-import"), {"text": text + "\n1x Nobody At All (Core Set)\n"}, format="json")
    assert saved.status_code == 201, saved.json()
    body = saved.json()
    assert body["deck"]["name"] == data.all_decks()[FIRE]["name"]
    assert Counter(body["deck"]["draw"]) == Counter(_cards()["draw"])
    assert body["unread"] == ["No card of the Core Set is called “Nobody At All”."]
    out = client.get(reverse("api-deck-text", args=[body["deck"]["id"]])).json()["text"]
    assert out == text


@pytest.mark.parametrize("payload, field", [
    ({"name": "", "faction": "stark"}, "name"),
    ({"name": "x" * 81, "faction": "stark"}, "name"),
    ({"name": "A", "faction": "dornish"}, "faction"),
    ({"name": "A", "faction": "stark", "draw": ["no_such_card"]}, "draw"),
    ({"name": "A", "faction": "stark", "agenda": "eddard_stark"}, "agenda"),
    ({"name": "A", "faction": "stark", "plots": "a_noble_cause"}, "plots"),
    ({"name": "A"}, "faction"),
])
def test_bad_decks_are_refused_in_the_error_shape_and_nothing_is_saved(payload, field):
    client = api_client_for(make_user())
    response = client.post(reverse("api-decks"), payload, format="json")
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["error"] == "invalid" and field in body["fields"] and body["detail"]
    assert Deck.objects.count() == 0


def test_bad_import_text_is_refused_in_words():
    client = api_client_for(make_user())
    for text in ("   ", "hello\nworld", "House Stark\n"):
        response = client.post(reverse("api-decks-import"), {"text": text}, format="json")
        assert response.status_code == 400 and response.json()["error"] == "invalid", text
        assert response.json()["fields"]["text"][0].endswith((".", "”."))
    assert Deck.objects.count() == 0


def test_decks_are_private_to_their_owner():
    mine = _create(api_client_for(make_user())).json()
    other = api_client_for(make_user())
    for call in (other.get(reverse("api-deck", args=[mine["id"]])),
                 other.patch(reverse("api-deck", args=[mine["id"]]), {"name": "Stolen"}, format="json"),
                 other.delete(reverse("api-deck", args=[mine["id"]])),
                 other.post(reverse("api-deck-copy", args=[mine["id"]])),
                 other.get(reverse("api-deck-text", args=[mine["id"]]))):
        assert call.status_code == 404 and call.json()["error"] == "not_found"
    assert other.get(reverse("api-decks")).json()["decks"] == []
    assert Deck.objects.get(pk=mine["id"]).name == "Mine"


def test_saving_needs_an_account():
    anonymous = APIClient()
    assert anonymous.post(reverse("api-decks"), {"name": "A", **_cards()}, format="json").status_code in (401, 403)
    assert anonymous.post(reverse("api-decks-import"), {"text": "x"}, format="json").status_code in (401, 403)
    assert Deck.objects.count() == 0


def test_a_person_keeps_at_most_so_many_decks(monkeypatch):
    monkeypatch.setattr(Deck, "MAX_PER_OWNER", 2)
    client = api_client_for(make_user())
    assert _create(client).status_code == 201 and _create(client).status_code == 201
    third = _create(client)
    assert third.status_code == 409 and third.json()["error"] == "too_many"
    assert Deck.objects.count() == 2
