"""Test-only staging (issue 31): a 4-player melee, two people (p1, p2) and two computer players, at round
1's plot phase; p1 reveals Heads on Spikes, whose "pick one opponent" asks p1 which of the three."""
from __future__ import annotations

from games.engine import get_ruleset
from games.models import Game
from tests.browser.stage_lcg import users
from tests.browser.stage_lcg_melee import MELEE_SETUP


def heads_on_spikes(names: list[str], password: str, staged: bool = True) -> None:
    from games.services.play import do_create_game

    a, b = users(names, password)
    game = do_create_game(ruleset="lcg", seating={"p1": a, "p2": b, "p3": None, "p4": None},
                          options={"every_window": False}, seed=5)
    players = {**MELEE_SETUP["players"]}
    players["p1"] = {**players["p1"], "plots": ["heads_on_spikes"]}
    players["p2"] = {**players["p2"], "hand": ["burned_men"]}
    engine = get_ruleset("lcg")
    game.state = engine.scenario_game(game.seat_names(), {**(game.options or {}), "every_window": False},
                                      game.seed, {**MELEE_SETUP, "players": players}, "plot")
    game.save(update_fields=["state"])
    game = Game.objects.get(pk=game.pk)
    print(f"game {game.pk}")
