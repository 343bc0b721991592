"""`python manage.py simulate --game agot --players 6 --games 1000 --seed 1 [--tides] [--bot smart]`
or `python manage.py simulate --game btwixt --players 4 --games 100 --seed 1 [--options advanced,draft]`
or `python manage.py simulate --game minis --games 1000 [--bot smart] [--players 3|4 [--options teams]]
[--options mirror] [--terrain random]` (the miniatures game, two seats, with `--options mirror` each house's
two armies against each other; three or four: a free-for-all, M131, or with `--options teams` and four seats two
against two, M130; `--terrain random` lays the lobby's random terrain, M22, on every table):
bots play whole games, invariants checked after every action; prints games/second and every failure
with its seed and action index. `--tides` plays with the Tides of Battle option; `--options fog_of_war,castles_to_win=5,rounds=6` with the
board game's variants (issue 34; AGOT_FLAGS lists the switches); `--bot smart` seats
the smart bot (games/engine/agot/smart_bot.py) everywhere instead of the random one. The work is done
by the pure functions games.engine.agot.bot.play_random_game and smart_bot.play_game, and for B'Twixt
games.engine.btwixt.bot.simulate (cards, allies and tokens conserved, JSON round trip, replay
determinism).

An option that does not apply to the chosen game (`--tides` or `--bot smart` with btwixt), an unknown
B'Twixt or agot option or a player count the game does not seat is refused: the reason
on stderr and exit status 2, as argparse does for a bad option, never silently ignored."""
from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser


def tally(plays: Iterable[tuple[int, str, Callable[[], dict[str, Any]], Callable[[Any], Any]]]) -> dict[str, Any]:
    """Play each (seed, what, play, label) in turn: `play()` returns a game's {"state", "actions"};
    a failure is collected with its seed and `what` instead of stopping; each winner is counted
    under `label(winner)`."""
    failures: list[tuple[int, str]] = []
    winners: dict[str, int] = {}
    actions = games = 0
    t0 = time.perf_counter()
    for seed, what, play, label in plays:
        games += 1
        try:
            res = play()
        except Exception as e:
            failures.append((seed, f"{what}{type(e).__name__}: {e}"))
            continue
        actions += res["actions"]
        name = label(res["state"]["winner"])
        winners[name] = winners.get(name, 0) + 1
    dt = time.perf_counter() - t0
    return {"games": games, "seconds": dt, "games_per_second": games / dt if dt else 0.0,
            "actions": actions, "failures": failures, "winners": winners}


def run(players: int, games: int, seed: int, check: bool, tides: bool, smart: bool,
        variants: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play `games` games with seeds seed, seed+1, ...; collect failures instead of stopping.
    `variants`: the issue-34 options (parse_agot_options), e.g. {"fog_of_war": True, "rounds": 6}."""
    from games.engine.agot import bot, smart_bot

    options = {"tides_of_battle": tides, **(variants or {})}

    def play(s: int) -> dict[str, Any]:
        if smart:
            return smart_bot.play_game(players, s, options, check=check)
        return bot.play_random_game(players, s, check=check, options=options)

    return tally((s, "", lambda s=s: play(s), lambda w: w) for s in range(seed, seed + games))


def run_lcg_ready_made(games: int, seed: int, check: bool, smart: bool) -> dict[str, Any]:
    """The card game with the Core Set's ready-made constructed decks (issue 30): `games` games, each
    between a pair of them drawn from its seed (the same deck may meet itself), random players or the
    engine's player (alternating seats) against the random one, half with `every_window`."""
    from games.engine.lcg import bot, data

    decks = sorted(k for k in data.all_decks() if k not in data.LEARN_TO_PLAY)

    def plays():
        for i in range(games):
            pair = tuple(random.Random(f"decks-{seed + i}").choice(decks) for _ in range(2))
            players = {"p1": "random", "p2": "random"}
            if smart:
                players["p1" if i % 2 == 0 else "p2"] = "smart"

            def label(w, players=players, pair=pair):
                return players[w] if smart else f"{w} ({pair[0 if w == 'p1' else 1]})"

            yield (seed + i, f"{pair[0]} v {pair[1]}: ",
                   lambda s=seed + i, pair=pair, players=players, i=i:
                       bot.play_game(s, pair, players, check=check, every_window=bool(i % 2)),
                   label)

    return tally(plays())


def run_lcg(games: int, seed: int, check: bool, smart: bool) -> dict[str, Any]:
    """The card game: `games` games for each pairing of the two decks (random players, or the
    engine's player against the random one with --bot smart), invariants after every action."""
    from games.engine.lcg import bot

    decks = ("the_old_ways", "secrets_and_schemes")

    def plays():
        for a in decks:
            for b in decks:
                for i in range(games):
                    players = {"p1": "random", "p2": "random"}
                    if smart:
                        players["p1" if i % 2 == 0 else "p2"] = "smart"

                    def label(w, players=players, a=a, b=b):
                        return players[w] if smart else f"{w} ({(a, b)[0 if w == 'p1' else 1]})"

                    yield (seed + i, f"{a} v {b}: ",
                           lambda s=seed + i, pair=(a, b), players=players, i=i:
                               bot.play_game(s, pair, players, check=check, every_window=bool(i % 2)),
                           label)

    return {**tally(plays()), "seeds": games}


def run_lcg_melee(players: int, games: int, seed: int, check: bool, smart: bool) -> dict[str, Any]:
    """The card game's melee (issue 31): `games` games of `players` seats, the learn-to-play decks in
    turn, half with `every_window`; random players, or with --bot smart the engine's player in one seat
    (turning round the table); invariants (and the melee's, bot.check_melee) after every action."""
    from games.engine.lcg import bot

    def plays():
        for i in range(games):
            smart_seat = f"p{i % players + 1}" if smart else None

            def label(w, smart_seat=smart_seat):
                return ("engine's player" if w == smart_seat else "random player") if smart else w

            yield (seed + i, "",
                   lambda s=seed + i, i=i, smart_seat=smart_seat:
                       bot.play_melee(s, players, smart=(smart_seat,) if smart_seat else (), check=check,
                                      every_window=bool(i % 2)),
                   label)

    return tally(plays())


def run_minis(games: int, seed: int, check: bool, smart: bool, seats: int = 2,
              multiplayer: str | None = None, terrain: str | None = None) -> dict[str, Any]:
    """The miniatures game: seeded games of random players (or the engine's player, alternating
    seats, against the random one with --bot smart), invariants after every action (trays never
    overlap nor leave the table, no move ends within 1 in of an enemy unless engaged, wounds and
    ranks consistent, VP only from their sources; with three or four seats, eliminated players
    out of the turns and the windows, the First Player token with a player in the game). `terrain`
    "random": the lobby's random terrain (setup.place_random_terrain) on every table."""
    from games.engine import get_ruleset
    from games.engine.minis import bot

    mirror = multiplayer == "mirror"  # two armies of one house (issue 33): Stark's, then Lannister's, in turn
    options = {"multiplayer": multiplayer} if multiplayer and not mirror else {}
    if terrain:
        options["terrain"] = terrain

    def plays():
        for i in range(games):
            house = ("stark", "lannister")[i % 2] if mirror else None
            names = [house, f"{house}_2"] if house else get_ruleset("minis").seat_names(seats)
            players = {names[i % len(names)]: "bot"} if smart else {}

            def label(w, players=players):
                if not smart:
                    return w
                if w in ("a", "b"):  # a team won (M130): the engine's player's team or not
                    names = get_ruleset("minis").seat_names(seats)
                    mine = [s for s in names if players.get(s) == "bot"]
                    return "engine's player's team" if mine and names.index(mine[0]) // 2 == "ab".index(w) \
                        else "random players' team"
                return "draw" if w is None else ("engine's player" if players.get(w) == "bot" else "random player")

            yield seed + i, "", lambda s=seed + i, players=players, house=house: bot.play_game(
                s, players, check=check, options=options, seats=seats, mirror=house), label

    return tally(plays())


BTWIXT_OPTIONS = ("advanced", "draft", "succession", "allies_in_sight", "short")
AGOT_FLAGS = ("fog_of_war", "random_starts", "gift_power_tokens", "draft_house_cards", "draft_tracks", "anonymous")
AGOT_NUMBERS = ("castles_to_win", "rounds")


def parse_agot_options(text: str) -> dict[str, Any]:
    """The board game's variants (issue 34): `fog_of_war,castles_to_win=5,rounds=6`; the engine judges
    the values (a refusal is reported as a usage error)."""
    out: dict[str, Any] = {}
    for item in (n.strip() for n in text.split(",")):
        if not item:
            continue
        name, _, value = item.partition("=")
        if name in AGOT_FLAGS and not value:
            out[name] = True
        elif name in AGOT_NUMBERS and value.isdigit():
            out[name] = int(value)
        else:
            raise ValueError(f"unknown agot option {item} (known: {', '.join(AGOT_FLAGS)}, "
                             f"{', '.join(n + '=N' for n in AGOT_NUMBERS)})")
    if not out:
        raise ValueError(f"--options {text!r}: no agot option given")
    return out


def run_btwixt(players: int, games: int, seed: int, check: bool, options: dict[str, bool]) -> dict[str, Any]:
    from games.engine.btwixt import bot

    return bot.simulate(players, games, seed, check=check, options=options)


def parse_btwixt_options(text: str) -> dict[str, bool]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if n not in BTWIXT_OPTIONS]
    if bad:
        raise ValueError(f"unknown btwixt option {', '.join(bad)} (known: {', '.join(BTWIXT_OPTIONS)})")
    return {n: True for n in names}


def usage_problem(options: dict[str, Any]) -> str | None:
    """Why these options cannot run as given (an option for the other game, a bad value), or None."""
    from games.engine import get_ruleset

    game = options["game"]
    wrong = []
    if options["players"] is None and game not in ("minis", "lcg"):
        options["players"] = 6  # agot's (and btwixt's) default
    if game == "minis":
        if options["tides"]:
            wrong.append("--tides does not apply to --game minis (Tides of Battle is an agot option)")
        if options["players"] is None:  # the miniatures game seats two by default
            options["players"] = 2
        if options["options"] not in (None, "ffa", "teams", "mirror") or (
                options["options"] in ("ffa", "teams") and options["players"] == 2) or (
                options["options"] == "teams" and options["players"] != 4) or (
                options["options"] == "mirror" and options["players"] != 2):
            wrong.append(f"--options {options['options']!r} does not apply to --game minis with "
                         f"{options['players']} players (two: mirror; three or four: ffa; four: teams)")
    elif game == "lcg":
        if options["tides"]:
            wrong.append("--tides does not apply to --game lcg (Tides of Battle is an agot option)")
        if options["options"] is not None:
            wrong.append(f"--options {options['options']!r} does not apply to --game lcg")
        if options["players"] is None:  # the card game's default: a joust
            options["players"] = 2
    elif game == "btwixt":
        if options["tides"]:
            wrong.append("--tides does not apply to --game btwixt (Tides of Battle is an agot option)")
        if options["bot"] != "random":
            wrong.append(f"--bot {options['bot']} does not apply to --game btwixt (its games are played by the "
                         "random bot only)")
    if game != "minis" and options.get("terrain") is not None:
        wrong.append(f"--terrain does not apply to --game {game} (the miniatures game's terrain)")
    if game != "lcg" and options.get("decks", "learn-to-play") != "learn-to-play":
        wrong.append(f"--decks does not apply to --game {game} (the card game's decks)")
    if wrong:
        return "; ".join(wrong)
    if game == "btwixt":
        try:
            parse_btwixt_options(options["options"] or "")
        except ValueError as e:
            return str(e)
    if game == "agot" and options["options"] is not None:
        try:
            variants = parse_agot_options(options["options"])
            get_ruleset("agot").new_game(get_ruleset("agot").seat_names(options["players"]), variants, 0)
        except ValueError as e:
            return str(e)
        except Exception as e:  # the engine refuses the value (EngineError)
            return f"--options {options['options']!r}: {getattr(e, 'reason', e)}"
    engine = get_ruleset(game)
    most = getattr(engine, "engine_max_seats", engine.max_seats)  # minis: the engine seats more than the site
    if game == "lcg" and options["players"] > 2:  # a melee (issue 31): the engine seats 3 to 6
        if options.get("decks", "learn-to-play") != "learn-to-play":
            return "--decks ready-made plays a joust; a melee (--players 3 to 6) uses the learn-to-play decks"
        if not 3 <= options["players"] <= engine.melee_max_seats:
            return f"--players {options['players']}: lcg seats 2 (joust) or 3 to {engine.melee_max_seats} (melee)"
    elif not engine.min_seats <= options["players"] <= most:
        return f"--players {options['players']}: {game} seats {engine.min_seats} to {most} players"
    if options["games"] < 1:
        return f"--games {options['games']}: play at least one game"
    return None


class Command(BaseCommand):
    help = "Play bot games with invariant checks and report speed and failures (seed per game)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", default="agot", choices=["agot", "btwixt", "lcg", "minis"])
        parser.add_argument("--players", type=int, default=None,
                            help="seats (default: 6; 2 for minis and lcg; lcg: 2 is a joust, 3 to 6 a melee)")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1, help="first seed; game i uses seed + i")
        parser.add_argument("--no-check", action="store_true", help="skip the invariant checks (speed only)")
        parser.add_argument("--tides", action="store_true", help="play with the Tides of Battle option (R297)")
        parser.add_argument("--bot", default="random", choices=["random", "smart"], help="which bot fills every seat")
        parser.add_argument("--decks", default="learn-to-play", choices=["learn-to-play", "ready-made"],
                            help="lcg only: every pairing of the two learn-to-play decks, or random pairs of the "
                                 "Core Set's eight ready-made decks")
        parser.add_argument("--options", default=None,
                            help="btwixt: comma-separated options, e.g. advanced,draft (known: "
                                 f"{', '.join(BTWIXT_OPTIONS)}); agot: {', '.join(AGOT_FLAGS)}, castles_to_win=N, "
                                 "rounds=N; minis: teams (four players), ffa, or mirror (two players: one house's "
                                 "two armies)")
        parser.add_argument("--terrain", default=None, choices=["none", "random"],
                            help="minis only: random lays the lobby's random terrain on every table (default none)")

    def handle(self, *args: Any, **options: Any) -> None:
        problem = usage_problem(options)
        if problem:
            raise CommandError(problem, returncode=2)
        if options["game"] == "minis":
            res = run_minis(options["games"], options["seed"], not options["no_check"], options["bot"] == "smart",
                            options["players"], options["options"], options.get("terrain"))
            extra = ", the engine's player against the random one" if options["bot"] == "smart" else ""
            if options.get("terrain") == "random":
                extra += ", random terrain"
            if options["options"] == "mirror":
                extra += ", each house's two armies against each other (Stark, Lannister in turn)"
            if options["players"] > 2:
                extra += ", two teams of two" if options["options"] == "teams" else \
                    f", {options['players']} players each for themselves"
            self._report("minis", res, options, extra, "winners")
            return
        if options["game"] == "lcg" and options["players"] > 2:
            res = run_lcg_melee(options["players"], options["games"], options["seed"], not options["no_check"],
                                options["bot"] == "smart")
            extra = " (melee)" + (", the engine's player in one seat against random ones"
                                  if options["bot"] == "smart" else "")
            self._report("lcg", res, options, extra, "winners")
            return
        if options["game"] == "lcg":
            ready_made = options.get("decks") == "ready-made"
            res = (run_lcg_ready_made if ready_made else run_lcg)(
                options["games"], options["seed"], not options["no_check"], options["bot"] == "smart")
            extra = (" between random pairs of the ready-made decks" if ready_made else " per pairing of decks") + (", the engine's player against the random one" if options["bot"] == "smart"
                                               else "")
            self._report("lcg", res, options, extra, "winners")
            return
        if options["game"] == "btwixt":
            opts = parse_btwixt_options(options["options"] or "")
            res = run_btwixt(options["players"], options["games"], options["seed"], not options["no_check"], opts)
            extra = f" with {', '.join(sorted(opts))}" if opts else ""
            self._report("btwixt", res, options, extra, "winners (shared victories count for each)")
            return
        variants = parse_agot_options(options["options"]) if options["options"] is not None else {}
        res = run(options["players"], options["games"], options["seed"], not options["no_check"], options["tides"],
                  options["bot"] == "smart", variants)
        extra = (" with Tides of Battle" if options["tides"] else "") + (", smart bot" if options["bot"] == "smart" else "")
        extra += "".join(f", {k}" if v is True else f", {k}={v}" for k, v in variants.items())
        self._report("agot", res, options, extra, "winners")

    def _report(self, game: str, res: dict[str, Any], options: dict[str, Any], extra: str, winners_label: str) -> None:
        ok = res["games"] - len(res["failures"])
        self.stdout.write(
            f"{game}: {res['games']} games of {options['players']} players{extra}, seeds {options['seed']}.."
            f"{options['seed'] + res.get('seeds', res['games']) - 1}: {ok} ok, {len(res['failures'])} failed, "
            f"{res['actions']} actions in {res['seconds']:.2f} s = {res['games_per_second']:.1f} games/second"
        )
        wins = ", ".join(f"{h} {n}" for h, n in sorted(res["winners"].items(), key=lambda kv: -kv[1]))
        self.stdout.write(f"{winners_label}: {wins}")
        for seed, msg in res["failures"]:
            self.stdout.write(f"FAIL seed {seed}: {msg}")
        self.stdout.flush()
        if res["failures"]:
            sys.exit(1)
