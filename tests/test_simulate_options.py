"""`manage.py simulate` refuses an option that does not apply to the chosen game (and every other
bad combination) with the reason on stderr and exit status 2, instead of ignoring it."""
from __future__ import annotations

import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parent.parent

REFUSED = [
    (["--game", "btwixt", "--tides"], "--tides does not apply to --game btwixt"),
    (["--game", "btwixt", "--bot", "smart"], "--bot smart does not apply to --game btwixt"),
    (["--game", "agot", "--options", "advanced"], "unknown agot option advanced"),
    (["--options", ""], "--options '': no agot option given"),
    (["--game", "agot", "--options", "rounds=11"], "--options 'rounds=11': option rounds must be a whole number"),
    (["--game", "btwixt", "--options", "turbo"], "unknown btwixt option turbo"),
    (["--game", "agot", "--players", "2"], "--players 2: agot seats 3 to 6 players"),
    (["--game", "btwixt", "--players", "7"], "--players 7: btwixt seats 3 to 6 players"),
    (["--games", "0"], "--games 0: play at least one game"),
    (["--game", "agot", "--terrain", "random"], "--terrain does not apply to --game agot"),
]


@pytest.mark.parametrize(("args", "reason"), REFUSED)
def test_an_option_that_does_not_apply_is_a_usage_error(args, reason):
    with pytest.raises(CommandError, match=f"^{reason}") as raised:
        call_command("simulate", *args, "--games" if "--games" not in args else "--seed", "1", stdout=StringIO())
    assert raised.value.returncode == 2


def test_both_wrong_options_are_named_at_once():
    with pytest.raises(CommandError) as raised:
        call_command("simulate", "--game", "btwixt", "--tides", "--bot", "smart", stdout=StringIO())
    assert "--tides does not apply" in str(raised.value) and "--bot smart does not apply" in str(raised.value)


def test_the_command_line_says_so_on_stderr_and_exits_2():
    done = subprocess.run([sys.executable, "manage.py", "simulate", "--game", "btwixt", "--tides", "--games", "1"],
                          cwd=ROOT, env={"PATH": "/usr/bin:/bin"}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert "--tides does not apply to --game btwixt" in done.stderr


@pytest.mark.parametrize("args", [
    ["--game", "agot", "--players", "3", "--tides", "--bot", "smart"],
    ["--game", "agot", "--players", "4", "--options", "fog_of_war,castles_to_win=5,rounds=6"],
    ["--game", "agot", "--players", "3", "--options", "random_starts,gift_power_tokens,draft_house_cards,draft_tracks,anonymous,rounds=3"],
    ["--game", "btwixt", "--players", "3", "--options", "advanced,draft"],
    ["--game", "btwixt", "--players", "3", "--bot", "random"],  # what btwixt plays anyway
])
def test_options_that_apply_still_run(args):
    out = StringIO()
    call_command("simulate", *args, "--games", "1", stdout=out)
    assert "1 ok, 0 failed" in out.getvalue()
