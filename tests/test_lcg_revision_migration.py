"""games/migrations/0018_lcg_revision: the card games started before issue 30 are marked with the
rules revision they were started under (options and snapshot), other games and marked ones are left
as they are; a marked game's state goes on under revision 1 (tests/engine/test_lcg_revision.py)."""
from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games.models import Game
from tests.factories import make_game

pytestmark = pytest.mark.django_db

mark = importlib.import_module("games.migrations.0018_lcg_revision").mark


def test_card_games_started_earlier_keep_revision_1_and_nothing_else_changes():
    old = make_game(2, ruleset="lcg", seed=3)
    current = make_game(2, ruleset="lcg", seed=4, options={"revision": 2})
    board = make_game(3, seed=5)
    before = Game.objects.get(pk=board.pk)
    current_before = Game.objects.get(pk=current.pk).options  # revision 2 and the players' action windows
    mark(apps, None)
    old.refresh_from_db()
    current.refresh_from_db()
    assert old.options["revision"] == 1 and old.state["options"]["revision"] == 1
    assert current.options == current_before and current.options["revision"] == 2
    board.refresh_from_db()
    assert (board.options, board.state) == (before.options, before.state)
    mark(apps, None)  # again: nothing more
    old.refresh_from_db()
    assert old.options["revision"] == 1
