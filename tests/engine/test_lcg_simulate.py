"""`manage.py simulate --game lcg` (issue 16): seeded random games for each pairing of the two decks
run clean, with the invariants and the ability limits checked after every action (bot.check_invariants,
bot.check_limits). The 1,000-game run is recorded in docs/engine-lcg.md; the suite keeps a small one."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def test_simulate_lcg_runs_clean_games_for_every_pairing_of_decks():
    out = io.StringIO()
    call_command("simulate", "--game", "lcg", "--games", "4", "--seed", "11", stdout=out)
    text = out.getvalue()
    assert "lcg: 16 games of 2 players per pairing of decks, seeds 11..14: 16 ok, 0 failed" in text


def test_simulate_lcg_plays_random_pairs_of_the_ready_made_decks():
    """Issue 30: the Core Set's eight ready-made decks, paired by each game's seed."""
    out = io.StringIO()
    call_command("simulate", "--game", "lcg", "--decks", "ready-made", "--games", "3", "--seed", "21", stdout=out)
    text = out.getvalue()
    assert "lcg: 3 games of 2 players between random pairs of the ready-made decks, seeds 21..23: 3 ok, 0 failed" in text
    assert "the_old_ways" not in text and "secrets_and_schemes" not in text  # the learn-to-play decks are left out


def test_decks_apply_to_the_card_game_only():
    with pytest.raises(CommandError, match="--decks does not apply to --game minis"):
        call_command("simulate", "--game", "minis", "--decks", "ready-made", "--games", "1", stdout=io.StringIO())


def test_simulate_lcg_melee_with_four_players():
    """Issue 31: `--players 4` plays melees (titles, N players), invariants and check_melee after every
    action; `--bot smart` seats the engine's player in one seat; other counts are refused."""
    out = io.StringIO()
    call_command("simulate", "--game", "lcg", "--players", "4", "--games", "3", "--seed", "31", stdout=out)
    assert "lcg: 3 games of 4 players (melee), seeds 31..33: 3 ok, 0 failed" in out.getvalue()
    out = io.StringIO()
    call_command("simulate", "--game", "lcg", "--players", "3", "--games", "2", "--bot", "smart", stdout=out)
    assert "2 ok, 0 failed" in out.getvalue()
    for bad in ("7", "1"):
        with pytest.raises(CommandError, match=f"--players {bad}: lcg seats 2"):
            call_command("simulate", "--game", "lcg", "--players", bad, "--games", "1", stdout=io.StringIO())
    with pytest.raises(CommandError, match="ready-made plays a joust"):
        call_command("simulate", "--game", "lcg", "--players", "4", "--decks", "ready-made", "--games", "1",
                     stdout=io.StringIO())
