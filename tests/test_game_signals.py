"""Other apps learn about game changes through games.signals, inside the changing transaction."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine import get_ruleset
from games.signals import game_changed, game_finished
from tests.factories import api_client_for, make_game, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def received():
    log: dict[str, list] = {"changed": [], "finished": []}

    def on_changed(sender, game, pending_before, records, started, **kwargs):
        log["changed"].append((game.pk, game.version, set(pending_before), [r.seat for r in records], started))

    def on_finished(sender, game, **kwargs):
        log["finished"].append((game.pk, game.status))

    game_changed.connect(on_changed)
    game_finished.connect(on_finished)
    yield log
    game_changed.disconnect(on_changed)
    game_finished.disconnect(on_finished)


def test_creating_and_acting_send_game_changed(received):
    game = make_game()
    assert received["changed"] == [(game.pk, 0, set(), [], True)]
    user = game.seats.get(seat="stark").user
    action = get_ruleset("agot").default_action(game.state, "stark")
    api_client_for(user).post(reverse("api-game-actions", args=[game.id]), {"version": 0, "action": action},
                              format="json")
    assert received["changed"][-1] == (game.pk, 1, {"stark", "lannister", "baratheon"}, ["stark"], False)
    assert received["finished"] == []


def test_a_game_ending_sends_game_finished_once(received):
    game = make_game(users=[None, None, None])
    assert received["finished"] == [(game.pk, "finished")]
    abandoned = make_game(users=[make_user(), None, None])
    api_client_for(abandoned.seats.get(seat="stark").user).post(reverse("api-game-concede", args=[abandoned.id]))
    assert received["finished"][-1] == (abandoned.pk, "abandoned")
    assert len(received["finished"]) == 2
