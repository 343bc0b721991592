"""B'Twixt setup and game length (B1, B2, B3, B5, B11-B16, B82) and the card set as data."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from games.engine import get_ruleset
from games.engine.base import EngineError
from games.engine.btwixt import data
from games.engine.btwixt import table as T

R = get_ruleset("btwixt")


def test_registered_with_seat_range_B1():
    assert (R.id, R.min_seats, R.max_seats) == ("btwixt", 3, 6)
    for n in (2, 7):
        with pytest.raises(EngineError) as e:
            R.seat_names(n)
        assert e.value.code == "illegal_action"
    with pytest.raises(EngineError):
        R.new_game(["cersei", "tyrion"], {}, 1)
    with pytest.raises(EngineError):
        R.new_game(["cersei", "cersei", "tyrion"], {}, 1)
    with pytest.raises(EngineError):
        R.new_game(["cersei", "tyrion", "robb"], {}, 1)


def test_unknown_option_refused():
    with pytest.raises(EngineError):
        R.new_game(R.seat_names(3), {"turbo": True}, 1)


def test_reference_set_counts_B2_B3():
    cs = data.cardset()
    assert len(cs.ids("influence")) == 62
    assert len(cs.ids("event")) == 11
    assert len(cs.ids("leader")) == 36
    assert len(cs.ids("ally")) == 50
    assert len(cs.tokens) == 54 and set(cs.tokens) == {1, 2, 3}
    assert len(cs.leaders) == 9
    for leader in cs.leaders:
        assert len(cs.leader_cards_of(leader)) == 4


def test_a_set_with_wrong_counts_is_refused(tmp_path: Path):
    raw = yaml.safe_load(data.DEFAULT_SET.read_text(encoding="utf-8"))
    raw["allies"] = raw["allies"][:-1]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(ValueError, match="allies"):
        data.load_cardset(bad)


def test_another_set_in_the_same_format_can_replace_it(tmp_path: Path):
    raw = yaml.safe_load(data.DEFAULT_SET.read_text(encoding="utf-8"))
    raw["id"] = "test_set"
    other = tmp_path / "other.yaml"
    other.write_text(yaml.safe_dump(raw), encoding="utf-8")
    try:
        data.use_cardset(other)
        assert data.cardset().id == "test_set"
        state = R.new_game(R.seat_names(3), {}, 3)
        assert state["cardset"] == "test_set"
    finally:
        data.use_cardset(data.DEFAULT_SET)


@pytest.mark.parametrize("players,season,deck", [(3, "summer", 32), (4, "summer", 22), (5, "autumn", 12), (6, "autumn", 2)])
def test_standard_setup_B5_B11_B12(players, season, deck):
    state = R.new_game(R.seat_names(players), {}, players)
    s = R.summary(state)
    assert s["season"] == season and s["round"] == 1
    assert s["deck_size"]["influence"] == deck
    assert all(n == 10 for n in s["hand_size"].values())
    assert s["deck_size"]["events"] == 11  # B11: blue cards set aside
    assert s["deck_size"]["allies"] == 49 and s["current_ally"]  # B18
    assert s["supply"] == 54  # B7
    assert s["pending"] == {s["first_player"]: "turn"}  # B20
    for seat in state["seats"]:
        assert all(data.card(c).kind == "influence" for c in T.hand(state, seat))


@pytest.mark.parametrize("players,deck", [(3, 35), (4, 26), (5, 17), (6, 8)])
def test_advanced_setup_B13_B14(players, deck):
    state = R.new_game(R.seat_names(players), {"advanced": True}, players)
    s = R.summary(state)
    assert s["deck_size"]["influence"] == deck
    for seat in state["seats"]:
        hand = T.hand(state, seat)
        assert len(hand) == 10
        leader = [c for c in hand if data.card(c).kind == "leader"]
        assert len(leader) == 1 and data.card(leader[0]).leader == seat  # B69
        assert len(T.leader_cards(state, seat)) == 3
    assert s["deck_size"]["events"] == 11  # B14: no event at the start


@pytest.mark.parametrize("players,short,season", [(3, True, "autumn"), (4, True, "autumn"), (5, True, "winter"), (6, True, "winter")])
def test_short_mode_B82(players, short, season):
    state = R.new_game(R.seat_names(players), {"short": short}, 1)
    assert state["season"] == season


def test_succession_puts_leader_and_event_cards_in_the_deck_B77():
    state = R.new_game(R.seat_names(4), {"succession": True}, 4)
    assert state["options"]["draft"] is True
    assert state["step"] == "draft"
    assert len(state["decks"]["influence"]) + 4 * 10 == 62 + 11 + 36
    assert state["decks"]["events"] == [] and state["decks"]["aside"] == []


@pytest.mark.parametrize("players,rounds", [(3, 12), (4, 15), (5, 12), (6, 14)])
def test_game_length_B15_B16(players, rounds):
    """Timeouts everywhere: the game lasts exactly its rounds, players + 1 per season."""
    state = R.new_game(R.seat_names(players), {}, players)
    seen = {(state["season"], state["round"])}
    while not R.is_over(state):
        seat = sorted(R.pending(state))[0]
        state, events = R.apply(state, seat, R.default_action(state, seat))
        seen |= {(e["season"], e["round"]) for e in events if e["type"] == "reveal" and "round" in e}
    assert len(seen) == rounds
    assert max(r for _, r in seen) == players + 1
    assert state["season"] == "winter"


def test_catalogue_for_the_page():
    cat = data.catalogue()
    assert cat["id"] == "westeros_reference_1"
    assert "not in the rules text" in cat["statement"]
    assert len(cat["leaders"]) == 9
    assert cat["cards"]["betrayal"]["kind"] == "influence" and cat["cards"]["betrayal"]["texts"]
    assert cat["cards"]["eddard_stark"] == {"name": "Eddard Stark", "kind": "ally", "colour": "", "value": 5,
                                            "copies": 1, "leader": "", "house": "stark", "texts": []}
