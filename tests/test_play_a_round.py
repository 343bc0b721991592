"""Three users create a lobby, join it, and play a whole scripted AGoT round through the REST API:
secret orders, the reveal, the Raven, raids, marches, consolidating power, then round 2."""
from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from games.engine import get_ruleset
from games.models import Game
from games.services.replay import snapshot_matches_log
from tests.factories import api_client_for, make_user, whole_log

pytestmark = pytest.mark.django_db

ORDERS = {
    "stark": {"winterfell": "march+0", "white_harbor": "consolidate", "the_shivering_sea": "support+0"},
    "lannister": {"lannisport": "march+0", "stoney_sept": "defense+1", "the_golden_sound": "raid",
                  "port_of_lannisport": "consolidate"},
    "baratheon": {"dragonstone": "consolidate", "kingswood": "march+0", "shipbreaker_bay": "support+0"},
}
# What each seat does when the game asks it, in the order the game asks (Iron Throne order:
# Baratheon, Lannister, Stark).
SCRIPT = [
    ("lannister", "raven", {"raven": "skip"}),
    ("baratheon", "march", {"march": {"from": "kingswood", "moves": {"the_reach": ["footman"]}}}),
    ("lannister", "march", {"march": {"from": "lannisport", "moves": {"searoad_marches": ["knight"]}}}),
    ("stark", "march", {"march": {"from": "winterfell", "moves": {"castle_black": ["knight"], "karhold": ["footman"]}}}),
]


def test_three_users_play_a_full_scripted_round_through_the_api():
    players = {name: make_user(username=name) for name in ("ned", "tywin", "stannis")}
    clients = {name: api_client_for(user) for name, user in players.items()}
    lobby = clients["ned"].post(
        reverse("api-lobbies"),
        {"ruleset": "agot", "seats": 3, "time_limit": 600, "house_choice": "pick", "seat": "stark"},
        format="json",
    ).json()
    clients["tywin"].post(reverse("api-lobby-join", args=[lobby["id"]]), {"seat": "lannister"}, format="json")
    started = clients["stannis"].post(reverse("api-lobby-join", args=[lobby["id"]]), {"seat": "baratheon"},
                                      format="json").json()
    assert started["status"] == "started"
    game_id = started["game"]
    seat_clients = {"stark": clients["ned"], "lannister": clients["tywin"], "baratheon": clients["stannis"]}

    def get(seat):
        return seat_clients[seat].get(reverse("api-game", args=[game_id])).json()

    def post(seat, action):
        version = get(seat)["version"]
        response = seat_clients[seat].post(reverse("api-game-actions", args=[game_id]),
                                           {"version": version, "action": action}, format="json")
        assert response.status_code == 200, response.json()
        return response.json()

    # Planning: secret orders; until the last house has placed, nobody sees another's orders.
    post("stark", {"place_orders": ORDERS["stark"]})
    assert get("lannister")["view"]["orders"] == {}
    post("lannister", {"place_orders": ORDERS["lannister"]})
    after_reveal = post("baratheon", {"place_orders": ORDERS["baratheon"]})
    revealed = after_reveal["view"]["orders"]
    assert revealed["winterfell"] == {"house": "stark", "token": "march+0"}
    assert revealed["stoney_sept"] == {"house": "lannister", "token": "defense+1"}

    for seat, kind, action in SCRIPT:
        assert get(seat)["pending"] == {seat: kind}
        post(seat, action)

    # Consolidate power: the engine resolves plain consolidate orders itself (forced, SCENARIOS.md),
    # giving 1 + the area's power icons (R179-R180): White Harbor prints none, Dragonstone one, and
    # a port gives 1 (A30).
    log = whole_log(lambda path: seat_clients["stark"].get(path).json(), game_id)
    gains = {e["house"]: e["gained"] for entry in log["entries"] for e in entry["events"]
             if e["type"] == "power_gained"}
    assert gains == {"stark": 1, "lannister": 1, "baratheon": 2}

    # Round 2 begins with the Westeros phase (R34, R42); its cards move no unit without a decision.
    view = get("stark")["view"]
    assert view["round"] == 2 and view["phase"] in ("westeros", "planning")
    assert view["units"]["the_reach"] == {"baratheon": ["footman"]}
    assert view["units"]["searoad_marches"] == {"lannister": ["knight"]}
    assert view["units"]["castle_black"] == {"stark": ["knight"]}
    assert view["units"]["karhold"] == {"stark": ["footman"]}
    # Winterfell is Stark's home area: it stays Stark's without a power token (R172).
    assert view["power_tokens"] == {}

    # Any Westeros decisions (a bid, a muster...) are answered with the documented defaults.
    engine = get_ruleset("agot")
    for _ in range(50):
        game = Game.objects.get(pk=game_id)
        pending = engine.pending(game.state)
        if set(pending.values()) == {"place_orders"}:
            break
        seat = sorted(pending)[0]
        post(seat, engine.default_action(game.state, seat))
    final = get("stark")
    assert final["view"]["phase"] == "planning" and final["view"]["round"] == 2
    assert set(final["pending"]) == {"stark", "lannister", "baratheon"}

    game = Game.objects.get(pk=game_id)
    assert snapshot_matches_log(game)
    assert User.objects.filter(game_seats__game=game).count() == 3
