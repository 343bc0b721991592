"""dev.py's usage (issue 27): `--help` and `COMMAND --help` print it and exit 0 without installing or
running anything; a command it does not know, or arguments a command does not take, exit 2 with
the usage on stderr.

Each run is of a copy of dev.py in a folder of its own: were the help ever to fall through to the
command again, it would create its .venv/ there (and time out), never touch the checkout's."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ("start", "test", "bench")


@pytest.fixture(scope="module")
def dev_py(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("dev_py")
    shutil.copy(ROOT / "dev.py", folder / "dev.py")
    return folder / "dev.py"


def run(dev_py: Path, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, str(dev_py), *args], cwd=dev_py.parent, capture_output=True, text=True,
                          timeout=60)
    # Nothing was installed or run: no virtual environment, no "$ command" line of dev.py's run().
    assert not (dev_py.parent / ".venv").exists(), done.stdout + done.stderr
    assert "$ " not in done.stdout, done.stdout
    return done


@pytest.mark.parametrize("flag", ["--help", "-h", "help"])
def test_help_lists_every_command_on_one_line_each(dev_py, flag):
    done = run(dev_py, flag)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python3 dev.py COMMAND") and done.stderr == ""
    lines = done.stdout.splitlines()
    for command in COMMANDS:
        described = [line for line in lines if line.strip().startswith(command + " ") or line.strip() == command]
        assert len(described) == 1, (command, done.stdout)
        assert len(described[0].split(None, 1)[-1]) > 20, described  # a description, not just the name
    assert "start [ADDRESS]" in done.stdout and "test [PYTEST ARGS...]" in done.stdout
    assert "minutes" in done.stdout  # the first run installs the project


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_s_help_describes_it_and_runs_nothing(dev_py, command):
    done = run(dev_py, command, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: python3 dev.py {command}"), done.stdout
    assert not any(other in done.stdout.split() for other in COMMANDS if other != command), done.stdout
    assert run(dev_py, "help", command).stdout == run(dev_py, command, "-h").stdout.split("Every pytest option")[0]


def test_bench_help_is_the_usage_not_the_benchmarks(dev_py):
    done = run(dev_py, "bench", "--help")
    assert done.returncode == 0 and "benchmarks" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize("args, says", [
    ((), "usage: python3 dev.py COMMAND"),
    (("serve",), "no command 'serve'"),
    (("bench", "--fast"), "dev.py bench takes no arguments"),
    (("start", "127.0.0.1:8000", "extra"), "dev.py start takes one address at most"),
    (("start", "--port", "8000"), "dev.py start takes one address at most"),
])
def test_a_wrong_call_exits_2_with_the_usage_on_stderr(dev_py, args, says):
    done = run(dev_py, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert says in done.stderr and "usage: python3 dev.py" in done.stderr, done.stderr
