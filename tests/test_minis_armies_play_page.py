"""Playing a saved army against the computer through the pages (issue 33): the miniatures game's page offers the
person's saved armies that the site fields; choosing one plays its faction at its size (the VP to win follow it,
M126); a visitor is offered none."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Army, Game
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _army_40(user) -> Army:
    return Army.objects.create(
        owner=user, name="Lions of 40", faction="lannister", game_size=40, commander="20116",
        units=[{"unit": "10101", "attachment": "20116"}, {"unit": "10101", "attachment": "20102"},
               {"unit": "10102", "attachment": "20101"}, {"unit": "10103", "attachment": "20117"}],
        ncus=["30104", "30105"])


def test_the_page_offers_your_saved_armies_and_plays_one_at_its_size(client):
    user = make_user()
    army = _army_40(user)
    Army.objects.create(owner=user, name="Half done", faction="stark", game_size=30, commander="", units=[], ncus=[])
    client.force_login(user)
    page = client.get(reverse("web-play", args=["minis"])).content.decode()
    assert f'value="army:{army.pk}"' in page and "Lions of 40 (Lannister, 33 of 40 points" in page
    assert "Half done" not in page  # not legal: not offered
    response = client.post(reverse("web-play", args=["minis"]), {"my_army": f"army:{army.pk}"})
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get()
    assert game.state["game_size"] == 40 and game.state["threshold"] == 10
    assert game.seats.get(user=user).seat == "lannister"
    assert game.state["players"]["lannister"]["list"]["commander"] == "20116"


def test_someone_elses_army_is_not_offered_nor_taken(client):
    owner, other = make_user(), make_user()
    army = _army_40(owner)
    client.force_login(other)
    assert f"army:{army.pk}" not in client.get(reverse("web-play", args=["minis"])).content.decode()
    response = client.post(reverse("web-play", args=["minis"]), {"my_army": f"army:{army.pk}"})
    assert response.status_code == 200 and "choose one of your saved armies in the list" in response.content.decode()
    assert not Game.objects.exists()
