"""The miniatures game's log API in words (games/queries.log_page with MinisRuleset.describe_event):
every entry of a minis game carries sentences (`text`, `lines` with seat pieces) and the round and
phase; the narrator's seat placeholders ("{stark}") come out as the players' names; units are named
as printed; the Tactics cards a seat draws at the start (M25) are named in its own log only
(rules/minis.md §5: the hand is hidden)."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine import get_ruleset
from games.engine.minis import narrate
from tests.factories import api_client_for, make_game, make_user, seat_client
from tests.platform_helpers import log

pytestmark = pytest.mark.django_db
MINIS = get_ruleset("minis")
RAW = re.compile(r"[_{}\[\]\"]|\b\d{5}\b|\bNone\b|\bTrue\b|\bFalse\b|\bhidden\b")


def test_minis_log_entries_carry_sentences_with_names_and_a_draw_is_named_to_the_drawer_only():
    game = make_game(2, ruleset="minis", seed=12)
    # the First Player's choice and the alternating deployment (M23, M24), each seat's timeout
    # default through the API, until the battle starts and each seat draws its hand (M25)
    while game.state["phase"] == "deployment":
        seat = next(iter(MINIS.pending(game.state)))
        r = seat_client(game, seat).post(reverse("api-game-actions", args=[game.id]),
                                         {"version": game.version, "action": MINIS.default_action(game.state, seat)},
                                         format="json")
        assert r.status_code == 200, r.json()
        game.refresh_from_db()
    names = {s: game.seats.get(seat=s).user.username for s in ("stark", "lannister")}
    own = log(game, seat_client(game, "stark"))
    assert own and all(e["lines"] and e["text"] for e in own)
    lines = [line for e in own for line in e["lines"]]
    for line in lines:
        assert not RAW.search(line["text"]) and "".join(p["text"] for p in line["parts"]) == line["text"]
        assert all(p["text"] == names[p["seat"]] for p in line["parts"] if "seat" in p)
    said = [line["text"] for line in lines]
    first = game.state["first_player"]
    assert f"{names[first]} is the First Player." in said
    assert "Stark Sworn Swords deploys on the battlefield." in said and "Stark Sworn Swords 2 deploys on the battlefield." in said
    assert "Lannister Guardsmen 2 deploys on the battlefield." in said and "Grey Wind deploys on the battlefield." in said
    assert said[-1] == "Round 1 begins." and lines[-1]["round"] == 1 and lines[-1]["phase"] == "activation"
    assert all(line["phase"] == "deployment" for line in lines[:-1])
    # Stark's opening hand: named to Stark, counted for Lannister and a spectator
    drawn = next(line for line in lines if line["text"].startswith(f"{names['stark']} draws"))
    assert drawn["private"] and ": " in drawn["text"]
    hand = [narrate.card(c) for c in MINIS.view(game.state, "stark")["players"]["stark"]["hand"]]
    assert drawn["text"] == f"{names['stark']} draws three Tactics cards: {narrate.join(hand)}."
    for client in (seat_client(game, "lannister"), api_client_for(make_user())):
        entries = log(game, client)
        texts = [line["text"] for e in entries for line in e["lines"]]
        assert f"{names['stark']} draws three Tactics cards." in texts
        # (Lannister's own draw names Lannister's cards: a name may be on both decks, Assault Orders)
        other = " ".join(t for t in texts if not t.startswith(f"{names['lannister']} draws"))
        assert hand and not any(n in other for n in hand)
        assert [e["phase"] for e in entries] == [e["phase"] for e in own]
