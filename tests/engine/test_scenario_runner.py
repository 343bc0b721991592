"""The scenario runner's own semantics (SCENARIOS.md, "Frame"), checked with a tiny fake game that
is registered only inside these tests."""
from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest

from games.engine import base
from games.engine.base import REFEREE, EngineError, ScenarioSetupError, State
from games.engine.scenarios import compare, run_file, run_paths, run_scenario


class FakeRuleset:
    """Two seats take turns adding to a counter; `a` also owns a list of units and a secret card."""

    id = "fake"
    min_seats = 2
    max_seats = 2

    def seat_names(self, count: int) -> list[str]:
        return ["a", "b"][:count]

    def new_game(self, seats: list[str], options: dict[str, Any], seed: int) -> State:
        return self.scenario_game(seats, options, seed, {}, None)

    def scenario_game(self, seats, options, seed, setup, start) -> State:
        if len(seats) != 2:
            raise EngineError("illegal_action", "two seats")
        for key in setup:
            if key not in ("counter", "units"):
                raise ScenarioSetupError(f"unknown setup key {key}")
        return {
            "seats": list(seats),
            "counter": setup.get("counter", 0),
            "turn": seats[0],
            "units": setup.get("units", ["footman", "knight", "footman"]),
            "secret": {"card": "ace"},
            "track": ["a", "b"],
        }

    def pending(self, state: State) -> dict[str, str]:
        return {} if state["counter"] >= 10 else {state["turn"]: "add"}

    def legal_actions(self, state, seat):
        return None

    def apply(self, state: State, seat: str, action: dict[str, Any]) -> tuple[State, list]:
        if not isinstance(action, dict) or set(action) != {"add"} or not isinstance(action["add"], int):
            raise EngineError("bad_action", "expected {add: n}")
        if state["counter"] >= 10:
            raise EngineError("game_over", "the game is over")
        if seat != state["turn"]:
            raise EngineError("not_your_turn", f"it is {state['turn']}'s turn")
        if not 1 <= action["add"] <= 3:
            raise EngineError("illegal_action", "add 1 to 3")
        new = copy.deepcopy(state)
        new["counter"] += action["add"]
        new["turn"] = "b" if seat == "a" else "a"
        return new, [{"added": action["add"]}]

    def default_action(self, state: State, seat: str) -> dict[str, Any]:
        return {"add": 1}

    def random_action(self, state: State, seat: str, rng: random.Random) -> dict[str, Any]:
        return {"add": rng.randint(1, 3)}

    def view(self, state: State, seat: str | None) -> State:
        return state

    def summary(self, state: State, viewer: str | None = REFEREE) -> dict[str, Any]:
        return {
            "counter": state["counter"],
            "units": {"home": {"a": list(state["units"])}},
            "card": state["secret"]["card"] if viewer in (REFEREE, "a") else base.HIDDEN,
            "pending": self.pending(state),
            "tracks": {"order": state["track"]},
            "flag": False,
        }

    def event_view(self, event, seat):
        return event

    def is_over(self, state: State) -> bool:
        return state["counter"] >= 10

    def ranking(self, state: State):
        return None


class MutatingRuleset(FakeRuleset):
    """Breaks the contract: changes the given state before refusing (the runner must notice)."""

    id = "mutating"

    def apply(self, state, seat, action):
        state["counter"] += 100
        raise EngineError("illegal_action", "no")


@pytest.fixture(autouse=True)
def fake_rulesets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(base._REGISTRY, "fake", FakeRuleset())
    monkeypatch.setitem(base._REGISTRY, "mutating", MutatingRuleset())


def scenario(**extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"game": "fake", "name": "t", "seats": ["a", "b"], "seed": 1}
    data.update(extra)
    return data


def fails(data: dict[str, Any]) -> str:
    from games.engine.scenarios import ScenarioFailure

    with pytest.raises(ScenarioFailure) as info:
        run_scenario(data)
    return str(info.value)


def test_plays_steps_and_checks_expect() -> None:
    run_scenario(scenario(steps=[
        {"seat": "a", "act": {"add": 2}},
        {"expect": {"counter": 2, "pending": {"b": "add"}}},
        {"timeout": ["b"]},
    ], expect={"counter": 3}))


def test_a_mismatch_names_the_path_and_both_values() -> None:
    message = fails(scenario(expect={"counter": 4}))
    assert "counter" in message and "expected 4" in message and "got 0" in message


def test_unknown_top_level_key_fails_naming_it() -> None:
    assert "unknown key stepz" in fails(scenario(stepz=[]))


def test_unknown_step_key_fails_naming_it() -> None:
    assert "unknown key sat" in fails(scenario(steps=[{"sat": "a", "act": {"add": 1}}]))


def test_setup_that_cannot_be_read_fails_with_its_message() -> None:
    assert "unknown setup key armies" in fails(scenario(setup={"armies": 3}))


def test_setup_error_expects_that_engine_error_code() -> None:
    run_scenario({"game": "fake", "name": "t", "seats": ["a"], "setup_error": "illegal_action"})
    assert "but the game was created" in fails(scenario(setup_error="illegal_action"))
    assert "expected bad_action, got illegal_action" in fails(
        {"game": "fake", "name": "t", "seats": ["a"], "setup_error": "bad_action"})


def test_expected_error_passes_and_leaves_state_unchanged() -> None:
    run_scenario(scenario(steps=[
        {"seat": "a", "act": {"add": 9}, "error": "illegal_action"},
        {"seat": "b", "act": {"add": 1}, "error": "not_your_turn"},
        {"seat": "a", "act": {"sub": 1}, "error": "bad_action"},
    ], expect={"counter": 0, "pending": {"a": "add"}}))


def test_wrong_error_code_or_no_error_fails() -> None:
    assert "expected error not_your_turn, got illegal_action" in fails(
        scenario(steps=[{"seat": "a", "act": {"add": 9}, "error": "not_your_turn"}]))
    assert "but the action was accepted" in fails(
        scenario(steps=[{"seat": "a", "act": {"add": 1}, "error": "illegal_action"}]))
    assert "refused with not_your_turn" in fails(scenario(steps=[{"seat": "b", "act": {"add": 1}}]))


def test_a_refused_action_that_changed_the_state_fails() -> None:
    data = scenario(game="mutating", steps=[{"seat": "a", "act": {"add": 1}, "error": "illegal_action"}])
    assert "changed the game state" in fails(data)


def test_timeout_of_a_seat_with_nothing_pending_fails() -> None:
    assert "no pending decision" in fails(scenario(steps=[{"timeout": ["b"]}]))


def test_unit_lists_compare_as_multisets() -> None:
    run_scenario(scenario(expect={"units.home.a": ["footman", "footman", "knight"]}))
    assert "any order" in fails(scenario(expect={"units.home.a": ["footman", "knight"]}))
    assert "any order" in fails(scenario(expect={"units.home.a": ["footman", "knight", "knight"]}))


def test_ordered_paths_compare_in_order() -> None:
    assert compare(["b", "a"], ["a", "b"], "tracks.iron_throne", ("tracks.*",)) is not None
    assert compare(["a", "b"], ["a", "b"], "tracks.iron_throne", ("tracks.*",)) is None
    assert compare(["b", "a"], ["a", "b"], "units.x.y", ("tracks.*",)) is None


def test_contains_excludes_gte_lte() -> None:
    run_scenario(scenario(expect={
        "units.home.a": {"contains": ["footman", "footman"], "excludes": ["ship"]},
        "counter": {"gte": 0, "lte": 0},
    }))
    assert "contain" in fails(scenario(expect={"units.home.a": {"contains": ["knight", "knight"]}}))
    assert "exclude" in fails(scenario(expect={"units.home.a": {"excludes": ["knight"]}}))
    assert ">= 1" in fails(scenario(expect={"counter": {"gte": 1}}))
    assert "<= -1" in fails(scenario(expect={"counter": {"lte": -1}}))


def test_absent_paths_read_empty_list_empty_pending_or_null() -> None:
    run_scenario(scenario(expect={"units.elsewhere.a": [], "nothing.here": None,
                                  "units.elsewhere.b": {"excludes": ["ship"]}}))
    # once the game is over, pending reads {}
    run_scenario(scenario(setup={"counter": 10}, expect={"pending": {}}))
    assert "expected 3, got null" in fails(scenario(expect={"nothing": 3}))


def test_exact_values_distinguish_booleans_from_numbers() -> None:
    assert "expected 0" in fails(scenario(expect={"flag": 0}))
    run_scenario(scenario(expect={"flag": False}))


def test_dict_values_compare_exactly() -> None:
    assert "unexpected a" in fails(scenario(expect={"pending": {}}))
    assert "expected" in fails(scenario(expect={"pending": {"b": "add"}}))


def test_view_paths_read_the_summary_as_that_viewer_sees_it() -> None:
    run_scenario(scenario(expect={"card": "ace", "view.a.card": "ace", "view.b.card": "hidden",
                                  "view.spectator.card": "hidden"}))


def test_a_ruleset_may_refuse_unreadable_expect_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = base._REGISTRY["fake"]
    monkeypatch.setattr(fake, "summary_path_error",
                        lambda path: "unknown area elsewhere" if "elsewhere" in path else None, raising=False)
    assert "units.elsewhere.a: unknown area elsewhere" in fails(scenario(expect={"units.elsewhere.a": []}))
    assert "view.b.units.elsewhere.a: unknown area" in fails(scenario(expect={"view.b.units.elsewhere.a": []}))
    run_scenario(scenario(expect={"units.home.a": {"contains": ["knight"]}}))


def test_unregistered_ruleset_fails_clearly() -> None:
    assert "'nosuchgame' is not registered" in fails(scenario(game="nosuchgame"))


def write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


def test_run_paths_lines_summary_and_failure_count(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "game: fake\nname: good one\nseats: [a, b]\nexpect: {counter: 0}\n")
    write(tmp_path, "b.yaml", "game: fake\nname: bad one\nseats: [a, b]\nexpect: {counter: 1}\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    write(sub, "c.yaml", "game: fake\nname: typo\nseats: [a, b]\nexpcet: {counter: 0}\n")
    lines, failed = run_paths([tmp_path])
    assert lines[0] == "PASS good one"
    assert lines[1].startswith("FAIL bad one: expect: counter: expected 1, got 0")
    assert lines[2] == "FAIL typo: unknown key expcet"
    assert lines[-1] == "1 passed, 2 failed"
    assert failed == 2


def test_unreadable_yaml_fails_with_the_file_name(tmp_path: Path) -> None:
    ok, line = run_file(write(tmp_path, "broken.yaml", "game: [fake\n"))
    assert not ok and line.startswith("FAIL broken.yaml: cannot read the file")


def test_all_passing_gives_zero_failures(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "game: fake\nname: ok\nseats: [a, b]\n")
    assert run_paths([tmp_path]) == (["PASS ok", "1 passed, 0 failed"], 0)


def test_manage_py_scenario_prints_the_lines_and_exits_1_on_failure(tmp_path: Path) -> None:
    from io import StringIO

    from django.core.management import call_command

    write(tmp_path, "a.yaml", "game: fake\nname: ok\nseats: [a, b]\n")
    out = StringIO()
    call_command("scenario", str(tmp_path), stdout=out)
    assert out.getvalue().splitlines() == ["PASS ok", "1 passed, 0 failed"]
    write(tmp_path, "b.yaml", "game: fake\nname: bad\nseats: [a, b]\nexpect: {counter: 1}\n")
    out = StringIO()
    with pytest.raises(SystemExit) as info:
        call_command("scenario", str(tmp_path), stdout=out)
    assert info.value.code == 1
    assert out.getvalue().splitlines()[-1] == "1 passed, 1 failed"
