"""The card game's table page (templates/web/lcg_game.html, static/js/lcg.js) and its replay. The
page is a shell: the game comes from the API as the seat may see it; the only data in the HTML is
the public catalogue of the printed cards (web/lcg.py)."""
from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.engine import get_ruleset
from tests.factories import make_game, make_user

pytestmark = pytest.mark.django_db

CATALOGUE = re.compile(r'<script id="lcg-cards" type="application/json">(.*?)</script>', re.S)


def _page(client, game, name: str = "web-game") -> str:
    response = client.get(reverse(name, args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_card_game_gets_its_own_page(logged_in, user):
    game = make_game(2, ruleset="lcg", users=[user, make_user()])
    content = _page(logged_in, game)
    assert "js/lcg.js" in content and "css/lcg.css" in content
    assert "js/game.js" not in content and "js/btwixt.js" not in content and 'id="board"' not in content
    assert f'data-seat="{game.seat_for(user).seat}"' in content
    for part in ('id="table"', 'id="decision"', 'id="log"', 'id="chat-panel"', 'id="card-detail"'):
        assert part in content
    for script in ("countdown.js", "gameclient.js", "chat.js", "turn.js"):
        assert content.index(f"js/{script}") < content.index("js/lcg.js")
    assert not re.search(r'<script[^>]+src="(https?:)?//', content)


def test_the_heading_names_the_deck_you_play_not_ids(logged_in, user):
    game = make_game(2, ruleset="lcg", users=[user, make_user()], options={"decks": ["secrets_and_schemes", "the_old_ways"]})
    head = re.search(r"<h1>(.*?)</h1>", _page(logged_in, game), re.S).group(1)
    text = re.sub(r"<[^>]+>", "", head)
    # "you play Secrets and Schemes (Lannister)", not "you play alys": you know your own name
    assert "you play Secrets and Schemes (Lannister)" in " ".join(text.split()) and user.username not in text
    assert "p1" not in text and "secrets_and_schemes" not in text


def test_no_hand_deck_or_plot_in_the_html(logged_in, user):
    """Outside the public catalogue no card id at all: neither this seat's hand and plots nor the
    other seat's, nor any deck."""
    game = make_game(2, ruleset="lcg", users=[user, make_user()])
    content = _page(logged_in, game)
    match = CATALOGUE.search(content)
    assert match
    without = content.replace(match.group(0), "")
    summary = get_ruleset("lcg").summary(game.state)
    hidden = set()
    for seat in summary["seats"]:
        hidden |= set(summary["hand"][seat]) | set(summary["deck"][seat]) | set(summary["plots"][seat])
    assert summary["hand"][game.seat_for(user).seat], "the seat has a hand to leak"
    for card_id in hidden:
        assert not re.search(rf"(?<![\w-]){card_id}(?![\w-])", without), f"{card_id} is in the page"
    assert '"hand"' not in without and '"deck"' not in without


def test_the_catalogue_is_printed_cards_only():
    from games.engine.lcg import data
    from web.lcg import catalogue

    cat = catalogue()
    assert set(cat) == {"cards", "factions", "decks"}
    assert set(data.cards()) <= set(cat["cards"])
    robb = cat["cards"]["robb_stark"]
    assert robb["name"] == "Robb Stark" and robb["cost"] == 6 and robb["strength"] == 5
    assert robb["icons"] == ["military", "power"] and robb["traits"] == ["Lord"] and robb["keywords"] == {"renown": True}
    assert robb["unique"] is True and "stand" in robb["text"]
    assert cat["cards"]["summons"]["plot"] == {"income": 4, "initiative": 0, "claim": 1, "reserve": 7}
    assert cat["factions"]["stark"] == "Stark" and cat["decks"]["the_old_ways"]["name"] == "The Old Ways"
    allowed = {"name", "type", "faction", "unique", "loyal", "traits", "keywords", "text", "cost", "strength", "icons",
               "plot", "plot_modifiers", "supports", "rivals"}  # the last two: the melee's titles (issue 31)
    for entry in cat["cards"].values():
        assert set(entry) <= allowed
    assert cat["cards"]["master_of_coin"]["supports"] == ["master_of_ships"]
    assert "hand" not in json.dumps(cat["decks"]) and "draw" not in json.dumps(cat["decks"])


def test_spectators_see_the_page_without_a_seat(client):
    game = make_game(2, ruleset="lcg")
    content = _page(client, game)
    assert 'data-seat=""' in content and "spectating" in content


def test_the_replay_draws_the_card_game_with_player_names(client):
    a, b = make_user(), make_user()
    game = make_game(2, ruleset="lcg", users=[a, b])
    game.status = game.Status.FINISHED
    game.save(update_fields=["status"])
    content = _page(client, game, "web-replay")
    assert "js/lcg.js" in content and "css/lcg.css" in content and CATALOGUE.search(content)
    assert 'id="replay-table"' in content and "js/board.js" not in content
    options = re.findall(r'<option value="(p[12])"[^>]*>([^<]*)</option>', content)
    assert options == [("p1", a.username), ("p2", b.username)]
    step = client.get(reverse("web-replay-step", args=[game.pk, 0]) + "?as=p1")
    assert step.status_code == 200
    body = step.json()
    assert body["view"]["ruleset"] == "lcg" and body["summary"]["hand"]["p2"] == "hidden"
