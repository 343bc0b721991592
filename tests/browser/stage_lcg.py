"""Test-only staging for the card game's page, run in the live server's environment
(`manage.py shell -c`): users, a started `lcg` game between them, and (for a known round) the
engine's own scenario setup (SCENARIOS.md "lcg" notation) put in place of the dealt state. Every
window asks both seats (`every_window` on, the live default); everything after is played in the
browser."""
from __future__ import annotations

from games.engine import get_ruleset
from games.models import Game

# Round 1 from its plot phase. Alice (p1, The Old Ways) holds a cheap knight to marshal and has a
# Salty Navigator in play; Bram (p2, Secrets and Schemes) has three characters (one can defend a
# military challenge) and eight cards in hand, so claim 2 asks him which two die and taxation asks
# him to discard down to his reserve.
ROUND_SETUP = {
    "first_player": "p1",
    "round": 1,
    "players": {
        "p1": {"decklist": "the_old_ways", "plots": ["the_winds_of_winter", "naval_superiority"],
               "hand": ["tumblestone_knight", "maester_wendamyr", "the_roseroad", "black_winds_crew"],
               "deck": ["direwolf_pup", "bran_stark"], "characters": ["salty_navigator"]},
        "p2": {"decklist": "secrets_and_schemes", "plots": ["taxation", "sneak_attack"],
               "hand": ["grand_maester_pycelle", "lannisport_merchant", "the_roseroad", "casterly_rock", "little_bird",
                        "hear_me_roar", "growing_strong", "tears_of_lys"],
               "deck": ["paxter_redwyne", "cersei_lannister"],
               "characters": ["courtesan_of_the_rose", "burned_men", "lannisport_moneylender"]},
    },
}


def users(names: list[str], password: str) -> list:
    from accounts.models import User

    out = []
    for n in names:
        user = User.objects.filter(username=n).first() or User.objects.create_user(
            username=n, email=f"{n}@example.com", password=password)
        out.append(user)
    return out


def lcg_game(names: list[str], password: str, staged: bool = True, private: bool = False) -> None:
    """A started card game between `names` (p1, p2), staged at ROUND_SETUP's plot phase unless
    `staged` is false (then the dealt game: mulligans and setup first). Prints `game <id>`."""
    from games.services.play import do_create_game

    a, b = users(names, password)
    game = do_create_game(ruleset="lcg", seating={"p1": a, "p2": b}, private=private)
    if staged:
        engine = get_ruleset("lcg")
        game.state = engine.scenario_game(game.seat_names(), {**(game.options or {}), "every_window": True}, game.seed,
                                          ROUND_SETUP, "plot")
        game.save(update_fields=["state"])
    print(f"game {game.pk}")


def finished_lcg(names: list[str], password: str) -> None:
    """A card game between `names` played to its end by the engine's player (a few seconds)."""
    from games.services.play import do_create_game

    a, b = users(names, password)
    game = do_create_game(ruleset="lcg", seating={"p1": a, "p2": b}, options={"every_window": False}, seed=11)
    engine = get_ruleset("lcg")
    from games.services.play import do_submit_action

    for _ in range(5000):
        game = Game.objects.get(pk=game.pk)
        if not game.is_active():
            break
        pending = engine.pending(game.state)
        seat = sorted(pending)[0]
        user = a if seat == "p1" else b
        do_submit_action(game.pk, user, action=engine.bot_action(game.state, seat), version=game.version)
    game.refresh_from_db()
    print(f"game {game.pk} {game.status}")


def decision_states(seed: int = 11, every_window: bool = False) -> list[dict]:
    """The states of a game the engine's player plays against the random player, one at each new kind
    of decision (kind, what, whether the server lists the actions, which seat): every kind of
    question the page must ask in words."""
    import random

    engine = get_ruleset("lcg")
    state = engine.new_game(["p1", "p2"], {"every_window": every_window}, seed)
    rnd = random.Random(seed)
    seen, out = set(), []
    while not state["over"]:
        pending = engine.pending(state)
        seat = sorted(pending)[0]
        d = state["decision"]
        key = (d["kind"], d.get("what"), engine.legal_actions(state, seat) is None, seat)
        if key not in seen:
            seen.add(key)
            out.append(state)
        act = engine.bot_action(state, seat) if seat == "p1" else engine.random_action(state, seat, rnd)
        state, _ = engine.apply(state, seat, act)
    return out


def decision_games(names: list[str], password: str, seed: int = 11) -> None:
    """One game between `names` per state of decision_states(seed); prints `games <id>:<seats>,...`
    (the seats asked in each)."""
    from games.services.play import do_create_game

    a, b = users(names, password)
    engine = get_ruleset("lcg")
    out = []
    for state in decision_states(seed):
        game = do_create_game(ruleset="lcg", seating={"p1": a, "p2": b}, options={"every_window": False})
        game.state = state
        game.version += 1
        game.save(update_fields=["state", "version"])
        out.append(f"{game.pk}:{'+'.join(sorted(engine.pending(state)))}")
    print("games " + ",".join(out))
