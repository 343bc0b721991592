"""The log API in words (games/queries.log_page, issue 15): every entry of an AGoT game carries
sentences (`text`, `lines` with house pieces) and the round and phase; hidden information stays
hidden in the words too: another seat's face-down orders and house card never appear in a viewer's
log text, and two games differing only in a secret read the same to everyone else."""
from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games.engine import get_ruleset
from games.services.play import do_create_game
from tests.factories import api_client_for, make_game, make_user, seat_client
from tests.platform_helpers import log, submit, texts

pytestmark = pytest.mark.django_db
AGOT = get_ruleset("agot")
RAW = re.compile(r"[_{}\[\]\"]|\bNone\b|\bTrue\b|\bFalse\b")


def test_every_entry_has_sentences_round_and_phase():
    game = make_game(3, seed=21)
    while game.state["phase"] == "planning":  # orders, then the Messenger Raven
        seat = sorted(AGOT.pending(game.state))[0]
        submit(game, seat, AGOT.default_action(game.state, seat))
        game.refresh_from_db()
    entries = log(game, seat_client(game, "stark"))
    assert entries and all(e["text"] and e["round"] == 1 and e["phase"] == "planning" for e in entries)
    for line in (ln for e in entries for ln in e["lines"]):
        assert not RAW.search(line["text"]) and "".join(p["text"] for p in line["parts"]) == line["text"]
    said = " ".join(texts(entries))
    assert "Stark places" in said and "The orders are revealed." in said
    # the reveal's follow-up starts the Action phase: those lines say so
    assert any(line["phase"] == "action" for e in entries for line in e["lines"])
    houses = {p["house"] for e in entries for line in e["lines"] for p in line["parts"] if "house" in p}
    assert houses == set(game.seat_names())


def test_another_seats_secret_orders_never_appear_in_the_log_text():
    game = make_game(3, seed=5)
    game.refresh_from_db()
    secret = AGOT.default_action(game.state, "stark")["place_orders"]
    submit(game, "stark", {"place_orders": secret})
    own = " ".join(texts(log(game, seat_client(game, "stark"))))
    assert "seen only by Stark" in own
    for client in (seat_client(game, "lannister"), seat_client(game, "baratheon"), api_client_for(make_user())):
        said = " ".join(texts(log(game, client)))
        assert "Stark places" in said and "seen only" not in said
        assert not any(t in said for t in ("March", "Defense", "Support", "Raid", "Consolidate"))


def test_twin_games_differing_only_in_a_secret_read_the_same_to_the_others():
    users = [make_user() for _ in range(3)]
    twins = [make_game(3, seed=33, users=users) for _ in range(2)]
    legal = []
    state = twins[0].state
    rnd = random.Random(3)
    while len(legal) < 2:
        a = AGOT.random_action(state, "lannister", rnd)
        if a not in legal:
            legal.append(a)
    for game, action in zip(twins, legal, strict=True):
        submit(game, "lannister", action)
    for viewer in ("stark", "baratheon", None):
        seen = []
        for game in twins:
            client = seat_client(game, viewer) if viewer else api_client_for(make_user())
            seen.append([(e["text"], e["round"], e["phase"]) for e in log(game, client)])
        assert seen[0] == seen[1], viewer
    mine = [" ".join(texts(log(g, seat_client(g, "lannister")))) for g in twins]
    assert mine[0] != mine[1]


def test_the_replay_step_is_told_in_the_same_sentences(client):
    seats = AGOT.seat_names(3)
    game = do_create_game(ruleset="agot", seating=dict.fromkeys(seats), seed=11)
    game.refresh_from_db()
    assert not game.is_active()
    step = client.get(reverse("web-replay-step", args=[game.pk, 1]) + "?as=lannister").json()
    lines = step["entry"]["lines"]
    assert lines and all(line["text"] and not RAW.search(line["text"]) for line in lines)
    first = client.get(reverse("web-replay-step", args=[game.pk, 1]) + "?as=spectator").json()
    assert "seen only" not in " ".join(line["text"] for line in first["entry"]["lines"])
