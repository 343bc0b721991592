"""games/migrations/0020_minis_revision, 0022_minis_revision_2, 0023_minis_revision_3 and
0025_minis_revision_4: the miniatures games stored before rules revision 2 (issue 32's rules framework) are
marked `revision: 1`, those stored under revision 2 (before revision 3: exact line of sight to the
tolerance, Dangerous entered by moves a unit does not make itself, To The Last!) `revision: 2`, those
stored under revision 3 (before revision 4: M29's empty turns, Subjugation's untargetable unit, Cersei's and
Sansa's abilities) `revision: 3`, and those stored under revision 4 (before revision 5: the random
terrain's hill, the Combat zone's free Attack on Destructible terrain) `revision: 4`, options and snapshot,
so their action logs replay to the same states; a game that names its revision and games of other rulesets
are left as they are."""
from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games.engine import get_ruleset
from games.engine.minis.table import REVISION
from games.models import Game
from games.services.replay import rebuilt_state, snapshot_matches_log
from tests.factories import make_game

pytestmark = pytest.mark.django_db
R = get_ruleset("minis")

mark = importlib.import_module("games.migrations.0020_minis_revision").mark
mark_2 = importlib.import_module("games.migrations.0022_minis_revision_2").mark
mark_3 = importlib.import_module("games.migrations.0023_minis_revision_3").mark
mark_4 = importlib.import_module("games.migrations.0025_minis_revision_4").mark


def test_minis_games_stored_before_revision_2_keep_revision_1_and_nothing_else_changes():
    assert REVISION == 5
    started = make_game(2, ruleset="minis", seed=3)
    assert "revision" not in started.options and "revision" not in started.state["options"]
    named = make_game(2, ruleset="minis", seed=4, options={"revision": 2})
    board = make_game(3, seed=5)
    before = Game.objects.get(pk=board.pk)
    mark(apps, None)
    started.refresh_from_db()
    named.refresh_from_db()
    assert started.options["revision"] == 1 and started.state["options"]["revision"] == 1
    assert named.options["revision"] == 2
    board.refresh_from_db()
    assert (board.options, board.state) == (before.options, before.state)


def test_minis_games_stored_under_revision_2_keep_it_and_nothing_else_changes():
    started = make_game(2, ruleset="minis", seed=6)  # started under the current revision: none named
    assert "revision" not in started.options and "revision" not in started.state["options"]
    old = make_game(2, ruleset="minis", seed=7, options={"revision": 1})
    board = make_game(3, seed=8)
    before = Game.objects.get(pk=board.pk)
    mark_2(apps, None)
    started.refresh_from_db()
    old.refresh_from_db()
    assert started.options["revision"] == 2 and started.state["options"]["revision"] == 2
    assert old.options["revision"] == 1 and old.state["options"]["revision"] == 1
    board.refresh_from_db()
    assert (board.options, board.state) == (before.options, before.state)


def test_minis_games_stored_under_revision_3_keep_it_and_nothing_else_changes():
    started = make_game(2, ruleset="minis", seed=9)  # started under the current revision: none named
    assert "revision" not in started.options and "revision" not in started.state["options"]
    old = make_game(2, ruleset="minis", seed=10, options={"revision": 2})
    board = make_game(3, seed=11)
    before = Game.objects.get(pk=board.pk)
    mark_3(apps, None)
    started.refresh_from_db()
    old.refresh_from_db()
    assert started.options["revision"] == 3 and started.state["options"]["revision"] == 3
    assert old.options["revision"] == 2 and old.state["options"]["revision"] == 2
    board.refresh_from_db()
    assert (board.options, board.state) == (before.options, before.state)


def test_minis_games_stored_under_revision_4_keep_it_and_replay_as_before():
    """Seed 13's random terrain rolls a 7 (the player's choice, M22): revision 4 read it as a Forest,
    revision 5 a hill. A game stored under revision 4 (no revision named: it was the current one) with
    some actions played rebuilds its Forest again once marked."""
    from tests.platform_helpers import submit

    stored = make_game(2, ruleset="minis", seed=13, options={"terrain": "random", "revision": 4})
    assert [t["type"] for t in stored.state["terrain"]] == ["forest", "palisade", "hedge"]
    for _ in range(3):  # the first player's choice and the first deployments, the engine's own answers
        stored.refresh_from_db()
        (seat,) = list(stored.state["decision"]["seats"])
        submit(stored, seat, R.default_action(stored.state, seat))
    stored.refresh_from_db()
    del stored.options["revision"]
    del stored.state["options"]["revision"]
    stored.save(update_fields=["options", "state"])
    assert stored.version == 3 and not snapshot_matches_log(stored)  # read as revision 5: a hill
    assert [t["type"] for t in rebuilt_state(stored)["terrain"]] == ["hill", "palisade", "hedge"]
    named = make_game(2, ruleset="minis", seed=14, options={"revision": 3})
    current = make_game(2, ruleset="minis", seed=15, options={"revision": 5})
    board = make_game(3, seed=16)
    before = Game.objects.get(pk=board.pk)
    mark_4(apps, None)
    for g in (stored, named, current, board):
        g.refresh_from_db()
    assert stored.options == {"terrain": "random", "revision": 4} and stored.state["options"]["revision"] == 4
    assert snapshot_matches_log(stored)
    assert [t["type"] for t in rebuilt_state(stored)["terrain"]] == ["forest", "palisade", "hedge"]
    assert named.options["revision"] == 3 and current.options["revision"] == 5
    assert (board.options, board.state) == (before.options, before.state)
