"""Test-only staging, run in the live server's environment (`manage.py shell -c`).

The normal 3-player setup puts no two houses next to each other in round 1, so a combat needs a
situation: `stage_combat(game_id)` replaces the started game's state by the engine's own scenario
setup (SCENARIOS.md notation) at the start of round 1's Planning phase, with Lannister's Stoney Sept
army next to a Baratheon footman in Blackwater. Everything after that is played in the browser."""
from __future__ import annotations

from games.engine import get_ruleset
from games.models import Game


def stage(game_id: int, setup: dict, phase: str, then=None) -> None:
    """Replace the started game's state by the engine's scenario setup (SCENARIOS.md notation) at the
    start of `phase`; `then(engine, state)` may play a few actions on it first. Prints what is pending."""
    game = Game.objects.get(pk=game_id)
    engine = get_ruleset(game.ruleset)
    state = engine.scenario_game(game.seat_names(), game.options, game.seed, setup, phase)
    game.state = then(engine, state) if then else state
    game.save(update_fields=["state"])
    print("staged", sorted(engine.pending(game.state).items()))

COMBAT_SETUP = {
    "units": {
        "winterfell": {"stark": ["footman"]},
        "lannisport": {"lannister": ["footman"]},
        "stoney_sept": {"lannister": ["footman", "knight"]},
        "dragonstone": {"baratheon": ["footman"]},
        "blackwater": {"baratheon": ["footman"]},
    },
}


def stage_combat(game_id: int) -> None:
    stage(game_id, COMBAT_SETUP, "planning")


def bot_game(username: str, password: str) -> None:
    """A user (created) playing Stark against two bots, who have placed their orders face down."""
    from accounts.models import User
    from games.services.play import do_create_game

    user = User.objects.create_user(username=username, email=f"{username}@example.com", password=password)
    seats = get_ruleset("agot").seat_names(3)
    game = do_create_game(ruleset="agot", seating={s: (user if i == 0 else None) for i, s in enumerate(seats)})
    print(f"game {game.pk}")


MUSTER_SETUP = {
    "round": 2,
    "units": {"winterfell": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]},
              "dragonstone": {"baratheon": ["footman"]}},
    "tracks": {"iron_throne": ["stark", "lannister", "baratheon"]},
    "decks": {"westeros_1": ["mustering"], "westeros_2": ["last_days_of_summer"], "westeros_3": ["web_of_lies"]},
}


def stage_muster(game_id: int) -> None:
    """Round 2's Westeros phase with Mustering drawn; Stark (first on the Iron Throne) musters first."""
    stage(game_id, MUSTER_SETUP, "westeros")


def finished_game() -> None:
    """A public game played to its end by three bots."""
    from games.services.play import do_create_game

    game = do_create_game(ruleset="agot", seating=dict.fromkeys(get_ruleset("agot").seat_names(3)), seed=3)
    game.refresh_from_db()
    print(f"game {game.pk} {game.status}")


CONSOLIDATE_SETUP = {
    "units": {"winterfell": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]},
              "dragonstone": {"baratheon": ["footman"]}},
    "orders": {"winterfell": {"stark": "consolidate*"}, "lannisport": {"lannister": "defense+1"},
               "dragonstone": {"baratheon": "defense+1"}},
    "tracks": {"iron_throne": ["stark", "lannister", "baratheon"]},
}


def stage_consolidate(game_id: int) -> None:
    """The Action phase with Stark's special Consolidate Power order in Winterfell (R182)."""
    stage(game_id, CONSOLIDATE_SETUP, "action")


RAID_SETUP = {
    "units": {"winterfell": {"stark": ["footman"]}, "stoney_sept": {"lannister": ["footman"]},
              "dragonstone": {"baratheon": ["footman"]}, "blackwater": {"baratheon": ["footman"]}},
    "orders": {"winterfell": {"stark": "raid"}, "stoney_sept": {"lannister": "defense+1"},
               "dragonstone": {"baratheon": "defense+1"}, "blackwater": {"baratheon": "consolidate"}},
}
RAID_SETUP["units"]["the_stony_shore"] = {"baratheon": ["footman"]}
RAID_SETUP["orders"]["the_stony_shore"] = {"baratheon": "support+0"}


def stage_raid(game_id: int) -> None:
    """The Action phase: Stark's raid in Winterfell next to a Baratheon support order (Stony Shore)."""
    stage(game_id, RAID_SETUP, "action")


def screenshot_scene(password: str) -> None:
    """Demo data for the README's screenshots (docs/screenshots/take_screenshots.py): `alice` in an
    AGoT game against two bots, a few rounds in, and in a 4-leader B'Twixt game against three bots,
    some turns in; open lobbies by other players. Prints the ids as JSON."""
    import json

    from accounts.models import User
    from games.services.lobbies import LobbySettings, do_create_lobby, do_join_lobby
    from games.services.play import do_create_game, do_submit_action

    users = {name: User.objects.create_user(username=name, email=f"{name}@example.com", password=password)
             for name in ("alice", "brienne", "davos", "samwell", "ygritte", "tormund")}

    def play_alice(game, actions: int, until=None) -> None:
        engine = get_ruleset(game.ruleset)
        for _ in range(actions):
            game.refresh_from_db()
            seat = game.seat_for(users["alice"]).seat
            if not game.is_active() or seat not in engine.pending(game.state) or (until and until(game.state)):
                return
            do_submit_action(game.pk, users["alice"], action=engine.bot_action(game.state, seat), version=game.version)

    agot_seats = get_ruleset("agot").seat_names(3)
    agot = do_create_game(ruleset="agot", seating={s: (users["alice"] if i == 0 else None)
                                                  for i, s in enumerate(agot_seats)}, seed=11, time_limit=86400)
    play_alice(agot, 400, until=lambda state: state.get("round", 1) >= 3 and state.get("phase") == "planning")
    btwixt_seats = get_ruleset("btwixt").seat_names(4)
    btwixt = do_create_game(ruleset="btwixt", seating={s: (users["alice"] if i == 0 else None)
                                                      for i, s in enumerate(btwixt_seats)}, seed=5, time_limit=86400)
    play_alice(btwixt, 12)

    lobbies = [
        (users["brienne"], LobbySettings(ruleset="agot", seat_count=6, time_limit=86400, name="Six kings, one throne",
                                         ranked=True), ["davos", "samwell"]),
        (users["ygritte"], LobbySettings(ruleset="btwixt", seat_count=4, time_limit=3600, name="Quick B'Twixt"),
         ["tormund"]),
        (users["davos"], LobbySettings(ruleset="agot", seat_count=3, time_limit=600, name="Ten-minute turns",
                                       options={"tides_of_battle": True}), []),
    ]
    for creator, settings, joiners in lobbies:
        lobby = do_create_lobby(creator, settings, join=True)
        for name in joiners:
            do_join_lobby(lobby.pk, users[name])
    print(json.dumps({"agot": agot.pk, "btwixt": btwixt.pk}))


# --------------------------------------------------------------------------- decisions in context


def clash_setup(power: dict[str, int]) -> dict:
    """Round 2's Westeros phase with Clash of Kings drawn (deck II): bids for the three influence
    tracks, Stark first on the Iron Throne (so Stark breaks the ties)."""
    return {
        "round": 2,
        "units": {"winterfell": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]},
                  "dragonstone": {"baratheon": ["footman"]}},
        "tracks": {"iron_throne": ["stark", "lannister", "baratheon"],
                   "fiefdoms": ["baratheon", "stark", "lannister"],
                   "kings_court": ["lannister", "baratheon", "stark"]},
        "power": power,
        "decks": {"westeros_1": ["last_days_of_summer"], "westeros_2": ["clash_of_kings"], "westeros_3": ["web_of_lies"]},
    }


def stage_clash(game_id: int, stark: int = 5, lannister: int = 3, baratheon: int = 4) -> None:
    """Clash of Kings: every house bids for the Iron Throne track; with all powers 0 every bid ties."""
    setup = clash_setup({"stark": stark, "lannister": lannister, "baratheon": baratheon})
    stage(game_id, setup, "westeros")


THRONE_OF_BLADES_SETUP = {
    "round": 2,
    "units": {"winterfell": {"stark": ["footman"]}, "lannisport": {"lannister": ["footman"]},
              "dragonstone": {"baratheon": ["footman"]}},
    "tracks": {"iron_throne": ["stark", "lannister", "baratheon"]},
    "decks": {"westeros_1": ["a_throne_of_blades"], "westeros_2": ["last_days_of_summer"], "westeros_3": ["web_of_lies"]},
}


def stage_throne_of_blades(game_id: int) -> None:
    """Round 2's Westeros phase with A Throne of Blades drawn: Stark, on the Iron Throne, chooses."""
    stage(game_id, THRONE_OF_BLADES_SETUP, "westeros")


RAVEN_SETUP = {
    "units": {"winterfell": {"stark": ["footman"]}, "white_harbor": {"stark": ["footman"]},
              "lannisport": {"lannister": ["footman"]}, "dragonstone": {"baratheon": ["footman"]}},
    "tracks": {"kings_court": ["stark", "lannister", "baratheon"]},
    "decks": {"wildlings": ["mammoth_riders"]},
}


def stage_raven(game_id: int) -> None:
    """Round 1's Planning phase with every order placed (Stark: March in Winterfell, Defense in White
    Harbor); Stark holds the Messenger Raven and decides whether to use it."""
    def place_every_order(engine, state):
        state, _ = engine.apply(state, "stark", {"place_orders": {"winterfell": "march+0", "white_harbor": "defense+1"}})
        for seat in ("lannister", "baratheon"):
            state, _ = engine.apply(state, seat, engine.bot_action(state, seat))
        return state

    stage(game_id, RAVEN_SETUP, "planning", place_every_order)


STARK_ATTACK_SETUP = {
    "units": {"winterfell": {"stark": ["footman", "knight"]}, "white_harbor": {"baratheon": ["footman"]},
              "lannisport": {"lannister": ["footman"]}, "dragonstone": {"baratheon": ["footman"]}},
    "orders": {"winterfell": {"stark": "march+1*"}, "white_harbor": {"baratheon": "defense+1"},
               "lannisport": {"lannister": "defense+1"}, "dragonstone": {"baratheon": "defense+1"}},
    "tracks": {"iron_throne": ["stark", "lannister", "baratheon"], "fiefdoms": ["stark", "baratheon", "lannister"]},
}


def stage_stark_attack(game_id: int) -> None:
    """The Action phase: Stark's knight and footman march from Winterfell (March +1) on Baratheon's
    footman in White Harbor (Defense +1); Stark holds the Valyrian Steel Blade. Both choose a card."""
    march = {"march": {"from": "winterfell", "moves": {"white_harbor": ["footman", "knight"]}, "leave_power_token": False}}
    stage(game_id, STARK_ATTACK_SETUP, "action", lambda engine, state: engine.apply(state, "stark", march)[0])


def stage_wildling_tie(game_id: int) -> None:
    """Round 2's Westeros phase with Wildlings Attack drawn and nobody holding power: every bid is 0,
    the wildlings (threat 2) win, Mammoth Riders is drawn and Stark (Iron Throne) says who is lowest."""
    setup = clash_setup({"stark": 0, "lannister": 0, "baratheon": 0})
    setup["decks"] = {"westeros_1": ["last_days_of_summer"], "westeros_2": ["last_days_of_summer"],
                      "westeros_3": ["wildlings_attack"], "wildlings": ["mammoth_riders"]}
    stage(game_id, setup, "westeros")


def stage_stark_attack_with_tides(game_id: int) -> None:
    """stage_stark_attack with the Tides of Battle option (R296-R302): Stark will draw a +3 card,
    Baratheon a skull."""
    game = Game.objects.get(pk=game_id)
    game.options = {**game.options, "tides_of_battle": True}
    game.save(update_fields=["options"])
    setup = {**STARK_ATTACK_SETUP, "decks": {"tides": ["three", "skull"]}}
    march = {"march": {"from": "winterfell", "moves": {"white_harbor": ["footman", "knight"]}, "leave_power_token": False}}
    stage(game_id, setup, "action", lambda engine, state: engine.apply(state, "stark", march)[0])


def play_out(game_id: int, limit: int = 5000) -> None:
    """Play a started game to its end through the service layer, each pending seat answering as its
    own user with the engine's player (the choice a person would click; the path, version checks,
    ratings and live updates are the site's own). Prints the ranking."""
    from games.services.play import do_submit_action

    for _ in range(limit):
        game = Game.objects.get(pk=game_id)
        if not game.is_active():
            break
        engine = get_ruleset(game.ruleset)
        seat = sorted(engine.pending(game.state))[0]
        user = game.seats.get(seat=seat).user
        do_submit_action(game_id, user, action=engine.bot_action(game.state, seat), version=game.version)
    game = Game.objects.get(pk=game_id)
    print("ranking", game.ranking, "status", game.status)
