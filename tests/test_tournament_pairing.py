"""The pairing engine (tournaments/pairing.py): quality on fields of 7, 13, 24 and 60 players, and
the rules of every format. Run with -s to see the measured quality (the lines start with QUALITY)."""
from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from games.engine.agot.setup import allowed_houses
from tournaments import pairing as P

ROUNDS = 6
SIZE, MIN_SIZE = 6, 3


def play_swiss(n: int, rounds: int = ROUNDS, seed: int = 1):
    """Six Swiss rounds with AGoT houses and random results; returns (history, sizes per round,
    tables per round)."""
    players = list(range(1, n + 1))
    history = P.History()
    games: list[P.GameRecord] = []
    byes: list[int] = []
    results = random.Random(seed)
    sizes, rounds_tables = [], []
    spreads: list[tuple[float, float]] = []  # per round after the first: (ours, random), see rank_spread
    for r in range(rounds):
        lines = P.standings(players, games, scoring="placement", full_size=SIZE, byes=byes, seed_order=players)
        standing = [line.player for line in lines]
        pairing = P.swiss_round(standing, size=SIZE, min_size=MIN_SIZE, history=history,
                                houses_for=allowed_houses, seed=seed * 1000 + r, first_round=r == 0)
        if r:
            rank = {p: i for i, p in enumerate(standing)}
            table_sizes = [len(t.players) for t in pairing.tables]
            baseline = [rank_spread(P.random_round(standing, table_sizes, random.Random(k)), rank) for k in range(20)]
            spreads.append((rank_spread([t.players for t in pairing.tables], rank), sum(baseline) / len(baseline)))
        # Optimality of each table's houses is checked against the history *before* this round.
        rounds_tables.append([(t, P.min_house_repeats(t.players, t.houses, history),
                               sum(history.houses[p][h] if p in history.houses else 0
                                   for p, h in zip(t.players, t.houses, strict=True)))
                              for t in pairing.tables])
        for table in pairing.tables:
            history.add_table(table.players, table.houses)
            order = list(table.players)
            results.shuffle(order)
            games.append(P.GameRecord(tuple(P.Seat(p, order.index(p) + 1) for p in table.players)))
        for p in pairing.byes:
            history.add_bye(p)
            byes.append(p)
        sizes.append([len(t.players) for t in pairing.tables])
    return players, history, sizes, rounds_tables, spreads


def rank_spread(tables, rank) -> float:
    """How far apart in the standings the players of a table are: the mean, over tables, of the
    range of their places (Swiss pairs players of similar standing: lower is more Swiss)."""
    return sum(max(rank[p] for p in t) - min(rank[p] for p in t) for t in tables) / len(tables)


def best_random(players, sizes, trials: int = 100) -> int:
    best = None
    for k in range(trials):
        rng = random.Random(k)
        h = P.History()
        for round_sizes in sizes:
            for table in P.random_round(players, round_sizes, rng):
                h.add_table(table)
        best = P.repeat_meetings(h) if best is None else min(best, P.repeat_meetings(h))
    return best


@pytest.mark.parametrize("n", [7, 13, 24, 60])
def test_swiss_quality(n):
    players, history, sizes, rounds_tables, spreads = play_swiss(n)
    repeats = P.repeat_meetings(history)
    random_best = best_random(players, sizes)
    pairs_met = len(history.meetings)
    meetings = sum(history.meetings.values())
    lower_bound = max(0, meetings - n * (n - 1) // 2)  # every pair met once before any repeat
    spread = max(max(s) - min(s) for s in sizes)
    houses = P.house_repeats(history)
    distinct = sum(1 for p in players if all(c == 1 for c in history.houses[p].values()))
    print(f"\nQUALITY field={n} rounds={ROUNDS} tables/round={sizes[0]} byes={sum(history.byes.values())} "
          f"repeat_meetings={repeats} (best of 100 random: {random_best}; lower bound {lower_bound}) "
          f"pairs_met={pairs_met} house_repeats={houses} players_all_houses_distinct={distinct}/{n} "
          f"table_size_spread={spread} standing_spread_per_round="
          f"{[round(ours, 1) for ours, _ in spreads]} (random: {[round(rand, 1) for _, rand in spreads]})")
    # Fewer repeat meetings than the best random seating, unless both reach the proven minimum.
    assert repeats < random_best or repeats == lower_bound
    # Houses: every table got an optimal assignment given what its players had played...
    for tables in rounds_tables:
        for _table, optimum, actual in tables:
            assert actual == optimum
    # ...and wherever the field allows it (full six-seat tables), six distinct houses each.
    if all(s == [SIZE] * len(s) for s in sizes):
        assert houses == 0
        assert all(len(history.houses[p]) == 6 for p in players)
    # Swiss: tables gather players of similar standing, more than a random seating does.
    ours, rand = sum(o for o, _ in spreads), sum(r for _, r in spreads)
    assert ours < rand
    assert spreads[0][0] < 0.6 * spreads[0][1] or n < 13  # round 2: clearly by standing
    # Fewest short tables.
    assert sizes[0] == P.table_sizes(n, SIZE, MIN_SIZE)[0]


def test_swiss_is_deterministic_given_a_seed():
    first = play_swiss(24, rounds=3, seed=5)[3]
    again = play_swiss(24, rounds=3, seed=5)[3]
    other = play_swiss(24, rounds=3, seed=6)[3]
    tables = [[t.players + t.houses for t, _, _ in r] for r in first]
    assert tables == [[t.players + t.houses for t, _, _ in r] for r in again]
    assert tables != [[t.players + t.houses for t, _, _ in r] for r in other]


def test_table_sizes_fewest_short_tables_or_byes():
    assert P.table_sizes(24, 6, 3) == ([6, 6, 6, 6], 0)
    assert P.table_sizes(7, 6, 3) == ([4, 3], 0)
    assert P.table_sizes(13, 6, 3) == ([6, 4, 3], 0)
    assert P.table_sizes(20, 6, 3) == ([6, 6, 5, 3], 0) or P.table_sizes(20, 6, 3) == ([6, 6, 4, 4], 0)
    # Only full tables allowed: byes.
    assert P.table_sizes(13, 6, 6) == ([6, 6], 1)
    assert P.table_sizes(7, 6, 6) == ([6], 1)
    with pytest.raises(P.PairingError):
        P.table_sizes(2, 6, 3)


def test_byes_go_to_the_lowest_standing_without_a_bye_and_score_as_documented():
    standing = list(range(1, 14))
    history = P.History()
    first = P.swiss_round(standing, size=6, min_size=6, history=history, seed=1)
    assert first.byes == (13,)
    history.add_bye(13)
    second = P.swiss_round(standing, size=6, min_size=6, history=history, seed=1)
    assert second.byes == (12,)
    assert P.bye_points("placement", 6) == 3.0  # the 3rd place of a six-seat table (5,4,3,2,1,0)
    assert P.bye_points("league", 6, win_bonus=10) == 5.0


def test_house_assignment_is_optimal_and_respects_history():
    history = P.History()
    history.add_table([1, 2, 3], ["stark", "lannister", "baratheon"])
    houses, repeats = P.assign_houses([1, 2, 3], ["stark", "lannister", "baratheon"], history, random.Random(1))
    assert repeats == 0
    assert houses[0] != "stark" and houses[1] != "lannister" and houses[2] != "baratheon"


def test_league_division_of_ten_plays_each_house_once_and_balances_meetings():
    division = list(range(10))
    schedule = P.league_schedule(division, size=6, houses=allowed_houses(6), seed=3)
    assert len(schedule.games) == 10
    per_player: dict[int, list[str]] = {}
    for game in schedule.games:
        assert len(set(game.players)) == 6 and sorted(game.houses) == sorted(allowed_houses(6))
        for p, h in zip(game.players, game.houses, strict=True):
            per_player.setdefault(p, []).append(h)
    assert all(len(h) == 6 and len(set(h)) == 6 for h in per_player.values())
    meetings = schedule.meetings()
    assert len(meetings) == 45 and set(meetings.values()) <= {3, 4}  # 150 meetings over 45 pairs
    adjacent = P.default_adjacent(allowed_houses(6))
    side: Counter = Counter()
    for game in schedule.games:
        for (p, hp), (q, hq) in itertools.combinations(zip(game.players, game.houses, strict=True), 2):
            if frozenset((hp, hq)) in adjacent:
                side[frozenset((p, q))] += 1
    print(f"\nQUALITY league division=10 meetings per pair={sorted(Counter(meetings.values()).items())} "
          f"adjacent per pair={sorted(Counter(side.values()).items())}")
    assert max(side.values()) <= 3
    assert P.league_schedule(division, size=6, houses=allowed_houses(6), seed=3) == schedule


def test_promotion_and_relegation():
    final = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert P.next_season(final, 1) == [[1, 2, 3, 5], [4, 6, 7, 9], [8, 10, 11, 12]]
    assert P.league_divisions(list(range(23)), 10) == [list(range(10)), list(range(10, 23))]


def test_elimination_tables_advance_to_a_final_table():
    players = list(range(1, 25))
    left = players
    rounds = 0
    while not P.is_final(len(left), 6):
        pairing = P.elimination_round(left, size=6, min_size=3, seed=rounds)
        # Snake seeding: the four best seeds sit at four different tables.
        assert len({i for i, t in enumerate(pairing.tables) for p in t.players if p in left[:len(pairing.tables)]}) \
            == len(pairing.tables)
        left = P.advancing([t.players for t in pairing.tables], 2)
        rounds += 1
    assert rounds == 2 and len(left) <= 6


def test_scoring_and_tiebreakers():
    g1 = P.GameRecord((P.Seat("a", 1, castles=7, supply=4), P.Seat("b", 2, castles=5, supply=3),
                       P.Seat("c", 3, castles=3, supply=2, abandoned=True)))
    g2 = P.GameRecord((P.Seat("b", 1, castles=7, supply=5, time_used=10), P.Seat("a", 2, castles=3, time_used=20),
                       P.Seat("c", 3, castles=1)))
    lines = P.standings(["a", "b", "c"], [g1, g2], scoring="league", full_size=3, win_bonus=10,
                        tiebreakers=["castles"])
    assert [(x.player, x.points) for x in lines] == [("b", 22.0), ("a", 20.0), ("c", 1.0)]
    # Placement points: a and b tie on points (2 + 1 each); tie-breakers decide in the given order.
    lines = P.standings(["a", "b", "c"], [g1, g2], scoring="placement", full_size=3, tiebreakers=["supply"])
    assert [x.player for x in lines][:2] == ["b", "a"]
    lines = P.standings(["a", "b", "c"], [g1, g2], scoring="placement", full_size=3, tiebreakers=["castles", "supply"])
    assert [x.player for x in lines][:2] == ["b", "a"]
    lines = P.standings(["a", "b", "c"], [g1, g2], scoring="placement", full_size=3, tiebreakers=["time_used"])
    assert [x.player for x in lines][:2] == ["b", "a"]
    lines = P.standings(["a", "b", "c"], [g1, g2], scoring="placement", full_size=3, tiebreakers=["head_to_head"],
                        seed_order=["a", "b", "c"])
    assert [x.player for x in lines][:2] == ["a", "b"]  # one game each ahead: the seed decides
    with pytest.raises(P.PairingError):
        P.standings(["a"], [], scoring="placement", full_size=3, tiebreakers=["luck"])
    # A short table maps onto the full table's first and last places.
    assert P.score_seat(P.Seat("x", 1), 3, scoring="placement", full_size=6) == 5.0
    assert P.score_seat(P.Seat("x", 3), 3, scoring="placement", full_size=6) == 0.0
