"""Terrain in new games (option `terrain: random`, M22 with the Here We Stand placement of M123 and
M21): 1D3 + 2 pieces of the M79 types, outside both deployment zones, at least 6 in from the table
edges and from each other; games on it run clean (issue 18)."""
from __future__ import annotations

import pytest

from games.engine import get_ruleset
from games.engine.base import EngineError
from games.engine.minis import bot, data
from games.engine.minis import geometry as G
from games.engine.minis import table as T

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]


@pytest.mark.parametrize("seed", range(8))
def test_random_terrain_is_placed_by_the_rules(seed):
    s = R.new_game(SEATS, {"terrain": "random"}, seed)
    assert 1 <= len(s["terrain"]) <= 5
    polys = [T.terrain_poly(t) for t in s["terrain"]]
    for t, p in zip(s["terrain"], polys, strict=True):
        assert t["type"] in data.TERRAIN_TYPES and t["keywords"] == data.TERRAIN_TYPES[t["type"]]
        minx, miny, maxx, maxy = p.bounds
        assert minx >= 6 and maxx <= 42 and miny >= 18 and maxy <= 30
    for i, p in enumerate(polys):
        for q in polys[i + 1:]:
            assert G.distance(p, q) >= 6


def test_no_terrain_by_default_and_a_bad_value_is_refused():
    assert R.new_game(SEATS, {}, 1)["terrain"] == []
    with pytest.raises(EngineError):
        R.new_game(SEATS, {"terrain": "lots"}, 1)


def test_games_on_random_terrain_keep_the_invariants():
    for seed in (3, 4):
        res = bot.play_game(seed, {"stark": "bot"}, options={"terrain": "random"})
        assert R.is_over(res["state"]) and res["state"]["terrain"]
