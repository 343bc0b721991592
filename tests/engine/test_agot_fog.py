"""Fog of war (issue 34; docs/rules-decisions.md "AGoT variants"): over whole random games with the
option on, no seat's view, summary or event, and nothing a spectator is shown, names a unit, order,
token or area the seat may not see (R3 areas, R164 control, R289-R296 hidden information).

The visible areas are computed here again from the rule's words (own areas + neighbours by land, sea
and port), independently of games/engine/agot/fog.py, and the leak scanner is first shown to catch a
planted leak. Non-interference: changing what stands in areas a seat does not see leaves its view
unchanged."""
from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games.engine.agot import board as B
from games.engine.agot import bot, fog, replay
from games.engine.agot.data import board
from games.engine.base import REFEREE, EngineError
from tests.engine.agot_helpers import R

FOG = {"fog_of_war": True}


def expected_visible(state: dict[str, Any], seat: str) -> set[str]:
    """The rule in its own words: the areas the seat controls (units, power token, its home shield when
    no other house holds it) or has units or orders in, plus every area adjacent to one of those on the
    board, and a port's land and sea areas (and the other way round)."""
    b = board()
    own: set[str] = set()
    for a, by in state["units"].items():
        if by.get(seat):
            own.add(a)
    for a, h in state["power_tokens"].items():
        if h == seat and not state["units"].get(a):
            own.add(a)
    home = B.home_area(state, seat)  # the printed one, or the one dealt by random start positions
    if home and not state["units"].get(home) and state["power_tokens"].get(home) in (None, seat):
        own.add(home)
    own.update(a for a, o in state["orders"].items() if o["house"] == seat)
    own.update(state["secret"][seat].get("orders", {}))
    out = set(own)
    for a in own:
        out.update(b.adjacent[a])
        if b.type[a] == "port":
            out.update((b.port_land[a], b.port_sea[a]))
        for p in b.ports:
            if a in (b.port_land[p], b.port_sea[p]):
                out.add(p)
    return out


def test_the_scanner_catches_a_planted_leak():
    state = R.new_game(R.seat_names(3), FOG, 1)
    vis = fog.visible_areas(state, "stark")
    shown = R.view(state, "stark")
    assert fog.leaked_areas(shown, "stark", vis) == set()
    planted = copy.deepcopy(shown)
    planted["units"]["lannisport"] = {"lannister": ["knight"]}
    assert fog.leaked_areas(planted, "stark", vis) == {"lannisport"}
    deep = copy.deepcopy(shown)
    deep["action"] = {"march": {"house": "lannister", "from": "lannisport", "area": "the_golden_tooth"}}
    assert "lannisport" in fog.leaked_areas(deep, "stark", vis)
    assert fog.leaked_areas(R.view(state, None), None, frozenset()) == set()


@pytest.mark.parametrize("players", [3, 6])
def test_at_the_start_each_house_sees_its_home_and_next_door_only_R3_R164(players):
    state = R.new_game(R.seat_names(players), FOG, 7)
    for seat in state["seats"]:
        view = R.view(state, seat)
        assert set(view["fog"]["visible"]) == expected_visible(state, seat)
        assert {a for a, by in view["units"].items()} <= expected_visible(state, seat)
        assert all(seat in by for a, by in view["units"].items() if a in board().home and board().home_of[a] == seat)
        others = [a for a, by in state["units"].items() if a not in expected_visible(state, seat)]
        assert others and not any(a in view["units"] for a in others)
    spectator = R.view(state, None)
    assert spectator["units"] == {} and spectator["power_tokens"] == {} and spectator["fog"]["visible"] == []
    assert R.summary(state, None)["units"] == {} and R.summary(state, None)["control"] == {}
    # what the rules make public stays: tracks, supply, power held, victory, house cards
    for key in ("tracks", "supply", "power", "victory", "hands", "discards", "wildlings"):
        assert spectator[key] == state[key], key


def test_without_the_option_nothing_is_fogged():
    state = R.new_game(R.seat_names(4), {}, 7)
    assert R.view(state, "stark")["units"] == state["units"] and "fog" not in R.view(state, "stark")


def _scramble_unseen(state: dict[str, Any], vis: set[str]) -> dict[str, Any]:
    """Move every other house's units out of the areas the viewer does not see (and drop their tokens
    and orders there): the viewer's view must not change."""
    s = copy.deepcopy(state)
    for a in list(s["units"]):
        if a not in vis:
            del s["units"][a]
    for key in ("power_tokens", "garrisons", "orders"):
        s[key] = {a: v for a, v in s[key].items() if a in vis}
    return s


def _check_events(before: dict, after: dict, events: list[dict]) -> None:
    """Every event a seat is let through names only areas it saw before or after the action, except
    the events of a combat it takes part in or whose area it sees (then also the attacker's origin)."""
    vis = {s: fog.visible_areas(before, s) | fog.visible_areas(after, s) for s in before["seats"]}
    combat = (before.get("combat") or {}).get("_current")
    for ev in events:
        if ev.get("type") == "combat_started":
            combat = {"attacker": ev["attacker"], "defender": ev["defender"], "area": ev["area"],
                      "origin": ev["origin"], "supports": {}}
        if ev.get("type") == "support_declared" and combat is not None and ev.get("for"):
            combat["supports"][ev["house"]] = ev["for"]
        named = fog.areas_named(ev)
        assert R.event_view(ev, None) is None or not named, ev  # a spectator sees no area
        for s in before["seats"]:
            shown = R.event_view(ev, s)
            if shown is None or after["phase"] == "over":
                continue
            assert "seen" not in shown
            in_combat = combat is not None and ev.get("type") in fog.COMBAT_EVENTS
            if in_combat and s in fog.participants(combat):
                continue
            allowed = vis[s] | ({combat["area"], combat["origin"]} if in_combat else set())
            assert fog.areas_named(shown) <= allowed, (s, ev, fog.areas_named(shown) - allowed)
        if ev.get("type") == "combat_over":
            combat = None


@pytest.mark.parametrize(("players", "options"), [
    (3, FOG), (4, FOG), (5, FOG), (6, FOG),
    (3, {**FOG, "random_starts": True}), (6, {**FOG, "random_starts": True})])
def test_whole_games_with_fog_leak_nothing(players, options):
    rnd = random.Random(players)
    for seed in range(1):
        state = R.new_game(R.seat_names(players), options, 900 + seed)
        steps = 0
        while not R.is_over(state):
            if steps % 4 == 0:
                for seat in [*state["seats"], None]:
                    vis = set(fog.visible_areas(state, seat))
                    if seat is not None:
                        assert vis == expected_visible(state, seat) | _combat_extra(state, seat), (seed, steps, seat)
                    view, summ = R.view(state, seat), R.summary(state, seat)
                    assert not fog.leaked_areas(view, seat, frozenset(vis)), (seed, steps, seat)
                    assert not fog.leaked_areas(summ, seat, frozenset(vis)), (seed, steps, seat)
                    if state["combat"] is None or "_current" not in state["combat"]:
                        other = _scramble_unseen(state, vis)
                        assert R.view(other, seat)["units"] == view["units"]
                        assert R.summary(other, seat)["control"] == summ["control"]
            seat = rnd.choice(sorted(R.pending(state)))
            after, events = R.apply(state, seat, R.random_action(state, seat, rnd))
            _check_events(state, after, events)
            state = after
            steps += 1
        # the fog lifts at the end: everyone, spectators too, sees the whole board
        assert R.view(state, None)["units"] == state["units"]
        assert "fog" not in R.view(state, state["seats"][0])


def _combat_extra(state: dict[str, Any], seat: str) -> set[str]:
    """A house taking part in the combat under way sees its area; a marching house its destination."""
    out: set[str] = set()
    cur = (state.get("combat") or {}).get("_current")
    if cur and seat in fog.participants(cur):
        out.add(cur["area"])
    march = (state.get("action") or {}).get("march") or {}
    if march.get("house") == seat and march.get("area"):
        out.add(march["area"])
    return out


def test_simulated_games_keep_every_invariant_with_fog():
    """bot.check_invariants runs fog.check (no seat's or spectator's view or summary names an unseen
    area) after every action when the option is on."""
    for seed in range(2):
        res = bot.play_random_game(3 + 3 * seed, 300 + seed, check=True, options={**FOG, "tides_of_battle": seed % 2 == 0})
        assert res["state"]["phase"] == "over"


def test_replays_show_each_seat_its_own_fog():
    res = bot.play_random_game(4, 21, check=False, options=FOG, log=True)
    seats = R.seat_names(4)
    log = res["log"]
    state = R.new_game(seats, FOG, 21)
    for i, (seat, act) in enumerate(log[:60]):
        state, events = R.apply(state, seat, act)
        if i % 10:
            continue
        for viewer in [*seats, None]:
            shown = replay.view_at(R, seats, FOG, 21, log, i, viewer)
            assert shown["state"] == R.view(state, viewer)
            assert shown["events"] == [e for e in (R.event_view(ev, viewer) for ev in events) if e is not None]
        assert replay.view_at(R, seats, FOG, 21, log, i, REFEREE)["state"] == state


def test_orders_revealed_reach_each_seat_cut_to_what_it_sees():
    rnd = random.Random(5)
    state = R.new_game(R.seat_names(6), FOG, 5)
    while state["step"] == "assign":
        seat = rnd.choice(sorted(R.pending(state)))
        state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
    revealed = [e for e in events if e["type"] == "orders_revealed"]
    assert revealed and all("seen" in e for e in revealed)
    for seat in state["seats"]:
        mine = [R.event_view(e, seat) for e in revealed]
        mine = [e for e in mine if e is not None]
        assert len(mine) == 1, seat
        assert set(mine[0]["orders"]) <= fog.visible_areas(state, seat)
        assert any(seat in by for by in mine[0]["orders"].values())
    assert all(R.event_view(e, None) is None for e in revealed)


@pytest.mark.parametrize(("options", "ok"), [
    ({"castles_to_win": 3}, True), ({"castles_to_win": 20}, True), ({"castles_to_win": 2}, False),
    ({"castles_to_win": 21}, False), ({"castles_to_win": True}, False), ({"castles_to_win": "7"}, False),
    ({"rounds": 1}, True), ({"rounds": 10}, True), ({"rounds": 0}, False), ({"rounds": 11}, False),
    ({"fog_of_war": "yes"}, False), ({"fog_of_war": 1}, False)])
def test_variant_options_are_checked_R34_R37(options, ok):
    if ok:
        assert R.new_game(R.seat_names(3), options, 1)["options"] | options == R.new_game(R.seat_names(3), options, 1)["options"]
    else:
        with pytest.raises(EngineError) as info:
            R.new_game(R.seat_names(3), options, 1)
        assert info.value.code == "illegal_action"


@pytest.mark.parametrize("rounds", [1, 4])
def test_a_shorter_game_ends_after_its_last_round_R37(rounds):
    for seed in range(2):
        state = bot.play_random_game(4, 40 + seed, check=False, options={"rounds": rounds})["state"]
        assert state["phase"] == "over" and state["round"] <= rounds
        if max(state["victory"].values()) < 7:  # no instant win: the game ran to its last round
            assert state["round"] == rounds
