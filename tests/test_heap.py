"""The long-running processes set the garbage collector for a server (westeros/heap.py, issue 20):
what they loaded at start is frozen (Daphne's full collections took 60-117 ms walking Django and the
rulesets), and the young generation is collected every 10,000 allocations instead of 700 (objects of
requests in flight were promoted, and a full collection of 150 ms came every 5 s with 1,200 sockets
open). Every request or update in flight waited for those collections."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(code: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="westeros.settings", SECRET_KEY="test", DEADLINE_RUNNER_IN_SERVER="false")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_tuning_freezes_the_objects_alive_and_collects_the_young_less_often():
    assert run("import gc; from westeros.heap import tune_collector; print(gc.get_threshold()); "
               "frozen = tune_collector(); print(frozen > 10000, gc.get_freeze_count() == frozen, "
               "len(gc.get_objects()) < frozen, gc.get_threshold())").splitlines() == [
        "(700, 10, 10)", "True True True (10000, 10, 10)"]


def test_daphne_tunes_once_its_reactor_runs_and_not_before():
    code = ("import gc, daphne.server, westeros.asgi; from twisted.internet import reactor; "
            "print(gc.get_freeze_count(), gc.get_threshold()[0]); "
            "reactor.callWhenRunning(lambda: (print(gc.get_freeze_count() > 10000, gc.get_threshold()[0]), "
            "reactor.stop())); reactor.run()")
    assert run(code).splitlines() == ["0 700", "True 10000"]


def test_importing_the_asgi_application_outside_daphne_changes_nothing():
    assert run("import gc, westeros.asgi; print(gc.get_freeze_count(), gc.get_threshold()[0])") == "0 700"


def test_the_celery_worker_tunes_before_it_starts_its_processes():
    code = ("import gc; from westeros.celery import app; from celery.signals import worker_init; "
            "worker_init.send(sender=None); print(gc.get_freeze_count() > 10000, gc.get_threshold()[0])")
    assert run(code) == "True 10000"


def test_run_deadlines_tunes_after_loading_the_rulesets(monkeypatch):
    from django.core.management import call_command

    from games.management.commands import run_deadlines

    steps = []
    monkeypatch.setattr(run_deadlines, "warm_up", lambda: steps.append("warm_up"))
    monkeypatch.setattr(run_deadlines, "tune_collector", lambda: steps.append("tune"))

    def first_turn():
        steps.append("turn")
        raise KeyboardInterrupt  # ends the loop

    monkeypatch.setattr(run_deadlines, "tick_between_connections", first_turn)
    with pytest.raises(KeyboardInterrupt):
        call_command("run_deadlines")
    assert steps == ["warm_up", "tune", "turn"]



def test_the_data_pages_read_is_loaded_before_the_freeze():
    """Issue 27: the catalogues the pages read were built by the first request that needed them, and
    then walked by every full collection; now they are loaded first and frozen with the rest, in each
    language the site speaks (issue 29: English and Spanish)."""
    code = ("import django; django.setup(); import gc; from westeros.heap import tune_collector; "
            "from web import board, btwixt, lcg, minis; tune_collector(); "
            "print(board._agot_board_json.cache_info().currsize, lcg.catalogue.cache_info().currsize, "
            "minis.catalogue.cache_info().currsize, minis._translated.cache_info().currsize, "
            "lcg._translated.cache_info().currsize, sorted(btwixt._built[1]))")
    assert run(code).split() == ["2", "1", "1", "1", "1", "['en',", "'es']"]
