"""Malformed miniatures actions are refused with EngineError(bad_action) and a sentence saying what
is wrong, never with a Python error (issue 28: found by fuzzing POST /api/v1/games/<id>/actions,
which answered them with a 500): a `unit` given as {} or [], integers like 10**400, 1e308, NaN or
the infinities as deploy `at`/`facing` or maneuver `end_face`. The move check (`check`, POST
/check) reads an action the same way and gives the same refusal; legal actions stay legal."""
from __future__ import annotations

import json

import pytest

from games.engine import EngineError, get_ruleset

M = get_ruleset("minis")


def reach(kind: str, seed: int = 3) -> tuple[dict, str]:
    """A new game played with the timeout defaults until a seat must answer `kind`."""
    state = M.new_game(["stark", "lannister"], {}, seed)
    for _ in range(100):
        pending = M.pending(state)
        for seat, k in sorted(pending.items()):
            if k == kind:
                return state, seat
        seat = sorted(pending)[0]
        state, _ = M.apply(state, seat, M.default_action(state, seat))
    raise AssertionError(f"no {kind} decision came")


def refusal(state: dict, seat: str, action, code: str = "bad_action") -> str:
    """The refusal's sentence; the state is left as it was, and the move check says the same."""
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(EngineError) as info:
        M.apply(state, seat, action)
    assert info.value.code == code, info.value.reason
    assert M.check(state, seat, action) == {"ok": False, "error": code, "reason": info.value.reason}
    assert json.dumps(state, sort_keys=True) == before
    reason = info.value.reason
    assert len(reason) < 200 and "00000000" not in reason and "{" not in reason and "[]" not in reason, reason
    return reason


@pytest.fixture(scope="module")
def deploying():
    state, seat = reach("deploy")
    return state, seat, M.default_action(state, seat)["deploy"]


@pytest.mark.parametrize("unit", [{}, [], ["sworn_swords"], {"unit": "sworn_swords"}, None, 5, True])
def test_deploy_unit_is_a_name(deploying, unit):
    state, seat, legal = deploying
    assert "deploy: unit must be a name" in refusal(state, seat, {"deploy": {**legal, "unit": unit}})


@pytest.mark.parametrize("at, says", [
    ([10**400, 17.95], "numbers in an action are from -1,000,000 to 1,000,000"),
    ([3.25, -10**400], "numbers in an action are from -1,000,000 to 1,000,000"),
    ([1e308, 17.95], "numbers in an action are finite, from -1,000,000 to 1,000,000"),
    ([float("nan"), 17.95], "numbers in an action are finite"),
    ([3.25, float("-inf")], "numbers in an action are finite"),
    ([500, 17.95], "deploy: x must be a number of inches from -100 to 100"),
    ([3.25, True], "deploy: y must be a number of inches from -100 to 100"),
    ([3.25, "17"], "deploy: y must be a number of inches from -100 to 100"),
    ([3.25], "deploy: at must be [x, y], two numbers of inches"),
    ({"x": 3.25, "y": 17.95}, "deploy: at must be [x, y], two numbers of inches"),
])
def test_deploy_at_is_two_numbers_of_inches(deploying, at, says):
    state, seat, legal = deploying
    assert says in refusal(state, seat, {"deploy": {**legal, "at": at}})


@pytest.mark.parametrize("facing, says", [
    (10**400, "numbers in an action are from"), (1e308, "numbers in an action are finite"),
    (float("inf"), "numbers in an action are finite"),
    (720, "deploy: facing must be a number of degrees from -360 to 360"),
    (False, "deploy: facing must be a number of degrees"), ("north", "deploy: facing must be a number of degrees"),
])
def test_deploy_facing_is_an_angle(deploying, facing, says):
    state, seat, legal = deploying
    assert says in refusal(state, seat, {"deploy": {**legal, "facing": facing}})


def test_legal_deployments_stay_legal(deploying):
    state, seat, legal = deploying
    for variant in (legal, {**legal, "at": [round(legal["at"][0]), round(legal["at"][1])]},
                    {**legal, "facing": legal["facing"] - 360}, {**legal, "facing": -0.0}):
        new, _ = M.apply(state, seat, {"deploy": variant})
        json.dumps(new, allow_nan=False)
    assert M.check(state, seat, {"deploy": legal}) == {"ok": True}


@pytest.fixture(scope="module")
def acting():
    state, seat = reach("action")
    return state, seat


@pytest.mark.parametrize("move, says", [
    ({"end_face": 10**400}, "numbers in an action are from"),
    ({"end_face": 1e308}, "numbers in an action are finite"),
    ({"face": float("nan")}, "numbers in an action are finite"),
    ({"forward": float("inf")}, "numbers in an action are finite"),
    ({"end_face": 361}, "maneuver: end_face must be a number of degrees from -360 to 360"),
    ({"forward": 101}, "maneuver: forward must be a number of inches from -100 to 100"),
    ({"forward": True}, "maneuver: forward must be a number of inches"),
    ({"face": [90]}, "maneuver: face must be a number of degrees"),
    ({"end_face": {}}, "maneuver: end_face must be a number of degrees"),
])
def test_maneuver_numbers_are_finite_and_in_range(acting, move, says):
    state, seat = acting
    assert says in refusal(state, seat, {"maneuver": move})


def test_a_malformed_march_is_refused_by_the_check_as_by_the_action(acting):
    state, seat = acting
    for march in ({"forward": 10**400}, {"end_face": float("-inf")}, [], "far", {"zz": 1}):
        refusal(state, seat, {"march": march})


@pytest.mark.parametrize("action", [
    {"charge": {"target": {}}}, {"charge": {"target": []}}, {"charge": {"target": "guardsmen", "face": 10**400}},
    {"charge": {"target": "guardsmen", "align": []}}, {"charge": {"target": "guardsmen", "arc": {}}},
    {"attack": {"target": "guardsmen", "attack": []}}, {"attack": {"target": "guardsmen", "face": "yes"}},
    {"attack": {"target": "guardsmen", "shift": {"direction": [], "distance": 1}}},
    {"attack": {"target": "guardsmen", "shift": {"distance": 1e308}}},
])
def test_charges_and_attacks_read_their_fields(acting, action):
    state, seat = acting
    refusal(state, seat, action)


def test_a_name_longer_than_any_id_is_refused_and_never_repeated(acting):
    state, seat = acting
    reason = refusal(state, seat, {"charge": {"target": "g" * 65}})
    assert reason == "charge.target: texts in an action are at most 64 characters long"
    refusal(state, seat, {"charge": {"target": "g" * 64}}, code="illegal_action")  # a name, of no unit


def test_line_of_sight_query_reads_its_fields(acting):
    state, seat = acting
    for value in ({"from": {}, "to": "guardsmen"}, {"from": [], "to": []}, {"from": 10**400, "to": 1},
                  {"from": "sworn_swords", "to": "guardsmen", "ranged": 1}):
        verdict = M.check(state, seat, {"line_of_sight": value})
        assert verdict["ok"] is False and verdict["error"] == "bad_action", verdict
