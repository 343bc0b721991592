"""Test-only staging for the card game's melee page (issue 31), run in the live server's environment: a
4-player melee, two people (p1, p2) and two computer players (p3, p4), staged at round 1's plot phase with
known cards: p1 reveals the higher initiative, chooses the first player, and title selection (L203) begins
with it. Every window is not asked (`every_window` off) so the round goes quickly to the challenges."""
from __future__ import annotations

from games.engine import get_ruleset
from games.models import Game
from tests.browser.stage_lcg import users

MELEE_SETUP = {
    "first_player": "p1",
    "round": 1,
    "players": {
        "p1": {"decklist": None, "faction": "stark", "plots": ["the_winds_of_winter"],
               "hand": ["tumblestone_knight"], "deck": ["direwolf_pup", "bran_stark", "maester_wendamyr"],
               "characters": ["salty_navigator", "black_winds_crew"]},
        "p2": {"decklist": None, "faction": "lannister", "plots": ["a_noble_cause"],
               "hand": ["lannisport_merchant"], "deck": ["paxter_redwyne", "cersei_lannister", "little_bird"],
               "characters": ["courtesan_of_the_rose", "burned_men"]},
        "p3": {"decklist": None, "faction": "thenightswatch", "plots": ["a_noble_cause"], "deck": ["direwolf_pup", "bran_stark"],
               "characters": ["salty_navigator"]},
        "p4": {"decklist": None, "faction": "tyrell", "plots": ["a_noble_cause"], "deck": ["paxter_redwyne", "little_bird"],
               "characters": ["lannisport_moneylender"]},
    },
}


def melee_near_end(names: list[str], password: str, staged: bool = True) -> None:
    """melee_game with p1's faction at 14 power: one power more wins (L229)."""
    melee_game(names, password, staged, power=14)


def melee_game(names: list[str], password: str, staged: bool = True, power: int = 0) -> None:
    """A started 4-player melee: `names` in p1 and p2, the computer in p3 and p4. Prints `game <id>`."""
    from games.services.play import do_create_game

    a, b = users(names, password)
    game = do_create_game(ruleset="lcg", seating={"p1": a, "p2": b, "p3": None, "p4": None},
                          options={"every_window": False}, seed=5)
    if staged:
        engine = get_ruleset("lcg")
        setup = {**MELEE_SETUP, "players": {**MELEE_SETUP["players"],
                                            "p1": {**MELEE_SETUP["players"]["p1"], "faction_power": power}}}
        game.state = engine.scenario_game(game.seat_names(), {**(game.options or {}), "every_window": False},
                                          game.seed, setup, "plot")
        game.save(update_fields=["state"])
    game = Game.objects.get(pk=game.pk)
    print(f"game {game.pk}")


def six_seats(names: list[str], password: str, staged: bool = True, seats: int = 6, to_the_end: bool = False) -> None:
    """A 6-player melee: `names[0]` in p1 and the computer in the five other seats, played by the engine's player
    for the person too until the person is asked to declare a challenge (`to_the_end`: until the game is over).
    Prints `game <id>`."""
    from games.services.play import do_create_game, do_submit_action

    (a,) = users(names[:1], password)
    game = do_create_game(ruleset="lcg", seating={"p1": a, **{f"p{n}": None for n in range(2, seats + 1)}},
                          options={"every_window": False}, seed=6)
    engine = get_ruleset("lcg")
    for _ in range(5000):
        game = Game.objects.get(pk=game.pk)
        kind = engine.pending(game.state).get("p1")
        if not game.is_active() or kind is None or (kind == "challenge" and not to_the_end):
            break
        do_submit_action(game.pk, a, action=engine.bot_action(game.state, "p1"), version=game.version)
    print(f"game {game.pk}")


def finished_melee(names: list[str], password: str, staged: bool = True) -> None:
    """A 4-player melee of `names[0]` and three computer players, played to its end. Prints `game <id>`."""
    six_seats(names, password, staged, seats=4, to_the_end=True)
