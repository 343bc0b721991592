"""A complete, tiny ruleset: the example of docs/adding-a-ruleset.md, played through the whole
platform by tests/test_readme.py.

**Ravens** (`ravens`, 2 to 4 seats). Each seat is dealt a secret hand of three cards from a deck
of 1 to 12, shuffled by the game's own generator. Three tricks: every seat plays one card at the
same time (a simultaneous decision, like AGoT's orders); when all have played, the cards are
revealed and the highest wins the trick. Most tricks wins; ties go to the higher total played, then
to the seat order. Hands and a card played before the reveal are secret.

Everything the platform needs is here: pure functions of plain JSON data, randomness only from
`state["rng"]` (games/engine/rng.py), `EngineError` with the interface's codes, views that hide
secrets, events with an `only` list for private ones, defaults for timeouts, a bot. Register it by
importing this module (games/engine/base.py `register`); a built-in ruleset is imported by
`_load_builtin` there.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from games.engine import rng
from games.engine.base import HIDDEN, REFEREE, EngineError, register

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

SEATS = ("raven", "crow", "owl", "falcon")
TRICKS = 3


class RavensRuleset:
    id = "ravens"
    min_seats = 2
    max_seats = 4

    # ------------------------------------------------------------------ creation

    def seat_names(self, count: int) -> list[str]:
        if not self.min_seats <= count <= self.max_seats:
            raise EngineError("illegal_action", f"ravens is played by 2 to 4 seats, not {count}")
        return list(SEATS[:count])

    def seat_choices(self, count: int) -> list[str]:
        self.seat_names(count)
        return list(SEATS[:count])

    def new_game(self, seats: list[str], options: dict[str, Any], seed: int) -> State:
        return self.scenario_game(seats, options, seed, {}, None)

    def scenario_game(self, seats: list[str], options: dict[str, Any], seed: int, setup: dict[str, Any],
                      start: str | None) -> State:
        if options:
            raise EngineError("illegal_action", f"ravens has no options ({', '.join(options)})")
        if sorted(seats) != sorted(SEATS[:len(seats)]) or not self.min_seats <= len(seats) <= self.max_seats:
            raise EngineError("illegal_action", f"seats must be {', '.join(SEATS[:len(seats)])}")
        state: State = {"rng": rng.seed_state(seed), "seats": list(seats), "trick": 1, "played": {},
                        "won": dict.fromkeys(seats, 0), "total": dict.fromkeys(seats, 0), "over": False}
        deck = list(range(1, 13))
        rng.shuffle(state, deck)
        state["hands"] = {seat: sorted(deck[3 * i:3 * i + 3]) for i, seat in enumerate(seats)}
        return state

    # ------------------------------------------------------------------ decisions

    def pending(self, state: State) -> dict[str, str]:
        if state["over"]:
            return {}
        return {seat: "play" for seat in state["seats"] if seat not in state["played"]}

    def legal_actions(self, state: State, seat: str) -> list[Action] | None:
        if seat not in self.pending(state):
            return []
        return [{"play": card} for card in state["hands"][seat]]

    def apply(self, state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
        if state["over"]:
            raise EngineError("game_over", "the game is over")
        if not isinstance(action, dict) or set(action) != {"play"} or type(action["play"]) is not int:
            raise EngineError("bad_action", "an action is {play: card}")
        if seat not in self.pending(state):
            raise EngineError("not_your_turn", f"{seat} has nothing to decide")
        if action["play"] not in state["hands"][seat]:
            raise EngineError("illegal_action", f"{action['play']} is not in {seat}'s hand")
        new = copy.deepcopy(state)  # never mutate the state given
        new["hands"][seat].remove(action["play"])
        new["played"][seat] = action["play"]
        events: list[Event] = [{"type": "played", "seat": seat},
                               {"type": "card", "seat": seat, "card": action["play"], "only": [seat]}]
        if not self.pending(new):
            cards = new["played"]
            winner = max(new["seats"], key=lambda s: (cards[s], -new["seats"].index(s)))
            new["won"][winner] += 1
            for s, card in cards.items():
                new["total"][s] += card
            events.append({"type": "trick", "trick": new["trick"], "cards": dict(cards), "winner": winner})
            new["played"] = {}
            new["trick"] += 1
            if new["trick"] > TRICKS:
                new["over"] = True
                events.append({"type": "game_over", "ranking": self.ranking(new)})
        return new, events

    def default_action(self, state: State, seat: str) -> Action:
        """On a timeout: the lowest card (documented, legal, deterministic)."""
        return {"play": min(state["hands"][seat])}

    def bot_action(self, state: State, seat: str) -> Action:
        """The engine's player: the highest card."""
        return {"play": max(state["hands"][seat])}

    def random_action(self, state: State, seat: str, rand: random.Random) -> Action:
        return rand.choice(self.legal_actions(state, seat))

    # ------------------------------------------------------------------ what each viewer sees

    def view(self, state: State, seat: str | None) -> State:
        shown = {k: copy.deepcopy(v) for k, v in state.items() if k != "rng"}
        if seat != REFEREE:
            shown["hands"] = {s: (hand if s == seat else HIDDEN) for s, hand in shown["hands"].items()}
            shown["played"] = {s: (card if s == seat else HIDDEN) for s, card in shown["played"].items()}
        return shown

    def summary(self, state: State, viewer: str | None = REFEREE) -> dict[str, Any]:
        shown = self.view(state, viewer)
        return {"trick": min(state["trick"], TRICKS), "won": shown["won"], "hands": shown["hands"],
                "played": shown["played"], "pending": self.pending(state), "ranking": self.ranking(state)}

    def event_view(self, event: Event, seat: str | None) -> Event | None:
        if "only" in event and seat != REFEREE and seat not in event["only"]:
            return None
        return event

    # ------------------------------------------------------------------ the end

    def is_over(self, state: State) -> bool:
        return state["over"]

    def ranking(self, state: State) -> list[str] | None:
        if not state["over"]:
            return None
        return sorted(state["seats"], key=lambda s: (-state["won"][s], -state["total"][s], state["seats"].index(s)))


RULESET = register(RavensRuleset())
