"""The random player (every decision, legal by construction) and the invariants a game must
keep after every action; used by the random-game tests."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engine.lcg import abilities as A
from games.engine.lcg import actions, cards_baratheon_targaryen, flow, melee
from games.engine.lcg import table as T

State = dict[str, Any]
Action = dict[str, Any]


def _name(state: State, uid: str) -> str:
    return T.copy_names(state, T.controller(state, uid))[uid]


def random_action(state: State, seat: str, rnd: random.Random) -> Action:
    from games.engine.lcg import RULESET

    d = state["decision"]
    kind = d["kind"]
    if kind in ("choose", "kill") and state["stack"] and state["stack"][-1]["f"] == "choose":
        fr = state["stack"][-1]
        legal = A.choice_legal(state, seat)
        if legal is not None:
            return {kind: rnd.choice(legal)}
        opts = [A._name(state, u, seat) for u in A.choice_options(state, fr)]
        n = rnd.randint(fr["lo"], min(fr["hi"], len(opts)))
        return {kind: rnd.sample(opts, n)}
    if kind in ("interrupt", "reaction"):
        opts = A.options(state, seat, kind, A.top_window(state)["ev"])
        if opts and rnd.random() < 0.8:
            return rnd.choice(opts)
        return {"pass": True}
    if kind == "action":
        opts = actions.window_actions(state, seat)
        if opts and rnd.random() < 0.8:
            return rnd.choice(opts)
        return {"pass": True}
    if kind == "setup":
        return {"setup": _random_setup(state, seat, rnd)}
    if kind == "challenge":
        types = flow.can_challenge(state, seat)
        if rnd.random() < 0.15:
            return {"pass": True}
        ctype = rnd.choice(types)
        able = [u for u in T.in_play(state, seat, "character")
                if not state["inplay"][u]["kneeling"] and T.has_icon(state, u, ctype)]
        most = cards_baratheon_targaryen.max_attackers(state)  # Jousting Contest
        attackers = rnd.sample(able, rnd.randint(1, len(able) if most is None else min(most, len(able))))
        opp = rnd.choice(melee.legal_opponents(state, seat, ctype)) if melee.is_melee(state) else T.opponent(state, seat)
        stealth = {}
        targets = [u for u in T.in_play(state, opp, "character") if not T.has_keyword(state, u, "stealth")]
        for a in attackers:
            if T.has_keyword(state, a, "stealth") and targets and rnd.random() < 0.7:
                stealth[_name(state, a)] = _name(state, rnd.choice(targets))
        act: dict[str, Any] = {"type": ctype, "attackers": [_name(state, u) for u in attackers]}
        if melee.is_melee(state):
            act["opponent"] = opp
        if stealth:
            act["stealth"] = stealth
        return {"challenge": act}
    if kind == "defenders":
        able = flow.eligible_defenders(state)
        most = A.max_defenders(state)
        top = len(able) if most is None else min(most, len(able))
        return {"defenders": [_name(state, u) for u in rnd.sample(able, rnd.randint(0, top))]}
    if kind == "kill":
        chars = T.in_play(state, seat, "character")
        return {"kill": [_name(state, u) for u in rnd.sample(chars, d["count"])]}
    if kind == "discard":
        hand = state["players"][seat]["hand"]
        return {"discard": [T.cid(state, u) for u in rnd.sample(hand, d["count"])]}
    if kind in ("renown", "insight", "pillage"):
        opts = flow.keyword_options(state, kind)
        return {kind: [_name(state, u) for u in opts if rnd.random() < 0.7]}
    legal = RULESET.legal_actions(state, seat)
    return rnd.choice(legal)


def _random_setup(state: State, seat: str, rnd: random.Random) -> list[Any]:
    hand = list(state["players"][seat]["hand"])
    rnd.shuffle(hand)
    chosen: list[Any] = []
    chars: list[str] = []
    for u in hand:
        c = T.card(state, u)
        if c["type"] == "event" or rnd.random() < 0.3:
            continue
        entry: Any = c["id"]
        if c["type"] == "attachment":
            if not chars:
                continue
            entry = {"card": c["id"], "on": rnd.choice(chars)}
        try:
            actions.check_setup(state, seat, chosen + [entry])
        except Exception:
            continue
        chosen.append(entry)
        if c["type"] == "character" and c["id"] not in chars:
            chars.append(c["id"])
    return chosen


# ------------------------------------------------------------------ invariants


def check_invariants(state: State) -> None:
    """Every card in exactly one zone; gold and power never negative; one copy of a unique card
    in play per seat (its other copies are duplicates); attachments on a character in play."""
    where: Counter[str] = Counter()
    for s in state["seats"]:
        p = state["players"][s]
        for key in T.PILES:
            where.update(p[key])
        for key in ("plot", "chosen_plot"):
            if p[key] is not None:
                where[p[key]] += 1
        assert p["gold"] >= 0, (s, "gold", p["gold"])
        assert p["faction_power"] >= 0, (s, "faction power")
        assert 0 <= p["limited"] <= A.limited_allowance(state, s), (s, "limited", p["limited"])
        for u in p["play"]:
            where[u] += 1
            rec = state["inplay"][u]
            assert rec["controller"] == s
            assert rec["power"] >= 0 and rec["gold"] >= 0
            where.update(rec["duplicates"])
            if rec["on"] is not None:
                assert rec["on"] in state["inplay"], "an attachment on a card out of play"
                assert T.card(state, rec["on"])["type"] == "character"
        uniques = [T.cid(state, u) for u in p["play"] if T.card(state, u)["unique"] and T.owner(state, u) == s]
        assert len(uniques) == len(set(uniques)), (s, "two copies of a unique card", uniques)
    assert set(where) == set(state["uids"]), "a card in no zone" if len(where) < len(state["uids"]) else "unknown card"
    doubled = [u for u, n in where.items() if n != 1]
    assert not doubled, ("cards in two zones", doubled)
    assert sum(len(state["players"][s]["play"]) for s in state["seats"]) == len(state["inplay"])
    check_limits(state)


def check_limits(state: State) -> None:
    """No ability used over its limit or maximum (L162)."""
    from games.engine.lcg.cards import ABILITIES

    for period, used in state["limits"].items():
        for key, n in used.items():
            parts = key.split(":")
            if parts[0] == "events":
                continue
            if parts[0] == "max":
                spec = ABILITIES[parts[2]][int(parts[3])]
                bound = spec["max"]
            else:
                spec = ABILITIES[T.cid(state, parts[0])][int(parts[1])]
                bound = spec["limit"]
            assert bound[0] == period and n <= bound[1], ("over its limit", key, n, bound)


# ------------------------------------------------------------------ the engine's own player


def smart_action(state: State, seat: str) -> Action:
    """bot_action: keep the hand, place the dearest setup characters, take the plot with the most
    gold, marshal the dearest card it can afford, use every reaction and save offered, attack with
    every able character when its total beats the defender's, defend when it can win."""
    from games.engine.lcg import RULESET

    d = state["decision"]
    kind = d["kind"]
    p = state["players"][seat]
    if kind == "setup":
        return {"setup": _greedy_setup(state, seat)}
    if kind == "plot":
        plots = sorted(p["plots"], key=lambda u: (-T.card(state, u)["plot"]["income"], -T.card(state, u)["plot"]["claim"],
                                                 T.cid(state, u)))
        return {"plot": T.cid(state, plots[0])}
    if kind == "first_player":
        return {"first_player": seat}
    if kind in ("interrupt", "reaction"):
        opts = A.options(state, seat, kind, A.top_window(state)["ev"])
        return opts[0] if opts else {"pass": True}
    if kind == "action":
        opts = actions.window_actions(state, seat)
        reducer = _useful_reducer(state, seat, opts)
        if reducer is not None:
            return reducer
        marshal = [o for o in opts if "marshal" in o]
        if marshal:
            def card_of(o: Action) -> str:
                name = o["marshal"] if isinstance(o["marshal"], str) else o["marshal"]["card"]
                return T.find_in_hand(state, seat, name)

            def value(o: Action) -> tuple[int, int]:
                c = T.card(state, card_of(o))
                return (c["type"] == "character", actions.cost_of(state, card_of(o)))
            best = max(marshal, key=value)
            # Fealty (kneel the faction card: the next loyal card costs 1 less) before a loyal card that costs gold
            if {"trigger": "fealty"} in opts and T.card(state, card_of(best)).get("loyal") \
                    and A.marshal_cost(state, seat, card_of(best)) > 0:
                return {"trigger": "fealty"}
            return best
        ambush = [o for o in opts if "ambush" in o]
        if ambush and state["active"] == seat:
            return ambush[0]
        # an event that costs nothing and names no target is played at once (The Bear and the Maiden Fair)
        for o in opts:
            if "play" in o and not o["play"].get("targets"):
                u = T.find_in_hand(state, seat, o["play"]["card"])
                if u is not None and A.event_cost(state, seat, u) == 0:
                    return o
        return {"pass": True}
    if kind == "challenge":
        return _attack(state, seat)
    if kind in ("title", "redirect", "redirect_to", "claim_opponents"):
        return _melee_choice(state, seat)
    if kind == "defenders":
        return {"defenders": _defend(state, seat)}
    if kind in ("renown", "insight", "pillage"):
        return {kind: [_name(state, u) for u in flow.keyword_options(state, kind)]}
    if kind == "intimidate":
        opts = flow.keyword_options(state, "intimidate")
        return {"intimidate": _name(state, max(opts, key=lambda u: T.strength(state, u))) if opts else None}
    return RULESET.default_action(state, seat)


def _useful_reducer(state: State, seat: str, opts: list[Action]) -> Action | None:
    """A cost reducer in play ("reduce the cost of the next card you marshal this phase") whose
    reduction a card in hand would use: triggered before marshaling (issue 30)."""
    if state["phase"] != "marshaling":
        return None
    hand = [T.card(state, u) for u in state["players"][seat]["hand"]]
    for o in opts:
        if "trigger" not in o or not isinstance(o["trigger"], str):
            continue
        try:
            u = T.find_in_play(state, o["trigger"], [seat])
        except Exception:
            continue
        effects = [a["effect"] for a in A.live_specs(state, u) if a["kind"] == "action"]
        if len(effects) != 1 or not effects[0] or not all(op[0] == "reduce" for op in effects[0]):
            continue
        _, faction, ctype, _n = effects[0][0]
        if any(c["type"] != "event" and isinstance(c.get("cost"), int) and c["cost"] > 0
               and (not faction or c["faction"] == faction) and (not ctype or c["type"] == ctype) for c in hand):
            return o
    return None


def _greedy_setup(state: State, seat: str) -> list[Any]:
    hand = sorted(state["players"][seat]["hand"], key=lambda u: (-actions.cost_of(state, u), T.cid(state, u)))
    chosen: list[Any] = []
    for u in hand:
        c = T.card(state, u)
        if c["type"] not in ("character", "location"):
            continue
        try:
            actions.check_setup(state, seat, chosen + [c["id"]])
        except Exception:
            continue
        chosen.append(c["id"])
    return chosen


def _attackers(state: State, seat: str, ctype: str) -> list:
    """The standing characters of `seat` with the challenge's icon, the strongest alone when Jousting
    Contest limits the attackers."""
    able = [u for u in T.in_play(state, seat, "character")
            if not state["inplay"][u]["kneeling"] and T.has_icon(state, u, ctype)]
    most = cards_baratheon_targaryen.max_attackers(state)
    if most is not None:
        able = sorted(able, key=lambda u: -T.strength(state, u))[:most]
    return able


def _defending_strength(state: State, opp: str, ctype: str) -> int:
    """The STR the standing characters of `opp` with the challenge's icon could defend with."""
    return sum(T.strength(state, u) for u in T.in_play(state, opp, "character")
               if not state["inplay"][u]["kneeling"] and T.has_icon(state, u, ctype))


def _challenges(state: State, seat: str):
    """(type, attackers, their STR) of each challenge `seat` may still declare."""
    for ctype in ("military", "power", "intrigue"):
        if ctype in flow.can_challenge(state, seat):
            able = _attackers(state, seat, ctype)
            yield ctype, able, sum(T.strength(state, u) for u in able)


def _attack(state: State, seat: str) -> Action:
    if melee.is_melee(state):
        return _melee_attack(state, seat)
    opp = T.opponent(state, seat)
    best = None
    for ctype, able, mine in _challenges(state, seat):
        theirs = _defending_strength(state, opp, ctype)
        if able and mine >= 1 and mine > theirs and (best is None or mine - theirs > best[0]):
            best = (mine - theirs, ctype, able)
    if best is None:
        return {"pass": True}
    return {"challenge": {"type": best[1], "attackers": [_name(state, u) for u in best[2]]}}


def _melee_attack(state: State, seat: str) -> Action:
    """In a melee: the challenge and the opponent where the able characters beat the most, preferring
    the leader in power (rivals and the 15 to win)."""
    best = None
    for ctype, able, mine in _challenges(state, seat):
        for opp in melee.legal_opponents(state, seat, ctype):
            theirs = _defending_strength(state, opp, ctype)
            score = (mine - theirs, melee.rivals(state, seat, opp), T.power_total(state, opp))
            if able and mine >= 1 and mine > theirs and (best is None or score > best[0]):
                best = (score, ctype, able, opp)
    if best is None:
        return {"pass": True}
    return {"challenge": {"type": best[1], "attackers": [_name(state, u) for u in best[2]], "opponent": best[3]}}


def _melee_choice(state: State, seat: str) -> Action | None:
    """The engine's player at the melee's own decisions: a title that brings STR or gold, redirect a
    challenge aimed at itself onto the opponent with the most power, Master of Whispers against all."""
    d = state["decision"]
    kind = d["kind"]
    if kind == "title":
        pref = ("master_of_coin", "crown_regent", "hand_of_the_king", "master_of_laws", "master_of_ships",
                "master_of_whispers")
        return {"title": min(d["options"], key=pref.index)}
    if kind == "redirect":
        return {"redirect": state["challenge"]["defender"] == seat}
    if kind == "redirect_to":
        return {"redirect_to": max(d["options"], key=lambda o: (T.power_total(state, o), o != seat))}
    if kind == "claim_opponents":
        return {"claim_opponents": list(d["options"])}
    return None


def _defend(state: State, seat: str) -> list[str]:
    ch = state["challenge"]
    attack = sum(T.strength(state, u) for u in ch["attackers"] if u in state["inplay"])
    able = sorted(flow.eligible_defenders(state), key=lambda u: -T.strength(state, u))
    most = A.max_defenders(state)
    if most is not None:
        able = able[:most]
    chosen, total = [], 0
    for u in able:
        if total > attack:
            break
        chosen.append(u)
        total += T.strength(state, u)
    return [_name(state, u) for u in chosen] if total > attack else []


def play_game(seed: int, decks: tuple[str, str], players: dict[str, str], *, check: bool = True,
              every_window: bool = False) -> dict[str, Any]:
    """A whole game; `players` maps a seat to "random" or "smart". Invariants after every action."""
    from games.engine.lcg import RULESET as R

    state = R.new_game(["p1", "p2"], {"decks": list(decks), "every_window": every_window}, seed)
    rnd = random.Random(seed)
    n = 0
    while not state["over"]:
        seat = sorted(R.pending(state))[0]
        if players[seat] == "smart":
            act = smart_action(state, seat)
        else:
            act = random_action(state, seat, rnd)
        state, _ = R.apply(state, seat, act)
        if check:
            check_invariants(state)
        n += 1
        if n > 20000:
            raise RuntimeError("the game does not end")
    return {"state": state, "actions": n}


def play_melee(seed: int, players: int, *, smart: tuple[str, ...] = (), check: bool = True,
               every_window: bool = False, decks: list[str] | None = None) -> dict[str, Any]:
    """A whole melee of `players` seats (3-6, melee.py): random players, or the engine's player in the
    seats named in `smart`; decks in seat order (default: the two learn-to-play decks in turn).
    Invariants after every action (with the melee's own, `check_melee`)."""
    from games.engine.lcg import RULESET as R
    from games.engine.lcg import data

    seats = R.seat_names(players)
    if decks is None:
        decks = [data.DEFAULT_DECKS[i % 2] for i in range(players)]
    state = R.new_game(seats, {"decks": list(decks), "every_window": every_window}, seed)
    rnd = random.Random(seed)
    n = 0
    while not state["over"]:
        seat = sorted(R.pending(state))[0]
        act = smart_action(state, seat) if seat in smart else random_action(state, seat, rnd)
        state, _ = R.apply(state, seat, act)
        if check:
            check_invariants(state)
            check_melee(state)
        n += 1
        if n > 40000:
            raise RuntimeError("the game does not end")
    return {"state": state, "actions": n}


def check_melee(state: State) -> None:
    """Titles: each held by at most one seat, never by an eliminated one; nothing held while they are
    being chosen; an eliminated seat controls nothing and is never asked; the pool rule (L203)."""
    m = state.get("melee")
    if m is None:
        return
    held = list(m["titles"].values())
    assert len(held) == len(set(held)), ("a title held twice", m["titles"])
    assert all(t in melee.TITLES for t in held)
    for s in state["eliminated"]:
        if not state["over"]:
            assert s not in m["titles"], ("an eliminated seat holds a title", s)
            assert not state["players"][s]["play"], ("an eliminated seat controls cards", s)
            d = state["decision"]
            assert not d or s not in d["seats"], ("an eliminated seat is asked", s, d["kind"])
    if m["selecting"]:
        assert not m["titles"]
        left = len(m["offer"]) + len([t for t in m["picked"].values() if t])
        assert left + len(m["removed"]) == len(melee.TITLES)
        assert len(m["removed"]) == melee.pool_removed(len(T.player_order(state)))
    if state["phase"] not in ("plot",) and not state["over"] and state["setup_done"] and state["step"] != "7.5":
        if state["round"] and state["phase"] != "taxation":
            assert len(m["titles"]) == min(len(T.alive(state)), len(melee.TITLES)) or state["eliminated"], \
                ("every seat holds a title after 1.4", m["titles"])
