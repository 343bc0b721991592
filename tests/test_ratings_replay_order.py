"""recompute_ratings replays the games in the order they were rated (issue 13, item 5): games that end at
the same instant, rated in an order that is not (finished_at, id), replay to the stored ratings exactly;
games never rated come after; the command is a dry run unless --write."""
from __future__ import annotations

import os
import threading
import time
from datetime import datetime, timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts.models import User
from games.models import Game
from games.services.play import do_concede
from games.signals import game_finished
from ratings import services
from ratings.models import RatedGame, Rating, RatingChange
from tests.factories import make_game, make_user

ON_POSTGRESQL = os.environ.get("DATABASE_URL", "").startswith("postgres")
INSTANT = timezone.now().replace(microsecond=0) - timedelta(days=1)


@pytest.fixture
def frozen(monkeypatch) -> datetime:
    """Every timezone.now() returns the same instant: games ended now share their finished_at."""
    monkeypatch.setattr(timezone, "now", lambda: INSTANT)
    return INSTANT


def end_by_leaving(game: Game) -> None:
    """Every player concedes; the last one's concession abandons the game, which sends game_finished
    and rates it (ranked by who stayed longest: the normal path of a finishing game)."""
    for seat in game.seats.filter(user__isnull=False).order_by("position"):
        do_concede(game.pk, seat.user)


def stored() -> tuple[services.Snapshot, list[tuple], list[tuple]]:
    """Everything the command may write: the ratings, the history and the order records."""
    return (services.snapshot(),
            sorted(RatingChange.objects.values_list("user_id", "game_id", "placement", "before", "after")),
            list(RatedGame.objects.values_list("sequence", "game_id")))


def dry_run() -> str:
    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    return out.getvalue()


def dry_run_with_differences() -> str:
    out = StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("recompute_ratings", stdout=out)
    assert raised.value.returncode == 1
    return out.getvalue()


@pytest.mark.django_db
def test_games_ending_at_the_same_instant_replay_to_the_stored_ratings(frozen):
    """Six ranked games over four players, all ending at one instant, ended (and rated) in an order
    unlike their ids: the dry run finds every stored rating, and writes nothing."""
    users = [make_user() for _ in range(4)]
    games = [make_game(3, users=[users[(n + i) % 4] for i in range(3)], ranked=True, seed=n) for n in range(6)]
    for n in (3, 0, 5, 1, 4, 2):
        end_by_leaving(games[n])
    assert {g.finished_at for g in Game.objects.filter(pk__in=[g.pk for g in games])} == {frozen}
    assert RatingChange.objects.count() == 18
    before = stored()
    out = dry_run()
    assert "No rating differs" in out
    assert stored() == before


@pytest.mark.django_db
def test_the_recorded_order_is_what_makes_the_replay_match(frozen):
    """The same kind of season, then the order records renumbered by (finished_at, id), the order the
    replay used before: the ratings no longer match, so the scenario depends on the order."""
    users = [make_user() for _ in range(4)]
    games = [make_game(3, users=[users[(n + i) % 4] for i in range(3)], ranked=True, seed=n) for n in range(4)]
    for game in reversed(games):
        end_by_leaving(game)
    assert list(RatedGame.objects.values_list("game_id", flat=True)) == [g.pk for g in reversed(games)]
    RatedGame.objects.all().delete()
    RatedGame.objects.bulk_create([RatedGame(game_id=g.pk) for g in games])
    assert "ratings differ from the replay" in dry_run_with_differences()


@pytest.mark.django_db
def test_a_dry_run_shows_the_difference_and_writes_nothing_then_write_repairs_it(frozen):
    users = [make_user() for _ in range(4)]
    games = [make_game(3, users=[users[(n + i) % 4] for i in range(3)], ranked=True, seed=n) for n in range(3)]
    for game in reversed(games):
        end_by_leaving(game)
    good = stored()
    victim = users[1]
    right = Rating.objects.get(user=victim).rating
    Rating.objects.filter(user=victim).update(rating=1234.5)
    tampered = stored()

    out = dry_run_with_differences()
    assert stored() == tampered
    lines = out.splitlines()
    assert lines[1].split() == ["player", "ruleset", "stored", "recomputed", "difference"]
    played = str(Rating.objects.get(user=victim).games)
    assert lines[2].split() == [victim.username, "agot/standard", "1234.50", f"({played}", "games)",
                                f"{right:.2f}", f"({played}", "games)", f"{right - 1234.5:+.2f}"]
    assert lines[-1] == "1 ratings differ from the replay; nothing written (dry run)."

    out = StringIO()
    call_command("recompute_ratings", "--write", stdout=out)
    assert "1 ratings differed from the replay; written." in out.getvalue()
    assert Rating.objects.get(user=victim).rating == right
    assert stored() == good  # the history and the recorded order too
    assert "No rating differs" in dry_run()


@pytest.mark.django_db
def test_games_never_rated_are_replayed_after_the_rated_ones_and_reported():
    """A game that ended while ratings were off (no game_finished: ended behind the server's back)
    is replayed after every rated game even though it finished first; --write rates it, last."""
    a, b, c = make_user(), make_user(), make_user()
    missed = make_game(3, users=[a, b, c], ranked=True, seed=1)
    missed.status, missed.ranking = Game.Status.FINISHED, missed.seat_names()
    missed.finished_at = timezone.now() - timedelta(hours=1)
    missed.save()
    rated = make_game(3, users=[c, b, a], ranked=True, seed=2)
    end_by_leaving(rated)
    assert not RatedGame.objects.filter(game=missed).exists()

    out = dry_run_with_differences()
    assert f"1 games had never been rated (finished while ratings were off?); replayed after the rated ones, " \
           f"by finish time: {missed.pk}." in out
    assert not RatedGame.objects.filter(game=missed).exists()

    call_command("recompute_ratings", "--write", stdout=StringIO())
    assert list(RatedGame.objects.values_list("game_id", flat=True)) == [rated.pk, missed.pk]
    first, then = (RatingChange.objects.get(user=a, game=g) for g in (rated, missed))
    assert then.before == first.after
    assert Rating.objects.get(user=a).rating == then.after
    assert "No rating differs" in dry_run()


@pytest.mark.django_db
def test_each_game_is_numbered_once_when_it_is_rated():
    a, b, c = make_user(), make_user(), make_user()
    first, second = (make_game(3, users=[a, b, c], ranked=True, seed=n) for n in (1, 2))
    end_by_leaving(second)
    end_by_leaving(first)
    assert services.record_finished_game(Game.objects.get(pk=second.pk)) == []
    order = list(RatedGame.objects.values_list("game_id", flat=True))
    assert order == [second.pk, first.pk]


@pytest.mark.django_db(transaction=True)
def test_the_migration_numbers_games_already_rated_in_the_order_their_changes_were_inserted():
    """Existing history: the game whose rating changes were inserted first was applied first, whatever
    the games' ids and finish times."""
    a, b = make_user(), make_user()
    games = [make_game(3, users=[a, b, None], ranked=True, seed=n) for n in range(3)]
    executor = MigrationExecutor(connection)
    executor.migrate([("ratings", "0001_initial")])
    try:  # the model as it was then (no `sequence` yet)
        then = executor.loader.project_state(("ratings", "0001_initial")).apps.get_model("ratings", "RatingChange")
        for game in (games[2], games[0], games[1]):
            for user in (a, b):
                then.objects.create(user_id=user.pk, game_id=game.pk, ruleset="agot", seat="x", placement=1,
                                    before=1500.0, after=1500.0, played_at=INSTANT)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes("ratings"))
    assert list(RatedGame.objects.values_list("game_id", flat=True)) == [games[2].pk, games[0].pk, games[1].pk]
    assert numbers_agree()  # and 0005 gave each change its game's number


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not ON_POSTGRESQL, reason="row locks and concurrent transactions need PostgreSQL (DATABASE_URL)")
def test_two_games_ending_at_once_in_two_transactions_are_numbered_in_the_order_applied(frozen):
    """Two games sharing players end at the same instant in two threads (two connections). The one with
    the higher id is rated first and holds its players' rating rows until it commits; the other waits
    for those rows, so it is numbered after it, and the replay matches both."""
    a, b, c, d = (make_user() for _ in range(4))
    low, high = make_game(3, users=[a, b, c], ranked=True, seed=1), make_game(3, users=[a, b, d], ranked=True, seed=2)
    for game in (low, high):
        do_concede(game.pk, a)
        do_concede(game.pk, b)
    applied, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def hold(sender, game, **kwargs) -> None:  # connected after the ratings receiver: runs after it
        if game.pk == high.pk:
            applied.set()
            release.wait(timeout=30)

    def leave(game: Game, user: User) -> None:
        try:
            do_concede(game.pk, user)
        except BaseException as error:  # reported below; a thread must not die silently
            errors.append(error)
        finally:
            connection.close()

    game_finished.connect(hold, dispatch_uid="test.hold")
    threads = [threading.Thread(target=leave, args=(high, d)), threading.Thread(target=leave, args=(low, c))]
    try:
        threads[0].start()
        assert applied.wait(timeout=30)
        threads[1].start()
        assert waits_for_a_rating_row_lock(timeout=10)
    finally:
        release.set()
        for thread in threads:
            thread.join(timeout=60)
        game_finished.disconnect(dispatch_uid="test.hold")
    assert not errors, errors
    assert list(RatedGame.objects.values_list("game_id", flat=True)) == [high.pk, low.pk]
    assert RatingChange.objects.get(user=a, game=low).before == RatingChange.objects.get(user=a, game=high).after
    assert "No rating differs" in dry_run()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not ON_POSTGRESQL, reason="row locks and concurrent transactions need PostgreSQL (DATABASE_URL)")
def test_a_game_ending_during_write_applies_on_top_of_the_replay(monkeypatch):
    """--write holds the rating rows while it replays; a game of the same players ending meanwhile waits
    for them and, once the replay is written, applies on top of it (the rows are updated in place, not
    deleted under it) and is numbered last."""
    a, b, c = make_user(), make_user(), make_user()
    first = make_game(3, users=[a, b, c], ranked=True, seed=1)
    end_by_leaving(first)
    Rating.objects.filter(user=a).update(rating=1234.5)  # something for --write to repair
    late = make_game(3, users=[c, b, a], ranked=True, seed=2)
    do_concede(late.pk, a)
    do_concede(late.pk, b)
    replaying, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []
    original = services.replay

    def slow_replay() -> services.Replay:
        replaying.set()
        release.wait(timeout=30)
        return original()

    def run(job) -> None:
        try:
            job()
        except BaseException as error:  # reported below; a thread must not die silently
            errors.append(error)
        finally:
            connection.close()

    monkeypatch.setattr(services, "replay", slow_replay)
    threads = [threading.Thread(target=run, args=(lambda: services.recompute_all(write=True),)),
               threading.Thread(target=run, args=(lambda: do_concede(late.pk, c),))]
    try:
        threads[0].start()
        assert replaying.wait(timeout=30)
        threads[1].start()
        assert waits_for_a_rating_row_lock(timeout=10)
    finally:
        release.set()
        for thread in threads:
            thread.join(timeout=60)
    monkeypatch.setattr(services, "replay", original)
    assert not errors, errors
    assert list(RatedGame.objects.values_list("game_id", flat=True)) == [first.pk, late.pk]
    assert RatingChange.objects.get(user=a, game=late).before == RatingChange.objects.get(user=a, game=first).after
    assert Rating.objects.get(user=a).games == 2
    assert "No rating differs" in dry_run()


def waits_for_a_rating_row_lock(timeout: float) -> bool:
    """Whether another connection to this database is (or within `timeout` seconds starts) waiting for a
    lock while reading the ratings table."""
    for _ in range(int(timeout * 20)):
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND wait_event_type = 'Lock' AND query LIKE %s", ["%ratings_rating%"])
            if cursor.fetchone()[0]:
                return True
        time.sleep(0.05)
    return False


def test_the_admin_lists_the_rating_order_read_only(admin_client):
    page = admin_client.get("/admin/ratings/ratedgame/")
    assert page.status_code == 200
    assert admin_client.get("/admin/ratings/ratedgame/add/").status_code == 403


@pytest.mark.django_db
def test_a_players_history_and_chart_follow_the_order_games_were_rated():
    """Two games sharing a player: the one rated second finished first (its transaction committed
    later, as two games ending together in two processes can). The history and the chart list the
    changes in the order they were applied, so each `before` is the previous `after`."""
    from ratings.templatetags.ratings_tags import rating_history

    users = [make_user() for _ in range(4)]
    first, second = (make_game(3, users=users[n:n + 3], ranked=True, seed=n) for n in range(2))
    end_by_leaving(first)
    end_by_leaving(second)
    player = users[1]  # in both games
    applied = list(RatedGame.objects.values_list("game_id", flat=True))
    assert applied == [first.pk, second.pk]
    # the second game's result carries the earlier end
    RatingChange.objects.filter(game=second).update(played_at=timezone.now() - timedelta(hours=2))
    newest_first = services.history(player)
    assert [c.game_id for c in newest_first] == [second.pk, first.pk]
    assert newest_first[0].before == newest_first[1].after
    chart = rating_history(player)["charts"][0]
    old, new = newest_first[1], newest_first[0]
    assert (chart["first"], chart["last"], chart["games"]) == (old.before, new.after, 2)


def numbers_agree() -> bool:
    """Every rating change carries its game's number (RatedGame.sequence), or none without one."""
    numbers = dict(RatedGame.objects.values_list("game_id", "sequence"))
    return all(sequence == numbers.get(game_id)
               for game_id, sequence in RatingChange.objects.values_list("game_id", "sequence"))


@pytest.mark.django_db
def test_the_history_follows_the_order_a_written_replay_numbered():
    """recompute_ratings --write rewrites the history: each change gets its game's number again, so a
    player's history (read by those numbers) follows the order replayed. A game never rated, finished
    first, is numbered last and comes first in the history; then the games renumbered by hand and
    written again: the history follows the new order, each `before` the previous `after`."""
    a, b, c = make_user(), make_user(), make_user()
    missed = make_game(3, users=[a, b, c], ranked=True, seed=1)
    missed.status, missed.ranking = Game.Status.FINISHED, missed.seat_names()
    missed.finished_at = timezone.now() - timedelta(hours=1)
    missed.save()
    rated = make_game(3, users=[c, b, a], ranked=True, seed=2)
    end_by_leaving(rated)
    assert [ch.game_id for ch in services.history(a)] == [rated.pk] and numbers_agree()

    call_command("recompute_ratings", "--write", stdout=StringIO())
    assert numbers_agree() and not RatingChange.objects.filter(sequence__isnull=True).exists()
    newest_first = services.history(a)
    assert [ch.game_id for ch in newest_first] == [missed.pk, rated.pk]
    assert newest_first[0].before == newest_first[1].after

    RatedGame.objects.all().delete()  # the other order, written
    RatedGame.objects.bulk_create([RatedGame(game_id=missed.pk), RatedGame(game_id=rated.pk)])
    call_command("recompute_ratings", "--write", stdout=StringIO())
    assert numbers_agree()
    newest_first = services.history(a)
    assert [ch.game_id for ch in newest_first] == [rated.pk, missed.pk]
    assert newest_first[0].before == newest_first[1].after
    assert Rating.objects.get(user=a).rating == newest_first[0].after


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_each_existing_change_its_games_number():
    """ratings 0005 fills RatingChange.sequence from RatedGame for the history already written; a
    change of a game never numbered keeps none."""
    a, b, c = make_user(), make_user(), make_user()
    games = [make_game(3, users=[a, b, c], ranked=True, seed=n) for n in range(3)]
    for game in (games[2], games[0]):
        end_by_leaving(game)
    RatingChange.objects.create(user=a, game=games[1], ruleset="agot", seat="x", placement=1,
                                before=1500.0, after=1500.0)
    expected = dict(RatingChange.objects.values_list("id", "sequence"))
    assert expected[RatingChange.objects.get(user=a, game=games[2]).pk] is not None
    executor = MigrationExecutor(connection)
    executor.migrate([("ratings", "0004_admin_labels")])
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes("ratings"))
    assert dict(RatingChange.objects.values_list("id", "sequence")) == expected
    assert numbers_agree() and RatingChange.objects.get(game=games[1]).sequence is None
