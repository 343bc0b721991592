"""The README stays true: every repository path it names exists, the files it says are ignored are,
and its worked example (docs/examples/play_to_the_end.py) plays a game to its end against a live
server."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

# A backticked span that is one token made of path characters and either has a slash or ends in a
# file extension: `games/replay.py`, `docs/`, `.ci/run`, `agot_engine.py`. URLs, API routes
# (`/api/...`), commands with spaces, placeholders (`<game>`, `{id}`) and host:port values are not
# repository paths.
PATH_CHARS = re.compile(r"^[A-Za-z0-9_.\-/]+$")
EXTENSION = re.compile(r"\.(py|md|txt|toml|cfg|ini|json|ya?ml|conf|service|sh|js|css|html|png|jpg|svg)$")


def readme_paths(text: str) -> list[str]:
    paths = []
    for span in re.findall(r"`([^`\n]+)`", text):
        if not PATH_CHARS.match(span) or span.startswith("/") or "://" in span:
            continue
        if "/" in span or EXTENSION.search(span):
            paths.append(span)
    # Markdown links and images to local files: [text](docs/x.md), ![alt](docs/screenshots/home.png)
    paths += [target for target in re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", text) if "://" not in target
              and not target.startswith(("mailto:", "/"))]
    return sorted(set(paths))


def tracked_files() -> list[str] | None:
    if not shutil.which("git") or not (ROOT / ".git").exists():
        return None
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.splitlines() if done.returncode == 0 else None


def test_the_path_finder_finds_paths_and_only_paths():
    sample = ("`games/replay.py`, `docs/`, `.ci/run`, `agot_engine.py`, `/api/v1/games/{id}`, `GET /x`, "
              "`tests/scenarios/<game>/`, `redis://host:6379/0`, `python3 dev.py start`, `DEBUG`, "
              "![home](docs/screenshots/home.png) [api](https://example.com/x.md)")
    assert readme_paths(sample) == [".ci/run", "agot_engine.py", "docs/", "docs/screenshots/home.png",
                                    "games/replay.py"]


def test_every_path_the_readme_names_is_in_the_repository():
    paths = readme_paths(README.read_text())
    assert len(paths) > 20  # the finder still finds the README's paths
    tracked = tracked_files()
    names = {Path(f).name for f in tracked} if tracked is not None else {
        f.name for f in ROOT.rglob("*") if ".venv" not in f.parts and ".git" not in f.parts}
    missing = []
    for path in paths:
        if path.startswith("../"):
            missing.append(f"{path} (outside the repository)")
        elif is_ignored(path) if tracked is not None else ignored_by_name(path):
            continue  # made by the tools (`.venv/`, `staticfiles/`): named, not shipped
        elif "/" not in path:
            if path not in names:  # a bare file name (`agot_engine.py` in the benchmarks table)
                missing.append(path)
        elif not (ROOT / path).exists():
            missing.append(path)
    assert missing == [], f"README.md names files the repository does not have: {missing}"


def ignored_by_name(path: str) -> bool:
    """Without git (an unpacked archive): a folder `.gitignore` names as it is (`.venv/`)."""
    lines = {line.strip() for line in (ROOT / ".gitignore").read_text().splitlines()}
    return path.split("/")[0] + "/" in lines


def is_ignored(path: str) -> bool:
    return subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0


@pytest.mark.parametrize("path", ["db.sqlite3", "db.sqlite3-wal", "db.sqlite3-shm", "db.sqlite3-journal",
                                  "other.sqlite3-wal", "other.sqlite3-shm", "staticfiles/app.css",
                                  "test-artifacts/failed.png", ".venv/bin/python", "celerybeat-schedule",
                                  "westeros.egg-info/PKG-INFO"])
def test_what_the_tools_leave_behind_is_ignored(path):
    if tracked_files() is None:
        pytest.skip("not a git checkout")
    assert is_ignored(path), f"{path} is not ignored"


@pytest.mark.slow_once  # its own server on a SQLite file of its own: the same on both CI passes
def test_the_readme_example_plays_a_game_to_its_end_against_bots(tmp_path):
    """docs/examples/play_to_the_end.py, as the README runs it, against a real Daphne server."""
    from tests.live_server import running_server

    script = ROOT / "docs" / "examples" / "play_to_the_end.py"
    with running_server([sys.executable, "manage.py", "serve", "127.0.0.1:{port}", "--noreload"]) as server:
        server.manage("shell", "-c", "from accounts.models import User\n"
                      "for name in ('alice', 'bob', 'carol'):\n"
                      "    User.objects.create_user(name, f'{name}@example.com', f'{name}-password')")
        fairness = tmp_path / "fairness.json"
        done = subprocess.run([sys.executable, str(script), "--url", server.url, "--player", "alice:alice-password",
                               "--bots", "bob:bob-password,carol:carol-password", "--save-fairness", str(fairness)],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr + server.output()
        out = done.stdout
        assert "websocket: hello as seat" in out and "2 seat(s) handed to the bot" in out
        assert re.search(r"game \d+ finished at version \d+: ranking \[", out), out
        assert "fairness: seed matches its commitment" in out
        verified = server.manage("verify_replay", str(fairness))
        assert verified.startswith("VERIFIED")
        payload = json.loads(fairness.read_text())
        assert payload["status"] == "finished" and payload["final_version"] == len(payload["actions"])



def sh_block(text: str, containing: str) -> str:
    blocks = [b for b in re.findall(r"```sh\n(.*?)```", text, re.S) if containing in b]
    assert len(blocks) == 1, f"one README sh block with {containing!r}"
    return blocks[0]


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq") and shutil.which("bash")),
                    reason="the README's curl example needs curl, jq and bash")
def test_the_readme_curl_example_plays_the_demo_games_first_orders():
    from tests.live_server import running_server

    block = sh_block(README.read_text(), "/api/v1/auth/token")
    with running_server([sys.executable, "manage.py", "serve", "127.0.0.1:{port}", "--noreload"]) as server:
        assert "Demo game" in server.manage("seed_demo")
        script = block.replace("URL=http://127.0.0.1:8000", f"URL={server.url}", 1)
        assert script != block
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr + server.output()
        before, after = [json.loads(line) for line in done.stdout.splitlines()]
        assert before["your_seat"] == "baratheon" and before["pending"].get("baratheon") == "place_orders"
        assert before["legal_actions"] is None  # orders are composed, not listed
        # Applied (an error would carry no version). Baratheon may be asked for orders again already: the
        # bots play everything else, and an all-defence plan leaves nothing to resolve this round.
        assert isinstance(after["version"], int) and after["version"] > before["version"], after


def test_the_screenshots_are_there_and_small():
    text = README.read_text()
    shots = re.findall(r"!\[[^\]]*\]\((docs/screenshots/[^)]+\.png)\)", text)
    assert len(shots) >= 4
    for shot in shots:
        data = (ROOT / shot).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 300_000, shot
        width = int.from_bytes(data[16:20], "big")
        assert width == 1440, f"{shot} is {width} px wide"


# --------------------------------------------------------------------------- docs/examples/tiny_ruleset.py


@pytest.fixture
def ravens():
    """docs/examples/tiny_ruleset.py registered for one test, then taken out of the registry again."""
    import importlib.util

    from games.engine import base

    spec = importlib.util.spec_from_file_location("tiny_ruleset", ROOT / "docs" / "examples" / "tiny_ruleset.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module.RULESET
    base._REGISTRY.pop("ravens", None)


@pytest.mark.django_db
def test_the_example_ruleset_is_played_to_its_end_through_the_platform(ravens):
    from django.urls import reverse

    from games.models import Game
    from games.replay import verify_published
    from games.services.replay import snapshot_matches_log
    from ratings.models import Rating
    from tests.factories import api_client_for, make_user

    alice, bob = make_user(), make_user()
    # a ranked lobby through the API: the engine validates the seat count and options
    created = api_client_for(alice).post(reverse("api-lobbies"), {"ruleset": "ravens", "seats": 2, "ranked": True,
                                                                 "time_limit": 3600}, format="json")
    assert created.status_code == 201, created.json()
    refused = api_client_for(alice).post(reverse("api-lobbies"), {"ruleset": "ravens", "seats": 5, "time_limit": 3600},
                                         format="json")
    assert refused.status_code == 400 and "seats" in refused.json()["fields"]
    lobby = api_client_for(bob).post(reverse("api-lobby-join", args=[created.json()["id"]])).json()
    game_id = lobby["game"]
    clients = {alice: api_client_for(alice), bob: api_client_for(bob)}
    for _ in range(10):
        for client in clients.values():
            game = client.get(reverse("api-game", args=[game_id])).json()
            seat = game["your_seat"]
            assert all(card == "hidden" for other, card in game["view"]["hands"].items() if other != seat)
            if seat in game["pending"]:
                answer = client.post(reverse("api-game-actions", args=[game_id]),
                                     {"version": game["version"], "action": game["legal_actions"][0]}, format="json")
                assert answer.status_code == 200, answer.json()
    finished = Game.objects.get(pk=game_id)
    assert finished.status == "finished" and finished.version == 6 and snapshot_matches_log(finished)
    assert sorted(finished.ranking) == ["crow", "raven"]
    assert Rating.objects.filter(ruleset="ravens").count() == 2
    fairness = api_client_for(make_user()).get(reverse("api-game-fairness", args=[game_id])).json()
    assert verify_published(fairness).ok


@pytest.mark.django_db
def test_the_example_ruleset_plays_against_bots_and_runs_scenarios(ravens):
    from games.engine.scenarios import run_scenario
    from games.services.play import do_create_game
    from tests.factories import make_user

    user = make_user()
    game = do_create_game(ruleset="ravens", seating={"raven": user, "crow": None, "owl": None})
    assert ravens.pending(game.state) == {"raven": "play"}  # the bots have played their first cards
    run_scenario({"game": "ravens", "name": "timeouts play the lowest card", "seats": ["raven", "crow"], "seed": 3,
                  "steps": [{"timeout": ["raven", "crow"]}, {"expect": {"trick": 2, "pending": {"raven": "play",
                                                                                                 "crow": "play"}}}]})


# --------------------------------------------------------------------------- Troubleshooting


def test_troubleshooting_a_port_in_use_is_named_and_the_server_stops(tmp_path):
    """The README's first troubleshooting row: what `manage.py serve` says when the port is taken."""
    import socket

    from tests.live_server import embedded_env

    env = embedded_env(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "manage.py", "serve", f"127.0.0.1:{port}", "--noreload"], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=60)
    assert "Address already in use" in done.stdout + done.stderr
    row = next(line for line in README.read_text().splitlines() if "Address already in use" in line)
    assert "Listen failure" in row and "Listen failure" in done.stdout + done.stderr


def test_troubleshooting_migrate_check_exits_1_while_a_migration_is_pending(tmp_path):
    from tests.live_server import embedded_env

    env = embedded_env(tmp_path)
    pending = subprocess.run([sys.executable, "manage.py", "migrate", "--check"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
    assert pending.returncode == 1
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=300)
    assert subprocess.run([sys.executable, "manage.py", "migrate", "--check"], cwd=ROOT, env=env,
                          capture_output=True, timeout=120).returncode == 0
    assert "`.venv/bin/python manage.py migrate --check` exits 1 while one is pending" in README.read_text()


# --------------------------------------------------------------------------- the README's commands, as written
#
# A newcomer copies the README's commands as they are, from the repository's folder, after `dev.py
# start` made .venv/: every `manage.py` runs with .venv/bin/python, and Daphne and Celery are
# .venv/bin/daphne and .venv/bin/celery (issue 27: a bare `python manage.py` or `daphne` failed).

VENV_PYTHON = ".venv/bin/python"
# What stands for a value in the README's commands, and a value that parses in its place.
PLACEHOLDERS = {"ID": "1", "PATH": "tests/scenarios", "PATH...": "tests/scenarios"}


def readme_commands(text: str) -> list[str]:
    """Every command of the README: each line of its sh blocks (continuation lines joined, comments
    and `export`s left out, `a && b` split), and each backticked span that calls a program."""
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    commands = []
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            line = " ".join(line.split("  #")[0].split())
            if line and not line.startswith(("#", "export ")):
                commands += [part.strip() for part in line.split("&&")]
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    for span in re.findall(r"`([^`]+)`", prose):
        span = " ".join(span.split())
        if re.search(r"(^|/|\s)(python3?|manage\.py|daphne|celery)(\s|$)", span) and " " in span:
            commands.append(span)
    return commands


def manage_py_commands(text: str) -> list[tuple[str, list[str]]]:
    """(the program before `manage.py`, the arguments after it) for every manage.py command. A span
    that starts with `manage.py` names a command in a sentence ("`manage.py serve`, Daphne's
    development server"): not a command line."""
    found = []
    for command in readme_commands(text):
        words = command.split()
        if "manage.py" in words[1:]:
            at = words.index("manage.py")
            found.append((" ".join(words[:at]), words[at + 1:]))
    return found


def test_the_command_finder_finds_commands():
    sample = ("Run `python manage.py migrate` and `.venv/bin/python manage.py\ncheck_game ID`, not `DEBUG` or "
              "`games/replay.py`; `manage.py serve` is named.\n```sh\nexport A=1\n.venv/bin/python manage.py check && python manage.py migrate \\\n"
              "    --no-input\ndaphne -e tcp:port=8000 x   # a comment\n```\n")
    assert readme_commands(sample) == [".venv/bin/python manage.py check", "python manage.py migrate --no-input",
                                       "daphne -e tcp:port=8000 x", "python manage.py migrate",
                                       ".venv/bin/python manage.py check_game ID", "manage.py serve"]
    assert [program for program, _ in manage_py_commands(sample)] == [VENV_PYTHON, "python", "python", VENV_PYTHON]


def test_every_manage_py_command_runs_with_the_venv_s_python_and_parses():
    """Each `manage.py` command of the README names .venv/bin/python, names a command the project has,
    and its arguments are ones that command takes (placeholders such as ID given a value)."""
    from django.core.management import get_commands, load_command_class
    from django.core.management.base import CommandError

    commands = manage_py_commands(README.read_text())
    assert len(commands) >= 12  # the finder still finds them
    wrong = [f"{program} manage.py {' '.join(args)}" for program, args in commands if program != VENV_PYTHON]
    assert wrong == [], f"README.md runs manage.py without {VENV_PYTHON}: {wrong}"
    known = get_commands()
    for _, args in commands:
        if args in ([], ["..."]):
            continue
        name, rest = args[0], [PLACEHOLDERS.get(arg, arg) for arg in args[1:]]
        assert name in known, f"README.md runs `manage.py {name}`, which is no command of the project"
        parser = load_command_class(known[name], name).create_parser("manage.py", name)
        try:
            parser.parse_args(rest)
        except CommandError as error:
            raise AssertionError(f"README.md: `manage.py {' '.join(args)}`: {error}") from None
    assert (ROOT / VENV_PYTHON).exists(), "the README's commands run with .venv/bin/python: run `python3 dev.py test`"


def test_daphne_and_celery_are_the_venv_s_and_take_the_readme_s_options():
    """Every Daphne and Celery command of the README is .venv/bin/daphne (or the site's Daphne,
    .venv/bin/python -m westeros.asgi_server) or .venv/bin/celery, and the program (for Celery: with
    the project's app and that subcommand) knows each option it is given."""
    commands = [command.split() for command in readme_commands(README.read_text())
                if re.match(r"\S*(daphne|celery|python -m westeros\.asgi_server) ", command)]
    assert len(commands) >= 6
    bare = [" ".join(words) for words in commands if words[0] not in (".venv/bin/daphne", ".venv/bin/celery")
            and words[:3] != [VENV_PYTHON, "-m", "westeros.asgi_server"]]
    assert bare == [], f"README.md runs Daphne or Celery outside .venv/: {bare}"
    for words in {tuple(words) for words in commands}:
        program = list(words[:4]) if words[0].endswith("celery") else [words[0]]  # celery -A westeros SUB
        program = list(words[:3]) if words[0] == VENV_PYTHON else program  # python -m westeros.asgi_server
        done = subprocess.run([*program, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (words, done.stdout + done.stderr)
        for option in (word for word in words[len(program):] if word.startswith("-")):
            assert option in done.stdout, f"`{' '.join(words)}`: {program} --help has no {option}"


def test_the_troubleshooting_migrate_check_runs_as_written(tmp_path):
    """The README's own words for the pending-migration check, run as a newcomer pastes them."""
    import shlex

    from tests.live_server import embedded_env

    row = next(line for line in README.read_text().splitlines() if "migrate --check" in line)
    command = re.search(r"`([^`]*manage\.py migrate --check)`", row).group(1)
    done = subprocess.run(shlex.split(command), cwd=ROOT, env=embedded_env(tmp_path), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr  # a fresh database: every migration is pending
