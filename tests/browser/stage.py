"""Test-only staging, run in the live server's environment (`manage.py shell -c`).

The normal 3-player setup puts no two houses next to each other in round 1, so a combat needs a
situation: `stage_combat(game_id)` replaces the started game's state by the engine's own scenario
setup (SCENARIOS.md notation) at the start of round 1's Planning phase, with Lannister's Stoney Sept
army next to a Baratheon footman in Blackwater. Everything after that is played in the browser."""
from __future__ import annotations

from games.engine import get_ruleset
from games.models import Game

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
    game = Game.objects.get(pk=game_id)
    engine = get_ruleset(game.ruleset)
    game.state = engine.scenario_game(game.seat_names(), game.options, game.seed, COMBAT_SETUP, "planning")
    game.save(update_fields=["state"])
    print("staged", sorted(engine.pending(game.state).items()))


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
    game = Game.objects.get(pk=game_id)
    engine = get_ruleset(game.ruleset)
    game.state = engine.scenario_game(game.seat_names(), game.options, game.seed, MUSTER_SETUP, "westeros")
    game.save(update_fields=["state"])
    print("staged", sorted(engine.pending(game.state).items()))


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
    game = Game.objects.get(pk=game_id)
    engine = get_ruleset(game.ruleset)
    game.state = engine.scenario_game(game.seat_names(), game.options, game.seed, CONSOLIDATE_SETUP, "action")
    game.save(update_fields=["state"])
    print("staged", sorted(engine.pending(game.state).items()))


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
    game = Game.objects.get(pk=game_id)
    engine = get_ruleset(game.ruleset)
    game.state = engine.scenario_game(game.seat_names(), game.options, game.seed, RAID_SETUP, "action")
    game.save(update_fields=["state"])
    print("staged", sorted(engine.pending(game.state).items()))
