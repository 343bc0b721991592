"""The card game's log API in words (games/queries.log_page with LcgRuleset.describe_event, issue 17):
every entry of an lcg game carries sentences (`text`, `lines` with seat pieces) and the round and
phase; the narrator's seat placeholders ("{p1}") come out as the players' names; the cards a seat
draws are named in its own log only (rules/lcg.md §5.2)."""
from __future__ import annotations

import re

import pytest

from games.engine import get_ruleset
from games.engine.lcg import narrate
from tests.factories import api_client_for, make_game, make_user, seat_client
from tests.platform_helpers import log, submit, texts

pytestmark = pytest.mark.django_db
LCG = get_ruleset("lcg")
RAW = re.compile(r"[_\[\]\"]|\bc\d+\b|\bNone\b|\bTrue\b|\bFalse\b|\bhidden\b")


def test_lcg_log_entries_carry_sentences_and_a_draw_is_named_to_the_drawer_only():
    game = make_game(2, ruleset="lcg", seed=12)
    # p1 takes a mulligan (a new hand of 7, drawn in the log), p2 keeps; no setup cards: the plot phase
    for seat, action in (("p1", {"mulligan": True}), ("p2", {"mulligan": False}), ("p1", {"setup": []}),
                         ("p2", {"setup": []})):
        game.refresh_from_db()
        assert LCG.pending(game.state).get(seat) == next(iter(action))
        submit(game, seat, action)
    game.refresh_from_db()
    p1, p2 = (game.seats.get(seat=s).user.username for s in ("p1", "p2"))
    own = log(game, seat_client(game, "p1"))
    assert own and all(e["lines"] and e["text"] and e["round"] == 1 for e in own)
    for line in (ln for e in own for ln in e["lines"]):
        assert not RAW.search(line["text"]) and "".join(p["text"] for p in line["parts"]) == line["text"]
        assert all(p["text"] == {"p1": p1, "p2": p2}[p["seat"]] for p in line["parts"] if "seat" in p)
        assert "{" not in line["text"]
    said = " ".join(texts(own))
    assert f"{p2} keeps their opening hand." in said and f"{p2} chooses their setup cards face down." in said
    # the mulligan's draw: p1 reads the names of the cards p1 drew, p2 and a spectator the count only
    drawn = next(line for e in own for line in e["lines"] if line["text"].startswith(f"{p1} draws"))
    assert drawn["private"] and ": " in drawn["text"]
    names = drawn["text"].split(": ", 1)[1].rstrip(".").replace(" and ", ", ").split(", ")
    hand = [narrate.card(c) for c in LCG.view(game.state, "p1")["players"]["p1"]["hand"]]
    assert names and set(names) <= set(hand)
    for client in (seat_client(game, "p2"), api_client_for(make_user())):
        entries = log(game, client)
        other = " ".join(texts(entries))
        assert re.search(rf"\b{p1} draws \w+ cards\.", other)
        assert not any(n in other for n in names)
        assert [e["phase"] for e in entries] == [e["phase"] for e in own]
    # the round and phase of the lines follow the phase events: the game has reached the plot phase
    assert any(line.get("phase") == "plot" for e in own for line in e["lines"])
