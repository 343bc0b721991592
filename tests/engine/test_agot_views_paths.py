"""The scenario runner hook `summary_path_error`: expect paths naming an unknown area, house, track or
summary key fail instead of reading an absent value (SCENARIOS.md)."""
from __future__ import annotations

import pytest

from tests.engine.agot_helpers import R


@pytest.mark.parametrize("path", ["units.winterfell.stark", "control.the_reach", "pool.greyjoy", "tracks.fiefdoms",
                                  "holder.messenger_raven", "decks.wildlings", "combat.strength.stark", "pending",
                                  "orders.blackwater.lannister", "revealed.westeros", "ranking", "peeked"])
def test_readable_paths(path):
    assert R.summary_path_error(path) is None


@pytest.mark.parametrize("path", ["units.winterfel.stark", "units.winterfell.targaryen", "power.nobody", "foo",
                                  "tracks.iron_bank", "holder.blade", "decks.westeros_4"])
def test_unreadable_paths(path):
    assert R.summary_path_error(path)
