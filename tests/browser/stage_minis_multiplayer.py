"""Test-only staging for the miniatures game of three or four players (issue 33), run in the live server's
environment (`manage.py shell -c`): a lobby of two to four people (the computer in the other seats) started through
the lobby service, then played on by the engine's player for the people's seats until the given round, so that the
page shows every army on the table. Prints `game <id>`."""
from __future__ import annotations

from games.engine import get_ruleset
from games.models import Game, Lobby
from games.services import lobbies
from games.services.play import do_submit_action
from tests.browser.stage_minis import users


def multiplayer_game(names: list[str], password: str, *, seats: int, multiplayer: str, until_round: int = 2) -> None:
    people = users(names, password)
    host, others = people[0], people[1:]
    settings = lobbies.LobbySettings(ruleset="minis", seat_count=seats, time_limit=86400,
                                     house_choice=Lobby.HouseChoice.PICK, computer_seats=seats - len(people),
                                     options={"multiplayer": multiplayer})
    order = ["stark", "lannister", "stark_2", "lannister_2"]
    lobby = lobbies.do_create_lobby(host, settings, seat=order[0])
    for i, person in enumerate(others, start=1):
        lobby = lobbies.do_join_lobby(lobby.pk, person, seat=order[i])
    game = Game.objects.get(lobby=lobby)
    engine = get_ruleset("minis")
    by_seat = {s.seat: s.user for s in game.seats.select_related("user") if s.user is not None}
    for _ in range(3000):
        game.refresh_from_db()
        state = game.state
        mine = sorted(s for s in engine.pending(state) if s in by_seat)
        # stop at a decision every person is asked together (a team's activation, M130) in the round asked for
        if not game.is_active() or (state["phase"] == "activation" and state["round"] >= until_round
                                    and len(mine) == min(2, len(by_seat))):
            break
        if not mine:
            break
        do_submit_action(game.pk, by_seat[mine[0]], action=engine.bot_action(state, mine[0]), version=game.version)
    print("game", game.pk)


# A four-player free-for-all in round 1 (tests/scenarios/minis/multiplayer/71): Stark (second army)'s only unit,
# its Sworn Swords down to 1 wound, is engaged with Lannister's Guardsmen in the north-east corner; Lannister's
# attack with six scripted hits and six Defense dice of 1 destroys it, and Stark (second army) is out (M131).
ELIMINATION_SETUP = {
    "round": 1,
    "first_player": "lannister",
    "hands": {"stark": [], "lannister": [], "stark_2": [], "lannister_2": []},
    "units": {
        "swords": {"card": "10201", "at": [8, 8], "facing": 0},
        "guards": {"card": "10101", "at": [36, 36], "facing": 0},
        "wolves": {"card": "10201", "seat": "stark_2", "at": [36, 36], "facing": 180, "wounds": 1},
        "halberds": {"card": "10102", "seat": "lannister_2", "at": [40, 6], "facing": 0},
    },
    "dice": [6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1],
}


def eliminated_ffa(names: list[str], password: str, seed: int = 5) -> None:
    """A four-player free-for-all between `names` (stark, lannister, stark_2, lannister_2, in seating order) at
    ELIMINATION_SETUP, Lannister to activate its Guardsmen (eliminate_stark_2 plays the attack). Prints `game <id>`."""
    from games.services.play import do_create_game

    people = users(names, password)
    seats = ["stark", "lannister", "stark_2", "lannister_2"]
    game = do_create_game(ruleset="minis", seating=dict(zip(seats, people, strict=True)), seed=seed,
                          options={"multiplayer": "ffa"})
    game.state = get_ruleset("minis").scenario_game(seats, {"multiplayer": "ffa", "reaction_prompts": "playable"},
                                                    seed, ELIMINATION_SETUP, "activation")
    game.version += 1
    game.save(update_fields=["state", "version"])
    print("game", game.pk)


def eliminate_stark_2(game_id: int) -> None:
    """Lannister's attack that destroys Stark (second army)'s last unit and its declined Surge Forth, played through
    the play service (the pages learn it as any action); the dice come from the game's generator afterwards."""
    engine = get_ruleset("minis")
    game = Game.objects.get(pk=game_id)
    lannister = game.seats.get(seat="lannister").user
    for action in ({"activate": "guards"}, {"attack": {"target": "wolves", "attack": "Long Sword"}}, {"surge": None}):
        game.refresh_from_db()
        do_submit_action(game.pk, lannister, action=action, version=game.version)
    game.refresh_from_db()
    assert game.state["multi"]["eliminated"] == ["stark_2"] and engine.pending(game.state) == {"lannister_2": "activate"}
    game.state["dice"] = None
    game.save(update_fields=["state"])


def play_round_on(game_id: int) -> None:
    """The engine's player for every person asked, until round 2's first activation; Stark (second army), out,
    must never be asked. Prints the seats asked, in order."""
    engine = get_ruleset("minis")
    asked = []
    for _ in range(500):
        game = Game.objects.get(pk=game_id)
        state = game.state
        if state["round"] >= 2 and state["phase"] == "activation":
            break
        seat = sorted(engine.pending(state))[0]
        asked.append(seat)
        do_submit_action(game.pk, game.seats.get(seat=seat).user, action=engine.bot_action(state, seat),
                         version=game.version)
    assert "stark_2" not in asked, asked
    print("asked", ",".join(dict.fromkeys(asked)))


# Two against two (M130) in round 5, team a (Stark and Lannister, people) to activate: team b's last unit on the table,
# Lannister (second army)'s Halberdiers down to 1 wound, is engaged front to front with Stark's Sworn Swords; Stark
# (second army) has no unit left. The Sworn Swords' attack (seven scripted 6s, fourteen Defense dice of 1) destroys
# it: both of team b's players are out and team a wins by elimination (M131, M128).
TEAMS_END_SETUP = {
    "round": 5,
    "first_player": "stark",
    "vp": {"a": 3, "b": 2},
    "hands": {"stark": [], "lannister": [], "stark_2": [], "lannister_2": []},
    "units": {
        "swords": {"card": "10201", "at": [50, 24], "facing": 0},
        "guards": {"card": "10101", "at": [15.5, 8], "facing": 0},
        "halberds": {"card": "10102", "seat": "lannister_2", "at": [50, 24], "facing": 180, "wounds": 1},
    },
    "dice": [6] * 7 + [1] * 14,
}


def teams_near_the_end(names: list[str], password: str, seed: int = 3) -> None:
    """A two-against-two game: `names` play Stark and Lannister (team a), the computer the two second armies (team b),
    at TEAMS_END_SETUP. Prints `game <id>`."""
    from games.services.play import do_create_game

    a, b = users(names, password)
    seats = ["stark", "lannister", "stark_2", "lannister_2"]
    game = do_create_game(ruleset="minis", seating={"stark": a, "lannister": b, "stark_2": None, "lannister_2": None},
                          seed=seed, options={"multiplayer": "teams"})
    game.state = get_ruleset("minis").scenario_game(seats, {"multiplayer": "teams", "reaction_prompts": "playable"},
                                                    seed, TEAMS_END_SETUP, "activation")
    game.version += 1
    game.save(update_fields=["state", "version"])
    print("game", game.pk)
