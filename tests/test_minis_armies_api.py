"""Miniatures armies in the API (issue 33, /api/v1/armies): your saved armies and the starter ones; create, rename,
change, copy, delete; validate (legal or why not, in words, in the reader's language; rules/minis.md M1-M17, M126);
import and export the builders' plain text. Bad input is a 4xx that changes nothing; nobody sees or changes
another person's armies."""
from __future__ import annotations

import copy

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.engine.minis import armies as rules
from games.models import Army
from games.services import armies as service
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db

STARK = "list_stark_30"


def _army(key: str = STARK) -> dict:
    a = copy.deepcopy(rules.starter_armies()[key])
    a.pop("name")
    return a


def test_the_list_offers_the_starter_armies_to_everyone():
    body = APIClient().get(reverse("api-armies")).json()
    assert body["armies"] == []
    keys = [a["key"] for a in body["starter"]]
    assert keys == ["list_stark_30", "list_lannister_30"]
    stark = body["starter"][0]
    assert stark["name"] == "Stark starter army" and stark["commander_name"] == "Robb Stark, The Wolf Lord"
    assert stark["report"]["legal"] and stark["report"]["playable"]
    assert stark["report"]["points"] == 30 and stark["report"]["victory_points"] == 8  # M126
    assert len(stark["report"]["tactics"]) == 20  # M16


def test_create_change_copy_export_and_delete():
    user = make_user()
    client = api_client_for(user)
    made = client.post(reverse("api-armies"), {"name": "Wolves", **_army()}, format="json")
    assert made.status_code == 201, made.content
    army_id = made.json()["id"]
    assert made.json()["report"]["legal"]
    # change: 40 points, a second NCU (M15), VP 10 (M126)
    changed = client.patch(reverse("api-army", args=[army_id]), {"game_size": 40, "ncus": ["30201", "30202"]},
                           format="json")
    assert changed.status_code == 200
    body = changed.json()
    assert body["game_size"] == 40 and body["report"]["points"] == 34 and body["report"]["victory_points"] == 10
    assert body["name"] == "Wolves" and body["report"]["legal"]
    # a change that breaks a rule is saved, and the report says why (M7)
    broken = client.patch(reverse("api-army", args=[army_id]), {"ncus": ["30201", "30201"]}, format="json").json()
    assert not broken["report"]["legal"]
    assert broken["report"]["problems"][0]["rule"] == "M7"
    assert "Catelyn Stark appears more than once" in broken["report"]["problems"][0]["text"]
    copied = client.post(reverse("api-army-copy", args=[army_id]))
    assert copied.status_code == 201 and copied.json()["name"] == "Copy of Wolves"
    text = client.get(reverse("api-army-text", args=[army_id])).json()["text"]
    assert text.startswith("Wolves\nFaction: Stark\n") and "Stark Sworn Swords (5)" in text
    assert client.delete(reverse("api-army", args=[army_id])).status_code == 204
    assert list(Army.objects.filter(owner=user).values_list("name", flat=True)) == ["Copy of Wolves"]


def test_nobody_sees_or_changes_another_persons_army():
    owner, other = make_user(), make_user()
    army = api_client_for(owner).post(reverse("api-armies"), {"name": "Mine", **_army()}, format="json").json()
    client = api_client_for(other)
    assert client.get(reverse("api-army", args=[army["id"]])).status_code == 404
    assert client.patch(reverse("api-army", args=[army["id"]]), {"name": "Stolen"}, format="json").status_code == 404
    assert client.delete(reverse("api-army", args=[army["id"]])).status_code == 404
    assert client.post(reverse("api-army-copy", args=[army["id"]])).status_code == 404
    assert Army.objects.get(pk=army["id"]).name == "Mine"
    # a visitor may read the list and validate, not save
    assert APIClient().post(reverse("api-armies"), {"name": "X", **_army()}, format="json").status_code in (401, 403)


def test_bad_input_is_refused_in_words_and_changes_nothing():
    client = api_client_for(make_user())
    bad = client.post(reverse("api-armies"), {"name": "X", **_army(), "ncus": ["99999"]}, format="json")
    assert bad.status_code == 400 and "Unknown cards: 99999" in bad.content.decode()
    bad = client.post(reverse("api-armies"), {"name": " ", **_army()}, format="json")
    assert bad.status_code == 400 and "name" in bad.json()["fields"]
    bad = client.post(reverse("api-armies"), {"name": "X", **_army(), "faction": "tyrell"}, format="json")
    assert bad.status_code == 400 and "Stark or Lannister" in bad.content.decode()
    assert not Army.objects.exists()


def test_validate_says_why_in_the_readers_language():
    army = _army()
    army["units"][3]["attachment"] = "20204"  # an infantry attachment on cavalry (M9)
    army["game_size"] = 40
    body = APIClient().post(reverse("api-armies-validate"), {**army, "name": "Test"}, format="json").json()
    assert not body["legal"] and [p["rule"] for p in body["problems"]] == ["M9"]
    assert "Sworn Sword Captain cannot join Stark Outriders" in body["problems"][0]["text"]
    assert body["text"].startswith("Test\n")
    army = _army()
    army["game_size"] = 25
    spanish = APIClient().post(reverse("api-armies-validate"), army, format="json",
                               HTTP_ACCEPT_LANGUAGE="es").json()
    assert spanish["problems"][0]["rule"] == "M1"
    assert "puntos" in spanish["problems"][0]["text"] and "over the game size" not in spanish["problems"][0]["text"]


def test_import_reads_a_builders_list_and_export_reads_back():
    client = api_client_for(make_user())
    text = "Wolves\nStark Sworn Swords (5)\n • Robb Stark - The Wolf Lord (C)\nGrey Wind (3)\nCatelyn Stark (4)\nTheon (3)\n"
    read = client.post(reverse("api-armies-import"), {"text": text, "save": False}, format="json").json()
    assert read["army"] is None and read["parsed"]["commander"] == "20201"
    assert read["unread"] == ["No card is called “Theon”."] and read["report"]["legal"]
    saved = client.post(reverse("api-armies-import"), {"text": text}, format="json")
    assert saved.status_code == 201 and saved.json()["army"]["name"] == "Wolves"
    exported = client.get(reverse("api-army-text", args=[saved.json()["army"]["id"]])).json()["text"]
    again = client.post(reverse("api-armies-import"), {"text": exported, "save": False}, format="json").json()
    assert {k: again["parsed"][k] for k in ("faction", "commander", "units", "ncus", "game_size")} == \
        {k: saved.json()["army"][k] for k in ("faction", "commander", "units", "ncus", "game_size")}
    empty = client.post(reverse("api-armies-import"), {"text": "hello"}, format="json")
    assert empty.status_code == 400
    starter = APIClient().get(reverse("api-starter-army-text", args=[STARK])).json()["text"]
    assert "Points: 30/30" in starter


def test_copy_a_starter_army_and_bring_it_to_a_game():
    user = make_user()
    client = api_client_for(user)
    made = client.post(reverse("api-starter-army-copy", args=["list_lannister_30"]))
    assert made.status_code == 201 and made.json()["name"] == "Lannister starter army"
    ref = f"army:{made.json()['id']}"
    assert service.my_usable_armies(user, 30) == {ref: "Lannister starter army"}
    assert service.my_usable_armies(user, 40) == {}  # not of the agreed size
    assert service.game_army(ref, user, 30)["commander"] == "20115"
    with pytest.raises(Exception, match="points; this game is of 40"):
        service.game_army(ref, user, 40)
