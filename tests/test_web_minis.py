"""The miniatures game's battlefield page (templates/web/minis_game.html, static/js/minis.js) and its
replay. The page is a shell: the game comes from the API as the seat may see it; the only data in
the HTML is the public catalogue (web/minis.py: printed cards, trays, terrain types, zones)."""
from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.engine import get_ruleset
from tests.factories import api_client_for, make_game, make_user

pytestmark = pytest.mark.django_db

CATALOGUE = re.compile(r'<script id="minis-cards" type="application/json">(.*?)</script>', re.S)


def _page(client, game, name: str = "web-game") -> str:
    response = client.get(reverse(name, args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _minis(user, other=None, **kwargs):
    return make_game(2, ruleset="minis", users=[user, other or make_user()], **kwargs)


def test_a_minis_game_gets_the_battlefield_page(logged_in, user):
    game = _minis(user)
    content = _page(logged_in, game)
    assert "js/minis.js" in content and "css/minis.css" in content
    assert "js/game.js" not in content and "js/lcg.js" not in content
    assert 'data-seat="stark"' in content
    for part in ('id="field"', 'id="decision"', 'id="log"', 'id="chat-panel"', 'id="board-panel"', 'id="hand-panel"',
                 'id="dice-panel"', 'data-tool="tape"', 'data-tool="rings"', 'data-tool="arcs"'):
        assert part in content
    for script in ("countdown.js", "gameclient.js", "chat.js", "turn.js"):
        assert content.index(f"js/{script}") < content.index("js/minis.js")
    assert not re.search(r'<script[^>]+src="(https?:)?//', content)


def test_the_catalogue_is_public_card_data_in_words(logged_in, user):
    game = _minis(user)
    cat = json.loads(CATALOGUE.search(_page(logged_in, game)).group(1))
    guards = cat["cards"]["10101"]
    assert guards["name"] == "Lannister Guardsmen" and guards["width"] == 5.5 and guards["depth"] == 4.8
    assert guards["attacks"][0] == {"name": "Long Sword", "range": "melee", "hit": 4, "dice": [6, 5, 4]}
    assert guards["ranks"] == 3 and guards["figures"] == 12 and guards["files"] == 4
    assert cat["cards"]["10202"]["depth"] == 5.0          # cavalry trays are deeper
    assert cat["cards"]["40105"]["name"] == "Counterplot" and cat["cards"]["40105"]["modes"][0]["text"]
    assert cat["zones"]["money"]["name"] == "Wealth"
    assert "blocks_los" in cat["terrain"]["palisade"]["keywords"]
    assert cat["keywords"]["blocks_los"] == "blocks line of sight"


def test_no_hand_or_deck_in_the_html(logged_in, user):
    """The hands are dealt at the start of the battle: after deployment neither seat's hand nor any
    deck order is in the page, only the catalogue's card texts."""
    engine = get_ruleset("minis")
    game = _minis(user)
    state = game.state
    while state["phase"] == "deployment":
        seat = next(iter(engine.pending(state)))
        state, _ = engine.apply(state, seat, engine.default_action(state, seat))
    game.state = state
    game.save(update_fields=["state"])
    content = CATALOGUE.sub("", _page(logged_in, game))
    for seat in ("stark", "lannister"):
        assert state["players"][seat]["hand"]
        for cid in state["players"][seat]["hand"] + state["players"][seat]["deck"]:
            assert cid not in content


def test_a_spectator_and_the_seat_names(client, user):
    other = make_user()
    game = _minis(user, other)
    content = _page(client, game)
    assert "spectating" in content
    names = json.loads(re.search(r'<script id="minis-seat-names" type="application/json">(.*?)</script>', content, re.S).group(1))
    assert names == {"stark": user.username, "lannister": other.username}


def test_the_move_check_and_a_charge_through_the_api(user):
    """What the page does: check a ghost's maneuver (resolved pose, nothing applied), then a charge and
    its attack through the actions API."""
    from tests.browser.stage_minis import battle_state

    other = make_user()
    game = _minis(user, other)
    game.state = battle_state(game.seat_names(), game.seed)
    game.save(update_fields=["state"])
    stark, lannister = api_client_for(user), api_client_for(other)
    url = f"/api/v1/games/{game.pk}"

    def act(client, action):
        version = client.get(url).json()["version"]
        response = client.post(url + "/actions", {"version": version, "action": action}, format="json")
        assert response.status_code == 200, response.content
        return response.json()

    act(stark, {"activate": "sworn_swords"})
    version = stark.get(url).json()["version"]
    checked = stark.post(url + "/check", {"version": version, "action": {"maneuver": {"face": 0, "forward": 3.5, "end_face": 0}}},
                         format="json").json()
    assert checked["ok"] and checked["at"] == [24, 23.5]
    refused = stark.post(url + "/check", {"version": version, "action": {"maneuver": {"face": 0, "forward": 8}}},
                         format="json").json()
    assert refused["ok"] is False and refused["reason"]
    assert stark.get(url).json()["version"] == version
    act(stark, {"maneuver": {"face": 0, "forward": 3.5, "end_face": 0}})
    act(lannister, {"activate": "guardsmen"})
    act(lannister, {"charge": {"target": "sworn_swords"}})
    body = lannister.get(url).json()
    assert body["summary"]["last_charge"]["result"] == "success"
    log = lannister.get(url + "/log")
    assert log.status_code == 200


def test_the_replay_page_draws_with_the_battlefield(logged_in, user):
    game = _minis(user)
    game.status = "finished"
    game.save(update_fields=["status"])
    content = _page(logged_in, game, "web-replay")
    assert "js/minis.js" in content and "css/minis.css" in content and 'id="replay-table"' in content
    assert 'id="minis-cards"' in content and 'id="minis-seat-names"' in content
