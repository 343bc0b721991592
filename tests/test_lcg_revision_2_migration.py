"""games/migrations/0019_lcg_revision_2: the card games started under rules revision 2 (stored
without a revision, as the current one was not stored) are marked `revision: 2` when revision 3
puts the rules right (issue 30), options and snapshot; marked games and other games are left as
they are."""
from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games.engine.lcg.abilities import REVISION
from games.models import Game
from tests.factories import make_game

pytestmark = pytest.mark.django_db

mark = importlib.import_module("games.migrations.0019_lcg_revision_2").mark


def test_card_games_started_under_revision_2_keep_it_and_nothing_else_changes():
    assert REVISION == 3
    started = make_game(2, ruleset="lcg", seed=3)
    started.options = {k: v for k, v in (started.options or {}).items() if k != "revision"}
    started.state["options"].pop("revision", None)
    started.save()
    old = make_game(2, ruleset="lcg", seed=4, options={"revision": 1})
    old_options = dict(old.options)  # the factory's other options (action_windows...) included
    board = make_game(3, seed=5)
    before = Game.objects.get(pk=board.pk)
    mark(apps, None)
    started.refresh_from_db()
    old.refresh_from_db()
    assert started.options["revision"] == 2 and started.state["options"]["revision"] == 2
    assert old.options == old_options and old.options["revision"] == 1 and old.state["options"]["revision"] == 1
    board.refresh_from_db()
    assert (board.options, board.state) == (before.options, before.state)
