"""Issue 30's "done when", end to end through the site's API: a person pastes a Targaryen deck in ThronesDB's text
(the builder's import), is told in words why an illegal one is refused, saves the legal one; another person builds
a deck of their own; the two bring their decks to a ranked lobby and play the game through the API (each move the
engine's player's choice, sent as the person's own request) to its end; the game is rated: both players' card-game
ratings move from the start (the winner's up, the loser's down), the rating changes name the game, the
leaderboard and the profiles say so, and the game's page shows the game over. (The builder's page does the same
paste in a browser: tests/browser/test_lcg_deck_builder.py.)"""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import get_ruleset
from games.engine.lcg import data
from games.engine.lcg import decks as rules
from games.models import Deck, Game
from ratings import elo
from ratings.models import Rating, RatingChange
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db

TARGARYEN = "targaryen_lion_fire_and_gold"


def _other_deck() -> dict:
    """A legal deck of another House that the engine plays in full (a ready-made one's lists, built as one's own)."""
    for deck in data.all_decks().values():
        if deck["faction"] != "targaryen" and rules.is_legal(deck) and not rules.unplayable(deck):
            return {"faction": deck["faction"], "agenda": deck["agenda"], "plots": list(deck["plots"]),
                    "draw": list(deck["draw"])}
    raise AssertionError("no legal playable deck of another House")


def test_a_pasted_targaryen_deck_plays_a_ranked_game_through_the_site_and_is_rated():
    alys, bran = make_user(), make_user()
    a_api, b_api = api_client_for(alys), api_client_for(bran)
    text = rules.format_text(data.all_decks()[TARGARYEN], "Fire and Blood Test")
    assert "House Targaryen" in text

    # an illegal paste: the plots and three copies of one character; refused in words, nothing saved
    plots_only = text[:text.index("Characters (")] + "Characters (3):\n3x Daenerys Targaryen (Core Set)\n"
    judged = a_api.post(reverse("api-decks-import"), {"text": plots_only, "save": False}, format="json")
    assert judged.status_code == 200, judged.json()
    report = judged.json()["report"]
    assert not report["legal"]
    assert "The draw deck has 3 cards; it needs at least 60." in [p["text"] for p in report["problems"]]
    assert not Deck.objects.filter(owner=alys).exists()

    # the whole list: legal, played by the engine, saved as hers
    saved = a_api.post(reverse("api-decks-import"), {"text": text, "save": True}, format="json")
    assert saved.status_code == 201, saved.json()
    body = saved.json()
    assert body["unread"] == [] and body["report"]["legal"] and body["report"]["playable"], body["report"]
    assert body["parsed"]["faction"] == "targaryen" and body["parsed"]["agenda"] == "banner_of_the_lion"
    hers = body["deck"]["id"]

    # the other person builds a deck of another House with the decks API
    theirs = b_api.post(reverse("api-decks"), {"name": "Winter", **_other_deck()}, format="json")
    assert theirs.status_code == 201, theirs.json()
    his = theirs.json()["id"]

    # a ranked lobby, each bringing their saved deck; the game starts when the second joins
    lobby = a_api.post(reverse("api-lobbies"), {"ruleset": "lcg", "seats": 2, "time_limit": 3600, "ranked": True,
                                                "deck": f"deck:{hers}"}, format="json")
    assert lobby.status_code == 201, lobby.json()
    joined = b_api.post(reverse("api-lobby-join", args=[lobby.json()["id"]]), {"deck": f"deck:{his}"}, format="json")
    assert joined.status_code == 200, joined.json()
    game_id = joined.json()["game"]
    game = Game.objects.get(pk=game_id)
    assert game.ranked
    people = {s.seat: s.user for s in game.seats.select_related("user")}
    clients = {seat: api_client_for(user) for seat, user in people.items()}
    seat_of = {user.pk: seat for seat, user in people.items()}
    assert game.state["players"][seat_of[alys.pk]]["faction"] == "targaryen"
    assert not Rating.objects.filter(ruleset="lcg").exists()

    # played through the API: each move the engine's player's choice for the seat, sent by the seat's person
    engine = get_ruleset("lcg")
    moves = 0
    while moves < 6000:
        game.refresh_from_db()
        if not game.is_active():
            break
        moves += 1
        seat = sorted(engine.pending(game.state))[0]
        sent = clients[seat].post(reverse("api-game-actions", args=[game_id]),
                                  {"version": game.version, "action": engine.bot_action(game.state, seat)},
                                  format="json")
        assert sent.status_code == 200, sent.json()
    shown = a_api.get(reverse("api-game", args=[game_id])).json()
    assert shown["status"] != "active" and game.state["over"], (moves, shown["status"])
    winner = game.state["winner"]
    loser = next(s for s in people if s != winner)

    # rated: both ratings moved from the start, the winner's up and the loser's down, once, naming the game
    after = {r.user_id: r for r in Rating.objects.filter(ruleset="lcg")}
    assert after[people[winner].pk].rating > elo.START_RATING > after[people[loser].pk].rating
    assert after[people[winner].pk].games == after[people[loser].pk].games == 1
    changes = RatingChange.objects.filter(game_id=game_id)
    assert changes.count() == 2
    board = Client().get(reverse("api-leaderboard", args=["lcg"])).json()
    assert [row["username"] for row in board["results"]] == [people[winner].username, people[loser].username]
    profile = Client().get(reverse("api-profile", args=[people[winner].username])).json()
    assert any(r["ruleset"] == "lcg" and r["rating"] > elo.START_RATING for r in profile["ratings"]), profile

    # the game's page, for a player, shows the game over
    page = Client()
    page.force_login(alys)
    assert page.get(reverse("web-game", args=[game_id])).status_code == 200
