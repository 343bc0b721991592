"""Lobbies for the miniatures game (minis, issue 19 "On the platform"): two seats, Stark and
Lannister, picked by each player ("Your army"), assigned by the creator or drawn at random (the
house_choice machinery); the mode (Here We Stand, the only one implemented: the others are listed
as not available), the fixed 30-point starter armies, random terrain (M22), the reaction prompts
at the live default (`all`: rules/minis.md §5, SCENARIOS.md "minis" D12, since `playable` would tell
the opponent what a hand holds), ranked or not, a time limit per decision. Through the API and
the new-lobby form; a bad value is an error in words and nothing is created."""
from __future__ import annotations

import html as html_lib
import re

import pytest
from django.urls import reverse

from games.models import Game, GameSeat, Lobby
from tests.factories import api_client_for, make_user
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

LOBBY = {"ruleset": "minis", "name": "Green Fork", "seats": 2, "time_limit": 3600}


def create(user, **fields):
    return api_client_for(user).post(reverse("api-lobbies"), {**LOBBY, **fields}, format="json")


def join(user, lobby_id: int, **fields):
    return api_client_for(user).post(reverse("api-lobby-join", args=[lobby_id]), fields, format="json")


def seated(game: Game) -> dict[str, str]:
    return {s.seat: s.user.username for s in GameSeat.objects.filter(game=game).select_related("user")}


# ----------------------------------------------------------------- through the API

def test_each_player_picks_an_army_and_the_game_starts_with_the_options():
    creator, guest = make_user(), make_user()
    response = create(creator, house_choice="pick", seat="lannister", ranked=True, time_limit=600,
                      options={"mode": "here_we_stand", "terrain": "random"})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["ruleset"] == "minis" and body["seats"] == 2 and body["seats_free"] == 1
    assert body["members"][0]["seat"] == "lannister"
    taken = join(guest, body["id"], seat="lannister")
    assert taken.status_code == 409 and "lannister is already taken" in taken.json()["detail"]
    joined = join(guest, body["id"], seat="stark")
    assert joined.status_code == 200, joined.json()
    game = Game.objects.get(pk=joined.json()["game"])
    assert (game.ruleset, game.ranked, game.time_limit) == ("minis", True, 600)
    assert seated(game) == {"lannister": creator.username, "stark": guest.username}
    assert game.options == {"mode": "here_we_stand", "terrain": "random"}
    # the live default: every trigger window asks each seat whose deck list could answer it (§5)
    assert game.state["options"] == {"mode": "here_we_stand", "reaction_prompts": "all"}
    # M22: 1D3 + 2 pieces drawn, placed between the deployment zones (a piece with no room is left out)
    assert 1 <= len(game.state["terrain"]) <= 5
    # the game starts at the roll-off's First Player choice or deployment: someone has a deadline
    assert game.deadline_at is not None and GameSeat.objects.filter(game=game, deadline_at__isnull=False).exists()


def test_armies_drawn_at_random_or_assigned_by_the_creator():
    creator, guest = make_user(), make_user()
    lobby_id = create(creator).json()["id"]  # random by default, no terrain
    game = Game.objects.get(pk=join(guest, lobby_id).json()["game"])
    assert sorted(seated(game).values()) == sorted([creator.username, guest.username])
    assert sorted(seated(game)) == ["lannister", "stark"] and game.state["terrain"] == []
    assert game.options == {} and game.state["options"]["reaction_prompts"] == "all"

    lobby_id = create(creator, house_choice="assign", options={"armies": {"stark": "list_stark_30"}}).json()["id"]
    client = api_client_for(creator)  # the creator takes Stark before anyone joins
    response = client.post(reverse("api-lobby-assign", args=[lobby_id]), {"user": creator.username, "seat": "stark"},
                           format="json")
    assert response.status_code == 200, response.json()
    joined = join(guest, lobby_id)
    assert joined.status_code == 200, joined.json()
    game = Game.objects.get(pk=joined.json()["game"])
    assert seated(game) == {"stark": creator.username, "lannister": guest.username}
    assert game.state["players"]["stark"]["list"]["id"] == "list_stark_30"


@pytest.mark.parametrize(("fields", "field", "said"), [
    ({"options": {"mode": "a_clash_of_kings"}}, "options",
     "A Clash of Kings is not available yet: the mode is here_we_stand (Here We Stand)"),
    ({"options": {"mode": "chess"}}, "options", "Unknown mode 'chess'"),
    ({"options": {"mode": ["here_we_stand"]}}, "options", "Unknown mode"),
    ({"options": {"reaction_prompts": "playable"}}, "options", "reaction_prompts is all on the site"),
    ({"options": {"armies": {"stark": "list_lannister_30"}}}, "options",
     "The Stark army is a starter list (list_stark_30), one of your saved Stark armies or a Stark army list."),
    # issue 33: an army list is judged by the army-building rules (M5: one Commander; M8: Grey Wind needs Robb)
    ({"options": {"armies": {"stark": {"commander": "20202", "units": [{"unit": "10204"}]}}}}, "options",
     "The Stark army cannot be played: Greatjon Umber, Lord of Last Hearth must be attached"),
    ({"options": {"armies": {"stark": "nope"}}}, "options", "The Stark army is a starter list"),
    ({"options": {"armies": {"greyjoy": "list_stark_30"}}}, "options", "armies is {stark: army, lannister: army}"),
    ({"options": {"armies": "list_stark_30"}}, "options", "armies is {stark: army, lannister: army}"),
    ({"options": {"game_size": 20, "armies": {"stark": "list_stark_30"}}}, "options",
     "The Stark starter list has 30 points, over the game size of 20."),
    ({"options": {"game_size": "forty"}}, "options", "game_size is a number of points from 10 to 150"),
    ({"options": {"terrain": "lots"}}, "options", "terrain is none or random"),
    ({"options": {"fog_of_war": True}}, "options", "unknown option fog_of_war"),
    ({"seats": 5}, "seats", "A Song of Ice and Fire: Tabletop Miniatures is played by 2 to 4 players."),
    ({"seats": 3, "options": {"multiplayer": "teams"}}, "options", "a team game has four seats"),
    ({"house_choice": "pick", "seat": "baratheon"}, "seat", "Choose one of: stark, lannister."),
    ({"house_choice": "pick"}, "seat", "Pick a seat: stark, lannister"),
    ({"seat": "stark"}, "seat", "In this lobby seats are not picked by the players."),
    ({"decks": ["the_old_ways", "the_old_ways"]}, "decks", "minis is not played with decks."),
])
def test_bad_lobby_settings_are_refused_in_words_and_nothing_is_made(fields, field, said):
    response = create(make_user(), **fields)
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["error"] == "invalid" and body["fields"][field][0].startswith(said), body
    assert not Lobby.objects.exists()


def test_options_that_are_not_an_object_are_refused():
    response = create(make_user(), options=["terrain"])
    assert response.status_code == 400 and response.json()["error"] == "invalid" and "options" in response.json()["fields"]
    assert not Lobby.objects.exists()


def test_a_tournament_refuses_the_same_options():
    org = api_client_for(make_user())
    event = {"name": "Cup", "ruleset": "minis", "format": "swiss", "rounds": 2, "seats_per_table": 2}
    for options, said in (({"reaction_prompts": "playable"}, "reaction_prompts is all"),
                          ({"mode": "fire_and_blood"}, "Fire and Blood is not available yet"),
                          ({"armies": {"lannister": 7}}, "The Lannister army is a starter list")):
        response = org.post("/api/v1/tournaments", {**event, "options": options}, format="json")
        assert response.status_code == 400 and response.json()["fields"]["options"][0].startswith(said)
    assert not Tournament.objects.exists()
    response = org.post("/api/v1/tournaments", {**event, "options": {"terrain": "random"}}, format="json")
    assert response.status_code == 201, response.json()


# ----------------------------------------------------------------- the pages (web/forms.py, lobby.html)

URL = reverse("web-lobby-new")
FORM = {"ruleset": "minis", "name": "Whispering Wood", "time_limit": "3600", "house_choice": "random"}


def form_errors(response) -> str:
    match = re.search(r'<div class="errors" role="alert">(.*?)</div>', response.content.decode(), re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", match.group(1))) if match else ""


def test_the_form_offers_the_miniatures_game_in_words(logged_in):
    page = logged_in.get(URL).content.decode()
    assert '<option value="minis" >A Song of Ice and Fire: Tabletop Miniatures (2-4 players)</option>' in page
    assert re.search(r'data-hide="[^"]*\bminis\b[^"]*">Players', page)  # its own Players field: the tables
    section = page[page.index('data-ruleset="minis"><legend>'):]
    section = section[:section.index("</fieldset>")]
    # the starter armies, unit by unit, by name
    assert "<strong>Stark</strong>: Stark Sworn Swords with Robb Stark, The Wolf Lord (commander)" in section
    assert "Grey Wind" in section and "Catelyn Stark, Lady of Winterfell (30 points)" in section
    assert "<strong>Lannister</strong>: Lannister Guardsmen with Jaime Lannister, The Kingslayer (commander)" in section
    assert "Gregor Clegane, Lord Tywin&#x27;s Mad Dog" in section
    assert '<option value="stark" >Stark</option>' in section and '<option value="lannister" >Lannister</option>' in section
    # issue 33: two to four players, the game size, your saved army; a house's second army in words
    assert '<option value="stark_2" >Stark (second army)</option>' in section
    assert '<option value="teams" >4 players, two against two (teams)</option>' in section
    assert '<option value="40" >40 points</option>' in section and 'name="my_army"' in section
    # Here We Stand is played; the other nine modes are listed as not available
    assert '<option value="here_we_stand">Here We Stand</option>' in section
    assert section.count("(not available yet)") == 9
    assert '<option value="a_clash_of_kings" disabled>A Clash of Kings (not available yet)</option>' in section
    assert 'name="random_terrain"' in section
    assert "list_stark_30" not in page and "20201" not in page  # names, never ids
    assert '<span class="ruleset-word" data-ruleset="minis">armies</span>' in page


def test_the_form_makes_a_lobby_whose_page_says_its_options(logged_in, user, client):
    response = logged_in.post(URL, {**FORM, "house_choice": "pick", "army": "lannister", "random_terrain": "on",
                                    "minis_mode": "here_we_stand", "ranked": "on", "seats": "5", "seat": "tyrell",
                                    "leader": "nobody", "my_deck": "none"})  # other games' fields are not read
    assert response.status_code == 302, form_errors(response)
    lobby = Lobby.objects.get()
    assert (lobby.ruleset, lobby.seat_count, lobby.ranked, lobby.house_choice) == ("minis", 2, True, "pick")
    assert lobby.options == {"mode": "here_we_stand", "terrain": "random"}
    assert lobby.members.get().seat == "lannister"
    page = logged_in.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "A Song of Ice and Fire: Tabletop Miniatures" in page and "seats: players pick in join order (a saved army takes a seat of its house)" in page
    assert "Here We Stand" in page and "armies of 30 points (saved armies or the starter ones)" in page and "random terrain" in page
    assert f"{user.username} · Lannister" in page
    assert "here_we_stand" not in page and "armys" not in page
    other = make_user()
    client.force_login(other)
    page = client.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    # the joiner picks among the free armies, by name
    assert re.search(r'<label>Your army <select name="seat" aria-label="Army"><option value="stark">Stark</option></select>',
                     page), page
    response = client.post(reverse("web-lobby-action", args=[lobby.pk, "join"]), {"seat": "stark"})
    game = Game.objects.get(lobby=lobby)
    assert response.status_code == 302 and response["Location"] == reverse("web-game", args=[game.pk])
    assert seated(game) == {"lannister": user.username, "stark": other.username}
    assert game.options == {"mode": "here_we_stand", "terrain": "random"} and game.state["terrain"]


def test_the_form_without_terrain_and_at_random(logged_in):
    response = logged_in.post(URL, FORM)
    assert response.status_code == 302, form_errors(response)
    lobby = Lobby.objects.get()
    assert lobby.options == {"mode": "here_we_stand"} and lobby.house_choice == "random"
    page = logged_in.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "seats: random at the start (a saved army takes a seat of its house)" in page and "no terrain" in page


@pytest.mark.parametrize(("fields", "words"), [
    ({"minis_mode": "a_clash_of_kings"}, "Mode: A Clash of Kings is not available yet; Here We Stand is the mode played on the site."),
    ({"minis_mode": "chess"}, "Mode: choose one of the modes in the list."),
    ({"army": "greyjoy"}, "Your army: choose Stark or Lannister."),
    ({"army": "stark"}, "Your army: leave it empty, or choose “each player picks” for the armies."),
    ({"house_choice": "pick"}, "Your army: pick the army you play (players pick their armies in this lobby)."),
    ({"random_terrain": "maybe"}, "Random terrain: tick the box or leave it empty."),
    ({"time_limit": "5"}, "Time per decision: choose one of the times in the list."),
])
def test_a_bad_value_in_the_form_is_an_error_in_words(logged_in, fields, words):
    response = logged_in.post(URL, {**FORM, **fields})
    assert response.status_code == 200
    said = form_errors(response)
    assert words in said, said
    assert not Lobby.objects.exists()
