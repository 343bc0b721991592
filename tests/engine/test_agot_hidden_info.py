"""Hidden information (R289-R296, inventory section 5): walking random games, no seat's view or
summary, and no spectator's, depends on another seat's secrets, on deck order or on the generator.

Non-interference: scramble everything another seat may not see (its `secret`, every deck's order, the
generator's state) and check that the viewer's view and summary do not change."""
from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games.engine.base import HIDDEN
from tests.engine.agot_helpers import R


def _scramble(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _scramble(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_scramble(v) for v in reversed(x)]
    if isinstance(x, bool):
        return not x
    if isinstance(x, int):
        return x + 1
    if isinstance(x, str):
        return "scrambled_" + x
    return x


def scrambled_for(state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    s = copy.deepcopy(state)
    s["rng"] = (s["rng"] + 12345) % 2**64
    for h in s["seats"]:
        if h != viewer:
            s["secret"][h] = _scramble(s["secret"][h])
    for name, deck in s["decks"].items():
        if name != "_pinned":
            s["decks"][name] = list(reversed(deck))
    return s


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_views_do_not_depend_on_other_seats_secrets_R289_R296(players):
    rnd = random.Random(players)
    for seed in range(3):
        state = R.new_game(R.seat_names(players), {}, 500 + seed)
        viewers = [*state["seats"], None]
        steps = 0
        while not R.is_over(state):
            if steps % 3 == 0:
                for v in viewers:
                    other = scrambled_for(state, v)
                    assert R.view(state, v) == R.view(other, v), (seed, steps, v)
                    assert R.summary(state, v) == R.summary(other, v), (seed, steps, v)
                    assert "rng" not in R.view(state, v)
                    assert set(R.view(state, v)["secret"]) <= {v}
            seat = rnd.choice(sorted(R.pending(state)))
            state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
            for e in events:
                if "only" in e:
                    assert R.event_view(e, None) is None
                    assert all(R.event_view(e, h) is None for h in state["seats"] if h not in e["only"])
            steps += 1


def test_decks_are_never_shown_and_unused_tokens_never_exist_in_views():
    state = R.new_game(R.seat_names(6), {}, 1)
    for v in [*state["seats"], None]:
        sm = R.summary(state, v)
        assert all(d == HIDDEN for d in sm["decks"].values())
        assert all(isinstance(n, int) for n in R.view(state, v)["decks"].values())
    assert isinstance(R.summary(state)["decks"]["wildlings"], list)
