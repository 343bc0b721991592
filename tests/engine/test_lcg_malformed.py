"""Malformed card-game actions are refused with an EngineError (bad_action, or illegal_action for a
well-formed name of nothing), never with a Python error (issue 28, found by fuzzing POST /actions):
a target {zone: hand} without its card (a KeyError: a 500), a copy named with a digit int() cannot
read ("burned_men#²"), true where a number is expected, names that are lists or objects. The
sentence never repeats a huge value; legal actions stay legal."""
from __future__ import annotations

import json

import pytest

from games.engine import EngineError
from tests.engine.lcg_helpers import R, game


def refusal(state: dict, seat: str, action, code: str = "bad_action") -> str:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(EngineError) as info:
        R.apply(state, seat, action)
    assert info.value.code == code, info.value.reason
    assert json.dumps(state, sort_keys=True) == before
    reason = info.value.reason
    assert len(reason) < 300 and "00000000" not in reason and "{'" not in reason, reason
    return reason


@pytest.fixture(scope="module")
def roaring():
    """Hear Me Roar! in p2's hand, Tywin beside it: the event puts a character from the hand into play."""
    return game({}, {"hand": ["hear_me_roar", "tywin_lannister"], "gold": 1, "characters": ["burned_men"]},
                first="p2")


@pytest.mark.parametrize("target", [
    {"zone": "hand"}, {"card": [], "zone": "hand"}, {"card": {}, "zone": "hand"},
    {"card": "tywin_lannister", "zone": ["hand"]}, {"card": "tywin_lannister", "zone": "hand", "seat": {}},
    {"card": "tywin_lannister", "zone": "hand", "elsewhere": 1},
])
def test_a_target_in_a_zone_names_its_card_zone_and_seat(roaring, target):
    refusal(roaring, "p2", {"play": {"card": "hear_me_roar", "targets": [target]}})


def test_a_target_in_an_unknown_place_is_refused_in_words(roaring):
    reason = refusal(roaring, "p2", {"play": {"card": "hear_me_roar", "targets": [
        {"card": "tywin_lannister", "zone": "attic"}]}}, code="illegal_action")
    assert reason == "no such place: the attic of p2"
    R.apply(roaring, "p2", {"play": {"card": "hear_me_roar", "targets": [{"card": "tywin_lannister", "zone": "hand"}]}})


@pytest.mark.parametrize("field, value, says", [
    ("ability", True, "play: ability must be a whole number from 1 to 9"),
    ("ability", 1.0, "play: ability must be a whole number from 1 to 9"),
    ("x", False, "play: x must be a whole number from 0 to 99"),
    ("x", 10**400, "numbers in an action are from -1,000,000 to 1,000,000"),
    ("targets", {"card": "tywin_lannister", "zone": "hand"}, "play: targets must be a list of cards, not an object"),
    ("duplicate", "yes", "play: duplicate must be true or false, not a text"),
    ("card", ["hear_me_roar"], "play takes a card id or {card: id, ...}"),
])
def test_true_is_not_a_number_and_fields_have_their_types(roaring, field, value, says):
    play = {"card": "hear_me_roar", "targets": [{"card": "tywin_lannister", "zone": "hand"}], field: value}
    assert says in refusal(roaring, "p2", {"play": play})


@pytest.fixture(scope="module")
def challenging():
    return game({"characters": ["catelyn_stark"]}, {"characters": ["tyrion_lannister"]})


@pytest.mark.parametrize("name", ["catelyn_stark#²", "catelyn_stark#1٣", "catelyn_stark#0", "catelyn_stark#x",
                                  "catelyn_stark#100"])
def test_a_copy_number_is_ascii_digits_from_1_to_99(challenging, name):
    """str.isdigit() says yes to "²", which int() refuses: that was a ValueError, a 500."""
    reason = refusal(challenging, "p1", {"challenge": {"type": "intrigue", "attackers": [name]}})
    assert "a copy is named <id>#<n>, n from 1 to 99" in reason


def test_a_named_copy_still_works(challenging):
    new, _ = R.apply(challenging, "p1", {"challenge": {"type": "intrigue", "attackers": ["catelyn_stark#1"]}})
    json.dumps(new, allow_nan=False)


@pytest.mark.parametrize("challenge", [
    {"type": [], "attackers": ["catelyn_stark"]}, {"type": "intrigue", "attackers": [{}]},
    {"type": "intrigue", "attackers": "catelyn_stark"}, {"type": "intrigue", "attackers": [10**400]},
    {"type": "intrigue", "attackers": ["catelyn_stark"], "opponent": []},
    {"type": "intrigue", "attackers": ["catelyn_stark"], "stealth": []},
    {"type": "intrigue", "attackers": ["catelyn_stark"], "stealth": {"catelyn_stark": {"card": {}}}},
    {"type": "intrigue", "attackers": ["c" * 65]},
])
def test_a_challenge_reads_its_fields(challenging, challenge):
    try:
        R.apply(challenging, "p1", {"challenge": challenge})
    except EngineError as error:
        assert error.code in ("bad_action", "illegal_action")
        assert "00000000" not in error.reason and "ccccccccc" not in error.reason and "{'" not in error.reason
    else:
        raise AssertionError("a malformed challenge was accepted")
