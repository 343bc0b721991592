"""The new-lobby page (web/forms.py, templates/web/lobby_new.html) with B'Twixt's options: the modes
the ruleset accepts (advanced, draft, Succession Assembly, Allies in Sight, short; rules B13-B14,
B75-B82) offered with words, carried to the lobby and to the game it starts; A Game of Thrones'
options only for A Game of Thrones; a bad value is a form error in words, never a 500, and
nothing is created (the form comes back with the errors, as Django forms do)."""
from __future__ import annotations

import html as html_lib
import re

import pytest
from django.urls import reverse

from games.models import Game, Lobby
from games.services import lobbies
from tests.factories import make_user

pytestmark = pytest.mark.django_db

URL = reverse("web-lobby-new")
BTWIXT = {"ruleset": "btwixt", "name": "Heirs", "seats": "3", "time_limit": "3600", "house_choice": "random"}


def post(client, **fields):
    return client.post(URL, {**BTWIXT, **fields})


def errors(response) -> str:
    html = response.content.decode()
    match = re.search(r'<div class="errors" role="alert">(.*?)</div>', html, re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", match.group(1))) if match else ""


def test_the_form_offers_btwixt_modes_in_words_and_the_card_set(logged_in):
    html = logged_in.get(URL).content.decode()
    section = html[html.index('data-ruleset="btwixt"><legend>'):]
    section = section[:section.index("</fieldset>")]
    for name, label in (("btwixt_advanced", "Advanced game"), ("btwixt_draft", "Draft the hands"),
                        ("btwixt_succession", "Succession Assembly"), ("btwixt_allies_in_sight", "Allies in Sight"),
                        ("btwixt_short", "Short game")):
        assert f'name="{name}"' in section and label in section
    assert "One season less: 3-4 leaders start in Autumn, 5-6 in Winter." in section
    assert "the site's reference card set" in section and ".yaml" not in section
    assert "Cersei Lannister" in section  # the leaders by name
    # A Game of Thrones' options are in their own section (the page shows the chosen game's only)
    agot = html[html.index('data-ruleset="agot"><legend>'):]
    agot = agot[:agot.index("</fieldset>")]
    assert 'name="tides_of_battle"' in agot and "btwixt_" not in agot
    assert 'name="tides_of_battle"' not in section


def test_btwixt_options_go_to_the_lobby_and_to_the_game(logged_in, user):
    response = post(logged_in, btwixt_advanced="on", btwixt_short="on", btwixt_allies_in_sight="on",
                    tides_of_battle="on")  # an AGoT option posted with B'Twixt is not B'Twixt's
    assert response.status_code == 302, errors(response)
    lobby = Lobby.objects.get()
    assert lobby.ruleset == "btwixt"
    assert lobby.options == {"advanced": True, "short": True, "allies_in_sight": True}
    page = logged_in.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "Advanced game" in page and "Allies in Sight" in page and "Short game" in page
    assert "Tides of Battle" not in page
    for _ in range(2):
        lobbies.do_join_lobby(lobby.pk, make_user())
    game = Game.objects.get(lobby=lobby)
    assert game.options == lobby.options
    assert game.state["options"] == {"advanced": True, "draft": False, "succession": False,
                                     "allies_in_sight": True, "short": True}
    assert game.state["season"] == "autumn"  # B82: a short 3-leader game starts in Autumn


def test_succession_and_a_picked_leader(logged_in, user, client):
    response = post(logged_in, btwixt_succession="on", house_choice="pick", leader="tyrion", seats="4")
    assert response.status_code == 302, errors(response)
    lobby = Lobby.objects.get()
    assert lobby.options == {"succession": True} and lobby.seat_count == 4
    assert lobby.members.get().seat == "tyrion"
    page = logged_in.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "Succession Assembly" in page and "leaders: players pick" in page
    assert f"{user.username} · Tyrion Lannister" in page  # the leader's name, not the id
    client.force_login(make_user())  # someone who may join: picks among the free leaders, by name
    page = client.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert '<option value="jon_snow">Jon Snow</option>' in page and 'aria-label="Leader"' in page
    assert ">Tyrion Lannister</option>" not in page


def test_agot_options_only_for_agot(logged_in):
    response = post(logged_in, ruleset="agot", tides_of_battle="on", btwixt_advanced="on", leader="tyrion")
    assert response.status_code == 302, errors(response)
    assert Lobby.objects.get().options == {"tides_of_battle": True}


@pytest.mark.parametrize(("fields", "words"), [
    ({"btwixt_draft": "maybe"}, "Draft the hands: tick the box or leave it empty."),
    ({"btwixt_short": "2"}, "Short game: tick the box or leave it empty."),
    ({"seats": "seven"}, "Players: a whole number from 3 to 6."),
    ({"seats": "9"}, "B'Twixt is played by 3 to 6 players."),
    ({"seats": ""}, "Players: say how many (3 to 6)."),
    ({"time_limit": "5"}, "Time per decision: choose one of the times in the list."),
    ({"ruleset": "chess"}, "Choose one of the games in the list."),
    ({"house_choice": "auction"}, "Seats: choose random, each player picks, or the creator assigns."),
    ({"leader": "hodor"}, "Your leader: choose one of the leaders in the list."),
    ({"house_choice": "pick"}, "Your leader: pick the leader you play"),
    ({"leader": "tyrion"}, "Your leader: leave it empty, or choose “each player picks” for the seats."),
    ({"ruleset": "agot", "tides_of_battle": "yes please"}, "Tides of Battle: tick the box or leave it empty."),
])
def test_a_bad_value_is_a_form_error_in_words(logged_in, fields, words):
    response = post(logged_in, **fields)
    assert response.status_code == 200
    said = errors(response)
    assert words in said, said
    assert not re.search(r"[{}\[\]]|\b[a-z]+_[a-z_]+\b", said), said  # no JSON, no ids
    assert not Lobby.objects.exists()


def test_the_form_keeps_what_was_chosen_after_an_error(logged_in):
    response = post(logged_in, btwixt_draft="on", btwixt_advanced="on", seats="twelve", house_choice="pick", leader="arya_stark")
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r'<option value="btwixt"\s+selected', html)
    assert re.search(r'name="btwixt_draft"[^>]*checked', html) and re.search(r'name="btwixt_advanced"[^>]*checked', html)
    assert not re.search(r'name="btwixt_short"[^>]*checked', html)
    assert re.search(r'<option value="pick"\s+selected', html)


def test_options_the_engine_refuses_are_a_form_error(logged_in, monkeypatch):
    """The lobby service lets the engine judge the options for the table's size; its refusal is a
    form error too (forced here: every mode the form offers is one the engine accepts)."""
    from games.engine import EngineError
    from games.engine.btwixt import BtwixtRuleset

    def refuse(self, seats, options, seed):
        raise EngineError("illegal_action", "a short game with 6 leaders has no season to draft in")

    monkeypatch.setattr(BtwixtRuleset, "new_game", refuse)
    response = post(logged_in, btwixt_short="on", btwixt_draft="on")
    assert response.status_code == 200
    assert "These options cannot be played together: a short game with 6 leaders has no season to draft in." in errors(response)
    assert not Lobby.objects.exists()


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.post(URL, BTWIXT)
    assert response.status_code == 302 and "/login" in response["Location"]
