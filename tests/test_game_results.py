"""The result of a game in words (issue 26, games/results.py): the payload's `result` for a finished
game of each ruleset, an abandoned game, a conceded seat, a substitute, ratings before and after,
the rematch link, a constant number of queries; and the pages listing results (the public profile,
the home page, a tournament table) saying "X (left in round N; the computer played on)".

Games are played to their end by the engine's players: computer seats play themselves, and each
person's seat sends what the engine's player would choose (`play_out`). Where only a finished game's
result matters (ratings, unrated, query counts, who left and when), the game starts near its end
(`near_the_end`); each ruleset's own end is played out whole in the tests of "each ruleset's end"."""
from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engine import get_ruleset
from games.models import Game, GameSeat
from games.queries import game_payload, get_visible_game
from games.services.play import do_concede, do_create_game, do_submit_action
from games.services.substitutes import do_take_seat
from ratings.models import RatingChange
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db

SEATS = {"agot": 3, "btwixt": 3, "lcg": 2, "minis": 2}
MAX_ACTIONS = 3000


def new_game(ruleset: str, people: int, *, seats: int | None = None, ranked: bool = False, seed: int = 7):
    """A game of `ruleset` with `people` fresh users in the first seats and the computer in the rest."""
    names = get_ruleset(ruleset).seat_names(seats or SEATS[ruleset])
    users = [make_user() for _ in range(people)]
    seating = {seat: (users[i] if i < people else None) for i, seat in enumerate(names)}
    return do_create_game(ruleset=ruleset, seating=seating, ranked=ranked, seed=seed), users


def play_out(game: Game, *, until=None) -> Game:
    """Every person's seat plays the engine's choice until the game is over (or `until(state)`)."""
    engine = get_ruleset(game.ruleset)
    for _ in range(MAX_ACTIONS):
        game.refresh_from_db()
        if not game.is_active() or (until is not None and until(game.state)):
            return game
        people = {s.seat: s.user for s in game.seats.select_related("user") if s.user and not s.is_bot}
        seat = next(s for s in engine.pending(game.state) if s in people)
        do_submit_action(game.pk, people[seat], action=engine.bot_action(game.state, seat), version=game.version)
    raise AssertionError(f"{game.ruleset} game {game.pk} did not end in {MAX_ACTIONS} actions")


# Where the game's end is near (SCENARIOS.md setups): a card game one power short of fifteen, a board
# game two rounds from its end; the result is what the tests of a finished game read, and a dealt game
# takes the engine's players hundreds of decisions to end.
NEAR_THE_END = {
    "lcg": ({"first_player": "p1", "round": 1, "players": {
        "p1": {"decklist": "the_old_ways", "faction_power": 14},
        "p2": {"decklist": "secrets_and_schemes", "faction_power": 14}}}, "plot"),
    "agot": ({"round": 9}, "planning"),
}
LAST_ROUND = 10  # a board game's: a seat left in it has had a round to play first, as in round 2 of a dealt game


def near_the_end(game: Game) -> Game:
    """`game` (just created) put where NEAR_THE_END says for its ruleset."""
    setup, start = NEAR_THE_END[game.ruleset]
    game.state = get_ruleset(game.ruleset).scenario_game(game.seat_names(), dict(game.options or {}), game.seed,
                                                         setup, start)
    game.save(update_fields=["state"])
    return game


def result_of(game: Game, viewer=None) -> dict:
    return game_payload(get_visible_game(viewer, game.pk), viewer)["result"]


def place_of(result: dict, seat: str) -> dict:
    return next(p for p in result["places"] if p["seat"] == seat)


# --------------------------------------------------------------------------- each ruleset's end


def test_an_active_game_has_no_result():
    game, (alys,) = new_game("agot", 1)
    assert game.is_active()
    assert result_of(game, alys) is None


def test_board_game_castles_decide():
    """R37b / R40: the winner is first on the Victory track (castles and strongholds)."""
    game, (alys,) = new_game("agot", 1)
    game = play_out(game)
    state, result = game.state, result_of(game, alys)
    assert result["status"] == "finished" and result["rated"] is False
    winner = state["ranking"][0]
    first = result["places"][0]
    assert (first["seat"], first["place"], first["winner"]) == (winner, 1, True)
    assert first["seat_name"] == winner.capitalize()
    castles = state["victory"][winner]
    assert first["score"] == f"{castles} castle{'s' if castles != 1 else ''}"
    assert [p["seat"] for p in result["places"]] == state["ranking"]
    assert [p["winner"] for p in result["places"]] == [True, False, False]
    when = f"in round {state['round']}" if castles >= 7 else f"after round {state['round']}"
    name = alys.username if winner == "stark" else winner.capitalize()
    assert result["headline"].startswith(f"{name} won with {castles} castle")
    assert when in result["headline"]
    stark = place_of(result, "stark")
    assert (stark["player"], stark["who"], stark["computer"]) == (alys.username, alys.username, False)
    for seat in ("lannister", "baratheon"):
        assert (place_of(result, seat)["who"], place_of(result, seat)["computer"]) == ("The computer", True)
        assert place_of(result, seat)["player"] is None
    assert result["replay_url"] == f"/games/{game.pk}/replay"


def test_btwixt_weaker_council_decides():
    """B53-B56: the highest weaker council wins; ties go to the other council, then allies, then share."""
    game, (alys,) = new_game("btwixt", 1)
    game = play_out(game)
    state, result = game.state, result_of(game, alys)
    score = state["score"]
    for row in result["places"]:
        assert row["score"] == f"{score[row['seat']]['lesser']} power in the weaker council"
        assert row["winner"] == (row["seat"] in state["winners"])
    assert result["places"][0]["seat_name"] in result["headline"] or alys.username in result["headline"]
    assert "power in the weaker council" in result["headline"]
    assert "p1" not in result["headline"] and "cersei" not in result["headline"]
    assert place_of(result, "cersei")["seat_name"] == "Cersei Lannister"


def test_card_game_power_or_an_empty_deck_decides():
    """L229: 15 power wins; L231-L232: an empty draw deck eliminates. Seats named by faction."""
    game, (alys,) = new_game("lcg", 1)
    game = play_out(game)
    state, result = game.state, result_of(game, alys)
    first = result["places"][0]
    assert first["seat"] == state["winner"] and first["winner"] is True
    assert re.fullmatch(r"\d+ power", first["score"])
    assert re.search(r"won (with \d+ power|: .+ ran out of cards to draw)\.$", result["headline"]), result["headline"]
    if "with" in result["headline"]:
        assert int(first["score"].split()[0]) >= 15
    faction = state["players"]["p1"]["faction"]
    assert place_of(result, "p1")["seat_name"].lower().replace("the ", "").replace("'", "").replace(" ", "") \
        == faction
    assert "{" not in result["headline"] and "p2" not in result["headline"]


def test_miniatures_victory_points_decide():
    """M125-M128: victory points, then army points left, a draw, or an army wiped out."""
    game, (alys,) = new_game("minis", 1)
    game = play_out(game)
    state, result = game.state, result_of(game, alys)
    vp = state["vp"]
    for row in result["places"]:
        n = vp[row["seat"]]
        assert row["score"] == f"{n} victory point{'s' if n != 1 else ''}"
    expected = {"vp": r"won on victory points, \d+ to \d+\.", "points": r"won on army points left",
                "elimination": r"has no combat unit left", "draw": r"^A draw"}[state["result"]]
    assert re.search(expected, result["headline"]), result["headline"]
    if state["winner"] == "lannister":
        assert result["headline"].startswith("Lannister won")
    if state["result"] == "vp" and state["winner"]:
        other = "stark" if state["winner"] == "lannister" else "lannister"
        assert f"{vp[state['winner']]} to {vp[other]}" in result["headline"]


# --------------------------------------------------------------------------- leaving, abandoning, substitutes


def test_everyone_leaving_abandons_the_game():
    game, users = new_game("agot", 3)
    for user in users:
        do_concede(game.pk, user)
    game.refresh_from_db()
    result = result_of(game, users[0])
    assert result["status"] == "abandoned"
    assert result["headline"] == "Everyone left: the game was abandoned."
    assert not any(p["winner"] for p in result["places"])
    assert all(p["who"] == f"{p['player']} (left in round 1; the computer played on)" for p in result["places"])


def test_the_only_person_conceding_against_the_computer():
    game, (alys,) = new_game("minis", 1)
    do_concede(game.pk, alys)
    game.refresh_from_db()
    result = result_of(game, alys)
    assert result["status"] == "abandoned"
    assert result["headline"] == f"{alys.username} left before round 1: the game was abandoned."  # round 0: deployment
    assert place_of(result, "lannister")["who"] == "The computer"
    # the computer never left: it ranks ahead of the person who did (the game is unrated)
    assert place_of(result, "lannister")["place"] == 1 and place_of(result, "stark")["place"] == 2


def test_a_conceded_seat_says_the_round_and_that_the_computer_played_on():
    game, (alys, bran, cat) = new_game("agot", 3)
    game = play_out(near_the_end(game), until=lambda state: state["round"] >= LAST_ROUND)
    do_concede(game.pk, alys)
    game = play_out(game)
    result = result_of(game, bran)
    stark = place_of(result, "stark")
    assert stark["who"] == f"{alys.username} (left in round {LAST_ROUND}; the computer played on)"
    assert stark["player"] == alys.username and stark["computer"] is False
    assert place_of(result, "lannister")["who"] == bran.username
    # the headline names a seat the computer finished as the seat, never as its leaver
    assert alys.username not in result["headline"]


def test_a_substitute_took_over_from_the_leaver():
    game, (alys, bran, cat) = new_game("agot", 3)
    game = play_out(near_the_end(game), until=lambda state: state["round"] >= LAST_ROUND)
    do_concede(game.pk, alys)
    dany = make_user()
    do_take_seat(game.pk, "stark", dany)
    game = play_out(game)
    result = result_of(game, dany)
    stark = place_of(result, "stark")
    assert stark["who"] == f"{dany.username} (took over from {alys.username} in round {LAST_ROUND})"
    assert stark["player"] == dany.username
    # the leaver also played this game: a rematch is theirs to ask for too
    assert result_of(game, alys)["rematch_url"] == f"/games/{game.pk}/rematch"


# --------------------------------------------------------------------------- ratings and rematch


def test_a_ranked_two_person_game_shows_ratings_before_and_after():
    game, (alys, bran) = new_game("lcg", 2, ranked=True)
    game = play_out(near_the_end(game))
    result = result_of(game, alys)
    assert result["rated"] is True
    changes = {c.seat: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {"p1", "p2"}
    for row in result["places"]:
        change = changes[row["seat"]]
        assert (row["rating_before"], row["rating_after"]) == (round(change.before), round(change.after))
        assert isinstance(row["rating_before"], int) and isinstance(row["rating_after"], int)
    winner, loser = result["places"]
    assert winner["rating_before"] == loser["rating_before"] == 1500
    assert winner["rating_after"] > 1500 > loser["rating_after"]


def test_an_unrated_game_shows_no_ratings():
    game, (alys, bran) = new_game("lcg", 2, ranked=False)
    game = play_out(near_the_end(game))
    result = result_of(game, alys)
    assert result["rated"] is False
    assert all(p["rating_before"] is None and p["rating_after"] is None for p in result["places"])


def test_the_rematch_link_is_for_players_only():
    game, (alys,) = new_game("minis", 1)
    game = play_out(game)
    assert result_of(game, alys)["rematch_url"] == f"/games/{game.pk}/rematch"
    assert result_of(game, make_user())["rematch_url"] is None
    assert result_of(game, None)["rematch_url"] is None
    answer = api_client_for(make_user()).get(reverse("api-game", args=[game.pk]))
    assert answer.status_code == 200
    assert answer.json()["result"]["rematch_url"] is None and answer.json()["result"]["headline"]


def test_game_payload_queries_do_not_grow_with_the_seats():
    small, (a, b) = new_game("lcg", 2, ranked=True)
    big, people = new_game("agot", 6, seats=6, ranked=True)
    small, big = play_out(near_the_end(small)), play_out(near_the_end(big))
    counts = []
    for game, viewer in ((small, a), (big, people[0])):
        loaded = get_visible_game(viewer, game.pk)
        with CaptureQueriesContext(connection) as queries:
            result = game_payload(loaded, viewer)["result"]
        assert len(result["places"]) == len(loaded.seats.all())
        assert all(p["rating_after"] is not None for p in result["places"])
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


# --------------------------------------------------------------------------- pages listing results


def _left_game() -> tuple[Game, object]:
    """A finished public board game where the first player conceded in the last round."""
    game, (alys, _bran, _cat) = new_game("agot", 3)
    game = play_out(near_the_end(game), until=lambda state: state["round"] >= LAST_ROUND)
    do_concede(game.pk, alys)
    return play_out(game), alys


def test_the_profile_says_who_played_a_seat_left_to_the_computer():
    game, alys = _left_game()
    page = Client().get(reverse("public-profile", args=[alys.username]))
    assert page.status_code == 200
    text = page.content.decode()
    assert f"{alys.username} (left in round {LAST_ROUND}; the computer played on)" in text


def test_the_profile_of_a_leaver_whose_seat_was_taken_over():
    game, (alys, _bran, _cat) = new_game("agot", 3)
    game = play_out(near_the_end(game), until=lambda state: state["round"] >= LAST_ROUND)
    do_concede(game.pk, alys)
    dany = make_user()
    do_take_seat(game.pk, "stark", dany)
    game = play_out(game)
    text = Client().get(reverse("public-profile", args=[alys.username])).content.decode()
    assert f"{alys.username} (left in round {LAST_ROUND}; {dany.username} took over)" in text
    text = Client().get(reverse("public-profile", args=[dany.username])).content.decode()
    assert f"{dany.username} (took over from {alys.username} in round {LAST_ROUND})" in text


def test_the_home_page_recent_results_say_who_played_a_seat():
    game, alys = _left_game()
    text = Client().get("/").content.decode()
    section = text[text.index("Recent results"):]
    assert f"Stark: {alys.username} (left in round {LAST_ROUND}; the computer played on)" in section
    others = [s.user.username for s in game.seats.select_related("user") if s.seat != "stark"]
    assert all(f": {name}" in section for name in others)
    assert "(bot)" not in section


def test_who_played_is_the_same_words_everywhere():
    game, alys = _left_game()
    seat = GameSeat.objects.select_related("user").get(game=game, seat="stark")
    from games.results import seat_players

    words = seat_players(Game.objects.prefetch_related("seats__user").get(pk=game.pk))["stark"]
    assert words == place_of(result_of(game, alys), "stark")["who"]
    assert words == f"{seat.user.username} (left in round {LAST_ROUND}; the computer played on)"


def test_a_tournament_table_says_who_left_and_that_the_computer_played_on():
    from tournaments import services
    from tournaments.models import Table

    organizer = make_user()
    t = services.do_create_tournament(organizer, services.TournamentSettings(
        name="Results in words", ruleset="agot", seats_per_table=3, rounds=1))
    players = [make_user() for _ in range(3)]
    for user in players:
        services.do_register(t.pk, user)
    services.do_start(t.pk, organizer)
    table = Table.objects.get(round__tournament=t)
    game = play_out(near_the_end(table.game), until=lambda state: state["round"] >= LAST_ROUND)
    leaver = game.seats.select_related("user").get(position=0)
    do_concede(game.pk, leaver.user)
    play_out(game)
    table.refresh_from_db()
    assert table.status != Table.Status.PLAYING
    page = Client().get(reverse("tournament", args=[t.pk])).content.decode()
    assert f"{leaver.user.username} (left in round {LAST_ROUND}; the computer played on)" in page
    assert "(abandoned)" not in page
