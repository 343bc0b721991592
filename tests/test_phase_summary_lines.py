"""The phase summary's lines (issue 15): the log API marks the lines a summary leads with
(`headline`: Westeros cards drawn, supply, power from crowns, restrictions, battles and their winners,
musters) and names the areas each event changed (`areas`: a march's origin and destinations, a
battle's area, a retreat's), so a page can say what happened in a phase and highlight where. An area
list comes only from public event fields: another seat's face-down orders (R112, R114), a secret bid
(R103) or a house card in hand never put an area into a viewer's lines, and twin games differing only
in a secret read the same to the other seats, areas and flags included."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine import get_ruleset
from games.engine.agot import narrate
from games.engine.agot.data import board
from tests.factories import api_client_for, make_game, make_user, whole_log

pytestmark = pytest.mark.django_db
AGOT = get_ruleset("agot")

# Stark's knight and footman in Winterfell next to Baratheon's footman in White Harbor; round 2's
# Westeros cards fixed: Supply, Game of Thrones, Rains of Autumn (no decision in that phase).
BATTLE_SETUP = {
    "units": {"winterfell": {"stark": ["footman", "knight"]}, "white_harbor": {"baratheon": ["footman"]},
              "lannisport": {"lannister": ["footman"]}, "dragonstone": {"baratheon": ["footman"]}},
    "tracks": {"iron_throne": ["stark", "lannister", "baratheon"], "fiefdoms": ["stark", "baratheon", "lannister"]},
    "decks": {"westeros_1": ["supply"], "westeros_2": ["game_of_thrones"], "westeros_3": ["rains_of_autumn"]},
}
ORDERS = {"stark": {"winterfell": "march+1*"}, "lannister": {"lannisport": "defense+1"},
          "baratheon": {"white_harbor": "defense+1", "dragonstone": "defense+1"}}
MARCH = {"march": {"from": "winterfell", "moves": {"white_harbor": ["footman", "knight"]}, "leave_power_token": False}}


def staged(setup=BATTLE_SETUP, phase="planning", users=None):
    game = make_game(3, seed=5, users=users)
    game.state = AGOT.scenario_game(game.seat_names(), game.options, game.seed, setup, phase)
    game.save(update_fields=["state"])
    return game


def submit(game, seat, action):
    game.refresh_from_db()
    r = api_client_for(game.seats.get(seat=seat).user).post(
        reverse("api-game-actions", args=[game.id]), {"version": game.version, "action": action}, format="json")
    assert r.status_code == 200, r.json()
    game.refresh_from_db()


def lines(game, seat):
    user = game.seats.get(seat=seat).user if seat else make_user()
    client = api_client_for(user)
    entries = whole_log(lambda path: client.get(path).json(), game.id)["entries"]
    return [line for e in entries for line in e["lines"]]


def play_to_round_two(game):
    for seat, orders in ORDERS.items():
        submit(game, seat, {"place_orders": orders})
    for _ in range(40):
        if game.state["round"] == 2 and game.state["phase"] == "planning":
            return
        seat, kind = sorted(AGOT.pending(game.state).items())[0]
        submit(game, seat, MARCH if kind == "march" else AGOT.default_action(game.state, seat))
    raise AssertionError("round 2's Planning phase never came")


def test_a_round_s_key_lines_and_the_areas_they_changed():
    game = staged()
    play_to_round_two(game)
    for viewer in ("stark", "lannister", None):
        said = lines(game, viewer)
        by_text = {line["text"]: line for line in said}
        action = [line for line in said if line["round"] == 1 and line["phase"] == "action"]
        westeros = [line for line in said if line["round"] == 2 and line["phase"] == "westeros"]

        march = by_text["Stark marches from Winterfell: one footman and one knight to White Harbor."]
        assert march["key"] and not march["headline"] and march["areas"] == ["winterfell", "white_harbor"]
        won = next(line for line in action if line["text"].startswith("Stark wins the battle for White Harbor"))
        assert won["headline"] and won["key"] and won["areas"] == ["white_harbor"]
        retreat = next(line for line in action if line["text"].startswith("Baratheon retreats"))
        assert retreat["areas"][0] == "white_harbor" and len(retreat["areas"]) == 2
        # the changed areas of the Action phase are exactly where the battle was fought and fled
        touched = {a for line in action for a in line.get("areas", [])}
        assert touched == {"winterfell", "white_harbor", *retreat["areas"]}

        heads = [line["text"] for line in westeros if line["headline"]]
        assert heads[0] == "Westeros cards for round 2: Supply, Game of Thrones and Rains of Autumn.", heads
        assert any(t.startswith("Supply levels: Stark") for t in heads), heads
        assert any(t.startswith("Power from crowns") for t in heads), heads
        assert any(t.startswith("Rains of Autumn:") for t in heads), heads
        assert any(t.startswith("The wildling threat rises to") for t in heads), heads
        # bookkeeping stays out of the headlines
        assert not any(t.startswith(("Supply (Westeros deck I) is resolved", "The Westeros phase is over"))
                       for t in heads)
        # a line names an area only when it changed the board; every name is a board area
        for line in said:
            assert set(line.get("areas", [])) <= set(board().areas)
        private = [line for line in said if line.get("private")]
        assert all("areas" not in line and not line["headline"] for line in private)
        assert (viewer == "stark") == any("seen only by Stark" in line["text"] for line in private)


def test_face_down_orders_put_no_area_in_anyone_s_lines():
    game = staged()
    submit(game, "stark", {"place_orders": ORDERS["stark"]})
    for viewer in ("stark", "lannister", "baratheon", None):
        said = lines(game, viewer)
        assert said and all("areas" not in line for line in said), viewer
        assert not any("Winterfell" in line["text"] for line in said if not line.get("private")), viewer


def test_twin_games_differing_in_a_secret_give_the_others_the_same_lines_and_areas():
    """Lannister orders Defense in one game and March in the other; Baratheon bids 0 or 3 later: the
    other seats and a spectator get identical lines (text, flags, areas) until the reveal."""
    users = [make_user() for _ in range(3)]
    twins = [staged(users=users) for _ in range(2)]
    for game, lannister in zip(twins, ({"lannisport": "defense+1"}, {"lannisport": "march+0"}), strict=True):
        submit(game, "stark", {"place_orders": ORDERS["stark"]})
        submit(game, "lannister", {"place_orders": lannister})
    for viewer in ("stark", "baratheon", None):
        a, b = (lines(game, viewer) for game in twins)
        assert a == b, viewer
    assert lines(twins[0], "lannister") != lines(twins[1], "lannister")


CLASH_SETUP = {
    "round": 2,
    "units": {"winterfell": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]},
              "dragonstone": {"baratheon": ["footman"]}},
    "tracks": {"iron_throne": ["stark", "lannister", "baratheon"]},
    "power": {"stark": 5, "lannister": 5, "baratheon": 5},
    "decks": {"westeros_1": ["last_days_of_summer"], "westeros_2": ["clash_of_kings"], "westeros_3": ["web_of_lies"]},
}


def test_a_secret_bid_names_no_area_and_the_tracks_are_headlines():
    users = [make_user() for _ in range(3)]
    twins = [staged(CLASH_SETUP, "westeros", users=users) for _ in range(2)]
    for game, bid in zip(twins, (0, 3), strict=True):
        assert AGOT.pending(game.state).get("baratheon") == "bid"
        submit(game, "baratheon", {"bid": bid})
    for viewer in ("stark", "lannister", None):
        a, b = (lines(game, viewer) for game in twins)
        assert a == b and all("areas" not in line for line in a), viewer
    game = twins[1]
    submit(game, "stark", {"bid": 1})
    submit(game, "lannister", {"bid": 2})
    said = lines(game, "stark")
    track = next(line for line in said if line["text"].startswith("The Iron Throne track:"))
    assert track["headline"] and "areas" not in track
    assert track["text"] == "The Iron Throne track: Baratheon, Lannister and Stark from first to last."


def test_areas_come_only_from_public_fields():
    private = {"type": "orders_placed_detail", "house": "stark", "orders": {"winterfell": "march+0"}, "only": ["stark"]}
    assert "areas" not in narrate.describe(private)
    muster = {"type": "muster", "house": "stark", "source": "mustering", "recruited": {"winterfell": ["footman"]},
              "upgraded": {"white_harbor": ["knight"]}}
    said = narrate.describe(muster)
    assert said["headline"] and said["areas"] == ["winterfell", "white_harbor"]
    supply_loss = {"type": "units_destroyed", "house": "stark", "units": {"the_eyrie": ["footman"]}, "why": "supply"}
    assert narrate.describe(supply_loss)["areas"] == ["the_eyrie"] and narrate.describe(supply_loss)["headline"]
    # a house card or a bid names no area, even when the event carries one by mistake of a field name
    for ev in ({"type": "house_card_chosen", "house": "stark", "area": "winterfell"},
               {"type": "bid_placed", "house": "stark", "area": "winterfell"}):
        assert "areas" not in narrate.describe(ev)
