"""Board helpers and supply (R7-R10, R63-R66, R164, R172, R247, R256, R268-R270)."""
from __future__ import annotations

import pytest

from games.engine.agot import board as B
from games.engine.agot import supply
from games.engine.agot.data import board
from tests.engine.agot_helpers import game


def test_board_data_counts():
    b = board()
    assert (len(b.land), len(b.sea), len(b.ports)) == (38, 12, 8)
    assert len(b.castle_areas) == 20 and len(b.strongholds) == 10
    assert all(a in b.adj_set[x] for a in b.ids for x in b.adjacent[a])  # symmetric


def test_rivers_cut_adjacency_R268():
    assert "greywater_watch" not in B.adjacent("winterfell")
    assert "moat_cailin" in B.adjacent("winterfell")  # bridge (R269)


def test_islands_touch_only_sea_and_ports_R270():
    for island in ("dragonstone", "pyke", "the_arbor"):
        assert all(B.area_type(a) != "land" for a in B.adjacent(island))


@pytest.mark.parametrize("level,sizes,ok", [
    (2, [3, 2, 2], True), (2, [3, 3], False), (2, [2, 2, 2, 2], False),
    (3, [3, 2, 2, 2], True), (5, [4, 3, 2, 2], True), (3, [4, 3, 2, 2], False), (3, [3, 3, 2, 2], False),
    (0, [2, 2], True), (0, [3], False), (6, [4, 3, 2, 2, 2], True),
])
def test_supply_table_R64_R65(level, sizes, ok):
    assert supply.sizes_fit(sizes, level) is ok


def test_single_units_are_not_armies_and_routed_count_R6_R66():
    s = game({"units": {"winterfell": {"stark": ["footman", "routed_knight"]}, "karhold": {"stark": ["footman"]},
                        "castle_black": {"stark": ["footman"]}}}, start="planning")
    assert supply.army_sizes(s, "stark") == [2]
    assert supply.fits(s, "stark", {"karhold": 1, "castle_black": -1})
    s["supply"]["stark"] = 0
    assert not supply.fits(s, "stark", {"winterfell": 1, "karhold": -1})


def test_control_units_then_token_then_home_shield_R164_R172_A25():
    s = game({"units": {"winterfell": {"lannister": ["footman"]}}, "power_tokens": {"karhold": "baratheon"},
              "garrisons": {}}, start="planning")
    assert B.controller(s, "winterfell") == "lannister"
    assert B.controller(s, "karhold") == "baratheon"
    assert B.controller(s, "dragonstone") == "baratheon"  # home shield
    assert B.controller(s, "highgarden") is None  # Tyrell not seated: its shield does nothing (A25)
    assert B.controller(s, "the_shivering_sea") is None
    assert B.port_owner(s, "port_of_winterfell") == "lannister"  # R247


def test_power_pool_R7_R10():
    s = game({"power": {"stark": 18}, "power_tokens": {"karhold": "stark"}}, start="planning")
    assert B.pool(s, "stark") == 1
    assert B.gain_power(s, "stark", 3) == 1 and B.pool(s, "stark") == 0
    assert B.discard_power(s, "stark", 2) == 2 and s["power"]["stark"] == 17
