"""Multiplayer Elo by pairwise comparison of final placements. Pure Python, no Django.

The rules (issue 7, "Ratings"):

- Every seat is compared with every other seat of the game: a better (smaller) placement beats a
  worse one (score 1), an equal placement is a draw (score 0.5), a worse one loses (score 0).
- For a player with rating R facing an opponent with rating R', the expected score of that pairing
  is E = 1 / (1 + 10 ** ((R' - R) / 400)).
- The player's change is K / (number of opponents) * sum over opponents of (score - E), so a
  six-player table moves a rating no more than a two-player game does.
- K is `k_provisional` while the player has fewer than `provisional_games` ranked games before this
  one, else `k`.
- Every change is computed from the ratings *before* the game, so the result does not depend on the
  order in which players are listed.
- Abandoning players (they conceded or were taken over by the bot) rank last, after every other
  seat, whatever the engine's ranking says; several leavers tie for last.
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

START_RATING = 1500.0
DEFAULT_K = 32.0
DEFAULT_K_PROVISIONAL = 64.0
DEFAULT_PROVISIONAL_GAMES = 10

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True)
class Standing:
    """A player's rating and ranked-games count before a game."""

    rating: float = START_RATING
    games: int = 0


@dataclass(frozen=True)
class EloConfig:
    k: float = DEFAULT_K
    k_provisional: float = DEFAULT_K_PROVISIONAL
    provisional_games: int = DEFAULT_PROVISIONAL_GAMES

    def k_for(self, games: int) -> float:
        return self.k_provisional if is_provisional(games, self.provisional_games) else self.k


def is_provisional(games: int, provisional_games: int = DEFAULT_PROVISIONAL_GAMES) -> bool:
    return games < provisional_games


def expected_score(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def pair_score(placement: int, opponent_placement: int) -> float:
    if placement < opponent_placement:
        return 1.0
    if placement > opponent_placement:
        return 0.0
    return 0.5


def placements(ranking: Sequence[P | Sequence[P]], leavers: Iterable[P] = ()) -> dict[P, int]:
    """Placements (1 = first) from a ranking, best first. An entry may be a group of tied players
    (a list or tuple); tied players share a placement and the next placement skips (1, 2, 2, 4).
    Leavers are taken out of the ranking and all placed last, tied."""
    gone = set(leavers)
    groups: list[list[P]] = []
    for entry in ranking:
        members = list(entry) if isinstance(entry, list | tuple) else [entry]
        members = [m for m in members if m not in gone]
        if members:
            groups.append(members)
    ranked_leavers = [p for p in _flatten(ranking) if p in gone]
    if ranked_leavers:
        groups.append(ranked_leavers)
    result: dict[P, int] = {}
    place = 1
    for group in groups:
        for player in group:
            result[player] = place
        place += len(group)
    return result


def _flatten(ranking: Sequence[P | Sequence[P]]) -> list[P]:
    flat: list[P] = []
    for entry in ranking:
        flat.extend(entry if isinstance(entry, list | tuple) else [entry])
    return flat


def rating_changes(
    standings: Mapping[P, Standing], places: Mapping[P, int], config: EloConfig = EloConfig()
) -> dict[P, float]:
    """Each player's rating change for one game. `standings` and `places` have the same players."""
    if set(standings) != set(places):
        raise ValueError("every player needs both a standing and a placement")
    opponents = len(places) - 1
    if opponents < 1:
        return {player: 0.0 for player in places}
    changes: dict[P, float] = {}
    for player, standing in standings.items():
        # fsum is exactly rounded, so the listing order of the players cannot change a single bit.
        total = math.fsum(
            pair_score(places[player], places[other]) - expected_score(standing.rating, standings[other].rating)
            for other in standings
            if other != player
        )
        changes[player] = config.k_for(standing.games) / opponents * total
    return changes


def new_ratings(
    standings: Mapping[P, Standing], places: Mapping[P, int], config: EloConfig = EloConfig()
) -> dict[P, float]:
    changes = rating_changes(standings, places, config)
    return {player: standings[player].rating + change for player, change in changes.items()}
