"""Test-only staging for the miniatures game's page, run in the live server's environment
(`manage.py shell -c`): users, a started `minis` game between them (Stark, Lannister), and (for a
known position) the engine's own scenario setup (SCENARIOS.md "minis" notation) put in place of the
new game's state. Everything after is played in the browser."""
from __future__ import annotations

from games.engine import get_ruleset
from games.models import Game

# Round 1, Stark to activate. Stark's Sworn Swords face Lannister's Guardsmen 8 in away across the
# middle of the table; after a Maneuver of 3.5 in towards them the Guardsmen's charge (Speed 4 + D6)
# reaches them whatever the die. Stark's Umber Berserkers and Lannister's Halberdiers are already
# locked in melee, front to front, on the east side; the Outriders wait on Stark's edge. Hands are empty and every
# Order is spent, so no reaction window interrupts the moves; the dice come from the game's seed.
BATTLE_SETUP = {
    "first_player": "stark",
    "turn": "stark",
    "units": {
        "sworn_swords": {"card": "10201", "at": [24, 20], "facing": 0, "order_used": True},
        "outriders": {"card": "10202", "at": [8, 8], "facing": 0, "order_used": True},
        "guardsmen": {"card": "10101", "at": [24, 28], "facing": 180, "order_used": True},
        "halberdiers": {"card": "10102", "at": [40, 40], "facing": 180, "order_used": True},
        "umber_berserkers": {"card": "10203", "at": [40, 40], "facing": 0, "order_used": True},
    },
    "ncus": {"30201": {"activated": False}, "30104": {"activated": False}},
    "terrain": [{"id": "woods", "type": "forest", "circle": {"center": [38, 22], "radius": 2.5}},
                {"id": "fence", "type": "palisade", "rect": {"center": [10, 36], "size": [6, 1], "rotation": 45}}],
    "hands": {"stark": [], "lannister": []},
}


def battle_state(seats: list[str], seed: int) -> dict:
    """BATTLE_SETUP as a game state whose dice come from the game's generator (a scenario scripts
    every die; `dice: None` is the live game's way)."""
    state = get_ruleset("minis").scenario_game(seats, {"reaction_prompts": "playable"}, seed, BATTLE_SETUP, "activation")
    state["dice"] = None
    return state


def users(names: list[str], password: str) -> list:
    from accounts.models import User

    out = []
    for n in names:
        user = User.objects.filter(username=n).first() or User.objects.create_user(
            username=n, email=f"{n}@example.com", password=password)
        out.append(user)
    return out


def minis_game(names: list[str], password: str, staged: bool = False, seed: int = 7, terrain: str = "random") -> None:
    """A started miniatures game between `names` (Stark, Lannister): from the roll-off and deployment,
    or (`staged`) at BATTLE_SETUP's first activation. Prints `game <id>`."""
    from games.services.play import do_create_game

    a, b = users(names, password)
    game = do_create_game(ruleset="minis", seating={"stark": a, "lannister": b}, seed=seed,
                          options={"terrain": terrain})
    if staged:
        game.state = battle_state(game.seat_names(), game.seed)
        game.save(update_fields=["state"])
    print(f"game {game.pk}")


def finished_minis(names: list[str], password: str, seed: int = 3) -> None:
    """A miniatures game between `names` played to its end by the engine's player."""
    from games.services.play import do_create_game, do_submit_action

    a, b = users(names, password)
    game = do_create_game(ruleset="minis", seating={"stark": a, "lannister": b}, seed=seed,
                          options={"reaction_prompts": "playable"})
    engine = get_ruleset("minis")
    for _ in range(5000):
        game = Game.objects.get(pk=game.pk)
        if not game.is_active():
            break
        seat = sorted(engine.pending(game.state))[0]
        do_submit_action(game.pk, a if seat == "stark" else b, action=engine.bot_action(game.state, seat),
                         version=game.version)
    game.refresh_from_db()
    print(f"game {game.pk} {game.status}")
