"""A Song of Ice and Fire: Tabletop Miniatures Game (2021 core rules), two players (Stark and
Lannister), registered as `minis`.

Rules: ../shared/rules/minis.md (M1-M129, §4 the table model, §5 decisions and defaults); starter
content as data (data/starter_armies.yaml). Geometry on shapely (geometry.py). State layout, what is
implemented and what is not: docs/engine-minis.md.
"""
from __future__ import annotations

import marshal
import random
from typing import Any

from games.engine import fields as F
from games.engine.base import REFEREE, EngineError, register
from games.engine.minis import cards, data, flow, narrate, setup, summary
from games.engine.minis import table as T
from games.engine.narration import gettext

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

SEATS = ("stark", "lannister")
# decision kind -> the answers it takes
ANSWERS = {
    "activate": ("activate", "pass"),
    "action": ("maneuver", "march", "retreat", "charge", "attack", "no_action", "claim", "place"),
    "retreat_move": ("retreat_move",),
    "reroll": ("reroll",),
    "spend": ("spend",),
    "pivot": ("pivot",),
    "surge": ("surge",),
    "discard": ("discard",),
    "choose": ("choose",),
    "deploy": ("deploy",),
    "redeploy": ("redeploy",),
    "react": ("play", "order", "pass", "auto_pass"),
}
ALL_ANSWERS = frozenset(a for v in ANSWERS.values() for a in v)


def copy_state(state: State) -> State:
    return marshal.loads(marshal.dumps(state))


class MinisRuleset:
    id = "minis"
    min_seats = 2
    # two to four seats on the site too (issue 33): three or four play a free-for-all (M131) or, four, teams (M130)
    max_seats = 4
    engine_max_seats = 4
    scenario_keys = ("cards",)
    ordered_summary_paths = ("decks.*", "discards.*", "last_attack.attack_dice", "last_attack.defense_dice",
                             "last_attack.rolled", "last_attack.rerolled", "last_attack.panic.dice",
                             "last_test.dice", "units.*.at", "units.*.pose.at")
    options_doc = {
        "mode": "the game mode: here_we_stand (the only one implemented, default)",
        "armies": "{seat: list} (stark, lannister; a mirror match of two players: stark and stark_2, or lannister "
                  "and lannister_2): a fixed list id (" + ", ".join(
                      data.list_ids() + list(data.content()["quick_lists"]))
                  + ") or {commander, units: [{unit, attachment?}], ncus}; default the fixed list of the game "
                    "size (20: the quick team game's), else the 30-point one",
        "terrain": "none (default) or random: 1D3 + 2 pieces drawn on the terrain table and placed by the "  # M22
                   "game's generator outside the deployment zones, 6 in from the edges and each other",
        "game_size": "army points per player (default 30; 20: the quick two against two with its lists); the victory "
                     "threshold follows",  # M126
        # M131 (ffa), M130 (teams)
        "multiplayer": "three or four seats (stark, lannister, stark_2, lannister_2): ffa (default: "
                       "corners, 12 in square zones, clockwise turns) or teams (four seats, two against two)",
        "teams": "with multiplayer teams: {seat: a | b}, two seats each (default: the first two seats "
                 "against the last two)",
        "reaction_prompts": "all (default for new games): every trigger window asks each seat whose deck "
                            "list or Orders could answer it, with pass and auto_pass (for this turn) answers, "
                            "so no prompt reveals a hand; playable (scenarios): only a seat holding a "
                            "playable card or Order is asked",
    }

    # -------------------------------------------------------------- creation

    def seat_names(self, count: int) -> list[str]:
        if count in (3, 4):
            return list(setup.MULTI_SEATS[:count])  # M131: a house may be played twice
        if count != 2:
            raise EngineError("illegal_action", "the miniatures game is played by two to four players")
        return list(SEATS)

    def seat_choices(self, count: int) -> list[str]:
        if count in (2, 3, 4):
            # two players: stark and lannister, or one house's two armies (setup.DUELS: a mirror match)
            return list(setup.MULTI_SEATS)
        return self.seat_names(count)

    def new_game(self, seats: list[str], options: dict[str, Any], seed: int) -> State:
        return setup.new_game(seats, options, seed)

    def scenario_game(self, seats: list[str], options: dict[str, Any], seed: int, setup_keys: dict[str, Any],
                      start: str | None, extra: dict[str, Any] | None = None) -> State:
        return setup.scenario_game(seats, options, seed, setup_keys, start, (extra or {}).get("cards"))

    # -------------------------------------------------------------- decisions

    def pending(self, state: State) -> dict[str, str]:
        return summary.pending(state)

    def legal_actions(self, state: State, seat: str) -> list[Action] | None:
        """Listed when the choice is among few options; moves are continuous (None): use `check`."""
        d = state.get("decision")
        if state["over"] or not d or seat not in d["seats"]:
            return []
        kind = d["kind"]
        if kind == "activate":
            return [{"activate": n} for n in flow.activations_left(state, seat)]
        if kind == "choose" and d.get("what") == "first_player":
            return [{"choose": s} for s in state["seats"]]
        if kind == "choose" and d.get("what") == "influence":
            return [{"choose": c} for c in flow.influence_choices(state)]
        if kind == "choose" and d.get("what") == "go_down_fighting":
            return [{"choose": e} for e in d["enemies"]]
        if kind == "choose" and d.get("what") == "ncu_ability":
            return [{"choose": c} for c in cards.ncu_choices(state)] + [{"choose": None}]  # "you may"
        if kind == "react":
            return cards.choices(state, seat)
        if kind == "choose":
            opts = [{"choose": c} for c in flow.zone_choices(state, d["zone"], seat)
                    if "maneuver" not in c]
            return opts + ([{"choose": None}] if d["zone"] in flow.MAY_ZONES else [])
        return None

    def check(self, state: State, seat: str, action: Action) -> dict[str, Any]:
        """A proposed move checked without applying it: {"ok": true, "at", "facing"} (the resolved
        pose) or {"ok": false, "reason"}. Answers maneuver, march, retreat_move, surge and deploy.
        A read-only query, for any seat whatever is pending (positions are public): {"line_of_sight":
        {"from": unit, "to": unit, "ranged"?: bool}} -> {"ok", "reason"} (M81, M78)."""
        try:
            if not isinstance(action, dict) or len(action) != 1:
                raise EngineError("bad_action", gettext("an action is an object with one key"))
            F.guard(action)  # the same reading as apply's: a check and an action refuse alike
            kind, value = next(iter(action.items()))
            if kind == "line_of_sight" and seat in state["seats"]:
                return self._line_of_sight(state, value)
            d = state.get("decision")
            if state["over"] or not d or seat not in d["seats"]:
                raise EngineError("not_your_turn", gettext("no decision of yours is pending"))
            if kind in ("maneuver", "march") and d["kind"] == "action" and not state["act"]["ncu"]:
                name = state["act"]["unit"]
                at, facing = (flow.check_maneuver if kind == "maneuver" else flow.check_march)(state, name, value)
            elif kind == "retreat_move" and d["kind"] == "retreat_move":
                at, facing = flow.check_retreat_move(state, d["unit"], value, d["max"])
            elif kind == "surge" and d["kind"] == "surge":
                at, facing = flow.check_maneuver(state, d["unit"], value)
            else:
                new, _ = self.apply(state, seat, action)
                return {"ok": True}
        except EngineError as exc:
            return {"ok": False, "error": exc.code, "reason": exc.reason}
        return {"ok": True, "at": [round(at[0], 2), round(at[1], 2)], "facing": round(facing, 2)}

    def _line_of_sight(self, state: State, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict) or not set(value) <= {"from", "to", "ranged"} \
                or not isinstance(value.get("ranged", False), bool):
            raise EngineError("bad_action", gettext("line_of_sight takes {from: unit, to: unit, ranged?: true or false}"))
        on_table = T.live(state)
        a, b = value.get("from"), value.get("to")
        for n in (a, b):
            if not isinstance(n, str) or n not in on_table:
                raise EngineError("bad_action", gettext("line_of_sight: from and to are units on the table"))
        if a == b:
            raise EngineError("bad_action", gettext("line_of_sight takes two different units"))
        why = T.sight(state, a, b, value.get("ranged", False))
        if why:
            return {"ok": False, "error": "no_line_of_sight", "reason": why}
        return {"ok": True, "reason": gettext("%(a)s has line of sight to %(b)s") % {"a": a, "b": b}}  # M81

    def apply(self, state: State, seat: str, act: Action) -> tuple[State, list[Event]]:
        if state["over"]:
            raise EngineError("game_over", gettext("the game is over"))
        if not isinstance(act, dict) or len(act) != 1:
            raise EngineError("bad_action", gettext("an action is an object with one key"))
        F.guard(act)
        kind, value = next(iter(act.items()))
        if kind not in ALL_ANSWERS:
            raise EngineError("bad_action", gettext("unknown action %(action)s") % {"action": F.shown(kind)})
        if seat not in state["seats"]:
            raise EngineError("not_your_turn", gettext("%(seat)s is not a seat") % {"seat": seat})
        d = state.get("decision")
        if not d or seat not in d["seats"]:
            raise EngineError("not_your_turn", gettext("%(seat)s has no decision to make now") % {"seat": seat})
        if kind not in ANSWERS[d["kind"]]:
            raise EngineError("not_your_turn", gettext("%(kind)s does not answer the pending %(pending)s")
                              % {"kind": kind, "pending": d["kind"]})
        new = copy_state(state)
        events = narrate.Recorder(new)  # a list that adds the public facts the log's sentences need
        self._answer(new, seat, d["kind"], kind, value, events)
        flow.run(new, events)
        return new, events.close()

    def _answer(self, state: State, seat: str, dkind: str, kind: str, value: Any, events: list[Event]) -> None:
        if dkind == "activate":
            if kind == "pass":
                raise EngineError("illegal_action", gettext("a seat with an unactivated unit must activate one"))  # M28
            if not isinstance(value, str):
                raise EngineError("bad_action", gettext("activate takes a unit name or an NCU id"))
            state["decision"] = None
            flow.activate(state, seat, value, events)
            return
        if dkind == "action":
            state["decision"] = None
            if kind == "no_action" and value is not True:
                raise EngineError("bad_action", gettext("no_action takes true"))
            flow.do_action(state, seat, kind, value, events)
            return
        handlers = {
            "retreat_move": flow.answer_retreat_move, "reroll": flow.answer_reroll, "spend": flow.answer_spend,
            "pivot": flow.answer_pivot, "surge": flow.answer_surge, "discard": flow.answer_discard,
            "deploy": flow.answer_deploy, "redeploy": flow.answer_redeploy,
        }
        if dkind == "react":
            cards.answer(state, seat, kind, value, events)
            return
        if dkind == "choose":
            d = state["decision"]
            if d.get("what") == "influence":
                flow.answer_influence(state, seat, value, events)
                return
            if d.get("what") == "go_down_fighting":
                flow.answer_go_down_fighting(state, seat, value, events)
                return
            if d.get("what") == "ncu_ability":
                cards.answer_ncu_ability(state, seat, value, events)
                return
            if d.get("what") == "first_player":
                if value not in state["seats"]:
                    raise EngineError("bad_action", gettext("choose takes a seat"))
                state["first_player"] = value
                state["decision"] = None
                events.append({"type": "first_player", "seat": value})
                return
            flow.answer_zone(state, seat, value, events)
            return
        handlers[dkind](state, seat, value, events)

    def default_action(self, state: State, seat: str) -> Action:
        """rules/minis.md §5 and SCENARIOS.md "minis" timeout defaults."""
        d = state["decision"]
        kind = d["kind"]
        if kind == "activate":
            left = flow.activations_left(state, seat)
            return {"activate": left[0]}
        if kind == "action":
            if d.get("must_charge"):
                return {"charge": {"target": d["must_charge"][0]}}  # Uncontrolled Rage: the forced Charge
            return {"no_action": True}
        if kind == "retreat_move":
            best = flow.any_retreat(state, d["unit"], d["max"])
            return {"retreat_move": best or {"distance": 0}}
        if kind == "reroll":
            return {"reroll": []}
        if kind == "react":
            return {"pass": True}
        if kind in ("spend", "surge", "redeploy"):
            return {kind: None}
        if kind == "pivot":
            return {"pivot": {}}
        if kind == "discard":
            if d.get("count"):
                hand = state["players"][seat]["hand"]
                return {"discard": list(reversed(hand[-d["count"]:]))}
            return {"discard": []}
        if kind == "choose":
            if d.get("what") == "first_player":
                return {"choose": seat}
            if d.get("what") == "influence":
                return {"choose": flow.influence_choices(state)[0]}
            if d.get("what") == "go_down_fighting":
                return {"choose": d["enemies"][0]}  # the first engaged enemy in setup order
            if d.get("what") == "ncu_ability":
                return {"choose": None}  # an NCU's "you may": declined
            if d["zone"] in flow.MAY_ZONES:
                return {"choose": None}
            return {"choose": flow.zone_choices(state, d["zone"], seat)[0]}
        if kind == "deploy":
            return flow.default_deploy(state, seat)
        raise EngineError("illegal_action", f"no default for {kind}")

    def bot_action(self, state: State, seat: str) -> Action:
        from games.engine.minis import bot

        return bot.bot_action(state, seat)

    def random_action(self, state: State, seat: str, rnd: random.Random) -> Action:
        from games.engine.minis import bot

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
        return narrate.describe(event)

    def summary_path_error(self, path: str) -> str | None:
        return summary.summary_path_error(path)

    def is_over(self, state: State) -> bool:
        return bool(state["over"])

    def ranking(self, state: State) -> list[str] | None:
        if not state["over"]:
            return None
        if T.multi(state):
            return sorted(state["seats"], key=lambda s: self._place_key(state, s))
        if state["winner"] is None:
            return list(state["seats"])
        return [state["winner"], T.opponent(state, state["winner"])]

    @staticmethod
    def _place_key(state: State, seat: str) -> tuple:
        """Several players: the winner (its team) first; then the players still in the game, by VP
        (their team's) then army points left; the eliminated last, the latest eliminated first."""
        m = state["multi"]
        k = T.scorer(state, seat)
        won = state["winner"] is not None and k == state["winner"]
        out = m["eliminated"].index(seat) if seat in m["eliminated"] else None
        alive = out is None
        return (not won, not alive, -(out or 0), -state["vp"][k],
                -sum(T.army_points(state, s) for s in state["seats"] if T.scorer(state, s) == k))

    def placements(self, state: State) -> dict[str, int] | None:
        if not state["over"]:
            return None
        if T.multi(state):
            order = self.ranking(state) or []
            out: dict[str, int] = {}
            for i, s in enumerate(order):
                same = [p for p in order[:i] if self._place_key(state, p) == self._place_key(state, s)]
                out[s] = out[same[0]] if same else i + 1
            return out
        if state["winner"] is None:
            return {s: 1 for s in state["seats"]}
        return {state["winner"]: 1, T.opponent(state, state["winner"]): 2}


RULESET = register(MinisRuleset())
