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

AGOT_ENGINE = "issue 3: the agot engine (setup, planning, action phase) is not committed yet"
COMBAT = "issue 3: combat not implemented yet"
WESTEROS = "issue 4: Westeros phase"
BTWIXT = "issue 10: the btwixt ruleset"

# file name (relative to tests/scenarios/) -> why it cannot pass yet
NOT_YET: dict[str, str] = {
    "agot/01-four-player-neutral-forces.yaml": AGOT_ENGINE,
    "agot/01-four-player-refuses-martell.yaml": AGOT_ENGINE,
    "agot/01-four-player-refuses-tyrell.yaml": AGOT_ENGINE,
    "agot/01-four-player-setup.yaml": AGOT_ENGINE,
    "agot/03-game-ends-after-round-ten.yaml": WESTEROS + ": rounds 2-10 start with it",
    "agot/03-round-flow-first-rounds.yaml": WESTEROS + " cards",
    "agot/04-threat-reaches-twelve-nights-watch-wins.yaml": "issue 4: wildlings attack",
    "agot/04-threat-reaches-twelve-wildlings-win.yaml": "issue 4: wildlings attack",
    "agot/08-winter-is-coming.yaml": WESTEROS + " cards (Winter is Coming)",
    "agot/12-supply-reduction-forces-destruction.yaml": "issue 4: supply",
    "agot/16-mustering-port-cap.yaml": "issue 4: mustering",
    "agot/16-mustering-port-despite-enemy-seas.yaml": "issue 4: mustering",
    "agot/16-mustering-ship-placement.yaml": "issue 4: mustering",
    "agot/20-not-enough-order-tokens.yaml": AGOT_ENGINE,
    "agot/24-pillage-victim-without-power.yaml": AGOT_ENGINE,
    "agot/24-pillage-with-empty-pool.yaml": AGOT_ENGINE,
    "agot/28-power-token-only-area.yaml": COMBAT,
    "agot/32-support-from-three-houses.yaml": COMBAT,
    "agot/32-support-tie-goes-to-fiefdoms.yaml": COMBAT,
    "agot/36-siege-engine-attacks-castle.yaml": COMBAT,
    "agot/36-siege-engine-neutral-force.yaml": COMBAT,
    "agot/36-siege-engine-no-castle.yaml": COMBAT,
    "agot/40-routed-knight-destroyed.yaml": COMBAT,
    "agot/40-routed-knight-stands-up.yaml": COMBAT,
    "agot/44-neutral-force-support-declined.yaml": COMBAT,
    "agot/44-neutral-force-too-weak.yaml": COMBAT,
    "agot/44-neutral-force-with-support.yaml": COMBAT,
    "agot/48-game-of-thrones-income.yaml": WESTEROS + " cards (Game of Thrones)",
    "agot/52-tides-blade-redraw.yaml": "issue 5: tides of battle",
    "agot/56-raven-peek-bottom.yaml": AGOT_ENGINE,
    "agot/56-raven-peek-keep.yaml": AGOT_ENGINE,
    "agot/56-raven-replace-order.yaml": AGOT_ENGINE,
    "btwixt/01-four-player-setup.yaml": BTWIXT,
    "btwixt/04-three-players-four-rounds-per-season.yaml": BTWIXT,
    "btwixt/05-bid-sum-not-card-count.yaml": BTWIXT,
    "btwixt/06-tie-goes-to-nearest-first-player.yaml": BTWIXT,
    "btwixt/08-everyone-kneels-first-player-wins.yaml": BTWIXT,
    "btwixt/10-councils-shared-with-neighbours.yaml": BTWIXT,
    "btwixt/11-pulling-the-strings-one-neighbour.yaml": BTWIXT,
    "btwixt/18-first-player-passes-each-round.yaml": BTWIXT,
    "btwixt/19-season-change-discards-and-redeals.yaml": BTWIXT,
    "btwixt/22-scoring-example.yaml": BTWIXT,
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
