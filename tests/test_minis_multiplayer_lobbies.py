"""The miniatures game's lobbies for two to four players (issue 33): each person may bring one of their saved armies
(legal, of the lobby's game size), which takes a seat of its house; the seats nobody brought an army to play their
house's starter army. Three or four seats play a free-for-all (M131) or, four, teams two against two (M130); the
computer may take seats. Games run to their end through the API, each person's moves sent by their own client."""
from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from games.engine import get_ruleset
from games.engine.minis import armies as rules
from games.models import Army, Game, Lobby
from ratings import elo
from ratings.models import RatingChange
from ratings.services import _ranking_with_ties
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db


def _saved(user, key: str, name: str = "Mine", **changes) -> Army:
    army = copy.deepcopy(rules.starter_armies()[key])
    army.pop("name")
    army.update(changes)
    a = Army(owner=user, name=name, faction=army["faction"], game_size=army["game_size"],
             commander=army["commander"], units=army["units"], ncus=army["ncus"])
    a.save()
    return a


def _stark_without_catelyn(user) -> Army:
    """A 30-point-size Stark army of the starter box, told from the starter list by its NCUs."""
    army = _saved(user, "list_stark_30")
    army.ncus = army.ncus[:1]
    army.save()
    return army


def _create(user, **fields):
    return api_client_for(user).post(reverse("api-lobbies"), {"ruleset": "minis", "time_limit": 600, **fields},
                                     format="json")


def _join(user, lobby_id: int, **fields):
    return api_client_for(user).post(reverse("api-lobby-join", args=[lobby_id]), fields, format="json")


def _play_to_the_end(game: Game, limit: int = 6000) -> int:
    """Each person's move is the engine's player's choice for their seat, sent by their own client."""
    engine = get_ruleset("minis")
    clients = {s.seat: api_client_for(s.user) for s in game.seats.select_related("user") if s.user is not None}
    for moves in range(limit):
        game.refresh_from_db()
        if not game.is_active():
            return moves
        mine = sorted(s for s in engine.pending(game.state) if s in clients)
        assert mine, (game.version, engine.pending(game.state))  # the computer answers at once
        seat = mine[0]
        sent = clients[seat].post(reverse("api-game-actions", args=[game.pk]),
                                  {"version": game.version, "action": engine.bot_action(game.state, seat)},
                                  format="json")
        assert sent.status_code == 200, sent.json()
    raise AssertionError(f"the game did not end in {limit} moves")


@pytest.mark.slow_once  # whole games: long; the shorter tests here cover their database paths on both CI passes
def test_two_against_two_with_two_people_bringing_armies_and_two_computers_runs_to_its_end_M130():
    host, friend = make_user(), make_user()
    stark = _stark_without_catelyn(host)
    lannister = _saved(friend, "list_lannister_30", name="Red")
    made = _create(host, seats=4, computer_seats=2, options={"multiplayer": "teams"}, army=f"army:{stark.pk}")
    assert made.status_code == 201, made.json()
    assert [(m["user"], m["seat"]) for m in made.json()["members"]] == [(host.username, "stark")]
    joined = _join(friend, made.json()["id"], army=f"army:{lannister.pk}")
    assert joined.status_code == 200, joined.json()
    game = Game.objects.get(pk=joined.json()["game"])
    seats = {s.seat: s.user for s in game.seats.all()}
    assert seats["stark"] == host and seats["lannister"] == friend
    assert seats["stark_2"] is None and seats["lannister_2"] is None and not game.ranked
    # each person's army is copied into the game; the computers' seats play their house's starter army
    assert game.state["players"]["stark"]["list"]["ncus"] == stark.ncus
    assert game.options["armies"]["lannister"]["commander"] == lannister.commander
    assert game.state["multi"]["kind"] == "teams" and set(game.state["vp"]) == {"a", "b"}
    assert game.state["table"] == [72.0, 48.0]  # M130: the larger table
    _play_to_the_end(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.state["over"]


@pytest.mark.slow_once  # whole games: long; the shorter tests here cover their database paths on both CI passes
def test_a_four_player_free_for_all_through_the_api_runs_to_its_end_M131():
    people = [make_user() for _ in range(4)]
    made = _create(people[0], seats=4, ranked=True, options={"multiplayer": "ffa"})
    assert made.status_code == 201, made.json()
    for person in people[1:]:
        joined = _join(person, made.json()["id"])
        assert joined.status_code == 200, joined.json()
    game = Game.objects.get(pk=joined.json()["game"])
    assert sorted(game.state["seats"]) == ["lannister", "lannister_2", "stark", "stark_2"]
    assert game.state["multi"]["kind"] == "ffa" and set(game.state["vp"]) == set(game.state["seats"])
    _play_to_the_end(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and sorted(game.ranking) == sorted(game.state["seats"])
    # rated like A Game of Thrones: by the final order, each player against the three others (docs/ratings.md)
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {p.pk for p in people}
    first = game.seats.get(seat=game.ranking[0]).user_id
    assert changes[first].placement == 1 and changes[first].after > changes[first].before or game.state["winner"] is None


def test_a_team_game_is_rated_as_two_sides_teammates_sharing_their_place_M130():
    game = Game(ruleset="minis", ranking=["lannister", "stark_2", "stark", "lannister_2"],
                state={"multi": {"kind": "teams", "teams": {"stark": "a", "lannister": "b", "stark_2": "a",
                                                            "lannister_2": "b"}}})
    grouped = _ranking_with_ties(game)
    assert grouped == [["lannister", "lannister_2"], ["stark_2", "stark"]]
    assert elo.placements(grouped) == {"lannister": 1, "lannister_2": 1, "stark_2": 3, "stark": 3}


def _corner_stark(user) -> Army:
    """The Stark starter army without Grey Wind (27 points): it fits a free-for-all's 12 in corner."""
    return _saved(user, "list_stark_30", units=rules.starter_armies()["list_stark_30"]["units"][:-1])


def test_a_brought_army_takes_a_free_seat_of_its_house_and_no_other():
    host, second, third = make_user(), make_user(), make_user()
    made = _create(host, seats=3, army=f"army:{_corner_stark(host).pk}")
    assert made.status_code == 201, made.json()
    lobby_id = made.json()["id"]
    assert _join(second, lobby_id, army=f"army:{_corner_stark(second).pk}").json()["members"][1]["seat"] \
        == "stark_2"
    refused = _join(third, lobby_id, army=f"army:{_corner_stark(third).pk}")
    assert refused.status_code == 409 and "Every Stark seat is taken" in refused.json()["detail"], refused.json()
    assert Lobby.objects.get(pk=lobby_id).members.count() == 2


def test_an_army_of_another_size_or_someone_elses_is_refused_in_words():
    host, other = make_user(), make_user()
    made = _create(host, seats=2, options={"game_size": 40})
    lobby_id = made.json()["id"]
    wrong_size = _join(other, lobby_id, army=f"army:{_saved(other, 'list_lannister_30', name='Red').pk}")
    assert wrong_size.status_code == 400
    assert "Red cannot be played: It is an army of 30 points; this game is of 40." in str(wrong_size.json())
    not_mine = _join(other, lobby_id, army=f"army:{_saved(host, 'list_lannister_30').pk}")
    assert not_mine.status_code == 400 and "not one of your saved armies" in str(not_mine.json())


def test_the_seat_asked_for_must_be_of_the_armys_house():
    host = make_user()
    army = _saved(host, "list_lannister_30", name="Red")
    made = _create(host, seats=2, house_choice="pick", seat="stark", army=f"army:{army.pk}")
    assert made.status_code == 400
    assert "Red is an army of Lannister: it cannot take the Stark seat." in str(made.json())


def _mountain_40(user) -> Army:
    """A 40-point Lannister army within the starter box (Gregor commands, the Young Lion rides along)."""
    return _saved(user, "list_lannister_30", name="Mountain", game_size=40, commander="20116",
                  units=[{"unit": "10101", "attachment": "20116"}, {"unit": "10101", "attachment": "20102"},
                         {"unit": "10102", "attachment": "20101"}, {"unit": "10103", "attachment": "20117"}],
                  ncus=["30104", "30105"])


def test_the_lobby_form_takes_the_table_the_size_and_your_saved_army_and_others_join_with_theirs(client):
    host, friend = make_user(), make_user()
    army = _mountain_40(host)
    client.force_login(host)
    page = client.get(reverse("web-lobby-new")).content.decode()
    assert f'<option value="army:{army.pk}" >Mountain (40 points)</option>' in page
    made = client.post(reverse("web-lobby-new"), {
        "ruleset": "minis", "time_limit": "3600", "house_choice": "random", "minis_table": "teams",
        "game_size": "40", "my_army": f"army:{army.pk}", "computer_seats": "2"})
    assert made.status_code == 302, made.content.decode()[:3000]
    lobby = Lobby.objects.get(creator=host)
    assert lobby.seat_count == 4 and lobby.options["multiplayer"] == "teams" and lobby.options["game_size"] == 40
    assert [(m.seat, m.deck) for m in lobby.members.all()] == [("lannister", f"army:{army.pk}")]
    # the lobby's page names the armies: its own to its owner, its house and points to the others
    page = client.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "Mountain (your army)" in page and "two against two" in page and "armies of 40 points" in page
    other = type(client)()
    other.force_login(friend)
    theirs = _saved(friend, "list_stark_30", name="Wolves", game_size=40)
    page = other.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "an army of Lannister (33 points)" in page and "Mountain" not in page
    assert f'<option value="army:{theirs.pk}">Wolves</option>' in page
    joined = other.post(reverse("web-lobby-action", args=[lobby.pk, "join"]), {"army": f"army:{theirs.pk}"})
    assert joined.status_code == 302
    game = Game.objects.get(lobby=lobby)
    assert {s.seat: s.user for s in game.seats.all()} == {"lannister": host, "stark": friend, "stark_2": None,
                                                         "lannister_2": None}
    assert game.state["threshold"] == 10 and game.state["players"]["lannister"]["list"]["commander"] == "20116"


def test_play_two_against_two_against_the_computer_from_the_games_page(client):
    user = make_user()
    client.force_login(user)
    made = client.post(reverse("web-play", args=["minis"]), {"teams": "on", "seat": "stark"})
    assert made.status_code == 302, made.content.decode()[:3000]
    game = Game.objects.get(seats__user=user)
    assert game.state["multi"]["kind"] == "teams" and len(game.state["seats"]) == 4
    assert [s.seat for s in game.seats.all() if s.user is not None] == ["stark"]
    again = client.post(reverse("web-play", args=["minis"]), {"teams": "on", "seats": "2"})  # the tick says four
    assert again.status_code == 302 and len(Game.objects.get(pk=again.url.strip("/").split("/")[-1]).state["seats"]) == 4


def test_a_quick_two_against_two_of_20_points_cuts_the_starter_armies_down_to_the_size_M1_M130():
    host, friend = make_user(), make_user()
    made = _create(host, seats=4, computer_seats=2, options={"multiplayer": "teams", "game_size": 20})
    assert made.status_code == 201, made.json()
    game = Game.objects.get(pk=_join(friend, made.json()["id"]).json()["game"])
    assert game.state["game_size"] == 20 and game.state["threshold"] == data_threshold(20)
    for seat in game.state["seats"]:
        army = {**game.options["armies"][seat], "faction": seat.split("_")[0], "game_size": 20}
        assert rules.is_legal(army) and rules.points(army) <= 20, (seat, army)
        assert army["commander"] in {u.get("attachment") for u in army["units"]}  # the Commander stays (M5)


def data_threshold(size: int) -> int:
    return rules.threshold(size)


def test_a_challenge_takes_the_challengers_army_and_the_accepting_players_at_the_size_agreed(client):
    from challenges.models import Challenge
    from challenges.services import ChallengeRequest, do_create_challenge

    alys, bran = make_user(), make_user()
    mountain = _mountain_40(alys)
    wolves = _saved(bran, "list_stark_30", name="Wolves", game_size=40)
    made = do_create_challenge(alys, ChallengeRequest(ruleset="minis", users=[bran.username], time_limit=3600,
                                                      options={"game_size": 40}, deck=f"army:{mountain.pk}"))
    client.force_login(bran)
    page = client.get(reverse("challenges")).content.decode()
    start = page.index(f'action="/challenges/{made.pk}/accept/"')
    form = page[start:page.index("</form>", start)]
    assert f'<option value="army:{wolves.pk}">Wolves</option>' in form and "Your army" in form
    answered = client.post(reverse("challenge-answer", args=[made.pk, "accept"]), {"army": f"army:{wolves.pk}"})
    assert answered.status_code == 302
    game = Challenge.objects.get(pk=made.pk).game
    assert {s.seat: s.user for s in game.seats.all()} == {"lannister": alys, "stark": bran}
    assert game.state["threshold"] == 10 and game.options["armies"]["lannister"]["commander"] == "20116"
    assert game.options["armies"]["stark"]["units"] == wolves.units


def test_the_challenge_form_takes_the_size_and_your_army(client):
    from challenges.models import Challenge

    alys, bran = make_user(), make_user()
    mountain = _mountain_40(alys)
    client.force_login(alys)
    url = reverse("challenge-new", args=[bran.username])
    page = client.get(url).content.decode()
    assert f'<option value="army:{mountain.pk}" >Mountain (40 points)</option>' in page
    sent = client.post(url, {"ruleset": "minis", "time_limit": "3600", "minis_mode": "here_we_stand",
                             "game_size": "40", "my_army": f"army:{mountain.pk}"})
    assert sent.status_code == 302, sent.content.decode()[-3000:]
    made = Challenge.objects.get(challenger=alys)
    assert made.options["game_size"] == 40 and made.deck == f"army:{mountain.pk}"


def test_play_against_two_computers_each_against_all_from_the_games_page_M131(client):
    user = make_user()
    client.force_login(user)
    made = client.post(reverse("web-play", args=["minis"]), {"seats": "3", "seat": "lannister"})
    assert made.status_code == 302, made.content.decode()[:3000]
    game = Game.objects.get(seats__user=user)
    assert game.state["multi"]["kind"] == "ffa" and len(game.state["seats"]) == 3 and "lannister" in game.state["seats"]
    assert len(set(game.state["multi"]["corners"].values())) == 3  # each in a corner of its own
    assert [s.user for s in game.seats.all() if s.seat == "lannister"] == [user]
    assert sum(1 for s in game.seats.all() if s.user is None) == 2


@pytest.mark.slow_once  # whole games: long; the shorter tests here cover their database paths on both CI passes
def test_a_ranked_two_against_two_of_four_people_is_rated_as_two_sides_M130():
    people = [make_user() for _ in range(4)]
    made = _create(people[0], seats=4, ranked=True, options={"multiplayer": "teams"})
    assert made.status_code == 201, made.json()
    for person in people[1:]:
        joined = _join(person, made.json()["id"])
    game = Game.objects.get(pk=joined.json()["game"])
    assert game.ranked
    _play_to_the_end(game)
    game.refresh_from_db()
    teams = game.state["multi"]["teams"]
    places = {c.seat: c.placement for c in RatingChange.objects.filter(game=game)}
    assert set(places) == set(teams)
    for team in ("a", "b"):  # teammates share their team's place, whichever fell first
        assert len({places[s] for s in teams if teams[s] == team}) == 1
    if game.state["winner"] in ("a", "b"):
        assert {places[s] for s in teams if teams[s] == game.state["winner"]} == {1}
        assert {places[s] for s in teams if teams[s] != game.state["winner"]} == {3}


def test_an_army_too_big_for_a_free_for_alls_corner_is_refused_when_brought_M131():
    host = make_user()
    made = _create(host, seats=3, army=f"army:{_saved(host, 'list_stark_30', name='Winter').pk}")
    assert made.status_code == 400
    assert "Winter does not fit a free-for-all's deployment corner (a 12 inch square)" in str(made.json())
    assert not Lobby.objects.filter(creator=host).exists()
    two = _create(host, seats=4, options={"multiplayer": "teams"}, army=f"army:{_saved(host, 'list_stark_30').pk}")
    assert two.status_code == 201, two.json()  # two against two deploy along their edge: it fits


def test_a_saved_army_too_big_for_a_corner_against_two_computers_is_refused_in_words(client):
    user = make_user()
    army = _saved(user, "list_stark_30", name="Winter")
    client.force_login(user)
    refused = client.post(reverse("web-play", args=["minis"]), {"seats": "3", "my_army": f"army:{army.pk}"})
    assert "Winter does not fit a free-for-all&#x27;s deployment corner" in refused.content.decode()
    assert not Game.objects.exists()


# M130: a character once per team. The default teams (a Stark and a Lannister army each) never share one, the
# starter boxes holding no neutral character; a lobby whose own teams pair the two armies of a house gives its
# seats armies that share none (Greatjon Umber's Starks beside the starter's Robb Stark, Jaime's Lannisters
# beside Gregor's).
GREATJON = {"commander": "20202", "units": [{"unit": "10201", "attachment": "20202"}, {"unit": "10201"},
                                            {"unit": "10202"}, {"unit": "10203", "attachment": "20203"}], "ncus": []}
JAIME = {"commander": "20115", "units": [{"unit": "10101", "attachment": "20115"}, {"unit": "10101",
                                                                                    "attachment": "20102"},
                                         {"unit": "10102", "attachment": "20101"}, {"unit": "10103"}], "ncus": []}
GREGOR = {**JAIME, "commander": "20116", "units": [{"unit": "10101", "attachment": "20116"}, *JAIME["units"][1:]]}
HOUSE_TEAMS = {"multiplayer": "teams", "teams": {"stark": "a", "stark_2": "a", "lannister": "b", "lannister_2": "b"},
               "armies": {"stark_2": GREATJON, "lannister": JAIME, "lannister_2": GREGOR}}


def test_teammates_armies_sharing_a_character_are_refused_when_brought_and_at_the_start_M130():
    host, friend, third = make_user(), make_user(), make_user()
    made = _create(host, seats=4, options=HOUSE_TEAMS, fill_with_computer=True, auto_start=False)
    assert made.status_code == 201, made.json()
    lobby_id = made.json()["id"]
    robb = _saved(friend, "list_stark_30", name="Winterfell")
    # the seat asked for: the starter army of the Stark seat is its teammate and fields Robb Stark too
    asked = _join(friend, lobby_id, army=f"army:{robb.pk}", seat="stark_2")
    assert asked.status_code == 409, asked.json()
    assert asked.json()["detail"] == (
        "Robb Stark, Grey Wind and Catelyn Stark are in two armies of one team, your army Winterfell and the "
        "starter army of the Stark seat: in a team game a character appears once in the whole team, whichever "
        "version of him or her.")
    # no seat asked: the Stark seat whose teammate shares no character (Greatjon Umber's army)
    joined = _join(friend, lobby_id, army=f"army:{robb.pk}")
    assert joined.status_code == 200, joined.json()
    assert {m["user"]: m["seat"] for m in joined.json()["members"]}[friend.username] == "stark"
    # the other Stark seat is now the teammate of a Robb Stark (another version: the same character, M7)
    young_wolf = _saved(third, "list_stark_30", name="Young Wolf", commander="20202",
                        units=[{"unit": "10201", "attachment": "20202"}, {"unit": "10201", "attachment": "20206"},
                               {"unit": "10202"}], ncus=[])
    refused = _join(third, lobby_id, army=f"army:{young_wolf.pk}")
    assert refused.status_code == 409, refused.json()
    assert refused.json()["detail"].startswith(
        f"Robb Stark is in two armies of one team, your army Young Wolf and the army of {friend.username}:")
    assert Lobby.objects.get(pk=lobby_id).members.count() == 2
    # an army edited after it was brought (now Greatjon Umber's, as the other Stark seat's): the start is refused
    # in words and no game is made
    robb.units, robb.commander, robb.ncus = GREATJON["units"], "20202", []
    robb.save()
    started = api_client_for(host).post(reverse("api-lobby-start", args=[lobby_id]), {}, format="json")
    assert started.status_code == 409, started.json()
    assert started.json()["detail"].startswith(
        f"Greatjon Umber is in two armies of one team, the army of {friend.username} and the army of the Stark "
        "(second army) seat:")
    assert not Game.objects.filter(lobby_id=lobby_id).exists()


def test_a_seat_change_making_teammates_share_a_character_is_refused_and_the_page_says_why_in_spanish_M130(client):
    host, friend = make_user(), make_user()
    made = _create(host, seats=4, options=HOUSE_TEAMS, house_choice="assign", auto_start=False)
    assert made.status_code == 201, made.json()
    lobby_id = made.json()["id"]
    robb = _saved(friend, "list_stark_30", name="Winterfell")
    assert _join(friend, lobby_id, army=f"army:{robb.pk}").status_code == 200  # the Stark seat, beside Greatjon
    # moved to the other Stark seat, its teammate would be the Stark seat's starter army: Robb Stark twice
    moved = api_client_for(host).post(reverse("api-lobby-assign", args=[lobby_id]),
                                      {"user": friend.username, "seat": "stark_2"}, format="json")
    assert moved.status_code == 409, moved.json()
    assert moved.json()["detail"].startswith(
        f"Robb Stark, Grey Wind and Catelyn Stark are in two armies of one team, the army of {friend.username} and "
        "the starter army of the Stark seat:")
    assert Lobby.objects.get(pk=lobby_id).members.get(user=friend).seat == "stark"
    # the lobby's page: a third person joining with a Robb Stark army reads the refusal in their language
    third = make_user()
    wolf = _saved(third, "list_stark_30", name="Lobo")
    client.force_login(third)
    client.post(reverse("web-lobby-action", args=[lobby_id, "join"]), {"army": f"army:{wolf.pk}"},
                HTTP_ACCEPT_LANGUAGE="es")
    page = client.get(reverse("web-lobby", args=[lobby_id]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert (f"Robb Stark, Grey Wind y Catelyn Stark están en dos ejércitos de un mismo equipo, tu ejército Lobo y "
            f"el ejército de {friend.username}: en una partida por equipos un Personaje solo puede estar presente una "
            "vez en todo un equipo, sea cual sea su versión.") in page
    assert Lobby.objects.get(pk=lobby_id).members.count() == 2


def _assign(client, lobby: Lobby, user, seat: str):
    return client.post(reverse("web-lobby-action", args=[lobby.pk, "assign"]), {"user": user.username, "seat": seat})


def test_in_an_assign_lobby_a_swap_of_seats_keeps_each_persons_army_with_them(client):
    """The creator gives a seat held by someone who brought an army to another person: the two swap seats, and each
    army follows its owner to the game (the displaced person's army used to be lost: they were left seatless and drawn
    any seat at the start, with its starter army)."""
    host, robb, sansa, arya = make_user(), make_user(), make_user(), make_user()
    wolves = _stark_without_catelyn(host)
    greywind = _saved(robb, "list_stark_30", name="Greywind", ncus=[])   # told from the other by its NCUs
    made = _create(host, seats=4, house_choice="assign", options={"multiplayer": "teams"}, army=f"army:{wolves.pk}")
    assert made.status_code == 201, made.json()
    lobby = Lobby.objects.get(pk=made.json()["id"])
    assert _join(robb, lobby.pk, army=f"army:{greywind.pk}").status_code == 200
    assert _join(sansa, lobby.pk).status_code == 200
    assert {m.user: m.seat for m in lobby.members.all()} == {host: "stark", robb: "stark_2", sansa: ""}
    client.force_login(host)
    assert _assign(client, lobby, robb, "stark").status_code == 302
    assert {m.user: m.seat for m in lobby.members.all()} == {host: "stark_2", robb: "stark", sansa: ""}
    # an army of Stark takes no Lannister seat; the person without an army may take any
    refused = _assign(client, lobby, host, "lannister")
    assert "brings an army of Stark: give them a seat of its house" in client.get(refused.url).content.decode()
    assert lobby.members.get(user=host).seat == "stark_2"
    # the lobby's page says what each seat brings: the army brought, else its house's starter army
    page = client.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "seats: given by the creator (a saved army takes a seat of its house)" in page
    assert "random at the start" not in page
    assert (f"{robb.username} · Stark · brings <span class=\"deck-name\">an army of Stark "
            f"({rules.points(greywind.army())} points)</span>") in page
    assert f"{host.username} · Stark (second army) · brings <span class=\"deck-name\">Mine (your army)</span>" in page
    assert f"{sansa.username} · plays the starter army of the seat they are given" in page
    assert _assign(client, lobby, sansa, "lannister_2").status_code == 302
    page = client.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert f"{sansa.username} · Lannister (second army) · plays the Lannister starter army" in page
    assert _join(arya, lobby.pk).status_code == 200
    started = client.post(reverse("web-lobby-action", args=[lobby.pk, "start"]))
    game = Game.objects.get(lobby=lobby)
    assert started.status_code == 302
    assert {s.seat: s.user for s in game.seats.all()} == {"stark": robb, "stark_2": host, "lannister": arya,
                                                         "lannister_2": sansa}
    assert game.options["armies"]["stark"]["ncus"] == [] and game.options["armies"]["stark_2"]["ncus"] == ["30201"]
    assert game.state["players"]["stark"]["list"]["ncus"] == []
    assert game.state["players"]["stark_2"]["list"]["ncus"] == wolves.ncus == ["30201"]


def test_in_an_assign_lobby_a_person_bringing_an_army_is_never_left_without_a_seat_of_its_house(client):
    """Giving a person without a seat the only seat of a house whose army its holder brought would leave the holder
    no seat of their army's house: refused in words. A seat of their house being free, they move to it."""
    host, sansa, arya = make_user(), make_user(), make_user()
    wolves = _stark_without_catelyn(host)
    client.force_login(host)
    made = _create(host, seats=4, house_choice="assign", options={"multiplayer": "teams"}, army=f"army:{wolves.pk}")
    lobby = Lobby.objects.get(pk=made.json()["id"])
    assert _join(sansa, lobby.pk).status_code == 200
    assert _assign(client, lobby, sansa, "stark").status_code == 302
    assert {m.user: m.seat for m in lobby.members.all()} == {host: "stark_2", sansa: "stark"}
    assert _join(arya, lobby.pk).status_code == 200
    refused = _assign(client, lobby, arya, "stark_2")
    assert ("brings an army of Stark and would have no seat of its house left"
            in client.get(refused.url).content.decode())
    assert {m.user: m.seat for m in lobby.members.all()} == {host: "stark_2", sansa: "stark", arya: ""}


def test_a_seatless_person_who_brought_an_army_is_drawn_a_seat_of_its_house_at_the_start():
    """A lobby left as the old swap left it (a person who brought an army without a seat): at the start they are
    drawn a seat of their army's house, and play their army."""
    from games.services import lobbies

    host, robb, sansa = make_user(), make_user(), make_user()
    red = _saved(robb, "list_lannister_30", name="Red", ncus=[])
    made = _create(host, seats=4, house_choice="assign", options={"multiplayer": "teams"}, computer_seats=1)
    lobby = Lobby.objects.get(pk=made.json()["id"])
    assert _join(robb, lobby.pk, army=f"army:{red.pk}").status_code == 200
    lobby.members.filter(user=robb).update(seat="")
    assert _join(sansa, lobby.pk).status_code == 200   # the last seat: the game starts
    if not Game.objects.filter(lobby=lobby).exists():
        lobbies.do_start(lobby.pk, host)
    game = Game.objects.get(lobby=lobby)
    seat = game.seats.get(user=robb).seat
    assert seat in ("lannister", "lannister_2") and game.options["armies"][seat]["ncus"] == []
    assert game.state["players"][seat]["list"]["ncus"] == []
