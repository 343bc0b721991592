"""Test-only staging (run in the live server's environment, `manage.py shell -c`) for
tests/browser/test_minis_page_in_spanish.py: a miniatures game between two players played by the
engine's own player through the game service until the second round begins, so that its log holds
deployment, activations, moves, charges, attacks and the Cleanup."""
from __future__ import annotations

from games.engine import get_ruleset
from games.models import Game
from tests.browser.stage_minis import users


def played_minis(names: list[str], password: str, seed: int = 5, until_round: int = 2) -> None:
    """Prints `game <id> <seat to decide>`."""
    from games.services.play import do_create_game, do_submit_action

    a, b = users(names, password)
    game = do_create_game(ruleset="minis", seating={"stark": a, "lannister": b}, seed=seed,
                          options={"reaction_prompts": "playable"})
    engine = get_ruleset("minis")
    for _ in range(3000):
        game = Game.objects.get(pk=game.pk)
        if not game.is_active() or (game.state["round"] >= until_round and len(engine.pending(game.state)) == 1):
            break
        seat = sorted(engine.pending(game.state))[0]
        do_submit_action(game.pk, a if seat == "stark" else b, action=engine.bot_action(game.state, seat),
                         version=game.version)
    game.refresh_from_db()
    print(f"game {game.pk} {next(iter(engine.pending(game.state)))}")
