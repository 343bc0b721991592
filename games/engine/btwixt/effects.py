"""Playing a card (B21, B22) and the effect ops of the card set (reference_set.yaml, VOCABULARY).

An ability is a list of steps. A step that needs a choice with two or more legal options (or an
optional one with at least one) asks the chooser with a `choose` decision; its options are kept in
the chooser's secret (they may name cards of its hand), the public decision names only the op.
An immediate ability's first choice (before any draw or look) is the play's `target` (N6).
"""
from __future__ import annotations

import itertools
import json
from typing import Any

from games.engine.base import EngineError
from games.engine.btwixt import data
from games.engine.btwixt import table as T
from games.engine.narration import gettext

State = dict[str, Any]
Event = dict[str, Any]
Step = dict[str, Any]

# ops whose information comes first: a choice after them is asked, never given as `target`
_INFO_OPS = frozenset({"draw", "look_allies", "claim_from_top"})


def canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


# ------------------------------------------------------------------ allies (B18, B78-B81)


def reveal_next(state: State, round_start: bool = False) -> str | None:
    """The next ally: the deck's top; with Allies in Sight the row's leftmost (B78), and during a
    round the deck's top joins the row's right end first (B80)."""
    if not state["options"]["allies_in_sight"]:
        return T.take_top(state, "allies")
    if not round_start:
        top = T.take_top(state, "allies")
        if top is not None:
            state["row"].append(top)
    if state["row"]:
        return state["row"].pop(0)
    return T.take_top(state, "allies")


def peek_allies(state: State, count: int) -> list[str]:
    """B81: with a row, the first looked-at ally is the row's next one, the rest the deck's top."""
    if state["options"]["allies_in_sight"] and state["row"]:
        return state["row"][:1] + state["decks"]["allies"][: count - 1]
    return state["decks"]["allies"][:count]


def remove_peeked(state: State, allies: list[str]) -> None:
    for a in allies:
        if state["options"]["allies_in_sight"] and state["row"] and state["row"][0] == a:
            state["row"].pop(0)
        else:
            state["decks"]["allies"].remove(a)
            T.set_pinned(state, "allies", min(T.pinned(state, "allies"), len(state["decks"]["allies"])))


def put_on_top(state: State, order: list[str], to_row: bool) -> None:
    """B81: with a row, the first goes back to the row's left end, the rest on the deck."""
    if not order:
        return
    if to_row:
        state["row"].insert(0, order[0])
        order = order[1:]
    state["decks"]["allies"][0:0] = order


def kill_current(state: State, replace: bool, events: list[Event]) -> None:
    """Kill the current ally: dead pile (B59), its tokens back to the supply (B42, B66, N8)."""
    ally = state["current_ally"]
    if ally is None:
        return
    state["dead"].insert(0, ally)
    T.return_tokens(state, state["ally_tokens"])
    state["ally_tokens"] = []
    state["current_ally"] = None
    state["round_ally"] = None
    events.append({"type": "kill", "ally": ally})
    if replace:
        new = reveal_next(state)
        state["current_ally"] = new
        state["round_ally"] = new
        events.append({"type": "reveal", "ally": new})


# ------------------------------------------------------------------ playing a card


def playable_cards(state: State, seat: str) -> list[str]:
    """Cards the seat may play now (B21; Ser Barristan's pile limit)."""
    for s in T.current_ops(state, "max_cards"):
        if len(state["piles"][seat]) >= int(s["count"]):
            return []
    return sorted(set(T.hand(state, seat)))


def may_kneel(state: State, seat: str) -> bool:
    """Kneeling is always legal, except under Robert Baratheon's must_play with an empty pile."""
    if T.current_ops(state, "must_play") and not state["piles"][seat] and playable_cards(state, seat):
        return False
    return True


def immediate_steps(state: State, card_id: str) -> list[Step]:
    if not T.abilities_on(state):
        return []
    return data.card(card_id).steps("immediate")


def first_choice(state: State, seat: str, card_id: str) -> tuple[int, list[Any], bool] | None:
    """(index of the step, its options, whether `target` is required) for the first choice of an
    immediate ability (N6). A choice after a draw is asked later; the order of allies looked at
    may be given as `target` or answered later as `choose` (the seat sees them first)."""
    for i, step in enumerate(immediate_steps(state, card_id)):
        if step.get("op") == "draw":
            return None
        opts = options(state, seat, step, {"card": card_id, "timing": "immediate"})
        if opts is not None:
            return i, opts, step.get("op") not in _INFO_OPS
    return None


def play_actions(state: State, seat: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for c in playable_cards(state, seat):
        fc = first_choice(state, seat, c)
        if fc is not None and fc[2] and len(fc[1]) >= 2:
            out.extend({"play": c, "target": t} for t in fc[1])
        else:
            out.append({"play": c})
    return out


def play(state: State, seat: str, act: dict[str, Any], events: list[Event]) -> None:
    """B21, B22, N5: the ability resolves before the card enters the pile."""
    card_id = act.get("play")
    if not isinstance(card_id, str):
        raise EngineError("bad_action", gettext("play takes a card id"))
    extra = set(act) - {"play", "target"}
    if extra:
        raise EngineError("bad_action", gettext("play: unknown key %(keys)s") % {"keys": ", ".join(sorted(extra))})
    if card_id not in T.hand(state, seat):
        raise EngineError("illegal_action", gettext("%(card)s is not in your hand") % {"card": card_id})
    if card_id not in playable_cards(state, seat):
        raise EngineError("illegal_action", gettext("%(card)s cannot be played now") % {"card": card_id})
    if act.get("target") is not None and not isinstance(act["target"], bool):
        check_answer_shape(act["target"])
    fc = first_choice(state, seat, card_id)
    preset: dict[str, Any] = {}
    if fc is not None and fc[1]:
        index, opts, required = fc
        target = act.get("target")
        if target is None and required:
            if len(opts) >= 2:
                raise EngineError("illegal_action", gettext("%(card)s needs a target: one of %(options)s") % {
                    "card": card_id, "options": canon(opts)})
            target = opts[0]
        elif target is not None and canon(target) not in {canon(o) for o in opts}:
            raise EngineError("illegal_action", gettext("%(card)s: target %(target)s is not legal") % {
                "card": card_id, "target": canon(target)})
        if target is not None:
            preset = {"index": index, "answer": target}
    elif act.get("target") is not None:
        raise EngineError("illegal_action", gettext("%(card)s: no target is possible") % {"card": card_id})
    T.hand(state, seat).remove(card_id)
    state["playing"] = {"seat": seat, "card": card_id, "to": seat}
    state["decision"] = None
    events.append({"type": "play", "seat": seat, "card": card_id})
    steps = immediate_steps(state, card_id)
    state["queue"][0:0] = [
        {"t": "steps", "seat": seat, "steps": steps, "ctx": {"card": card_id, "timing": "immediate"}, "preset": preset},
        {"t": "enter"},
        {"t": "next_turn", "after": seat},
    ]


def task_enter(state: State, task: dict[str, Any], events: list[Event]) -> None:
    p = state["playing"]
    state["playing"] = None
    if p["to"] is not None:
        state["piles"][p["to"]].append(p["card"])


# ------------------------------------------------------------------ running steps


def task_steps(state: State, task: dict[str, Any], events: list[Event]) -> None:
    seat, steps, ctx = task["seat"], list(task["steps"]), task["ctx"]
    preset = task.get("preset") or {}
    done = int(task.get("done", 0))
    while steps:
        step = steps.pop(0)
        index = done
        done += 1
        if not condition(state, seat, step):
            continue
        if preset and preset.get("index") == index:
            do(state, seat, step, ctx, preset["answer"], events)
            continue
        opts = options(state, seat, step, ctx)
        if opts is None:
            do(state, seat, step, ctx, None, events)
            continue
        optional = bool(step.get("optional"))
        if not opts:
            continue  # a chosen target with no legal option does nothing
        if len(opts) == 1 and not optional:
            do(state, seat, step, ctx, opts[0], events)
            continue
        # ask; the rest of the steps wait at the front of the queue
        state["queue"].insert(0, {"t": "steps", "seat": seat, "steps": steps, "ctx": ctx, "done": done})
        peek = _peek_for(state, step)
        T.secret(state, seat)["options"] = opts
        T.secret(state, seat)["peeked"] = peek
        state["decision"] = {"kind": "choose", "seats": [seat], "op": step["op"], "optional": optional,
                             "step": step, "ctx": ctx, "source": ctx.get("card") or ctx.get("ally")}
        return


def _peek_for(state: State, step: Step) -> list[str]:
    if step.get("op") in ("look_allies", "claim_from_top"):
        return peek_allies(state, int(step.get("count", 3)))
    return []


ANSWER_KEYS = frozenset({"seat", "card", "to", "ally", "allies", "order", "bottom"})


def check_answer_shape(answer: Any) -> None:
    """SCENARIOS.md `choose` forms; anything else is malformed (bad_action)."""
    if isinstance(answer, bool):
        return
    if not isinstance(answer, dict) or not answer or set(answer) - ANSWER_KEYS:
        raise EngineError("bad_action", gettext("choose takes true, false or an object of seat/card/to/ally/allies/order/bottom"))
    for k, v in answer.items():
        if k in ("allies", "order"):
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise EngineError("bad_action", gettext("choose: %(key)s is a list of ids") % {"key": k})
        elif not isinstance(v, str):
            raise EngineError("bad_action", gettext("choose: %(key)s is an id") % {"key": k})


def choose(state: State, seat: str, answer: Any, events: list[Event]) -> None:
    check_answer_shape(answer)
    d = state["decision"]
    sec = T.secret(state, seat)
    opts = sec.get("options") or []
    if answer is False and d["optional"]:
        pass
    elif isinstance(answer, dict) and "allies" in answer and len(answer["allies"]) == 2 \
            and canon({**answer, "allies": answer["allies"][::-1]}) in {canon(o) for o in opts}:
        answer = {**answer, "allies": answer["allies"][::-1]}  # a swap names its two allies in any order
    elif canon(answer) not in {canon(o) for o in opts}:
        said = (gettext("choose: %(answer)s is not one of %(options)s or false") if d["optional"]
                else gettext("choose: %(answer)s is not one of %(options)s"))
        raise EngineError("illegal_action", said % {"answer": canon(answer), "options": canon(opts)})
    sec["options"] = []
    sec["peeked"] = []
    state["decision"] = None
    if answer is not False:
        do(state, seat, d["step"], d["ctx"], answer, events)


def condition(state: State, seat: str, step: Step) -> bool:
    """`if: won | lost | neighbour_won` (read at on_victory)."""
    cond = step.get("if")
    if cond is None:
        return True
    winner = state["bid_winner"]
    if cond == "won":
        return winner == seat
    if cond == "lost":
        return winner != seat
    if cond == "neighbour_won":
        return winner in T.neighbours(state, seat) and winner != seat
    return False


# ------------------------------------------------------------------ options per op (None: no choice)


def _seat_rank(state: State, chooser: str) -> dict[str, int]:
    return {s: i for i, s in enumerate(T.clockwise_from(state, chooser))}


def options(state: State, seat: str, step: Step, ctx: dict[str, Any]) -> list[Any] | None:
    op = step.get("op")
    rank = _seat_rank(state, seat)
    if op == "move_card":
        return _move_card_options(state, seat, step, ctx, rank)
    if op == "discard_hand":
        return [{"card": c} for c in sorted(set(T.hand(state, seat)))]
    if op == "force_kneel":
        mine = T.total(state, seat)
        return [{"seat": s} for s in T.clockwise_from(state, seat, include=False)
                if s not in state["knelt"] and T.total(state, s) < mine]
    if op == "kill":
        if step.get("target") == "current_ally":
            if step.get("optional"):
                return [True] if state["current_ally"] else []
            return None
        return [{"ally": a} for a in _kill_candidates(state, seat, step, ctx)]
    if op == "raise_dead":
        return [{"ally": a} for a in sorted(set(state["dead"]))]
    if op == "look_allies":
        return _look_options(state, step)
    if op == "claim_from_top":
        return [{"ally": a} for a in sorted(set(peek_allies(state, int(step.get("count", 3)))))]
    if op in ("move_ally", "swap_allies"):
        return _ally_move_options(state, seat, step, ctx)
    return None


def _move_card_options(state: State, seat: str, step: Step, ctx: dict[str, Any], rank: dict[str, int]) -> list[Any] | None:
    if step.get("all") or step.get("card") == "this" and step.get("to") != "other_pile":
        return None
    if step.get("card") == "this":  # Bribe: another leader's pile
        return [{"seat": s} for s in T.clockwise_from(state, seat, include=False)]
    src = step.get("from")
    lo, hi = step.get("min_value"), step.get("max_value")

    def fits(c: str) -> bool:
        v = data.value(c)
        return (lo is None or v >= lo) and (hi is None or v <= hi)

    if src == "own_pile":
        pile = list(state["piles"][seat])
        if ctx.get("card") in pile and ctx.get("timing") != "immediate":
            pile.remove(ctx["card"])
        return [{"card": c} for c in sorted(set(pile)) if fits(c)]
    out: list[Any] = []
    for s in T.clockwise_from(state, seat, include=False):
        for c in sorted(set(state["piles"][s])):
            if not fits(c):
                continue
            if step.get("to") == "third_pile":
                out.extend({"seat": s, "card": c, "to": t} for t in T.clockwise_from(state, seat, include=False) if t != s)
            else:
                out.append({"seat": s, "card": c})
    return out


def _kill_candidates(state: State, seat: str, step: Step, ctx: dict[str, Any]) -> list[str]:
    where = step.get("where", "any")
    mine = T.councils_of(state, seat)
    if where == "this_council":
        names = [ctx["council"]]
    elif where == "not_yours":
        names = [c for c in T.all_councils(state) if c not in mine]
    else:
        names = T.all_councils(state)
    cands = [a for c in names for a in state["councils"][c]["allies"] if a != ctx.get("ally")]
    if "max_power" in step:
        cands = [a for a in cands if data.value(a) <= int(step["max_power"])]
    if step.get("lowest") and cands:
        low = min(data.value(a) for a in cands)
        cands = [a for a in cands if data.value(a) == low]
    return sorted(set(cands))


def _look_options(state: State, step: Step) -> list[Any] | None:
    seen = peek_allies(state, int(step.get("count", 3)))
    if step.get("bottom"):
        if not seen:
            return None
        out = []
        for b in seen:
            rest = [a for a in seen if a != b]
            out.extend({"order": list(p), "bottom": b} for p in itertools.permutations(rest))
        return out
    if len(seen) <= 1:
        return None
    return [{"order": list(p)} for p in itertools.permutations(seen)]  # the first keeps the order


def _ally_move_options(state: State, seat: str, step: Step, ctx: dict[str, Any]) -> list[Any]:
    a, b = T.councils_of(state, seat)
    this = ctx.get("ally")
    in_a = [x for x in state["councils"][a]["allies"] if x != this]
    in_b = [x for x in state["councils"][b]["allies"] if x != this]
    if a == b:
        return []
    if step["op"] == "move_ally":
        return [{"ally": x} for x in sorted(set(in_a + in_b))]
    return [{"allies": [x, y]} for x in sorted(set(in_a)) for y in sorted(set(in_b))]


# ------------------------------------------------------------------ doing an op


def do(state: State, seat: str, step: Step, ctx: dict[str, Any], answer: Any, events: list[Event]) -> None:
    op = step.get("op")
    if op == "gain_power":
        from games.engine.btwixt.flow import push_front

        push_front(state, *({"t": "token", "seat": seat, "ability": True} for _ in range(int(step.get("count", 1)))))
    elif op == "ally_tokens":
        if state["current_ally"]:
            for _ in range(int(step.get("count", 1))):
                v = T.take_token(state)
                if v is not None:
                    state["ally_tokens"].append(v)
    elif op == "draw":
        if step.get("who") == "losers":
            draw_losers(state, int(step.get("count", 1)), events)
        else:
            got = T.draw_to_hand(state, seat, int(step.get("count", 1)))
            events.append({"type": "draw", "seat": seat, "count": len(got), "private": {seat: got}})
    elif op == "move_card":
        _do_move_card(state, seat, step, ctx, answer, events)
    elif op == "discard_hand":
        T.hand(state, seat).remove(answer["card"])
        T.to_discard(state, answer["card"])
    elif op == "force_kneel":
        from games.engine.btwixt.flow import kneel

        kneel(state, answer["seat"], events)
    elif op == "kill":
        _do_kill(state, step, answer, events)
    elif op == "reveal_allies":
        for _ in range(int(step.get("count", 1))):
            a = reveal_next(state)
            if a is not None:
                state["extra_allies"].append(a)
                events.append({"type": "reveal_extra", "ally": a})
    elif op == "raise_dead":
        state["dead"].remove(answer["ally"])
        state["extra_allies"].append(answer["ally"])
    elif op == "look_allies":
        _do_look(state, step, answer)
    elif op == "claim_from_top":
        _do_claim_from_top(state, seat, step, ctx, answer)
    elif op == "move_ally":
        a, b = T.councils_of(state, seat)
        src = a if answer["ally"] in state["councils"][a]["allies"] else b
        dst = b if src == a else a
        state["councils"][src]["allies"].remove(answer["ally"])
        state["councils"][dst]["allies"].append(answer["ally"])
    elif op == "swap_allies":
        a, b = T.councils_of(state, seat)
        x, y = answer["allies"]
        state["councils"][a]["allies"].remove(x)
        state["councils"][b]["allies"].remove(y)
        state["councils"][a]["allies"].append(y)
        state["councils"][b]["allies"].append(x)


def draw_losers(state: State, count: int, events: list[Event]) -> None:
    for s in T.clockwise_from(state, state["first_player"]):
        if s != state["bid_winner"]:
            got = T.draw_to_hand(state, s, count)
            events.append({"type": "draw", "seat": s, "count": len(got), "private": {s: got}})


def _do_kill(state: State, step: Step, answer: Any, events: list[Event]) -> None:
    if step.get("target") == "current_ally":
        kill_current(state, bool(step.get("replace")), events)
        return
    ally = answer["ally"]
    council = T.council_of_ally(state, ally)
    if council is not None:
        state["councils"][council]["allies"].remove(ally)  # its council's tokens stay (A15)
        state["dead"].insert(0, ally)
        events.append({"type": "kill", "ally": ally, "council": council})


def _do_look(state: State, step: Step, answer: Any) -> None:
    seen = peek_allies(state, int(step.get("count", 3)))
    to_row = bool(state["options"]["allies_in_sight"] and state["row"])
    if answer is None:  # no choice: one ally (or none) seen, or bottom with one
        if step.get("bottom") and seen:
            remove_peeked(state, seen)
            state["decks"]["allies"].append(seen[0])
        return
    remove_peeked(state, seen)
    if answer.get("bottom"):
        state["decks"]["allies"].append(answer["bottom"])
    put_on_top(state, list(answer["order"]), to_row)


def _do_claim_from_top(state: State, seat: str, step: Step, ctx: dict[str, Any], answer: Any) -> None:
    seen = peek_allies(state, int(step.get("count", 3)))
    if not seen:
        return
    chosen = answer["ally"] if answer is not None else seen[0]
    remove_peeked(state, seen)
    rest = list(seen)
    rest.remove(chosen)
    state["decks"]["allies"].extend(rest)
    from games.engine.btwixt.flow import push_front

    push_front(state, {"t": "claim", "source": "ability", "ally": chosen, "seat": seat, "council": ctx.get("council")})


def _do_move_card(state: State, seat: str, step: Step, ctx: dict[str, Any], answer: Any, events: list[Event]) -> None:
    to = step.get("to")
    this = ctx.get("card")
    if step.get("card") == "this":
        if ctx.get("timing") == "immediate" and state.get("playing"):
            state["playing"]["to"] = answer["seat"]  # Bribe: into another leader's pile instead
            return
        if this in state["piles"][seat]:
            state["piles"][seat].remove(this)
            T.hand(state, seat).append(this)
        return
    if step.get("all"):
        src = step.get("from")
        owners = [seat] if src == "own_pile" else [s for s in state["seats"] if src == "any_pile" or s != seat]
        lo, hi = step.get("min_value"), step.get("max_value")
        for s in owners:
            keep: list[str] = []
            skipped_this = False
            for c in state["piles"][s]:
                v = data.value(c)
                ok = (lo is None or v >= lo) and (hi is None or v <= hi)
                if c == this and s == seat and not skipped_this and ctx.get("timing") != "immediate":
                    skipped_this = True
                    keep.append(c)
                elif ok:
                    _send(state, s, seat, c, to)
                else:
                    keep.append(c)
            state["piles"][s] = keep
        return
    card_id = answer["card"]
    src_seat = seat if step.get("from") == "own_pile" else answer["seat"]
    state["piles"][src_seat].remove(card_id)
    if to == "third_pile":
        state["piles"][answer["to"]].append(card_id)
    else:
        _send(state, src_seat, seat, card_id, to)
    events.append({"type": "move_card", "seat": seat, "card": card_id, "from": src_seat, "to": to})


def _send(state: State, owner: str, you: str, card_id: str, to: str | None) -> None:
    if to == "own_pile":
        state["piles"][you].append(card_id)
    elif to == "hand":
        T.hand(state, you).append(card_id)
    elif to == "owner_hand":
        T.hand(state, owner).append(card_id)
    else:
        T.to_discard(state, card_id)
