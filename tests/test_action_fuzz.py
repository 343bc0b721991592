"""No malformed action can hurt anyone (issue 28): property-based, with hypothesis.

For each ruleset, games are played (seeded random play) and their decisions sampled; the legal
actions of the pending seats (the engine's `legal_actions`, `default_action`, `random_action`) are
mutated: a field replaced by a value of every JSON type (null, booleans, huge and tiny integers,
floats with -0.0, 1e308, NaN and the infinities, texts empty, very long or unicode, lists, nested
objects) or by a name the game uses elsewhere, keys dropped or added, the kind renamed, the whole
action replaced by a non-object. Then:

- the engine either accepts (the new state is JSON, NaN and Infinity excluded, and the game goes
  on: the next pending seat's default action applies) or raises EngineError with a known code
  and a sentence of bounded length; never any other exception, and the state it was given is left
  unchanged. The miniatures' move check answers a verdict for the same actions.
- through the API, POST /actions and POST /check never answer a 5xx: an accepted action is a 200,
  anything else a 4xx in the API's error shape ({error, detail}).

derandomize=True: the same examples on every run, so CI is reproducible (without the constants
hypothesis gathers from the project's modules loaded so far, which depend on the tests run before:
`same_examples`). The sampled decisions (a few seeded games per ruleset) and the API's game are
shared by the examples: each example puts the API's game at one of the sampled decisions, so that
none depends on what the ones before it applied. Per ruleset 2,500 examples at the engine and 800
through the API: 3,300 in all (5,000 at the engine took 40-65 s a ruleset on a quiet machine, the
largest share of .ci/run's time among the non-browser tests; issue 27). A refusal also says what is wrong in a sentence of its own: it never
repeats a number beyond what any field takes, nor a text longer than any an action may hold."""
from __future__ import annotations

import contextlib
import functools
import json
import math
import random
from typing import Any
from unittest import mock

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engine import EngineError, get_ruleset
from games.engine.base import ERROR_CODES
from games.engine.fields import MAX_NUMBER, MAX_TEXT
from games.models import Game
from tests.factories import api_client_for, make_game

PLAYERS = {"agot": 3, "btwixt": 4, "lcg": 2, "minis": 2}
ENGINE_EXAMPLES = 2500
API_EXAMPLES = 800
MAX_REASON = 4000  # a refusal is a sentence (it may list the legal options), never the echo of a huge value
ECHO = MAX_TEXT  # a sent text longer than the longest text an action may hold is never repeated in a refusal

EDGES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 2**31, 2**53 + 1, 2**63, 10**400, -10**400, 0.5, -0.0, 1e-300, 5e-324,
    1e308, -1e308, float("nan"), float("inf"), float("-inf"), "", " ", "0", "1", "#2", "x#²", "y" * MAX_TEXT,
    "y" * (MAX_TEXT + 1), "x" * 10_000, "é😀\u202e\u0000", [], [None], [[[[[[[[[[]]]]]]]]]], {}, {"": None},
    {"a": {"b": {"c": [1, "2", None]}}},
]


def walk(value: Any, path: tuple = ()) -> list[tuple]:
    """Every path into a JSON value (dict keys, list positions), the root () included."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += walk(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += walk(v, (*path, i))
    return out


def at(value: Any, path: tuple) -> Any:
    for k in path:
        value = value[k]
    return value


def put(value: Any, path: tuple, new: Any) -> Any:
    """A copy of `value` with what is at `path` replaced by `new` (nothing shared is changed)."""
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = put(value[path[0]], path[1:], new)
    return copy


def drop(value: Any, path: tuple) -> Any:
    parent = at(value, path[:-1])
    copy = dict(parent) if isinstance(parent, dict) else list(parent)
    del copy[path[-1]]
    return put(value, path[:-1], copy)


def words(values: Any) -> set[str]:
    """The texts of JSON values (keys and strings), for names the game really uses."""
    out: set[str] = set()
    for value in values:
        for path in walk(value):
            out.update(k for k in path if isinstance(k, str))
            leaf = at(value, path)
            if isinstance(leaf, str):
                out.add(leaf)
    return out


Decision = tuple[dict, str, list[dict]]  # (state, a pending seat, legal actions of the seat)


@functools.cache
def decisions(ruleset: str) -> tuple[list[list[Decision]], list[str]]:
    """Decisions of seeded random games, grouped by decision kind (so that the rare kinds are drawn
    as often as the frequent ones), and the names their actions use. Computed once per ruleset and
    shared by every example."""
    engine = get_ruleset(ruleset)
    seats = engine.seat_names(PLAYERS[ruleset])
    kinds: dict[str, list[Decision]] = {}
    for seed in (1, 2, 3):
        rnd = random.Random(seed)
        state = engine.new_game(seats, {}, seed)
        steps = 0
        while not engine.is_over(state) and steps < 1500:
            pending = engine.pending(state)
            for seat, kind in sorted(pending.items()):
                group = kinds.setdefault(kind, [])
                if len(group) < 40 and steps % (1 + len(group) // 10) == 0:
                    legal = list(engine.legal_actions(state, seat) or [])[:20]
                    legal.append(engine.default_action(state, seat))
                    legal.append(engine.random_action(state, seat, random.Random(steps)))
                    group.append((state, seat, legal))
            seat = rnd.choice(sorted(pending))
            state, _ = engine.apply(state, seat, engine.random_action(state, seat, rnd))
            steps += 1
    groups = [kinds[k] for k in sorted(kinds)]
    names = sorted(words(a for group in groups for _s, _seat, legal in group for a in legal) | set(seats))
    return groups, names


def a_decision(groups: list[list[Decision]]) -> st.SearchStrategy:
    return st.sampled_from(groups).flatmap(st.sampled_from)


class Vocabulary:
    """The strategies of a ruleset's mutations, built once (building them is most of the cost):
    the game's names, and values of every JSON type with the edge cases and the names often."""

    def __init__(self, names: list[str]):
        self.names = st.sampled_from(names)
        self.keys = st.one_of(self.names, st.text(max_size=8))
        scalars = st.one_of(
            st.sampled_from(EDGES), self.names, st.none(), st.booleans(), st.integers(),
            st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30),
        )
        self.values = st.recursive(scalars, lambda kids: st.one_of(
            st.lists(kids, max_size=4), st.dictionaries(self.keys, kids, max_size=4)), max_leaves=8)
        self.non_objects = st.one_of(st.sampled_from(EDGES), self.values).filter(lambda v: not isinstance(v, dict))


@functools.cache
def vocabulary(ruleset: str) -> Vocabulary:
    return Vocabulary(decisions(ruleset)[1])


def near(value: Any, vocab: Vocabulary) -> st.SearchStrategy:
    """A value of the same JSON type as `value`, most often a wrong one that looks right: another
    name of the game, a nearby or negative number, a list with an item more or less."""
    if isinstance(value, bool):
        return st.just(not value)
    if isinstance(value, int):
        return st.one_of(st.integers(value - 3, value + 3), st.sampled_from([-1, 0, 99, 2**31]))
    if isinstance(value, float) and math.isfinite(value):
        return st.one_of(st.floats(value - 60, value + 60), st.sampled_from([-0.0, -value, 99.5]))
    if isinstance(value, str):
        return st.one_of(vocab.names, st.just(value.upper()), st.just(value + "#2"))
    if isinstance(value, list):
        return st.one_of(st.just(value + value[:1]), st.just(value[1:]), st.just(value[::-1]))
    return st.just(value)


@st.composite
def mutated(draw, action: dict, vocab: Vocabulary) -> Any:
    """The legal `action` with one to three changes (or replaced by a non-object)."""
    if draw(st.integers(0, 19)) == 0:
        return draw(vocab.non_objects)
    for _ in range(draw(st.integers(1, 3))):
        paths = walk(action)
        path = draw(st.sampled_from(paths[1:] or paths))
        how = draw(st.sampled_from(("replace", "replace", "near", "near", "drop", "add", "rename")))
        if how == "near":
            action = put(action, path, draw(near(at(action, path), vocab)))
        elif how == "drop" and path:
            action = drop(action, path)
        elif how == "add" and isinstance(at(action, path), dict):
            action = put(action, path, {**at(action, path), draw(vocab.names): draw(vocab.values)})
        elif how == "rename" and isinstance(action, dict) and action:
            kind = next(iter(action))
            action = {draw(vocab.keys): action[kind]}
        else:
            action = put(action, path, draw(vocab.values))
        if not isinstance(action, (dict, list)):
            break
    return action


@contextlib.contextmanager
def same_examples():
    """Hypothesis (6.131 on) also draws constants it finds in the project's modules loaded so far;
    those depend on the tests an xdist worker ran before, so derandomize=True alone gave another
    set of examples in another run. Without them the examples depend on the test alone. (Private
    names of hypothesis: if they go, the test still runs, only less reproducibly.)"""
    from hypothesis.internal.conjecture import providers

    cache = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    if cache is None or not hasattr(providers, "_get_local_constants") or not hasattr(providers, "Constants"):
        yield
        return
    cache.clear()  # allowed constants computed from the modules' ones
    try:
        with mock.patch.object(providers, "_get_local_constants", providers.Constants):
            yield
    finally:
        cache.clear()


def huge_numbers(action: Any) -> list[str]:
    """The finite numbers of an action beyond what any field takes (fields.MAX_NUMBER), as written."""
    out = []
    for path in walk(action):
        leaf = at(action, path)
        if isinstance(leaf, int) and not isinstance(leaf, bool) and abs(leaf) > MAX_NUMBER:
            out.append(str(leaf))
        elif isinstance(leaf, float) and math.isfinite(leaf) and abs(leaf) > MAX_NUMBER:
            out.append(repr(leaf))
    return out


def assert_refusal(error: EngineError, action: Any) -> None:
    """A known code and a sentence: not too long, no huge number or long text of the action in it."""
    assert error.code in ERROR_CODES, error.code
    assert isinstance(error.reason, str) and error.reason.strip(), error
    assert len(error.reason) <= MAX_REASON, error.reason[:200]
    for number in huge_numbers(action):
        assert number not in error.reason, error.reason[:200]
    for text in words([action]):
        assert len(text) <= ECHO or text not in error.reason, error.reason[:200]


def try_action(engine, state: dict, seat: str, action: Any) -> None:
    """The property at the engine: accepted (and the game goes on) or EngineError, nothing else."""
    before = json.dumps(state, sort_keys=True)
    try:
        new, events = engine.apply(state, seat, action)
    except EngineError as error:
        assert_refusal(error, action)
        event(f"refused: {error.code}")  # pytest --hypothesis-show-statistics
    else:
        event("accepted")
        json.dumps(new, allow_nan=False)
        json.dumps(events, allow_nan=False)
        if not engine.is_over(new):
            nxt = sorted(engine.pending(new))[0]
            engine.apply(new, nxt, engine.default_action(new, nxt))
            engine.view(new, nxt)
    assert json.dumps(state, sort_keys=True) == before, "apply changed the state it was given"
    if callable(getattr(engine, "check", None)):
        verdict = engine.check(state, seat, action)
        assert isinstance(verdict, dict) and isinstance(verdict.get("ok"), bool), verdict
        json.dumps(verdict, allow_nan=False)
        assert json.dumps(state, sort_keys=True) == before, "check changed the state it was given"


# the same examples on every run and machine, however slow the machine
REPRODUCIBLE = {"deadline": None, "derandomize": True, "database": None,
                "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}


@pytest.mark.slow_once  # pure Python, no database: once per CI run (tests/conftest.py)
@pytest.mark.parametrize("ruleset", sorted(PLAYERS))
def test_the_engine_accepts_or_refuses_every_mutated_action(ruleset):
    engine = get_ruleset(ruleset)
    groups, _names = decisions(ruleset)
    vocab = vocabulary(ruleset)
    assert sum(map(len, groups)) > 20

    @settings(max_examples=ENGINE_EXAMPLES, **REPRODUCIBLE)
    @given(data=st.data())
    def run(data):
        state, seat, legal = data.draw(a_decision(groups), label="decision")
        action = data.draw(mutated(data.draw(st.sampled_from(legal), label="legal"), vocab), label="action")
        try_action(engine, state, seat, action)

    with same_examples():
        run()


# ------------------------------------------------------------------ through the API


def body(action: Any, version: int) -> str:
    """The request as a client could send it: NaN and Infinity as the literals Python writes."""
    return json.dumps({"version": version, "action": action}, allow_nan=True)


def assert_api_answer(response, what: str) -> dict:
    assert response.status_code < 500, (what, response.status_code, response.content[:300])
    data = response.json()
    if response.status_code >= 400:
        assert {"error", "detail"} <= set(data), (what, data)
        assert isinstance(data["detail"], str) and len(data["detail"]) <= MAX_REASON, (what, data)
    return data


@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", sorted(PLAYERS))
def test_the_api_answers_every_mutated_action_with_a_4xx_or_applies_it(ruleset):
    """One game started by the platform (do_create_game, a user in every seat), shared by the
    examples: each puts it at one of the sampled decisions (so an example does not depend on what
    the ones before it applied), then sends the mutated action to /check and /actions."""
    engine = get_ruleset(ruleset)
    groups, _names = decisions(ruleset)
    vocab = vocabulary(ruleset)
    game = make_game(PLAYERS[ruleset], ruleset=ruleset, seed=11)
    clients = {s.seat: api_client_for(s.user) for s in game.seats.select_related("user")}
    assert set(clients) == set(groups[0][0][0]["seats"])

    @settings(max_examples=API_EXAMPLES, **REPRODUCIBLE)
    @given(data=st.data())
    def run(data):
        state, seat, legal = data.draw(a_decision(groups), label="decision")
        action = data.draw(mutated(data.draw(st.sampled_from(legal), label="legal"), vocab), label="action")
        Game.objects.filter(pk=game.pk).update(state=state, status=Game.Status.ACTIVE, finished_at=None, ranking=None)
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        client = clients[seat]
        checked = client.post(reverse("api-game-check", args=[game.pk]), data=body(action, version),
                              content_type="application/json")
        assert_api_answer(checked, "check")
        applied = client.post(reverse("api-game-actions", args=[game.pk]), data=body(action, version),
                              content_type="application/json")
        answer = assert_api_answer(applied, "actions")
        if applied.status_code < 400:
            after = Game.objects.get(pk=game.pk)
            assert after.version == answer["version"] > version
            json.dumps(after.state, allow_nan=False)
            assert engine.is_over(after.state) or engine.pending(after.state), "the game goes on"

    with same_examples():
        run()
