"""Test-only staging for the attacks the battlefield page composes in full (issue 32), run in the live
server's environment (`manage.py shell -c`): a started `minis` game between two users (Stark,
Lannister) whose state is the engine's scenario setup (SCENARIOS.md "minis" notation) at the first
activation, the dice from the game's generator. Read by tests/browser/test_minis_attack_controls.py.

- `zone_melee`: Lannister's Tyrion is to activate and may claim the Combat zone (M35); Lannister's
  Guardsmen are engaged in their right flank by Stark's Sworn Swords (as scenario 38), so the zone's
  free Attack may re-face (M58) and align (M59) them first.
- `zone_ranged`: scenario 55: Lannister's crossbowmen (a synthetic card, Long range 12 in) stand 13.5 in
  from the Sworn Swords: the zone's free Attack reaches them only after a shift (M52).
- `terrain`: Stark's Sworn Swords activate 0.5 in behind a Palisade and 0.25 in beside a Hedge, both
  Destructible (M78), with a Forest (not Destructible) and a second Palisade 1.5 in away.
- `zone_terrain` (rules revision 5): Tyrion may claim the Combat zone; Lannister's Guardsmen, no enemy in
  reach, stand 0.5 in behind a Hedge and 0.25 in beside a Wall (Destructible, M78), a Forest 0.5 in away
  (not Destructible); a hill (Elevated, the random terrain's 7) stands in the middle of the table."""
from __future__ import annotations

from games.engine import get_ruleset
from tests.browser.stage_minis import users

SPENT = {"activated": True, "order_used": True}
SETUPS = {
    "zone_melee": {
        "first_player": "lannister", "turn": "lannister", "hands": {"stark": [], "lannister": []},
        "units": {"guardsmen": {"card": "10101", "at": [24, 20], "facing": 0, **SPENT},
                  "sworn_swords": {"card": "10201", "at": [26.75, 17.6], "facing": 270, **SPENT}},
        "ncus": {"30104": {"activated": False}},
    },
    "zone_ranged": {
        "first_player": "lannister", "turn": "lannister", "hands": {"stark": [], "lannister": []},
        "units": {"xbows": {"card": "90101", "at": [24, 10], "facing": 0, **SPENT},
                  "sworn_swords": {"card": "10201", "at": [24, 23.5], "facing": 180, **SPENT}},
        "ncus": {"30104": {"activated": False}},
    },
    "terrain": {
        "first_player": "stark", "turn": "stark", "hands": {"stark": [], "lannister": []},
        "units": {"sworn_swords": {"card": "10201", "at": [24, 20], "facing": 0, "order_used": True},
                  "guardsmen": {"card": "10101", "at": [24, 32], "facing": 180, "order_used": True}},
        "terrain": [{"id": "palisade", "type": "palisade", "rect": {"center": [24, 21], "size": [6, 1], "rotation": 0}},
                    {"id": "hedge", "type": "hedge", "rect": {"center": [20.5, 17.5], "size": [1, 4], "rotation": 0}},
                    {"id": "far_palisade", "type": "palisade", "rect": {"center": [31, 18], "size": [1, 4], "rotation": 0}},
                    {"id": "forest", "type": "forest", "circle": {"center": [14, 26], "radius": 2.5}}],
    },
    "zone_terrain": {
        "first_player": "lannister", "turn": "lannister", "hands": {"stark": [], "lannister": []},
        "units": {"guardsmen": {"card": "10101", "at": [24, 20], "facing": 0, **SPENT},
                  "sworn_swords": {"card": "10201", "at": [24, 40], "facing": 180, **SPENT}},
        "ncus": {"30104": {"activated": False}},
        "terrain": [{"id": "hedge", "type": "hedge", "rect": {"center": [24, 21], "size": [6, 1], "rotation": 0}},
                    {"id": "wall", "type": "wall", "rect": {"center": [20.5, 17.5], "size": [1, 4], "rotation": 0}},
                    {"id": "forest", "type": "forest", "circle": {"center": [29.75, 17], "radius": 2.5}},
                    {"id": "hill", "type": "hill", "circle": {"center": [36, 28], "radius": 2.5}}],
    },
}
CARDS = {"zone_ranged": [{"id": "90101", "name": "Crossbowmen", "faction": "lannister", "type": "infantry", "speed": 5,
                          "defense_save": 5, "morale": 6, "attacks": [{"name": "Crossbow", "range": "long", "hit": 4, "dice": [4, 3, 2]}],
                          "tray": "infantry", "figures": 12, "wounds_per_figure": 1, "ranks": 3, "cost": 5}]}


def attack_game(names: list[str], password: str, setup: str) -> None:
    """A started game between `names` (Stark, Lannister) at SETUPS[setup]; prints `game <id>`."""
    from games.services.play import do_create_game

    a, b = users(names, password)
    game = do_create_game(ruleset="minis", seating={"stark": a, "lannister": b}, seed=11, options={"terrain": "none"})
    state = get_ruleset("minis").scenario_game(game.seat_names(), {"reaction_prompts": "playable"}, game.seed,
                                               SETUPS[setup], "activation", {"cards": CARDS.get(setup)})
    state["dice"] = None  # the game's generator rolls, as in a live game
    game.state = state
    game.version += 1
    game.save(update_fields=["state", "version"])
    print(f"game {game.pk}")
