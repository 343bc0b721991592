"""A Game of Thrones: The Card Game (2nd ed.), registered as `lcg`: two players (joust) or three
to six (melee with the Core Set's titles, melee.py).

Rules: ../shared/rules/lcg.md (L1-L233, §5 decisions); cards are data (data/core_set.yaml,
the two Core learn-to-play decks). The framework (setup, the seven phases, challenges, claim,
keywords) and every card's abilities, written as data for the ability model of abilities.py.
State layout, the ability vocabulary, options and what is left out (melee, deck building):
docs/engine-lcg.md.
"""
from __future__ import annotations

import itertools
import marshal
import random
from typing import Any

from games.engine import fields as F
from games.engine import rng
from games.engine.base import REFEREE, EngineError, register
from games.engine.lcg import abilities as A
from games.engine.lcg import actions, cards_baratheon_targaryen, cards_martell_watch, data, flow, melee, setup, summary  # noqa: F401  (register their cards)
from games.engine.lcg import table as T
from games.engine.narration import gettext, term

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

SEATS = ("p1", "p2")


def copy_state(state: State) -> State:
    """A deep copy, but for `uids`: a new dict whose entries ([card id, owner], never changed once
    made: table.new_uid only adds) are shared with `state`'s."""
    uids = state.get("uids")
    if uids is None:
        return marshal.loads(marshal.dumps(state))
    rest = marshal.loads(marshal.dumps({k: v for k, v in state.items() if k != "uids"}))
    return {k: dict(uids) if k == "uids" else rest[k] for k in state}  # the same order of keys


# Whether a card is blanked is kept per card while the cards in play stay the same (abilities.kept);
# wrapped here, around every card module's hook on it.
A.blanked = A.kept_blanked(A.blanked)


class LcgRuleset:
    id = "lcg"
    min_seats = 2
    max_seats = 6  # two: a joust; three to six: a melee (melee.py, issue 31)
    ordered_summary_paths = ("deck.*",)
    scenario_keys = ("cards",)
    options_doc = {
        "decks": "the deck of each seat, in seat order: " + " or ".join(data.deck_ids())
                 + " (default: one of each; both seats may take the same deck)",
        "every_window": "every action window asks both seats, pass being the default (default: on)",
    }

    # -------------------------------------------------------------- creation

    # a melee seats three to six (melee.py, issue 31): the site's lobbies, challenges and tournaments
    # offer them, and `manage.py simulate --game lcg --players 4`
    melee_max_seats = melee.MAX_SEATS

    def seat_names(self, count: int) -> list[str]:
        if count == 2:
            return list(SEATS)
        if not 3 <= count <= melee.MAX_SEATS:
            raise EngineError("illegal_action", "the card game is played by two players (joust) or three to six (melee)")
        return [f"p{i}" for i in range(1, count + 1)]

    def seat_choices(self, count: int) -> list[str]:
        return self.seat_names(count)

    def deck_choices(self) -> dict[str, str]:
        """Each deck in words, in the active language: "The Old Ways (Stark, with Banner of the Kraken)",
        "The Old Ways (Stark, con Banner of the Kraken)" (deck and card names as printed)."""
        cards = data.cards()

        def faction(key: str) -> str:
            return term("lcg", "The Night's Watch") if key == "thenightswatch" else data.FACTION_NAMES.get(key, key)

        return {d["id"]: gettext("%(deck)s (%(faction)s, with %(agenda)s)") % {
                    "deck": d["name"], "faction": faction(d["faction"]),
                    "agenda": term("lcg", cards[d["agenda"]]["name"], kind="card")} if d["agenda"]
                else f"{d['name']} ({faction(d['faction'])})" for d in data.decks().values()}

    def new_game(self, seats: list[str], options: dict[str, Any], seed: int) -> State:
        return setup.new_game(seats, options, seed)

    def scenario_game(self, seats: list[str], options: dict[str, Any], seed: int, setup_keys: dict[str, Any],
                      start: str | None, extra: dict[str, Any] | None = None) -> State:
        return setup.scenario_game(seats, options, seed, setup_keys, start, (extra or {}).get("cards"))

    # -------------------------------------------------------------- decisions

    def pending(self, state: State) -> dict[str, str]:
        return summary.pending(state)

    def legal_actions(self, state: State, seat: str) -> list[Action] | None:
        d = state["decision"]
        if state["over"] or not d or seat not in d["seats"]:
            return []
        kind = d["kind"]
        if kind == "mulligan":
            return [{"mulligan": False}, {"mulligan": True}]
        if kind == "plot":
            return [{"plot": c} for c in sorted({T.cid(state, u) for u in state["players"][seat]["plots"]})]
        if kind == "first_player":
            return [{"first_player": s} for s in T.alive(state)]
        if kind == "title":
            return [{"title": t} for t in d["options"]]
        if kind == "redirect":
            return [{"redirect": False}, {"redirect": True}]
        if kind == "redirect_to":
            return [{"redirect_to": o} for o in d["options"]]
        if kind == "claim_opponents":
            return [{"claim_opponents": list(c)} for r in range(len(d["options"]) + 1)
                    for c in itertools.combinations(d["options"], r)]
        if kind == "action":
            return [*actions.window_actions(state, seat), {"pass": True}]
        if kind in ("interrupt", "reaction"):
            ev = A.top_window(state)["ev"]
            return [*A.options(state, seat, kind, ev), {"pass": True}]
        if kind in ("choose", "kill") and state["stack"] and state["stack"][-1]["f"] == "choose":
            values = A.choice_legal(state, seat)
            return None if values is None else [{kind: v} for v in values]
        if kind == "order":
            return [{"order": list(p)} for p in dict.fromkeys(itertools.permutations(d["options"]))]
        if kind == "winner":
            return [{"winner": s} for s in d["options"]]
        if kind == "intimidate":
            return [{"intimidate": None}] + [{"intimidate": self._name(state, u)}
                                             for u in flow.keyword_options(state, "intimidate")]
        if kind in ("renown", "insight", "pillage"):
            opts = [self._name(state, u) for u in flow.keyword_options(state, kind)]
            if len(opts) > 6:
                return None
            return [{kind: list(c)} for r in range(len(opts) + 1) for c in itertools.combinations(opts, r)]
        if kind == "choose":
            return [{"choose": n} for n in range(d["max"] + 1)]
        return None

    @staticmethod
    def _name(state: State, uid: str) -> str:
        return T.copy_names(state, T.controller(state, uid))[uid]

    def apply(self, state: State, seat: str, act: Action) -> tuple[State, list[Event]]:
        if state["over"]:
            raise EngineError("game_over", gettext("the game is over"))
        if not isinstance(act, dict) or len(act) != 1:
            raise EngineError("bad_action", gettext("an action is an object with one key"))
        F.guard(act)
        kind = next(iter(act))
        if kind not in actions.ANSWERS:
            raise EngineError("bad_action", gettext("unknown action %(action)s") % {"action": F.shown(kind)})
        if seat not in state["seats"]:
            raise EngineError("not_your_turn", gettext("%(seat)s is not a seat") % {"seat": seat})
        new = copy_state(state)
        A.carry_constants(state, new)
        events: list[Event] = []
        actions.apply(new, seat, act, events)
        flow.run(new, events)
        return new, events

    def default_action(self, state: State, seat: str) -> Action:
        """rules/lcg.md §5.3 and SCENARIOS.md "lcg" timeout defaults."""
        d = state["decision"]
        kind = d["kind"]
        if kind in ("action", "interrupt", "reaction", "challenge"):
            return {"pass": True}
        if kind == "defenders":
            return {"defenders": []}
        if kind == "mulligan":
            return {"mulligan": False}
        if kind == "setup":
            return {"setup": []}
        if kind == "plot":
            # a random remaining plot, from a generator derived from the game's (hidden) one
            holder = {"rng": (state["rng"] + 7919 * (state["seats"].index(seat) + 1)) % 2**64}
            plots = sorted(T.cid(state, u) for u in state["players"][seat]["plots"])
            return {"plot": plots[rng.randbelow(holder, len(plots))]}
        if kind == "first_player":
            return {"first_player": seat}
        if kind == "title":
            return {"title": d["options"][0]}
        if kind == "redirect":
            return {"redirect": False}
        if kind == "redirect_to":
            return {"redirect_to": d["options"][0]}
        if kind == "claim_opponents":
            return {"claim_opponents": []}
        if kind in ("choose", "kill") and state["stack"] and state["stack"][-1]["f"] == "choose":
            return {kind: A.choice_default(state, seat)}
        if kind == "kill":
            chars = T.in_play(state, seat, "character")
            chosen = sorted(chars, key=lambda u: (actions.cost_of(state, u), T.strength(state, u),
                                                  state["inplay"][u]["entered"]))[:d["count"]]
            return {"kill": [self._name(state, u) for u in chosen]}
        if kind == "discard":
            hand = state["players"][seat]["hand"]
            chosen = sorted(hand, key=lambda u: (actions.cost_of(state, u), T.cid(state, u)))[:d["count"]]
            return {"discard": [T.cid(state, u) for u in chosen]}
        if kind in ("renown", "insight", "pillage"):
            return {kind: []}
        if kind == "intimidate":
            return {"intimidate": None}
        if kind == "order" and d.get("abilities"):
            return {"order": list(d["options"])}  # the canonical order (§5.3), as offered
        if kind == "order":
            return {"order": [k for k in flow.RESOLUTION_KEYWORDS if k in d["options"]]}
        if kind == "winner":
            return {"winner": seat if seat in d["options"] else d["options"][0]}
        if kind == "choose":
            return {"choose": 0}
        raise EngineError("illegal_action", f"no default for {kind}")

    def bot_action(self, state: State, seat: str) -> Action:
        """The engine's own player (bot.smart_action, docs/engine-lcg.md)."""
        from games.engine.lcg import bot

        return bot.smart_action(state, seat)

    def nothing_to_play(self, state: State, seat: str) -> bool:
        """The seat is asked in an action, interrupt or reaction window and, with its real hand and
        its cards in play, can only pass: the player's own opt-in "pass for me when I hold nothing
        playable" (issue 30), which the server applies (games/services/play.py). Unlike the
        decision to ask (prompts.py) this reads the hand: the player chose it."""
        from games.engine.lcg import prompts

        d = state["decision"]
        return bool(d and seat in d["seats"] and d["kind"] in ("action", "interrupt", "reaction")
                    and not prompts.can_act(state, seat))

    def random_action(self, state: State, seat: str, rnd: random.Random) -> Action:
        from games.engine.lcg import bot

        return bot.random_action(state, seat, rnd)

    # -------------------------------------------------------------- views

    def view(self, state: State, seat: str | None) -> State:
        return summary.view(state, seat)

    def summary(self, state: State, viewer: str | None = REFEREE) -> dict[str, Any]:
        return summary.summary(state, viewer)

    def event_view(self, event: Event, seat: str | None) -> Event | None:
        return summary.event_view(event, seat)

    def describe_event(self, event: Event) -> dict[str, Any] | None:
        """The event in words (narrate.py); narrate only what event_view let through."""
        from games.engine.lcg import narrate

        return narrate.describe(event)

    def summary_path_error(self, path: str) -> str | None:
        return summary.summary_path_error(path)

    def is_over(self, state: State) -> bool:
        return bool(state["over"])

    def ranking(self, state: State) -> list[str] | None:
        if not state["over"]:
            return None
        if melee.is_melee(state):
            return melee.ranking(state)
        return [state["winner"]] + [s for s in state["seats"] if s != state["winner"]]

    def placements(self, state: State) -> dict[str, int] | None:
        """A melee's shared places (equal power among the seats after the winner, melee.placements); a joust
        has none to share (the ranking stands)."""
        if not state["over"] or not melee.is_melee(state):
            return None
        return melee.placements(state)


RULESET = register(LcgRuleset())
