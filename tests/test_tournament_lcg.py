"""Swiss events of two-seat tables for the card game (issue 17, "Tournaments"): pairs by standing,
no rematch while a fresh pairing exists, byes for an odd field (the lowest standing without a bye
yet, scored as tournaments/README.md says: the points of the middle place of a full table, which
at two seats are a win's points, and no win), rounds advancing as the games end, the simulation."""
from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engine import get_ruleset
from games.models import Game, GameSeat
from ratings.models import RatingChange
from tests.factories import api_client_for, make_user
from tests.platform_helpers import finish_by_deadlines, organize_event, pairs, round_tables, start_event
from tournaments import pairing as P
from tournaments.models import Round, Table, TableSeat, Tournament

LCG = get_ruleset("lcg")


def seats_for(n: int) -> list[str]:
    return LCG.seat_names(n)


def play_swiss(players: int, rounds: int, seed: int) -> tuple[P.History, list[list[P.Table]], list[tuple]]:
    """A Swiss event of pairs with random results: (history, tables per round, byes per round with
    the standing they were given from)."""
    rnd = random.Random(seed)
    field = list(range(players))
    history = P.History()
    points = dict.fromkeys(field, 0.0)
    wins = dict.fromkeys(field, 0)
    paired, byes = [], []
    for number in range(1, rounds + 1):
        standing = sorted(field, key=lambda p: (-points[p], -wins[p], p))
        pairing = P.swiss_round(standing, size=2, min_size=2, history=history, houses_for=seats_for,
                                seed=seed * 100 + number, first_round=number == 1)
        for table in pairing.tables:
            history.add_table(table.players, table.houses)
            winner = rnd.choice(table.players)
            points[winner] += 1
            wins[winner] += 1
        for player in pairing.byes:
            history.add_bye(player)
            points[player] += P.bye_points("placement", 2)
        paired.append(list(pairing.tables))
        byes.append((pairing.byes, standing, dict(history.byes)))
    return history, paired, byes


@pytest.mark.parametrize(("players", "rounds"), [(4, 2), (6, 3), (8, 4), (9, 4), (10, 5), (12, 6), (16, 5), (16, 8)])
def test_pairs_never_meet_twice_while_a_fresh_pairing_exists(players, rounds):
    # Before round r everyone has met r - 1 players; with r <= n / 2 a pairing of players who have
    # not met always exists (Dirac), so none may repeat.
    for seed in range(6):
        history, paired, _ = play_swiss(players, rounds, seed)
        assert P.repeat_meetings(history) == 0, (players, rounds, seed)
        for tables in paired:
            assert all(len(t.players) == 2 and sorted(t.houses) == ["p1", "p2"] for t in tables)


def test_pairs_are_paired_by_standing():
    """Swiss: after round 1 a player meets someone close in the standings (the standing places of
    the two players of a table are on average little more than one apart)."""
    distances = []
    for seed in range(5):
        rnd = random.Random(seed)
        history, points = P.History(), dict.fromkeys(range(16), 0)
        for number in range(1, 5):
            standing = sorted(points, key=lambda p: (-points[p], p))
            place = {p: i for i, p in enumerate(standing)}
            pairing = P.swiss_round(standing, size=2, min_size=2, history=history, houses_for=seats_for,
                                    seed=seed * 100 + number, first_round=number == 1)
            for table in pairing.tables:
                history.add_table(table.players, table.houses)
                points[rnd.choice(table.players)] += 1
                if number > 1:
                    distances.append(abs(place[table.players[0]] - place[table.players[1]]))
    assert sum(distances) / len(distances) <= 1.5, sorted(distances)


def test_an_odd_field_gets_one_bye_a_round_for_the_lowest_standing_without_one():
    for seed in range(4):
        history, paired, byes = play_swiss(7, 5, seed)
        had = set()
        for (bye, standing, _), tables in zip(byes, paired, strict=True):
            assert len(bye) == 1 and len(tables) == 3
            (player,) = bye
            assert player not in had and player not in {p for t in tables for p in t.players}
            # nobody below the bye in the standings was still without one
            below = standing[standing.index(player) + 1:]
            assert all(p in had for p in below), (seed, player, below, had)
            had.add(player)
        assert len(had) == 5 and P.repeat_meetings(history) == 0


def test_a_bye_at_two_seats_scores_a_wins_points_and_no_win():
    assert P.full_points(2) == [1.0, 0.0]
    assert P.bye_points("placement", 2) == 1.0  # points[(2 - 1) // 2]: the middle place rounds to the first
    lines = P.standings(["a", "b", "c"], [P.GameRecord((P.Seat("a", 1), P.Seat("b", 2)))],
                        scoring="placement", full_size=2, byes=["c"])
    by_player = {line.player: line for line in lines}
    assert (by_player["c"].points, by_player["c"].wins, by_player["c"].games, by_player["c"].byes) == (1.0, 0, 0, 1)
    assert [line.player for line in lines] == ["a", "c", "b"]  # tied on points: the win first


# --------------------------------------------------------------------------- through the API


@pytest.mark.django_db
def test_a_swiss_event_of_lcg_pairs_runs_through_the_api_with_byes_and_rounds_advancing():
    organizer = make_user()
    org = api_client_for(organizer)
    tid = start_event(org, "lcg", 5, name="Card game cup", rounds=2, time_limit=600, ranked=True,
                      max_consecutive_timeouts=0, max_no_shows=0)

    first = round_tables(tid, 1)
    rounds = org.get(f"/api/v1/tournaments/{tid}/rounds").json()
    assert len(first) == 2 and len(rounds[0]["byes"]) == 1
    for table in first:
        game = table.game
        assert game.ruleset == "lcg" and game.ranked and game.time_limit == 600
        # the site's only way; the players' action windows are their accounts' (games/services/play.py)
        assert set(game.options) == {"action_windows"} and game.state["options"]["every_window"] is True
        assert sorted(s.seat for s in table.seats.all()) == ["p1", "p2"]
        assert {(s.seat, s.user) for s in GameSeat.objects.filter(game=game)} == \
               {(s.seat, s.registration.user) for s in table.seats.all()}
    bye_one = rounds[0]["byes"][0]
    assert bye_one not in {name for pair in pairs(first) for name in pair}

    # Round 1's games end by their deadlines; the second round starts on its own once both are over.
    finish_by_deadlines(first[0].game)
    assert Tournament.objects.get(pk=tid).current_round == 1
    finish_by_deadlines(first[1].game)
    t = Tournament.objects.get(pk=tid)
    assert t.current_round == 2 and Round.objects.get(tournament=t, number=1).status == Round.Status.FINISHED
    for table in round_tables(tid, 1):
        winner = table.game.ranking[0]
        assert {s.seat: s.points for s in table.seats.all()} == {winner: 1.0, next(x for x in ("p1", "p2") if x != winner): 0.0}
        assert RatingChange.objects.filter(game=table.game, ruleset="lcg").count() == 2

    standings = {row["user"]: row for row in org.get(f"/api/v1/tournaments/{tid}/standings").json()}
    assert standings[bye_one]["points"] == 1.0 and standings[bye_one]["wins"] == 0 and standings[bye_one]["byes"] == 1

    second = round_tables(tid, 2)
    rounds = org.get(f"/api/v1/tournaments/{tid}/rounds").json()
    bye_two = rounds[1]["byes"][0]
    assert len(second) == 2 and bye_two != bye_one
    assert not pairs(second) & pairs(first)  # no rematch
    # Seats (which carry the decks of the event's options) alternate: a player plays the seat they
    # have not played yet, unless both players of the table played the same one.
    before = {s.registration.user.username: s.seat for table in first for s in table.seats.all()}
    for table in second:
        now = {s.registration.user.username: s.seat for s in table.seats.all()}
        repeats = sum(before.get(name) == seat for name, seat in now.items())
        played = [before[name] for name in now if name in before]
        assert repeats == (1 if len(played) == 2 and played[0] == played[1] else 0), (before, now)

    # The organizer adjudicates round 2 (the first seat listed wins); the event ends after it.
    for table in second:
        url = f"/api/v1/tournaments/{tid}/tables/{table.pk}/adjudicate"
        assert org.post(url, {"ranking": ["p2", "p1"]}, format="json").status_code == 200
    t = Tournament.objects.get(pk=tid)
    assert t.status == Tournament.Status.FINISHED
    final = org.get(f"/api/v1/tournaments/{tid}/standings").json()
    assert len(final) == 5 and sum(row["byes"] for row in final) == 2
    assert sum(row["points"] for row in final) == 4 + 2  # four games won, two byes


@pytest.mark.django_db
def test_simulate_tournament_runs_an_lcg_event_of_pairs():
    out = StringIO()
    call_command("simulate_tournament", "--ruleset", "lcg", "--players", "5", "--rounds", "3", "--seed", "4",
                 stdout=out)
    text = out.getvalue()
    t = Tournament.objects.get(ruleset="lcg")
    assert t.status == Tournament.Status.FINISHED and t.seats_per_table == 2
    tables = Table.objects.filter(round__tournament=t)
    assert tables.count() == 6 and all(table.game.ruleset == "lcg" and table.game.status == "finished"
                                        for table in tables.select_related("game"))
    assert f"Tournament #{t.pk}" in text and "finished, 3 rounds, 6 games" in text
    lines = [line for line in text.splitlines() if line.strip().split(" ")[0].isdigit()]
    assert len(lines) == 5 and sum(int(line.split()[-1]) for line in lines) == 3  # one bye a round
    with pytest.raises(CommandError, match="seats_per_table: A Game of Thrones: The Card Game is played by 2 to 6 players"):
        call_command("simulate_tournament", "--ruleset", "lcg", "--seats", "7", stdout=StringIO())
    with pytest.raises(CommandError, match="Unknown ruleset"):
        call_command("simulate_tournament", "--ruleset", "chess", stdout=StringIO())


@pytest.mark.django_db
def test_ending_the_event_adjudicates_an_lcg_table_by_power():
    organizer = make_user()
    org = api_client_for(organizer)
    tid = org.post("/api/v1/tournaments", {"name": "Short cup", "ruleset": "lcg", "rounds": 1, "seats_per_table": 2,
                                           "time_limit": 600}, format="json").json()["id"]
    for user in (make_user(), make_user()):
        api_client_for(user).post(f"/api/v1/tournaments/{tid}/register")
    org.post(f"/api/v1/tournaments/{tid}/start")
    (table,) = round_tables(tid, 1)
    game = table.game
    game.state["players"]["p2"]["faction_power"] = 4  # p2 leads on power (seat order would favour p1)
    game.save(update_fields=["state"])
    assert LCG.summary(game.state)["power"] == {"p1": 0, "p2": 4}
    assert org.post(f"/api/v1/tournaments/{tid}/end").json()["status"] == "finished"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.ranking == ["p2", "p1"]
    assert {s.seat: (s.place, s.points) for s in TableSeat.objects.filter(table=table)} == {"p2": (1, 1.0), "p1": (2, 0.0)}


@pytest.mark.django_db
def test_the_organize_page_offers_the_card_game_and_the_event_page_shows_its_tables(client):
    t, page = organize_event(client, "lcg", "A Game of Thrones: The Card Game", "Joust night", rounds=3, players=3)
    (table,) = round_tables(t.pk, 1)
    assert "A Game of Thrones: The Card Game" in page and f'href="/games/{table.game_id}/"' in page
    assert "<td>Player 1</td>" in page and "<td>Player 2</td>" in page and "Byes:" in page
    assert "Castles" not in page and "Supply" not in page  # the board game's measures only
