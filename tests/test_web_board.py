"""web/board.py: the static board data the page draws from (rivers, Westeros cards, track data)."""
from __future__ import annotations

from web.board import agot_board


def test_rivers_lie_on_the_border_of_their_two_areas():
    board = agot_board()
    assert len(board["rivers"]) == 7
    for river in board["rivers"]:
        a, b = river["areas"]
        assert board["areas"][a]["type"] == board["areas"][b]["type"] == "land"
        for point in river["line"]:
            assert point in board["areas"][a]["outline"] and point in board["areas"][b]["outline"], (a, b, point)
    # The Mountains of the Moon and Riverrun are split by a river and not adjacent
    pairs = {tuple(sorted(r["areas"])) for r in board["rivers"]}
    assert ("riverrun", "the_mountains_of_the_moon") in pairs
    assert "riverrun" not in board["areas"]["the_mountains_of_the_moon"]["adjacent"]


def test_westeros_cards_tracks_and_limits():
    board = agot_board()
    cards = board["westeros_cards"]
    assert len(cards) == 15  # distinct cards of the three decks (30 with copies)
    assert cards["mustering"]["name"] == "Mustering" and cards["mustering"]["deck"] == "I"
    assert "muster" in cards["mustering"]["effect"] and "\n" not in cards["mustering"]["effect"]
    assert board["supply_limits"][6] == [4, 3, 2, 2, 2] and board["supply_limits"][0] == [2, 2]
    assert board["victory_target"] == 7 and board["rounds"] == 10 and board["wildling_attack_at"] == 12


def test_the_twins_and_riverrun_are_not_adjacent():
    areas = agot_board()["areas"]
    assert "riverrun" not in areas["the_twins"]["adjacent"]
    assert "the_twins" not in areas["riverrun"]["adjacent"]


def test_wildling_cards_with_their_effects_in_words():
    cards = agot_board()["wildling_cards"]
    assert len(cards) == 9
    mammoth = cards["mammoth_riders"]
    assert mammoth["name"] == "Mammoth Riders"
    assert "3 of their units" in mammoth["lowest_bidder"] and "2 of their units" in mammoth["everyone_else"]
    assert "discard pile" in mammoth["highest_bidder"]
    for card in cards.values():
        assert card["name"] and all(card[k] and "\n" not in card[k] and "  " not in card[k]
                                    for k in ("highest_bidder", "lowest_bidder", "everyone_else"))
