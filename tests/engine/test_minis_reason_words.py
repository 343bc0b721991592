"""The miniatures engine's reasons are sentences for players (issue 26): the refusals of actions and
move checks, the line-of-sight answers and the army-list checks the API and the game page show say
what is wrong in words, never with a rule number such as "(M62)". The rule ids stay in the code's
comments. Checked over seeded random games in which every decision is also answered with actions
that are likely refused (moves too long or into other trays, charges and attacks at every enemy,
deployments anywhere), and on army lists broken in each way the checks know."""
from __future__ import annotations

import ast
import copy
import random
import re
from pathlib import Path

import pytest

from games.engine import get_ruleset
from games.engine.base import EngineError
from games.engine.minis import data

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]
RULE_ID = re.compile(r"\bM\d{1,3}\b")
ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine" / "minis"


def _probes(state, seat, rnd) -> list[dict]:
    """Actions of every kind the pending decision may answer, most of them refused."""
    units = sorted(state["units"])
    mine = [u for u in units if state["units"][u]["seat"] == seat] or units
    out: list[dict] = [
        {"maneuver": {"face": rnd.uniform(0, 360), "forward": rnd.uniform(0, 14), "end_face": rnd.uniform(0, 360)}},
        {"maneuver": {"forward": rnd.uniform(0, 30)}},
        {"march": {"face": 90, "forward": 5}},
        {"march": {"forward": rnd.uniform(0, 30)}},
        {"retreat": True},
        {"retreat_move": {"direction": rnd.choice(["back", "forward"]), "distance": rnd.uniform(0, 12)}},
        {"surge": {"forward": rnd.uniform(0, 12)}},
        {"pass": True},
        {"activate": rnd.choice(units)},
        {"claim": rnd.choice(["crown", "money", "letter", "swords", "horse"])},
        {"deploy": {"unit": rnd.choice(mine), "at": [rnd.uniform(0, 48), rnd.uniform(0, 48)], "facing": rnd.choice([0, 180])}},
        {"redeploy": {"unit": rnd.choice(mine), "at": [rnd.uniform(0, 48), rnd.uniform(0, 48)], "facing": 0}},
        {"reroll": {"dice": [0]}},
        {"discard": []},
    ]
    for u in units:
        out.append({"charge": {"target": u}})
        out.append({"attack": {"target": u}})
        out.append({"attack": {"target": u, "face": True}})
        out.append({"attack": {"target": u, "shift": {"direction": "forward", "distance": 2.5}}})
    return out


def _reasons_of_a_game(seed: int, limit: int = 700) -> list[str]:
    rnd = random.Random(seed)
    state = R.new_game(SEATS, {"terrain": "random"} if seed % 2 else {}, seed)
    reasons: list[str] = []
    for _ in range(limit):
        if R.is_over(state):
            break
        seat = rnd.choice(sorted(R.pending(state)))
        for probe in rnd.sample(_probes(state, seat, rnd), 8):
            answer = R.check(state, seat, probe)
            if answer.get("reason"):
                reasons.append(answer["reason"])
            try:
                R.apply(state, seat, probe)
            except EngineError as exc:
                reasons.append(exc.reason)
        live = [n for n, u in state["units"].items() if not u.get("destroyed") and u.get("at")]
        if len(live) >= 2:
            a, b = rnd.sample(live, 2)
            answer = R.check(state, seat, {"line_of_sight": {"from": a, "to": b}})
            reasons.append(answer.get("reason", ""))
        state, _ = R.apply(state, seat, R.random_action(state, seat, rnd))
    return reasons


@pytest.mark.parametrize("seed", range(4))
def test_no_reason_in_random_games_names_a_rule(seed):
    reasons = _reasons_of_a_game(seed)
    assert len(set(reasons)) >= 10, "the probes were refused in too few ways to say anything"
    bad = sorted({r for r in reasons if RULE_ID.search(r) or "(M" in r})
    assert not bad, bad


def test_move_refusals_read_as_sentences():
    """A move into a tray is refused with the reason the page shows as it is, without "(M75)"."""
    state = R.scenario_game(SEATS, {}, 1, {
        "hands": {"stark": [], "lannister": []},
        "units": {"swords": {"card": "10201", "at": [24, 10], "facing": 0},
                  "guards": {"card": "10101", "at": [24, 20], "facing": 180}}}, "activation")
    state, _ = R.apply(state, "stark", {"activate": "swords"})
    answer = R.check(state, "stark", {"maneuver": {"forward": 12}})
    assert answer["ok"] is False
    assert answer["reason"] in ("maneuver: the path crosses an enemy tray", "maneuver: the move ends overlapping a tray",
                                "maneuver: the move ends 1 in or less from an enemy"), answer
    sight = R.check(state, "stark", {"line_of_sight": {"from": "swords", "to": "guards"}})
    assert sight == {"ok": True, "reason": "swords has line of sight to guards"}


def _broken_lists():
    stark = data.default_list("stark")
    lannister = data.default_list("lannister")
    out = []
    out.append(("stark", stark, 10))                                               # over the game size
    twice = copy.deepcopy(stark)
    twice["units"].append({"unit": "10203", "attachment": "20203"})                 # a character twice
    out.append(("stark", twice, 60))
    foreign = copy.deepcopy(stark)
    foreign["units"].append({"unit": "10101"})                                      # a Lannister unit
    out.append(("stark", foreign, 60))
    wrong = copy.deepcopy(stark)
    wrong["units"][1] = {"unit": "10201", "attachment": "20115"}                     # a Lannister attachment
    out.append(("stark", wrong, 60))
    no_commander = copy.deepcopy(lannister)
    no_commander["units"][0] = {"unit": "10101"}
    out.append(("lannister", no_commander, 60))
    return out


def test_army_list_refusals_name_no_rule():
    reasons = []
    for faction, lst, size in _broken_lists():
        with pytest.raises(EngineError) as exc:
            data.check_list(faction, lst, size)
        reasons.append(exc.value.reason)
    assert len(set(reasons)) == len(reasons), reasons
    assert any("points, over the game size of 10" in r for r in reasons), reasons
    assert not [r for r in reasons if RULE_ID.search(r)], reasons


def test_no_string_of_the_engine_names_a_rule():
    """Every string literal of games/engine/minis (docstrings aside) is free of rule ids: a reason
    built from parts (f-strings, a `what` passed down) cannot bring one back. Comments keep them. A
    literal that is a rule id and nothing else is data, not words: an army's problem carries it apart
    from its sentence (armies.Problem.rule, for programs, as the API's `rules`)."""
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
                first = node.body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                    docs.add(id(first.value))
        asserts = {id(n) for a in ast.walk(tree) if isinstance(a, ast.Assert) and a.msg for n in ast.walk(a.msg)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs \
                    and id(node) not in asserts and RULE_ID.search(node.value) \
                    and not RULE_ID.fullmatch(node.value):
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert not found, found
