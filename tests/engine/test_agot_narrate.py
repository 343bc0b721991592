"""The log in words (games/engine/agot/narrate.py): every event kind the engine emits in seeded random
games (with and without Tides of Battle) reads as a plain sentence: no ids, underscores, braces,
brackets or rule numbers; house names as pieces a page can colour; unknown kinds still read."""
from __future__ import annotations

import random
import re

import pytest

from games.engine.agot import narrate
from games.engine.agot.data import HOUSES, board, house_cards
from tests.engine.agot_helpers import R

RAW = re.compile(r"[_{}\[\]\"]|\bR\d+|\bA\d+|\bNone\b|\bTrue\b|\bFalse\b|hidden")


def _events(players: int, seed: int, tides: bool, cap: int = 4000):
    rnd = random.Random(seed * 31 + players)
    state = R.new_game(R.seat_names(players), {"tides_of_battle": True} if tides else {}, seed)
    n = 0
    while not R.is_over(state) and n < cap:
        seat = rnd.choice(sorted(R.pending(state)))
        state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
        yield from events
        n += 1


@pytest.fixture(scope="module")
def samples() -> dict[tuple, dict]:
    """One event per (kind, set of keys) over random 3- to 6-player games."""
    out: dict[tuple, dict] = {}
    for players in (3, 4, 5, 6):
        for seed in range(6):
            for ev in _events(players, seed, tides=bool(seed % 2)):
                out.setdefault((ev["type"], tuple(sorted(ev))), ev)
    return out


def test_random_games_emit_the_main_kinds(samples):
    kinds = {k for k, _ in samples}
    for kind in ("orders_placed", "orders_revealed", "march", "combat_started", "combat_won", "muster",
                 "westeros_revealed", "bids_revealed", "round", "game_over", "house_card_chosen_detail", "tides_revealed", "tides_drawn_detail"):
        assert kind in kinds


def test_every_event_kind_gets_a_plain_sentence(samples):
    for (kind, _), ev in samples.items():
        text = narrate.narrate(ev)
        assert text and text[0].isupper() and text.rstrip().endswith((".", ")")), (kind, text)
        assert not RAW.search(text), (kind, text)
        assert kind not in text or "_" not in kind, (kind, text)
        said = R.describe_event(ev)
        assert said["text"] == text and "".join(p["text"] for p in said["parts"]) == text


def test_house_names_are_capitalised_pieces_and_areas_and_cards_use_their_names():
    ev = {"type": "combat_started", "attacker": "stark", "defender": "lannister", "area": "the_twins",
          "origin": "winterfell", "units": ["knight", "footman", "footman"], "neutral": None}
    said = R.describe_event(ev)
    assert said["text"] == ("Battle in The Twins: Stark attacks from Winterfell with one knight and two footmen "
                            "against Lannister.")
    assert [p["house"] for p in said["parts"] if "house" in p] == ["stark", "lannister"]
    reveal = {"type": "house_cards_revealed", "area": "the_twins", "cards": {"stark": "eddard_stark",
              "lannister": "tywin_lannister"}, "initial_strength": {"stark": 4, "lannister": 3}}
    text = narrate.narrate(reveal)
    assert house_cards()["eddard_stark"]["name"] in text and "Tywin Lannister" in text
    assert board().areas["the_twins"]["name"] in text


def test_tokens_read_as_orders():
    assert narrate.token("march+1*") == "a special March +1 order"
    assert narrate.token("defense+2*") == "a special Defense +2 order"
    assert narrate.token("raid") == "a Raid order"
    assert narrate.token("hidden") == "a face-down order"


def test_unknown_kinds_fall_back_to_words_not_a_dump():
    text = narrate.narrate({"type": "some_new_thing", "house": "greyjoy", "area": "pyke", "detail": {"x": [1, 2]}})
    assert text == "Some new thing: Greyjoy in Pyke."
    assert not RAW.search(narrate.narrate({"type": "march", "house": "stark"}))


def test_phase_markers_give_round_and_phase():
    assert R.describe_event({"type": "round", "round": 3})["phase"] == "westeros"
    assert R.describe_event({"type": "planning", "round": 3, "sequential": False})["phase"] == "planning"
    assert R.describe_event({"type": "action_phase"})["phase"] == "action"
    assert "phase" not in R.describe_event({"type": "raid", "house": "stark", "area": "winterfell", "token": "raid"})


def test_private_events_say_who_alone_sees_them():
    said = R.describe_event({"type": "orders_placed_detail", "house": "tyrell", "orders": {"highgarden": "raid*"},
                             "only": ["tyrell"]})
    assert said["private"] and "seen only by Tyrell" in said["text"] and "special Raid" in said["text"]
    assert all(h.capitalize() in narrate.narrate({"type": "orders_placed", "house": h, "count": 2}) for h in HOUSES)


def test_every_kind_written_in_the_engine_has_its_own_sentence():
    """Kinds random games rarely reach (Mace Tyrell, Queen of Thorns, neutral forces...) still have a
    sentence of their own, not the generic fallback: every `"type": "..."` literal in the engine."""
    from pathlib import Path

    src = Path(narrate.__file__).parent
    kinds = set()
    for path in src.glob("*.py"):
        if path.name != "narrate.py":
            kinds |= set(re.findall(r'"type": "([a-z_]+)"', path.read_text()))
    kinds = (kinds - {"raven_peek_"}) | {"raven_peek_keep", "raven_peek_bottom"}  # "raven_peek_" + the answer
    assert len(kinds) > 60
    for kind in sorted(kinds):
        pieces = narrate._e({"type": kind, "house": "stark", "area": "winterfell"})
        assert pieces is not None, kind
        text = narrate.narrate({"type": kind, "house": "stark", "area": "winterfell"})
        assert text[0].isupper() and not RAW.search(text), (kind, text)
