"""Queries compiled once per process (westeros/compiled.py, issue 27): a value given per call (a user's
id, the time now) is a parameter of the compiled SQL, given anew on every call, never frozen into it;
rows and models are read afresh every time."""
from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.utils import timezone

from challenges import services
from challenges.models import Challenge, Invite
from tests.factories import make_game, make_user
from westeros import compiled

pytestmark = pytest.mark.django_db


def challenge(challenger, invitee, expires_in: timedelta) -> Challenge:
    made = Challenge.objects.create(challenger=challenger, ruleset="agot", time_limit=3600,
                                    expires_at=timezone.now() + expires_in)
    Invite.objects.create(challenge=made, user=invitee)
    return made


def test_a_time_given_per_call_is_a_parameter_not_frozen_at_compile_time():
    alys, bran = make_user(), make_user()
    soon, later = challenge(alys, bran, timedelta(hours=1)), challenge(alys, bran, timedelta(hours=3))
    now = timezone.now()

    def pending(user_id, now):
        return (Challenge.objects.filter(invites__user_id=user_id, expires_at__gt=now)
                .order_by("expires_at").values("id"))

    def ids(at):
        return [r["id"] for r in compiled.rows("test:pending-at", pending, user_id=bran.pk, now=at)]

    assert ids(now) == [soon.pk, later.pk]  # compiled here, with this time
    assert ids(now + timedelta(hours=2)) == [later.pk]  # the same SQL, another time: other rows
    assert ids(now + timedelta(hours=4)) == []
    assert ids(now) == [soon.pk, later.pk]


def test_waiting_challenges_follow_the_clock_and_the_reader(monkeypatch):
    """challenges.services.waiting_for, compiled once: the time now and the user are given on each
    call, so a challenge that expires drops out at once, and another reader reads their own."""
    alys, bran, cersei = make_user(), make_user(), make_user()
    soon, later = challenge(alys, bran, timedelta(hours=1)), challenge(alys, bran, timedelta(hours=3))
    theirs = challenge(bran, cersei, timedelta(hours=1))
    Invite.objects.create(challenge=theirs, user=alys, position=1)
    assert [c.pk for c in services.waiting_for(bran, 10)] == [later.pk, soon.pk]  # the newest first
    waiting = services.waiting_for(cersei, 10)
    assert [c.pk for c in waiting] == [theirs.pk]
    assert waiting[0].challenger.username == bran.username
    assert [i.user.username for i in waiting[0].invites.all()] == [cersei.username, alys.username]
    assert all(i.challenge is waiting[0] for i in waiting[0].invites.all())
    two_hours_on = timezone.now() + timedelta(hours=2)
    monkeypatch.setattr(timezone, "now", lambda: two_hours_on)
    assert [c.pk for c in services.waiting_for(bran, 10)] == [later.pk]
    assert services.waiting_for(cersei, 10) == []


def test_an_id_no_column_can_hold_matches_nothing_and_runs_nothing():
    """An id from a URL beyond the 64-bit range (/api/v1/games/10**30) reads no row, as Django's own
    lookups answer it, instead of the database driver's overflow error (a 500 on SQLite)."""
    game = make_game()

    def by_id(game_id):
        return Challenge.objects.filter(game_id=game_id).values("id")

    def game_by_id(game_id):
        return type(game).objects.filter(pk=game_id)

    assert compiled.rows("test:by-game", by_id, game_id=game.pk) == []
    for beyond in (10**30, 2**63, -(2**63) - 1):
        assert compiled.rows("test:by-game", by_id, game_id=beyond) == []
        assert compiled.models("test:game-by-id", game_by_id, game_id=beyond) == []
    assert [g.pk for g in compiled.models("test:game-by-id", game_by_id, game_id=game.pk)] == [game.pk]


def test_a_value_of_another_kind_is_refused():
    with pytest.raises(TypeError):
        compiled.rows("test:by-name", lambda name: Challenge.objects.filter(ruleset=name).values("id"), name="agot")


def test_the_navigation_count_follows_the_clock_the_reader_and_an_answer(monkeypatch):
    """challenges.services.waiting_count (the navigation's count on every page), compiled once: a
    challenge that expires, or is answered, leaves the count at once; another reader counts their own."""
    alys, bran, cersei = make_user(), make_user(), make_user()
    challenge(alys, bran, timedelta(hours=1))
    later = challenge(alys, bran, timedelta(hours=3))
    assert services.waiting_count(bran) == 2
    assert services.waiting_count(cersei) == 0
    Invite.objects.filter(challenge=later, user=bran).update(status=Invite.Status.DECLINED)
    assert services.waiting_count(bran) == 1
    two_hours_on = timezone.now() + timedelta(hours=2)
    monkeypatch.setattr(timezone, "now", lambda: two_hours_on)
    assert services.waiting_count(bran) == 0


def test_a_profiles_ratings_and_games_played_are_read_afresh():
    """ratings.services.ratings_of and games_played (every profile), compiled once: a new rating, a
    changed one and a game that ends show at once, and another player reads their own."""
    from games.models import Game
    from ratings import services as ratings
    from ratings.models import Rating

    game = make_game(3)
    alys, bran = (s.user for s in game.seats.order_by("seat")[:2])
    assert ratings.ratings_of(alys) == [] and ratings.games_played(alys) == 0
    Rating.objects.create(user=alys, ruleset="agot", rating=1510, games=1)
    assert [(r.ruleset, r.rating) for r in ratings.ratings_of(alys)] == [("agot", 1510)]
    Rating.objects.filter(user=alys).update(rating=1490)
    Rating.objects.create(user=alys, ruleset="btwixt", rating=1520, games=1)
    assert [(r.ruleset, r.rating) for r in ratings.ratings_of(alys)] == [("agot", 1490), ("btwixt", 1520)]
    assert ratings.ratings_of(bran) == []
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    assert ratings.games_played(alys) == 1 and ratings.games_played(bran) == 1
    assert ratings.games_played(make_user()) == 0


def test_a_profiles_recent_games_are_read_afresh():
    """ratings_tags.recent_games (every profile), its two queries compiled once: a new game and an end
    show at once, another player reads their own (a seat left to a substitute: tests/test_game_results.py)."""
    from games.models import Game
    from ratings.templatetags.ratings_tags import recent_games

    first = make_game(3)
    alys = first.seats.order_by("seat")[0].user
    assert [(r["game"].pk, str(r["status_words"])) for r in recent_games(alys)] == [(first.pk, "active")]
    second = make_game(3, users=[alys, make_user(), make_user()])
    Game.objects.filter(pk=first.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    assert [(r["game"].pk, str(r["status_words"])) for r in recent_games(alys)] == [
        (second.pk, "active"), (first.pk, "finished")]
    assert recent_games(make_user()) == []


def test_a_game_is_read_afresh_with_its_seats_and_players_in_two_queries(django_assert_num_queries):
    """games/queries.get_visible_game, every game page's and API read's first step: the game and its
    seats with their players by queries compiled once per process; another game, or the same game
    changed, is what the next call reads."""
    from games.errors import GameError
    from games.models import Game
    from games.queries import get_visible_game

    first, second = make_game(3), make_game(4)
    with django_assert_num_queries(2):
        game = get_visible_game(None, first.pk)
        players = [(s.seat, s.user.username, s.game is game) for s in game.seats.all()]
    assert players == [(s.seat, s.user.username, True) for s in first.seats.order_by("position")]
    Game.objects.filter(pk=first.pk).update(version=first.version + 5)
    assert get_visible_game(None, first.pk).version == first.version + 5
    assert get_visible_game(None, second.pk, state=False).seats.count() == 4
    Game.objects.filter(pk=second.pk).update(private=True)
    with pytest.raises(GameError):
        get_visible_game(None, second.pk)  # a private game stays out of a stranger's sight
    with pytest.raises(GameError):
        get_visible_game(None, "12")


def test_the_challenges_pages_lists_follow_the_clock_and_the_reader(monkeypatch):
    """challenges.services.challenges_of and answered_lately, compiled once: sent, received and answered
    challenges of each reader at each time."""
    alys, bran = make_user(), make_user()
    soon, later = challenge(alys, bran, timedelta(hours=1)), challenge(alys, bran, timedelta(hours=3))
    back = challenge(bran, alys, timedelta(hours=3))
    assert [c.pk for c in services.challenges_of(alys)["out"]] == [later.pk, soon.pk]
    assert [c.pk for c in services.challenges_of(alys)["in"]] == [back.pk]
    assert [c.pk for c in services.challenges_of(bran)["in"]] == [later.pk, soon.pk]
    assert [i.user_id for i in services.challenges_of(bran)["out"][0].invites.all()] == [alys.pk]
    assert list(services.answered_lately(alys)) == []
    two_hours_on = timezone.now() + timedelta(hours=2)
    monkeypatch.setattr(timezone, "now", lambda: two_hours_on)
    assert [c.pk for c in services.challenges_of(alys)["out"]] == [later.pk]
    assert [c.pk for c in services.answered_lately(alys)] == [soon.pk]  # expired: no longer waiting
    assert [c.pk for c in services.answered_lately(bran)] == [soon.pk]
    # each list's challenges with their invites (one compiled query for all, issue 27, thirteenth round),
    # the players in the order they were named, the answered ones' too
    cersei = make_user()
    three = challenge(bran, alys, timedelta(hours=5))
    Invite.objects.create(challenge=three, user=cersei, position=1)
    mine = services.challenges_of(bran, answered=10)
    assert [c.pk for c in mine["out"]] == [three.pk, back.pk] and [c.pk for c in mine["past"]] == [soon.pk]
    assert [[i.user.username for i in c.invites.all()] for c in mine["out"]] == [[alys.username, cersei.username],
                                                                                [alys.username]]
    assert [i.user_id for i in mine["past"][0].invites.all()] == [bran.pk]
    assert [c.pk for c in mine["in"]] == [later.pk] and [i.user_id for i in mine["in"][0].invites.all()] == [bran.pk]
    assert services.challenges_of(cersei, answered=10)["in"] == [three] and "past" in services.challenges_of(cersei)


def test_a_rows_columns_are_named_in_the_order_of_the_sql_an_annotation_among_the_fields():
    """values() may name an annotation among the fields (the home page's lobbies: their members counted
    between the ruleset and the computer seats): each value is under its own name, as the ORM reads it."""
    from games.api import with_members_taken
    from games.models import Lobby, LobbyMember

    creator = make_user()
    lobby = Lobby.objects.create(ruleset="agot", name="Named", creator=creator, seat_count=5, computer_seats=1,
                                 time_limit=3600)
    LobbyMember.objects.create(lobby=lobby, user=creator)
    LobbyMember.objects.create(lobby=lobby, user=make_user())

    def build(lobby_id):
        return (with_members_taken(Lobby.objects.filter(pk=lobby_id))
                .values("pk", "name", "taken", "computer_seats", "seat_count", "creator__username"))

    expected = list(build(lobby.pk))
    assert expected == [{"pk": lobby.pk, "name": "Named", "taken": 2, "computer_seats": 1, "seat_count": 5,
                         "creator__username": creator.username}]
    assert compiled.rows("test:interleaved", build, lobby_id=lobby.pk) == expected


def test_every_slice_of_a_list_is_one_compiled_query_reading_what_the_orm_reads():
    """models(window=(low, high)): a slice's LIMIT and OFFSET are parameters of the compiled SQL (issue 27,
    tenth round: My games' pages), so every page reads what the ORM's slice reads, with one SQL text; a
    count is Django's count query, compiled once, its values given per call."""
    from django.db import connection

    from games.models import GameSeat

    alys, bran = make_user(), make_user()
    for _ in range(7):
        make_game(3, users=[alys, bran, make_user()])
    make_game(3, users=[bran, make_user(), make_user()])

    def seats(user_id):
        return GameSeat.objects.filter(user_id=user_id).select_related("game").defer("game__state").order_by("-game_id")

    texts = set()
    for user in (alys, bran):
        every = list(seats(user.pk))
        for low, high in [(0, 3), (3, 6), (6, 9), (0, 100), (2, 2), (5, 4 + 1), (8, 20), (50, 60)]:
            with connection.execute_wrapper(lambda run, sql, params, many, context: texts.add(sql) or
                                            run(sql, params, many, context)):
                made = compiled.models("test:seats-window", seats, window=(low, high), user_id=user.pk)
            assert [(s.pk, s.game.pk, s.game.ruleset) for s in made] == [(s.pk, s.game.pk, s.game.ruleset)
                                                                        for s in every[low:high]]
        assert compiled.count("test:seats", seats, user_id=user.pk) == len(every) == seats(user.pk).count()
    assert len(texts) == 1 and "LIMIT" in next(iter(texts))  # one SQL text for every page and reader
    assert compiled.count("test:seats", seats, user_id=10**30) == 0
    part = compiled.Compiled("test:seats-part", seats, user_id=alys.pk)
    assert len(part) == 7 and [s.pk for s in part[2:5]] == [s.pk for s in seats(alys.pk)[2:5]]
    with pytest.raises(ValueError):
        compiled.models("test:seats-window", seats, window=(3, 1), user_id=alys.pk)
    with pytest.raises(TypeError):
        part[3]


def test_my_games_pages_are_what_the_orm_reads_as_games_start_and_end(client, monkeypatch):
    """My games reads its parts' counts and pages by compiled queries (web/views.py my_games): each page is
    the games in progress (awaiting first) then the finished ones, newest first, and a game that ends
    moves to the finished part at once."""
    import re

    from games.models import Game
    from web import paging

    alys = make_user()
    games = [make_game(3, users=[alys, make_user(), make_user()]) for _ in range(7)]
    for game in games[:4]:
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    client.force_login(alys)

    def listed(per_page):
        monkeypatch.setattr(paging, "PER_PAGE", per_page)
        seen, url = [], "/games/"
        while url:
            html = client.get(url).content.decode()
            seen += [int(n) for n in re.findall(r'<a href="/games/(\d+)/"><span class="ruleset">', html)]
            following = re.search(r'rel="next" href="([^"]+)"', html)
            url = "/games/" + following.group(1) if following else None
        return seen

    active = sorted((g.pk for g in games[4:]), reverse=True)
    finished = sorted((g.pk for g in games[:4]), reverse=True)
    for per_page in (2, 3, 50):
        assert sorted(listed(per_page)[:3]) == sorted(active) and listed(per_page)[3:] == finished
    Game.objects.filter(pk=games[5].pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    after = listed(2)
    assert sorted(after[:2]) == sorted(set(active) - {games[5].pk})
    assert after[2:] == sorted([*finished, games[5].pk], reverse=True)


@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="DATABASE_URL not set: SQLite run (nothing is prepared)")
def test_a_query_planned_for_each_call_is_never_prepared():
    """plan_each_call (issue 27, thirteenth round): PostgreSQL plans a player's games in progress for that
    player. Prepared, the query would run after a few calls by a generic plan made for an average player (a
    nested loop over the seats: 3 ms instead of 0.5 for a player of 2,000 games), so psycopg never prepares
    it, however often it runs; the same list without it is prepared, and both read the same rows."""
    from django.db import connection

    from games.models import GameSeat
    from westeros.env import PREPARE_THRESHOLD

    alys, bran = make_user(), make_user()
    games = [make_game(3, users=[alys, bran, make_user()]) for _ in range(3)]

    def seats(user_id):  # the list planned for each call (its SQL names no other column than game_id)
        return GameSeat.objects.filter(user_id=user_id).order_by("-game_id").values("game_id")

    def seats_and_places(user_id):  # the same, prepared as every other query
        return GameSeat.objects.filter(user_id=user_id).order_by("-game_id").values("game_id", "seat")

    def seat_rows(user_id):  # a list of seats read a page at a time, planned for each call
        return GameSeat.objects.filter(user_id=user_id).order_by("-game_id")

    newest_first = sorted((g.pk for g in games), reverse=True)
    for _ in range(PREPARE_THRESHOLD + 2):
        for user in (alys, bran):
            each = compiled.rows("test:planned-each-call", seats, plan_each_call=True, user_id=user.pk)
            prepared = compiled.rows("test:prepared", seats_and_places, user_id=user.pk)
            assert [r["game_id"] for r in each] == [r["game_id"] for r in prepared] == newest_first
            assert compiled.count("test:planned-each-call", seats, plan_each_call=True, user_id=user.pk) == 3
            part = compiled.Compiled("test:planned-part", seat_rows, plan_each_call=True, user_id=user.pk)
            assert len(part) == 3 and [s.game_id for s in part[1:3]] == newest_first[1:3]
    assert connection.connection.prepare_threshold == PREPARE_THRESHOLD  # given back after each query
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        statements = [row[0] for row in cursor.fetchall() if '"games_gameseat"' in row[0]]
    assert len(statements) == 1 and '"seat"' in statements[0] and '"position"' not in statements[0], statements
