"""Card-game lobbies (issue 17): two seats, and the deck each player brings — picked by each player
when joining (or drawn at random when they leave it empty), or assigned by the creator when the lobby
is made, in join order. The game starts when both seats are taken, with those decks (the engine's
option `decks`, games/engine/lcg/setup.py). Bad deck choices are a 400 in the API's error shape that
changes nothing."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, Lobby, LobbyMember
from games.services import lobbies
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db

LCG = {"ruleset": "lcg", "seats": 2, "time_limit": 3600}


def create(user, **fields):
    return api_client_for(user).post(reverse("api-lobbies"), {**LCG, **fields}, format="json")


def join(user, lobby_id, **fields):
    return api_client_for(user).post(reverse("api-lobby-join", args=[lobby_id]), fields, format="json")


def decks_by_user(game: Game) -> dict[str, str]:
    decks = game.state["options"]["decks"]
    return {s.user.username: decks[game.state["seats"].index(s.seat)] for s in game.seats.select_related("user")}


def test_each_player_picks_a_deck_and_the_game_starts_with_them():
    alys, bran = make_user(), make_user()
    response = create(alys, deck="secrets_and_schemes", ranked=True)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["decks"] == [] and body["members"][0]["deck"] == "secrets_and_schemes"
    response = join(bran, body["id"], deck="secrets_and_schemes")  # the same deck twice is allowed
    assert response.status_code == 200, response.json()
    game = Game.objects.get(pk=response.json()["game"])
    assert game.ruleset == "lcg" and game.ranked
    assert decks_by_user(game) == {alys.username: "secrets_and_schemes", bran.username: "secrets_and_schemes"}
    # the engine built each seat's cards from that deck: both factions are Lannister
    assert {p["faction"] for p in game.state["players"].values()} == {"lannister"}


def test_the_creator_assigns_the_decks_in_join_order():
    alys, bran = make_user(), make_user()
    body = create(alys, decks=["the_old_ways", "secrets_and_schemes"]).json()
    assert body["decks"] == ["the_old_ways", "secrets_and_schemes"]
    assert body["members"][0]["deck"] == "the_old_ways"
    # a joining player may not pick in such a lobby
    refused = join(bran, body["id"], deck="the_old_ways")
    assert refused.status_code == 400 and refused.json()["fields"]["deck"] == ["In this lobby the creator assigns the decks."]
    assert LobbyMember.objects.filter(lobby_id=body["id"]).count() == 1
    game = Game.objects.get(pk=join(bran, body["id"]).json()["game"])
    assert decks_by_user(game) == {alys.username: "the_old_ways", bran.username: "secrets_and_schemes"}


def test_a_player_who_leaves_the_deck_empty_gets_one_at_random():
    alys, bran = make_user(), make_user()
    lobby_id = create(alys).json()["id"]
    game = Game.objects.get(pk=join(bran, lobby_id).json()["game"])
    # drawn among the decks a game may use (those whose every card the engine plays: more as cards are added)
    assert set(decks_by_user(game).values()) <= set(lobbies.deck_choices("lcg"))
    assert all(game.state["options"]["decks"])


@pytest.mark.parametrize(("fields", "field", "said"), [
    ({"deck": "robb_stark"}, "deck", "Unknown deck 'robb_stark'; choose among: the_old_ways (The Old Ways (Stark, "
                                     "with Banner of the Kraken)), at_the_wall"),
    ({"decks": ["the_old_ways"]}, "decks", "Assign one deck per player (2)"),
    ({"decks": ["the_old_ways", "nope"]}, "decks", "Unknown deck 'nope'"),
    ({"options": {"decks": ["the_old_ways", "the_old_ways"]}}, "options", "Decks are not an option here"),
    ({"ruleset": "agot", "seats": 3, "deck": "the_old_ways"}, "deck", "agot is not played with decks."),
    ({"ruleset": "agot", "seats": 3, "decks": ["a", "b", "c"]}, "decks", "agot is not played with decks."),
    ({"seats": 7}, "seats", "A Game of Thrones: The Card Game is played by 2 to 6 players."),
    ({"decks": "the_old_ways"}, "decks", "Expected a list"),
])
def test_bad_deck_choices_are_refused_and_nothing_is_made(fields, field, said):
    response = create(make_user(), **fields)
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["error"] == "invalid" and body["fields"][field][0].startswith(said), body
    assert not Lobby.objects.exists()


def test_a_bad_deck_when_joining_is_refused_and_the_seat_stays_free():
    lobby_id = create(make_user()).json()["id"]
    response = join(make_user(), lobby_id, deck="winterfell")
    assert response.status_code == 400 and response.json()["fields"]["deck"][0].startswith("Unknown deck 'winterfell'")
    lobby = Lobby.objects.get(pk=lobby_id)
    assert lobby.members.count() == 1 and lobby.is_open() and not Game.objects.exists()


# ----------------------------------------------------------------- the pages (web/forms.py, lobby.html)

def _form_errors(response) -> str:
    import html as html_lib
    import re

    match = re.search(r'<div class="errors" role="alert">(.*?)</div>', response.content.decode(), re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", match.group(1))) if match else ""


FORM = {"ruleset": "lcg", "name": "Joust", "time_limit": "3600"}


def test_the_new_lobby_form_makes_a_two_player_card_game_lobby(logged_in, user):
    page = logged_in.get(reverse("web-lobby-new")).content.decode()
    section = page[page.index('data-ruleset="lcg"><legend>'):]
    section = section[:section.index("</fieldset>")]
    assert "The Old Ways (Stark, with Banner of the Kraken)" in section and "drawn at random" in section
    response = logged_in.post(reverse("web-lobby-new"), {**FORM, "deck_choice": "pick", "my_deck": "the_old_ways",
                                                         "ranked": "on", "seats": "5", "seat": "nope"})
    assert response.status_code == 302, _form_errors(response)  # the other games' fields are not read
    lobby = Lobby.objects.get()
    assert (lobby.ruleset, lobby.seat_count, lobby.ranked, lobby.decks) == ("lcg", 2, True, [])
    assert lobby.members.get().deck == "the_old_ways"
    page = logged_in.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "A Game of Thrones: The Card Game" in page and "decks: each player picks" in page
    assert "brings <span class=\"deck-name\">The Old Ways (Stark, with Banner of the Kraken)</span>" in page
    assert "the_old_ways" not in page.split("<select", 1)[0]  # no id in the words (only as option values)


def test_the_creator_assigns_both_decks_in_the_form_and_a_joiner_brings_the_second(logged_in, user, client):
    response = logged_in.post(reverse("web-lobby-new"), {**FORM, "deck_choice": "assign", "my_deck": "secrets_and_schemes",
                                                         "their_deck": "the_old_ways"})
    assert response.status_code == 302, _form_errors(response)
    lobby = Lobby.objects.get()
    assert lobby.decks == ["secrets_and_schemes", "the_old_ways"]
    other = make_user()
    client.force_login(other)
    page = client.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "decks: assigned by the creator" in page and "You bring the deck the creator assigned." in page
    response = client.post(reverse("web-lobby-action", args=[lobby.pk, "join"]))
    game = Game.objects.get(lobby=lobby)
    assert response.status_code == 302 and response["Location"] == reverse("web-game", args=[game.pk])
    assert decks_by_user(game) == {user.username: "secrets_and_schemes", other.username: "the_old_ways"}


def test_a_joiner_picks_a_deck_on_the_lobby_page(logged_in, user, client):
    lobby_id = create(user).json()["id"]
    other = make_user()
    client.force_login(other)
    page = client.get(reverse("web-lobby", args=[lobby_id])).content.decode()
    assert '<select name="deck">' in page and ">Secrets and Schemes (Lannister, with Banner of the Rose)</option>" in page
    client.post(reverse("web-lobby-action", args=[lobby_id, "join"]), {"deck": "secrets_and_schemes"})
    game = Game.objects.get(lobby_id=lobby_id)
    assert decks_by_user(game)[other.username] == "secrets_and_schemes"


@pytest.mark.parametrize(("fields", "words"), [
    ({"deck_choice": "assign", "my_deck": "the_old_ways"}, "Assigning the decks: choose your deck and your opponent's."),
    ({"deck_choice": "assign"}, "Assigning the decks: choose your deck and your opponent's."),
    ({"deck_choice": "auction"}, "Decks: choose “each player picks” or “I assign both”."),
    ({"my_deck": "house_stark"}, "Your deck: choose one of the decks in the list."),
])
def test_a_bad_deck_choice_in_the_form_is_an_error_in_words(logged_in, fields, words):
    response = logged_in.post(reverse("web-lobby-new"), {**FORM, **fields})
    assert response.status_code == 200
    said = _form_errors(response)
    assert words in said, said
    assert not Lobby.objects.exists()


def test_a_bad_deck_when_joining_on_the_page_is_said_in_words(logged_in, user, client):
    lobby_id = create(user).json()["id"]
    client.force_login(make_user())
    response = client.post(reverse("web-lobby-action", args=[lobby_id, "join"]), {"deck": "winterfell"}, follow=True)
    assert "Unknown deck" in response.content.decode() and not Game.objects.exists()


@pytest.mark.parametrize("value", [False, 0, "no"])
def test_a_live_table_asks_both_players_at_every_window(value):
    """every_window off would ask only a player holding an answer: the opponent would learn it
    (rules/lcg.md §5.2). Lobbies and tournaments refuse it."""
    response = create(make_user(), options={"every_window": value})
    assert response.status_code == 400 and response.json()["fields"]["options"][0].startswith("every_window is on on the site")
    response = api_client_for(make_user()).post("/api/v1/tournaments", {
        "name": "Cup", "ruleset": "lcg", "format": "swiss", "rounds": 2, "seats_per_table": 2,
        "options": {"every_window": value}}, format="json")
    assert response.status_code == 400 and "every_window is on on the site" in str(response.json())
    assert not Lobby.objects.exists()


def test_the_deck_names_are_worked_out_once_per_language():
    """games/services/lobbies.deck_choices is kept per process and language (issue 27): each language
    keeps its own words, and a caller changing its copy changes nothing kept."""
    from django.utils import translation

    from games.services.lobbies import deck_choices

    with translation.override("en"):
        english = deck_choices("lcg")
        english.clear()
        english = deck_choices("lcg")
    with translation.override("es"):
        spanish = deck_choices("lcg")
    assert english.keys() == spanish.keys() and len(english) >= 2
    assert any(" with " in name for name in english.values())
    assert any(" con " in name for name in spanish.values()) and not any(" with " in n for n in spanish.values())
    assert deck_choices("agot") == {}
