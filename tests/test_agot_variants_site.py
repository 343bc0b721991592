"""Issue 34's "done when", through the site's services: a 6-player game with fog of war, the
house-card draft and random start positions, every seat played by the engine's players, plays to its
end; its log, read by a spectator, names no area (R289-R296 with the fog: a spectator sees no area
while the game runs), and the draft's 42 picks are told in words. The engine's side: tests/engine/test_agot_variants.py
and test_agot_fog.py; the pages: docs/rules-decisions.md "AGoT variants"."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine import get_ruleset
from games.services.play import do_create_game
from tests.factories import api_client_for, make_user, whole_log

pytestmark = pytest.mark.django_db

OPTIONS = {"fog_of_war": True, "draft_house_cards": True, "random_starts": True}


def test_six_engine_players_play_fog_draft_and_random_starts_to_the_end(client):
    seats = get_ruleset("agot").seat_names(6)
    game = do_create_game(ruleset="agot", seating=dict.fromkeys(seats), options=OPTIONS, seed=34)
    game.refresh_from_db()
    assert not game.is_active() and game.state["phase"] == "over" and game.state["winner"] in seats
    assert sorted(game.state["homes"].values()) == sorted(seats)
    spectator = api_client_for(make_user())
    log = whole_log(lambda path: spectator.get(path).json(), game.pk)
    lines = [line for entry in log["entries"] for line in entry["lines"]]
    texts = [line["text"] for line in lines]
    assert sum(" drafts " in t for t in texts) == 42 and "The draft is over." in texts  # 6 houses x 7 cards
    assert not [line for line in lines if line.get("areas")]  # the fog: no area named to a spectator
    # once the game is over the fog lifts: the spectator's view shows the whole board
    view = spectator.get(reverse("api-game", args=[game.pk])).json()["view"]
    assert view["units"] == game.state["units"] and "fog" not in view
    assert client.get(reverse("web-game", args=[game.pk])).status_code == 200
