"""The B'Twixt game page (templates/web/btwixt_game.html, static/js/btwixt.js) and the lobby form's
ruleset choice. The page is a shell: the state comes from the API; the only data in the HTML is the
public catalogue of the loaded card set."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine import get_ruleset
from games.models import Lobby
from tests.factories import make_game, make_user

pytestmark = pytest.mark.django_db


def _page(client, game) -> str:
    response = client.get(reverse("web-game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_btwixt_game_gets_its_own_page(logged_in, user):
    game = make_game(ruleset="btwixt", users=[user, make_user(), make_user()])
    content = _page(logged_in, game)
    assert "js/btwixt.js" in content and "css/btwixt.css" in content
    assert "js/game.js" not in content and 'id="board"' not in content
    assert f'data-seat="{game.seat_for(user).seat}"' in content
    assert 'id="table"' in content and 'id="time-track"' in content and 'id="hand"' in content
    assert "js/chat.js" in content and 'id="chat-panel"' in content and 'id="chat-form"' in content
    assert not re.search(r'<script[^>]+src="(https?:)?//', content)


def test_the_agot_page_is_unchanged(logged_in, user):
    game = make_game(users=[user, make_user(), make_user()])
    content = _page(logged_in, game)
    assert "js/game.js" in content and "js/btwixt.js" not in content
    assert content.index("js/chat.js") < content.index("js/game.js")  # game.js uses WesterosChat


def test_the_page_says_the_card_list_is_the_reference_set(logged_in, user):
    """Once, in words for players: no file name, no repeated sentence."""
    from games.engine.btwixt import data

    game = make_game(ruleset="btwixt", users=[user, make_user(), make_user()])
    content = _page(logged_in, game)
    notice = re.search(r'id="cardset-notice">(.*?)</p>', content, re.S).group(1)
    assert data.catalogue()["name"] in notice
    assert "played with the site's reference card set" in notice.lower().replace("&#x27;", "'")
    assert ".yaml" not in content and "<code>" not in notice
    assert notice.lower().count("reference") == 1 + data.catalogue()["name"].lower().count("reference")


def test_no_hand_in_the_html(logged_in, user):
    """The catalogue names every card of the set (public); outside it, no card id at all: neither
    this seat's hand nor another seat's."""
    game = make_game(ruleset="btwixt", users=[user, make_user(), make_user()])
    summary = get_ruleset("btwixt").summary(game.state)
    mine = game.seat_for(user).seat
    content = _page(logged_in, game)
    without_catalogue = re.sub(r'<script id="btwixt-cards" type="application/json">.*?</script>', "", content, flags=re.S)
    assert without_catalogue != content
    for seat, hand in summary["hands"].items():
        for card_id in hand:
            assert card_id not in without_catalogue, f"{seat}'s {card_id} is in the page"
    assert '"hands"' not in without_catalogue and '"piles"' not in without_catalogue
    assert summary["hands"][mine], "the seat has a hand to leak"


def test_spectators_see_the_page_without_a_hand(client):
    game = make_game(ruleset="btwixt")
    content = _page(client, game)
    assert 'data-seat=""' in content and "spectating" in content


def test_the_lobby_form_offers_the_ruleset_and_creates_a_btwixt_lobby(client):
    creator = make_user()
    client.force_login(creator)
    form = client.get(reverse("web-lobby-new")).content.decode()
    assert 'name="ruleset"' in form and 'value="btwixt"' in form and 'name="btwixt_advanced"' in form
    response = client.post(reverse("web-lobby-new"), {"ruleset": "btwixt", "name": "Leaders", "seats": "4",
                                                      "time_limit": "3600", "house_choice": "random",
                                                      "seat": "stark", "btwixt_short": "on"})
    lobby = Lobby.objects.get(name="Leaders")
    assert response["Location"] == reverse("web-lobby", args=[lobby.pk])
    assert lobby.ruleset == "btwixt" and lobby.seat_count == 4 and lobby.options == {"short": True}


def test_the_lobby_form_offers_succession(client):
    client.force_login(make_user())
    assert 'name="btwixt_succession"' in client.get(reverse("web-lobby-new")).content.decode()
    client.post(reverse("web-lobby-new"), {"ruleset": "btwixt", "name": "Heirs", "seats": "3", "time_limit": "3600",
                                           "house_choice": "random", "btwixt_succession": "on"})
    assert Lobby.objects.get(name="Heirs").options == {"succession": True}


def test_the_creator_picks_a_leader_in_the_lobby_form(client):
    creator = make_user()
    client.force_login(creator)
    assert 'name="leader"' in client.get(reverse("web-lobby-new")).content.decode()
    client.post(reverse("web-lobby-new"), {"ruleset": "btwixt", "name": "Picked", "seats": "3", "time_limit": "3600",
                                           "house_choice": "pick", "leader": "jon_snow"})
    lobby = Lobby.objects.get(name="Picked")
    assert lobby.members.get(user=creator).seat == "jon_snow"


def test_the_lobby_form_refuses_a_btwixt_table_of_seven(client):
    client.force_login(make_user())
    response = client.post(reverse("web-lobby-new"), {"ruleset": "btwixt", "name": "Too many", "seats": "7",
                                                      "time_limit": "3600", "house_choice": "random"})
    assert response.status_code == 200 and "3 to 6" in response.content.decode()
    assert not Lobby.objects.filter(name="Too many").exists()


def test_a_finished_btwixt_game_replays_step_by_step_as_a_table(client):
    from games.engine import get_ruleset
    from games.services.play import do_create_game

    game = do_create_game(ruleset="btwixt", seating={s: None for s in get_ruleset("btwixt").seat_names(3)})
    game.refresh_from_db()
    assert game.status == "finished"
    page = client.get(f"/games/{game.pk}/replay").content.decode()
    # the table is drawn by btwixt.js from each step's summary; leaders are named in the "view as" list
    assert 'id="replay-table"' in page and 'id="board"' not in page and 'id="replay-summary"' not in page
    assert "js/btwixt.js" in page and 'id="btwixt-cards"' in page and "js/board.js" not in page
    from games.engine.btwixt import data

    for seat in game.seat_names():
        assert f'<option value="{seat}">{data.catalogue()["leaders"][seat]}</option>' in page
    middle = client.get(f"/games/{game.pk}/replay/{game.version // 2}.json?as=spectator").json()
    assert middle["summary"]["season"] and middle["seat"] is None
    tokens = [c["tokens"] for c in middle["summary"]["councils"].values() if c.get("token_count")]
    assert tokens and all(t == "hidden" for t in tokens)  # token values stay hidden mid-game
    end = client.get(f"/games/{game.pk}/replay/{game.version}.json").json()
    assert end["summary"]["winners"]
