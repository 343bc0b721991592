"""A Game of Thrones: B'Twixt (Juego de tronos: Tierra de Nadie), registered as `btwixt`.

Rules: ../shared/rules/btwixt.md (B1-B82, decisions N1-N12); the card set is data
(data/reference_set.yaml, replaceable by another set in the same format, data.use_cardset).
State layout and modules: docs/engine-btwixt.md.
"""
from __future__ import annotations

import marshal
import random
from typing import Any

from games.engine import fields as F
from games.engine.base import REFEREE, EngineError, register
from games.engine.btwixt import data, effects, flow, setup, summary
from games.engine.btwixt import table as T
from games.engine.narration import gettext

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

ACTIONS = ("play", "kneel", "claim", "token", "choose", "keep", "reorder_dead")
# the decision kind each action answers
ANSWERS = {"play": "turn", "kneel": "turn", "claim": "claim", "token": "token", "choose": "choose", "keep": "keep"}


def copy_state(state: State) -> State:
    return marshal.loads(marshal.dumps(state))


def _estimate(state: State, council: str) -> int:
    """D6, D7: visible ally power + 2 per token."""
    c = state["councils"][council]
    return sum(data.value(a) for a in c["allies"]) + 2 * len(c["tokens"])


class BtwixtRuleset:
    id = "btwixt"
    min_seats = 3
    max_seats = 6
    ordered_summary_paths = ("decks.allies", "dead", "peeked", "row")

    # -------------------------------------------------------------- creation

    def seat_names(self, count: int) -> list[str]:
        if not self.min_seats <= count <= self.max_seats:
            raise EngineError("illegal_action", f"B'Twixt is played by 3 to 6 leaders, not {count}")
        return list(data.cardset().leaders[:count])

    def seat_choices(self, count: int) -> list[str]:
        """Any of the set's leaders (B9): players pick theirs; seating follows the set's order."""
        self.seat_names(count)  # validates the count
        return list(data.cardset().leaders)

    def new_game(self, seats: list[str], options: dict[str, Any], seed: int) -> State:
        return setup.new_game(seats, options, seed)

    def scenario_game(self, seats: list[str], options: dict[str, Any], seed: int, setup_keys: dict[str, Any],
                      start: str | None) -> State:
        return setup.scenario_game(seats, options, seed, setup_keys, start)

    # -------------------------------------------------------------- decisions

    def pending(self, state: State) -> dict[str, str]:
        return summary.pending(state)

    def legal_actions(self, state: State, seat: str) -> list[Action] | None:
        d = state.get("decision")
        if not d or seat not in d["seats"] or state["step"] == "game_over":
            return []
        kind = d["kind"]
        if kind == "turn":
            out: list[Action] = list(effects.play_actions(state, seat))
            if effects.may_kneel(state, seat):
                out.append({"kneel": True})
            return out
        if kind in ("claim", "token"):
            return [{kind: c} for c in d["options"]]
        if kind == "choose":
            opts = [{"choose": o} for o in T.secret(state, seat)["options"]]
            return ([{"choose": False}] if d["optional"] else []) + opts
        if kind == "keep":
            return [{"keep": c} for c in sorted(set(T.secret(state, seat)["packet"]))]
        return None

    def apply(self, state: State, seat: str, act: Action) -> tuple[State, list[Event]]:
        if state["step"] == "game_over":
            raise EngineError("game_over", gettext("the game is over"))
        if not isinstance(act, dict) or not act:
            raise EngineError("bad_action", gettext("an action is an object"))
        F.guard(act)
        kind = next((k for k in ACTIONS if k in act), None)
        if kind is None:
            raise EngineError("bad_action", gettext("unknown action %(action)s") % {"action": ", ".join(F.shown(k) for k in list(act)[:3])})
        if kind != "play" and len(act) != 1:
            raise EngineError("bad_action", gettext("an action has exactly one key (play may add target)"))
        if seat not in state["seats"]:
            raise EngineError("not_your_turn", gettext("%(seat)s is not a seat") % {"seat": seat})
        new = copy_state(state)
        events: list[Event] = []
        if kind == "reorder_dead":
            self._reorder_dead(new, act["reorder_dead"], events)
            return new, events
        d = state.get("decision")
        if not d or d["kind"] != ANSWERS[kind] or seat not in d["seats"]:
            raise EngineError("not_your_turn", gettext("%(seat)s has no pending %(kind)s decision") % {"seat": seat, "kind": ANSWERS[kind]})
        if kind == "play":
            effects.play(new, seat, act, events)
        elif kind == "kneel":
            if act["kneel"] is not True:
                raise EngineError("bad_action", gettext("kneel takes true"))
            if not effects.may_kneel(new, seat):
                raise EngineError("illegal_action", gettext("you may not kneel while your bid pile is empty (the current ally)"))
            new["decision"] = None
            flow.kneel(new, seat, events)
            flow.next_turn(new, seat, events)
        elif kind == "claim":
            flow.claim(new, seat, act["claim"], events)
        elif kind == "token":
            flow.token(new, seat, act["token"], events)
        elif kind == "choose":
            effects.choose(new, seat, act["choose"], events)
        elif kind == "keep":
            flow.keep(new, seat, act["keep"], events)
        flow.run(new, events)
        return new, events

    def _reorder_dead(self, state: State, order: Any, events: list[Event]) -> None:
        """B59, N10: anyone, at any time, with the same allies."""
        if not isinstance(order, list):
            raise EngineError("bad_action", gettext("reorder_dead takes a list of allies"))
        if sorted(order) != sorted(state["dead"]):
            raise EngineError("illegal_action", gettext("reorder_dead: not the same allies"))
        state["dead"] = list(order)
        events.append({"type": "reorder_dead", "dead": list(order)})

    def default_action(self, state: State, seat: str) -> Action:
        """SCENARIOS.md timeout defaults: turn kneel; claim/token the lower estimate (ties: the
        council with the next seat clockwise); choose false if allowed, else the first option;
        keep the highest value, then the lowest id."""
        d = state["decision"]
        kind = d["kind"]
        if kind == "turn":
            if effects.may_kneel(state, seat):
                return {"kneel": True}
            return effects.play_actions(state, seat)[0]
        if kind in ("claim", "token"):
            nxt = T.councils_of(state, seat)[0]
            best = min(d["options"], key=lambda c: (_estimate(state, c), c != nxt, d["options"].index(c)))
            return {kind: best}
        if kind == "choose":
            if d["optional"]:
                return {"choose": False}
            return {"choose": T.secret(state, seat)["options"][0]}
        packet = T.secret(state, seat)["packet"]
        return {"keep": min(packet, key=lambda c: (-data.value(c), c))}

    def bot_action(self, state: State, seat: str) -> Action:
        """The engine's own player (bot.smart_action) for seats whose player left."""
        from games.engine.btwixt import bot

        return bot.smart_action(state, seat)

    def random_action(self, state: State, seat: str, rng: random.Random) -> Action:
        legal = self.legal_actions(state, seat) or []
        if state["decision"]["kind"] == "turn" and len(legal) > 1 and rng.random() < 0.6:
            legal = [a for a in legal if "play" in a]
        return rng.choice(legal)

    # -------------------------------------------------------------- views

    def view(self, state: State, seat: str | None) -> State:
        return summary.view(state, seat)

    def summary(self, state: State, viewer: str | None = REFEREE) -> dict[str, Any]:
        return summary.summary(state, viewer)

    def event_view(self, event: Event, seat: str | None) -> Event | None:
        return summary.event_view(event, seat)

    def summary_path_error(self, path: str) -> str | None:
        return summary.summary_path_error(path)

    def is_over(self, state: State) -> bool:
        return state["step"] == "game_over"

    def ranking(self, state: State) -> list[str] | None:
        return list(state["ranking"]) if state["step"] == "game_over" else None

    def placements(self, state: State) -> dict[str, int] | None:
        """B50-B56: equal scores (lesser council, other council, allies) share a place: a shared
        victory is a tie for first, not the seat order the ranking lists them in."""
        if state["step"] != "game_over":
            return None
        score = state["score"]

        def key(seat: str) -> tuple[int, int, int]:
            return (score[seat]["lesser"], score[seat]["other"], score[seat]["allies"])

        places: dict[str, int] = {}
        for index, seat in enumerate(state["ranking"]):
            before = state["ranking"][index - 1] if index else None
            places[seat] = places[before] if before is not None and key(before) == key(seat) else index + 1
        return places


RULESET = register(BtwixtRuleset())
