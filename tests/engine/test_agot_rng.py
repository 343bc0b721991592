"""games/engine/rng.py: a seeded generator whose state is one JSON integer."""
from __future__ import annotations

import json

from games.engine import rng


def test_same_seed_same_draws():
    a, b = {"rng": rng.seed_state(7)}, {"rng": rng.seed_state(7)}
    assert [rng.next_u64(a) for _ in range(20)] == [rng.next_u64(b) for _ in range(20)]
    assert a == b


def test_different_seeds_differ():
    a, b = {"rng": rng.seed_state(1)}, {"rng": rng.seed_state(2)}
    assert [rng.next_u64(a) for _ in range(5)] != [rng.next_u64(b) for _ in range(5)]


def test_state_is_a_json_int():
    h = {"rng": rng.seed_state(-5)}
    rng.randint(h, 1, 6)
    assert isinstance(h["rng"], int) and 0 <= h["rng"] < 2**64
    assert json.loads(json.dumps(h)) == h


def test_randint_range_and_spread():
    h = {"rng": rng.seed_state(3)}
    seen = {rng.randint(h, 1, 6) for _ in range(600)}
    assert seen == {1, 2, 3, 4, 5, 6}


def test_shuffle_is_a_permutation_and_keeps_pinned_prefix():
    h = {"rng": rng.seed_state(9)}
    items = list(range(20))
    rng.shuffle(h, items, start=3)
    assert items[:3] == [0, 1, 2]
    assert sorted(items) == list(range(20))
    assert items[3:] != list(range(3, 20))


def test_choice():
    h = {"rng": rng.seed_state(4)}
    assert {rng.choice(h, "abc") for _ in range(100)} == {"a", "b", "c"}
