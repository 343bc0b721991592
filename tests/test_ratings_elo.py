"""ratings/elo.py, the pure multiplayer Elo (issue 7, "Ratings"), checked against numbers worked out
by hand: E = 1 / (1 + 10^((R' - R) / 400)); change = K / opponents * sum(score - E)."""
from __future__ import annotations

import random

import pytest

from ratings.elo import (
    EloConfig,
    Standing,
    expected_score,
    new_ratings,
    placements,
    rating_changes,
)

CONFIG = EloConfig(k=32, k_provisional=64, provisional_games=10)
ESTABLISHED = 50  # games: well past provisional


def equal_table(n: int, games: int = ESTABLISHED) -> dict[str, Standing]:
    return {f"p{i}": Standing(1500.0, games) for i in range(n)}


def in_order(players) -> dict[str, int]:
    return {p: i + 1 for i, p in enumerate(players)}


def test_two_equal_established_players_the_winner_takes_half_of_k():
    """1500 vs 1500: E = 0.5, so the winner gets 32 * (1 - 0.5) = +16 and the loser -16."""
    changes = rating_changes(equal_table(2), {"p0": 1, "p1": 2}, CONFIG)
    assert changes == {"p0": 16.0, "p1": -16.0}


def test_start_rating_is_1500():
    assert Standing().rating == 1500.0 and Standing().games == 0


def test_a_provisional_player_moves_with_the_higher_k():
    """While provisional (fewer than 10 ranked games) K is 64: 1500 vs 1500 gives +32 / -32."""
    changes = rating_changes(equal_table(2, games=0), {"p0": 1, "p1": 2}, CONFIG)
    assert changes == {"p0": 32.0, "p1": -32.0}


def test_provisional_is_per_player():
    """A newcomer (K 64) beating an established player (K 32): +32 for one, -16 for the other."""
    standings = {"new": Standing(1500.0, 0), "old": Standing(1500.0, 10)}
    assert rating_changes(standings, {"new": 1, "old": 2}, CONFIG) == {"new": 32.0, "old": -16.0}
    # the tenth game is the last provisional one: 9 games before it still means K 64
    assert rating_changes({"a": Standing(1500.0, 9), "b": Standing(1500.0, 9)}, {"a": 1, "b": 2}, CONFIG)["a"] == 32.0


def test_unequal_ratings_use_the_expected_score():
    """1600 vs 1400: E = 1 / (1 + 10^-0.5) = 0.7597469; the favourite winning gains
    32 * 0.2402531 = 7.688098, and a draw costs it 32 * (0.5 - 0.7597469) = -8.311902."""
    standings = {"fav": Standing(1600.0, ESTABLISHED), "dog": Standing(1400.0, ESTABLISHED)}
    assert expected_score(1600, 1400) == pytest.approx(0.7597469, abs=1e-7)
    win = rating_changes(standings, {"fav": 1, "dog": 2}, CONFIG)
    assert win["fav"] == pytest.approx(7.688098, abs=1e-6)
    assert win["dog"] == pytest.approx(-7.688098, abs=1e-6)
    draw = rating_changes(standings, {"fav": 1, "dog": 1}, CONFIG)
    assert draw["fav"] == pytest.approx(-8.311902, abs=1e-6)
    assert draw["dog"] == pytest.approx(8.311902, abs=1e-6)


def test_three_players_pairwise():
    """Three newcomers at 1500 (K 64, 2 opponents each): the winner beats both, 64/2 * (0.5 + 0.5) = +32;
    the second beats one and loses to one, 0; the last loses both, -32."""
    changes = rating_changes(equal_table(3, games=0), in_order(["p0", "p1", "p2"]), CONFIG)
    assert changes == {"p0": 32.0, "p1": 0.0, "p2": -32.0}


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
def test_k_is_divided_by_the_number_of_opponents_so_big_tables_do_not_inflate(size):
    """The winner of an equal table gains K / (n-1) * (n-1) * 0.5 = 16 at any table size, and the last
    player loses 16; without the division a six-player win would be worth 80."""
    table = equal_table(size)
    changes = rating_changes(table, in_order(sorted(table)), CONFIG)
    assert changes["p0"] == pytest.approx(16.0)
    assert changes[f"p{size - 1}"] == pytest.approx(-16.0)
    assert sum(changes.values()) == pytest.approx(0.0, abs=1e-9)


def test_equal_placement_is_a_draw():
    """Equal ratings and a shared placement: score 0.5 = E, nothing moves."""
    changes = rating_changes(equal_table(3), {"p0": 1, "p1": 1, "p2": 1}, CONFIG)
    assert changes == {"p0": 0.0, "p1": 0.0, "p2": 0.0}


def test_leavers_rank_last_and_tie():
    """An abandoning player ranks after everyone else whatever the engine ranked; several tie for last."""
    assert placements(["a", "b", "c", "d"], leavers=["a", "c"]) == {"b": 1, "d": 2, "a": 3, "c": 3}
    assert placements(["a", "b", "c"], leavers=["a"]) == {"b": 1, "c": 2, "a": 3}
    assert placements(["a", "b", "c"]) == {"a": 1, "b": 2, "c": 3}


def test_tied_groups_share_a_placement():
    assert placements([["a", "b"], "c", ["d", "e"], "f"]) == {"a": 1, "b": 1, "c": 3, "d": 4, "e": 4, "f": 6}


def test_two_leavers_of_four_equal_players():
    """a and c leave, the engine ranked a, b, c, d; K 32, 3 opponents. b beats d, a, c: 32/3 * 1.5 = 16;
    d beats a and c, loses to b: 32/3 * 0.5 = 5.333; a and c lose to b and d, draw each other:
    32/3 * (-0.5 - 0.5 + 0) = -10.667."""
    table = {p: Standing(1500.0, ESTABLISHED) for p in "abcd"}
    changes = rating_changes(table, placements(["a", "b", "c", "d"], leavers=["a", "c"]), CONFIG)
    assert changes["b"] == pytest.approx(16.0)
    assert changes["d"] == pytest.approx(16 / 3)
    assert changes["a"] == pytest.approx(-32 / 3)
    assert changes["c"] == pytest.approx(-32 / 3)


def test_order_independent_and_deterministic():
    """The result depends on the ratings and placements only, never on the order players are listed in:
    bit for bit the same numbers for every shuffle."""
    rng = random.Random(4)
    base = {f"p{i}": Standing(1300.0 + 97.3 * i, i * 3) for i in range(6)}
    places = {"p0": 2, "p1": 1, "p2": 5, "p3": 2, "p4": 4, "p5": 6}
    expected = new_ratings(base, places, CONFIG)
    for _ in range(20):
        keys = list(base)
        rng.shuffle(keys)
        shuffled = {k: base[k] for k in keys}
        assert new_ratings(shuffled, {k: places[k] for k in reversed(keys)}, CONFIG) == expected


def test_a_lone_player_does_not_move():
    assert rating_changes({"solo": Standing()}, {"solo": 1}, CONFIG) == {"solo": 0.0}


def test_players_must_match():
    with pytest.raises(ValueError):
        rating_changes({"a": Standing(), "b": Standing()}, {"a": 1}, CONFIG)


def test_elo_module_does_not_import_django():
    import ast

    import ratings.elo as module

    tree = ast.parse(open(module.__file__).read())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(name.startswith(("django", "ratings", "games")) for name in imported), imported
