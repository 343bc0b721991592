"""games/migrations/0020_minis_revision: the miniatures games stored before rules revision 2 (issue
32's rules framework) are marked `revision: 1`, options and snapshot, so their action logs replay to
the same states; a game that names its revision and games of other rulesets are left as they are."""
from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games.engine.minis.table import REVISION
from games.models import Game
from tests.factories import make_game

pytestmark = pytest.mark.django_db

mark = importlib.import_module("games.migrations.0020_minis_revision").mark


def test_minis_games_stored_before_revision_2_keep_revision_1_and_nothing_else_changes():
    assert REVISION == 2
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
