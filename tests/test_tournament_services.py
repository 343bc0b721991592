"""Tournament services: registration, seeding, rounds played through real games, results recorded
by the game_finished hook, no-shows, organizer actions, formats end to end, the simulation command."""
from __future__ import annotations

import uuid
from collections import defaultdict
from datetime import timedelta
from io import StringIO

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.management import call_command
from django.utils import timezone

from games.engine import get_ruleset
from games.errors import GameError
from games.models import Game, GameSeat
from games.services.deadlines import resolve_overdue
from games.services.play import do_concede, do_submit_action
from tests.factories import make_user
from tournaments import services
from tournaments.models import Registration, Round, Table, TableSeat, Tournament
from tournaments.services import TournamentSettings

pytestmark = pytest.mark.django_db


def make_tournament(organizer=None, **overrides) -> Tournament:
    settings = {"name": "Test cup", "time_limit": 3600}
    settings.update(overrides)
    return services.do_create_tournament(organizer or make_user(), TournamentSettings(**settings))


def register(t: Tournament, n: int) -> list:
    users = [make_user() for _ in range(n)]
    for u in users:
        services.do_register(t.pk, u)
    return users


# --------------------------------------------------------------------------- registration


def test_settings_are_validated():
    organizer = make_user()
    for bad, field in [({"seats_per_table": 7}, "seats_per_table"), ({"tiebreakers": ["luck"]}, "tiebreakers"),
                       ({"min_seats_per_table": 2}, "min_seats_per_table"), ({"format": "knockout"}, "format"),
                       ({"options": {"nonsense": 1}}, "options"), ({"time_limit": 5}, "time_limit"),
                       ({"format": "elimination", "advance_per_table": 3}, "advance_per_table")]:
        with pytest.raises(GameError) as info:
            make_tournament(organizer, **bad)
        assert field in info.value.fields, bad


def test_register_withdraw_check_in_window_and_capacity():
    now = timezone.now()
    t = make_tournament(capacity=3, check_in_required=True, registration_opens=now - timedelta(hours=1),
                        registration_closes=now + timedelta(hours=1))
    a, b, c = make_user(), make_user(), make_user()
    services.do_register(t.pk, make_user())
    services.do_register(t.pk, a)
    with pytest.raises(GameError) as info:
        services.do_register(t.pk, a)
    assert info.value.get_codes() == "already_registered"
    services.do_register(t.pk, b)
    with pytest.raises(GameError) as info:
        services.do_register(t.pk, c)
    assert info.value.get_codes() == "full"
    services.do_withdraw(t.pk, b)
    services.do_register(t.pk, c)
    services.do_check_in(t.pk, a)
    assert Registration.objects.get(tournament=t, user=a).status == Registration.Status.CHECKED_IN
    with pytest.raises(GameError) as info:
        services.do_register(t.pk, make_user(), now=now + timedelta(hours=2))
    assert info.value.get_codes() == "registration_closed"


def test_minimum_rating_is_enforced_on_registration():
    t = make_tournament(min_rating=1600)
    with pytest.raises(GameError) as info:
        services.do_register(t.pk, make_user())
    assert info.value.status_code == 403 and info.value.get_codes() == "requirements_not_met"


def test_only_checked_in_players_start_and_seeding_is_by_rating():
    from ratings.models import Rating

    t = make_tournament(check_in_required=True, seats_per_table=3, rounds=1)
    users = register(t, 7)
    for i, u in enumerate(users[1:], 1):  # users[0] has no rating: 1500, after users[5] (1550) and users[4] (1520)
        Rating.objects.create(user=u, ruleset="agot", rating=1400 + 30 * i, games=20)
    for u in users[:6]:
        services.do_check_in(t.pk, u)
    with pytest.raises(GameError):
        services.do_start(t.pk, users[0])  # not an organizer
    services.do_start(t.pk, t.organizer)
    regs = {r.user_id: r for r in Registration.objects.filter(tournament=t)}
    assert regs[users[6].pk].status == Registration.Status.WITHDRAWN
    assert regs[users[5].pk].seed_rank == 1 and regs[users[5].pk].rating == 1550
    assert regs[users[0].pk].seed_rank == 3 and regs[users[0].pk].rating == 1500
    assert regs[users[1].pk].seed_rank == 6
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.tables.count() == 2
    # Round 1 snakes by seed: seeds 1 and 2 are at different tables.
    table_of = {s.registration.user_id: s.table_id for s in TableSeat.objects.filter(table__round=rnd)
                .select_related("registration")}
    assert table_of[users[5].pk] != table_of[users[4].pk]


# --------------------------------------------------------------------------- games and results


def _games_of(rnd: Round) -> list[Game]:
    return [table.game for table in rnd.tables.select_related("game").order_by("number")]


def test_round_games_use_the_event_settings_and_the_seats_of_the_pairing():
    t = make_tournament(seats_per_table=3, rounds=2, time_limit=7200, ranked=True, max_consecutive_timeouts=2)
    register(t, 6)
    services.do_start(t.pk, t.organizer)
    rnd = Round.objects.get(tournament=t, number=1)
    for table in rnd.tables.all():
        game = table.game
        assert game.is_active() and game.ranked and game.time_limit == 7200 and game.max_consecutive_timeouts == 2
        seats = {s.seat: s.user_id for s in GameSeat.objects.filter(game=game)}
        assert seats == {s.seat: s.registration.user_id for s in table.seats.select_related("registration")}
        assert services.votes_locked(game)


def test_adjudication_concessions_and_auto_start_of_the_next_round():
    t = make_tournament(seats_per_table=3, rounds=2, tiebreakers=["wins", "castles"])
    register(t, 6)
    services.do_start(t.pk, t.organizer)
    first, second = Round.objects.get(tournament=t, number=1).tables.order_by("number")
    # Table 1: the organizer ends it with a ranking.
    ranking = list(reversed(first.game.seat_names()))
    services.do_adjudicate(t.pk, t.organizer, first.pk, ranking)
    first.refresh_from_db()
    assert first.status == Table.Status.ADJUDICATED and Game.objects.get(pk=first.game_id).ranking == ranking
    places = {s.seat: (s.place, s.points) for s in first.seats.all()}
    assert places[ranking[0]] == (1, 2.0)  # placement points at three seats: 2, 1, 0
    assert places[ranking[-1]] == (3, 0.0)
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.ACTIVE
    # Table 2: everyone concedes without ever acting; the game is abandoned; the hook records it.
    for seat in GameSeat.objects.filter(game=second.game):
        do_concede(second.game_id, seat.user)
    second.refresh_from_db()
    assert second.status == Table.Status.FINISHED
    seats = list(second.seats.all())
    assert all(s.abandoned and s.no_show and s.points == 0 for s in seats)
    assert all(r.no_shows == 1 for r in Registration.objects.filter(seats__table=second))
    # The last table of round 1 is over: round 2 started on its own.
    t.refresh_from_db()
    assert t.current_round == 2 and Round.objects.get(tournament=t, number=1).status == Round.Status.FINISHED
    assert Round.objects.get(tournament=t, number=2).tables.count() == 2
    # Calling the hook again is harmless.
    services.on_game_finished(Game.objects.get(pk=second.game_id))
    assert Table.objects.filter(round__tournament=t).count() == 4
    standings = services.standings(t)
    assert standings[0].line.points == 2.0 and standings[0].line.wins == 1


def test_repeated_no_shows_drop_the_player():
    t = make_tournament(seats_per_table=3, rounds=3, max_no_shows=1)
    register(t, 6)
    services.do_start(t.pk, t.organizer)
    first, second = Round.objects.get(tournament=t, number=1).tables.order_by("number")
    services.do_adjudicate(t.pk, t.organizer, first.pk, first.game.seat_names())
    for seat in GameSeat.objects.filter(game=second.game):
        do_concede(second.game_id, seat.user)
    # Nobody ever acted, at the adjudicated table either: all six are no-shows, and dropped.
    assert all(s.no_show for s in TableSeat.objects.filter(table__round__tournament=t))
    dropped = Registration.objects.filter(tournament=t, status=Registration.Status.DROPPED)
    assert dropped.count() == 6
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED  # nobody left to seat


def test_a_seat_that_never_acts_goes_to_the_bot_by_its_deadlines_and_scores_as_abandoned():
    t = make_tournament(seats_per_table=3, rounds=1, max_consecutive_timeouts=1, max_no_shows=1)
    users = register(t, 3)
    services.do_start(t.pk, t.organizer)
    table = Table.objects.get(round__tournament=t)
    game = table.game
    # One player acts; the two others never do: their first deadline hands their seats to the bot.
    actor = GameSeat.objects.get(game=game, user=users[0])
    action = get_ruleset("agot").default_action(game.state, actor.seat)
    do_submit_action(game.pk, users[0], action=action, version=game.version)
    resolve_overdue(game.pk, now=timezone.now() + timedelta(days=2))
    left = GameSeat.objects.filter(game=game, abandoned=True)
    assert sorted(s.user_id for s in left) == sorted(u.pk for u in users[1:])
    # The game goes on with one player; the organizer ends it: the no-shows score as abandoned.
    services.do_adjudicate(t.pk, t.organizer, table.pk, [s.seat for s in left] + [actor.seat])
    seats = {s.registration.user_id: s for s in TableSeat.objects.filter(table=table).select_related("registration")}
    for u in users[1:]:
        assert seats[u.pk].abandoned and seats[u.pk].no_show and seats[u.pk].points == 0
        assert Registration.objects.get(tournament=t, user=u).status == Registration.Status.DROPPED
    assert not seats[users[0].pk].abandoned and seats[users[0].pk].points == 0  # last place of three
    assert Registration.objects.get(tournament=t, user=users[0]).no_shows == 0


def test_replace_a_player_mid_game_and_end_the_event():
    t = make_tournament(seats_per_table=3, rounds=2)
    users = register(t, 3)
    services.do_start(t.pk, t.organizer)
    table = Table.objects.get(round__tournament=t)
    leaver = users[0]
    do_concede(table.game_id, leaver)
    newcomer = make_user()
    services.do_replace_player(t.pk, t.organizer, leaver, newcomer)
    seat = GameSeat.objects.get(game=table.game, user=newcomer)
    assert not seat.is_bot and seat.left_at is None
    assert Registration.objects.get(tournament=t, user=leaver).status == Registration.Status.REPLACED
    assert TableSeat.objects.get(table=table, seat=seat.seat).registration.user == newcomer
    services.do_end(t.pk, t.organizer)
    t.refresh_from_db()
    table.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and table.status == Table.Status.ADJUDICATED
    assert Game.objects.get(pk=table.game_id).status == Game.Status.FINISHED


def test_co_organizers_may_run_the_event():
    t = make_tournament(seats_per_table=3, rounds=1, auto_advance=False)
    co = make_user()
    with pytest.raises(GameError):
        services.do_add_co_organizer(t.pk, co, co)
    services.do_add_co_organizer(t.pk, t.organizer, co)
    register(t, 3)
    services.do_start(t.pk, co)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


def test_standings_are_announced_on_the_tournament_group_after_commit(django_capture_on_commit_callbacks, settings):
    settings.CHANNEL_LAYERS = {  # a prefix of this test's own: Redis is shared by parallel workers
        name: {**config, "CONFIG": {**config.get("CONFIG", {}), "prefix": f"t{uuid.uuid4().hex}"}}
        if "Redis" in config["BACKEND"] else config for name, config in settings.CHANNEL_LAYERS.items()}
    t = make_tournament(seats_per_table=3, rounds=1)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(services.group_name(t.pk), channel)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.do_register(t.pk, make_user())
    # the announcement, and the event page's new version once committed (services.page_changed)
    sends = [c for c in callbacks if c.__qualname__.startswith("notify_after_commit")]
    assert len(sends) == 1 and len(callbacks) == 2
    sends[0]()
    message = async_to_sync(layer.receive)(channel)
    assert message["type"] == "tournament.update" and message["kind"] == "registration"
    assert message["tournament"] == t.pk


# --------------------------------------------------------------------------- formats end to end (bots)


def test_swiss_with_bots_runs_to_the_end_with_distinct_houses_and_fewest_short_tables():
    t = make_tournament(seats_per_table=6, rounds=2, bots_only=True, seed=3, tiebreakers=["wins", "castles"])
    register(t, 13)
    services.do_start(t.pk, t.organizer)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.current_round == 2
    for rnd in t.round_set.all():
        assert sorted(table.seats.count() for table in rnd.tables.all()) == [3, 4, 6]
        assert all(table.game.status == Game.Status.FINISHED for table in rnd.tables.all())
    standings = services.standings(t)
    assert len(standings) == 13 and [s.rank for s in standings] == list(range(1, 14))
    assert all(s.line.games == 2 for s in standings)
    houses = defaultdict(set)
    for seat in TableSeat.objects.filter(table__round__tournament=t):
        houses[seat.registration_id].add(seat.seat)
    assert all(len(h) == 2 for h in houses.values())
    points = [s.line.points for s in standings]
    assert points == sorted(points, reverse=True)


def test_byes_when_only_full_tables_are_allowed():
    t = make_tournament(seats_per_table=3, min_seats_per_table=3, rounds=2, bots_only=True)
    register(t, 7)
    services.do_start(t.pk, t.organizer)
    byes = [r.user_id for rnd in Round.objects.filter(tournament=t) for r in rnd.byes.all()]
    assert len(byes) == 2 and len(set(byes)) == 2
    by_user = {s.registration.user_id: s for s in services.standings(t)}
    assert by_user[byes[0]].line.byes == 1


def test_elimination_by_tables_reaches_a_final_table():
    t = make_tournament(format="elimination", seats_per_table=6, advance_per_table=2, bots_only=True)
    register(t, 18)
    services.do_start(t.pk, t.organizer)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    rounds = list(t.round_set.all())
    # 18 -> the top 2 of 3 tables: a final table of 6 (24 would go 4 tables, 2 tables of 4, a final of 4).
    assert [r.tables.count() for r in rounds] == [3, 1]
    assert rounds[-1].tables.get().seats.count() == 6
    final = rounds[-1].tables.get()
    winner = final.seats.get(place=1).registration
    standings = services.standings(t)
    assert standings[0].registration == winner
    assert Registration.objects.filter(tournament=t, status=Registration.Status.ELIMINATED).count() == 12


def test_league_divisions_play_each_house_once_and_next_season_promotes():
    # Two divisions of six, three-seat games: each player plays three games, once as each house
    # (the ten-player, six-seat AGoT division is checked in the pairing tests).
    t = make_tournament(format="league", seats_per_table=3, division_size=6, promotion=2, bots_only=True,
                        scoring="league", win_bonus=10)
    register(t, 12)
    services.do_start(t.pk, t.organizer)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    houses = defaultdict(list)
    for seat in TableSeat.objects.filter(table__round__tournament=t).select_related("registration"):
        houses[seat.registration_id].append(seat.seat)
    assert len(houses) == 12 and all(len(h) == 3 and len(set(h)) == 3 for h in houses.values())
    assert Table.objects.filter(round__tournament=t).count() == 12
    standings = services.standings(t)
    top = [s.registration.user_id for s in standings if s.division == 1]
    second = [s.registration.user_id for s in standings if s.division == 2]
    assert len(top) == len(second) == 6
    for s in standings:  # league points: the win bonus plus castles and strongholds held
        assert s.line.points == 10 * s.line.wins + s.line.castles
    nxt = services.do_next_season(t.pk, t.organizer)
    divisions = {r.user_id: r.division for r in nxt.registrations.all()}
    assert {divisions[u] for u in top[-2:]} == {2} and {divisions[u] for u in second[:2]} == {1}
    assert nxt.season == 2 and nxt.previous == t and nxt.status == Tournament.Status.REGISTRATION


def test_simulate_tournament_command_prints_the_final_standings():
    out = StringIO()
    call_command("simulate_tournament", "--players", "24", "--format", "swiss", "--rounds", "3", "--seed", "1",
                 stdout=out)
    text = out.getvalue()
    assert "finished, 3 rounds, 12 games" in text
    assert text.count("sim-1-0") == 24
    t = Tournament.objects.get(bots_only=True)
    assert all(s.line.games == 3 for s in services.standings(t))


def test_a_simulation_is_deterministic_given_its_seed():
    def run() -> list[tuple[str, float]]:
        result = services.simulate(7, rounds=2, seed=11, seats_per_table=3)
        return [(s.registration.user.username, s.line.points) for s in result.standings]

    assert run() == run()


def test_a_result_stands_when_the_next_round_cannot_start(monkeypatch):
    t = make_tournament(seats_per_table=3, rounds=2)
    register(t, 3)
    services.do_start(t.pk, t.organizer)
    table = Table.objects.get(round__tournament=t)
    assert services.votes_locked(table.game) and not services.votes_locked(make_game_outside())

    def refuse(tournament):
        raise GameError("cannot_pair", "no")

    monkeypatch.setattr(services, "_start_next_round", refuse)
    for seat in GameSeat.objects.filter(game=table.game):
        do_concede(table.game_id, seat.user)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and t.current_round == 1
    monkeypatch.undo()
    services.do_start_round(t.pk, t.organizer)
    assert Round.objects.filter(tournament=t).count() == 2


def make_game_outside():
    from tests.factories import make_game

    return make_game(3)


def test_a_btwixt_table_is_adjudicated_and_recorded():
    """B'Twixt's summary has one supply number for the table, not one per seat: recording its tables
    must not read it as the board game's (it was a 500 on adjudication)."""
    t = make_tournament(ruleset="btwixt", seats_per_table=3, rounds=1, tiebreakers=["wins"])
    register(t, 3)
    services.do_start(t.pk, t.organizer)
    table = Round.objects.get(tournament=t, number=1).tables.get()
    ranking = list(table.game.seat_names())
    services.do_adjudicate(t.pk, t.organizer, table.pk, ranking)
    table.refresh_from_db()
    assert table.status == Table.Status.ADJUDICATED
    assert {s.seat: s.place for s in table.seats.all()} == {seat: i for i, seat in enumerate(ranking, 1)}
    assert all(s.supply == 0 and s.castles == 0 for s in table.seats.all())
