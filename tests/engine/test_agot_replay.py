"""Replay (games/engine/agot/replay.py): the state after any action of a finished game, rebuilt from
seed + seats + options + log, for any seat's view."""
from __future__ import annotations

import random

import pytest

from games.engine.agot import bot, replay
from games.engine.base import REFEREE, EngineError, get_ruleset

RS = get_ruleset("agot")


def _game(players: int, seed: int, tides: bool) -> tuple[list[str], dict, list[tuple[str, dict]], list[dict]]:
    res = bot.play_random_game(players, seed, check=False, options={"tides_of_battle": tides}, log=True)
    seats = RS.seat_names(players)
    # the states along the way, rebuilt independently of replay.py
    state = RS.new_game(seats, {"tides_of_battle": tides}, seed)
    states = []
    for seat, act in res["log"]:
        state, _ = RS.apply(state, seat, act)
        states.append(state)
    assert RS.is_over(state)
    return seats, {"tides_of_battle": tides}, res["log"], states


@pytest.mark.parametrize(("players", "seed", "tides"), [(3, 11, True), (6, 12, False)])
def test_every_index_and_every_view_matches_the_live_game(players: int, seed: int, tides: bool) -> None:
    seats, options, log, states = _game(players, seed, tides)
    rand = random.Random(seed)
    picks = sorted({0, len(log) - 1, *rand.sample(range(len(log)), 5)})
    for n, i in enumerate(picks):
        for viewer in (seats[n % len(seats)], None):
            got = replay.view_at("agot", seats, options, seed, log, i, viewer)
            assert got["index"] == i
            assert got["state"] == RS.view(states[i], viewer)
        full = replay.view_at(RS, seats, options, seed, log, i, REFEREE)
        assert full["state"] == states[i]


def test_setup_index_and_bounds() -> None:
    seats, options, log, _states = _game(3, 4, False)
    first = replay.view_at("agot", seats, options, 4, log, -1, seats[0])
    assert first["state"] == RS.view(RS.new_game(seats, options, 4), seats[0]) and first["events"] == []
    with pytest.raises(IndexError):
        replay.view_at("agot", seats, options, 4, log, len(log), seats[0])


def test_views_keep_secrets_and_private_events() -> None:
    """A house card chosen but not yet revealed (R219) is in its chooser's replayed view and events
    only; the other seats and spectators see neither the card nor the private event."""
    for seed in range(5, 25):  # the first random game with a secret card choice
        seats, options, log, states = _game(3, seed, True)
        for i, (seat, act) in enumerate(log):
            card = act.get("house_card")
            if card is None or states[i]["secret"].get(seat, {}).get("house_card") != card:
                continue
            mine = replay.view_at("agot", seats, options, seed, log, i, seat)
            assert mine["state"]["secret"][seat]["house_card"] == card
            assert any(e.get("card") == card for e in mine["events"])
            for viewer in [s for s in seats if s != seat] + [None]:
                seen = replay.view_at("agot", seats, options, seed, log, i, viewer)
                assert seat not in seen["state"]["secret"]
                assert all(e.get("card") != card for e in seen["events"])
            return
    raise AssertionError("no random game among seeds 5-24 had a card chosen in secret")


def test_log_rows_as_mappings_and_a_corrupt_log() -> None:
    seats, options, log, states = _game(3, 6, False)
    rows = [{"seat": s, "action": a} for s, a in log]
    assert replay.view_at("agot", seats, options, 6, rows, 5, REFEREE)["state"] == states[5]
    bad = list(log[:3]) + [(log[3][0], {"march": {"from": "nowhere", "moves": {}}})]
    with pytest.raises(EngineError) as info:
        replay.state_at("agot", seats, options, 6, bad, 3)
    assert "action 3" in info.value.reason
