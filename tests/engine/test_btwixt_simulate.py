"""`manage.py simulate --game btwixt`: the command's B'Twixt path (options parsed, games played with
invariant checks, failures reported with their seed)."""
from __future__ import annotations

import pytest

from games.management.commands import simulate


def test_parse_options():
    assert simulate.parse_btwixt_options("advanced, draft") == {"advanced": True, "draft": True}
    assert simulate.parse_btwixt_options("") == {}
    with pytest.raises(ValueError):
        simulate.parse_btwixt_options("turbo")


@pytest.mark.parametrize("players", [3, 6])
def test_run_btwixt_plays_checked_games(players):
    res = simulate.run_btwixt(players, 3, 1, True, {"advanced": True})
    assert res["failures"] == []
    assert res["games"] == 3 and res["actions"] > 0
    assert sum(res["winners"].values()) >= 3


def test_agot_still_runs():
    res = simulate.run(3, 1, 1, True, False, False)
    assert res["failures"] == []
