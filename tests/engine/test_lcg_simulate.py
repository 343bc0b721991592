"""`manage.py simulate --game lcg` (issue 16): seeded random games for each pairing of the two decks
run clean, with the invariants and the ability limits checked after every action (bot.check_invariants,
bot.check_limits). The 1,000-game run is recorded in docs/engine-lcg.md; the suite keeps a small one."""
from __future__ import annotations

import io

from django.core.management import call_command


def test_simulate_lcg_runs_clean_games_for_every_pairing_of_decks():
    out = io.StringIO()
    call_command("simulate", "--game", "lcg", "--games", "4", "--seed", "11", stdout=out)
    text = out.getvalue()
    assert "lcg: 16 games of 2 players per pairing of decks, seeds 11..14: 16 ok, 0 failed" in text
