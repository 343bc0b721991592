"""Every scenario under tests/scenarios/ is a test (SCENARIOS.md). The scenarios are the public ones
from ../shared/scenarios plus the project's own.

NOT_YET lists, with the issue that brings the missing feature, the scenarios that cannot pass yet.
They are strict xfails: the moment one passes the suite fails, and its entry must be removed.
Nothing else is skipped or xfailed.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from games.engine.scenarios import run_file

SCENARIO_DIR = Path(__file__).parent / "scenarios"

BTWIXT = "issue 10: the btwixt ruleset"

# file name (relative to tests/scenarios/) -> why it cannot pass yet
NOT_YET: dict[str, str] = {
}


def _scenario_params() -> list[object]:
    params: list[object] = []
    for path in sorted(SCENARIO_DIR.rglob("*.yaml")):
        key = path.relative_to(SCENARIO_DIR).as_posix()
        marks = [pytest.mark.xfail(strict=True, reason=NOT_YET[key])] if key in NOT_YET else []
        params.append(pytest.param(path, id=key, marks=marks))
    return params


@pytest.mark.parametrize("path", _scenario_params())
def test_scenario(path: Path) -> None:
    passed, line = run_file(path)
    assert passed, line


def test_not_yet_names_only_existing_scenarios() -> None:
    existing = {p.relative_to(SCENARIO_DIR).as_posix() for p in SCENARIO_DIR.rglob("*.yaml")}
    assert set(NOT_YET) <= existing, sorted(set(NOT_YET) - existing)
