"""dev.py's usage (issue 27): `--help` and `COMMAND --help` print it and exit 0 without installing or
running anything; a command it does not know, or arguments a command does not take, exit 2 with
the usage on stderr.

Each run is of a copy of dev.py in a folder of its own: were the help ever to fall through to the
command again, it would create its .venv/ there (and time out), never touch the checkout's."""
from __future__ import annotations

import os
import re
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


# --- dev.py test and the CI passes (issue 27: "The suite and the README stay usable") -----------

def test_dev_py_test_asks_pytest_for_the_25_slowest_tests_before_the_caller_s_arguments(monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    calls: list[list[str]] = []
    monkeypatch.setattr(dev, "ensure_installed", lambda extras="": None)
    monkeypatch.setattr(dev, "run", lambda *args, env=None: calls.append([str(a) for a in args]))
    dev.test(["-k", "lobby", "--durations=60"])
    [ruff, compile_call, pytest_call] = calls
    assert ruff[1:] == ["check", "."]
    assert compile_call[1:] == ["manage.py", "compile_translations"]  # the Spanish the tests read (issue 29)
    assert pytest_call[1:6] == ["-m", "pytest", "-n", "2", "-q"]
    # the default first, the caller's arguments after it (pytest keeps the last --durations)
    assert pytest_call[6:] == ["--durations=25", "-k", "lobby", "--durations=60"]


def pytest_run(*args: str, long_tests_ran_on: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "LONG_TESTS_RAN_ON"}
    if long_tests_ran_on:
        env["LONG_TESTS_RAN_ON"] = long_tests_ran_on
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


BROWSER_FILE = "tests/browser/test_site_pages.py"
ENGINE_FILE = "tests/engine/test_agot_terms.py"  # the engine's tests: pure Python, no database
QUICK_TEST = "tests/test_dev_py.py::test_bench_help_is_the_usage_not_the_benchmarks"


def test_without_long_tests_ran_on_every_test_is_collected_browser_and_engine_ones_included():
    done = pytest_run("--collect-only", "-q", BROWSER_FILE, ENGINE_FILE, long_tests_ran_on=None)
    assert done.returncode == 0, done.stdout + done.stderr
    for path in (BROWSER_FILE, ENGINE_FILE):
        assert any(line.startswith(path + "::") for line in done.stdout.splitlines()), (path, done.stdout)
    assert "deselected" not in done.stdout and "left out" not in done.stdout


def test_the_second_ci_pass_leaves_the_slow_once_tests_out_and_says_why_before_the_summary_line():
    done = pytest_run("-q", "--durations=25", BROWSER_FILE, ENGINE_FILE, QUICK_TEST, long_tests_ran_on="PostgreSQL")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    # CI reads the last line: pytest's summary, after the slowest tests and the reason
    assert re.fullmatch(r"1 passed, [1-9]\d* deselected in [\d.]+s( \(.*\))?", lines[-1]), lines[-1]
    left_out = int(re.search(r"(\d+) deselected", lines[-1]).group(1))
    said = f"{left_out} long tests (marked slow_once) were left out: they ran on PostgreSQL earlier in this CI run."
    assert said in lines, done.stdout
    assert any("slowest 25 durations" in line for line in lines), done.stdout
    ran = done.stdout.split("slowest 25 durations")[-1]
    assert "test_site_pages" not in ran and "test_agot_terms" not in ran  # none of them ran
