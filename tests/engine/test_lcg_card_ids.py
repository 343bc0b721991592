"""Card instance ids in the card game (issue 30, rules/lcg.md §5.2, L55): a uid is drawn at random
from the game's seeded uid generator (table.new_uid), so it tells nothing of which card it is, of its
place in the deck or of its owner's deck list, the same uid is a different card in another game,
and a card a seat may not identify (a facedown duplicate) shows no uid in that seat's view. The
game stays deterministic from its seed: replaying the actions from the seed gives the same state."""
from __future__ import annotations

import random
import re
from collections import Counter

from games.engine.base import HIDDEN
from games.engine.lcg import table as T
from tests.engine.lcg_helpers import R, act, game, uid

UID = re.compile(r"c\d{6}")
DECKS = ["the_old_ways", "secrets_and_schemes"]
SEEDS = range(30)


def _uids_of(state, seat, card_id):
    return sorted(u for u, (c, owner) in state["uids"].items() if c == card_id and owner == seat)


def _uid_strings(value):
    """Every uid of a view or event, keys included, alone or heading a key ("c123456:0")."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _uid_strings(k)
            yield from _uid_strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _uid_strings(v)
    elif isinstance(value, str) and UID.fullmatch(value.split(":", 1)[0]):
        yield value.split(":", 1)[0]


def test_the_same_card_has_a_different_uid_in_every_game():
    """Today's `c37` was the same card in every game; now the first Winterfell Steward's uid (and
    the uid of the 37th card made) changes from seed to seed."""
    firsts, thirty_sevenths = set(), Counter()
    for seed in SEEDS:
        s = R.new_game(["p1", "p2"], {"decks": DECKS}, seed)
        assert all(UID.fullmatch(u) for u in s["uids"])
        firsts.add(tuple(_uids_of(s, "p1", s["uids"][s["players"]["p1"]["hand"][0]][0])))
        thirty_sevenths[tuple(s["uids"].get("c100037") or ())] += 1
    assert len(firsts) == len(SEEDS)
    # a given uid is no card at all in most games, and never the same card in all of them
    assert thirty_sevenths[()] >= len(SEEDS) - 3 and len(thirty_sevenths) <= len(SEEDS)


def test_uids_come_from_the_same_space_whatever_the_decks():
    """Two games with the same seed and different decks draw their uids from the same stream: the
    smaller game's uids are all uids of the larger one, so the uids say nothing of the deck lists."""
    for seed in range(5):
        a = R.new_game(["p1", "p2"], {"decks": ["the_old_ways", "the_old_ways"]}, seed)
        b = R.new_game(["p1", "p2"], {"decks": ["secrets_and_schemes", "secrets_and_schemes"]}, seed)
        small, large = sorted((set(a["uids"]), set(b["uids"])), key=len)
        assert small <= large
        assert {c for c, _ in a["uids"].values()} != {c for c, _ in b["uids"].values()}


def test_sorted_uids_reveal_neither_card_nor_deck_position():
    """Sorting a seat's uids gives no order of the deck list: over many seeds the card with the lowest
    uid is many different cards and lies at every part of the list (creation order)."""
    lowest_cards, lowest_places = set(), set()
    rank_correlations = []
    for seed in SEEDS:
        s = R.new_game(["p1", "p2"], {"decks": DECKS}, seed)
        made = [u for u, (_, owner) in s["uids"].items() if owner == "p1"]  # creation order (deck list order)
        ranked = sorted(made, key=lambda u: int(u[1:]))
        lowest_cards.add(T.cid(s, ranked[0]))
        lowest_places.add(made.index(ranked[0]) * 4 // len(made))
        n = len(made)
        rank = {u: i for i, u in enumerate(ranked)}
        mean = (n - 1) / 2
        cov = sum((i - mean) * (rank[u] - mean) for i, u in enumerate(made))
        var = sum((i - mean) ** 2 for i in range(n))
        rank_correlations.append(cov / var)
    assert len(lowest_cards) >= 10
    assert lowest_places == {0, 1, 2, 3}
    assert abs(sum(rank_correlations) / len(rank_correlations)) < 0.15


def test_a_facedown_duplicate_is_not_identifiable_from_the_opponents_view_L55():
    s = game({"hand": ["arya_stark"], "gold": 3, "deck": ["burned_men"]}, {}, start="marshaling")
    s, _ = act(s, "p1", {"marshal": "arya_stark"})
    s, _ = act(s, "p1", {"trigger": "arya_stark"})
    arya = uid(s, "p1", "arya_stark")
    dup = s["inplay"][arya]["duplicates"][0]
    assert s["uids"][dup][0] == "burned_men"
    mine = R.view(s, "p1")
    assert mine["inplay"][arya]["duplicates"] == [dup] and mine["cards"][dup] == "burned_men"
    for viewer in ("p2", None):
        v = R.view(s, viewer)
        assert v["inplay"][arya]["duplicates"] == [HIDDEN]  # one duplicate, not which
        assert dup not in set(_uid_strings(v)) and dup not in str(v)
        assert "uid_rng" not in v and "rng" not in v


def test_no_view_or_event_shows_the_uid_of_a_card_the_seat_may_not_identify():
    """Random games: every uid a seat's view or its events carry is one its view names (`cards`)."""
    for seed in (3, 7, 11):
        rnd = random.Random(seed)
        s = R.new_game(["p1", "p2"], {"decks": DECKS}, seed)
        steps = 0
        while not R.is_over(s) and steps < 400:
            seat = rnd.choice(sorted(R.pending(s)))
            s, events = R.apply(s, seat, R.random_action(s, seat, rnd))
            for viewer in ("p1", "p2", None):
                v = R.view(s, viewer)
                shown = set(_uid_strings(v)) | {u for e in events for u in _uid_strings(R.event_view(e, viewer) or {})}
                assert shown <= set(v["cards"]), (seed, steps, viewer, shown - set(v["cards"]))
            steps += 1
        assert steps > 50


def test_replay_from_the_seed_and_the_actions_gives_the_same_state():
    rnd = random.Random(5)
    start = R.new_game(["p1", "p2"], {"decks": DECKS}, 77)
    assert R.new_game(["p1", "p2"], {"decks": DECKS}, 77) == start
    s, taken = start, []
    while not R.is_over(s) and len(taken) < 300:
        seat = rnd.choice(sorted(R.pending(s)))
        a = R.random_action(s, seat, rnd)
        taken.append((seat, a))
        s, _ = R.apply(s, seat, a)
    again = R.new_game(["p1", "p2"], {"decks": DECKS}, 77)
    for seat, a in taken:
        again, _ = R.apply(again, seat, a)
    assert again == s
    assert R.new_game(["p1", "p2"], {"decks": DECKS}, 78)["uids"] != start["uids"]
