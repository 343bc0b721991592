"""The interface every ruleset implements, and the engine's error type.

A game state is plain JSON data (dicts, lists, str, int, bool, None). Every function here is pure:
`apply` never mutates the state it is given; it returns a new state and the events the action caused.
Randomness comes only from the generator whose state lives in `state["rng"]` (see rng.py), so a
seed and a list of actions always rebuild the same state, byte for byte.
"""
from __future__ import annotations

import random
import threading
from typing import Any, Protocol

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

ERROR_CODES = ("not_your_turn", "illegal_action", "bad_action", "game_over")

# Marker that replaces everything a viewer may not see (SCENARIOS.md, "Views").
HIDDEN = "hidden"
# Seat name used for a spectator's view; REFEREE sees everything (scenarios, admin tools only).
SPECTATOR = None
REFEREE = "referee"


class EngineError(Exception):
    """An action or a setup the rules refuse. `code` is one of ERROR_CODES, `reason` says why (a
    sentence for the player, in the active language: names, never ids or rule numbers); `rules`, the
    rule ids behind a refusal (("R149",)), for programs and tests (the API's error carries them)."""

    def __init__(self, code: str, reason: str, rules: tuple[str, ...] | list[str] = ()):
        if code not in ERROR_CODES:
            raise ValueError(f"unknown engine error code {code!r}")
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
        self.rules = tuple(rules)

    def as_dict(self) -> dict[str, str]:
        return {"error": self.code, "detail": self.reason}


class ScenarioSetupError(Exception):
    """A scenario's `setup` cannot be read (unknown key, unknown area, unknown card...).

    Distinct from EngineError(illegal_action), which means the rules refuse the situation
    (`setup_error: illegal_action` in a scenario)."""


class Ruleset(Protocol):
    id: str
    min_seats: int
    max_seats: int

    def seat_names(self, count: int) -> list[str]:
        """Default seat names for a table of `count` (for agot: the houses in play)."""

    def seat_choices(self, count: int) -> list[str]:
        """Every seat a table of `count` may use, in seating order; players pick `count` of them
        (agot: exactly the houses in play; btwixt: any of the leaders)."""

    def new_game(self, seats: list[str], options: dict[str, Any], seed: int) -> State:
        """A new game after the normal setup. Raises EngineError(illegal_action) for bad seats/options."""

    def scenario_game(
        self, seats: list[str], options: dict[str, Any], seed: int, setup: dict[str, Any], start: str | None
    ) -> State:
        """A game set up as a scenario's `setup`/`start` say (SCENARIOS.md). Raises ScenarioSetupError
        for what cannot be read and EngineError for what the rules refuse."""

    def pending(self, state: State) -> dict[str, str]:
        """{seat: decision kind} for every seat that must act now ({} when the game is over)."""

    def legal_actions(self, state: State, seat: str) -> list[Action] | None:
        """The seat's legal actions when they can be listed (a choice among few options), else None."""

    def apply(self, state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
        """The next state and the events, or EngineError. Never mutates `state`."""

    def default_action(self, state: State, seat: str) -> Action:
        """The documented, legal, deterministic action taken when the seat's deadline passes."""

    def bot_action(self, state: State, seat: str) -> Action:
        """What the engine's own player does for a seat whose player left (deterministic, legal).
        A ruleset without a smarter player returns default_action."""

    def random_action(self, state: State, seat: str, rng: random.Random) -> Action:
        """A legal action chosen at random (the random bot). Uses only `rng`, never the game's own."""

    def view(self, state: State, seat: str | None) -> State:
        """What `seat` (None: a spectator) may see of the state; secrets replaced by HIDDEN,
        the generator's state removed."""

    def summary(self, state: State, viewer: str | None = REFEREE) -> dict[str, Any]:
        """The referee summary of SCENARIOS.md; as `viewer` is shown it unless viewer is REFEREE."""

    def event_view(self, event: Event, seat: str | None) -> Event | None:
        """An event as `seat` may see it (None: drop it for that seat)."""

    def describe_event(self, event: Event) -> dict[str, Any] | None:
        """Optional: an event (already filtered by event_view) in words for the log: {"text": a plain
        sentence, "parts": [{"text", "house"?}], "key": bool, "round"/"phase" when it starts one}.
        None (this default) when the ruleset has no narrator."""
        return None

    def deck_choices(self) -> dict[str, str]:
        """Optional, for games each player brings a deck to (the card game): {deck id: its name in
        words}. A lobby lets each player pick one (or its creator assign them) and starts the game
        with the option `decks` {seat: deck id}. {} (this default): the game has no decks."""
        return {}

    def is_over(self, state: State) -> bool: ...

    def ranking(self, state: State) -> list[str] | None:
        """Seats from first to last place once the game is over, else None."""

    def placements(self, state: State) -> dict[str, int] | None:
        """Optional: each seat's final place (1 = first) where the rules let players tie (B'Twixt's
        shared victory, B56); tied seats share a place. Rulesets whose ties are always broken
        (agot, R40) need not define it: their ranking's order is the placement."""


_REGISTRY: dict[str, Ruleset] = {}
_builtin_loaded = False
_builtin_lock = threading.Lock()


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def get_ruleset(ruleset_id: str) -> Ruleset:
    _load_builtin()
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def ruleset_ids() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def _load_builtin() -> None:
    # Import for the side effect of registration; each ruleset package calls register() on import.
    # A flag, not "is the registry empty": a test may register a ruleset of its own first.
    # Under a lock, and marked loaded only once the imports are done: server threads race here.
    global _builtin_loaded
    if _builtin_loaded:
        return
    with _builtin_lock:
        if not _builtin_loaded:
            import games.engine.agot  # noqa: F401
            from games.engine import btwixt, lcg, minis  # noqa: F401

            _builtin_loaded = True
