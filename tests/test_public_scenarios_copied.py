"""The public scenarios (../shared/scenarios/<game>/, the contract every engine runs) are copied
unchanged into tests/scenarios/<game>/, where test_scenarios.py runs them. The project runs without
../shared; where it is beside the checkout (CI), this checks that no public file is missing or edited."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "scenarios"


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared is not beside this checkout (the project runs without it)")
def test_every_public_scenario_is_here_unchanged():
    public = sorted(SHARED.rglob("*.yaml"))
    assert {p.parent.name for p in public} >= {"agot", "btwixt", "lcg", "minis"}
    differ = [p.relative_to(SHARED).as_posix() for p in public
              if not (ROOT / "tests" / "scenarios" / p.relative_to(SHARED)).is_file()
              or (ROOT / "tests" / "scenarios" / p.relative_to(SHARED)).read_bytes() != p.read_bytes()]
    assert not differ, f"missing or edited public scenarios: {differ}"
