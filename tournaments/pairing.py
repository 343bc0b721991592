"""The pairing engine for multi-seat tables: pure Python, no Django, deterministic given a seed.

Players are opaque hashable ids (the services use registration ids). Everything random comes from
`random.Random(seed)`, and every iteration is over sorted or listed data, so the same inputs and the
same seed always give the same tables, houses and schedules.

Formats
-------
- **Swiss tables** (`swiss_round`): players are grouped into tables of `size` by standing. When the
  count does not divide, `table_sizes` makes the fewest short tables (each at least `min_size`);
  when short tables are impossible (the event allows only full tables, or too few players) the
  lowest-standing players who have not had one yet get a **bye** worth `bye_points` (see below).
  Tables are improved by a seeded local search that minimizes, in this order of weight:
  house repeats (a player given a house they already played in the event), repeat meetings
  (each earlier meeting of two players at the same table), then distance from the player's
  place in the standings (Swiss: players of similar standing meet). Round 1 seats by seed in a
  snake, so the strongest seeds are spread over the tables. Tables of two (`pair_off`): from round
  2 the top player still unpaired meets the nearest in standing not met yet, with backtracking, so
  no pair meets twice while a pairing without a repeat exists; the local search only when none is found.
- **Houses** (`assign_houses`): per table, an assignment problem (exact, dynamic programming over
  subsets of houses) giving each player a house they have played least in this event.
- **League** (`league_schedule`): a division of `division_size` players plays games of `size`,
  each player `games_per_player` games (AGoT: 10 players, 10 six-player games, 6 games each, once as
  each house). Tables are found by a seeded local search that balances how often each pair meets;
  houses come from a decomposition of the player-game graph into perfect matchings (one per house:
  a regular bipartite graph always has one), so each player plays each house exactly once; among
  seeded decompositions and relabellings the one that balances adjacency (two houses are adjacent
  when they are neighbours in `adjacent_pairs`, by default consecutive in seat order, cyclic) wins.
  `next_season` applies promotion and relegation between divisions.
- **Elimination by tables** (`elimination_round`): tables seeded in a snake by standing; the top
  `advance` of each table go on until the players left fit at one table: the final.

Scoring (`score_game`, `standings`)
-----------------------------------
- `placement`: points by place. The default for a table of `size` seats is `size - place` for a
  full table (5, 4, 3, 2, 1, 0 at six seats); a custom list gives the points of a full table. A
  short table of k seats maps its places onto the full table's first and last places
  (place i gets points[round(i * (full - 1) / (k - 1))]).
- `league`: AGoT league points: `win_bonus` to the winner plus one point per castle and stronghold
  the player holds at the end of the game.
- An abandoned player (left the game, by timeouts or by conceding) scores 0 and no win.
- A bye scores the points of the middle place of a full table (placement: points[(full - 1) // 2],
  rounded down; league: half the win bonus, rounded down), and counts as no game for tie-breakers.
- Tie-breakers, in the organizer's order, from TIEBREAKERS: `wins` (more first), `castles` (total
  castles and strongholds at the end of the player's games, more first), `supply` (total supply,
  more first), `time_used` (total seconds used, less first), `head_to_head` (among the players
  still tied: games where they met, +1 for each tied player finished ahead of, -1 for each behind).
  Remaining ties: by seed (rating at registration, higher first), then player id.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field

Player = Hashable
HousesFor = Callable[[int], Sequence[str]]

TIEBREAKERS = ("wins", "castles", "supply", "time_used", "head_to_head")
SCORINGS = ("placement", "league")

# Local search weights (see the module docstring): house repeats first, then repeat meetings, then
# standing. One earlier meeting costs as much as moving a player REPEAT_WEIGHT / STANDING_WEIGHT
# tables away from their place in the standings.
HOUSE_WEIGHT = 1000.0
REPEAT_WEIGHT = 10.0
STANDING_WEIGHT = 5.0


class PairingError(ValueError):
    """The request cannot be paired (too few players, impossible sizes...)."""


# --------------------------------------------------------------------------- history


@dataclass
class History:
    """What happened so far in the event: meetings per pair, houses per player, byes."""

    meetings: Counter = field(default_factory=Counter)  # frozenset({a, b}) -> times at the same table
    houses: dict[Player, Counter] = field(default_factory=lambda: defaultdict(Counter))
    byes: Counter = field(default_factory=Counter)

    def add_table(self, players: Sequence[Player], houses: Sequence[str] | None = None) -> None:
        for a, b in itertools.combinations(players, 2):
            self.meetings[frozenset((a, b))] += 1
        if houses is not None:
            for p, h in zip(players, houses, strict=True):
                self.houses[p][h] += 1

    def add_bye(self, player: Player) -> None:
        self.byes[player] += 1

    def met(self, a: Player, b: Player) -> int:
        return self.meetings.get(frozenset((a, b)), 0)

    @classmethod
    def of(cls, tables: Iterable[tuple[Sequence[Player], Sequence[str] | None]], byes: Iterable[Player] = ()) -> History:
        h = cls()
        for players, houses in tables:
            h.add_table(players, houses)
        for p in byes:
            h.add_bye(p)
        return h


def repeat_meetings(history: History) -> int:
    """Meetings beyond the first of every pair (the quality measure)."""
    return sum(n - 1 for n in history.meetings.values() if n > 1)


def house_repeats(history: History) -> int:
    """Games in which a player played a house they had already played in the event."""
    return sum(n - 1 for c in history.houses.values() for n in c.values() if n > 1)


# --------------------------------------------------------------------------- table sizes


def table_sizes(n: int, size: int, min_size: int) -> tuple[list[int], int]:
    """(table sizes, byes) for n players: as many full tables as possible with the fewest short
    tables (each at least min_size), largest first; when that is impossible, full tables and byes."""
    if not 1 <= min_size <= size:
        raise PairingError("min_size must be between 1 and size")
    if n < min_size:
        raise PairingError(f"{n} players cannot fill a table of at least {min_size}")
    tables = -(-n // size)
    deficit = tables * size - n
    if deficit == 0:
        return [size] * tables, 0
    room = size - min_size
    if room > 0 and tables * min_size <= n:
        sizes = [size] * tables
        i = tables - 1
        while deficit:
            cut = min(room, deficit)
            sizes[i] -= cut
            deficit -= cut
            i -= 1
        return sorted(sizes, reverse=True), 0
    full = n // size
    if full == 0:
        return [n], 0  # n >= min_size: one table of n
    return [size] * full, n - full * size


def bye_points(scoring: str, size: int, *, placement_points: Sequence[float] | None = None, win_bonus: float = 10) -> float:
    if scoring == "league":
        return float(int(win_bonus // 2))
    points = full_points(size, placement_points)
    return float(int(points[(size - 1) // 2]))


# --------------------------------------------------------------------------- houses


def assign_houses(
    players: Sequence[Player], houses: Sequence[str], history: History, rng: random.Random | None = None
) -> tuple[list[str], int]:
    """An optimal assignment of `houses` to `players` (same length): the fewest houses a player has
    already played (weighted by how often), ties broken by a seeded preference. Returns (houses in
    player order, repeats)."""
    n = len(players)
    if n != len(houses):
        raise PairingError("one house per player")
    order = list(range(n))
    if rng is not None:
        rng.shuffle(order)  # the preference among equal assignments
    cost = [[history.houses[p][houses[h]] if p in history.houses else 0 for h in range(n)] for p in players]
    best, choice = _assignment(cost, order)
    result: list[str] = [""] * n
    mask = 0
    for i in range(n):
        h = choice[(i, mask)]
        result[i] = houses[h]
        mask |= 1 << h
    return result, best


def _assignment(cost: list[list[int]], order: list[int]) -> tuple[int, dict[tuple[int, int], int]]:
    """Min-cost perfect assignment by DP over subsets; `order` ranks houses among equal costs."""
    n = len(cost)
    memo: dict[tuple[int, int], int] = {}
    choice: dict[tuple[int, int], int] = {}

    def go(i: int, mask: int) -> int:
        if i == n:
            return 0
        key = (i, mask)
        if key in memo:
            return memo[key]
        best, pick = None, -1
        for h in order:
            if mask & (1 << h):
                continue
            c = cost[i][h] + go(i + 1, mask | (1 << h))
            if best is None or c < best:
                best, pick = c, h
        memo[key] = best or 0
        choice[key] = pick
        return memo[key]

    return go(0, 0), choice


def min_house_repeats(players: Sequence[Player], houses: Sequence[str], history: History) -> int:
    """The fewest repeats any assignment of this table could have (brute force, for tests)."""
    best = None
    for perm in itertools.permutations(houses):
        c = sum(history.houses[p][h] if p in history.houses else 0 for p, h in zip(players, perm, strict=True))
        best = c if best is None else min(best, c)
    return best or 0


# --------------------------------------------------------------------------- swiss


@dataclass(frozen=True)
class Table:
    players: tuple[Player, ...]
    houses: tuple[str, ...] | None  # seat names in player order, when the ruleset names seats


@dataclass(frozen=True)
class RoundPairing:
    tables: tuple[Table, ...]
    byes: tuple[Player, ...]


def snake(players: Sequence[Player], sizes: Sequence[int]) -> list[list[Player]]:
    """Deal players (best first) over tables in a snake (1..k, k..1, ...), respecting sizes."""
    tables: list[list[Player]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    it = iter(players)
    forward = True
    placed = 0
    total = sum(sizes)
    while placed < total:
        for t in (order if forward else reversed(order)):
            if len(tables[t]) < sizes[t] and placed < total:
                tables[t].append(next(it))
                placed += 1
        forward = not forward
    return tables


def swiss_round(
    standing: Sequence[Player],
    *,
    size: int,
    min_size: int,
    history: History | None = None,
    houses_for: HousesFor | None = None,
    seed: int = 0,
    first_round: bool = False,
    effort: int = 2,
) -> RoundPairing:
    """One Swiss round: `standing` lists the active players best first (round 1: by seed)."""
    history = history or History()
    rng = random.Random(f"swiss:{seed}")
    players = list(standing)
    sizes, bye_count = table_sizes(len(players), size, min_size)
    byes: list[Player] = []
    if bye_count:
        # The lowest-standing players with the fewest byes so far sit out.
        candidates = sorted(range(len(players)), key=lambda i: (history.byes[players[i]], -i))
        out = set(candidates[:bye_count])
        byes = [players[i] for i in sorted(out)]
        players = [p for i, p in enumerate(players) if i not in out]
    pairs = None
    if not first_round and sizes and set(sizes) == {2}:
        pairs = pair_off(players, history, houses_for)
    if pairs is not None:
        groups = pairs
    else:
        if first_round:
            groups = snake(players, sizes)
        else:
            groups, start = [], 0
            for s in sizes:
                groups.append(players[start:start + s])
                start += s
        groups = _improve(groups, players, sizes, history, houses_for, rng, first_round, effort)
    tables = []
    for group in groups:
        if houses_for is not None:
            assigned, _ = assign_houses(group, list(houses_for(len(group))), history, rng)
            tables.append(Table(tuple(group), tuple(assigned)))
        else:
            tables.append(Table(tuple(group), None))
    return RoundPairing(tuple(tables), tuple(byes))


# Tables of two (`pair_off`): a partner whose seat history clashes (one of the two would play a seat
# again that the other pairing avoids) counts as this many standing places further away.
SEAT_SLACK = 2
PAIR_SEARCH_BUDGET = 20_000  # partners tried before giving up and leaving it to the local search


def pair_off(players: Sequence[Player], history: History, houses_for: HousesFor | None = None,
             budget: int = PAIR_SEARCH_BUDGET, *, fits: Callable[[Player, Player], bool] | None = None,
             repeats: bool = False) -> list[list[Player]] | None:
    """Tables of two after round 1, as a Swiss event pairs them: the highest-standing player still
    unpaired meets the nearest in the standings they have not met yet (a partner whose seat history
    clashes counts SEAT_SLACK places further), backtracking when the others cannot all be paired then.
    Returns the pairs best first, or None when no pairing without a repeat meeting turns up within
    `budget` partners tried; the local search then trades repeats against standing as for bigger
    tables. (A pairing without a repeat always exists while fewer than half the players have been met:
    the graph of pairs not yet met then has a perfect matching, by Dirac's theorem.) `fits`: only pairs it allows
    meet (fixed houses); `repeats`: pairs who met may meet again, those who met fewest times first."""
    n = len(players)
    if n % 2:
        return None
    seats = list(houses_for(2)) if houses_for is not None and history.houses else []
    played = [[history.houses[p][h] if p in history.houses else 0 for h in seats] for p in players]

    def clash(i: int, j: int) -> int:
        if not seats:
            return 0
        best = min(played[i][a] + played[j][b] for a in range(len(seats)) for b in range(len(seats)) if a != b)
        return best - min(played[i]) - min(played[j])

    tried = 0

    def solve(rest: list[int]) -> list[tuple[int, int]] | None:
        nonlocal tried
        if not rest:
            return []
        top, others = rest[0], rest[1:]
        ranked = sorted(others, key=lambda j: (history.met(players[top], players[j]) if repeats else 0,
                                               j - top + SEAT_SLACK * clash(top, j)))
        for partner in ranked:
            if history.met(players[top], players[partner]) and not repeats:
                continue
            if fits is not None and not fits(players[top], players[partner]):
                continue
            tried += 1
            if tried > budget:
                return None
            tail = solve([k for k in others if k != partner])
            if tail is not None:
                return [(top, partner), *tail]
        return None

    found = solve(list(range(n)))
    return None if found is None else [[players[i], players[j]] for i, j in found]


# --------------------------------------------------------------------------- sides of fixed houses


def _house_count(houses: Iterable[str | None]) -> tuple[int, ...]:
    """A side's fixed houses as a count per house, in FIXED_HOUSES order; players of no fixed house are not counted."""
    counted = Counter(h for h in houses if h is not None)
    return tuple(counted[h] for h in FIXED_HOUSES)


# The miniatures game's houses: a table of two sides seats each house once per player of a side (Stark against
# Lannister; two against two: two Stark seats and two Lannister seats, M130/M131), so a side's fixed houses must
# leave room for the other side's.
FIXED_HOUSES = ("stark", "lannister")


def sides_fit(a: tuple[int, ...], b: tuple[int, ...], per_side: int) -> bool:
    """Two sides of `per_side` players each can meet: no house is wanted by more players than it has seats."""
    return all(x + y <= per_side for x, y in zip(a, b, strict=True))


def _max_meetings(kinds: tuple[tuple[int, ...], ...], counts: tuple[int, ...], per_side: int,
                  memo: dict | None = None) -> int:
    """The most meetings of two sides among sides of these kinds (their counts), by exhaustive search over kinds."""
    memo = {} if memo is None else memo
    if counts in memo:
        return memo[counts]
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return 0
    rest = list(counts)
    rest[first] -= 1
    best = _max_meetings(kinds, tuple(rest), per_side, memo)  # the first sits out
    for j, c in enumerate(rest):
        if c and sides_fit(kinds[first], kinds[j], per_side):
            paired = list(rest)
            paired[j] -= 1
            best = max(best, 1 + _max_meetings(kinds, tuple(paired), per_side, memo))
    memo[counts] = best
    return best


def fixed_house_round(
    standing: Sequence[Player],
    houses: dict[Player, tuple[int, ...]],
    *,
    per_side: int,
    history: History | None = None,
    first_round: bool = False,
) -> RoundPairing:
    """A Swiss round of tables of two sides when sides bring fixed houses (the miniatures game's armies: a Stark army
    plays a Stark seat). `standing` lists the sides best first; `houses[side]` counts its fixed houses
    (`_house_count`). Two sides meet only when their houses fit the table (`sides_fit`). Byes: as few as the houses
    allow (an odd field, or more Stark armies than the Lannister ones and the sides of no fixed house can balance),
    to the lowest-standing sides with the fewest byes whose sitting out leaves the rest as pairable. Then the
    pairing of pairs (`pair_off`): the top side meets the nearest in the standings it has not met and fits; round 1
    folds the seeds (1 meets the top of the lower half). When no pairing without a repeat exists, repeats are
    allowed, the nearest in the standings first. Returns tables of two sides (no houses: the seats are the
    caller's, `seat_sides`)."""
    history = history or History()
    players = list(standing)
    kinds = tuple(sorted({houses[p] for p in players}))

    def counts_of(group: Sequence[Player]) -> tuple[int, ...]:
        c = Counter(houses[p] for p in group)
        return tuple(c[k] for k in kinds)

    memo: dict = {}
    most = _max_meetings(kinds, counts_of(players), per_side, memo)
    byes: list[Player] = []
    order = sorted(range(len(players)), key=lambda i: (history.byes[players[i]], -i))
    for i in order:
        if len(players) - len(byes) == 2 * most:
            break
        rest = [p for p in players if p not in byes and p != players[i]]
        if _max_meetings(kinds, counts_of(rest), per_side, memo) == most:
            byes.append(players[i])
    seated = [p for p in players if p not in byes]
    if first_round:  # 1 meets the top of the lower half: 1, k+1, 2, k+2, ...
        half = len(seated) // 2
        seated = [p for pair in zip(seated[:half], seated[half:], strict=True) for p in pair]
    fits = lambda a, b: sides_fit(houses[a], houses[b], per_side)  # noqa: E731
    pairs = pair_off(seated, history, fits=fits)
    if pairs is None:
        pairs = pair_off(seated, history, fits=fits, repeats=True)
    if pairs is None:
        raise PairingError("the sides' houses cannot all be paired")
    return RoundPairing(tuple(Table(tuple(p), None) for p in pairs), tuple(p for p in standing if p in byes))


def duel_seats(players: Sequence[Player], houses: Sequence[str], fixed: dict[Player, str | None]) -> tuple[str, ...]:
    """The seats of a two-player table of the miniatures game when armies fix houses (issue 33), in player order:
    the pairing's `houses` (Stark and Lannister, balanced over the event) when no army fixes one; a player whose army
    fixes a house takes its seat, the other player the other house's; two armies of one house (a mirror match) sit
    at the house's two seats, `stark` to the player the pairing gave the first seat (`houses[i]` the first of
    FIXED_HOUSES), `stark_2` to the other."""
    first, second = players
    a, b = fixed.get(first), fixed.get(second)
    if not a and not b:
        return tuple(houses)
    if a and b and a == b:
        return (a, f"{a}_2") if houses[0] == FIXED_HOUSES[0] else (f"{a}_2", a)
    other = {FIXED_HOUSES[0]: FIXED_HOUSES[1], FIXED_HOUSES[1]: FIXED_HOUSES[0]}
    return (a or other[b], b or other[a])  # type: ignore[index]


def seat_sides(sides: Sequence[Sequence[Player]], seats: Sequence[str], fixed: dict[Player, str | None],
               played: dict[Player, Counter] | None = None,
               allowed: Callable[[list[tuple[Player, str]]], bool] | None = None) -> list[tuple[Player, str]]:
    """The seats of a table of sides (each side's players): a player of a fixed house takes a seat of that house
    (a seat's house: `stark_2` is Stark's), the others the seats left, each the house they have played least
    (`played`), side by side in seat order; `allowed` may refuse a seating (teammates' armies sharing a character,
    M130). Exhaustive over the seats (four at most)."""
    played = played or {}
    players = [p for side in sides for p in side]
    best: tuple[int, list[str]] | None = None
    for perm in itertools.permutations(seats, len(players)):
        if any(fixed.get(p) and perm[i].split("_")[0] != fixed[p] for i, p in enumerate(players)):
            continue
        if allowed is not None and not allowed(list(zip(players, perm, strict=True))):
            continue
        cost = sum(played.get(p, Counter())[perm[i].split("_")[0]] for i, p in enumerate(players))
        if best is None or cost < best[0]:
            best = (cost, list(perm))
    if best is None:
        raise PairingError("no seats fit these houses")
    return list(zip(players, best[1], strict=True))


def _improve(
    groups: list[list[Player]],
    players: list[Player],
    sizes: list[int],
    history: History,
    houses_for: HousesFor | None,
    rng: random.Random,
    first_round: bool,
    effort: int,
) -> list[list[Player]]:
    """Seeded local search over swaps of two players between tables (first improvement), then
    random kicks keeping the best. Meeting and standing costs are updated by difference; the house
    assignment (an exact DP) is only evaluated when it can change the outcome."""
    n_tables = len(groups)
    if n_tables < 2:
        order = {p: i for i, p in enumerate(players)}
        return [sorted(g, key=order.__getitem__) for g in groups]
    # Work on standing indexes: player i is players[i]; meetings in a matrix.
    index = {p: i for i, p in enumerate(players)}
    originals = players
    groups = [[index[p] for p in g] for g in groups]
    matrix = [[0] * len(players) for _ in players]
    for pair, times in history.meetings.items():
        a, b = tuple(pair)
        if a in index and b in index:
            matrix[index[a]][index[b]] = matrix[index[b]][index[a]] = times
    played = [history.houses.get(p) if p in history.houses else None for p in players]
    bracket = []
    start = 0
    for s in sizes:
        bracket.append((start, start + s - 1))
        start += s
    house_cache: dict[tuple, int] = {}
    track_houses = houses_for is not None and bool(history.houses)
    house_lists = {s: list(houses_for(s)) for s in set(sizes)} if houses_for is not None else {}

    def meet(a: int, b: int) -> int:
        return matrix[a][b]

    def house_cost(members: list[Player]) -> int:
        if not track_houses:
            return 0
        key = tuple(sorted(members))
        c = house_cache.get(key)
        if c is None:
            hs = house_lists[len(members)]
            cost = [[played[p][h] if played[p] is not None else 0 for h in hs] for p in key]
            c = _min_assignment(cost)
            house_cache[key] = c
        return c

    def stand(t: int, p: Player) -> float:
        if first_round:
            return 0.0
        lo, hi = bracket[t]
        r = p
        return STANDING_WEIGHT * (lo - r if r < lo else r - hi if r > hi else 0) / sizes[t]

    def meet_cost(members: list[Player]) -> float:
        return REPEAT_WEIGHT * sum(meet(a, b) for a, b in itertools.combinations(members, 2))

    def full_cost(t: int, members: list[Player]) -> tuple[float, int]:
        soft = meet_cost(members) + sum(stand(t, p) for p in members)
        return soft, house_cost(members)

    groups = [list(g) for g in groups]
    soft = [0.0] * n_tables
    hard = [0] * n_tables
    for t, g in enumerate(groups):
        soft[t], hard[t] = full_cost(t, g)

    def swap_delta(t1: int, i: int, t2: int, j: int) -> tuple[float, float, list, list]:
        g1, g2 = groups[t1], groups[t2]
        a, b = g1[i], g2[j]
        d = 0.0
        for k, x in enumerate(g1):
            if k != i:
                d += REPEAT_WEIGHT * (meet(b, x) - meet(a, x))
        for k, y in enumerate(g2):
            if k != j:
                d += REPEAT_WEIGHT * (meet(a, y) - meet(b, y))
        d += stand(t1, b) - stand(t1, a) + stand(t2, a) - stand(t2, b)
        return d, 0.0, g1, g2

    def try_swap(t1: int, i: int, t2: int, j: int) -> bool:
        d_soft, _, g1, g2 = swap_delta(t1, i, t2, j)
        current_hard = hard[t1] + hard[t2]
        if d_soft >= -1e-9 and current_hard == 0:
            return False  # houses cannot get better than no repeat
        if d_soft - HOUSE_WEIGHT * current_hard >= -1e-9:
            return False  # even fixing every house repeat would not pay
        n1 = g1[:i] + [g2[j]] + g1[i + 1:]
        n2 = g2[:j] + [g1[i]] + g2[j + 1:]
        h1, h2 = house_cost(n1), house_cost(n2)
        if d_soft + HOUSE_WEIGHT * (h1 + h2 - current_hard) < -1e-9:
            groups[t1], groups[t2] = n1, n2
            soft[t1], hard[t1] = full_cost(t1, n1)
            soft[t2], hard[t2] = full_cost(t2, n2)
            return True
        return False

    def descend(limit: int) -> None:
        for _ in range(limit):
            improved = False
            for t1, t2 in itertools.combinations(range(n_tables), 2):
                for i in range(len(groups[t1])):
                    for j in range(len(groups[t2])):
                        if try_swap(t1, i, t2, j):
                            improved = True
            if not improved:
                return

    def total() -> float:
        return sum(soft) + HOUSE_WEIGHT * sum(hard)

    descend(50)
    best = [list(g) for g in groups]
    best_total = total()
    for _ in range(effort * min(n_tables, 8)):
        if best_total <= 1e-9:
            break
        for _ in range(max(2, n_tables // 3)):
            t1, t2 = rng.sample(range(n_tables), 2)
            i, j = rng.randrange(len(groups[t1])), rng.randrange(len(groups[t2]))
            groups[t1][i], groups[t2][j] = groups[t2][j], groups[t1][i]
        for t, g in enumerate(groups):
            soft[t], hard[t] = full_cost(t, g)
        descend(50)
        now = total()
        if now < best_total - 1e-9:
            best, best_total = [list(g) for g in groups], now
        else:
            groups = [list(g) for g in best]
            for t, g in enumerate(groups):
                soft[t], hard[t] = full_cost(t, g)
    # Present each table in standing order (seat positions follow the houses, not this order).
    return [[originals[i] for i in sorted(g)] for g in best]


def _min_assignment(cost: list[list[int]]) -> int:
    """Minimum cost of a perfect assignment (rows to columns), DP over column subsets."""
    n = len(cost)
    full = 1 << n
    inf = 1 << 30
    dp = [inf] * full
    dp[0] = 0
    for mask in range(full):
        base = dp[mask]
        if base == inf:
            continue
        row = bin(mask).count("1")
        if row == n:
            continue
        r = cost[row]
        for h in range(n):
            bit = 1 << h
            if not mask & bit:
                v = base + r[h]
                if v < dp[mask | bit]:
                    dp[mask | bit] = v
    return dp[full - 1]


def random_round(players: Sequence[Player], sizes: Sequence[int], rng: random.Random) -> list[list[Player]]:
    """A uniformly random seating with the given table sizes (the quality baseline)."""
    shuffled = list(players)
    rng.shuffle(shuffled)
    out, start = [], 0
    for s in sizes:
        out.append(shuffled[start:start + s])
        start += s
    return out


# --------------------------------------------------------------------------- elimination


def elimination_round(
    standing: Sequence[Player],
    *,
    size: int,
    min_size: int,
    history: History | None = None,
    houses_for: HousesFor | None = None,
    seed: int = 0,
) -> RoundPairing:
    """Tables for the players still in, seeded in a snake by standing (no byes: when the count
    cannot make tables of at least min_size, the lowest standings sit out as byes and are out)."""
    history = history or History()
    rng = random.Random(f"elimination:{seed}")
    sizes, bye_count = table_sizes(len(standing), size, min_size)
    players = list(standing[:len(standing) - bye_count]) if bye_count else list(standing)
    byes = tuple(standing[len(players):])
    groups = snake(players, sizes)
    tables = []
    for group in groups:
        if houses_for is not None:
            assigned, _ = assign_houses(group, list(houses_for(len(group))), history, rng)
            tables.append(Table(tuple(group), tuple(assigned)))
        else:
            tables.append(Table(tuple(group), None))
    return RoundPairing(tuple(tables), byes)


def advancing(placings: Sequence[Sequence[Player]], advance: int) -> list[Player]:
    """The top `advance` of each table (each table's players in finishing order), interleaved by
    place: all the winners first, then all the seconds, ..."""
    out = []
    for place in range(advance):
        for table in placings:
            if place < len(table):
                out.append(table[place])
    return out


def is_final(players_left: int, size: int) -> bool:
    return players_left <= size


# --------------------------------------------------------------------------- league


@dataclass(frozen=True)
class LeagueSchedule:
    games: tuple[Table, ...]

    def meetings(self) -> Counter:
        c: Counter = Counter()
        for g in self.games:
            for a, b in itertools.combinations(g.players, 2):
                c[frozenset((a, b))] += 1
        return c


def default_adjacent(houses: Sequence[str]) -> set[frozenset]:
    return {frozenset((houses[i], houses[(i + 1) % len(houses)])) for i in range(len(houses))}


def league_schedule(
    division: Sequence[Player],
    *,
    size: int,
    houses: Sequence[str] | None = None,
    games_per_player: int | None = None,
    adjacent_pairs: set[frozenset] | None = None,
    seed: int = 0,
    iterations: int = 4000,
) -> LeagueSchedule:
    """The games of one division. `houses` (the seat names of a full table) are assigned so each
    player plays each house once when games_per_player == size (the default)."""
    players = list(division)
    d = len(players)
    g = games_per_player or size
    if d < size:
        raise PairingError(f"a division needs at least {size} players")
    if (d * g) % size:
        raise PairingError(f"{d} players x {g} games is not a whole number of {size}-seat games")
    games_count = d * g // size
    rng = random.Random(f"league:{seed}")
    # Start: deal players cyclically (each player exactly g times, never twice in a game).
    blocks = [[players[(j * size + i) % d] for i in range(size)] for j in range(games_count)]
    target = games_count * size * (size - 1) / 2 / (d * (d - 1) / 2)

    def meet_cost(blocks_: list[list[Player]]) -> float:
        c: Counter = Counter()
        for b in blocks_:
            for x, y in itertools.combinations(b, 2):
                c[frozenset((x, y))] += 1
        return sum((c.get(frozenset(p), 0) - target) ** 2 for p in itertools.combinations(players, 2))

    current = meet_cost(blocks)
    for _ in range(iterations):
        a, b = rng.sample(range(games_count), 2)
        i, j = rng.randrange(size), rng.randrange(size)
        x, y = blocks[a][i], blocks[b][j]
        if x == y or y in blocks[a] or x in blocks[b]:
            continue
        blocks[a][i], blocks[b][j] = y, x
        new = meet_cost(blocks)
        if new <= current:
            current = new
        else:
            blocks[a][i], blocks[b][j] = x, y
    if houses is None:
        return LeagueSchedule(tuple(Table(tuple(b), None) for b in blocks))
    if len(houses) != size:
        raise PairingError("one house per seat of a full table")
    adjacent = adjacent_pairs if adjacent_pairs is not None else default_adjacent(houses)
    best: tuple[float, list[list[str]]] | None = None
    for attempt in range(8):
        colouring = _house_colouring(blocks, players, size, random.Random(f"league:{seed}:{attempt}"))
        for perm in itertools.permutations(range(size)):
            labelled = [[houses[perm[c]] for c in row] for row in colouring]
            score = _adjacency_spread(blocks, labelled, adjacent)
            if best is None or score < best[0] - 1e-9:
                best = (score, labelled)
    assert best is not None
    return LeagueSchedule(tuple(Table(tuple(b), tuple(h)) for b, h in zip(blocks, best[1], strict=True)))


def _house_colouring(blocks: list[list[Player]], players: list[Player], size: int, rng: random.Random) -> list[list[int]]:
    """Colour each (game, seat) with 0..size-1 so every game has each colour once and every player
    has each colour at most once: peel perfect matchings off the player-game bipartite graph."""
    remaining = [set(range(len(b))) for b in blocks]  # seat indexes not coloured yet, per game
    colour = [[-1] * len(b) for b in blocks]
    where: dict[Player, list[tuple[int, int]]] = defaultdict(list)
    for gi, b in enumerate(blocks):
        for si, p in enumerate(b):
            where[p].append((gi, si))
    for c in range(size):
        # Match every game to one of its uncoloured players; a player is matched at most once
        # per colour (Kuhn's augmenting paths, seeded order).
        match_player: dict[Player, tuple[int, int]] = {}
        order = list(range(len(blocks)))
        rng.shuffle(order)

        def augment(gi: int, seen: set, match_player: dict = match_player) -> bool:
            seats = sorted(remaining[gi])
            rng.shuffle(seats)
            for si in seats:
                p = blocks[gi][si]
                if p in seen:
                    continue
                seen.add(p)
                if p not in match_player or augment(match_player[p][0], seen, match_player):
                    match_player[p] = (gi, si)
                    return True
            return False

        for gi in order:
            if not augment(gi, set()):
                raise PairingError("no house assignment exists for this schedule")
        for gi, si in match_player.values():
            colour[gi][si] = c
            remaining[gi].discard(si)
    return colour


def _adjacency_spread(blocks: list[list[Player]], labelled: list[list[str]], adjacent: set[frozenset]) -> float:
    c: Counter = Counter()
    for b, hs in zip(blocks, labelled, strict=True):
        for (p, hp), (q, hq) in itertools.combinations(zip(b, hs, strict=True), 2):
            if frozenset((hp, hq)) in adjacent:
                c[frozenset((p, q))] += 1
    if not c:
        return 0.0
    values = list(c.values())
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) + max(values) * 10


def league_divisions(standing: Sequence[Player], division_size: int) -> list[list[Player]]:
    """Divisions in order of seed; a remainder smaller than a division joins the last division."""
    out = [list(standing[i:i + division_size]) for i in range(0, len(standing), division_size)]
    if len(out) > 1 and len(out[-1]) < division_size:
        last = out.pop()
        out[-1].extend(last)
    return out


def next_season(final: Sequence[Sequence[Player]], movers: int) -> list[list[Player]]:
    """Promotion and relegation: `final` lists each division's final standings, top division first.
    The bottom `movers` of each division go down one, the top `movers` of the one below go up."""
    divisions = [list(d) for d in final]
    out = [list(d) for d in divisions]
    for i in range(len(divisions) - 1):
        m = min(movers, len(divisions[i]) // 2, len(divisions[i + 1]) // 2)
        if m == 0:
            continue
        down = divisions[i][-m:]
        up = divisions[i + 1][:m]
        out[i] = [p for p in out[i] if p not in down] + up
        out[i + 1] = down + [p for p in out[i + 1] if p not in up]
    return out


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Seat:
    player: Player
    place: int  # 1 = winner
    castles: int = 0
    supply: int = 0
    time_used: float = 0.0
    abandoned: bool = False


@dataclass(frozen=True)
class GameRecord:
    seats: tuple[Seat, ...]
    # the table's size for scoring when it is not its number of seats: a game of two teams of two scores as a
    # game of two sides (places 1 and 2), whatever its four seats
    sides: int | None = None


@dataclass
class Line:
    player: Player
    points: float = 0.0
    games: int = 0
    wins: int = 0
    castles: int = 0
    supply: int = 0
    time_used: float = 0.0
    byes: int = 0
    abandoned: int = 0
    rank: int = 0


def full_points(size: int, placement_points: Sequence[float] | None = None) -> list[float]:
    if placement_points:
        return [float(x) for x in placement_points] + [0.0] * max(0, size - len(placement_points))
    return [float(size - place) for place in range(1, size + 1)]


def score_seat(
    seat: Seat,
    table_size: int,
    *,
    scoring: str,
    full_size: int,
    placement_points: Sequence[float] | None = None,
    win_bonus: float = 10,
) -> float:
    if seat.abandoned:
        return 0.0
    if scoring == "league":
        return (win_bonus if seat.place == 1 else 0.0) + seat.castles
    points = full_points(full_size, placement_points)
    if table_size <= 1:
        return points[0]
    index = round((seat.place - 1) * (full_size - 1) / (table_size - 1))
    return points[min(index, len(points) - 1)]


def standings(
    players: Sequence[Player],
    games: Sequence[GameRecord],
    *,
    scoring: str,
    full_size: int,
    tiebreakers: Sequence[str] = ("wins",),
    byes: Iterable[Player] = (),
    seed_order: Sequence[Player] | None = None,
    placement_points: Sequence[float] | None = None,
    win_bonus: float = 10,
) -> list[Line]:
    """Lines best first, with `rank` set (equal ranks only when everything is equal, which the
    seed order prevents)."""
    unknown = [t for t in tiebreakers if t not in TIEBREAKERS]
    if unknown:
        raise PairingError(f"unknown tie-breaker {unknown[0]!r}; choose from {', '.join(TIEBREAKERS)}")
    lines = {p: Line(p) for p in players}
    ahead: Counter = Counter()  # (a, b) -> games a finished ahead of b
    for g in games:
        for s in g.seats:
            line = lines.setdefault(s.player, Line(s.player))
            line.points += score_seat(s, g.sides or len(g.seats), scoring=scoring, full_size=full_size,
                                      placement_points=placement_points, win_bonus=win_bonus)
            line.games += 1
            line.wins += int(s.place == 1 and not s.abandoned)
            line.castles += s.castles
            line.supply += s.supply
            line.time_used += s.time_used
            line.abandoned += int(s.abandoned)
        for s, t in itertools.permutations(g.seats, 2):
            if s.place < t.place:
                ahead[(s.player, t.player)] += 1
    bye = bye_points(scoring, full_size, placement_points=placement_points, win_bonus=win_bonus)
    for p in byes:
        line = lines.setdefault(p, Line(p))
        line.points += bye
        line.byes += 1
    seed_index = {p: i for i, p in enumerate(seed_order or players)}

    def final_key(line: Line) -> tuple:
        return (seed_index.get(line.player, len(seed_index)), str(line.player))

    ordered = sorted(lines.values(), key=lambda x: -x.points)
    groups = [list(g) for _, g in itertools.groupby(ordered, key=lambda x: x.points)]
    for tb in tiebreakers:
        refined = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if tb == "head_to_head":
                members = [x.player for x in group]
                key = {x.player: -sum(ahead[(x.player, o)] - ahead[(o, x.player)] for o in members if o != x.player)
                       for x in group}
            else:
                key = {x.player: (getattr(x, tb) if tb == "time_used" else -getattr(x, tb)) for x in group}
            group.sort(key=lambda x: key[x.player])
            refined.extend(list(g) for _, g in itertools.groupby(group, key=lambda x: key[x.player]))
        groups = refined
    result = []
    for group in groups:
        result.extend(sorted(group, key=final_key))
    for i, line in enumerate(result, 1):
        line.rank = i
    return result
