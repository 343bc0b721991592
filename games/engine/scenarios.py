"""The scenario runner: reads scenario files (../shared/SCENARIOS.md) and plays them through the
Ruleset interface, for any game.

`run_paths(paths)` is what `manage.py scenario` and pytest share; `run_file(path)` runs one file and
returns `(passed, message)`. Nothing here knows a game's rules: a scenario is built with
`ruleset.scenario_game`, played with `apply`/`default_action`, and checked against
`ruleset.summary`.

Two optional ruleset attributes refine the checks without the runner knowing the game:
`ordered_summary_paths` (fnmatch patterns of summary lists that compare in order; default: the
ones SCENARIOS.md names, see DEFAULT_ORDERED_PATHS) and `summary_path_error(path) -> str | None`
(why an expect path cannot be read, e.g. an unknown area, so the scenario fails instead of reading
an absent value).
"""
from __future__ import annotations

import copy
import fnmatch
import json
from collections import Counter
from pathlib import Path
from typing import Any

from games.engine import yamlfile
from games.engine.base import REFEREE, SPECTATOR, EngineError, Ruleset, ScenarioSetupError, State, get_ruleset

TOP_LEVEL_KEYS = frozenset(
    {"game", "name", "rules", "seats", "options", "seed", "setup", "setup_error", "start", "steps", "expect"}
)
STEP_KEYS = frozenset({"seat", "act", "error", "timeout", "expect"})
OPERATORS = frozenset({"contains", "excludes", "gte", "lte"})

# Summary lists that compare in order; every other list compares as a multiset (SCENARIOS.md).
# A ruleset may declare its own with an `ordered_summary_paths` attribute (fnmatch patterns);
# these are the ones SCENARIOS.md names for the games it documents.
DEFAULT_ORDERED_PATHS: dict[str, tuple[str, ...]] = {
    # agot: tracks are positions (first = position 1), decks are top first, ranking first to last.
    "agot": ("tracks.*", "decks.*", "ranking"),
    # btwixt: SCENARIOS.md lists them explicitly.
    "btwixt": ("decks.allies", "dead", "peeked", "row"),
}

_ABSENT = object()


class ScenarioFailure(Exception):
    """Why a scenario failed; the message is what the FAIL line shows."""


# --------------------------------------------------------------------------- files


def scenario_files(paths: list[str | Path]) -> list[Path]:
    """The *.yaml files named by `paths`; folders are searched recursively, in sorted order."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.yaml") if p.is_file()))
        else:
            files.append(path)
    return files


def run_paths(paths: list[str | Path]) -> tuple[list[str], int]:
    """Run every scenario under `paths`: one PASS/FAIL line each, then `N passed, M failed`."""
    lines: list[str] = []
    failed = 0
    files = scenario_files(paths)
    for file in files:
        ok, line = run_file(file)
        lines.append(line)
        failed += 0 if ok else 1
    lines.append(f"{len(files) - failed} passed, {failed} failed")
    return lines, failed


def run_file(path: str | Path) -> tuple[bool, str]:
    """(passed, `PASS name` or `FAIL name: what differed`) for one scenario file."""
    path = Path(path)
    name = path.name
    try:
        text = path.read_text(encoding="utf-8")
        data = yamlfile.loads(text)
    except (OSError, yamlfile.YAMLError) as exc:
        return False, f"FAIL {name}: cannot read the file: {_one_line(str(exc))}"
    if isinstance(data, dict) and isinstance(data.get("name"), str):
        name = data["name"]
    try:
        run_scenario(data)
    except ScenarioFailure as exc:
        return False, f"FAIL {name}: {_one_line(str(exc))}"
    except Exception as exc:  # a crash in an engine is a failure of that scenario, not of the run
        return False, f"FAIL {name}: crashed: {type(exc).__name__}: {_one_line(str(exc))}"
    return True, f"PASS {name}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------- playing


def run_scenario(data: Any) -> None:
    """Play one parsed scenario; raises ScenarioFailure on the first difference."""
    if not isinstance(data, dict):
        raise ScenarioFailure("a scenario must be a mapping")
    # A ruleset may accept top-level keys of its own (`scenario_keys`, e.g. lcg's `cards:`); they
    # reach its scenario_game as `extra`.
    game_keys = frozenset(getattr(_ruleset(data["game"]), "scenario_keys", ())) if "game" in data else frozenset()
    unknown = sorted(str(k) for k in data if k not in TOP_LEVEL_KEYS | game_keys)
    if unknown:
        raise ScenarioFailure(f"unknown key {', '.join(unknown)}")
    for key in ("game", "seats"):
        if key not in data:
            raise ScenarioFailure(f"missing key {key}")
    ruleset = _ruleset(data["game"])
    extra = {k: data[k] for k in game_keys if k in data}
    seats = data["seats"]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ScenarioFailure("seats: must be a list of names")
    options = _mapping(data, "options")
    setup = _mapping(data, "setup")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ScenarioFailure("seed: must be an integer")
    start = data.get("start")
    if start is not None and not isinstance(start, str):
        raise ScenarioFailure("start: must be a name")

    if "setup_error" in data:
        if data.get("steps") or data.get("expect"):
            raise ScenarioFailure("setup_error: a scenario that expects a setup error has no steps or expect")
        _expect_setup_error(ruleset, seats, options, seed, setup, start, data["setup_error"], extra)
        return

    try:
        state = _scenario_game(ruleset, seats, options, seed, setup, start, extra)
    except ScenarioSetupError as exc:
        raise ScenarioFailure(f"setup: {exc}") from None
    except EngineError as exc:
        raise ScenarioFailure(f"setup refused: {exc.code}: {exc.reason}") from None

    ordered = _ordered_paths(ruleset, data["game"])
    steps = data.get("steps") or []
    if not isinstance(steps, list):
        raise ScenarioFailure("steps: must be a list")
    for index, step in enumerate(steps, start=1):
        state = _run_step(ruleset, state, step, index, ordered)
    if data.get("expect") is not None:
        _check(ruleset, state, data["expect"], "expect", ordered)


def _ruleset(game: Any) -> Ruleset:
    if not isinstance(game, str):
        raise ScenarioFailure("game: must be a ruleset id")
    try:
        return get_ruleset(game)
    except KeyError as exc:
        raise ScenarioFailure(f"game: ruleset {game!r} is not registered ({exc.args[0]})") from None
    except ImportError as exc:
        raise ScenarioFailure(f"game: ruleset {game!r} cannot be loaded ({exc})") from None


def _mapping(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ScenarioFailure(f"{key}: must be a mapping")
    return value


def _expect_setup_error(
    ruleset: Ruleset, seats: list[str], options: dict[str, Any], seed: int, setup: dict[str, Any],
    start: str | None, code: Any, extra: dict[str, Any],
) -> None:
    try:
        _scenario_game(ruleset, seats, options, seed, setup, start, extra)
    except EngineError as exc:
        if exc.code != code:
            raise ScenarioFailure(f"setup_error: expected {code}, got {exc.code}: {exc.reason}") from None
        return
    except ScenarioSetupError as exc:
        raise ScenarioFailure(f"setup_error: expected {code}, but the setup cannot be read: {exc}") from None
    raise ScenarioFailure(f"setup_error: expected {code}, but the game was created")


def _scenario_game(ruleset: Ruleset, seats: list[str], options: dict[str, Any], seed: int, setup: dict[str, Any],
                   start: str | None, extra: dict[str, Any]) -> State:
    if extra:
        return ruleset.scenario_game(seats, options, seed, setup, start, extra=extra)  # type: ignore[call-arg]
    return ruleset.scenario_game(seats, options, seed, setup, start)


def _run_step(ruleset: Ruleset, state: State, step: Any, index: int, ordered: tuple[str, ...]) -> State:
    where = f"step {index}"
    if not isinstance(step, dict):
        raise ScenarioFailure(f"{where}: a step must be a mapping")
    unknown = sorted(str(k) for k in step if k not in STEP_KEYS)
    if unknown:
        raise ScenarioFailure(f"{where}: unknown key {', '.join(unknown)}")
    kinds = [k for k in ("act", "timeout", "expect") if k in step]
    if len(kinds) != 1:
        raise ScenarioFailure(f"{where}: a step has exactly one of act, timeout, expect")
    if "act" in step:
        return _act(ruleset, state, step, where)
    if "timeout" in step:
        return _timeout(ruleset, state, step["timeout"], where)
    _check(ruleset, state, step["expect"], where, ordered)
    return state


def _act(ruleset: Ruleset, state: State, step: dict[str, Any], where: str) -> State:
    seat = step.get("seat")
    if not isinstance(seat, str):
        raise ScenarioFailure(f"{where}: act needs a seat")
    action = step["act"]
    expected_error = step.get("error")
    where = f"{where} ({seat} {_brief(action)})"
    before = _frozen(state)
    try:
        new_state, _events = ruleset.apply(state, seat, action)
    except EngineError as exc:
        if expected_error is None:
            raise ScenarioFailure(f"{where}: refused with {exc.code}: {exc.reason}") from None
        if exc.code != expected_error:
            raise ScenarioFailure(f"{where}: expected error {expected_error}, got {exc.code}: {exc.reason}") from None
        if _frozen(state) != before:
            raise ScenarioFailure(f"{where}: the refused action changed the game state") from None
        return state
    if _frozen(state) != before:
        raise ScenarioFailure(f"{where}: apply mutated the state it was given")
    if expected_error is not None:
        raise ScenarioFailure(f"{where}: expected error {expected_error}, but the action was accepted")
    return new_state


def _timeout(ruleset: Ruleset, state: State, seats: Any, where: str) -> State:
    if isinstance(seats, str):
        seats = [seats]
    if not isinstance(seats, list):
        raise ScenarioFailure(f"{where}: timeout must list seats")
    for seat in seats:
        if seat not in ruleset.pending(state):
            raise ScenarioFailure(f"{where}: timeout for {seat}, which has no pending decision "
                                  f"(pending: {ruleset.pending(state)})")
        action = ruleset.default_action(state, seat)
        try:
            state, _events = ruleset.apply(state, seat, action)
        except EngineError as exc:
            raise ScenarioFailure(f"{where}: the default action {_brief(action)} of {seat} was refused: "
                                  f"{exc.code}: {exc.reason}") from None
    return state


def _frozen(state: State) -> str:
    return json.dumps(state, sort_keys=True, default=repr)


def _brief(value: Any) -> str:
    text = json.dumps(value, default=repr)
    return text if len(text) <= 120 else text[:117] + "..."


# --------------------------------------------------------------------------- checking


def _ordered_paths(ruleset: Ruleset, game: str) -> tuple[str, ...]:
    declared = getattr(ruleset, "ordered_summary_paths", None)
    if declared is not None:
        return tuple(declared)
    return DEFAULT_ORDERED_PATHS.get(game, ())


def _check(ruleset: Ruleset, state: State, expect: Any, where: str, ordered: tuple[str, ...]) -> None:
    if not isinstance(expect, dict):
        raise ScenarioFailure(f"{where}: expect must map paths to values")
    summaries: dict[Any, dict[str, Any]] = {}
    differences: list[str] = []
    # Optional ruleset hook: a path naming an unknown area, card or key cannot be read (SCENARIOS.md:
    # such a scenario fails, it never passes on an absent value).
    path_error = getattr(ruleset, "summary_path_error", None)
    for raw_path, expected in expect.items():
        path = str(raw_path)
        viewer, inner = _viewer(path)
        problem = path_error(inner) if path_error is not None else None
        if problem:
            raise ScenarioFailure(f"{where}: {path}: {problem}")
        if viewer not in summaries:
            summaries[viewer] = ruleset.summary(copy.deepcopy(state), viewer)
        actual = _lookup(summaries[viewer], inner)
        problem = compare(expected, actual, inner, ordered)
        if problem is not None:
            differences.append(f"{path}: {problem}")
    if differences:
        raise ScenarioFailure(f"{where}: " + "; ".join(differences))


def _viewer(path: str) -> tuple[Any, str]:
    """(viewer, path inside the summary) for `view.<seat>.<path>`, `view.spectator.<path>` or a plain path."""
    parts = path.split(".")
    if parts[0] == "view":
        if len(parts) < 3:
            raise ScenarioFailure(f"{path}: a view path is view.<seat>.<path>")
        viewer = SPECTATOR if parts[1] == "spectator" else parts[1]
        return viewer, ".".join(parts[2:])
    return REFEREE, path


def _lookup(summary: Any, path: str) -> Any:
    node = summary
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return _ABSENT
    return node


def _absent_value(expected: Any, path: str) -> Any:
    """What an absent path reads: [] for a list, {} for pending, null otherwise (SCENARIOS.md)."""
    if path == "pending" or path.endswith(".pending") or expected == {}:
        return {}
    if isinstance(expected, list) or (isinstance(expected, dict) and set(expected) & {"contains", "excludes"}
                                      and set(expected) <= OPERATORS):
        return []
    return None


def compare(expected: Any, actual: Any, path: str, ordered: tuple[str, ...] = ()) -> str | None:
    """None when `actual` matches `expected` under the scenario semantics, else what differed."""
    if actual is _ABSENT:
        actual = _absent_value(expected, path)
    if isinstance(expected, dict) and expected and set(expected) <= OPERATORS:
        return _compare_operators(expected, actual)
    if isinstance(expected, dict):
        return _compare_dicts(expected, actual, path, ordered)
    if isinstance(expected, list):
        return _compare_lists(expected, actual, path, ordered)
    if not _same_scalar(expected, actual):
        return f"expected {_show(expected)}, got {_show(actual)}"
    return None


def _same_scalar(expected: Any, actual: Any) -> bool:
    # bool is an int in Python: true must not match 1.
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    return bool(expected == actual)


def _compare_operators(expected: dict[str, Any], actual: Any) -> str | None:
    problems: list[str] = []
    for op, operand in expected.items():
        if op in ("contains", "excludes"):
            items = operand if isinstance(operand, list) else [operand]
            if not isinstance(actual, (list, dict, str)):
                problems.append(f"{op} {_show(items)}: got {_show(actual)}, not a list")
                continue
            if op == "contains":
                missing = _multiset_missing(items, actual)
                if missing:
                    problems.append(f"expected to contain {_show(missing)}, got {_show(actual)}")
            else:
                present = [item for item in items if item in actual]
                if present:
                    problems.append(f"expected to exclude {_show(present)}, got {_show(actual)}")
        else:
            if not isinstance(actual, (int, float)) or isinstance(actual, bool):
                problems.append(f"{op} {operand}: got {_show(actual)}, not a number")
            elif op == "gte" and not actual >= operand:
                problems.append(f"expected >= {operand}, got {actual}")
            elif op == "lte" and not actual <= operand:
                problems.append(f"expected <= {operand}, got {actual}")
    return "; ".join(problems) or None


def _multiset_missing(items: list[Any], actual: Any) -> list[Any]:
    if not isinstance(actual, list):
        return [item for item in items if item not in actual]
    have = Counter(_key(a) for a in actual)
    missing: list[Any] = []
    for item in items:
        if have[_key(item)] > 0:
            have[_key(item)] -= 1
        else:
            missing.append(item)
    return missing


def _compare_dicts(expected: dict[str, Any], actual: Any, path: str, ordered: tuple[str, ...]) -> str | None:
    if not isinstance(actual, dict):
        return f"expected {_show(expected)}, got {_show(actual)}"
    problems: list[str] = []
    for key, value in expected.items():
        sub = f"{path}.{key}"
        problem = compare(value, actual.get(key, _ABSENT) if isinstance(key, str) else _ABSENT, sub, ordered)
        if problem is not None:
            problems.append(f"{key}: {problem}")
    # An exact comparison: keys the summary has and the scenario does not name must be empty.
    for key, value in actual.items():
        if key not in expected and value not in ([], {}, None):
            problems.append(f"unexpected {key}: {_show(value)}")
    if problems:
        return f"expected {_show(expected)}, got {_show(actual)} ({'; '.join(problems)})"
    return None


def _compare_lists(expected: list[Any], actual: Any, path: str, ordered: tuple[str, ...]) -> str | None:
    if not isinstance(actual, list):
        return f"expected {_show(expected)}, got {_show(actual)}"
    if any(fnmatch.fnmatchcase(path, pattern) for pattern in ordered):
        if [_key(e) for e in expected] != [_key(a) for a in actual]:
            return f"expected {_show(expected)} in this order, got {_show(actual)}"
        return None
    if Counter(_key(e) for e in expected) != Counter(_key(a) for a in actual):
        return f"expected {_show(expected)} (any order), got {_show(actual)}"
    return None


def _key(value: Any) -> str:
    """A hashable, order-insensitive key for a list element (elements may be dicts)."""
    return json.dumps(value, sort_keys=True, default=repr)


def _show(value: Any) -> str:
    if value is _ABSENT:
        return "nothing"
    return json.dumps(value, sort_keys=True, default=repr)
