"""Issue 4 quality bar: random bots play complete 10-round games with the full Westeros phase for 3-6
players, invariants checked after every action (bot.check_invariants: unit limits, supply outside a
pending reconciliation, power tokens, one house per area, victory track, JSON round trip). 300 seeded
games here, half of them with Tides of Battle (plus the 32 of test_agot_random_games.py);
`manage.py simulate` runs the rest (e.g. --games 1000 per player count)."""
from __future__ import annotations

import pytest

from games.engine.agot import bot

# (players, first seed, games): sized so that the chunks run in about the same time on 2 workers
CHUNKS = [(3, 40_000, 30), (3, 40_030, 30), (4, 41_000, 20), (4, 41_020, 20),
          (5, 42_000, 14), (5, 42_014, 14), (6, 43_000, 8), (6, 43_008, 8), (6, 43_016, 6)]


@pytest.mark.parametrize("tides", [False, True], ids=["plain", "tides"])
@pytest.mark.parametrize(("players", "seed", "games"), CHUNKS)
def test_random_games_with_the_westeros_phase(players: int, seed: int, games: int, tides: bool) -> None:
    for s in range(seed, seed + games):
        st = bot.play_random_game(players, s, check=True, options={"tides_of_battle": tides})["state"]
        assert st["phase"] == "over" and st["ranking"][0] == st["winner"]
        assert st["round"] == 10 or st["victory"][st["winner"]] >= 7
        resolved = sum(len(v) for v in st["westeros"]["discards"].values())
        assert resolved >= 3 * (st["round"] - 1) - 3  # every Westeros phase resolved its cards (R42)
