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
