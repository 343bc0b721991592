"""Test-only staging for tests/browser/test_phase_summary.py (run in the live server's environment,
`manage.py shell -c`, like stage.py): round 1's Planning phase with Stark's knight and footman in
Winterfell next to Baratheon's footman in White Harbor, the bots' orders already placed (Defense
orders), and round 2's Westeros cards fixed (Supply, Game of Thrones, Rains of Autumn: no decision).
Stark, first on the Iron Throne and the Fiefdoms track, places a March and attacks White Harbor."""
from __future__ import annotations

from tests.browser.stage import stage

SETUP = {
    "units": {"winterfell": {"stark": ["footman", "knight"]}, "white_harbor": {"baratheon": ["footman"]},
              "lannisport": {"lannister": ["footman"]}, "dragonstone": {"baratheon": ["footman"]}},
    "tracks": {"iron_throne": ["stark", "lannister", "baratheon"], "fiefdoms": ["stark", "baratheon", "lannister"]},
    "decks": {"westeros_1": ["supply"], "westeros_2": ["game_of_thrones"], "westeros_3": ["rains_of_autumn"]},
}
BOT_ORDERS = {"lannister": {"lannisport": "defense+1"},
              "baratheon": {"white_harbor": "defense+1", "dragonstone": "defense+1"}}


def stage_battle_round(game_id: int) -> None:
    def bots_place(engine, state):
        for seat, orders in BOT_ORDERS.items():
            state, _ = engine.apply(state, seat, {"place_orders": orders})
        return state

    stage(game_id, SETUP, "planning", bots_place)
