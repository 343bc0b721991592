"""The card game's melee on the site (issue 31): a lobby of 3 to 6 card-game seats through the API, each
person bringing a deck; a 4-player melee with two people and two computer players played through the
API to its end (titles chosen in secret and shown once revealed, rules/lcg.md L203); the log in words
says the titles in English and Spanish; a spectator never sees a hand or a title pick; the finished
melee is a multiplayer result ranked by power (ratings/README in docs/ratings.md); replays and
`verify_replay` hold; play against the computer with 3 to 6 seats."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import get_ruleset
from games.engine.base import HIDDEN
from games.engine.lcg import melee
from games.models import Game
from games.services import computer
from games.services.computer import ComputerGame
from games.services.replay import snapshot_matches_log
from tests import platform_helpers as platform
from tests.factories import api_client_for, make_user

LCG = get_ruleset("lcg")
pytestmark = pytest.mark.django_db


def melee_lobby(*, seats: int = 4, computers: int = 2, ranked: bool = False) -> tuple[Game, object, object]:
    """A card-game lobby of `seats` with `computers` computer seats, two people with their decks. (game, a, b)"""
    alys, bran = make_user(), make_user()
    created = api_client_for(alys).post(reverse("api-lobbies"), {
        "ruleset": "lcg", "seats": seats, "time_limit": 3600, "computer_seats": computers, "ranked": ranked,
        "deck": "the_old_ways"}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["seats_free"] == seats - computers - 1
    joined = api_client_for(bran).post(reverse("api-lobby-join", args=[created.json()["id"]]),
                                       {"deck": "secrets_and_schemes"}, format="json")
    assert joined.status_code == 200, joined.json()
    return Game.objects.get(pk=joined.json()["game"]), alys, bran


def game_json(game: Game, user=None) -> dict:
    client = api_client_for(user) if user is not None else Client()
    r = client.get(reverse("api-game", args=[game.pk]))
    assert r.status_code == 200
    return r.json()


def play_people_through_the_api(game: Game, *, on_title=None, limit: int = 3000) -> int:
    """Each person's decision, as the engine's player would take it, sent through the API until the
    game ends (the computer seats answer by themselves). Returns how many actions the people sent."""
    people = {s.seat: s.user for s in game.seats.all() if s.user_id}
    sent = 0
    while sent < limit:
        game.refresh_from_db()
        if not game.is_active():
            return sent
        pending = [s for s in LCG.pending(game.state) if s in people]
        assert pending, "the game waits for nobody"
        seat = pending[0]
        if game.state["decision"]["kind"] == "title" and on_title:
            on_title(game, seat, people[seat])
        action = LCG.bot_action(game.state, seat)
        r = api_client_for(people[seat]).post(reverse("api-game-actions", args=[game.pk]),
                                              {"version": game.version, "action": action}, format="json")
        assert r.status_code == 200, r.json()
        sent += 1
    raise AssertionError("the melee did not end")


def test_the_lobby_api_seats_three_to_six_card_game_players_and_refuses_seven():
    user = make_user()
    for seats in (3, 6):
        r = api_client_for(user).post(reverse("api-lobbies"), {"ruleset": "lcg", "seats": seats, "time_limit": 3600},
                                      format="json")
        assert r.status_code == 201, r.json()
    r = api_client_for(user).post(reverse("api-lobbies"), {"ruleset": "lcg", "seats": 7, "time_limit": 3600},
                                  format="json")
    assert r.status_code == 400 and "seats" in r.json()["fields"]
    assert "2 to 6" in " ".join(r.json()["fields"]["seats"])


def test_a_four_player_melee_with_two_people_and_two_computers_runs_through_the_api_to_its_end(tmp_path):
    game, alys, bran = melee_lobby()
    assert sorted(game.seat_names()) == ["p1", "p2", "p3", "p4"]
    assert sum(s.is_computer() for s in game.seats.all()) == 2 and not game.ranked
    decks = {p["deck_id"] for p in game.state["players"].values()}
    assert {"the_old_ways", "secrets_and_schemes"} <= decks
    seen_picks: list[tuple[str, dict]] = []

    def on_title(game: Game, seat: str, user) -> None:
        """L203: the one choosing sees the titles offered to it; the others and a spectator see no pick."""
        mine = game_json(game, user)
        offer = mine["view"]["melee"]["offer"]
        assert offer and set(offer) <= set(melee.TITLES) and {"title": offer[0]} in mine["legal_actions"]
        other_seat, other = next((s.seat, s.user) for s in game.seats.all() if s.user_id and s.seat != seat)
        for viewer, payload in ((other_seat, game_json(game, other)), (None, game_json(game))):
            m = payload["view"]["melee"]
            assert m["offer"] is None
            assert all(v == "hidden" for s, v in m["picked"].items() if s != viewer), m["picked"]
        seen_picks.append((seat, offer))

    sent = play_people_through_the_api(game, on_title=on_title)
    game.refresh_from_db()
    assert sent > 20 and game.status == Game.Status.FINISHED
    assert seen_picks, "no person chose a title"
    state = game.state
    assert state["over"] and sorted(game.ranking) == ["p1", "p2", "p3", "p4"]
    assert game.ranking == melee.ranking(state)
    assert snapshot_matches_log(game)
    # the titles were revealed and said in words, in English and in Spanish
    english = platform.texts(platform.log(game, api_client_for(alys)))
    assert any(t.startswith("The titles are revealed:") for t in english)
    assert any("chooses a title in secret" in t for t in english)
    spanish_client = api_client_for(alys)
    spanish_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    spanish = platform.texts(platform.log(game, spanish_client))
    assert any(t.startswith("Se revelan los Títulos") for t in spanish), [t for t in spanish if "ítulo" in t][:3]
    # the result says every seat's place; the fairness payload replays to the end (verify_replay)
    result = game_json(game, alys)["result"]
    assert result and [row["seat"] for row in sorted(result["places"], key=lambda r: r["place"])] == game.ranking
    assert all("power" in (row["score"] or "") for row in result["places"]), result["places"]
    assert result["headline"]
    platform.verified_fairness_payload(game, tmp_path)


def test_a_spectator_of_a_melee_sees_no_hand_no_deck_and_no_title_pick():
    game, alys, bran = melee_lobby()
    seen = 0
    people = {s.seat: s.user for s in game.seats.all() if s.user_id}
    while game.is_active() and seen < 2:
        game.refresh_from_db()
        if game.state.get("melee", {}).get("picked"):  # a pick made, the others still choosing
            spectator = game_json(game)["view"]
            assert set(spectator["melee"]["picked"].values()) == {"hidden"}
            for seat in game.seat_names():
                p = spectator["players"][seat]
                assert all(c == HIDDEN for c in p["hand"]) or not p["hand"]
                assert not isinstance(p["deck"], list) or all(c == HIDDEN for c in p["deck"])
            seen += 1
        pending = [s for s in LCG.pending(game.state) if s in people]
        seat = pending[0]
        r = api_client_for(people[seat]).post(reverse("api-game-actions", args=[game.pk]), {
            "version": game.version, "action": LCG.bot_action(game.state, seat)}, format="json")
        assert r.status_code == 200
    assert seen, "no title pick was ever waiting for the others"


def test_a_ranked_melee_of_people_is_rated_as_a_multiplayer_result_ranked_by_power():
    """docs/ratings.md: the engine's ranking (the winner, then by power) is the placement of each seat."""
    from ratings.models import RatingChange

    users = [make_user() for _ in range(3)]
    created = api_client_for(users[0]).post(reverse("api-lobbies"), {
        "ruleset": "lcg", "seats": 3, "time_limit": 600, "ranked": True}, format="json")
    assert created.status_code == 201, created.json()
    for user in users[1:]:
        joined = api_client_for(user).post(reverse("api-lobby-join", args=[created.json()["id"]]), {}, format="json")
        assert joined.status_code == 200, joined.json()
    game = Game.objects.get(pk=joined.json()["game"])
    assert game.ranked and len(game.seat_names()) == 3
    play_people_through_the_api(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert len(changes) == 3
    by_seat = {s.seat: changes[s.user_id] for s in game.seats.all()}
    places = [by_seat[s].placement for s in game.ranking]
    assert places == sorted(places) and places[0] == 1
    assert by_seat[game.ranking[0]].after > by_seat[game.ranking[0]].before
    assert by_seat[game.ranking[-1]].after < by_seat[game.ranking[-1]].before


@pytest.mark.parametrize("seats", [3, 6])
def test_play_against_the_computer_with_three_to_six_card_game_seats(seats):
    user = make_user()
    game = computer.do_play_computer(user, ComputerGame("lcg", seats=seats, deck="baratheon_fealty_the_one_true_king"))
    assert len(game.seat_names()) == seats and "melee" in game.state
    mine = next(s for s in game.seats.all() if s.user_id == user.pk)
    assert game.state["players"][mine.seat]["deck_id"] == "baratheon_fealty_the_one_true_king"
    assert sum(s.is_computer() for s in game.seats.all()) == seats - 1 and not game.ranked


def test_a_card_game_challenge_of_three_starts_a_melee_with_each_players_deck():
    arya, brienne, cersei = make_user(), make_user(), make_user()
    sent = api_client_for(arya).post("/api/v1/challenges", {
        "ruleset": "lcg", "users": [brienne.username, cersei.username], "time_limit": 3600,
        "deck": "the_old_ways"}, format="json")
    assert sent.status_code == 201, sent.json()
    cid = sent.json()["id"]
    assert api_client_for(brienne).post(f"/api/v1/challenges/{cid}/accept", {"deck": "at_the_wall"},
                                        format="json").status_code == 200
    assert api_client_for(cersei).post(f"/api/v1/challenges/{cid}/accept", {}, format="json").status_code == 200
    game = Game.objects.get()
    assert len(game.seat_names()) == 3 and "melee" in game.state
    decks = {s.user_id: game.state["players"][s.seat]["deck_id"] for s in game.seats.all()}
    assert decks[arya.pk] == "the_old_ways" and decks[brienne.pk] == "at_the_wall"


def test_the_new_lobby_form_makes_a_melee_lobby_and_refuses_assigned_decks_in_a_melee():
    from games.models import Lobby

    user = make_user()
    client = Client()
    client.force_login(user)
    base = {"ruleset": "lcg", "time_limit": "3600", "deck_choice": "pick", "my_deck": "the_old_ways",
            "seats": "3"}  # the other games' Players field, hidden and not read for the card game
    r = client.post("/lobbies/new/", {**base, "lcg_seats": "5", "computer_seats": "2"})
    assert r.status_code == 302, r.content.decode()[:2000]
    lobby = Lobby.objects.get()
    assert lobby.seat_count == 5 and lobby.computer_seats == 2
    r = client.post("/lobbies/new/", {**base, "seats": "", "deck_choice": "pick"})
    assert r.status_code == 302 and Lobby.objects.order_by("-id").first().seat_count == 2  # a joust by default
    r = client.post("/lobbies/new/", {**base, "lcg_seats": "4", "deck_choice": "assign", "their_deck": "at_the_wall"})
    assert r.status_code == 200 and "In a melee each player picks their own deck" in r.content.decode()
    page = client.get("/lobbies/new/?ruleset=lcg").content.decode()
    assert "4 players (a melee with titles)" in page and "2 players (a joust)" in page


def test_the_play_now_page_starts_a_melee_against_the_computer_with_the_computers_deck():
    user = make_user()
    client = Client()
    client.force_login(user)
    page = client.get("/play/lcg/").content.decode()
    assert "Players (2 to 6, you included)" in page
    r = client.post("/play/lcg/", {"seats": "4", "my_deck": "the_old_ways", "their_deck": "at_the_wall"})
    assert r.status_code == 302, r.content.decode()[:1500]
    game = Game.objects.get()
    assert len(game.seat_names()) == 4
    decks = sorted(p["deck_id"] for p in game.state["players"].values())
    assert decks == ["at_the_wall"] * 3 + ["the_old_ways"]


def test_a_melees_places_share_equal_power_after_the_winner_and_rate_as_a_tie():
    """docs/ratings.md "The card game's melee": the winner alone first; seats still in with equal power tie."""
    from ratings import elo

    state = LCG.new_game(LCG.seat_names(4), {"every_window": False}, 31)
    while not state["over"]:
        seat = sorted(LCG.pending(state))[0]
        state, _ = LCG.apply(state, seat, LCG.bot_action(state, seat))
    places = LCG.placements(state)
    order = LCG.ranking(state)
    assert places[order[0]] == 1 and list(places.values()).count(1) == 1
    assert [places[s] for s in order] == sorted(places[s] for s in order)
    # two seats after the winner, still in, brought to the same power: they share a place
    from games.engine.lcg import table

    rest = [s for s in order[1:] if s not in state["melee"]["out"]][:2]
    assert len(rest) == 2, state["melee"]["out"]
    a, b = rest
    state["players"][b]["faction_power"] += table.power_total(state, a) - table.power_total(state, b)
    places = LCG.placements(state)
    assert places[a] == places[b] == 2
    changes = elo.rating_changes({s: elo.Standing() for s in state["seats"]}, places)
    assert abs(changes[a] - changes[b]) < 1e-9
    assert LCG.placements(LCG.new_game(["p1", "p2"], {}, 1)) is None  # a joust in progress: none


def test_a_melee_lobby_game_is_played_to_its_end_by_deadlines_alone_with_the_timeout_defaults():
    """Every decision of a 3-player melee (titles, redirects, claims included) resolved by its timeout default
    (rules/lcg.md §5.3) through the deadline sweep; each pending seat has a deadline, the others none."""
    users = [make_user() for _ in range(3)]
    created = api_client_for(users[0]).post(reverse("api-lobbies"), {
        "ruleset": "lcg", "seats": 3, "time_limit": 600, "max_consecutive_timeouts": 0}, format="json")
    assert created.status_code == 201, created.json()
    for user in users[1:]:
        joined = api_client_for(user).post(reverse("api-lobby-join", args=[created.json()["id"]]), {}, format="json")
    game = Game.objects.get(pk=joined.json()["game"])
    platform.play_by_deadlines(game, checks=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and len(game.ranking) == 3
    kinds = {r.action and next(iter(r.action)) for r in game.actions.all()}
    assert "title" in kinds and {r.source for r in game.actions.all()} == {"timeout"}
    assert snapshot_matches_log(game)


def test_the_challenge_page_sends_a_card_game_melee_challenge_to_the_players_named():
    from challenges.models import Challenge

    arya, brienne, cersei = make_user(), make_user(), make_user()
    client = Client()
    client.force_login(arya)
    page = client.get(f"/challenges/new/{brienne.username}/").content.decode()
    assert "3 players (a melee with titles)" in page and 'name="lcg_seats"' in page
    body = {"ruleset": "lcg", "time_limit": "3600", "seats": "3", "lcg_seats": "3", "others": cersei.username,
            "my_deck": "the_old_ways"}
    r = client.post(f"/challenges/new/{brienne.username}/", body)
    assert r.status_code == 302, r.content.decode()[:2000]
    challenge = Challenge.objects.get()
    assert sorted(i.user.username for i in challenge.invites.all()) == sorted([brienne.username, cersei.username])
    # naming too few for the players chosen is refused in words
    r = client.post(f"/challenges/new/{brienne.username}/", {**body, "lcg_seats": "4"})
    assert r.status_code == 400 and "you chose 4 players, so name 3 players" in r.content.decode()
