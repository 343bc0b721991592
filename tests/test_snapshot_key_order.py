"""A game's snapshot comes back from the database with its keys in the order the engine wrote
them (games/jsonfield.py). PostgreSQL's jsonb sorts them (shortest first): the miniatures engine
then deployed another unit by default on the live game than in a replay of its log, and the card
game's windows took other turns (found by tests/test_minis_platform.py on PostgreSQL)."""
from __future__ import annotations

import os
from datetime import timedelta

import pytest

from games.engine import get_ruleset
from games.models import Game
from tests.factories import make_game

pytestmark = [pytest.mark.django_db, pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="SQLite keeps JSON as text, in order; jsonb's reordering is PostgreSQL's")]


def test_the_snapshot_keeps_its_key_order():
    game = make_game(2, ruleset="minis")
    written = {"units": {"sworn_swords_2": {"seat": "stark"}, "grey_wind": {"seat": "stark"}}, "zz": 1, "a": [{"yy": 1, "b": 2}]}
    Game.objects.filter(pk=game.pk).update(state=written)
    read = Game.objects.get(pk=game.pk).state
    assert list(read) == ["units", "zz", "a"] and list(read["units"]) == ["sworn_swords_2", "grey_wind"]
    assert list(read["a"][0]) == ["yy", "b"] and read == written


def test_a_timeout_default_is_the_same_on_the_stored_game_as_in_its_replay():
    """The miniatures engine deploys "the first unit not yet on the table" by default (M21-M24,
    rules/minis.md §5): read back from jsonb, that was Grey Wind (the shortest key) instead of the
    army's first unit, so the live game's default was not the one its replay computes."""
    from games.services import deadlines

    engine = get_ruleset("minis")
    game = make_game(2, ruleset="minis", seed=3, time_limit=3600)
    now = game.created_at
    for _ in range(12):
        now += timedelta(seconds=3601)
        deadlines.resolve_overdue(game.pk, now=now)
    game = Game.objects.get(pk=game.pk)
    state = engine.new_game(game.seat_names(), game.options, game.seed)
    kinds = set()
    for record in game.actions.order_by("version"):
        kinds.add(engine.pending(state)[record.seat])
        assert record.action == engine.default_action(state, record.seat), record.version
        state, _ = engine.apply(state, record.seat, record.action)
    assert "deploy" in kinds and state == game.state
