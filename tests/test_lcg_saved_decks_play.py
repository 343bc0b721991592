"""Saved decks brought to games (issue 30): a lobby, a challenge and "play against the computer" take a person's own saved deck
when it is legal and the engine plays every card of it (else a refusal in words naming why, or which cards); the
deck is copied into the game when it starts (editing it later changes nothing); opponents and spectators see only
its faction and agenda (the game's options and the engine's view), never its name or lists."""
from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.engine.lcg import cards as lcg_cards
from games.engine.lcg import data, setup
from games.engine.lcg import decks as rules
from games.models import Deck, Game, LobbyMember
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db

LCG = {"ruleset": "lcg", "seats": 2, "time_limit": 3600}


def playable_legal(faction: str = "lannister") -> dict:
    """A legal deck (L16-L25, no agenda) of cards the engine plays: the faction's and neutral ones, three each."""
    cards = data.cards()
    plots = [c for c, card in cards.items() if card["type"] == "plot" and c in lcg_cards.ABILITIES][:7]
    draw = []
    for cid, card in cards.items():
        if cid in lcg_cards.ABILITIES and card["type"] in rules.DRAW_TYPES and card["faction"] in (faction, "neutral"):
            draw += [cid] * 3
        if len(draw) >= 60:
            break
    deck = {"faction": faction, "agenda": None, "plots": plots, "draw": draw}
    assert rules.problems(deck) == [] and rules.unplayable(deck) == [], rules.problems(deck)
    return deck


def save(user, name="Mine", **cards) -> Deck:
    cards = cards or playable_legal()
    return Deck.objects.create(owner=user, name=name, faction=cards["faction"], agenda=cards["agenda"] or "",
                               plots=cards["plots"], draw=cards["draw"])


def create(user, **fields):
    return api_client_for(user).post(reverse("api-lobbies"), {**LCG, **fields}, format="json")


def join(user, lobby_id, **fields):
    return api_client_for(user).post(reverse("api-lobby-join", args=[lobby_id]), fields, format="json")


def test_two_people_bring_their_saved_decks_to_a_ranked_game():
    alys, bran = make_user(), make_user()
    hers, his = save(alys, "Gold"), save(bran, "Roses", **playable_legal("tyrell"))
    made = create(alys, deck=f"deck:{hers.pk}", ranked=True)
    assert made.status_code == 201, made.json()
    joined = join(bran, made.json()["id"], deck=f"deck:{his.pk}")
    assert joined.status_code == 200, joined.json()
    game = Game.objects.get(pk=joined.json()["game"])
    assert game.ranked
    seat = {s.user_id: s.seat for s in game.seats.all()}
    assert game.state["players"][seat[alys.pk]]["faction"] == "lannister"
    assert game.state["players"][seat[bran.pk]]["faction"] == "tyrell"
    # the deck is copied: the game keeps it as it was
    assert game.options["decks"][seat[alys.pk]]["draw"] == hers.draw
    hers.draw = hers.draw[:10]
    hers.save()
    assert len(Game.objects.get(pk=game.pk).options["decks"][seat[alys.pk]]["draw"]) == 60


def test_opponents_and_spectators_see_only_name_faction_and_agenda():
    alys, bran, watcher = make_user(), make_user(), make_user()
    hers = save(alys, "Gold")
    lobby = create(alys, deck=f"deck:{hers.pk}").json()
    game_id = join(bran, lobby["id"], deck="secrets_and_schemes").json()["game"]
    game = Game.objects.get(pk=game_id)
    mine = game.seat_for(alys).seat
    secret = set(hers.draw) - set(data.all_decks()["secrets_and_schemes"]["draw"])
    assert secret
    for viewer in (bran, watcher):
        body = api_client_for(viewer).get(reverse("api-game", args=[game_id])).json()
        shown = body["options"]["decks"][mine]
        assert shown == {"faction": "lannister", "agenda": None}
        assert "Gold" not in json.dumps(body["options"]) and "Gold" not in json.dumps(body["view"])
        assert body["view"]["options"]["decks"][game.state["seats"].index(mine)] == shown
        text = json.dumps({k: v for k, v in body.items() if k not in ("log",)})
        # none of the deck's own cards is named anywhere but where the rules show it (in play, discards...)
        seen = set(body["view"].get("cards", {}).values())
        for cid in secret - seen:
            assert f'"{cid}"' not in text, cid


def test_a_saved_deck_that_is_not_legal_is_refused_in_words():
    alys = make_user()
    cards = playable_legal()
    cards["draw"] = cards["draw"][:50]
    deck = save(alys, "Thin", **cards)
    response = create(alys, deck=f"deck:{deck.pk}")
    assert response.status_code == 400
    said = response.json()["fields"]["deck"][0]
    assert said == "Thin cannot be played: The draw deck has 50 cards; it needs at least 60."
    assert not LobbyMember.objects.exists()


def test_a_saved_deck_with_cards_the_engine_does_not_play_is_refused_naming_them(monkeypatch):
    alys = make_user()
    deck = save(alys, "Gold")
    defaults = {c for key in data.DEFAULT_DECKS for c in data.all_decks()[key]["draw"]}
    missing = next(c for c in deck.draw if c not in defaults)  # the default decks stay playable
    monkeypatch.setattr(lcg_cards, "ABILITIES", {k: v for k, v in lcg_cards.ABILITIES.items() if k != missing})
    response = create(alys, deck=f"deck:{deck.pk}")
    assert response.status_code == 400
    assert response.json()["fields"]["deck"][0] == (
        f"Gold cannot be played: This card cannot be played on the site yet: {data.cards()[missing]['name']}.")


def test_someone_elses_saved_deck_is_refused():
    alys, bran = make_user(), make_user()
    theirs = save(bran)
    response = create(alys, deck=f"deck:{theirs.pk}")
    assert response.status_code == 400
    assert response.json()["fields"]["deck"] == ["That deck is not one of your saved decks."]
    lobby = create(alys).json()
    refused = join(make_user(), lobby["id"], deck=f"deck:{theirs.pk}")
    assert refused.status_code == 400 and refused.json()["fields"]["deck"] == ["That deck is not one of your saved decks."]


def test_play_against_the_computer_with_a_saved_deck():
    user = make_user()
    mine = save(user, "Gold")
    client = api_client_for(user)
    response = client.post(reverse("api-games-computer"), {"ruleset": "lcg", "deck": f"deck:{mine.pk}"}, format="json")
    assert response.status_code == 201, response.json()
    game = Game.objects.get()
    assert game.state["players"][game.seat_for(user).seat]["faction"] == "lannister"
    assert game.options["decks"][game.seat_for(user).seat]["name"] == "Gold"


def test_the_play_page_offers_your_saved_decks(client):
    user = make_user()
    mine = save(user, "Gold")
    client.force_login(user)
    page = client.get(reverse("web-play", args=["lcg"])).content.decode()
    assert f'value="deck:{mine.pk}"' in page and "Gold (your deck)" in page
    response = client.post(reverse("web-play", args=["lcg"]), {"my_deck": f"deck:{mine.pk}"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.state["players"][game.seat_for(user).seat]["faction"] == "lannister"


def test_the_engine_takes_a_deck_given_as_lists_and_refuses_an_illegal_one():
    deck = {"name": "Gold", **playable_legal()}
    state = setup.new_game(["p1", "p2"], {"decks": [deck, "the_old_ways"]}, 5)
    assert state["players"]["p1"]["faction"] == "lannister" and state["players"]["p1"]["deck_id"] is None
    assert state["options"]["decks"][0] == {"faction": "lannister", "agenda": None}
    assert len(state["players"]["p1"]["deck"]) + len(state["players"]["p1"]["hand"]) == 60
    thin = {**deck, "draw": deck["draw"][:59]}
    with pytest.raises(setup.EngineError) as told:
        setup.new_game(["p1", "p2"], {"decks": [thin, "the_old_ways"]}, 5)
    assert told.value.reason == "The draw deck has 59 cards; it needs at least 60." and told.value.rules == ("L19",)


def test_a_challenge_with_saved_decks_on_both_sides():
    """The challenger names their deck with the challenge, the one challenged names theirs on accepting."""
    alys, bran = make_user(), make_user()
    hers, his = save(alys, "Gold"), save(bran, "Roses", **playable_legal("tyrell"))
    made = api_client_for(alys).post(reverse("api-challenges"), {"ruleset": "lcg", "users": [bran.username],
                                                                  "time_limit": 3600, "deck": f"deck:{hers.pk}"},
                                     format="json")
    assert made.status_code == 201, made.json()
    assert "deck" not in made.json()  # what another person sees of the challenge names no deck
    refused = api_client_for(bran).post(reverse("api-challenge-accept", args=[made.json()["id"]]),
                                        {"deck": f"deck:{hers.pk}"}, format="json")
    assert refused.status_code == 400 and refused.json()["fields"]["deck"] == ["That deck is not one of your saved decks."]
    accepted = api_client_for(bran).post(reverse("api-challenge-accept", args=[made.json()["id"]]),
                                         {"deck": f"deck:{his.pk}"}, format="json")
    assert accepted.status_code == 200, accepted.json()
    game = Game.objects.get(pk=accepted.json()["game"])
    assert game.state["players"][game.seat_for(alys).seat]["faction"] == "lannister"
    assert game.state["players"][game.seat_for(bran).seat]["faction"] == "tyrell"


def test_a_challenge_with_an_illegal_saved_deck_is_refused_in_words():
    alys, bran = make_user(), make_user()
    cards = playable_legal()
    cards["plots"] = cards["plots"][:6]
    thin = save(alys, "Thin", **cards)
    response = api_client_for(alys).post(reverse("api-challenges"), {"ruleset": "lcg", "users": [bran.username],
                                                                      "time_limit": 3600, "deck": f"deck:{thin.pk}"},
                                         format="json")
    assert response.status_code == 400
    assert response.json()["fields"]["deck"] == ["Thin cannot be played: The plot deck has 6 plots; it needs exactly seven."]


def test_the_new_lobby_form_offers_your_saved_decks_and_starts_with_one(client):
    user = make_user()
    mine = save(user, "Gold")
    cards = playable_legal()
    cards["draw"] = cards["draw"][:40]
    thin = save(user, "Thin", **cards)  # not legal: not offered
    client.force_login(user)
    page = client.get(reverse("web-lobby-new")).content.decode()
    assert f'value="deck:{mine.pk}"' in page and "Gold (your deck)" in page
    assert f'value="deck:{thin.pk}"' not in page
    spanish = client.get(reverse("web-lobby-new"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Gold (tu mazo)" in spanish


def test_a_ranked_game_between_two_built_decks_is_played_to_its_end():
    """Issue 30's "done when": two built decks play a ranked game through the site (each seat's moves the
    engine's choice, sent as the person's), and the game ends with a winner and ratings."""
    from games.engine import get_ruleset
    from games.services.play import do_submit_action

    alys, bran = make_user(), make_user()
    hers, his = save(alys, "Gold"), save(bran, "Roses", **playable_legal("tyrell"))
    lobby = create(alys, deck=f"deck:{hers.pk}", ranked=True).json()
    game = Game.objects.get(pk=join(bran, lobby["id"], deck=f"deck:{his.pk}").json()["game"])
    engine = get_ruleset("lcg")
    people = {s.seat: s.user for s in game.seats.select_related("user")}
    for _ in range(4000):
        game.refresh_from_db()
        if not game.is_active():
            break
        seat = next(s for s in engine.pending(game.state) if s in people)
        do_submit_action(game.pk, people[seat], action=engine.bot_action(game.state, seat), version=game.version)
    assert not game.is_active() and game.state["over"]
    assert game.state["winner"] in people
    assert game.ranked and game.ranking


def test_a_rematch_brings_the_same_saved_deck_again():
    from games.services import computer

    user = make_user()
    mine = save(user, "Gold")
    client = api_client_for(user)
    first = Game.objects.get(pk=client.post(reverse("api-games-computer"), {"ruleset": "lcg", "deck": f"deck:{mine.pk}"},
                                            format="json").json()["id"])
    first.status = Game.Status.FINISHED
    first.save(update_fields=["status"])
    again = computer.do_rematch(first.pk, user).game
    assert again is not None and again.pk != first.pk
    assert again.options["decks"][again.seat_for(user).seat]["name"] == "Gold"
    assert again.state["players"][again.seat_for(user).seat]["faction"] == "lannister"


def test_the_lobby_page_names_a_saved_deck_to_its_owner_only(client):
    alys, bran = make_user(), make_user()
    hers = save(alys, "Wildfire Plan")
    lobby = create(alys, deck=f"deck:{hers.pk}").json()
    client.force_login(alys)
    assert "Wildfire Plan (your deck)" in client.get(reverse("web-lobby", args=[lobby["id"]])).content.decode()
    client.force_login(bran)
    page = client.get(reverse("web-lobby", args=[lobby["id"]])).content.decode()
    assert "Wildfire Plan" not in page and "a deck of House Lannister" in page
    spanish = client.get(reverse("web-lobby", args=[lobby["id"]]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "un mazo de Casa Lannister" in spanish


def test_the_challenge_form_offers_your_saved_decks(client):
    from challenges.models import Challenge

    alys, bran = make_user(), make_user()
    mine = save(alys, "Wildfire Plan")
    client.force_login(alys)
    page = client.get(reverse("challenge-new", args=[bran.username])).content.decode()
    assert f'value="deck:{mine.pk}"' in page and "Wildfire Plan (your deck)" in page
    sent = client.post(reverse("challenge-new", args=[bran.username]),
                       {"ruleset": "lcg", "time_limit": "86400", "seats": "2", "my_deck": f"deck:{mine.pk}"})
    assert sent.status_code == 302, sent.content.decode()[-2000:]
    assert Challenge.objects.get().deck == f"deck:{mine.pk}"


def test_the_blank_lobby_form_offers_each_reader_their_own_decks():
    """The blank lobby form is rendered once per process, language and game (issue 27, thirteenth round);
    each reader's saved decks and CSRF token are written into it: nobody sees another's decks, and a form
    posted with the token given (CSRF checked) makes the lobby with the reader's deck."""
    import re

    from django.test import Client

    from games.models import Lobby

    for language in ("en", "es", "en"):
        alys, bran = make_user(), make_user()
        golds = {user.pk: save(user, f"Gold of {user.username}") for user in (alys, bran)}
        for user in (alys, bran):
            reader = Client(enforce_csrf_checks=True)
            reader.force_login(user)
            page = reader.get(reverse("web-lobby-new") + "?ruleset=lcg", HTTP_ACCEPT_LANGUAGE=language).content.decode()
            other = golds[bran.pk if user == alys else alys.pk]
            assert f'value="deck:{golds[user.pk].pk}"' in page and f'value="deck:{other.pk}"' not in page
            assert ("Crear una sala" in page) is (language == "es") and "\x00" not in page
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
            made = reader.post(reverse("web-lobby-new"), {"ruleset": "lcg", "time_limit": "3600", "lcg_seats": "2",
                                                          "my_deck": f"deck:{golds[user.pk].pk}",
                                                          "csrfmiddlewaretoken": token})
            assert made.status_code == 302, made.content[:400]
            lobby = Lobby.objects.filter(creator=user).get()
            assert lobby.members.get().deck == f"deck:{golds[user.pk].pk}"
