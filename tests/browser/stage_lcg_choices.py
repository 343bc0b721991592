"""Test-only staging for the card game's page (`manage.py shell -c`, as tests/browser/stage_lcg.py): a card game
played by the engine through the site's services from a known plot phase to a "choose one" of Fire and Blood,
with Power Behind the Throne's stand token on the revealed plot.

Alys (p1, Targaryen) reveals Power Behind the Throne (when revealed: 1 stand token on it) and holds Fire and Blood
with Drogon (unique, a Hatchling) in her dead pile; everyone passes until the challenges phase, where she plays
Fire and Blood on Drogon: the engine asks her to choose one, shuffle him into her deck or put him into play."""
from __future__ import annotations

from games.engine import get_ruleset
from games.models import Game
from tests.browser.stage_lcg import users

SETUP = {
    "first_player": "p1",
    "round": 1,
    "players": {
        "p1": {"decklist": None, "faction": "targaryen", "plots": ["power_behind_the_throne"],
               "hand": ["fire_and_blood"], "dead": ["drogon"], "deck": ["viserys_targaryen", "targaryen_loyalist"],
               "characters": ["targaryen_loyalist"]},
        "p2": {"decklist": None, "faction": "lannister", "plots": ["a_noble_cause"],
               "hand": ["lannisport_merchant"], "deck": ["paxter_redwyne", "cersei_lannister"],
               "characters": ["burned_men"]},
    },
}


def _next_action(engine, state, seat: str):
    """What the staging plays for `seat`: Power Behind the Throne, Alys first, Fire and Blood on Drogon as soon
    as she may play it, else a pass where passing is allowed (nothing else happens), else the first choice."""
    legal = engine.legal_actions(state, seat) or []
    for action in legal:
        if "play" in action and (action["play"] or {}).get("card") == "fire_and_blood":
            return action, True
    kind = state["decision"]["kind"]
    if kind == "plot":
        return {"plot": sorted(a["plot"] for a in legal)[0]}, False
    if kind == "first_player":
        return {"first_player": "p1"}, False
    if {"pass": True} in legal:
        return {"pass": True}, False
    return (legal[0] if legal else engine.bot_action(state, seat)), False


def fire_and_blood(names: list[str], password: str, staged: bool = True) -> None:
    """Prints `game <id>`: the game waiting on Alys's choice for Fire and Blood."""
    from games.services.play import do_create_game, do_submit_action

    a, b = users(names, password)
    game = do_create_game(ruleset="lcg", seating={"p1": a, "p2": b})
    engine = get_ruleset("lcg")
    game.state = engine.scenario_game(game.seat_names(), dict(game.options or {}), game.seed, SETUP, "plot")
    game.save(update_fields=["state"])
    people = {"p1": a, "p2": b}
    for _ in range(400):
        game = Game.objects.get(pk=game.pk)
        d = game.state["decision"] or {}
        if d.get("kind") == "choose" and d.get("what") == "mode":
            break
        seat = sorted(engine.pending(game.state))[0]
        action, _played = _next_action(engine, game.state, seat)
        do_submit_action(game.pk, people[seat], action=action, version=game.version)
    else:
        raise RuntimeError("the staging never reached Fire and Blood's choice")
    print(f"game {game.pk}")
