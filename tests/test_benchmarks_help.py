"""The benchmarks' usage (issue 27): every script in benchmarks/ answers `--help` and `-h` with its usage
and exit status 0 without measuring anything, and refuses an option it does not know with argparse's
usage error (exit status 2), never a traceback. The scripts that took their arguments from sys.argv
by hand keep their defaults (what `dev.py bench` runs: no arguments) and their positional forms.

A benchmark that ignored --help would run for minutes and print its figures; one that crashed on it
would exit 1 with a traceback. The help is printed while the arguments are parsed, before anything
is measured, and argparse exits right after it: stdout opening with "usage:" and nothing on stderr
show that nothing ran before it either."""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
SCRIPTS = sorted(p.name for p in BENCHMARKS.glob("*.py") if 'if __name__ == "__main__":' in p.read_text())
# Figures as the benchmarks print them (not as their descriptions mention them): "median full game:
# 12.3 ms", "random game: median 0.120 s", "wins 20/30 = 67%", "182/200 = 91.0% won", a load line.
FIGURES = re.compile(r"median (full game: )?\d|\b\d+/\d+ = \d|load average while measuring")


def test_the_scripts_are_found():
    assert {"agot_bot.py", "agot_engine.py", "chaos.py", "db_growth.py", "handshake_storm.py", "lcg.py",
            "lcg_replay_check.py", "minis.py", "pages.py", "server_api.py", "server_live.py"} <= set(SCRIPTS)
    assert "pages_settings.py" not in SCRIPTS  # settings, not a script


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    return subprocess.run([sys.executable, f"benchmarks/{script}", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("flag", ["--help", "-h"])
@pytest.mark.parametrize("script", SCRIPTS)
def test_help_prints_the_usage_and_runs_nothing(script, flag):
    done = run(script, flag)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"usage: {script} "), done.stdout
    assert done.stderr == "", done.stderr
    assert not FIGURES.search(done.stdout), done.stdout


@pytest.mark.parametrize("script", SCRIPTS)
def test_an_unknown_option_is_a_usage_error(script):
    done = run(script, "--no-such-option")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "usage:" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout == "", done.stdout


def load(script: str):
    spec = importlib.util.spec_from_file_location(f"benchmark_{script.removesuffix('.py')}", BENCHMARKS / script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("script", "argv", "expected"), [
    # no arguments: what dev.py bench runs, the defaults the scripts had
    ("agot_bot.py", [], {"games": 30}),
    ("agot_bot.py", ["12"], {"games": 12}),
    ("agot_engine.py", [], {"games": 50, "tides": False}),
    ("agot_engine.py", ["20", "--tides"], {"games": 20, "tides": True}),
    ("agot_engine.py", ["--tides", "20"], {"games": 20, "tides": True}),
    ("lcg.py", [], {"prompts": False, "replay": False}),
    ("lcg.py", ["--prompts"], {"prompts": True, "replay": False}),
    ("lcg.py", ["--replay"], {"prompts": False, "replay": True}),
    ("lcg_replay_check.py", ["record", "24", "/tmp/before.json"],
     {"command": "record", "n": 24, "path": "/tmp/before.json"}),
    ("lcg_replay_check.py", ["verify", "/tmp/before.json"], {"command": "verify", "path": "/tmp/before.json"}),
    ("minis.py", [], {"games": 200, "player_games": 200}),
    ("minis.py", ["40"], {"games": 40, "player_games": 200}),
    ("minis.py", ["40", "60"], {"games": 40, "player_games": 60}),
])
def test_the_arguments_they_took_before(script, argv, expected):
    args = vars(load(script).parse_args(argv))
    assert {k: args[k] for k in expected} == expected


@pytest.mark.parametrize(("script", "argv"), [
    ("agot_bot.py", ["thirty"]),
    ("agot_engine.py", ["20", "30"]),
    ("lcg.py", ["--prompts", "--replay"]),
    ("lcg.py", ["7"]),
    ("lcg_replay_check.py", []),
    ("lcg_replay_check.py", ["record", "many", "/tmp/before.json"]),
    ("lcg_replay_check.py", ["verify"]),
    ("lcg_replay_check.py", ["replay", "/tmp/before.json"]),
    ("minis.py", ["40", "60", "80"]),
    ("minis.py", ["4.5"]),
])
def test_bad_arguments_are_usage_errors(script, argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        load(script).parse_args(argv)
    assert exit_.value.code == 2
    assert "usage:" in capsys.readouterr().err
