"""Which registered rulesets are open for play on the site, and with which options.

An engine can be registered (scenarios, simulations, replays) before the site has a table page for
it: such a ruleset is listed in NOT_YET_ON_SITE ({id: its name}) until its page exists. Lobbies and
tournaments refuse them, so nobody is seated at a game whose page cannot show it. Every registered
ruleset is open today (the miniatures game since issue 19; docs/adding-a-ruleset.md registers one).

`options_refusal` says which engine options a table on the site may not use, beyond what the engine
itself refuses: for the miniatures game, the reaction prompts that would tell the opponent what a
hand holds, and army lists other than the fixed starter lists."""
from __future__ import annotations

from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop, ngettext

from games.engine import ruleset_ids

NOT_YET_ON_SITE: dict[str, str] = {}
# Each game by the name players know it by (pages, messages); an unlisted ruleset by its id, capitalised
# The names in English; pages show them translated (gettext(name(ruleset)): Spanish editions' titles,
# docs/glossary-es.md), the API and stored texts keep them in English.
NAMES = {"agot": gettext_noop("A Game of Thrones: The Board Game"), "btwixt": gettext_noop("B'Twixt"),
         "lcg": gettext_noop("A Game of Thrones: The Card Game"),
         "minis": gettext_noop("A Song of Ice and Fire: Tabletop Miniatures")}


def name(ruleset: str) -> str:
    return NAMES.get(ruleset, str(ruleset).replace("_", " ").capitalize())


def players_words(ruleset: str, low: int, high: int) -> str:
    """"A Game of Thrones: The Card Game is played by 2 players." (or "by 3 to 6 players"), in the
    active language (the game's name too)."""
    game = gettext(name(ruleset))
    if low == high:
        return ngettext("%(game)s is played by %(count)d player.", "%(game)s is played by %(count)d players.",
                        low) % {"game": game, "count": low}
    return gettext("%(game)s is played by %(low)d to %(high)d players.") % {"game": game, "low": low, "high": high}


# Tournaments seat fewer players than lobbies where their tables are not offered yet: the miniatures game's tournaments
# are of two-player tables, or of two against two with options.multiplayer "teams" at four seats (issue 33:
# tournaments/services.py validate_settings); its free-for-all is played in lobbies only.
TOURNAMENT_MAX_SEATS = {"minis": 2}


def tournament_seats(ruleset: str) -> tuple[int, int]:
    """The fewest and most players a tournament table of `ruleset` seats."""
    from games.engine import get_ruleset

    engine = get_ruleset(ruleset)
    return engine.min_seats, min(engine.max_seats, TOURNAMENT_MAX_SEATS.get(ruleset, engine.max_seats))


def tournament_players_words(ruleset: str) -> str:
    low, high = tournament_seats(ruleset)
    if ruleset in TOURNAMENT_MAX_SEATS:
        return ngettext("Tournaments of %(game)s are played at tables of %(count)d player for now.",
                        "Tournaments of %(game)s are played at tables of %(count)d players for now.",
                        high) % {"game": gettext(name(ruleset)), "count": high}
    return players_words(ruleset, low, high)


def open_ruleset_ids() -> list[str]:
    return [r for r in ruleset_ids() if r not in NOT_YET_ON_SITE]


def refusal(ruleset: str) -> str | None:
    """Why a lobby or tournament may not use `ruleset`, or None when it may."""
    if ruleset in open_ruleset_ids():
        return None
    choices = ", ".join(open_ruleset_ids())
    if ruleset in NOT_YET_ON_SITE:
        return gettext("%(game)s (%(ruleset)s) is not open for play on the site yet; choose one of: %(choices)s.") % {
            "game": NOT_YET_ON_SITE[ruleset], "ruleset": ruleset, "choices": choices}
    return gettext("Unknown ruleset; choose one of: %(choices)s.") % {"choices": choices}


def _mode_name(english: str) -> str:
    """A mode's name in the active language: the Spanish rulebook's (the glossary) where the seed gives
    one ("Aquí aguantamos"), else the English name."""
    from games.engine import narration

    return narration.term("minis", english)


_lazy_mode_name = lazy(_mode_name, str)
# The miniatures game's modes (rules/minis.md M115-M124): only Here We Stand is implemented. The names
# are lazy: a form's choices and a refusal say them in the reader's language.
MINIS_MODES = {key: _lazy_mode_name(english) for key, english in {
    "here_we_stand": "Here We Stand", "a_game_of_thrones": "A Game of Thrones",
    "a_clash_of_kings": "A Clash of Kings", "a_storm_of_swords": "A Storm of Swords",
    "a_feast_for_crows": "A Feast for Crows", "a_dance_with_dragons": "A Dance with Dragons",
    "the_winds_of_winter": "The Winds of Winter", "honed_and_ready": "Honed and Ready",
    "fire_and_blood": "Fire and Blood", "dark_wings_dark_words": "Dark Wings, Dark Words"}.items()}
MINIS_PLAYABLE_MODES = ("here_we_stand",)
MINIS_GAME_SIZE = 30  # the fixed starter lists are 30-point armies


def minis_lists() -> dict[str, dict[str, Any]]:
    """The fixed army lists by id ({id: {faction, ...}}), from the engine's data."""
    from games.engine.minis import data

    return data.content()["lists"]


def options_refusal(ruleset: str, options: Any) -> str | None:
    """Why a table on the site may not be played with `options` (which the engine may accept), or
    None. The engine stays the judge of everything else (lobbies and tournaments ask it next)."""
    if not isinstance(options, dict):
        return gettext("The options are an object of option names and values.")
    if ruleset == "lcg" and options.get("every_window", True) is not True:
        return gettext("every_window is on on the site: every action window asks both players, so no window "
                       "shows the opponent whether a hand holds something to play (rules/lcg.md §5.2).")
    if ruleset == "lcg" and "action_windows" in options:
        return gettext("action_windows is each player's own setting (their profile page), not the table's.")
    if ruleset == "agot":
        return agot_options_refusal(options)
    if ruleset != "minis":
        return None
    mode = options.get("mode", "here_we_stand")
    if mode not in MINIS_PLAYABLE_MODES:
        known = MINIS_MODES.get(mode) if isinstance(mode, str) else None
        words = {"mode": str(known), "here": str(MINIS_MODES["here_we_stand"])}
        if known:
            return gettext("%(mode)s is not available yet: the mode is here_we_stand (%(here)s), the only one played "
                           "on the site.") % words
        return gettext("Unknown mode %(mode)r: the mode is here_we_stand (%(here)s), the only one played on the "
                       "site.") % {**words, "mode": str(mode)[:40]}
    if options.get("reaction_prompts", "all") != "all":
        return gettext("reaction_prompts is all on the site: every trigger window asks each player who could "
                       "answer it by their deck list, so no prompt shows the opponent what a hand holds.")
    return minis_armies_refusal(options)


def agot_options_refusal(options: dict[str, Any]) -> str | None:
    """The spectators' delay (issue 34, games/spectators.py): 0, 1 or 2 rounds, and only with the fog of
    war (without it spectators see the whole board as it is)."""
    delay = options.get("spectator_delay", 0)
    if not isinstance(delay, int) or isinstance(delay, bool) or delay not in (0, 1, 2):
        return gettext("spectator_delay is the spectators' delay in rounds: 0 (none), 1 or 2.")
    if delay and options.get("fog_of_war") is not True:
        return gettext("spectator_delay needs fog_of_war: without the fog spectators already see the whole board "
                       "as it is.")
    return None


def minis_armies_refusal(options: dict[str, Any]) -> str | None:
    """The game size (M1; M126 gives the VP it is won with) and each seat's army: a starter list of its faction, or
    an army list that is legal at that size and fielded by the engine (issue 33; a lobby copies a saved army,
    "army:<id>", into its options before this judges it: games/services/lobbies.py)."""
    from games.engine.minis import armies as army_rules

    size = options.get("game_size", MINIS_GAME_SIZE)
    if not isinstance(size, int) or isinstance(size, bool) or not army_rules.MIN_SIZE <= size <= army_rules.MAX_SIZE:
        return gettext("game_size is a number of points from %(least)d to %(most)d (the rules suggest 30, 40 or "
                       "50).") % {"least": army_rules.MIN_SIZE, "most": army_rules.MAX_SIZE}
    armies = options.get("armies", {})
    seats = ("stark", "lannister", "stark_2", "lannister_2")  # M131: a house played twice has a second seat
    if not isinstance(armies, dict) or set(armies) - set(seats):
        return gettext("armies is {stark: army, lannister: army}, each a starter list's id, one of your saved "
                       "armies (army:<id>) or an army list.")
    lists = minis_lists()
    for seat in [s for s in seats if s in armies or "_" not in s]:
        house = seat.split("_")[0]
        own = [key for key, lst in lists.items() if lst["faction"] == house]
        spec = armies.get(seat, own[0])  # no army given: the seat's starter list
        if isinstance(spec, str) and spec in own:
            if int(lists[spec]["total_points"]) > size:
                return gettext("The %(house)s starter list has %(points)s points, over the game size of %(size)s.") % {
                    "house": army_rules.house(house), "points": lists[spec]["total_points"], "size": size}
            continue
        said = {"stark": gettext("The Stark army is a starter list (%(lists)s), one of your saved Stark armies or a "
                                 "Stark army list."),
                "lannister": gettext("The Lannister army is a starter list (%(lists)s), one of your saved Lannister "
                                     "armies or a Lannister army list.")}[house] % {"lists": ", ".join(own)}
        if not isinstance(spec, dict) or set(spec) - {"commander", "units", "ncus"}:
            return said
        try:
            army = army_rules.normalise({"faction": house, "game_size": size, **spec})
        except army_rules.ArmyFormatError as error:
            return f"{said} {error.reason}"
        why = [p.text for p in army_rules.problems(army)] + army_rules.unplayable(army)
        if why:
            return gettext("The %(house)s army cannot be played: %(why)s") % {
                "house": army_rules.house(house), "why": " ".join(why)}
    return None
