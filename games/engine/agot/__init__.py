"""A Game of Thrones: The Board Game (2nd edition) rules engine, registered as `agot`.

`apply` copies the state once, then the module that owns the pending decision kind mutates the copy:
planning.py (place_orders, raven, raven_peek), action.py (raid, march, replace_ships, consolidate),
combat.py (support, accept_support, house_card, blade, blade_redraw, casualties, retreat),
westeros.py (muster, bid, break_tie, choose, reduce).
State layout and module seams: docs/engine-agot-state.md.
"""
from __future__ import annotations

import marshal
import random
from typing import Any

from games.engine import fields as F
from games.engine.agot import action, planning, rounds, setup
from games.engine.agot import names as NM
from games.engine.agot.defaults import COMBAT_KINDS
from games.engine.base import REFEREE, EngineError, ScenarioSetupError, register
from games.engine.narration import gettext

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

OWN_KINDS = frozenset({"place_orders", "raven", "raven_peek", "raid", "march", "replace_ships", "consolidate"})
ACTION_NAMES = frozenset(
    OWN_KINDS | COMBAT_KINDS | {"muster", "bid", "break_tie", "choose", "reduce"} | {"gift", "draft"}
)
# Actions a seat may send whatever is pending (issue 34): gifting power tokens (gifts.py).
ANYTIME = frozenset({"gift"})


# An action key answers the decision kind of the same name, except `blade`, which SCENARIOS.md also
# uses to answer the Tides of Battle `blade_redraw` decision.
ANSWERS: dict[str, tuple[str, ...]] = {"blade": ("blade", "blade_redraw")}


def copy_state(state: State) -> State:
    """A deep copy of plain JSON data. marshal round-trips dict/list/str/int/bool/None exactly and is
    several times faster than copy.deepcopy or a json round trip (benchmarks/agot_engine.py)."""
    return marshal.loads(marshal.dumps(state))


def combat_module() -> Any:
    return action._combat_module()


def _combat_choice(state: State) -> bool:
    """A `choose` decision asked by a house card ability (combat.py sets owner: combat)."""
    d = state.get("decision") or {}
    return d.get("kind") == "choose" and d.get("owner") == "combat"


def _westeros_module() -> Any:
    try:
        from games.engine.agot import westeros
    except ImportError:
        return None
    return westeros


class AgotRuleset:
    id = "agot"
    min_seats = 3
    max_seats = 6
    ordered_summary_paths = ("tracks.*", "decks.*", "ranking")

    # -------------------------------------------------------------- creation

    def seat_names(self, count: int) -> list[str]:
        if not self.min_seats <= count <= self.max_seats:
            raise EngineError("illegal_action", f"A Game of Thrones is played by 3 to 6 houses, not {count}")
        return setup.allowed_houses(count)

    def seat_choices(self, count: int) -> list[str]:
        return self.seat_names(count)  # R15-R20: the houses in play are fixed by the player count

    def new_game(self, seats: list[str], options: dict[str, Any], seed: int) -> State:
        state = setup.initial_state(seats, options, seed)
        from games.engine.agot import draft

        if draft.enabled(state):
            draft.start(state, [])  # issue 34: the drafts come before round 1, then it begins
        else:
            rounds.begin_round(state, [])
        return state

    def scenario_game(
        self, seats: list[str], options: dict[str, Any], seed: int, setup_keys: dict[str, Any], start: str | None
    ) -> State:
        state = setup.initial_state(seats, options, seed)
        start = start or "planning"
        if start not in ("planning", "westeros", "action"):
            raise ScenarioSetupError(f"start: unknown start {start!r} (planning, westeros or action)")
        setup.apply_setup(state, setup_keys, start)
        events: list[Event] = []
        from games.engine.agot import draft

        if start == "planning" and draft.enabled(state):
            draft.start(state, events)  # issue 34: a drafting scenario starts with the draft before round 1
        elif start == "planning":
            planning.start_planning(state, events)
        elif start == "action":
            action.start_action(state, events)
        else:
            from games.engine.agot import westeros

            westeros.start_westeros(state, events)
        return state

    # -------------------------------------------------------------- decisions

    def pending(self, state: State) -> dict[str, str]:
        d = state.get("decision")
        if not d or state["phase"] == "over":
            return {}
        return {s: d["kind"] for s in d["seats"]}

    def legal_actions(self, state: State, seat: str) -> list[Action] | None:
        from games.engine.agot import defaults

        if _combat_choice(state):
            return combat_module().legal_actions(state, seat)
        return defaults.legal_actions(state, seat)

    def apply(self, state: State, seat: str, act: Action) -> tuple[State, list[Event]]:
        if state["phase"] == "over":
            raise EngineError("game_over", gettext("the game is over"))
        if not isinstance(act, dict) or len(act) != 1:
            raise EngineError("bad_action", gettext("an action is an object with exactly one key"))
        F.guard(act)
        ((kind, value),) = act.items()
        if kind not in ACTION_NAMES:
            raise EngineError("bad_action", gettext("unknown action %(action)s") % {"action": F.shown(kind)})
        d = state.get("decision")
        if kind in ANYTIME:
            from games.engine.agot import gifts

            new = copy_state(state)
            events: list[Event] = []
            gifts.gift(new, seat, value, events)
            return new, events
        if not d or d["kind"] not in ANSWERS.get(kind, (kind,)) or seat not in d["seats"]:
            raise EngineError("not_your_turn", gettext("%(seat)s has no pending %(kind)s decision") % {"seat": NM.house(seat), "kind": kind})
        new = copy_state(state)
        events: list[Event] = []
        self._dispatch(new, seat, kind, value, events)
        if state["options"].get("fog_of_war"):
            from games.engine.agot import fog

            events = fog.mark(state, new, events)
        return new, events

    def _dispatch(self, state: State, seat: str, kind: str, value: Any, events: list[Event]) -> None:
        if kind == "place_orders":
            planning.place_orders(state, seat, value, events)
        elif kind == "raven":
            planning.raven(state, seat, value, events)
        elif kind == "raven_peek":
            planning.raven_peek(state, seat, value, events)
        elif kind == "raid":
            action.do_raid(state, seat, value, events)
        elif kind == "march":
            action.do_march(state, seat, value, events)
        elif kind == "replace_ships":
            action.do_replace_ships(state, seat, value, events)
        elif kind == "consolidate":
            action.do_consolidate(state, seat, value, events)
        elif kind == "draft":
            from games.engine.agot import draft

            draft.apply(state, seat, value, events)
        elif kind in COMBAT_KINDS or (kind == "choose" and _combat_choice(state)):
            combat_module().apply(state, seat, {kind: value}, events)
        else:
            westeros = _westeros_module()
            if westeros is None or not hasattr(westeros, "apply"):
                raise EngineError("illegal_action", f"{kind} is not implemented yet")
            westeros.apply(state, seat, {kind: value}, events)

    def bot_action(self, state: State, seat: str) -> Action:
        """The smarter player (docs/agot-bot.md) for seats whose player left."""
        from games.engine.agot import smart_bot

        return smart_bot.smart_action(state, seat)

    def default_action(self, state: State, seat: str) -> Action:
        from games.engine.agot import defaults

        if _combat_choice(state):
            return combat_module().default_action(state, seat)
        return defaults.default_action(state, seat)

    def random_action(self, state: State, seat: str, rng: random.Random) -> Action:
        from games.engine.agot import bot

        if _combat_choice(state):
            return combat_module().random_action(state, seat, rng)
        return bot.random_action(state, seat, rng)

    # -------------------------------------------------------------- views

    def view(self, state: State, seat: str | None) -> State:
        from games.engine.agot import summary

        return summary.view(state, seat)

    def summary(self, state: State, viewer: str | None = REFEREE) -> dict[str, Any]:
        from games.engine.agot import summary

        return summary.summary(state, viewer)

    def event_view(self, event: Event, seat: str | None) -> Event | None:
        from games.engine.agot import summary

        return summary.event_view(event, seat)

    def describe_event(self, event: Event) -> dict[str, Any] | None:
        """The event in words (narrate.py); narrate only what event_view let through."""
        from games.engine.agot import narrate

        return narrate.describe(event)

    def summary_path_error(self, path: str) -> str | None:
        """Scenario runner hook: why an expect path cannot be read (unknown area, house, key)."""
        from games.engine.agot import summary

        return summary.summary_path_error(path)

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def ranking(self, state: State) -> list[str] | None:
        return list(state["ranking"]) if state["phase"] == "over" else None


RULESET = register(AgotRuleset())
