"""The long-running processes freeze what they loaded at start for the garbage collector
(westeros/heap.py, issue 20): Daphne's full collections took 60-117 ms each, walking Django and the
rulesets, and every request in flight waited for them."""
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


def test_freezing_moves_the_objects_alive_out_of_the_collections_reach():
    assert run("import gc; from westeros.heap import freeze_startup_objects; "
               "frozen = freeze_startup_objects(); print(frozen > 10000, gc.get_freeze_count() == frozen, "
               "len(gc.get_objects()) < frozen)") == "True True True"


def test_daphne_freezes_once_its_reactor_runs_and_not_before():
    code = ("import gc, daphne.server, westeros.asgi; from twisted.internet import reactor; "
            "print(gc.get_freeze_count()); "
            "reactor.callWhenRunning(lambda: (print(gc.get_freeze_count() > 10000), reactor.stop())); reactor.run()")
    assert run(code).split() == ["0", "True"]


def test_importing_the_asgi_application_outside_daphne_freezes_nothing():
    assert run("import gc, westeros.asgi; print(gc.get_freeze_count())") == "0"


def test_the_celery_worker_freezes_before_it_starts_its_processes():
    code = ("import gc; from westeros.celery import app; from celery.signals import worker_init; "
            "worker_init.send(sender=None); print(gc.get_freeze_count() > 10000)")
    assert run(code) == "True"


def test_run_deadlines_freezes_after_loading_the_rulesets(monkeypatch):
    from django.core.management import call_command

    from games.management.commands import run_deadlines

    steps = []
    monkeypatch.setattr(run_deadlines, "warm_up", lambda: steps.append("warm_up"))
    monkeypatch.setattr(run_deadlines, "freeze_startup_objects", lambda: steps.append("freeze"))

    def first_turn():
        steps.append("turn")
        raise KeyboardInterrupt  # ends the loop

    monkeypatch.setattr(run_deadlines, "tick_between_connections", first_turn)
    with pytest.raises(KeyboardInterrupt):
        call_command("run_deadlines")
    assert steps == ["warm_up", "freeze", "turn"]

