"""Card-game tournaments take any legal deck (issue 30): a player registering names the deck they bring (a ready-made
one or one of their saved legal decks, deck:<id>), copied when they register and used for every game of theirs in
the event; a bad deck is refused in the lobby's words and registers nobody; a deck edited after registering changes
nothing; the others see its House and agenda only unless the tournament chose open deck lists (the lobby's
option, open_decklists); the registration form offers the decks, in English and Spanish."""
from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import api_client_for, make_user
from tests.test_lcg_saved_decks_play import playable_legal, save
from tournaments.models import Registration, Table, Tournament

pytestmark = pytest.mark.django_db


def event(org_user, **fields) -> int:
    response = api_client_for(org_user).post("/api/v1/tournaments", {
        "name": "Joust", "ruleset": "lcg", "format": "swiss", "seats_per_table": 2, "rounds": 2, **fields},
        format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def register(user, tid, deck=None):
    body = {} if deck is None else {"deck": deck}
    return api_client_for(user).post(f"/api/v1/tournaments/{tid}/register", body, format="json")


def start(org_user, tid) -> list[Table]:
    assert api_client_for(org_user).post(f"/api/v1/tournaments/{tid}/start").json()["status"] == "running"
    return list(Table.objects.filter(round__tournament_id=tid).select_related("game").prefetch_related(
        "seats__registration"))


def test_a_saved_deck_registered_is_the_deck_of_every_game_of_the_player():
    org, alys, bran = make_user(), make_user(), make_user()
    hers = save(alys, "Gold")
    tid = event(org)
    mine = register(alys, tid, f"deck:{hers.pk}")
    assert mine.status_code == 201, mine.json()
    assert mine.json()["deck"]["name"] == "Gold" and mine.json()["deck"]["draw"] == hers.draw  # its owner sees it
    assert register(bran, tid, "secrets_and_schemes").status_code == 201
    # edited after registering: the tournament's copy stays as it was
    kept_draw = list(hers.draw)
    hers.draw = hers.draw[:10]
    hers.faction = "stark"
    hers.save()
    tables = start(org, tid)
    assert len(tables) == 1
    game = Game.objects.get(pk=tables[0].game_id)
    seat = {s.registration.user_id: s.seat for s in tables[0].seats.all()}
    assert game.options["decks"][seat[alys.pk]]["draw"] == kept_draw
    assert game.options["decks"][seat[bran.pk]] == "secrets_and_schemes"
    assert game.state["players"][seat[alys.pk]]["faction"] == "lannister"
    assert game.state["players"][seat[alys.pk]]["deck_id"] is None
    assert game.state["players"][seat[bran.pk]]["deck_id"] == "secrets_and_schemes"
    assert len(game.state["players"][seat[alys.pk]]["deck"]) + len(game.state["players"][seat[alys.pk]].get(
        "hand", [])) >= 50  # the copy's 60 cards, not the edited 10


def test_the_next_round_uses_the_same_deck():
    org = make_user()
    people = [make_user() for _ in range(4)]
    decks = [save(p, f"Deck {i}", **playable_legal(["lannister", "tyrell", "lannister", "tyrell"][i]))
             for i, p in enumerate(people)]
    tid = event(org, rounds=2)
    for person, deck in zip(people, decks, strict=True):
        assert register(person, tid, f"deck:{deck.pk}").status_code == 201
    start(org, tid)
    t = Tournament.objects.get(pk=tid)
    from tournaments import services

    for table in Table.objects.filter(round__tournament=t, round__number=1):
        ranking = [s.seat for s in table.seats.order_by("position")]
        services.do_adjudicate(tid, org, table.pk, ranking)
    assert Tournament.objects.get(pk=tid).current_round == 2
    for table in Table.objects.filter(round__tournament=t, round__number=2).prefetch_related("seats__registration"):
        game = Game.objects.get(pk=table.game_id)
        for s in table.seats.all():
            owned = next(d for d in decks if d.owner_id == s.registration.user_id)
            assert game.options["decks"][s.seat]["draw"] == owned.draw
            assert game.state["players"][s.seat]["faction"] == owned.faction


def test_a_bad_deck_is_refused_in_words_and_registers_nobody():
    org, alys, bran = make_user(), make_user(), make_user()
    cards = playable_legal()
    cards["plots"] = cards["plots"][:6]
    thin = save(alys, "Thin", **cards)
    theirs = save(bran, "Roses", **playable_legal("tyrell"))
    tid = event(org)
    refused = register(alys, tid, f"deck:{thin.pk}")
    assert refused.status_code == 400
    assert refused.json()["fields"]["deck"] == ["Thin cannot be played: The plot deck has 6 plots; it needs exactly seven."]
    other = register(alys, tid, f"deck:{theirs.pk}")
    assert other.status_code == 400 and other.json()["fields"]["deck"] == ["That deck is not one of your saved decks."]
    unknown = register(alys, tid, "no_such_deck")
    assert unknown.status_code == 400 and unknown.json()["fields"]["deck"][0].startswith("Unknown deck 'no_such_deck'")
    assert not Registration.objects.filter(tournament_id=tid).exists()
    board = event(org, name="Board", ruleset="agot", seats_per_table=3)
    assert register(alys, board, "secrets_and_schemes").status_code == 400
    assert not Registration.objects.filter(tournament_id=board).exists()


@pytest.mark.parametrize("open_lists", [False, True])
def test_others_see_the_house_and_agenda_unless_the_lists_are_open(open_lists):
    org, alys, bran = make_user(), make_user(), make_user()
    hers = save(alys, "Gold")
    tid = event(org, options={"open_decklists": True} if open_lists else {})
    register(alys, tid, f"deck:{hers.pk}")
    seen = {r["user"]: r["deck"] for r in api_client_for(bran).get(f"/api/v1/tournaments/{tid}/registrations").json()}
    shown = seen[alys.username]
    assert shown["faction"] == "lannister" and "name" not in shown and "ref" not in shown
    assert ("draw" in shown) is open_lists
    visitor = Client().get(f"/api/v1/tournaments/{tid}/registrations").json()
    assert ("draw" in visitor[0]["deck"]) is open_lists
    own = {r["user"]: r["deck"] for r in api_client_for(alys).get(f"/api/v1/tournaments/{tid}/registrations").json()}
    assert own[alys.username]["name"] == "Gold" and own[alys.username]["draw"] == hers.draw


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_registration_form_offers_the_decks_and_registers_with_one(language):
    org, alys = make_user(), make_user()
    hers = save(alys, "Gold")
    cards = playable_legal()
    cards["plots"] = cards["plots"][:6]
    thin = save(alys, "Thin", **cards)
    tid = event(org)
    client = Client()
    client.force_login(alys)
    client.cookies["django_language"] = language
    page = client.get(reverse("tournament", args=[tid])).content.decode()
    form = page[page.index("/register\""):]
    form = form[:form.index("</form>")]
    assert f'value="deck:{hers.pk}"' in form and 'value="secrets_and_schemes"' in form
    assert f'value="deck:{thin.pk}"' not in form
    words = {"en": ("The deck you bring to every game of the event", "The others see only its House and agenda."),
             "es": ("El mazo que llevas a todas las partidas del torneo", "Los demás solo ven su Casa y su agenda.")}
    for said in words[language]:
        assert said in text_of(form)
    refused = client.post(reverse("tournament-action", args=[tid, "register"]), {"deck": f"deck:{thin.pk}"}, follow=True)
    assert {"en": "Thin cannot be played:", "es": "No se puede jugar con Thin:"}[language] in text_of(
        refused.content.decode())
    assert not Registration.objects.filter(tournament_id=tid).exists()
    client.post(reverse("tournament-action", args=[tid, "register"]), {"deck": f"deck:{hers.pk}"})
    registration = Registration.objects.get(tournament_id=tid, user=alys)
    assert registration.deck["draw"] == hers.draw and registration.deck["faction"] == "lannister"
    after = text_of(client.get(reverse("tournament", args=[tid])).content.decode())
    assert {"en": "Your deck: Gold.", "es": "Tu mazo: Gold."}[language] in after


def test_the_organize_form_offers_open_deck_lists():
    org = make_user()
    client = Client()
    client.force_login(org)
    data = {"name": "Open joust", "ruleset": "lcg", "format": "swiss", "rounds": 2, "seats_per_table": 2,
            "advance_per_table": 1, "division_size": 10, "scoring": "placement", "win_bonus": 10,
            "tiebreaker_1": "wins", "time_limit_0": 1, "time_limit_1": "hours", "open_decklists": "on"}
    assert client.post(reverse("tournament-new"), data).status_code == 302
    assert Tournament.objects.get(name="Open joust").options == {"open_decklists": True}
    client.post(reverse("tournament-new"), {**data, "name": "Closed joust", "open_decklists": ""})
    assert Tournament.objects.get(name="Closed joust").options == {}
