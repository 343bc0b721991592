"""Test-only staging for tests/browser/test_agot_page_in_spanish.py, run in the live server's
environment (`manage.py shell -c`): one board game per kind of decision the page shows, Stark's
player (the first name) asked it, the other seats' players people (so nothing moves on its own).
The positions are tests/browser/stage.py's; from a staged position the engine's player answers
(every seat, Stark too) until Stark is asked the wanted kind. One more game is played through the
site's services (its log has sentences to read). Prints `games id:kind,...`."""
from __future__ import annotations

from games.engine import get_ruleset
from games.models import Game
from tests.browser import stage as S

AGOT = get_ruleset("agot")


def _advance(game: Game, want: str, limit: int = 60, stark=None) -> str | None:
    """Answer with the engine's player until Stark is asked `want`: Stark's kind then (None if never).
    `stark(state)`: Stark's own answer instead of the engine's player's, when it returns one."""
    state = game.state
    for _ in range(limit):
        pending = AGOT.pending(state)
        if pending.get("stark") == want:
            break
        if not pending:
            return None
        seat = sorted(s for s in pending if s != "stark")[0] if set(pending) - {"stark"} else "stark"
        action = (stark and seat == "stark" and stark(state)) or AGOT.bot_action(state, seat)
        state, _ = AGOT.apply(state, seat, action)
    game.state = state
    game.save(update_fields=["state"])
    return AGOT.pending(state).get("stark")


def _stark_lowest(state):
    """Stark, holding the Iron Throne, breaks the wildlings' tie for the lowest bid against itself:
    Stark then chooses the units Mammoth Riders destroys."""
    d = state.get("decision") or {}
    if d.get("kind") == "break_tie" and "stark" in (d.get("tied") or []):
        return {"break_tie": [h for h in d["tied"] if h != "stark"] + ["stark"]}
    return None


def stage_mammoth_riders(game_id: int) -> None:
    """stage.py's wildling tie with Stark holding four units: once Stark (on the Iron Throne) counts
    itself the lowest bidder, Mammoth Riders has it choose three of them to destroy."""
    setup = S.clash_setup({"stark": 0, "lannister": 0, "baratheon": 0})
    setup["units"]["winterfell"] = {"stark": ["footman", "footman", "knight"]}
    setup["units"]["white_harbor"] = {"stark": ["footman"]}
    setup["decks"] = {"westeros_1": ["last_days_of_summer"], "westeros_2": ["last_days_of_summer"],
                      "westeros_3": ["wildlings_attack"], "wildlings": ["mammoth_riders"]}
    S.stage(game_id, setup, "westeros")


def _users(names: list[str], password: str):
    from accounts.models import User

    out = []
    for name in names:
        user = User.objects.filter(username=name).first()
        out.append(user or User.objects.create_user(username=name, email=f"{name}@example.com", password=password))
    return out


def decision_games(names: list[str], password: str) -> None:
    from games.services.play import do_create_game, do_submit_action

    users = _users(names, password)
    seats = AGOT.seat_names(3)  # stark, lannister, baratheon
    seating = dict(zip(seats, users, strict=True))

    def new_game(seed: int = 7) -> Game:
        return do_create_game(ruleset="agot", seating=seating, seed=seed, time_limit=86400)

    made = []
    # (kind wanted, the stage of tests/browser/stage.py and its arguments)
    wanted = [
        ("place_orders", None, ()),
        ("raven", S.stage_raven, ()),
        ("raid", S.stage_raid, ()),
        ("march", lambda gid: S.stage(gid, S.STARK_ATTACK_SETUP, "action"), ()),
        ("consolidate", S.stage_consolidate, ()),
        ("house_card", S.stage_stark_attack, ()),
        ("blade", S.stage_stark_attack, ()),
        ("muster", S.stage_muster, ()),
        ("bid", S.stage_clash, ()),
        ("break_tie", S.stage_clash, (0, 0, 0)),
        ("choose", S.stage_throne_of_blades, ()),
        ("break_tie", S.stage_wildling_tie, ()),
        ("choose", stage_mammoth_riders, ()),
    ]
    for kind, staging, args in wanted:
        game = new_game()
        if staging:
            staging(game.pk, *args)
            game.refresh_from_db()
        got = _advance(game, kind, stark=_stark_lowest if staging is stage_mammoth_riders else None)
        assert got == kind, (kind, got, staging)
        made.append(f"{game.pk}:{kind}")
    # a game played through the site's services: Stark's player answers last, so the log has the
    # other houses' sentences and Stark's own
    game = new_game(seed=11)
    for _ in range(40):
        game.refresh_from_db()
        pending = AGOT.pending(game.state)
        if game.state.get("phase") == "action" and "stark" in pending:
            break
        seat = sorted(pending)[0]
        do_submit_action(game.pk, seating[seat], action=AGOT.bot_action(game.state, seat), version=game.version)
    game.refresh_from_db()
    made.append(f"{game.pk}:log")
    print("games " + ",".join(made))
